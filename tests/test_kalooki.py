"""Kalooki referee tools (RULES.md section 5): cards, melds, contracts, scores, the solver."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import Runner
from referee.errors import NotationError, UsageError
from referee.games.kalooki import melds as k
from referee.games.kalooki.cards import JOKER, Card, Suit, parse_cards, show

# ------------------------------------------------------------------ cards


@pytest.mark.parametrize(
    ("text", "shown"),
    [("10h", "10H"), ("Th", "10H"), ("qs", "QS"), ("A♣", "AC"), ("k♦", "KD"), ("*", "JK"),
     ("joker", "JK"), ("Jk", "JK"), ("2♥", "2H")],
)  # fmt: skip
def test_card_notation(text: str, shown: str) -> None:
    assert str(Card.parse(text)) == shown


@pytest.mark.parametrize("text", ["11H", "1H", "ZZ", "", "10", "H", "AX", "１０H", "1_0H", "10HH"])
def test_bad_cards(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


ALL_CARDS = [JOKER] + [Card(r, s) for r in range(1, 14) for s in Suit]


@given(st.sampled_from(ALL_CARDS))
def test_card_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card


@given(st.text(max_size=12))
def test_card_parser_returns_a_card_or_notation_error(text: str) -> None:
    with contextlib.suppress(NotationError):
        assert isinstance(Card.parse(text), Card)


def test_card_lists_take_spaces_and_commas() -> None:
    assert show(parse_cards("5h,5d  JK", "7s")) == "5H 5D JK 7S"


# ------------------------------------------------------------------ scores

SCORES = [
    ("JK", 50), ("AS", 15), ("AC", 15), ("AH", 1), ("AD", 1), ("KS", 10), ("QH", 10),
    ("JD", 10), ("10C", 10), ("9S", 9), ("2H", 2),
]  # fmt: skip


@pytest.mark.parametrize(("card", "points"), SCORES, ids=[c for c, _ in SCORES])
def test_penalties(card: str, points: int) -> None:
    assert k.penalty(Card.parse(card)) == points


def test_ace_points_never_leak_into_run_order() -> None:
    assert str(k.check_meld(parse_cards("AS 2S 3S 4S"))) == "four: AS 2S 3S 4S (AS..4S)"
    assert str(k.check_meld(parse_cards("JC QC KC AC"))) == "four: JC QC KC AC (JC..AC)"


# ------------------------------------------------------------------ melds

MELDS = [
    # threes
    ("5H 5D 5S", "three: 5S 5H 5D"),
    ("5H 5H 5D", "three: 5H 5H 5D"),  # identical cards from two decks
    ("3S 3D JK JK", "three: 3S 3D JK JK"),
    ("3S JK JK", "illegal: a three needs 2 natural cards"),
    ("7C 7C 7D 7H 7S JK", "three: 7S 7H 7D 7C 7C JK"),
    ("5H 5D", "illegal: a meld needs at least 3 cards"),
    ("JK JK JK", "illegal: a meld needs natural cards, not only jokers"),
    # fours
    ("AD 2D 3D 4D", "four: AD 2D 3D 4D (AD..4D)"),
    ("JD QD KD AD", "four: JD QD KD AD (JD..AD)"),
    ("KD AD 2D 3D", "illegal: the ace cannot sit inside a run: K-A-2 does not wrap"),
    ("QD KD AD 2D", "illegal: the ace cannot sit inside a run: K-A-2 does not wrap"),
    ("JK JK 6D 7D", "four: JK 6D 7D JK (5D..8D)"),
    ("6D JK 7D JK", "four: JK 6D 7D JK (5D..8D)"),
    ("5D 6D 7D JK", "four: 5D 6D 7D JK (5D..8D)"),
    ("JK 2D 3D 4D", "four: JK 2D 3D 4D (AD..4D)"),  # typed as a run: the joker is the ace
    ("2D 3D JK 4D", "four: 2D 3D 4D JK (2D..5D)"),  # not a run as typed: the high end
    ("QD KD AD JK", "four: JK QD KD AD (JD..AD)"),
    ("AD JK 3D JK", "four: AD JK 3D JK (AD..4D)"),
    ("5D JK JK 8D", "illegal: two jokers side by side"),
    ("5D 6D JK JK JK", "illegal: two jokers side by side"),
    ("5D 9D JK JK", "illegal: a gap too wide for the jokers"),
    ("7D 7D 8D 9D", "illegal: a run cannot hold the same card twice"),
    ("5H 6D 7D 8D", "illegal: mixed ranks and suits: a three is one rank, a four one suit"),
    ("5D 6D 7D", "illegal: a four needs at least 4 cards"),
    ("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
     "four: AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD (AD..KD)"),
    ("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JK",
     "four: 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JK (2D..AD)"),
    ("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD JK", "illegal: a run is at most 13 cards"),
]  # fmt: skip


@pytest.mark.parametrize(("cards", "verdict"), MELDS, ids=[c for c, _ in MELDS])
def test_melds(cards: str, verdict: str) -> None:
    assert str(k.check_meld(parse_cards(cards))) == verdict


@given(st.permutations(parse_cards("JK 4C 5C JK 7C 8C")))
def test_a_meld_is_an_unordered_multiset(cards: list[Card]) -> None:
    """Legal in any order; the jokers stand where they were typed only when the cards as typed
    are a run (up or down), else the spare joker goes to the high end."""
    typed = " ".join(map(str, cards))
    if typed in ("JK 4C 5C JK 7C 8C", "8C 7C JK 5C 4C JK"):
        assert str(k.check_meld(cards)) == "four: JK 4C 5C JK 7C 8C (3C..8C)"
    else:
        assert str(k.check_meld(cards)) == "four: 4C 5C JK 7C 8C JK (4C..9C)"


def test_three_distinct_suits_key() -> None:
    strict = k.Rules(three_distinct_suits=True)
    assert k.check_meld(parse_cards("5H 5H 5D")).legal
    assert k.check_meld(parse_cards("5H 5H 5D"), strict).reason.startswith("a three's suits")
    assert k.check_meld(parse_cards("5H 5S 5D"), strict).legal


def test_ace_both_ends_key() -> None:
    full = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"
    assert not k.check_meld(parse_cards(full)).legal
    both = k.check_meld(parse_cards(full), k.Rules(ace_both_ends=True))
    assert str(both).endswith("(AD..AD)")
    assert not k.check_meld(parse_cards("KD AD 2D 3D"), k.Rules(ace_both_ends=True)).legal


# ------------------------------------------------------------------ contracts

GOOD = {
    1: "5H 5D JK / 7S 7C 7H / 9S 9S 9D",
    2: "5H 5D JK / 7S 7C 7H / 9S 10S JS QS",
    3: "5H 5D JK / 7S 8S 9S 10S / AH 2H 3H JK",
    4: "5D 6D 7D 8D / 7S 8S 9S 10S / AH 2H 3H JK",
    5: "2S 2H 2D / 3S 3H JK / 4C 4C 4D / KS KH KD",
    6: "2S 2H 2D / 3S 3H JK / 4C 4C 4D / 7S 8S 9S 10S",
    7: "2S 2H 2D / 3S 3H JK / 7S 8S 9S 10S / 5D 6D 7D 8D",
    8: "2S 2H 2D / 7S 8S 9S 10S / 5D 6D 7D 8D / JK 10C JC QC",
    9: "7S 8S 9S 10S / 5D 6D 7D 8D / JK 10C JC QC / AH 2H JK 4H 5H",
}


@pytest.mark.parametrize("number", range(1, 10))
def test_every_round_accepts_its_contract(number: int) -> None:
    result = k.check_contract(number, k.parse_lay_down([GOOD[number]]))
    assert (result.legal, result.reason) == (True, "")


@pytest.mark.parametrize("number", range(1, 10))
def test_every_round_refuses_another_rounds_shape(number: int) -> None:
    other = GOOD[number % 9 + 1]
    result = k.check_contract(number, k.parse_lay_down([other]))
    assert not result.legal and f"round {number} needs" in result.reason


CONTRACTS_REFUSED = [
    (1, "5H 5D JK / 5S 5C 5H / 9S 9S 9D", "two threes of the same rank"),
    (3, "5H 5D JK / 7S 8S 9S 10S / AS 2S 3S JK", "two fours in the same suit"),
    (1, "7H 7H 7H / 8S 8S 8D / 9S 9S 9D", "3 x 7H: the pack holds only 2"),
    (5, "2S 2H JK / 3S 3H JK / 4C 4D JK / KS KH JK / 5H 5D JK", "round 5 needs"),
    (1, "5H 5D JK JK JK / 7S 7C JK / 9S 9S JK", "5 x JK: the pack holds only 4"),
    (2, "5H 5D JK / 7S 7C 7H / 9S JK JK QS", "meld 3 (9S JK JK QS): two jokers"),
]  # fmt: skip


@pytest.mark.parametrize(("number", "melds", "reason"), CONTRACTS_REFUSED)
def test_contracts_refused(number: int, melds: str, reason: str) -> None:
    result = k.check_contract(number, k.parse_lay_down([melds]))
    assert not result.legal and reason in result.reason


def test_decks_key_counts_copies() -> None:
    three_decks = k.Rules(decks=3)
    assert k.check_contract(
        1, k.parse_lay_down(["7H 7H 7H / 8S 8S 8D / 9S 9S 9D"]), three_decks
    ).legal


# ------------------------------------------------------------------ the solver


def brute_force(hand: tuple[Card, ...], threes: int, fours: int, rules: k.Rules) -> int | None:
    """The least penalty left, by trying every set of disjoint legal melds (small hands only)."""
    melds: list[tuple[Counter[Card], k.Meld]] = []
    seen: set[tuple[str, ...]] = set()
    for size in range(3, len(hand) + 1):
        for combo in combinations(hand, size):
            key = tuple(sorted(str(c) for c in combo))
            if key in seen:
                continue
            seen.add(key)
            meld = k.check_meld(combo, rules)
            if meld.legal:
                melds.append((Counter(combo), meld))
    best: int | None = None
    total = Counter(hand)

    def search(start: int, left: Counter[Card], chosen: list[k.Meld]) -> None:
        nonlocal best
        kinds = Counter(m.kind for m in chosen)
        if kinds[k.Kind.THREE] == threes and kinds[k.Kind.FOUR] == fours:
            ranks = [
                next(c.rank for c in m.cards if not c.is_joker)
                for m in chosen
                if m.kind is k.Kind.THREE
            ]
            suits = [
                next(c.suit for c in m.cards if not c.is_joker)
                for m in chosen
                if m.kind is k.Kind.FOUR
            ]
            if len(set(ranks)) == len(ranks) and len(set(suits)) == len(suits):
                points = sum(k.penalty(c) * n for c, n in left.items())
                best = points if best is None else min(best, points)
            return
        for i in range(start, len(melds)):
            need, meld = melds[i]
            if all(left[c] >= n for c, n in need.items()):
                search(i + 1, left - need, [*chosen, meld])

    search(0, total, [])
    return best


SMALL_CONTRACTS = ["3", "4", "33", "34", "44"]


def random_hand(rng: random.Random, size: int) -> tuple[Card, ...]:
    # A narrow pack (few ranks, two suits, jokers) so that melds actually happen.
    pack = [Card(r, s) for r in (1, 2, 3, 4, 5, 12, 13) for s in (Suit.HEARTS, Suit.SPADES)] * 2
    pack += [JOKER] * 4
    return tuple(rng.sample(pack, size))


def test_solver_matches_brute_force_on_random_small_hands() -> None:
    rng = random.Random(5)
    possible = 0
    for _ in range(2500):
        contract = rng.choice(SMALL_CONTRACTS)
        rules = k.Rules(contracts=(contract,), deal_sizes=(9,))
        hand = random_hand(rng, rng.randint(3, 8))
        expected = brute_force(hand, contract.count("3"), contract.count("4"), rules)
        found = k.solve(1, hand, rules)
        assert found.possible == (expected is not None), (contract, show(hand))
        if found.possible:
            possible += 1
            assert found.left_points == expected, (contract, show(hand))
            laid = [m.cards for m in found.melds]
            assert k.check_contract(1, laid, rules).legal
            assert Counter(c for m in laid for c in m) + Counter(found.left) == Counter(hand)
    assert possible > 300  # the test really exercised legal lay-downs


SOLVED = [
    (9, "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 5D 6C 7C JK JK JK", 0),
    (9, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK JK JK JK", None),
    (7, "2H 2S 3H 3S 4D 4C 5D 5C 6H 6S 7D 7C 8H 8S JK JK JK", None),
    (1, "5H 5D 5S 7C 7D JK 9H 9S 2C 3C", None),
    (1, "5H 5D 5S 7C 7D JK 9H 9S 9C 3C", 3),
    (2, "KS KH KD QS QH JK 5D 6D 7D 8D 2C", 2),
    (7, "2S 2H 2D 3S 3H JK 7S 8S 9S 10S 5D 6D 7D 8D", 0),
]


@pytest.mark.parametrize(("number", "hand", "left"), SOLVED)
def test_solver_on_hand_made_hands(number: int, hand: str, left: int | None) -> None:
    found = k.solve(number, parse_cards(hand))
    assert found.possible == (left is not None)
    if left is not None:
        assert found.left_points == left
        assert k.check_contract(number, [m.cards for m in found.melds]).legal


def test_solver_puts_jokers_where_they_save_most() -> None:
    # Round 9 has no three to take spare jokers: they must go into the runs.
    found = k.solve(9, parse_cards("2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 5D 6C 7C JK JK JK"))
    assert found.left == ()


# ------------------------------------------------------------------ the commands


@pytest.mark.parametrize(
    ("args", "code", "out"),
    [
        (["check", "5H", "5D", "JK"], 0, "three: 5H 5D JK\n"),
        (["check", "JK,JK,6D,7D"], 0, "four: JK 6D 7D JK (5D..8D)\n"),
        (["check", "KD", "AD", "2D", "3D"], 1,
         "illegal: the ace cannot sit inside a\n  run: K-A-2 does not wrap\n"),
        (["score", "JK", "AS", "AH", "10C"], 0, "76 points: JK 50 + AS 15 + AH 1 + 10C 10\n"),
        (["solve", "1", "5H", "5D", "5S", "7C", "7D", "JK", "9H", "9S", "9C", "3C"], 0,
         "round 1 (333): yes\n  7D 7C JK\n  9S 9H 9C\n  5S 5H 5D\nleft: 3C (3 points)\n"),
        (["contract", "1", "5H", "5D", "JK", "/", "5S", "5C", "5H", "/", "9S", "9S", "9D"], 1,
         "round 1 (333): no: two threes of the\n  same rank: each three needs its own\n  rank\n"),
    ],
)  # fmt: skip
def test_commands(referee: Runner, args: list[str], code: int, out: str) -> None:
    result = referee("kalooki", *args)
    assert (result.code, result.out, result.err) == (code, out, "")


def test_json_documents(referee: Runner) -> None:
    meld = json.loads(referee("kalooki", "check", "JK", "JK", "6D", "7D", "--json").out)
    assert meld == {"legal": True, "kind": "four", "reading": ["JK", "6D", "7D", "JK"],
                    "stands_for": ["5D", "6D", "7D", "8D"], "reason": None}  # fmt: skip
    bad = json.loads(referee("kalooki", "check", "3S", "JK", "JK", "--json").out)
    assert (bad["legal"], bad["kind"], bad["reason"]) == (
        False,
        None,
        "a three needs 2 natural cards",
    )
    score = json.loads(referee("kalooki", "score", "JK", "AH", "--json").out)
    assert score == {
        "points": 51,
        "cards": [{"card": "JK", "points": 50}, {"card": "AH", "points": 1}],
    }
    solved = json.loads(referee("kal", "solve", "1", "5H 5D 5S 7C 7D JK 9H 9S 9C 3C", "--json").out)
    assert solved["possible"] and solved["left"] == ["3C"] and solved["left_points"] == 3
    laid = json.loads(referee("kalooki", "contract", "2", GOOD[2], "--json").out)
    assert laid["legal"] and [m["kind"] for m in laid["melds"]] == ["three", "three", "four"]


@pytest.mark.parametrize(
    "args",
    [["check", "11H"], ["check", "1H"], ["check", "ZZ"], ["check"], ["score", "5X"],
     ["contract", "10", "5H", "5D", "JK"], ["contract", "1", "/"],
     ["contract", "1", "5H 5D JK", "/"],
     ["solve", "0", "5H"], ["solve", "x", "5H"], ["check", "5H", "--ruleset", "kariki"]],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(referee: Runner, args: list[str]) -> None:
    result = referee("kalooki", *args)
    assert result.code == 2, result
    assert result.out == "" and result.err.count("\n") == 1 and result.err.startswith("error: ")


def test_contract_sheet_fits_a_phone(referee: Runner) -> None:
    result = referee("kalooki", "contracts")
    lines = result.out.splitlines()
    assert len(lines) == 10 and max(map(len, lines)) <= 40
    assert lines[2] == "  2 2 threes + 1 four    334      10"
    assert lines[9] == "  9 4 fours              4444     16"


def test_bad_ruleset_round_is_refused() -> None:
    with pytest.raises(UsageError):
        k.Rules().contract(0)


# Moved from the shared notation fuzzer: this game's own notation prints and parses back.
CARDS = st.one_of(
    st.just(Card(0, None)),
    st.builds(Card, st.integers(1, 13), st.sampled_from(list(Suit))),
)


@given(st.lists(CARDS, min_size=1, max_size=17))
def test_cards_print_and_parse_back(cards: list[Card]) -> None:
    assert parse_cards(show(cards)) == tuple(cards)


@given(st.lists(st.lists(CARDS, min_size=1, max_size=6), min_size=1, max_size=4))
def test_meld_lists_print_and_parse_back(melds: list[list[Card]]) -> None:
    text = " / ".join(show(m) for m in melds)
    assert k.parse_lay_down([text]) == [tuple(m) for m in melds]


# ------------------------------------------------------------------ where a joker stands
# (RULES.md 5: as typed when the cards as typed are a run, up or down; else from the high end)

TYPED = [
    pytest.param("JK 6D 7D 8D", "four: JK 6D 7D 8D (5D..8D)", id="joker-typed-low"),
    pytest.param("6D 7D 8D JK", "four: 6D 7D 8D JK (6D..9D)", id="joker-typed-high"),
    pytest.param("8D 7D 6D JK", "four: JK 6D 7D 8D (5D..8D)", id="descending-joker-last"),
    pytest.param("JK 8D 7D 6D", "four: 6D 7D 8D JK (6D..9D)", id="descending-joker-first"),
    pytest.param("JK 6D 7D JK", "four: JK 6D 7D JK (5D..8D)", id="jokers-at-both-ends"),
    pytest.param("JK 7D 6D JK", "four: JK 6D 7D JK (5D..8D)", id="jokers-at-both-ends-down"),
    pytest.param("JK 6D 7D 8D JK", "four: JK 6D 7D 8D JK (5D..9D)", id="both-ends-five"),
    pytest.param("JK JK 6D 7D", "four: JK 6D 7D JK (5D..8D)", id="jokers-typed-together"),
    pytest.param("6D JK 8D 9D", "four: 6D JK 8D 9D (6D..9D)", id="joker-in-the-gap"),
    pytest.param("6D JK 7D 8D", "four: 6D 7D 8D JK (6D..9D)", id="joker-typed-in-the-middle"),
    pytest.param("6D JK 8D", "illegal: a four needs at least 4 cards", id="three-cards-middle"),
    pytest.param("JK 2D 3D 4D", "four: JK 2D 3D 4D (AD..4D)", id="joker-as-low-ace"),
    pytest.param("4D 3D 2D JK", "four: JK 2D 3D 4D (AD..4D)", id="joker-as-low-ace-down"),
    pytest.param("JK QD KD AD", "four: JK QD KD AD (JD..AD)", id="below-the-high-ace"),
    pytest.param("QD KD AD JK", "four: JK QD KD AD (JD..AD)", id="no-room-above-the-ace"),
    pytest.param("JK KD QD JD", "four: JD QD KD JK (JD..AD)", id="joker-as-high-ace-down"),
    pytest.param("AD 2D 3D JK", "four: AD 2D 3D JK (AD..4D)", id="ace-low-typed-up"),
    pytest.param("AD JK 3D JK", "four: AD JK 3D JK (AD..4D)", id="ace-and-two-jokers"),
    pytest.param("JK 5D JK 7D", "four: JK 5D JK 7D (4D..7D)", id="alternating-typed-low"),
    pytest.param("5D JK 7D JK", "four: 5D JK 7D JK (5D..8D)", id="alternating-typed-high"),
    pytest.param("JK 9S 9C", "three: 9S 9C JK", id="a-three-has-no-place"),
    pytest.param("5D 7D 6D 8D", "four: 5D 6D 7D 8D (5D..8D)", id="no-joker-any-order"),
]  # fmt: skip


@pytest.mark.parametrize(("cards", "verdict"), TYPED)
def test_a_joker_stands_where_it_was_typed(cards: str, verdict: str) -> None:
    assert str(k.check_meld(parse_cards(cards))) == verdict


@given(st.permutations(parse_cards("JK 4C 5C 6C JK 8C 9C")))
def test_a_reading_typed_again_reads_the_same(cards: list[Card]) -> None:
    """What check, solve and a lay-down print can be typed back to the same meld."""
    meld = k.check_meld(cards)
    again = k.check_meld(meld.reading)
    assert (again.reading, again.stands_for) == (meld.reading, meld.stands_for)


def test_the_solver_prints_melds_that_read_as_printed() -> None:
    found = k.solve(9, parse_cards("JK JK 6D 7D 8D 2S 3S 4S JK 10H JH QH AC 2C 3C 4C"))
    assert found.possible
    for meld in found.melds:
        assert k.check_meld(meld.reading).reading == meld.reading


@pytest.mark.parametrize("number", range(1, 10))
def test_the_solver_s_no_fits_a_phone(referee: Runner, number: int) -> None:
    """A hand no contract can be made of: the verdict is one line of at most 40 columns."""
    result = referee("kalooki", "solve", str(number), "2H", "3D", "9S", "KC", "5C", "7D")
    assert result.code == 1 and result.out.endswith(": no, it cannot make it\n")
    assert max(len(line) for line in result.out.splitlines()) <= 40


def test_a_fact_without_fields_is_a_kind_in_json() -> None:
    """`log --json` writes the reshuffle (a fact with nothing more to say) as its kind, not []."""
    from referee.games.base import to_json
    from referee.games.kalooki import engine as kg

    assert to_json(kg.Reshuffled()) == {"kind": "reshuffled"}
    assert to_json((kg.Reshuffled(), 3)) == [{"kind": "reshuffled"}, 3]
