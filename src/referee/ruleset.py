"""Reading a ruleset table (already parsed from TOML) into typed rules, reporting every problem.

Games describe their keys with a `TableReader`; a bad ruleset is reported once with all of its
problems (`RulesetError`), never one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from referee.errors import RulesetError, UsageError, quote_number

E = TypeVar("E", bound=Enum)

# Keys every ruleset may carry besides its game's own.
COMMON_KEYS = frozenset({"game", "name", "description"})
LIST_MAX = 32


class TableReader:
    """Typed access to a ruleset table that collects problems instead of stopping at the first."""

    def __init__(self, table: Mapping[str, object], source: str) -> None:
        self.table = table
        self.source = source
        self.problems: list[str] = []
        self._seen: set[str] = set(COMMON_KEYS)

    def integer(self, key: str, default: int, *, minimum: int = 0, maximum: int = 99) -> int:
        """An integer key from `minimum` to `maximum` (no ruleset needs absurd numbers)."""
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.append(f"{key} must be a whole number, not {value!r:.20}")
            return default
        if not minimum <= value <= maximum:
            self.problems.append(
                f"{key} must be from {minimum} to {maximum}, not {quote_number(value)}"
            )
            return default
        return value

    def amount(self, key: str, default: int) -> int:
        """An amount of money (`3`, `3.5`, `"3.50"`) in whole cents."""
        from referee.games.money import cents

        value = self._get(key, None)
        if value is None:
            return default
        try:
            return cents(value, key)
        except UsageError as error:
            self.problems.append(str(error))
            return default

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

    def int_list(
        self, key: str, default: tuple[int, ...], *, minimum: int = 0, maximum: int = 99
    ) -> tuple[int, ...]:
        """A short list of whole numbers from `minimum` to `maximum`."""
        value = self._get(key, list(default))
        if (
            not isinstance(value, list)
            or len(value) > LIST_MAX
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and minimum <= v <= maximum
                for v in value
            )
        ):
            self.problems.append(
                f"{key} must be a list of at most {LIST_MAX} whole numbers"
                f" from {minimum} to {maximum}"
            )
            return default
        return tuple(value)

    def str_list(self, key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """A short list of short, printable strings."""
        value = self._get(key, list(default))
        if (
            not isinstance(value, list)
            or len(value) > LIST_MAX
            or not all(isinstance(v, str) and len(v) <= 40 and v.isprintable() for v in value)
        ):
            self.problems.append(f"{key} must be a list of at most {LIST_MAX} short strings")
            return default
        return tuple(value)

    def text(self, key: str, default: str, *, limit: int = 200) -> str:
        """A line of text shown to users (a description, a rule's wording)."""
        value = self._get(key, default)
        if not isinstance(value, str) or len(value) > limit or not value.isprintable():
            self.problems.append(f"{key} must be one line of printable text, at most {limit}")
            return default
        return value

    def subtable(self, key: str) -> Mapping[str, object]:
        """A nested table (empty when absent)."""
        value = self._get(key, {})
        if not isinstance(value, Mapping):
            self.problems.append(f"{key} must be a table")
            return {}
        return value

    def all_problems(self) -> list[str]:
        """Every problem so far, and every key nobody asked for."""
        unknown = sorted(set(self.table) - self._seen)
        return self.problems + [f"unknown key {k!r:.40}" for k in unknown]

    def finish(self) -> None:
        """Raise one `RulesetError` naming every problem and every unknown key."""
        for key in ("name", "description"):
            self.text(key, "")
        # each said once: a game that reads `name` itself has had its problem said already
        problems = list(dict.fromkeys(self.all_problems()))
        if problems:
            raise RulesetError(f"{self.source}: " + "; ".join(problems[:12]))

    def _get(self, key: str, default: object) -> object:
        self._seen.add(key)
        return self.table.get(key, default)
