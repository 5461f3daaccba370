"""What an attack on the data folder found (issue 39): with something planted as the `current`
pointer (a FIFO, a folder), `delete` and `rename` did their work and then reported failure,
and a refused `new` left its lock file behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, REFEREE_HOME=str(tmp_path / "h"), XDG_CACHE_HOME=str(tmp_path / "c"),
               REFEREE_NO_ANSWERS="1")  # fmt: skip
    env.pop("REFEREE_SESSION", None)
    return subprocess.run([sys.executable, "-m", "referee", *args], env=env,
                          capture_output=True, text=True, timeout=20,
                          stdin=subprocess.DEVNULL)  # fmt: skip


def plant_fifo_current(tmp_path: Path) -> None:
    assert run(tmp_path, "new", "kariki", "Ann", "Bob", "--name", "s1").returncode == 0
    pointer = tmp_path / "h" / "current"
    pointer.unlink()
    os.mkfifo(pointer)


def test_delete_with_a_planted_pointer_is_done_and_said_done(tmp_path: Path) -> None:
    plant_fifo_current(tmp_path)
    result = run(tmp_path, "delete", "s1", "--yes")
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "h" / "sessions" / "s1.toml").exists()
    assert not (tmp_path / "h" / "sessions" / "s1.lock").exists()


def test_rename_with_a_planted_pointer_is_done_and_said_done(tmp_path: Path) -> None:
    plant_fifo_current(tmp_path)
    result = run(tmp_path, "rename", "s1", "s3")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "h" / "sessions" / "s3.toml").exists()


def test_a_refused_new_leaves_no_lock_file(tmp_path: Path) -> None:
    assert run(tmp_path, "new", "kariki", "Ann", "Bob", "--name", "s1").returncode == 0
    pointer = tmp_path / "h" / "current"
    pointer.unlink()
    pointer.mkdir()
    before = sorted((tmp_path / "h" / "sessions").iterdir())
    result = run(tmp_path, "new", "kariki", "Ann", "Bob", "--name", "s2")
    assert result.returncode == 3 and result.stderr.count("\n") == 1
    assert sorted((tmp_path / "h" / "sessions").iterdir()) == before
