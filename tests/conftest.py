"""Shared fixtures: a private data folder and an in-process `referee` runner."""

from __future__ import annotations

import functools
import os
import shlex
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

import plugin_game
from referee import games, storage
from referee.cli import run
from referee.cli.app import new_command
from referee.games import GameInfo
from referee.session import notation

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


# ---------------------------------------------------------------------------- every game
# Tests that mean "every game" read the registry and the bundled examples through these, so a
# new game (an entry in `games.GAMES` and an example in examples/) gets its tests unasked.

EXAMPLES = Path(__file__).parents[1] / "examples"
SESSION_GAMES = tuple(g for g in games.GAMES if g.has_sessions)
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


@dataclass(frozen=True)
class Example:
    """A bundled example session, as the commands that play it again."""

    path: Path
    game: str
    new: tuple[str, ...]  # `new GAME PLAYER... --option ...` (no `referee`, no `--name`)
    lines: tuple[str, ...]  # its events as shell lines: `claim 9 --by Ann`

    @property
    def commands(self) -> list[list[str]]:
        """Its events as one-off command lines: `kariki claim 9 --by Ann`."""
        return [[self.game, *shlex.split(line)] for line in self.lines]


@functools.cache
def examples() -> tuple[Example, ...]:
    """Every bundled example session (examples/*.toml)."""
    found = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        session = storage.load(path).session
        new = tuple(shlex.split(new_command(session))[1:])
        lines = tuple(notation(session, e) for e in session.events)
        found.append(Example(path, session.game, new, lines))
    return tuple(found)


def examples_of(game: str) -> list[Example]:
    """The bundled examples of one game (High roll's is its module's)."""
    if game == plugin_game.NAME:
        return [
            Example(EXAMPLES / "highroll.toml", game, plugin_game.EXAMPLE_NEW, plugin_game.LINES)
        ]
    return [e for e in examples() if e.game == game]


def example_states(game: str, names: dict[str, str] | None = None, step: int = 7) -> list[Any]:
    """Every `step`th state of `game`'s bundled examples, from the start, with each player
    renamed by `names` (wide characters, say) as if typed so."""
    import re

    from referee.session import initial, states
    from referee.storage.codec import parse_session

    found = []
    for example in examples_of(game):
        text = example.path.read_text(encoding="utf-8")
        for name, other in (names or {}).items():
            text = re.sub(rf"\b{name}\b", other, text)
        session = parse_session(example.path, text.encode(), "").session
        found += [initial(session), *states(session)][::step]
    return found


def fresh(game: games.GameInfo) -> list[str]:
    """A `new` line for a fresh session of `game` with as few players as it takes."""
    return ["new", game.name, *NAMES[: max(2, game.min_players)]]


def every_game(ids: str = "") -> list[object]:
    """`pytest.param` of each game with sessions, for `parametrize("game", every_game())`, and
    High roll (below), which a test so parametrized gets registered."""
    return [pytest.param(g, id=f"{g.name}{ids}") for g in (*SESSION_GAMES, PLUGIN)]


# ---------------------------------------------------------------------------- a sixth game
# High roll (tests/plugin_game.py) is a game no file of the product names: registered here,
# it must go through every command as the five do, which proves a game is one registration.

PLUGIN = plugin_game.info("plugin_game")


def register(monkeypatch: pytest.MonkeyPatch, folder: Path) -> GameInfo:
    """Register High roll for one test, in this process and in every Python process it starts
    (a `sitecustomize` on their PYTHONPATH does the same): its registry entry, and its ruleset
    beside the bundled ones (in `folder`, a copy of them)."""
    from referee.storage import rulesets

    folder.mkdir(parents=True, exist_ok=True)
    for name in ("GAMES", "BY_NAME"):  # as they are: monkeypatch puts them back after the test
        monkeypatch.setattr(games, name, getattr(games, name))
    monkeypatch.setattr(rulesets, "bundled_rulesets", rulesets.bundled_rulesets)
    plugin_game.register(folder)
    boot = folder / "sitecustomize.py"
    boot.write_text(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        f"import plugin_game\nplugin_game.register(__import__('pathlib').Path({str(folder)!r}))\n",
        encoding="utf-8",
    )
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(folder) + (os.pathsep + path if path else ""))
    return PLUGIN


@pytest.fixture
def highroll(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> GameInfo:
    """High roll, registered for this test."""
    return register(monkeypatch, tmp_path / "rulesets")


@pytest.fixture(autouse=True)
def _registered_when_asked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test parametrized with High roll (`every_game()`) runs with it registered."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and PLUGIN in callspec.params.values():
        register(monkeypatch, Path(tempfile.mkdtemp(prefix="highroll-")))
