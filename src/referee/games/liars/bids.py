"""Liar's dice notation: a bid (`5x3`, "five threes") and the dice shown at a call.

>>> str(Bid.parse("five 3s")), Bid.parse("5 threes").words()
('5x3', 'five threes')
>>> str(Hands.parse("Ann=3,3,1 Bob=6,2"))
'Ann=1,3,3 Bob=2,6'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.errors import NotationError, quote

# Far above any table (20 players x 10 dice), so the rules, which know the dice in play, refuse
# a big bid with the real reason ("more dice than are in play (24)"); past this many digits a
# number is not a bid at all.
MAX_DIGITS = 12
MAX_QUANTITY = 10**MAX_DIGITS - 1

_NUMBERS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
]  # fmt: skip
_FACES = {
    "1": 1, "one": 1, "ones": 1, "ace": 1, "aces": 1,
    "2": 2, "two": 2, "twos": 2, "deuce": 2, "deuces": 2,
    "3": 3, "three": 3, "threes": 3, "trey": 3, "treys": 3,
    "4": 4, "four": 4, "fours": 4,
    "5": 5, "five": 5, "fives": 5,
    "6": 6, "six": 6, "sixes": 6,
}  # fmt: skip
_FACE_WORDS = ("", "ones", "twos", "threes", "fours", "fives", "sixes")
_FACE_WORD = ("", "one", "two", "three", "four", "five", "six")
# ASCII digits only (a fullwidth or an Arabic-Indic 5 is refused, as a multiplication sign is):
# one rule for every number typed.
_BID_RE = re.compile(
    r"\s*(?P<q>[a-z]+|[0-9]+)\s*(?:x|\s)\s*(?P<f>[a-z]+|[0-9])(?:'?s)?\s*", re.I | re.ASCII
)
_COUNT_RE = re.compile(r"[0-9]+", re.ASCII)


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """At least `quantity` dice showing `face`, under all the cups together."""

    quantity: int
    face: int

    def __post_init__(self) -> None:
        if not 1 <= self.face <= 6:
            raise NotationError(f"a die shows 1 to 6, not {self.face}")
        if not 1 <= self.quantity <= MAX_QUANTITY:
            raise NotationError(f"a bid names 1 to {MAX_QUANTITY} dice, not {self.quantity}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Parse `5x3`, `5 3`, `five 3s`, `5 threes`, `five threes`."""
        match = _BID_RE.fullmatch(text.strip().lower().replace("’", "'"))
        if match is None and any(c.isdigit() and not c.isascii() for c in text):
            raise NotationError(f"unknown bid {quote(text)}: write its digits as 0-9, like 5x3")
        if match is None:
            raise NotationError(
                f"unknown bid {quote(text)}: write quantity x face, like 5x3 or five threes"
            )
        quantity, face = match["q"], match["f"]
        if _COUNT_RE.fullmatch(quantity):
            if len(quantity.lstrip("0")) > MAX_DIGITS:
                raise NotationError(f"bid {quote(text)} names more dice than any table holds")
            q = int(quantity)
        elif quantity in _NUMBERS:
            q = _NUMBERS.index(quantity)
        else:
            raise NotationError(
                f"unknown quantity {quote(quantity)} in bid {quote(text)}: write 5 or five"
            )
        f = _FACES.get(face)
        if f is None or not 1 <= f <= 6:
            raise NotationError(
                f"unknown face {quote(face)} in bid {quote(text)}: faces are 1 to 6"
            )
        if q < 1:
            raise NotationError(f"a bid names at least one die, not {quote(text)}")
        return cls(q, f)

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"

    def words(self) -> str:
        """`five threes`, `one six`, `23 fours`.

        >>> Bid(1, 6).words(), Bid(23, 4).words()
        ('one six', '23 fours')
        """
        count = _NUMBERS[self.quantity] if self.quantity < len(_NUMBERS) else str(self.quantity)
        face = _FACE_WORD[self.face] if self.quantity == 1 else _FACE_WORDS[self.face]
        return f"{count} {face}"


_HAND_RE = re.compile(r"(?P<name>[^=]+)=(?P<dice>.*)")


def parse_count(text: str, what: str = "count") -> int:
    """A whole number typed by a user: ASCII digits only, never negative.

    >>> parse_count("4"), parse_count(" 12 ")
    (4, 12)
    """
    shown = text.strip()
    if shown.startswith("-") and _COUNT_RE.fullmatch(shown[1:]):
        raise NotationError(f"a {what} cannot be negative: {quote(text)}")
    if not _COUNT_RE.fullmatch(shown):
        raise NotationError(f"a {what} is written in digits 0-9, not {quote(text)}")
    if len(shown.lstrip("0")) > MAX_DIGITS:
        raise NotationError(f"a {what} of {quote(text)} is more than any table holds")
    return int(shown)


def parse_dice(text: str) -> tuple[int, ...]:
    """Dice as shown, smallest first: `3,3,1`, `3 3 1` or `331` (ASCII digits 1 to 6).

    >>> parse_dice("3,3,1"), parse_dice("335")
    ((1, 3, 3), (3, 3, 5))
    """
    faces = [d for d in re.split(r"[ ,]+", text.strip()) if d]
    if len(faces) == 1 and faces[0].isascii() and faces[0].isdigit():
        faces = list(faces[0])  # `335`, as Kariki's `pull 45`: one digit a die
    if len(faces) > MAX_DICE_SHOWN:
        raise NotationError(f"too many dice: {len(faces)} (a cup holds at most 10)")
    dice = []
    for face in faces:
        if face not in _DIE_FACES:
            raise NotationError(f"a die shows 1 to 6, not {quote(face)} in {quote(text)}")
        dice.append(int(face))
    return tuple(sorted(dice))


MAX_DICE_SHOWN = 10  # a cup holds at most 10 dice in any ruleset
_DIE_FACES = frozenset("123456")


def count_dice(n: int) -> str:
    """`1 die`, `5 dice`.

    >>> count_dice(1), count_dice(0)
    ('1 die', '0 dice')
    """
    return f"{n} die" if n == 1 else f"{n} dice"


@dataclass(frozen=True, slots=True)
class Hands:
    """Every player's dice as shown at a call: `Ann=3,3,1 Bob=6,2` (`;` between players when a
    name has a space). Names are as typed; the game matches them to its players."""

    hands: tuple[tuple[str, tuple[int, ...]], ...]

    @classmethod
    def parse(cls, text: str) -> Hands:
        """Parse `Ann=3,3,1 Bob=6,2` or `Ann Marie=3,3; Bob=6`."""
        # `;` separates players when a name has a space; one player needs no separator.
        parts = text.split(";") if ";" in text or text.count("=") == 1 else text.split()
        found: list[tuple[str, tuple[int, ...]]] = []
        for part in (p.strip() for p in parts):
            if not part:
                continue
            match = _HAND_RE.fullmatch(part)
            if match is None:
                raise NotationError(
                    f"unknown dice {quote(part)}: write each player's dice as Ann=3,3,1"
                )
            found.append((match["name"].strip(), parse_dice(match["dice"])))
        if not found:
            raise NotationError("no dice given: write each player's dice as Ann=3,3,1 Bob=6,2")
        return cls(tuple(found))

    def __str__(self) -> str:
        joiner = "; " if any(" " in name for name, _ in self.hands) else " "
        return joiner.join(f"{name}={','.join(map(str, dice))}" for name, dice in self.hands)
