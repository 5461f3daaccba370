"""Playing cards as Kalooki writes them: `10H`, `QS`, `AC`, `JK` (RULES.md section 5).

A `Card` knows only its rank and suit. What a card is worth in hand and where it stands in a
run are the melds' business (`referee.games.kalooki.melds`), so an ace's points never leak into
run order.

>>> [str(Card.parse(t)) for t in ("th", "q♠", "*")]
['10H', 'QS', 'JK']
>>> " ".join(str(c) for c in parse_cards("10h, js JOKER"))
'10H JS JK'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from referee.errors import NotationError, quote


class Suit(Enum):
    """The four suits, by their letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_black(self) -> bool:
        """Spades and clubs."""
        return self in (Suit.SPADES, Suit.CLUBS)

    def __lt__(self, other: Suit) -> bool:
        return _SUIT_ORDER[self] < _SUIT_ORDER[other]


_SUIT_ORDER = {suit: n for n, suit in enumerate(Suit)}  # the order they are declared in


RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 11)}
_SUITS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
_SUITS |= {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
_SUITS |= {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_CARD_RE = re.compile(r"^(?P<rank>10|[2-9AJQKT])(?P<suit>[SHDC♠♥♦♣♤♡♢♧])$", re.IGNORECASE)
_JOKERS = {"JK", "*", "JOKER"}
JOKER_RANK = 0


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card: rank 1 (ace) to 13 (king) with a suit, or the joker (rank 0, no suit)."""

    rank: int
    suit: Suit | None

    def __post_init__(self) -> None:
        if self.suit is None and self.rank != JOKER_RANK:
            raise NotationError(f"a card of rank {self.rank} needs a suit")
        if self.suit is not None and not 1 <= self.rank <= 13:
            raise NotationError(f"no card has rank {self.rank}")

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.suit is None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: rank `A 2..10 J Q K` (or `T`), suit `S H D C` (or ♠♥♦♣), or `JK`."""
        token = text.strip()
        if token.upper() in _JOKERS:
            return JOKER
        match = _CARD_RE.match(token)
        if match is None:
            raise NotationError(
                f"unknown card {quote(text)}: write rank and suit like 10H, QS, AC, or JK"
            )
        return cls(_RANKS[match["rank"].upper()], _SUITS[match["suit"].upper()])

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.value}"


JOKER = Card(JOKER_RANK, None)


def parse_cards(*texts: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas, from one or several arguments."""
    tokens = [t for text in texts for t in re.split(r"[\s,]+", text) if t]
    return tuple(Card.parse(t) for t in tokens)


def show(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards in canonical notation, space-separated."""
    return " ".join(str(c) for c in cards)
