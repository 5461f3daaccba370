"""Every command that writes, killed at each named point of its write (issue 14): the session
is the old state or the new one, never anything else; a leftover temp file never confuses
the next command; an export killed midway leaves no half file under the final name."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SESSION_GAMES, Runner, examples_of
from referee import games, storage

POINTS = ["after_temp_write", "after_fsync", "after_replace"]


def run_killed(home: Path, args: list[str], point: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REFEREE_HOME": str(home), "NO_COLOR": "1", storage.CRASH_ENV: point}
    return subprocess.run([sys.executable, "-m", "referee", *args], env=env, capture_output=True,
                          text=True, check=False)  # fmt: skip


def events_in(path: Path) -> int:
    return len(storage.load(path).session.events)


PATHS = [*(g.name for g in SESSION_GAMES), "undo", "redo"]  # each game's action, and undo/redo


def setup_and_action(kind: str) -> tuple[list[list[str]], list[str]]:
    """The lines that set a session up, and the one line killed mid-save: a game's first
    example line, or undo / redo (on the first game's)."""
    game = games.BY_NAME.get(kind, SESSION_GAMES[0])
    example = examples_of(game.name)[0]
    start = [[*example.new, "--name", "s"]]
    first = example.commands[0]
    if kind == "undo":
        return [*start, first], ["undo"]
    if kind == "redo":
        return [*start, first, ["undo"]], ["redo"]
    return start, first


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("path_kind", PATHS)
def test_actions_undo_and_redo_killed_mid_save(
    referee: Runner, home: Path, path_kind: str, point: str
) -> None:
    setup, action = setup_and_action(path_kind)
    for line in setup:
        assert referee(*line).code == 0
    path = home / "sessions" / "s.toml"
    before = events_in(path)
    result = run_killed(home, action, point)
    assert result.returncode == -signal.SIGKILL, result.stderr
    after = events_in(path)
    expected_new = before + (-1 if path_kind == "undo" else 1)
    assert after == (expected_new if point == "after_replace" else before)
    assert list(path.parent.glob(".s.toml.*.tmp")) or point == "after_replace"  # left behind
    assert referee("show", "--json").code == 0  # a leftover temp file confuses nobody
    if point != "after_replace":
        assert referee(*action).code == 0  # the same command again, whole this time
        assert events_in(path) == expected_new
    assert not list(path.parent.glob(".s.toml.*.tmp"))  # and the save swept the leftover


@pytest.mark.parametrize("point", POINTS)
def test_new_killed_mid_save_leaves_no_session_or_a_whole_one(
    referee: Runner, home: Path, point: str
) -> None:
    assert referee("new", "kariki", "Cy", "Dee", "--name", "first").code == 0
    result = run_killed(home, ["new", "liars", "Ann", "Bob", "--name", "x"], point)
    assert result.returncode == -signal.SIGKILL
    path = home / "sessions" / "x.toml"
    if point == "after_replace":
        assert events_in(path) == 0
    else:
        assert not path.exists()
        assert referee("new", "liars", "Ann", "Bob", "--name", "x").code == 0  # a retry works


@pytest.mark.parametrize("point", POINTS)
def test_import_rename_and_use_killed_mid_write(
    referee: Runner, home: Path, tmp_path: Path, point: str
) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "s").code == 0
    assert referee("kariki", "claim", "9").code == 0
    dump = tmp_path / "s.json"
    assert referee("export", "-f", "json", "-o", str(dump)).code == 0
    # --as-copy: the session is here already (its id), so a plain import would be refused.
    importing = ["import", str(dump), "--name", "t", "--as-copy"]
    assert run_killed(home, importing, point).returncode == -9
    imported = home / "sessions" / "t.toml"
    assert (events_in(imported) == 1) if point == "after_replace" else not imported.exists()
    assert run_killed(home, ["rename", "s", "u"], point).returncode == -9
    old, new = home / "sessions" / "s.toml", home / "sessions" / "u.toml"
    assert events_in(old) == 1  # the old name is only removed after the new one is whole
    assert (events_in(new) == 1) if point == "after_replace" else not new.exists()
    before = (home / "current").read_text()
    assert run_killed(home, ["use", "s"], point).returncode == -9
    assert (home / "current").read_text() in (before, "s\n")


def test_an_export_killed_midway_leaves_no_half_file(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "s").code == 0
    for fmt in ("csv", "json", "md", "sqlite"):
        target = tmp_path / f"out.{fmt}"
        result = run_killed(
            home, ["export", "-f", fmt, "-o", str(target)], "export_after_temp_write"
        )
        assert result.returncode == -signal.SIGKILL, (fmt, result.stderr)
        assert not target.exists(), fmt
        assert referee("export", "-f", fmt, "-o", str(target)).code == 0  # and it works after
        assert target.stat().st_size > 0
