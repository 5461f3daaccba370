"""Shared fixtures: a private data folder and an in-process `referee` runner."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from referee.cli import run

# Hypothesis keeps no example database, and its other files go to the temp folder: a test run
# leaves the checkout as it found it.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "referee-hypothesis")
settings.register_profile("referee", database=None)
settings.load_profile("referee")


@dataclass(frozen=True)
class Result:
    """What one command line did."""

    code: int
    out: str
    err: str


Runner = Callable[..., Result]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder, plain 40-column output."""
    root = tmp_path / "home"
    monkeypatch.setenv("REFEREE_HOME", str(root))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("REFEREE_SESSION", raising=False)
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "1")
    monkeypatch.setenv("REFEREE_CLOCK", "2026-11-29T21:04:00+00:00")  # reproducible times
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    return root


@pytest.fixture
def referee(home: Path, capsys: pytest.CaptureFixture[str]) -> Runner:
    """Run `referee ARGS...` in this process and capture what it printed."""

    def invoke(*args: str) -> Result:
        capsys.readouterr()
        code = run(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


def session_file(home: Path, name: str = "friday") -> Path:
    """Where the session `name` lives in the data folder `home`."""
    return home / "sessions" / f"{name}.toml"


def snapshot(path: Path) -> tuple[bytes, int]:
    """A file's bytes and modification time: what a refused command must leave alone."""
    return path.read_bytes(), path.stat().st_mtime_ns


def wait_until(ready: Callable[[], bool], what: str = "the other process") -> None:
    """Poll until `ready()`: tests wait for observed progress, never for a time window.

    The limit is a guard against a hang (a broken test), far beyond any loaded machine.
    """
    deadline = time.monotonic() + 300
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.002)
