"""Several terminals on one session of each game (issue 14): nothing lost, nothing doubled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Runner, wait_until
from referee import storage
from referee.cli.shell import Shell

WRITER = """
import os, sys, time
from pathlib import Path
go = Path(sys.argv[1])
from referee.cli import run
Path(f"{go}.ready.{os.getpid()}").touch()
while not go.exists():
    time.sleep(0.002)
print("ok" if run(sys.argv[2:]) == 0 else "refused", flush=True)
"""
GAMES = {
    "liars": (["new", "liars", "Ann", "Bob", "Cy", "Dee"],
              [["liars", "bid", f"{q}x3"] for q in (1, 2, 3, 4, 5, 6)]),
    "kiriki": (["new", "kiriki", "Ann", "Bob", "--first", "Ann"],
               [["kiriki", "claim", str(n)] for n in (4, 5, 6, 7, 8, 9)]),
    "kalooki": (["new", "kalooki", "Ann", "Bob", "Cy", "Dee"],
                [["kalooki", "call", name] for name in ("Ann", "Bob", "Cy", "Dee", "Ann", "Bob")]),
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(GAMES))
def test_processes_acting_at_once_lose_nothing_and_double_nothing(
    referee: Runner, home: Path, tmp_path: Path, game: str
) -> None:
    start, commands = GAMES[game]
    assert referee(*start, "--name", "s").code == 0
    go = tmp_path / "go"
    env = {**os.environ, "REFEREE_HOME": str(home), "REFEREE_LOCK_TIMEOUT": "30"}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(go), *argv], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for argv in commands
    ]  # fmt: skip
    # Released together once every writer is ready and waiting (observed, not a time guess).
    wait_until(lambda: len(list(tmp_path.glob("go.ready.*"))) == len(writers), "the writers")
    go.touch()
    outputs = [w.communicate(timeout=600) for w in writers]  # a guard against a hang
    said = [out.strip().splitlines()[-1] for out, _ in outputs]  # after the card, the verdict
    assert set(said) <= {"ok", "refused"} and "ok" in said, outputs
    loaded = storage.load(home / "sessions" / "s.toml")
    assert len(loaded.session.events) == said.count("ok")  # each success saved exactly once
    texts = [str(e) for e in loaded.session.events]
    assert len(set(texts)) == len(texts) or game == "kalooki"  # nothing doubled


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_shell_sees_what_another_terminal_wrote(referee: Runner, game: str) -> None:
    start, commands = GAMES[game]
    referee(*start, "--name", "s")
    shell = Shell("s")
    before = shell.prompt()
    assert referee(*commands[0]).code == 0  # typed in the other terminal
    assert shell.prompt() != before or game == "kalooki"
    follow = {"liars": "bid 2x3", "kiriki": "lift 1-3", "kalooki": "call Bob"}[game]
    assert shell.do(follow) == 0  # builds on the other terminal's event
    assert len(storage.load(shell.path).session.events) == 2
