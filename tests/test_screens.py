"""Every screen fits a 40-column phone (CLI.md); wider terminals use the room."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Runner

NIGHT = str(Path(__file__).parents[1] / "examples" / "kariki-night.toml")
HAND = "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 5D 6C 7C JK JK JK"

SCREENS = [
    ["--help"], ["new", "--help"], ["kariki", "--help"], ["kariki", "slash", "--help"],
    ["kalooki", "--help"], ["rules", "--help"], ["shell", "--help"],
    ["show"], ["kariki", "claim", "9"], ["kariki", "pass"], ["log"], ["undo"],
    ["sessions"], ["rules", "list"], ["rules", "show", "kariki"], ["rules", "show", "kalooki"],
    ["show", "-s", NIGHT], ["log", "-s", NIGHT],
    ["kalooki", "contracts"], ["kalooki", "check", "KD", "AD", "2D", "3D"],
    ["kalooki", "check", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JK"],
    ["kalooki", "score", *HAND.split()], ["kalooki", "solve", "9", *HAND.split()],
    ["kalooki", "contract", "2", "5H 5D JK / 5S 5C 5H / 9S 10S JS QS"],
    ["kalooki", "contract", "9", "7S 8S 9S 10S / 5D 6D 7D 8D / JK 10C JC QC / AH 2H JK 4H 5H"],
]  # fmt: skip


@pytest.mark.parametrize("args", SCREENS, ids=[" ".join(a)[:40] for a in SCREENS])
def test_every_screen_fits_40_columns(referee: Runner, args: list[str]) -> None:
    assert referee("new", "kariki", "Annabelle=Bella", "Bob", "Cy", "Dee", "Eve").code == 0
    assert referee("kariki", "claim", "9").code == 0
    result = referee(*args)
    assert result.code in (0, 1), result
    assert result.out.strip()
    too_long = [line for line in result.out.splitlines() if len(line.rstrip()) > 40]
    assert too_long == []


def test_redo_fits_40_columns(referee: Runner) -> None:
    referee("new", "kariki", "Annabelle=Bella", "Bob", "Cy", "Dee", "Eve")
    referee("kariki", "claim", "9")
    referee("undo")
    result = referee("redo")
    assert result.code == 0 and max(len(line.rstrip()) for line in result.out.splitlines()) <= 40


@pytest.mark.parametrize("width", ["80", "120"])
def test_wide_terminals_lay_the_crosses_side_by_side(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, width: str
) -> None:
    narrow = referee("show", "--full", "-s", NIGHT).out.splitlines()
    monkeypatch.setenv("COLUMNS", width)
    wide = referee("show", "--full", "-s", NIGHT).out.splitlines()
    assert len(wide) < len(narrow)
    assert max(len(line.rstrip()) for line in wide) <= int(width)
    names_row = next(line for line in wide if "Ann (Ace)" in line)
    assert "Bob" in names_row and ("Dee" in names_row) == (width == "120")  # 3 or 4 a row


HELPS = [
    ["--help"], ["new", "--help"], ["new", "kariki", "--help"], ["kariki", "--help"],
    ["kariki", "slash", "--help"], ["kalooki", "--help"], ["rules", "--help"], ["show", "--help"],
    ["log", "--help"], ["sessions", "--help"], ["shell", "--help"],
]  # fmt: skip


@pytest.mark.parametrize("args", HELPS, ids=" ".join)
def test_help_at_40_columns_is_never_cut_off(referee: Runner, args: list[str]) -> None:
    import re

    result = referee(*args)
    assert result.code == 0
    assert not re.search(r"[a-z]\.\.\.|\u2026", result.out), result.out  # Click cuts with "..."
    assert max(len(line.rstrip()) for line in result.out.splitlines()) <= 40
