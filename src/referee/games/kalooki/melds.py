"""Kalooki (Caribbean contract rummy, RULES.md section 5): melds, contracts, scores, a solver.

A meld is checked as an unordered multiset and, when legal, comes back with its reading: the
cards in order with each joker in the place it stands for. When the cards as typed form a run
in that order (up or down), each joker stands where it was typed; otherwise a joker takes the
first legal place from the high end. Nothing here does I/O.

>>> str(check_meld(parse_cards("JK JK 6D 7D")))
'four: JK 6D 7D JK (5D..8D)'
>>> str(check_meld(parse_cards("JK 6D 7D 8D")))
'four: JK 6D 7D 8D (5D..8D)'
>>> check_meld(parse_cards("3S JK JK")).reason
'a three needs 2 natural cards'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from itertools import combinations, pairwise

from referee.errors import NotationError, UsageError
from referee.games.kalooki.cards import JOKER, Card, Suit, parse_cards, show
from referee.games.money import Stakes
from referee.games.roster import LateJoin
from referee.ruleset import TableReader

# ---------------------------------------------------------------------------- rules


class TackOrder(Enum):
    """Where cards are added to a four on the table (`tack_order`)."""

    HIGH_FIRST = "high_first"
    EITHER_END = "either_end"


class CallScope(Enum):
    """What the call limit counts over (`call_limit_scope`)."""

    GAME = "game"
    HAND = "hand"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Kalooki ruleset key, with RULES.md's defaults."""

    decks: int = 2
    jokers: int = 4
    deal_sizes: tuple[int, ...] = (9, 10, 11, 12, 12, 13, 14, 15, 16)
    contracts: tuple[str, ...] = (
        "333",
        "334",
        "344",
        "444",
        "3333",
        "3334",
        "3344",
        "3444",
        "4444",
    )
    three_distinct_suits: bool = False
    ace_both_ends: bool = False
    allow_new_melds_after_laydown: bool = False
    tack_order: TackOrder = TackOrder.HIGH_FIRST
    call_limit: int = 3
    call_limit_scope: CallScope = CallScope.GAME
    out_on_laydown: bool = True
    stakes: Stakes = field(default_factory=Stakes)  # RULES 7: the only game that may pay per point
    late_join: LateJoin = LateJoin.UNTIL_FIRST_OUT  # a newcomer sits down before a deal

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        """Build rules from a ruleset table, reporting every problem at once."""
        r = TableReader(table, source)
        d = cls()
        rules = cls(
            decks=r.integer("decks", d.decks, minimum=1, maximum=4),
            jokers=r.integer("jokers", d.jokers, maximum=16),
            deal_sizes=r.int_list("deal_sizes", d.deal_sizes, minimum=1, maximum=20),
            contracts=r.str_list("contracts", d.contracts),
            three_distinct_suits=r.flag("three_distinct_suits", d.three_distinct_suits),
            ace_both_ends=r.flag("ace_both_ends", d.ace_both_ends),
            allow_new_melds_after_laydown=r.flag(
                "allow_new_melds_after_laydown", d.allow_new_melds_after_laydown
            ),
            tack_order=r.choice("tack_order", TackOrder, d.tack_order),
            call_limit=r.integer("call_limit", d.call_limit, maximum=9),
            call_limit_scope=r.choice("call_limit_scope", CallScope, d.call_limit_scope),
            out_on_laydown=r.flag("out_on_laydown", d.out_on_laydown),
            stakes=Stakes.read(r, per_point=True),
            late_join=LateJoin.read(r),
        )
        if len(rules.deal_sizes) != len(rules.contracts):
            r.problems.append("deal_sizes and contracts must list the same number of rounds")
        for contract in rules.contracts:
            if not contract or set(contract) - {"3", "4"}:
                r.problems.append(f"contract {contract!r} must be made of 3s and 4s, like 334")
        r.finish()
        return rules

    @property
    def max_hand(self) -> int:
        """The most cards a hand can hold: the biggest deal, a draw, and every call's two."""
        return max(self.deal_sizes, default=0) + 1 + 2 * self.call_limit

    @property
    def max_lay_down_hand(self) -> int:
        """The hand the solver searches: the biggest deal plus the card drawn (RULES.md: 17)."""
        return max(self.deal_sizes, default=0) + 1

    def check_cards(
        self, cards: Sequence[Card], what: str = "hand", limit: int | None = None
    ) -> tuple[Card, ...]:
        """`cards` if one hand can hold them: no more than the pack has of a card, or a hand."""
        limit = self.max_hand if limit is None else limit
        if len(cards) > limit:
            raise UsageError(f"{len(cards)} cards: a {what} here holds at most {limit}")
        for card, n in sorted(Counter(cards).items()):
            copies = self.jokers if card.is_joker else self.decks
            if n > copies:
                raise UsageError(f"{n} x {card}: the pack holds only {copies}")
        return tuple(cards)

    def contract(self, round_number: int) -> Contract:
        """The contract of round `round_number` (1-based)."""
        if not 1 <= round_number <= len(self.contracts):
            raise UsageError(f"unknown round {round_number}: rounds are 1 to {len(self.contracts)}")
        text = self.contracts[round_number - 1]
        return Contract(text.count("3"), text.count("4"))


@dataclass(frozen=True, slots=True)
class Contract:
    """How many threes and fours a lay-down needs."""

    threes: int
    fours: int

    @property
    def code(self) -> str:
        """The sheet's short form: 334."""
        return "3" * self.threes + "4" * self.fours

    def words(self) -> str:
        """The contract in words: `2 threes + 1 four`."""
        parts = []
        for n, word in ((self.threes, "three"), (self.fours, "four")):
            if n:
                parts.append(f"{n} {word}{'s' if n > 1 else ''}")
        return " + ".join(parts)


# ---------------------------------------------------------------------------- values


def penalty(card: Card) -> int:
    """Points a card costs left in hand: joker 50, black ace 15, K Q J 10 ten, red ace 1.

    >>> [penalty(c) for c in parse_cards("JK AS AH KD 10C 7H")]
    [50, 15, 1, 10, 10, 7]
    """
    if card.suit is None:
        return 50
    if card.rank == 1:
        return 15 if card.suit.is_black else 1
    return min(card.rank, 10)


def scored(cards: Sequence[Card]) -> str:
    """A hand's score card by card, as the table reads it out.

    >>> scored(parse_cards("AS JK"))
    'AS 15 + JK 50 = 65'
    """
    points = [penalty(c) for c in cards]
    detail = " + ".join(f"{c} {p}" for c, p in zip(cards, points, strict=True))
    return f"{detail} = {sum(points)}" if cards else "no cards = 0"


def reachable(rules: Rules, cards: int, used: Sequence[Card] = ()) -> frozenset[int]:
    """Every score exactly `cards` cards from the pack can make, `used` cards taken out of it.

    >>> sorted(reachable(Rules(), 1))
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 50]
    >>> min(reachable(Rules(), 9)), max(reachable(Rules(), 9))
    (14, 270)
    >>> max(reachable(Rules(), 1, parse_cards("JK JK JK JK")))
    15
    """
    # How many cards of the pack score each value: red aces 1, 2-9, ten to king 10, black
    # aces 15, jokers 50; less the cards already on the table or in other hands.
    copies = Counter({1: 2 * rules.decks, 10: 16 * rules.decks, 15: 2 * rules.decks})
    copies |= Counter(dict.fromkeys(range(2, 10), 4 * rules.decks)) | Counter({50: rules.jokers})
    copies.subtract(penalty(c) for c in used)
    return _reachable(tuple(sorted((v, max(0, n)) for v, n in copies.items())), cards)


@cache
def _reachable(copies: tuple[tuple[int, int], ...], cards: int) -> frozenset[int]:
    # A bounded knapsack on exact counts, kept as bitsets of sums.
    sums = [1] + [0] * cards  # sums[k]: a bitset of the scores k cards can make
    for value, n in copies:
        grown = list(sums)
        for k in range(1, cards + 1):
            for more in range(1, min(n, k) + 1):
                grown[k] |= sums[k - more] << (value * more)
        sums = grown
    bits = sums[cards]
    return frozenset(p for p in range(bits.bit_length()) if bits >> p & 1)


def card_at(position: int, suit: Suit) -> Card:
    """The card a run position stands for."""
    return Card(1 if position == 14 else position, suit)


# ---------------------------------------------------------------------------- melds


class Kind(Enum):
    """The two kinds of meld."""

    THREE = "three"
    FOUR = "four"


@dataclass(frozen=True, slots=True)
class Meld:
    """A checked meld: legal with a kind and reading, or illegal with a reason."""

    cards: tuple[Card, ...]
    kind: Kind | None
    reading: tuple[Card, ...] = ()
    reason: str = ""
    stands_for: tuple[Card, ...] = ()  # the card each place of a four stands for

    @property
    def legal(self) -> bool:
        """True when the meld may be laid down."""
        return self.kind is not None

    def __str__(self) -> str:
        if self.kind is None:
            return f"illegal: {self.reason}"
        text = f"{self.kind.value}: {show(self.reading)}"
        if self.kind is Kind.FOUR and self.stands_for:
            text += f" ({self.stands_for[0]}..{self.stands_for[-1]})"
        return text


def _illegal(cards: Sequence[Card], reason: str) -> Meld:
    return Meld(tuple(cards), None, reason=reason)


def check_meld(cards: Sequence[Card], rules: Rules | None = None) -> Meld:
    """Check one meld, as an unordered multiset of cards."""
    rules = rules or Rules()
    if not cards:
        return _illegal(cards, "an empty meld")
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) < 3:
        return _illegal(cards, "a meld needs at least 3 cards")
    if not naturals:
        return _illegal(cards, "a meld needs natural cards, not only jokers")
    if len({c.rank for c in naturals}) == 1:
        return _check_three(cards, naturals, rules)
    if len({c.suit for c in naturals}) == 1:
        return _check_four(cards, naturals, rules)
    return _illegal(cards, "mixed ranks and suits: a three is one rank, a four one suit")


def _check_three(cards: Sequence[Card], naturals: list[Card], rules: Rules) -> Meld:
    if len(naturals) < 2:  # a lone natural with jokers is no four either: its jokers would touch
        return _illegal(cards, "a three needs 2 natural cards")
    suits = [c.suit for c in naturals]
    if rules.three_distinct_suits and len(set(suits)) != len(suits):
        return _illegal(cards, "a three's suits must all differ in this ruleset")
    jokers = [c for c in cards if c.is_joker]
    return Meld(tuple(cards), Kind.THREE, tuple(sorted(naturals, key=_suit_order) + jokers))


def _suit_order(card: Card) -> int:
    return list(Suit).index(card.suit) if card.suit else 4


def _check_four(cards: Sequence[Card], naturals: list[Card], rules: Rules) -> Meld:
    if len(cards) < 4:
        return _illegal(cards, "a four needs at least 4 cards")
    counts = Counter(c.rank for c in naturals)
    twice = [r for r, n in counts.items() if n > 1 and not (r == 1 and n == 2)]
    if twice or (counts[1] == 2 and not rules.ace_both_ends):
        return _illegal(cards, "a run cannot hold the same card twice")
    longest = longest_run(rules)
    if len(cards) > longest:
        return _illegal(cards, f"a run is at most {longest} cards")
    suit = naturals[0].suit
    assert suit is not None  # naturals always have a suit
    jokers = len(cards) - len(naturals)
    typed = _typed_run(cards, suit, rules) if jokers else None
    if typed is not None:  # the cards as typed are a run: each joker stands where it was typed
        order = sorted(range(len(cards)), key=typed.__getitem__)
        return Meld(
            tuple(cards),
            Kind.FOUR,
            tuple(cards[k] for k in order),
            stands_for=tuple(card_at(typed[k], suit) for k in order),
        )
    reasons: list[str] = []
    for places in _ace_readings(naturals, rules):
        found = _place_run(sorted(places), jokers, rules)
        if isinstance(found, str):
            reasons.append(found)
            continue
        reading = tuple(JOKER if p not in places else card_at(p, suit) for p in found)
        return Meld(
            tuple(cards), Kind.FOUR, reading, stands_for=tuple(card_at(p, suit) for p in found)
        )
    if counts[1] and _needs_wrap(naturals):
        return _illegal(cards, "the ace cannot sit inside a run: K-A-2 does not wrap")
    return _illegal(cards, min(reasons, key=_reason_rank))


def _typed_run(cards: Sequence[Card], suit: Suit, rules: Rules) -> list[int] | None:
    """Each card's run position when the cards as typed form a run in that order, up or down,
    jokers where they were typed; None when they do not (then jokers take the first legal
    places from the high end).

    >>> _typed_run(parse_cards("JK 6D 7D 8D"), Suit.DIAMONDS, Rules())
    [5, 6, 7, 8]
    >>> _typed_run(parse_cards("JK KD QD JD"), Suit.DIAMONDS, Rules())
    [14, 13, 12, 11]
    >>> _typed_run(parse_cards("6D JK 7D 8D"), Suit.DIAMONDS, Rules()) is None
    True
    """
    if any(a.is_joker and b.is_joker for a, b in pairwise(cards)):
        return None  # two jokers typed side by side would stand side by side
    first = next(k for k, c in enumerate(cards) if not c.is_joker)
    rank = cards[first].rank
    for step in (1, -1):
        for start in (1, 14) if rank == 1 else (rank,):
            places = [start + step * (k - first) for k in range(len(cards))]
            if min(places) < 1 or max(places) > 14:
                continue  # past an ace: no room
            if min(places) == 1 and max(places) == 14 and not rules.ace_both_ends:
                continue
            if all(c.is_joker or card_at(p, suit) == c for c, p in zip(cards, places, strict=True)):
                return places
    return None


def _reason_rank(reason: str) -> int:
    order = ("two jokers side by side", "a gap", "the run")
    return next((i for i, o in enumerate(order) if reason.startswith(o)), len(order))


def _needs_wrap(naturals: list[Card]) -> bool:
    others = [c.rank for c in naturals if c.rank != 1]
    return bool(others) and min(others) <= 4 and max(others) >= 10


def _ace_readings(naturals: list[Card], rules: Rules) -> list[set[int]]:
    """The sets of run positions the naturals may take: an ace is low or high."""
    others = {c.rank for c in naturals if c.rank != 1}
    aces = sum(1 for c in naturals if c.rank == 1)
    if aces == 0:
        return [others]
    if aces == 2:
        return [others | {1, 14}]
    return [others | {1}, others | {14}]


def longest_run(rules: Rules) -> int:
    """A run's longest length: A to K, or A to A when the ace may stand at both ends."""
    return 14 if rules.ace_both_ends else 13


def _place_run(places: list[int], jokers: int, rules: Rules) -> list[int] | str:
    """Run positions holding `places` plus `jokers`, or why there are none.

    Windows are tried from the high end down, so a spare joker stands at the high end where
    cards are tacked on; a joker's place must never touch another joker's.
    """
    length = len(places) + jokers
    lo, hi = places[0], places[-1]
    if hi - lo + 1 > length:
        return "a gap too wide for the jokers"
    # `_check_four` has refused runs longer than the ladder allows before asking.
    side_by_side = False
    for start in range(min(lo, 15 - length), max(1, hi - length + 1) - 1, -1):
        window = range(start, start + length)
        holes = [p for p in window if p not in places]
        if any(b - a == 1 for a, b in pairwise(holes)):
            side_by_side = True
            continue
        return list(window)
    return "two jokers side by side" if side_by_side else "the run cannot go past the ace"


# ---------------------------------------------------------------------------- contracts


@dataclass(frozen=True, slots=True)
class LayDown:
    """A contract lay-down, checked."""

    melds: tuple[Meld, ...]
    legal: bool
    reason: str = ""


def check_contract(
    round_number: int, melds: Sequence[Sequence[Card]], rules: Rules | None = None
) -> LayDown:
    """Check a lay-down against a round's contract: shapes, distinct ranks and suits, copies."""
    rules = rules or Rules()
    contract = rules.contract(round_number)
    checked = tuple(check_meld(m, rules) for m in melds)

    def refuse(reason: str) -> LayDown:
        return LayDown(checked, False, reason)

    for number, meld in enumerate(checked, start=1):
        if not meld.legal:
            return refuse(f"meld {number} ({show(meld.cards)}): {meld.reason}")
    threes = [m for m in checked if m.kind is Kind.THREE]
    fours = [m for m in checked if m.kind is Kind.FOUR]
    if (len(threes), len(fours)) != (contract.threes, contract.fours):
        return refuse(
            f"round {round_number} needs {contract.words()} ({contract.code}),"
            f" not {len(threes)} three{'s' * (len(threes) != 1)}"
            f" + {len(fours)} four{'s' * (len(fours) != 1)}"
        )
    ranks = [next(c.rank for c in m.cards if not c.is_joker) for m in threes]
    if len(set(ranks)) != len(ranks):
        return refuse("two threes of the same rank: each three needs its own rank")
    suits = [next(c.suit for c in m.cards if not c.is_joker) for m in fours]
    if len(set(suits)) != len(suits):
        return refuse("two fours in the same suit: each four needs its own suit")
    copies = Counter(c for m in checked for c in m.cards)
    for card, n in sorted(copies.items()):
        limit = rules.jokers if card.is_joker else rules.decks
        if n > limit:
            return refuse(f"{n} x {card}: the pack holds only {limit}")
    return LayDown(checked, True)


def parse_lay_down(words: Sequence[str]) -> list[tuple[Card, ...]]:
    """Melds separated by `/`: `5H 5D JK / 7S 8S 9S 10S`."""
    text = " ".join(words)
    parts = [part.strip() for part in text.split("/")]
    if not any(parts):
        raise NotationError("no melds: write cards separated by /, like 5H 5D JK / 7S 8S 9S 10S")
    melds = []
    for number, part in enumerate(parts, start=1):
        if not part:
            raise NotationError(f"meld {number} is empty: write cards between the / signs")
        melds.append(parse_cards(part))
    return melds


# ---------------------------------------------------------------------------- the solver


@dataclass(frozen=True, slots=True)
class Solution:
    """The best lay-down for a hand, or none."""

    possible: bool
    melds: tuple[Meld, ...] = ()
    left: tuple[Card, ...] = ()

    @property
    def left_points(self) -> int:
        """Penalty of the cards left in hand."""
        return sum(penalty(c) for c in self.left)


def solve(round_number: int, hand: Sequence[Card], rules: Rules | None = None) -> Solution:
    """The lay-down of the round's contract that leaves the fewest penalty points in hand.

    An exact search: every combination of suits for the fours, every run of each (jokers in any
    non-adjacent places), then the threes take the best remaining ranks greedily, which is exact
    because threes of different ranks share no cards.
    """
    rules = rules or Rules()
    contract = rules.contract(round_number)
    return _Solver(tuple(hand), contract, rules).run()


# The search works on card ids, not `Card` values: id = (rank - 1) * 4 + suit, and counts are
# plain lists, because hashing frozen dataclasses dominated the run time.
_SUITS = list(Suit)
_NATURALS = 52
_CARDS = [Card(i // 4 + 1, _SUITS[i % 4]) for i in range(_NATURALS)]
_PENALTY = [penalty(c) for c in _CARDS]
_JOKER_POINTS = penalty(JOKER)
Option = tuple[int, int, tuple[int, ...]]  # (points removed, jokers used, natural ids)


def _card_id(card: Card) -> int:
    assert card.suit is not None  # only naturals have ids
    return (card.rank - 1) * 4 + _SUITS.index(card.suit)


def _id_at(position: int, suit_index: int) -> int:
    return ((1 if position == 14 else position) - 1) * 4 + suit_index


@dataclass(slots=True, eq=False, repr=False)  # the solver's scratch: never compared or shown
class _Best:
    removed: int | None = None  # penalty points laid down; None until a lay-down is found
    fours: tuple[Option, ...] = ()
    threes: tuple[tuple[tuple[int, ...], int], ...] = ()  # (natural ids, jokers)


class _Solver:
    def __init__(self, hand: tuple[Card, ...], contract: Contract, rules: Rules) -> None:
        self.hand = hand
        self.contract = contract
        self.rules = rules
        self.jokers = sum(1 for c in hand if c.is_joker)
        self.counts = [0] * _NATURALS
        for card in hand:
            if not card.is_joker:
                self.counts[_card_id(card)] += 1
        self.best = _Best()
        self.total = sum(penalty(c) for c in hand)
        self.swappable = [False] * _NATURALS

    def run(self) -> Solution:
        counts = self.counts
        per_suit = [sum(counts[i] for i in range(s, _NATURALS, 4)) for s in range(4)]
        # A four needs 2 naturals of its suit (its jokers may not touch): a cheap first filter.
        usable = [s for s in range(4) if per_suit[s] >= 2]
        if len(usable) < self.contract.fours:
            return Solution(False, left=self.hand)
        runs: dict[int, list[Option]] = {}
        if self.contract.fours:
            for i in range(_NATURALS):
                same_rank = sum(counts[(i // 4) * 4 + s] for s in range(4))
                # With threes to make, a joker in place of a natural only helps if that natural
                # can join a three; otherwise the joker is worth as much in a three and the
                # natural stays stuck in hand. With fours only, a joker anywhere beats one in hand.
                self.swappable[i] = same_rank >= 2 or not self.contract.threes
            runs = {s: self._runs_of(s) for s in usable}
            usable = [s for s in usable if runs[s]]
        for suits in combinations(usable, self.contract.fours):
            self._fours([runs[s] for s in suits], list(counts), self.jokers, 0, ())
        if self.best.removed is None:
            return Solution(False, left=self.hand)
        laid = [tuple(_CARDS[i] for i in ids) + (JOKER,) * j for _, j, ids in self.best.fours]
        laid += [tuple(_CARDS[i] for i in ids) + (JOKER,) * j for ids, j in self.best.threes]
        melds = tuple(check_meld(m, self.rules) for m in laid)
        left = Counter(self.hand)
        for meld in melds:
            left -= Counter(meld.cards)
        return Solution(True, melds, tuple(sorted(left.elements(), key=_hand_order)))

    def _beats(self, removed: int) -> bool:
        """A lay-down removing `removed` points is better than the best so far."""
        return self.best.removed is None or removed > self.best.removed

    def _may_beat(self, bound: int) -> bool:
        """A branch that removes at most `bound` points could still beat the best."""
        return self.best.removed is None or bound > self.best.removed

    def _runs_of(self, suit: int) -> list[Option]:
        """Every run of this suit the hand could make, one per (jokers, naturals) multiset."""
        longest = longest_run(self.rules)
        found: dict[tuple[int, tuple[int, ...]], int] = {}
        left = list(self.counts)
        for start in range(1, 12):
            for end in range(start + 3, min(14, start + longest - 1) + 1):
                self._fill(suit, start, end, left, [], 0, False, found)
        options = [(value + _JOKER_POINTS * j, j, ids) for (j, ids), value in found.items()]
        return sorted(options, key=lambda option: -option[0])

    def _fill(
        self,
        suit: int,
        p: int,
        end: int,
        left: list[int],
        ids: list[int],
        jokers: int,
        last_joker: bool,
        found: dict[tuple[int, tuple[int, ...]], int],
    ) -> None:
        if p > end:
            if ids:  # at least one natural; no two jokers touch by construction
                found[(jokers, tuple(sorted(ids)))] = sum(_PENALTY[i] for i in ids)
            return
        card = _id_at(p, suit)
        if left[card] > 0:
            left[card] -= 1
            ids.append(card)
            self._fill(suit, p + 1, end, left, ids, jokers, False, found)
            ids.pop()
            left[card] += 1
        if not last_joker and jokers < self.jokers and (left[card] == 0 or self.swappable[card]):
            self._fill(suit, p + 1, end, left, ids, jokers + 1, True, found)

    def _fours(
        self,
        todo: list[list[Option]],
        counts: list[int],
        jokers: int,
        removed: int,
        chosen: tuple[Option, ...],
    ) -> None:
        if self.best.removed == self.total:
            return  # nothing left in hand: no lay-down can do better
        if not todo:
            self._threes(counts, jokers, removed, chosen)
            return
        # An upper bound on what the rest can still remove: the best run of each later suit and
        # the threes as if every natural left could join them. Options come sorted by value, so
        # the first option that cannot beat the best found ends the loop.
        later = sum(options[0][0] for options in todo[1:])
        cap = self._threes_bound(counts, jokers)
        if cap < 0:
            return  # too few pairs and triples left for the threes, and runs only take cards
        for option in todo[0]:
            value, used, ids = option
            if not self._may_beat(removed + value + later + cap):
                break
            if used > jokers:
                continue
            rest = list(counts)
            for i in ids:
                rest[i] -= 1
            if min(rest[i] for i in ids) < 0:
                continue
            self._fours(todo[1:], rest, jokers - used, removed + value, (*chosen, option))

    def _rank_groups(self, counts: list[int]) -> list[tuple[int, int, int]]:
        """Per rank with 2+ usable naturals: (points, cards, rank); one a suit if suits differ."""
        distinct = self.rules.three_distinct_suits
        groups = []
        for rank in range(13):
            base = rank * 4
            cards = points = 0
            for i in range(base, base + 4):
                n = counts[i]
                if n:
                    n = 1 if distinct else n
                    cards += n
                    points += _PENALTY[i] * n
            if cards >= 2:
                groups.append((points, cards, rank))
        return groups

    def _rank_ids(self, counts: list[int], rank: int) -> tuple[int, ...]:
        distinct = self.rules.three_distinct_suits
        ids: list[int] = []
        for i in range(rank * 4, rank * 4 + 4):
            ids += [i] * (min(counts[i], 1) if distinct else counts[i])
        return tuple(ids)

    def _threes_bound(self, counts: list[int], jokers: int) -> int:
        """No less than the threes can remove from these cards (fewer cards never remove more),
        or -1 when they cannot be made at all."""
        n = self.contract.threes
        if n == 0:
            return 0
        groups = self._rank_groups(counts)
        triples = sum(1 for _, cards, _ in groups if cards >= 3)
        if triples + min(len(groups) - triples, jokers) < n:
            return -1  # the threes cannot be made from these cards
        values = sorted((points for points, _, _ in groups), reverse=True)
        return sum(values[:n]) + _JOKER_POINTS * jokers

    def _threes(
        self, counts: list[int], jokers: int, removed: int, fours: tuple[Option, ...]
    ) -> None:
        """Pick the threes: a rank with 3+ naturals stands alone, a pair takes a joker.

        Exact: for each number k of pairs, the best k pairs and best (threes - k) triples win,
        since threes of different ranks share no cards; spare jokers join the first three.
        """
        n = self.contract.threes
        if n == 0:
            if self._beats(removed):
                self.best = _Best(removed, fours, ())
            return
        triples: list[tuple[int, int]] = []
        pairs: list[tuple[int, int]] = []
        for points, cards, rank in self._rank_groups(counts):
            (triples if cards >= 3 else pairs).append((points, rank))
        if len(triples) + min(len(pairs), jokers) < n:
            return
        triples.sort(key=lambda o: -o[0])
        pairs.sort(key=lambda o: -o[0])
        for k in range(min(n, jokers, len(pairs)) + 1):
            if n - k > len(triples):
                continue
            chosen = pairs[:k] + triples[: n - k]
            total = removed + sum(v for v, _ in chosen) + _JOKER_POINTS * jokers
            if self._beats(total):
                threes = [
                    (self._rank_ids(counts, rank), 1 if i < k else 0)
                    for i, (_, rank) in enumerate(chosen)
                ]
                threes[0] = (threes[0][0], threes[0][1] + jokers - k)  # spare jokers
                self.best = _Best(total, fours, tuple(threes))


def _hand_order(card: Card) -> tuple[int, int]:
    return (_suit_order(card), card.rank)
