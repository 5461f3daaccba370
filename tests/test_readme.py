"""The README's transcript is what a user really sees: replay it at 40 columns."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from conftest import Runner

README = Path(__file__).parents[1] / "README.md"


def transcripts() -> list[list[tuple[str, str]]]:
    """Each ```console block as (command, expected output) pairs."""
    blocks = re.findall(r"```console\n(.*?)```", README.read_text(), re.S)
    out = []
    for block in blocks:
        steps: list[tuple[str, str]] = []
        for line in block.splitlines():
            if line.startswith("$ referee "):
                steps.append((line[len("$ referee ") :], ""))
            else:
                command, text = steps[-1]
                steps[-1] = (command, text + line + "\n")
        out.append(steps)
    return out


def test_readme_opens_with_install_and_test_commands() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", README.read_text(), re.S)
    assert "pip install ." in commands[0] and "referee show" in commands[0]
    assert 'pip install ".[test]"' in commands[1] and "pytest" in commands[1]


def test_readme_transcripts_replay(referee: Runner) -> None:
    blocks = transcripts()
    assert len(blocks) >= 2
    for block in blocks:
        for command, expected in block:
            result = referee(*shlex.split(command))
            shown = "\n".join(ln.rstrip() for ln in (result.out + result.err).splitlines())
            assert shown + "\n" == expected, command
