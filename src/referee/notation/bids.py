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

MAX_QUANTITY = 999  # far above any table; the rules refuse more dice than are in play

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
_BID_RE = re.compile(r"\s*(?P<q>[a-z]+|\d{1,4})\s*(?:x|\s)\s*(?P<f>[a-z]+|\d)(?:'?s)?\s*", re.I)


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
        if match is None:
            raise NotationError(
                f"unknown bid {quote(text)}: write quantity x face, like 5x3 or five threes"
            )
        quantity, face = match["q"], match["f"]
        if quantity.isdigit():
            q = int(quantity)
        elif quantity in _NUMBERS:
            q = _NUMBERS.index(quantity)
        else:
            raise NotationError(f"unknown quantity {quote(quantity)} in bid {quote(text)}")
        f = _FACES.get(face) if not face.isdigit() else int(face)
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
        """`five threes`, `one six`, `23 fours`."""
        count = _NUMBERS[self.quantity] if self.quantity < len(_NUMBERS) else str(self.quantity)
        face = _FACE_WORD[self.face] if self.quantity == 1 else _FACE_WORDS[self.face]
        return f"{count} {face}"


_HAND_RE = re.compile(r"(?P<name>[^=]+)=(?P<dice>[0-9 ,]*)")


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
            faces = [d for d in re.split(r"[ ,]+", match["dice"].strip()) if d]
            dice = []
            for face in faces:
                if not face.isdigit() or not 1 <= int(face) <= 6:
                    raise NotationError(f"a die shows 1 to 6, not {quote(face)} in {quote(part)}")
                dice.append(int(face))
            if len(dice) > MAX_QUANTITY:
                raise NotationError(f"too many dice for {quote(match['name'].strip())}")
            found.append((match["name"].strip(), tuple(sorted(dice))))
        if not found:
            raise NotationError("no dice given: write each player's dice as Ann=3,3,1 Bob=6,2")
        return cls(tuple(found))

    def __str__(self) -> str:
        joiner = "; " if any(" " in name for name, _ in self.hands) else " "
        return joiner.join(f"{name}={','.join(map(str, dice))}" for name, dice in self.hands)
