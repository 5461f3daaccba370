"""The 15-step two-dice ladder shared by Kariki and Kiriki (RULES.md section 1).

A `Roll` is two dice under the mug; a `Rank` is a step of the ladder. Claims name ranks, never
rolls, and non-doubles of the same sum rank equal. Each game prints ranks with its own names
(`Ladder.name`), but every friendly spelling of either game is understood by `parse_rank`.

>>> Roll.parse("5-4").rank is Rank.NINE
True
>>> KARIKI.name(parse_rank("boxcars"))
'Double Sixes'
>>> KIRIKI.name(parse_rank("56"))
'11 / Tabique'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from referee.errors import NotationError, quote

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from fractions import Fraction


class Rank(IntEnum):
    """A step of the ladder, lowest (1) to highest (15)."""

    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    ELEVEN = 8
    DOUBLE_ONES = 9
    DOUBLE_TWOS = 10
    DOUBLE_THREES = 11
    DOUBLE_FOURS = 12
    DOUBLE_FIVES = 13
    DOUBLE_SIXES = 14
    ONE_TWO = 15  # KARIKI in Kariki, Kiriki in Kiriki: shown, never claimed


_DIE = "[1-6]"
_ROLL_RE = re.compile(rf"^\s*(?P<a>{_DIE})\s*[-x/ ]?\s*(?P<b>{_DIE})\s*$", re.ASCII)


@dataclass(frozen=True, slots=True, order=True)
class Roll:
    """Two dice, stored low die first: the order of the dice never matters."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 6):
            raise NotationError(f"not a roll of two dice: {self.low}-{self.high}")

    @classmethod
    def of(cls, a: int, b: int) -> Roll:
        """The roll of dice `a` and `b`, in either order."""
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise NotationError(f"unknown dice '{a}-{b}': each die shows 1 to 6")
        return cls(min(a, b), max(a, b))

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Parse `4-5`, `45`, `5 4` or `5x4`."""
        match = _ROLL_RE.match(text)
        if match is None:
            raise NotationError(
                f"unknown dice {quote(text)}: give two dice from 1 to 6, like 4-5 or 45"
            )
        return cls.of(int(match["a"]), int(match["b"]))

    @property
    def rank(self) -> Rank:
        """The ladder step of this roll."""
        if (self.low, self.high) == (1, 2):
            return Rank.ONE_TWO
        if self.low == self.high:
            return Rank(Rank.DOUBLE_ONES + self.low - 1)
        return Rank(self.low + self.high - 3)

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


def rolls_of(rank: Rank) -> tuple[Roll, ...]:
    """Every unordered roll that makes `rank`.

    >>> [str(r) for r in rolls_of(Rank.NINE)]
    ['3-6', '4-5']
    """
    return tuple(roll for roll in ALL_ROLLS if roll.rank is rank)


def probability(rank: Rank) -> Fraction:
    """The chance of rolling exactly `rank` with two fair dice (36 ordered outcomes).

    >>> probability(Rank.ONE_TWO), probability(Rank.NINE), probability(Rank.TEN)
    (Fraction(1, 18), Fraction(1, 9), Fraction(1, 18))
    """
    from fractions import Fraction

    ordered = sum(1 if r.low == r.high else 2 for r in rolls_of(rank))
    return Fraction(ordered, 36)


def chance_to_meet(rank: Rank, exact: bool = False) -> Fraction:
    """The chance that a fresh roll of two dice meets a claim of `rank`: at least as high, or
    (`exact`) exactly that rank. A Kiriki (1-2) meets every claim "at least".

    >>> chance_to_meet(Rank.DOUBLE_SIXES), chance_to_meet(Rank.NINE, exact=True)
    (Fraction(1, 12), Fraction(1, 9))
    """
    from fractions import Fraction

    if exact:
        return probability(rank)
    return sum((probability(r) for r in Rank if r >= rank), Fraction(0))


def chance_words(rank: Rank, ladder: Ladder, exact: bool = False) -> str:
    """The chance to meet a claim, in a game's names: as a fraction of 36 and a percentage.

    >>> chance_words(Rank.NINE, KARIKI)
    'a fresh roll meets Nine or better: 16/36 (44.4%)'
    """
    chance = chance_to_meet(rank, exact)
    how = "exactly" if exact else "or better"
    name = ladder.name(rank)
    said = f"exactly {name}" if exact else f"{name} {how}"
    return f"a fresh roll meets {said}: {chance * 36}/36 ({float(chance):.1%})"


ALL_ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(a, 7))

_SUM_WORDS = ("four", "five", "six", "seven", "eight", "nine", "ten", "eleven")
_DOUBLE_WORDS = (
    ("ones", "aces"),
    ("twos", "deuces", "dueces"),
    ("threes", "treys"),
    ("fours",),
    ("fives",),
    ("sixes",),
)
# Kiriki plays Spanish poker dice: Black=1, Red=2, Jack=3, Queen=4, King=5, Ace=6.
KIRIKI_FACES = ("Black", "Red", "Jack", "Queen", "King", "Ace")


def _spelling_table() -> dict[str, Rank]:
    table: dict[str, Rank] = {}
    for i, word in enumerate(_SUM_WORDS):
        rank = Rank(Rank.FOUR + i)
        table[word] = rank
        table[str(i + 4)] = rank
    table["tabique"] = Rank.ELEVEN
    for i, words in enumerate(_DOUBLE_WORDS):
        rank = Rank(Rank.DOUBLE_ONES + i)
        for word in words:
            table[f"double {word}"] = rank
        table[f"pair of {KIRIKI_FACES[i].lower()}s"] = rank
    table["double aces"] = Rank.DOUBLE_ONES
    table["snake eyes"] = table["snakeeyes"] = Rank.DOUBLE_ONES
    table["boxcars"] = table["box cars"] = Rank.DOUBLE_SIXES
    table["kariki"] = table["kiriki"] = Rank.ONE_TWO
    return table


_SPELLINGS = _spelling_table()
_SPACES_RE = re.compile(r"[\s_-]+")

# Numbers as a table says them, one or many: `6`, `6s`, `six`, `sixes`, `sixs`. Past a die's six
# faces they name no pair, but they are still numbers, never a near spelling of a face.
_NUMBER_NAMES = (
    ("one",), ("two", "deuce"), ("three", "trey"), ("four",), ("five",), ("six",),
    ("seven",), ("eight",), ("nine",), ("ten",), ("eleven",), ("twelve",),
)  # fmt: skip
_PAIR_WORDS = ("a pair of", "pair of", "pair", "doubles", "double", "two")  # longest first


def _number_table() -> dict[str, tuple[int, bool]]:
    table: dict[str, tuple[int, bool]] = {}
    for value, names in enumerate(_NUMBER_NAMES, start=1):
        for name in (*names, str(value)):
            table[name] = (value, False)
            for ending in ("s", "es", "'s"):
                table[name + ending] = (value, True)
    return table


_NUMBERS = _number_table()


def _pair_by_number(key: str) -> int | None:
    """The face a pair typed by its number shows (`pair of 6s`, `double six`, `sixes`: 6), or 0
    for a pair no die shows (`sevens`); None when `key` is not a pair said by its number.

    >>> _pair_by_number("pair of sixs"), _pair_by_number("6s"), _pair_by_number("sevens")
    (6, 6, 0)
    >>> _pair_by_number("six") is _pair_by_number("pair of kings") is None
    True
    """
    pair = next((w for w in _PAIR_WORDS if key.startswith(w + " ")), None)
    said = _NUMBERS.get(key.removeprefix(f"{pair} ") if pair else key)
    if said is None:
        return None
    value, many = said
    if pair is None and not many:
        return None  # one number alone is a sum (`six`), or no rank at all (`three`)
    return value if value <= 6 else 0


def _says_a_number(key: str) -> bool:
    """Whether any word of `key` is a number: its hint then never rests on a near spelling."""
    return any(word in _NUMBERS or any(c.isdigit() for c in word) for word in key.split(" "))


def _hint(key: str, spell: Callable[[Rank], str], known: Iterable[str], fallback: str) -> str:
    """What the refusal of an unknown rank suggests: the pair its number names, spelled by
    `spell`; else a near spelling among `known`, unless it says a number (`pair of 6s` is no
    slip of `pair of reds`); else `fallback`."""
    face = _pair_by_number(key)
    if face:
        return f"did you mean {quote(spell(Rank(Rank.DOUBLE_ONES + face - 1)))}?"
    if not _says_a_number(key):
        import difflib

        close = difflib.get_close_matches(key, list(known), 1, 0.75)
        if close:
            return f"did you mean {quote(close[0])}?"
    return fallback


def parse_face(text: str) -> int:
    """One die's face: `1`-`6`, or its Spanish poker dice name (Black .. Ace).

    >>> parse_face("king"), parse_face("6")
    (5, 6)
    """
    key = text.strip().lower()
    if key in ("1", "2", "3", "4", "5", "6"):
        return int(key)
    names = [f.lower() for f in KIRIKI_FACES]
    if key in names:
        return names.index(key) + 1
    raise NotationError(f"unknown die {quote(text)}: give 1 to 6, or Black, Red, Jack ... Ace")


def parse_rank(text: str) -> Rank:
    """Parse a claimed rank in any friendly spelling: `9`, `nine`, `4-5`, `45`, `boxcars`.

    >>> parse_rank("Double  Sixes") is parse_rank("66") is Rank.DOUBLE_SIXES
    True
    """
    key = _SPACES_RE.sub(" ", text.strip().lower())
    if key in _SPELLINGS:
        return _SPELLINGS[key]
    if _ROLL_RE.match(text):
        return Roll.parse(text).rank
    known = (w for w in _SPELLINGS if len(w) > 2)
    hint = _hint(key, _double, known, "try 9, nine, 4-5, 66, boxcars or 1-1")
    raise NotationError(f"unknown rank {quote(text)}: {hint}")


def _double(rank: Rank) -> str:
    """How Kariki types a double: `double sixes`."""
    return f"double {_DOUBLE_WORDS[rank - Rank.DOUBLE_ONES][0]}"


@dataclass(frozen=True, slots=True)
class Ladder:
    """One game's names for the 15 ranks."""

    names: tuple[str, ...]

    def name(self, rank: Rank) -> str:
        """The canonical printed name of `rank` in this game."""
        return self.names[rank - 1]


KARIKI = Ladder(
    (
        "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
        "Double Ones", "Double Deuces", "Double Threes", "Double Fours", "Double Fives",
        "Double Sixes", "KARIKI",
    )
)  # fmt: skip
KIRIKI = Ladder(
    (
        "4", "5", "6", "7", "8", "9", "10", "11 / Tabique",
        "Pair of Blacks", "Pair of Reds", "Pair of Jacks", "Pair of Queens", "Pair of Kings",
        "Pair of Aces", "Kiriki",
    )
)  # fmt: skip
# Every name either game prints parses back to its rank.
_SPELLINGS.update(
    {_SPACES_RE.sub(" ", name.lower()): Rank(i + 1) for ladder in (KARIKI, KIRIKI)
     for i, name in enumerate(ladder.names)}
)  # fmt: skip


# ---------------------------------------------------------------------------- a game's own words


def _key(text: str) -> str:
    return _SPACES_RE.sub(" ", text.strip().lower())


@dataclass(frozen=True, slots=True)
class FaceWords:
    """One game's words for the same ladder: its face names, how its ranks and dice are typed,
    and how its dice are printed. A game with face words never reads another game's aliases
    (in Kariki "double aces" is 1-1; in Kiriki an Ace is 6).

    >>> KIRIKI_WORDS.parse_rank("double aces") is KIRIKI_WORDS.parse_rank("A-A")
    True
    >>> KIRIKI_WORDS.parse_dice("q-k"), KIRIKI_WORDS.dice(Roll(3, 4))
    (Roll(low=4, high=5), 'Jack-Queen')
    """

    game: str
    ladder: Ladder
    faces: tuple[str, ...]  # the face of 1 .. 6
    ranks: Mapping[str, Rank]  # every spelling of a rank but dice, as `_key` writes it
    dice_words: Mapping[str, int]  # every spelling of one die

    @classmethod
    def of(cls, game: str, ladder: Ladder, faces: tuple[str, ...], letters: str) -> FaceWords:
        """The words of a game whose faces are `faces`, one letter each (`letters`)."""
        die: dict[str, int] = {}
        for value, (face, letter) in enumerate(zip(faces, letters, strict=True), start=1):
            for spelling in (str(value), letter, face, face + "s"):
                die[spelling.lower()] = value
        ranks: dict[str, Rank] = {}
        for i, word in enumerate(_SUM_WORDS):
            ranks[word] = ranks[str(i + 4)] = Rank(Rank.FOUR + i)
        for i, face in enumerate(faces):
            name = face.lower()
            for spelling in (f"pair of {name}s", f"pair of {name}", f"double {name}s", f"{name}s"):
                ranks[spelling] = Rank(Rank.DOUBLE_ONES + i)
        for i, printed in enumerate(ladder.names):
            for part in (printed, *printed.split(" / ")):
                ranks[_key(part)] = Rank(i + 1)
        return cls(game, ladder, faces, ranks, die)

    def face(self, value: int) -> str:
        """The name of a die showing `value`."""
        return self.faces[value - 1]

    def dice(self, roll: Roll) -> str:
        """Two dice in the game's words: `Jack-Queen`."""
        return f"{self.face(roll.low)}-{self.face(roll.high)}"

    def said(self, roll: Roll) -> str:
        """Dice as the table sees them: `Jack-Queen (7)`, a pair by its name.

        >>> KIRIKI_WORDS.said(Roll(5, 5)), KIRIKI_WORDS.said(Roll(1, 2))
        ('Pair of Kings', 'Black-Red (Kiriki)')
        """
        if roll.low == roll.high:
            return self.ladder.name(roll.rank)
        return f"{self.dice(roll)} ({self.ladder.name(roll.rank)})"

    def letters(self, roll: Roll) -> str:
        """Two dice by the faces' letters, as typed: `KK`."""
        return self.face(roll.low)[0] + self.face(roll.high)[0]

    def parse_face(self, text: str) -> int:
        """One die: `1`-`6`, a face name or its letter."""
        value = self.dice_words.get(text.strip().lower())
        if value is None:
            raise NotationError(
                f"unknown die {quote(text)}: give 1 to 6, or {self.faces[0]} .. {self.faces[-1]}"
            )
        return value

    def parse_dice(self, text: str) -> Roll:
        """Two dice in digits or the game's words: `4-5`, `45`, `q-k`, `KK`, `king king`."""
        parts = [p for p in re.split(r"[\s/x-]+", text.strip().lower()) if p]
        if len(parts) == 1 and len(parts[0]) == 2:
            parts = list(parts[0])
        values = [self.dice_words.get(p) for p in parts]
        if len(values) != 2 or values[0] is None or values[1] is None:
            king = self.faces[4]
            raise NotationError(
                f"unknown dice {quote(text)}: give two dice, like 4-5, 45, {king[0]}-{king[0]}"
                f" or {king.lower()} {king.lower()}"
            )
        return Roll.of(values[0], values[1])

    def parse_rank(self, text: str) -> Rank:
        """A claimed rank in the game's words, or as dice: `pair of aces`, `AA`, `9`, `q-k`."""
        key = _key(text)
        if key in self.ranks:
            return self.ranks[key]
        try:
            return self.parse_dice(text).rank
        except NotationError:
            pass
        other = _SPELLINGS.get(key)
        if other is not None:  # another game's alias: say what this game calls those dice
            roll = rolls_of(other)[0]
            raise NotationError(
                f"unknown rank {quote(text)} in {self.game}: {roll} is"
                f" {self.ladder.name(other)} here ({self.spell(other)}, {self.letters(roll)}"
                f" or {roll})"
            )
        # Suggest the plural forms a table says ("pair of reds"), never the singular slips.
        singular = {f"pair of {face.lower()}" for face in self.faces}
        known = (w for w in self.ranks if len(w) > 2 and w not in singular)
        king = self.faces[4]
        fallback = f"try 9, nine, 4-5, pair of {king.lower()}s or {king[0] * 2}"
        hint = _hint(key, self.spell, known, fallback)
        raise NotationError(f"unknown rank {quote(text)}: {hint}")

    def spell(self, rank: Rank) -> str:
        """How to type `rank` in the game's words: `pair of kings`, `nine`."""
        if Rank.DOUBLE_ONES <= rank <= Rank.DOUBLE_SIXES:
            return f"pair of {self.faces[rank - Rank.DOUBLE_ONES].lower()}s"
        return _key(self.ladder.name(rank).split(" / ")[-1])


KIRIKI_WORDS = FaceWords.of("Kiriki", KIRIKI, KIRIKI_FACES, "BRJQKA")
