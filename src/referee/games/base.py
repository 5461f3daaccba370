"""The contract between a game and the shared layers (session, storage, CLI, shell, render).

Modelled on python-chess's variants: a game is one object that knows its start, `apply` (the
move) beside `legal_actions` (the moves open now), whose `turn` it is, and its `outcome`.
The shared layers ask only these questions and never read a game's state themselves.

Events are records (frozen dataclasses, `referee.records`). Stored, an event is one flat table
of strings and whole numbers (`event_to_dict`), written as one inline line of the session file;
anything structured inside an event (every player's dice, a lay-down of melds) is one notation
string in one field, the same words a user types. Printed, `str(event)` is the shell line that
makes it again (`claim 9 --by Ann`), so `log --script` piped into `referee shell` replays a
session.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from types import UnionType
from typing import Generic, NamedTuple, Protocol, TypeGuard, TypeVar

from referee.errors import NotationError, RuleViolation, UsageError, quote, quote_number
from referee.games.actions import Actions, New
from referee.games.money import Purse

R = TypeVar("R")  # the typed ruleset
Opt = TypeVar("Opt")  # the typed options given at `new`
S = TypeVar("S")  # the state
E = TypeVar("E")  # the event union

EventDict = dict[str, str | int]


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player as entered at `new`: a name and an optional nickname."""

    name: str
    nickname: str | None = None


class Outcome(NamedTuple):
    """Where a game stands: playing or finished, who won (a tie has several), the standings.

    `provisional` marks a result that one more event may still change (a buy-back on offer).
    `places` gives each of `standings` its place when some share one (1, 2, 2, 4); empty
    means 1, 2, 3 ... in order.
    """

    finished: bool
    winners: tuple[str, ...] = ()
    standings: tuple[str, ...] = ()  # best first
    provisional: bool = False
    places: tuple[int, ...] = ()  # read by history.summarise (stats, the SQLite results)

    @property
    def status(self) -> str:
        """`playing`, or `finished` (`provisional` while the result may still change)."""
        if not self.finished:
            return "playing"
        return "provisional" if self.provisional else "finished"


@dataclass(frozen=True, slots=True, kw_only=True)
class Game(Generic[R, Opt, S, E]):
    """A game's pure rules engine, seen from the shared layers: its typed functions.

    Each engine module builds its one `Game` at its bottom from its own functions, with its
    own types: `GAME: Game[Rules, Options, State, Event] = Game(state_type=State, ...)`. mypy
    then checks every function against the contract (a missing one is a missing argument, a
    wrong signature a type error), and the shared layers, which see a game only through this
    object, never reach a function with values of another game: `checked_apply` refuses an
    event that is not one of `events` before the engine sees it. No I/O, no printing.
    """

    state_type: type[S]  # what the replay cache rebuilds states as (see referee.plain)
    events: type | UnionType  # the event classes (`Event`, the union): checked at the boundary
    rules_from_table: Callable[[Mapping[str, object], str], R]
    """Typed rules from a ruleset table; `RulesetError` lists every problem."""
    options_from_table: Callable[[Mapping[str, object], Sequence[PlayerInfo], R], Opt]
    """The typed `new` options as stored in a session file, checked; `UsageError` if bad."""
    start: Callable[[R, Sequence[PlayerInfo], Opt], S]
    """The state before any event."""
    apply: Callable[[S, E], S]
    """The state after an event, or `RuleViolation` (a refusal changes nothing)."""
    turn: Callable[[S], str | None]
    """Who acts next, or None when nobody is on turn (the game is over, or no turn order)."""
    legal_actions: Callable[[S], tuple[str, ...]]
    """The names of the actions open now, as the shell types them."""
    outcome: Callable[[S], Outcome]
    """Playing or finished, with the winners and standings."""
    actions: Actions
    new: New
    """`referee new GAME`: its help and the game's own options (`referee.games.actions`)."""
    """The game's actions, each declared once on its event (`referee.games.actions`): its
    commands, its events' lines and their stored form come from these."""
    ruling: Callable[[S], Sequence[object]]
    """What the last event did, as typed facts (the game's words module words them)."""
    json_value: Callable[[object], object | None]
    """A game's own value in a fact (a rank, a card) as JSON, or None for any other value."""
    summary: Callable[[S], dict[str, object]]
    """The documented `show --json` document (without `session`, added by the CLI)."""
    scores: Callable[[S], dict[str, int]]
    """Each player's score as the sheet counts it (berries, dice, points, total)."""
    tally: Callable[[Sequence[S]], dict[str, dict[str, int]]]
    """What one game counts for each player's stats, from the state after every event:
    `{"Ann": {"lie berries": 2, ...}}`. Stats add these up across games."""
    seats: Callable[[S], tuple[PlayerInfo, ...]] | None = None
    """Who sits at the table now, in seat order (newcomers and takers-over included; None: the
    players named at `new`, for a game whose table never changes)."""
    purse: Callable[[S], Purse] | None = None
    """The game's money so far (`referee.games.money`); None: a game played for nothing."""

    def event_from_dict(self, data: Mapping[str, object]) -> E:
        """An event read from a session file; `NotationError` if it is not one of this game's."""
        found: E = self.actions.event_from_dict(data)
        return found

    def event_to_dict(self, event: E) -> EventDict:
        """An event as written to a session file: one flat table."""
        return self.actions.event_to_dict(event)

    def is_event(self, value: object) -> TypeGuard[E]:
        """Whether `value` is one of this game's events."""
        return isinstance(value, self.events)

    def checked_apply(self, state: S, event: object) -> S:
        """`apply`, for an event the shared layers hold untyped: another game's event (a slip
        the CLI did not catch, a bad import) is a `RuleViolation`, never an engine crash."""
        if not self.is_event(event):
            raise RuleViolation(f"{quote(str(event))} is not a move of this game")
        return self.apply(state, event)

    def ruling_json(self, state: S) -> list[object]:
        """The last event's facts as JSON data, for `log --json` and exports."""
        return [to_json(fact, self.json_value) for fact in self.ruling(state)]

    def player_of(self, event: object) -> str | None:
        """Who an event is about (its actor, or the player it names), for exports."""
        for field in ("by", "player", "caller"):
            found = getattr(event, field, None)
            if isinstance(found, str):
                return found
        return None


class Tallies:
    """Per-player counts for stats, as a game's `tally` builds them: `add("Ann", "bids")`."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}

    def add(self, player: str | None, key: str, n: int = 1) -> None:
        """Count `n` more of `key` for `player` (no player: nothing to count)."""
        if player:
            row = self.counts.setdefault(player, {})
            row[key] = row.get(key, 0) + n


class Named(Protocol):
    """Anything seated at the table under a name (a seat, a cup, a side)."""

    @property
    def name(self) -> str: ...


def seat_of(people: Sequence[Named], name: str) -> int:
    """The seat of the player called exactly `name` among `people` (anything with a `name`)."""
    for i, person in enumerate(people):
        if person.name == name:
            return i
    raise UsageError(f"unknown player {quote(name)}")


def on_turn(
    people: Sequence[Named],
    turn: int,
    by: str,
    out: Callable[[int], str | None] = lambda seat: None,
) -> int:
    """The seat of `by`, who acts now: refused when he is out (`out` says why of his seat:
    "has no lives left: out of the game") or when it is another player's turn."""
    i = seat_of(people, by)
    why = out(i)
    if why:
        raise RuleViolation(f"{by} {why}")
    if i != turn:
        raise RuleViolation(f"it is {people[turn].name}'s turn, not {by}'s")
    return i


# ---------------------------------------------------------------------------- seats and turns
# Every turn-based game seats its players in the order they were named and passes the turn
# round the table, skipping those who are out: written once here, used by each engine.


class Direction(enum.Enum):
    """Which way play goes round the table: left is the seat order the players were named in."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def step(self) -> int:
        """+1 through the seats in order, -1 against it."""
        return 1 if self is Direction.LEFT else -1


def turn_order(
    after: int, seats: int, direction: Direction, is_in: Callable[[int], bool]
) -> tuple[int, ...]:
    """The seats still in, in the direction of play from the one after `after`, ending with
    `after` itself if he is still in.

    >>> turn_order(0, 4, Direction.RIGHT, lambda seat: seat != 2)
    (3, 1, 0)
    """
    order = ((after + direction.step * k) % seats for k in range(1, seats + 1))
    return tuple(seat for seat in order if is_in(seat))


def next_seat(after: int, seats: int, direction: Direction, is_in: Callable[[int], bool]) -> int:
    """The next seat still in after `after`, in the direction of play (`after` if none is).

    >>> next_seat(3, 4, Direction.LEFT, lambda seat: seat != 0)
    1
    """
    found = turn_order(after, seats, direction, is_in)
    return found[0] if found else after


def player_option(
    table: Mapping[str, object], key: str, names: Sequence[str], what: str
) -> str | None:
    """A stored option that names a player (`first`, `dealer`): his name, None if not given."""
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or value not in names:
        raise UsageError(f"unknown {what} {quote(str(value))}: players are {', '.join(names)}")
    return value


@dataclass(frozen=True, slots=True)
class Seating:
    """What a table game's `new` sets: who acts first, and which way play goes."""

    first: str
    direction: Direction


def seating(
    table: Mapping[str, object],
    players: Sequence[PlayerInfo],
    game: str,
    first_is: str,
    default: Direction,
    also: tuple[str, ...] = (),
) -> Seating:
    """Who acts first and which way play goes, as `new` stored them (`FIRST`, `DIRECTION`),
    checked as strictly as typed: a key other than these and the game's own (`also`) is
    refused, as is a first player nobody is."""
    names = [p.name for p in players]
    extra = sorted(set(table) - {"first", "direction", *also})
    if extra:
        raise UsageError(f"unknown {game} options: {', '.join(extra)[:60]}")
    first = player_option(table, "first", names, first_is) or names[0]
    return Seating(first, direction_option(table, default))


def direction_option(table: Mapping[str, object], default: Direction) -> Direction:
    """The stored `direction` option, `default` (the ruleset's) if not given."""
    value = table.get("direction", default.value)
    if value not in ("left", "right"):
        raise UsageError(f"unknown direction {quote(str(value))}: use left or right")
    return Direction(value)


def words(*parts: str | int | None, **options: str | int | bool | None) -> str:
    """The shell line of an event: words quoted as the shell needs, options that are set.

    >>> words("claim", "Double Sixes", by="Ann")
    "claim 'Double Sixes' --by Ann"
    """
    import shlex  # only when an event is said: not on every start

    line = [str(p) for p in parts if p is not None]
    for key, value in options.items():
        if value is True:  # a flag
            line.append(f"--{key.replace('_', '-')}")
        elif value is not None and value is not False:
            line += [f"--{key.replace('_', '-')}", str(value)]
    return shlex.join(line)


def to_json(value: object, convert: Callable[[object], object | None] | None = None) -> object:
    """A ruling record as JSON data: records become tables tagged with their `kind`.

    `convert` turns a game's own values (a rank, a roll) into their printed names first.
    """
    if convert is not None:
        done = convert(value)
        if done is not None:
            return done
    names: tuple[str, ...] | None = None  # None: not a record (a record may have no fields)
    if is_dataclass(value) and not isinstance(value, type):
        names = tuple(f.name for f in fields(value))
    elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        names = value._fields
    if names is not None:
        kind = "".join(f"_{c.lower()}" if c.isupper() else c for c in type(value).__name__)
        table: dict[str, object] = {"kind": kind.lstrip("_")}
        for name in names:
            table[name] = to_json(getattr(value, name), convert)
        return table
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_json(v, convert) for v in value]
    return value


def str_field(data: Mapping[str, object], key: str) -> str:
    """A required string field of a stored event."""
    value = data.get(key)
    if not isinstance(value, str):
        raise NotationError(f'the event needs {key} = "..."')
    return value


def int_field(data: Mapping[str, object], key: str) -> int | None:
    """An optional whole-number field of a stored event."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"the event's {key} must be a whole number, not {value!r:.20}")
    return value


def only_fields(data: Mapping[str, object], *allowed: str) -> None:
    """Refuse a stored event with fields its type does not have (a typo would be ignored)."""
    extra = sorted(set(data) - {"type", *allowed})
    if extra:
        raise NotationError(f"the event has unknown fields: {', '.join(extra)[:60]}")


def checked_number(value: int, what: str, low: int, high: int) -> int:
    """`value` if it lies from `low` to `high`, else `UsageError` (no number is unbounded)."""
    if not low <= value <= high:
        raise UsageError(f"{what} is {low} to {high}, not {quote_number(value)}")
    return value
