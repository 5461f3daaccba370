"""The contract between a game and the shared layers (session, storage, CLI, shell, render).

Modelled on python-chess's variants: a game is one object that knows its start, `apply` (the
move) beside `legal_actions` (the moves open now), whose `turn` it is, and its `outcome`.
The shared layers ask only these questions and never read a game's state themselves.

Events are frozen dataclasses. Stored, an event is one flat table of strings and whole numbers
(`event_to_dict`), written as one inline line of the session file; anything structured inside
an event (every player's dice, a lay-down of melds) is one notation string in one field, the
same words a user types. Printed, `str(event)` is the shell line that makes it again
(`claim 9 --by Ann`), so `log --script` piped into `referee shell` replays a session.
"""

from __future__ import annotations

import enum
import shlex
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from types import ModuleType
from typing import Any, Generic, NamedTuple, TypeVar

from referee.errors import NotationError, UsageError, quote, quote_number

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


class Game(ABC, Generic[R, Opt, S, E]):
    """A game's pure rules engine, seen from the shared layers. No I/O, no printing."""

    state_type: type[S]  # what the replay cache rebuilds states as (see referee.plain)

    @abstractmethod
    def rules_from_table(self, table: Mapping[str, object], source: str) -> R:
        """Typed rules from a ruleset table; `RulesetError` lists every problem."""

    @abstractmethod
    def options_from_table(
        self, table: Mapping[str, object], players: Sequence[PlayerInfo], rules: R
    ) -> Opt:
        """The typed `new` options as stored in a session file, checked; `UsageError` if bad."""

    @abstractmethod
    def start(self, rules: R, players: Sequence[PlayerInfo], options: Opt) -> S:
        """The state before any event."""

    @abstractmethod
    def apply(self, state: S, event: E) -> S:
        """The state after `event`, or `RuleViolation` (a refusal changes nothing)."""

    @abstractmethod
    def turn(self, state: S) -> str | None:
        """Who acts next, or None when nobody is on turn (the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S) -> tuple[str, ...]:
        """The names of the actions open now, as the shell types them."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Playing or finished, with the winners and standings."""

    @abstractmethod
    def event_from_dict(self, data: Mapping[str, object]) -> E:
        """An event read from a session file; `NotationError` if it is not one."""

    @abstractmethod
    def event_to_dict(self, event: E) -> EventDict:
        """An event as written to a session file: one flat table."""

    @abstractmethod
    def ruling(self, state: S) -> object:
        """What the last event did, as a typed record (the renderer words it)."""

    @abstractmethod
    def ruling_json(self, state: S) -> list[dict[str, object]]:
        """The same record as JSON data, for `log --json` and exports."""

    @abstractmethod
    def summary(self, state: S) -> dict[str, object]:
        """The documented `show --json` document (without `session`, added by the CLI)."""

    @abstractmethod
    def scores(self, state: S) -> dict[str, int]:
        """Each player's score as the sheet counts it (berries, dice, points, total)."""

    @abstractmethod
    def tally(self, states: Sequence[S]) -> dict[str, dict[str, int]]:
        """What one game counts for each player's stats, from the state after every event:
        `{"Ann": {"lie berries": 2, ...}}`. Stats add these up across games."""

    def player_of(self, event: E) -> str | None:
        """Who an event is about (its actor, or the player it names), for exports."""
        for field in ("by", "player", "caller"):
            found = getattr(event, field, None)
            if isinstance(found, str):
                return found
        return None


class ModuleGame(Game[Any, Any, Any, Any]):
    """A game whose engine is its module's functions, the shape every game here has.

    The module gives `Rules` (with `from_table`), `options_from_table`, `start`, `apply`,
    `turn`, `legal_actions`, `outcome`, `event_from_dict`, `event_to_dict`, `summary`,
    `scores`, `tally` and `json_value` (its own values in rulings, like a rank, as JSON); its
    states carry their ruling as `state.ruling`. The functions stay typed in the module.
    """

    def __init__(self, module: ModuleType, state_type: type) -> None:
        self.module = module
        self.state_type = state_type

    def rules_from_table(self, table: Mapping[str, object], source: str) -> Any:
        return self.module.Rules.from_table(table, source)

    def options_from_table(
        self, table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Any
    ) -> Any:
        return self.module.options_from_table(table, players, rules)

    def start(self, rules: Any, players: Sequence[PlayerInfo], options: Any) -> Any:
        return self.module.start(rules, players, options)

    def apply(self, state: Any, event: Any) -> Any:
        return self.module.apply(state, event)

    def turn(self, state: Any) -> str | None:
        found: str | None = self.module.turn(state)
        return found

    def legal_actions(self, state: Any) -> tuple[str, ...]:
        found: tuple[str, ...] = self.module.legal_actions(state)
        return found

    def outcome(self, state: Any) -> Outcome:
        found: Outcome = self.module.outcome(state)
        return found

    def event_from_dict(self, data: Mapping[str, object]) -> Any:
        return self.module.event_from_dict(data)

    def event_to_dict(self, event: Any) -> EventDict:
        found: EventDict = self.module.event_to_dict(event)
        return found

    def ruling(self, state: Any) -> object:
        return state.ruling

    def ruling_json(self, state: Any) -> list[dict[str, object]]:
        return [to_json(f, self.module.json_value) for f in state.ruling]  # type: ignore[misc]

    def summary(self, state: Any) -> dict[str, object]:
        found: dict[str, object] = self.module.summary(state)
        return found

    def scores(self, state: Any) -> dict[str, int]:
        found: dict[str, int] = self.module.scores(state)
        return found

    def tally(self, states: Sequence[Any]) -> dict[str, dict[str, int]]:
        found: dict[str, dict[str, int]] = self.module.tally(states)
        return found


class Tallies:
    """Per-player counts for stats, as a game's `tally` builds them: `add("Ann", "bids")`."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}

    def add(self, player: str | None, key: str, n: int = 1) -> None:
        """Count `n` more of `key` for `player` (no player: nothing to count)."""
        if player:
            row = self.counts.setdefault(player, {})
            row[key] = row.get(key, 0) + n


def seat_of(people: Sequence[Any], name: str) -> int:
    """The seat of the player called exactly `name` among `people` (anything with a `name`)."""
    for i, person in enumerate(people):
        if person.name == name:
            return i
    raise UsageError(f"unknown player {quote(name)}")


def words(*parts: str | int | None, **options: str | int | bool | None) -> str:
    """The shell line of an event: words quoted as the shell needs, options that are set.

    >>> words("claim", "Double Sixes", by="Ann")
    "claim 'Double Sixes' --by Ann"
    """
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
    names: tuple[str, ...] = ()
    if is_dataclass(value) and not isinstance(value, type):
        names = tuple(f.name for f in fields(value))
    elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        names = value._fields
    if names:
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
