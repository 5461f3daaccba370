"""Mia values (RULES.md section 6): two dice read high die first, `61`, `33`, and Mia (21).

The dice themselves are read by `notation.dice.Roll`; what Mia adds is the canonical spelling
(the high die first: `61`, never `16`), the name Mia, and the order of the values, which a
ruleset may change (`doubles_order`). A typed two-digit number with the low die first is refused
with the canonical spelling as the hint, because at a table `16` is a slip for sixty-one.

>>> MiaValue.parse("6-1"), MiaValue.parse("1-2"), MiaValue.parse("33")
(MiaValue(high=6, low=1), MiaValue(high=2, low=1), MiaValue(high=3, low=3))
>>> str(MiaValue.parse("2 1")), str(MiaValue.parse("5-6"))
('Mia', '65')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from referee.errors import NotationError, quote
from referee.notation.dice import ALL_ROLLS, Roll

# Two bare digits: the only spelling whose order of dice means something (`16` is a slip).
_BARE_RE = re.compile(r"^\s*(?P<a>[1-6])(?P<b>[1-6])\s*$", re.ASCII)
_HINT = "give two dice high first, like 65, 33 or mia"


class DoublesOrder(Enum):
    """How the doubles rank among themselves (`doubles_order`); all beat every non-double."""

    ASCENDING = "ascending"  # 11 < 22 < ... < 66
    REVERSED = "reversed"  # 66 < 55 < ... < 11


@dataclass(frozen=True, slots=True)
class MiaValue:
    """A value of two dice, high die first. Mia is 21."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high <= 6:
            raise NotationError(f"not a Mia value: {self.high}{self.low}: {_HINT}")

    @classmethod
    def of(cls, roll: Roll) -> MiaValue:
        """The value of a roll of two dice."""
        return cls(roll.high, roll.low)

    @classmethod
    def parse(cls, text: str) -> MiaValue:
        """Read `61`, `6-1`, `1-6`, `6 1`, `mia`, `21`, `2-1`, `1-2`; refuse `16` with a hint.

        >>> try:
        ...     MiaValue.parse("23")
        ... except NotationError as error:
        ...     print(error)
        not a Mia value '23': the high die comes first, did you mean 32?
        """
        if text.strip().lower() == "mia":
            return MIA
        bare = _BARE_RE.match(text)
        if bare is not None and bare["a"] < bare["b"]:
            canonical = cls(int(bare["b"]), int(bare["a"]))
            named = "21 (Mia)" if canonical.is_mia else str(canonical)
            raise NotationError(
                f"not a Mia value {quote(text)}: the high die comes first, did you mean {named}?"
            )
        try:
            return cls.of(Roll.parse(text))
        except NotationError:
            raise NotationError(f"not a Mia value {quote(text)}: {_HINT}") from None

    @property
    def is_mia(self) -> bool:
        """Whether this is Mia (2 and 1), the highest value."""
        return (self.high, self.low) == (2, 1)

    @property
    def is_double(self) -> bool:
        """Whether both dice show the same face."""
        return self.high == self.low

    def rank(self, order: DoublesOrder) -> int:
        """The place of this value among all 21, lowest (31) 1 to Mia 21.

        >>> MiaValue(3, 1).rank(DoublesOrder.ASCENDING), MIA.rank(DoublesOrder.REVERSED)
        (1, 21)
        """
        return ladder(order).index(self) + 1

    def __str__(self) -> str:
        return "Mia" if self.is_mia else f"{self.high}{self.low}"


MIA = MiaValue(2, 1)
_PLAIN = tuple(
    MiaValue(high, low) for high in range(3, 7) for low in range(1, high)
)  # 31, 32, 41, ... 65: no double, and 21 is Mia
_DOUBLES = tuple(MiaValue(d, d) for d in range(1, 7))


def ladder(order: DoublesOrder) -> tuple[MiaValue, ...]:
    """Every value, lowest first: the plain values, the doubles in `order`, then Mia.

    >>> " ".join(str(v) for v in ladder(DoublesOrder.REVERSED)[-7:])
    '66 55 44 33 22 11 Mia'
    """
    doubles = _DOUBLES if order is DoublesOrder.ASCENDING else _DOUBLES[::-1]
    return (*_PLAIN, *doubles, MIA)


def chance_at_least(value: MiaValue, order: DoublesOrder) -> Fraction:
    """The chance a fresh roll of two dice is at least `value` (36 ordered outcomes).

    >>> up = DoublesOrder.ASCENDING
    >>> chance_at_least(MiaValue(3, 1), up), chance_at_least(MiaValue(6, 6), up)
    (Fraction(1, 1), Fraction(1, 12))
    """
    need = value.rank(order)
    ways = sum(1 if r.low == r.high else 2 for r in ALL_ROLLS if MiaValue.of(r).rank(order) >= need)
    return Fraction(ways, 36)


ALL_VALUES = ladder(DoublesOrder.ASCENDING)  # every value once, for completion and tests
