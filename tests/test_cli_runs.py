"""A seeded run of random commands per game, each in its own process (issue 14): every refused
command prints one line and leaves the session file's bytes and modification time alone."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import every_game, examples_of, snapshot
from referee import games

LONG = bool(os.environ.get("REFEREE_LONG_TESTS"))


def commands_of(game: games.GameInfo) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """The `new` line of the game's first example, its lines in order (they hold), and the
    one-off lines of all its examples (at random most are refused: the wrong turn, the wrong
    moment), undo and redo."""
    found = examples_of(game.name)
    every = [c for e in found for c in e.commands] + [["undo"], ["redo"]]
    return list(found[0].new), found[0].commands, every


@pytest.mark.parametrize("game", every_game())
def test_random_commands_in_processes(home: Path, game: games.GameInfo) -> None:
    env = {**os.environ, "REFEREE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "40"}

    def referee(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee", *args], env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip

    start, script, commands = commands_of(game)
    assert referee(*start, "--name", "s").returncode == 0
    path = home / "sessions" / "s.toml"
    rng = random.Random(f"referee {game.name}")
    refused = done = held = 0  # done: the lines of the script that held; held: any line
    for _ in range(40 if LONG else 14):
        following = rng.random() < 0.5 and done < len(script)
        args = script[done] if following else rng.choice(commands)
        before = snapshot(path)
        result = referee(*args)
        if result.returncode == 0:
            assert result.stderr == "" or result.stderr.startswith("warning: ")
            done += following  # a random line that held may leave the script behind: no matter
            held += 1
            continue
        refused += 1
        assert result.returncode in (1, 2), (args, result.stderr)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), args
        assert "Traceback" not in result.stderr
        assert snapshot(path) == before, args  # a refusal changes nothing on disk
    assert refused > 0 and held > 0  # the run really tried refusals, and actions that hold
