"""Several terminals on one session of each game (issue 14): nothing lost, nothing doubled."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Runner, every_game, examples_of, wait_until
from referee import games, storage
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


def writers_of(game: games.GameInfo) -> tuple[list[str], list[list[str]]]:
    """The `new` line of the game's first example and its first six different lines, for
    writers released at once: any order may hold, so some are refused, none may be lost."""
    example = examples_of(game.name)[0]
    lines = list({shlex.join(c): c for c in example.commands}.values())
    return list(example.new), lines[:6]


@pytest.mark.parametrize("game", every_game())
def test_processes_acting_at_once_lose_nothing_and_double_nothing(
    referee: Runner, home: Path, tmp_path: Path, game: games.GameInfo
) -> None:
    start, commands = writers_of(game)
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
    assert len(set(texts)) == len(texts)  # nothing doubled (each line was tried once)


@pytest.mark.parametrize("game", every_game())
def test_a_shell_sees_what_another_terminal_wrote(referee: Runner, game: games.GameInfo) -> None:
    example = examples_of(game.name)[0]
    referee(*example.new, "--name", "s")
    shell = Shell("s")
    shell.prompt()  # the shell has the session in memory
    assert referee(*example.commands[0]).code == 0  # typed in the other terminal
    assert len(shell.loaded().session.events) == 1
    assert shell.do(example.lines[1]) == 0  # builds on the other terminal's event
    assert len(storage.load(shell.path).session.events) == 2
