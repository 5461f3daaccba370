"""Reading a ruleset table (already parsed from TOML) into typed rules, reporting every problem.

Games describe their keys with a `TableReader`; a bad ruleset is reported once with all of its
problems (`RulesetError`), never one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from referee.errors import RulesetError

E = TypeVar("E", bound=Enum)

# Keys every ruleset may carry besides its game's own.
COMMON_KEYS = frozenset({"game", "name", "description"})


class TableReader:
    """Typed access to a ruleset table that collects problems instead of stopping at the first."""

    def __init__(self, table: Mapping[str, object], source: str) -> None:
        self.table = table
        self.source = source
        self.problems: list[str] = []
        self._seen: set[str] = set(COMMON_KEYS)

    def integer(self, key: str, default: int, *, minimum: int = 0) -> int:
        """An integer key, at least `minimum`."""
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.append(f"{key} must be a whole number, not {value!r}")
            return default
        if value < minimum:
            self.problems.append(f"{key} must be at least {minimum}, not {value}")
            return default
        return value

    def flag(self, key: str, default: bool) -> bool:
        """A true/false key."""
        value = self._get(key, default)
        if not isinstance(value, bool):
            self.problems.append(f"{key} must be true or false, not {value!r}")
            return default
        return value

    def choice(self, key: str, enum: type[E], default: E) -> E:
        """A key whose value is one of an enum's values."""
        value = self._get(key, default.value)
        for member in enum:
            if member.value == value:
                return member
        allowed = " | ".join(str(m.value) for m in enum)
        self.problems.append(f"{key} must be one of {allowed}, not {value!r}")
        return default

    def int_list(self, key: str, default: tuple[int, ...], *, minimum: int = 0) -> tuple[int, ...]:
        """A list of whole numbers."""
        value = self._get(key, list(default))
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in value
        ):
            self.problems.append(f"{key} must be a list of whole numbers >= {minimum}")
            return default
        return tuple(value)

    def str_list(self, key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """A list of strings."""
        value = self._get(key, list(default))
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problems.append(f"{key} must be a list of strings")
            return default
        return tuple(value)

    def subtable(self, key: str) -> Mapping[str, object]:
        """A nested table (empty when absent)."""
        value = self._get(key, {})
        if not isinstance(value, Mapping):
            self.problems.append(f"{key} must be a table")
            return {}
        return value

    def finish(self) -> None:
        """Raise one `RulesetError` naming every problem and every unknown key."""
        unknown = sorted(set(self.table) - self._seen)
        problems = self.problems + [f"unknown key {k!r}" for k in unknown]
        if problems:
            raise RulesetError(f"{self.source}: " + "; ".join(problems))

    def _get(self, key: str, default: object) -> object:
        self._seen.add(key)
        return self.table.get(key, default)
