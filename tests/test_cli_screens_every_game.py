"""Every registered game's screens on a phone, from its bundled examples: after each of the
first actions of an example, the ruling comes first and everything fits 40x24 with the line
typed above it and the prompt below, and `show` and `log` fit 40 columns. A new game with an
example is checked unasked."""

from __future__ import annotations

import json

import pytest

from conftest import Example, Runner, examples


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.path.stem)
def test_after_each_action_the_ruling_comes_first_and_all_fits_40x24(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, example: Example
) -> None:
    monkeypatch.setenv("LINES", "24")
    assert referee(*example.new, "--name", "s").code == 0
    for command in example.commands[:6]:
        result = referee(*command)
        assert result.code == 0, (command, result)
        lines = result.out.rstrip("\n").splitlines()
        ruling = json.loads(referee("log", "--json", "--last", "1").out)[0]["ruling"]
        assert " ".join(" ".join(lines).split()).startswith(" ".join(ruling.split())[:30])
        assert len(lines) <= 22 and max(len(line) for line in lines) <= 40, result.out
    for shown in (referee("show").out, referee("log").out, referee("show", "--full").out):
        assert max(len(line.rstrip()) for line in shown.splitlines()) <= 40, shown
