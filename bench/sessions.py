"""Real sessions of any length for every game, for the benchmarks.

Each game's events are written as a session file stores them (one flat table each: the file
format, which stays stable while engines change) and applied through the engine as they are
made, so every generated file replays exactly as a played one would. The patterns never end
a game: Kariki claims and rolls the mug on; Liar's dice bids up through long rounds; a Kiriki
match is kept level by alternating winners (win by 2, no cap); Kalooki's calls are refused
round the table, and the stock runs out every hundred events, voiding the round every second
time; Mia allows equal announcements, so a round never ends.
Every event carries the time it was typed (`at`), as every event typed at a table does: a
file without them would be smaller and cheaper to save than any real night's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee import games, storage
from referee.games.base import PlayerInfo
from referee.session import Session, append, event_of, initial

EventData = dict[str, str | int]
Turn = Callable[[], str]  # whose turn it is in the session being built
Pattern = Callable[[Turn, list[str]], Iterator[EventData]]


def _kariki(turn: Turn, names: list[str]) -> Iterator[EventData]:
    while True:
        yield {"type": "claim", "by": turn(), "rank": "Nine"}
        yield {"type": "roll", "by": turn()}


def _liars(turn: Turn, names: list[str]) -> Iterator[EventData]:
    while True:  # rounds of eighty rising bids, each ended by a call
        for quantity in range(1, 17):
            for face in range(2, 7):
                yield {"type": "bid", "by": turn(), "bid": f"{quantity}x{face}"}
        yield {"type": "call", "by": turn(), "count": 0}


def _kiriki(turn: Turn, names: list[str]) -> Iterator[EventData]:
    yield {"type": "rolloff", "dice": "5-3"}
    winner = 0
    while True:  # the winner alternates, so nobody ever leads by 2
        claimer = turn()
        lifter = names[1 - names.index(claimer)]
        yield {"type": "claim", "by": claimer, "rank": "4"}
        true = names[winner] == claimer  # true dice: the claimer wins; below: the lifter
        yield {"type": "lift", "by": lifter, "dice": "1-3" if true else "1-1"}
        winner = 1 - winner


def _mia(turn: Turn, names: list[str]) -> Iterator[EventData]:
    while True:  # equal announcements are allowed: the round goes round and round
        yield {"type": "announce", "by": turn(), "value": "31"}
        yield {"type": "believe", "by": turn()}


def _kalooki(turn: Turn, names: list[str]) -> Iterator[EventData]:
    while True:  # calls refused round the table (never counted), and every hundredth event
        for n in range(99):  # the stock runs out: every second time the round is void
            yield {"type": "call", "caller": names[n % len(names)], "refused": 1}
        yield {"type": "stockout"}


# game: (events, players, options, ruleset changes)
PATTERNS: dict[str, tuple[Pattern, tuple[str, ...], dict[str, object], dict[str, object]]] = {
    "kariki": (
        _kariki,
        ("Ann", "Bob", "Cy", "Dee", "Eve"),
        {"first": "Ann", "direction": "left"},
        {"berry_limit": 99},
    ),
    "liars": (
        _liars,
        tuple(f"P{i:02}" for i in range(1, 21)),
        {"first": "P01"},
        {"dice_per_player": 10},
    ),
    "kiriki": (_kiriki, ("Rosa", "Tomas"), {"format": "standard", "ranked": True}, {}),
    "kalooki": (_kalooki, ("Ann", "Bob", "Cy", "Dee"), {}, {}),
    "mia": (_mia, ("Ann", "Bob", "Cy", "Dee", "Eve"), {}, {"equal_allowed": True}),
}
START = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)  # each event stamped as it was typed
TYPED_EVERY = timedelta(seconds=7)


def build(game: str, path: Path, events: int) -> None:
    """Write a session of `game` with exactly `events` events to `path`."""
    pattern, names, options, changes = PATTERNS[game]
    table = storage.load_ruleset(games.info(game).rulesets[0])
    table.update(changes)
    session = Session(path.stem, game, table, tuple(PlayerInfo(n) for n in names), options)
    engine = games.load(game)
    state = initial(session)

    def turn() -> str:
        found = engine.turn(state)
        assert found is not None, f"{game}: nobody on turn after {len(session.events)} events"
        return found

    made = pattern(turn, list(names))
    for n in range(events):
        at = (START + n * TYPED_EVERY).isoformat()
        session, state = append(session, state, event_of(engine, next(made)), at=at)
    storage.save(path, session)


def games_benchmarked() -> list[str]:
    """Every registered game with sessions that has a pattern here."""
    return [g.name for g in games.GAMES if g.has_sessions and g.name in PATTERNS]
