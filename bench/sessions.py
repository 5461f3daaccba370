"""Real sessions of any length for every game, for the benchmarks.

Each game's events are written as a session file stores them (one flat table each: the file
format, which stays stable while engines change) and applied through the engine as they are
made, so every generated file replays exactly as a played one would. The patterns never end
a game.
Every event carries the time it was typed (`at`), as every event typed at a table does: a
file without them would be smaller and cheaper to save than any real night's.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

from referee import games, storage
from referee.games.base import PlayerInfo
from referee.session import Session, append, event_of, initial

sys.path.insert(0, str(Path(__file__).parent))  # bench/patterns, whoever imports this
Turn = Callable[[], str]  # whose turn it is in the session being built


def pattern(game: str) -> ModuleType | None:
    """The game's never-ending session (`bench/patterns/GAME.py`: `PLAYERS`, `OPTIONS`,
    `RULESET` changes and `events(turn, names)`), if it has one."""
    try:
        return importlib.import_module(f"patterns.{game}")
    except ModuleNotFoundError:
        return None


START = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)  # each event stamped as it was typed
TYPED_EVERY = timedelta(seconds=7)


def build(game: str, path: Path, events: int) -> None:
    """Write a session of `game` with exactly `events` events to `path`."""
    recipe = pattern(game)
    assert recipe is not None, f"{game} has no bench/patterns/{game}.py"
    names = recipe.PLAYERS
    table = storage.load_ruleset(games.info(game).rulesets[0])
    table.update(recipe.RULESET)
    session = Session(path.stem, game, table, tuple(PlayerInfo(n) for n in names), recipe.OPTIONS)
    engine = games.load(game)
    state = initial(session)

    def turn() -> str:
        found = engine.turn(state)
        assert found is not None, f"{game}: nobody on turn after {len(session.events)} events"
        return found

    made = recipe.events(turn, list(names))
    for n in range(events):
        at = (START + n * TYPED_EVERY).isoformat()
        session, state = append(session, state, event_of(engine, next(made)), at=at)
    storage.save(path, session)


def games_benchmarked() -> list[str]:
    """Every registered game with sessions that has a pattern (`bench/patterns/GAME.py`)."""
    return [g.name for g in games.GAMES if g.has_sessions and pattern(g.name) is not None]
