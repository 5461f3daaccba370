"""The two-dice ladder shared by Kariki and Kiriki (RULES.md section 1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import NotationError
from referee.notation.dice import (
    ALL_ROLLS,
    KARIKI,
    KIRIKI,
    Ladder,
    Rank,
    Roll,
    parse_rank,
    probability,
)

# Every one of the 21 unordered rolls and its rank, written out from RULES.md's table.
LADDER = {
    "1-3": 1, "1-4": 2, "2-3": 2, "1-5": 3, "2-4": 3, "1-6": 4, "2-5": 4, "3-4": 4,
    "2-6": 5, "3-5": 5, "3-6": 6, "4-5": 6, "4-6": 7, "5-6": 8, "1-1": 9, "2-2": 10,
    "3-3": 11, "4-4": 12, "5-5": 13, "6-6": 14, "1-2": 15,
}  # fmt: skip


@pytest.mark.parametrize(("text", "rank"), LADDER.items(), ids=list(LADDER))
def test_every_roll_has_its_rank(text: str, rank: int) -> None:
    assert Roll.parse(text).rank == rank
    low, high = text.split("-")
    assert Roll.parse(f"{high}{low}").rank == rank  # order of the dice never matters


def test_the_table_covers_all_rolls() -> None:
    assert sorted(str(r) for r in ALL_ROLLS) == sorted(LADDER)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        pytest.param("9", Rank.NINE, id="digit"),
        pytest.param("nine", Rank.NINE, id="word"),
        pytest.param(" Nine ", Rank.NINE, id="spaces-case"),
        pytest.param("4-5", Rank.NINE, id="roll-dash"),
        pytest.param("36", Rank.NINE, id="roll-digits"),
        pytest.param("10", Rank.TEN, id="ten-is-a-sum"),
        pytest.param("46", Rank.TEN, id="the-forgotten-ten"),
        pytest.param("11", Rank.ELEVEN, id="eleven"),
        pytest.param("tabique", Rank.ELEVEN, id="tabique"),
        pytest.param("66", Rank.DOUBLE_SIXES, id="66"),
        pytest.param("6-6", Rank.DOUBLE_SIXES, id="6-6"),
        pytest.param("double sixes", Rank.DOUBLE_SIXES, id="double-sixes"),
        pytest.param("boxcars", Rank.DOUBLE_SIXES, id="boxcars"),
        pytest.param("snake eyes", Rank.DOUBLE_ONES, id="snake-eyes"),
        pytest.param("double dueces", Rank.DOUBLE_TWOS, id="seed-spelling"),
        pytest.param("pair of kings", Rank.DOUBLE_FIVES, id="pair-of-kings"),
        pytest.param("Pair-of-Aces", Rank.DOUBLE_SIXES, id="pair-of-aces"),
        pytest.param("kariki", Rank.ONE_TWO, id="kariki"),
        pytest.param("12", Rank.ONE_TWO, id="1-2"),
    ],
)
def test_friendly_spellings(text: str, rank: Rank) -> None:
    assert parse_rank(text) is rank


@pytest.mark.parametrize(
    "text", ["", "3", "7-1", "0-0", "eight-ish", "１０", "1_0", "²", "13 14", "x" * 10_000]
)
def test_bad_ranks_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_rank(text)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        pytest.param("pair of sixes", "did you mean 'double sixes'?", id="pair-of-sixes"),
        pytest.param("pair of 6s", "did you mean 'double sixes'?", id="pair-of-6s"),
        pytest.param("double 6s", "did you mean 'double sixes'?", id="double-6s"),
        pytest.param("sixes", "did you mean 'double sixes'?", id="sixes"),
        pytest.param("pair of 1s", "did you mean 'double ones'?", id="pair-of-1s"),
        pytest.param("double one", "did you mean 'double ones'?", id="double-one"),
        pytest.param("sevens", "try 9, nine, 4-5, 66, boxcars or 1-1", id="no-pair-of-sevens"),
        pytest.param("double sixe", "did you mean 'double sixes'?", id="a-slip-of-a-word"),
    ],
)
def test_a_double_by_its_number_is_hinted_to_that_double(text: str, hint: str) -> None:
    """`pair of sixes` was hinted to 'pair of reds' (2-2), `double 6s` to 'double twos' and
    `sixes` to 'six': near spellings, not the double the number names."""
    with pytest.raises(NotationError) as error:
        parse_rank(text)
    assert str(error.value) == f"unknown rank '{text}': {hint}"


@given(st.text(max_size=40))
def test_rank_parser_returns_a_rank_or_a_notation_error(text: str) -> None:
    try:
        assert isinstance(parse_rank(text), Rank)
    except NotationError as error:
        assert "\n" not in str(error)


@given(st.sampled_from(ALL_ROLLS))
def test_roll_notation_round_trips(roll: Roll) -> None:
    assert Roll.parse(str(roll)) == roll


@given(st.sampled_from(list(Rank)))
def test_canonical_names_parse_back(rank: Rank) -> None:
    assert parse_rank(KARIKI.name(rank)) is rank
    assert parse_rank(KIRIKI.name(rank).split(" / ")[0]) is rank


def test_probabilities_add_up() -> None:
    assert sum(probability(r) for r in Rank) == 1
    assert probability(Rank.ONE_TWO) == Fraction(2, 36)
    assert probability(Rank.DOUBLE_FOURS) == Fraction(1, 36)
    assert probability(Rank.NINE) == Fraction(4, 36)
    assert probability(Rank.TEN) == Fraction(2, 36)


@pytest.mark.parametrize("ladder", [KARIKI, KIRIKI], ids=["kariki", "kiriki"])
def test_every_printed_name_parses_back(ladder: Ladder) -> None:
    for rank in Rank:
        assert parse_rank(ladder.name(rank)) is rank, ladder.name(rank)


# Moved from the shared notation fuzzer: this game's own notation prints and parses back.
@given(st.sampled_from(list(Rank)), st.sampled_from([KARIKI, KIRIKI]))
def test_ranks_print_and_parse_back(rank: Rank, ladder: Any) -> None:
    assert parse_rank(ladder.name(rank)) is rank


@given(st.integers(1, 6), st.integers(1, 6))
def test_rolls_print_and_parse_back(a: int, b: int) -> None:
    roll = Roll.of(a, b)
    assert Roll.parse(str(roll)) == roll
