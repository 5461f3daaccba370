"""What every game gives the session layer: rules from a table, a start, `apply`, event notation."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from referee.errors import NotationError

R = TypeVar("R")
S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player as entered at `new`: a name and an optional nickname."""

    name: str
    nickname: str | None = None


class Game(ABC, Generic[R, S, E]):
    """A game's pure rules engine, seen from the session layer."""

    name: str
    title: str  # as the game is written in sentences: "Kariki"
    min_players: int = 2
    max_players: int = 20
    state_type: type[S]  # what the replay cache rebuilds states as (see referee.plain)

    @abstractmethod
    def rules_from_table(self, table: Mapping[str, object], source: str) -> R:
        """Typed rules from a ruleset table; `RulesetError` lists every problem."""

    @abstractmethod
    def start(self, rules: R, players: Sequence[PlayerInfo], options: Mapping[str, object]) -> S:
        """The state before any event."""

    @abstractmethod
    def apply(self, state: S, event: E) -> S:
        """The state after `event`, or `RuleViolation`."""

    @abstractmethod
    def event_from_dict(self, data: Mapping[str, object]) -> E:
        """An event read from a session file."""

    @abstractmethod
    def event_to_dict(self, event: E) -> dict[str, str | int]:
        """An event as written to a session file."""

    @abstractmethod
    def summary(self, state: S) -> dict[str, object]:
        """The `show --json` document."""

    @abstractmethod
    def ruling(self, state: S) -> str:
        """What the last event did, in words."""


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
        raise NotationError(f"the event's {key} must be a whole number, not {value!r}")
    return value
