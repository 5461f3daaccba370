"""A session: game, ruleset snapshot, players and an append-only event log.

The state of a game is never stored: it is always `replay(session)`. Events are kept as the plain
tables written to the file, and every new one is checked by applying it before it is appended.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from referee import games
from referee.errors import RefereeError, RuleViolation, UsageError, quote
from referee.games.base import Game, PlayerInfo
from referee.text import check_name, name_key, pick

if TYPE_CHECKING:
    from referee.games.money import Purse, Result

EventData = Mapping[str, str | int]

MAX_SESSION_NAME = 64
_SESSION_NAME_RE = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.-]{{0,{MAX_SESSION_NAME - 1}}}", re.ASCII)


@dataclass(frozen=True, slots=True)
class Session:
    """Everything a session file holds."""

    name: str
    game: str
    ruleset: Mapping[str, Any]  # a snapshot of the ruleset table taken at `new`
    players: tuple[PlayerInfo, ...]
    options: Mapping[str, str | int]
    events: tuple[EventData, ...] = ()
    undone: tuple[EventData, ...] = ()  # redo stack, last undone last
    created: str = ""
    updated: str = ""
    # Who this session is, whatever its file is called: 32 lowercase hex digits, random when
    # made (`new`), kept through saves, exports and imports; a file from before ids gets one
    # derived from its content (`derived_id`).
    id: str = field(default_factory=lambda: new_id())

    @property
    def engine(self) -> Game[Any, Any, Any, Any]:
        """The game's rules engine."""
        return games.load(self.game)


class ReplayError(RefereeError):
    """An event in the log that the rules refuse: names the event's number."""

    exit_code = 3

    def __init__(self, number: int, error: RefereeError) -> None:
        super().__init__(f"event {number}: {error}")
        self.number = number
        self.error = error


_ID_RE = re.compile(r"[0-9a-f]{32}", re.ASCII)


def new_id() -> str:
    """A fresh random session id."""
    import secrets

    return secrets.token_hex(16)


def check_id(text: object) -> str:
    """A session id as files hold it: 32 lowercase hex digits."""
    if not isinstance(text, str) or not _ID_RE.fullmatch(text):
        raise UsageError(f"'id' must be 32 lowercase hex digits, not {text!r:.40}")
    return text


def derived_id(session: Session) -> str:
    """The id of a session from before ids: a digest of what cannot change once it began (its
    game, creation time, players and first events), so every read of it gives the same id and
    a hand copy of it the same one."""
    return derived_id_of(session.game, session.created, session.players, session.events)


DERIVED_ID_EVENTS = 8  # the first events a derived id reads


def derived_id_of(
    game: str, created: str, players: Sequence[PlayerInfo], events: Sequence[EventData]
) -> str:
    """`derived_id` from the parts it reads (only the first `DERIVED_ID_EVENTS` events)."""
    import hashlib
    import json

    basis = [
        game,
        created,
        [[p.name, p.nickname] for p in players],
        [dict(e) for e in events[:DERIVED_ID_EVENTS]],
    ]
    return hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()[:32]


def check_session_name(text: str) -> str:
    """A session name from the allow-list: letters, digits, `_ . -`; never a path."""
    if not _SESSION_NAME_RE.fullmatch(text) or text.endswith(".toml") or ".." in text:
        if len(text) > MAX_SESSION_NAME and _SESSION_NAME_RE.fullmatch(text[:MAX_SESSION_NAME]):
            why = f"too long: at most {MAX_SESSION_NAME} characters"
        else:
            why = "use plain letters a-z, digits, '_', '.' or '-', like friday"
        raise UsageError(f"bad session name {quote(text)}: {why}")
    return text


def parse_players(
    specs: Sequence[str], nicknames: Sequence[str], game: str
) -> tuple[PlayerInfo, ...]:
    """Players from `Name` or `Name=Nickname`, plus `--nick Name=Nickname` options."""
    players: list[PlayerInfo] = []
    for spec in specs:
        name, sep, nick = spec.partition("=")
        if sep and not name.strip():
            raise UsageError(
                f"bad player {quote(spec)}: the name goes before '=', the nickname after,"
                " like Ann=Annie"
            )
        nickname = check_name(nick, "nickname") if nick.strip() else None
        players.append(PlayerInfo(check_name(name), nickname))
    for spec in nicknames:
        name, sep, nick = spec.partition("=")
        if not sep:
            raise UsageError(f"bad nickname {quote(spec)}: write Name=Nickname")
        i = resolve_index([p.name for p in players], name)
        players[i] = replace(players[i], nickname=check_name(nick, "nickname"))
    return check_players(players, game)


def check_players(players: Sequence[PlayerInfo], game: str) -> tuple[PlayerInfo, ...]:
    """The table as a whole: a count the game allows, and names and nicknames all different."""
    game_info = games.info(game)
    low, high = game_info.min_players, game_info.max_players
    if not low <= len(players) <= high:
        span = f"exactly {low}" if low == high else f"{low} to {high}"
        raise UsageError(f"{game_info.title} takes {span} players, not {len(players)}")
    seen: set[str] = set()
    for p in players:
        for text in (p.name, p.nickname):
            if text is None:
                continue
            if name_key(text) in seen:
                raise UsageError(f"two players are called {quote(text)}: names must differ")
            seen.add(name_key(text))
    return tuple(players)


def resolve_index(names: Sequence[str], text: str) -> int:
    """The seat of the player `text` names among `names` (see `referee.text.pick`)."""
    return pick(text, [(n, i) for i, n in enumerate(names)], "player")


def resolve_player(session: Session, text: str, state: Any = None) -> str:
    """The exact name of the player `text` names, by name or nickname: among those at the
    table in `state` (newcomers too), else those named at `new`."""
    seated = seated_players(session, state)
    labels = [(p.name, p.name) for p in seated]
    labels += [(p.nickname, p.name) for p in seated if p.nickname]
    return pick(text, labels, "player")


def seated_players(session: Session, state: Any = None) -> tuple[PlayerInfo, ...]:
    """Who sits at the table in `state` (the players named at `new` when the game's table never
    changes, or no state is given)."""
    seats = session.engine.seats
    if state is None or seats is None:
        return session.players
    return seats(state)


def rules_of(session: Session) -> Any:
    """The session's typed rules, from its snapshot."""
    return session.engine.rules_from_table(
        session.ruleset, f"ruleset {session.ruleset.get('name')}"
    )


def initial(session: Session) -> Any:
    """The state before any event (its options checked as strictly as when typed)."""
    engine = session.engine
    rules = rules_of(session)
    options = engine.options_from_table(session.options, session.players, rules)
    return engine.start(rules, session.players, options)


def states(session: Session) -> Iterator[Any]:
    """The state after each event in turn; `ReplayError` names the first the rules refuse."""
    engine = session.engine
    state = initial(session)
    for number, data in enumerate(session.events, start=1):
        try:
            state = engine.checked_apply(state, event_of(engine, data))
        except RefereeError as error:
            raise ReplayError(number, error) from None
        yield state


def check_undone(session: Session) -> None:
    """Every event on the redo stack is an event of the game (it is applied only at `redo`)."""
    engine = session.engine
    for number, data in enumerate(session.undone, start=1):
        try:
            event_of(engine, data)
        except RefereeError as error:
            raise UsageError(f"undone event {number}: {error}") from None


def replay(session: Session) -> Any:
    """The state after every event."""
    state = None
    for state in states(session):  # noqa: B007 -- the last one is the answer
        pass
    return initial(session) if state is None else state


TIME_KEY = "at"  # when an event was entered: kept by the session, never seen by the engine


def event_of(engine: Game[Any, Any, Any, Any], data: EventData) -> Any:
    """The engine's event for a stored table (its time stamp, if any, checked and set aside)."""
    at = data.get(TIME_KEY)
    if at is None:
        return engine.event_from_dict(data)
    if not isinstance(at, str) or event_time(at) is None:
        raise UsageError(f"the event's time {at!r:.30} is not an ISO time")
    return engine.event_from_dict({k: v for k, v in data.items() if k != TIME_KEY})


def event_time(text: str) -> Any:
    """A stored event time as an aware datetime, or None if it is not one."""
    from datetime import datetime

    try:
        found = datetime.fromisoformat(text)
        if found.tzinfo is None or not 1900 <= found.year <= 9000:
            return None
        found.astimezone()  # a time no local clock can show (year 1 at +14:00) is not one
    except (ValueError, OverflowError, OSError):
        return None
    return found


def append(session: Session, state: Any, event: Any, at: str | None = None) -> tuple[Session, Any]:
    """Apply `event` to `state` (the replay of `session`) and log it, stamped with the time
    `at` when given; clears the redo stack."""
    engine = session.engine
    new_state = engine.checked_apply(state, event)
    data = engine.event_to_dict(event)
    if at is not None:
        data = {**data, TIME_KEY: at}
    return replace(session, events=(*session.events, data), undone=()), new_state


def undo(session: Session, state: Any = None) -> tuple[Session, Any, EventData]:
    """Remove the last event, keeping it for redo; the state is the replay of what is left."""
    undone, _, last = take_back(session)
    return undone, replay(undone), last


def take_back(session: Session, state: Any = None) -> tuple[Session, None, EventData]:
    """`undo` leaving the state to whoever saves it (None): `storage.transaction` replays
    what is left, or takes the kept replay of exactly those events."""
    if not session.events:
        raise RuleViolation("nothing to undo: the session has no events")
    last = session.events[-1]
    undone = replace(session, events=session.events[:-1], undone=(*session.undone, last))
    return undone, None, last


def redo(session: Session, state: Any) -> tuple[Session, Any, EventData]:
    """Put back the last undone event, checked against `state` (the replay of `session`)."""
    if not session.undone:
        raise RuleViolation("nothing to redo")
    event = session.undone[-1]
    engine = session.engine
    after = engine.checked_apply(state, event_of(engine, event))
    redone = replace(session, events=(*session.events, event), undone=session.undone[:-1])
    return redone, after, event


def notation(session: Session, data: EventData) -> str:
    """A stored event as the shell line that makes it again: `claim Nine --by Ann`."""
    return str(event_of(session.engine, data))


def money(session: Session, state: Any) -> Money | None:
    """The game's money in `state`: the purse, and once the game is over who takes what
    (`referee.games.money.result`); None for a game played for nothing (no stakes, no round
    owed)."""
    from referee.games.money import Standing, result

    engine = session.engine
    if engine.purse is None:
        return None
    purse = engine.purse(state)
    if not purse.stakes.has_money and not purse.stakes.loser_buys:
        return None
    found = engine.outcome(state)
    if not found.finished or found.provisional:
        return Money(purse, None)
    standing = Standing(found.standings, found.places, engine.scores(state))
    return Money(purse, result(purse, standing))


class Money(NamedTuple):
    """A session's money: the purse so far, and the result once the game is over."""

    purse: Purse
    result: Result | None
