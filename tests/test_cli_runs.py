"""A seeded run of random commands per game, each in its own process (issue 14): every refused
command prints one line and leaves the session file's bytes and modification time alone."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import snapshot

LONG = bool(os.environ.get("REFEREE_LONG_TESTS"))
GAMES = {
    "kariki": (["new", "kariki", "Ann", "Bob", "Cy"], [
        ["kariki", "claim", "9"], ["kariki", "claim", "4"], ["kariki", "pass"],
        ["kariki", "pull", "4-5"], ["kariki", "roll"], ["kariki", "kariki"],
        ["kariki", "slash", "Bob", "--count", "4"], ["kariki", "buyback", "Bob"],
        ["kariki", "claim", "7-1"], ["undo"], ["redo"],
    ]),
    "liars": (["new", "liars", "Ann", "Bob", "Cy", "--ruleset", "perudo"], [
        ["liars", "bid", "2x3"], ["liars", "bid", "1x1"], ["liars", "bid", "9x6"],
        ["liars", "call", "2"], ["liars", "exact", "1"], ["liars", "call", "--dice", "Ann=1"],
        ["liars", "bid", "5x7"], ["undo"], ["redo"],
    ]),
    "kiriki": (["new", "kiriki", "Ann", "Bob", "--format", "bullet"], [
        ["kiriki", "rolloff", "5", "3"], ["kiriki", "rolloff", "4", "4"],
        ["kiriki", "claim", "9"], ["kiriki", "believe"], ["kiriki", "reveal", "2-3"],
        ["kiriki", "lift", "4-5"], ["kiriki", "roll"], ["kiriki", "kiriki"],
        ["kiriki", "raise", "10"], ["kiriki", "reroll"], ["undo"], ["redo"],
    ]),
    "kalooki": (["new", "kalooki", "Ann", "Bob", "Cy"], [
        ["kalooki", "call", "Ann"], ["kalooki", "down", "Bob", "7H 7S 7D / 8C 8S 8D / 9H 9S JK"],
        ["kalooki", "tack", "Bob", "9C", "--on", "3"], ["kalooki", "out", "Bob"],
        ["kalooki", "hand", "Ann", "5H"], ["kalooki", "hand", "Cy", "--points", "9"],
        ["kalooki", "stockout"], ["kalooki", "hand", "Zed", "5H"], ["undo"], ["redo"],
    ]),
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_commands_in_processes(home: Path, game: str) -> None:
    env = {**os.environ, "REFEREE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "40"}

    def referee(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee", *args], env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip

    start, commands = GAMES[game]
    assert referee(*start, "--name", "s").returncode == 0
    path = home / "sessions" / "s.toml"
    rng = random.Random(f"referee {game}")
    refused = 0
    for _ in range(40 if LONG else 14):
        args = rng.choice(commands)
        before = snapshot(path)
        result = referee(*args)
        if result.returncode == 0:
            assert result.stderr == "" or result.stderr.startswith("warning: ")
            continue
        refused += 1
        assert result.returncode in (1, 2), (args, result.stderr)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), args
        assert "Traceback" not in result.stderr
        assert snapshot(path) == before, args  # a refusal changes nothing on disk
    assert refused > 0  # the run really tried refusals
