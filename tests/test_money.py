"""Stakes and the pot (`referee.games.money`): amounts in whole cents, the purse, and who takes
what from a finished game (RULES 7), as tables of cases and as properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import RulesetError, UsageError
from referee.games.money import Payout, Purse, Stakes, Standing, Transfer, cents, result, show
from referee.ruleset import TableReader


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("3.50", 350), ("3.5", 350), (3, 300), (3.5, 350), (0.1, 10), ("0", 0), (" 2 ", 200),
        ("0.01", 1), ("100000", 100_000_00), (1.15, 115), ("1.10", 110),
    ],
)  # fmt: skip
def test_an_amount_is_whole_cents(typed: object, expected: int) -> None:
    assert cents(typed) == expected


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("1.505", "at most two decimals"), ("-1", "0 to 100000"), ("x", "an amount like"),
        ("nan", "0 to 100000"), ("inf", "0 to 100000"), ("1e9", "0 to 100000"),
        (True, "an amount like"), (None, "an amount like"), ("100000.01", "0 to 100000"),
        ("", "an amount like"), ("1,50", "an amount like"), ([1], "an amount like"),
    ],
)  # fmt: skip
def test_a_bad_amount_is_refused_in_one_line(typed: object, said: str) -> None:
    with pytest.raises(UsageError, match=said):
        cents(typed, "stake")


@pytest.mark.parametrize(
    ("amount", "said"), [(350, "3.50"), (400, "4"), (5, "0.05"), (0, "0"), (-250, "-2.50")]
)
def test_an_amount_is_said_as_a_table_says_it(amount: int, said: str) -> None:
    assert show(amount) == said


def read(table: dict[str, object], **kwargs: object) -> Stakes:
    r = TableReader(table, "test")
    stakes = Stakes.read(r, **kwargs)  # type: ignore[arg-type]
    r.finish()
    return stakes


def test_the_stake_keys_are_read_with_their_defaults() -> None:
    assert read({}) == Stakes()
    assert not Stakes().has_money
    found = read({"stake": "1.50", "loss_value": 0.25, "payout": "places",
                  "payout_split": [70, 30], "loser_buys": True})  # fmt: skip
    assert found == Stakes(150, 25, Payout.PLACES, (70, 30), 0, True)
    assert read({"buy_in": 2}, stake_key="buy_in").stake == 200


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"payout": "per_point"}, "Kalooki's only"),
        ({"payout": "places", "payout_split": [70, 20]}, "add up to 100, not 90"),
        ({"payout": "places", "payout_split": []}, "add up to 100"),
        ({"payout": "everyone"}, "payout must be one of winner | places | per_point"),
        ({"stake": "1.505"}, "at most two decimals"),
        ({"stake": -1}, "stake is 0 to"),
        ({"loser_buys": "yes"}, "loser_buys must be true or false"),
        ({"payout_split": [101]}, "payout_split must be a list"),
    ],
)
def test_bad_stakes_are_every_problem_of_the_ruleset(table: dict[str, object], said: str) -> None:
    with pytest.raises(RulesetError, match=said):
        read(table)


def test_per_point_has_no_pot() -> None:
    with pytest.raises(RulesetError, match="per_point has no pot: stake and loss_value"):
        read({"payout": "per_point", "stake": 1, "point_value": "0.10"}, per_point=True)
    assert read({"payout": "per_point", "point_value": "0.10"}, per_point=True).point_value == 10


# ---------------------------------------------------------------------------- the purse


def test_a_purse_keeps_what_each_put_in_and_a_seat_taken_over() -> None:
    stakes = Stakes(stake=100, loss_value=50)
    purse = Purse.start(stakes, ["Ann", "Bob", "Cy"]).lose("Bob", 2).join("Dee")
    assert purse.pot == 500 and purse.put_in("Bob") == 200
    purse = purse.take_over("Bob", "Eve").lose("Eve")
    assert purse.moved == (Transfer("Eve", "Bob", 200),)
    assert purse.seat_paid("Eve") == 250 and purse.pot == 550
    assert Purse.start(Stakes(), ["Ann"]).pot == 0 and Purse().take_over("A", "B").moved == ()


WINNER = Stakes(stake=200)
PLACES = Stakes(stake=100, payout=Payout.PLACES, split=(70, 30))


@pytest.mark.parametrize(
    ("stakes", "standings", "places", "takes"),
    [
        (WINNER, ("Ann", "Bob", "Cy"), (1, 2, 3), {"Ann": 600}),
        (WINNER, ("Ann", "Bob", "Cy"), (1, 1, 3), {"Ann": 300, "Bob": 300}),  # a shared win
        (PLACES, ("Ann", "Bob", "Cy"), (1, 2, 3), {"Ann": 210, "Bob": 90}),
        # 70 + 30 of 3.00 shared by the two first: 1.50 each
        (PLACES, ("Ann", "Bob", "Cy"), (1, 1, 3), {"Ann": 150, "Bob": 150}),
        # the second place shared: its 0.90 split evenly
        (PLACES, ("Ann", "Bob", "Cy"), (1, 2, 2), {"Ann": 210, "Bob": 45, "Cy": 45}),
        # the last cent: 7 players at 0.01, 70/30 of 0.07 is 4.9 and 2.1 -> 5 and 2
        (Stakes(1, payout=Payout.PLACES, split=(70, 30)), tuple("ABCDEFG"), (1, 2, 3, 4, 5, 6, 7),
         {"A": 5, "B": 2}),
        # an odd cent of a shared place goes to the earlier in the standings
        (Stakes(1, payout=Payout.PLACES, split=(100,)), ("A", "B", "C"), (1, 1, 1),
         {"A": 1, "B": 1, "C": 1}),
        (Stakes(1, payout=Payout.PLACES, split=(100,)), ("A", "B"), (1, 1), {"A": 1, "B": 1}),
        (Stakes(1, payout=Payout.WINNER), ("A", "B", "C"), (1, 1, 3), {"A": 2, "B": 1}),
    ],
)  # fmt: skip
def test_the_pot_is_shared_out_whole(
    stakes: Stakes, standings: tuple[str, ...], places: tuple[int, ...], takes: dict[str, int]
) -> None:
    purse = Purse.start(stakes, standings)
    found = result(purse, Standing(standings, places, {}))
    assert dict(found.takes) == takes
    assert sum(found.takes.values()) == purse.pot
    assert sum(found.nets.values()) == 0


def test_per_point_each_pays_the_winners_the_difference() -> None:
    stakes = Stakes(point_value=10, payout=Payout.PER_POINT)
    scores = {"Ann": 5, "Bob": 25, "Cy": 40}
    found = result(Purse(stakes), Standing(("Ann", "Bob", "Cy"), (1, 2, 3), scores))
    assert found.transfers == (Transfer("Bob", "Ann", 200), Transfer("Cy", "Ann", 350))
    assert dict(found.nets) == {"Bob": -200, "Ann": 550, "Cy": -350}
    # two winners share what each loser owes, the odd cent to the first
    scores = {"Ann": 5, "Bob": 5, "Cy": 8}
    standing = Standing(("Ann", "Bob", "Cy"), (1, 1, 3), scores)
    tied = result(Purse(Stakes(point_value=1, payout=Payout.PER_POINT)), standing)
    assert tied.transfers == (Transfer("Cy", "Ann", 2), Transfer("Cy", "Bob", 1))


def test_per_point_one_ranked_lower_never_pays_less() -> None:
    """Fay left with 327, below everyone who played on (the highest 372): she pays as 372."""
    stakes = Stakes(point_value=5, payout=Payout.PER_POINT)
    scores = {"Eve": 343, "Cy": 346, "Ann": 369, "Bob": 372, "Fay": 327}
    standing = Standing(("Eve", "Cy", "Ann", "Bob", "Fay"), (1, 2, 3, 4, 5), scores)
    paid = {t.payer: t.cents for t in result(Purse(stakes), standing).transfers}
    assert paid == {"Cy": 15, "Ann": 130, "Bob": 145, "Fay": 145}


def test_the_last_place_owes_a_round_when_the_loser_buys() -> None:
    stakes = Stakes(loser_buys=True)
    assert result(Purse(stakes), Standing(("A", "B", "C"), (1, 2, 3), {})).rounds == ("C",)
    assert result(Purse(stakes), Standing(("A", "B", "C"), (1, 2, 2), {})).rounds == ("B", "C")
    assert result(Purse(Stakes()), Standing(("A", "B"), (1, 2), {})).rounds == ()


def test_a_seat_taken_over_pays_its_holder_back() -> None:
    purse = Purse.start(Stakes(stake=200, loss_value=50), ["Ann", "Bob"]).lose("Bob")
    purse = purse.take_over("Bob", "Eve").lose("Eve")
    found = result(purse, Standing(("Ann", "Eve"), (1, 2), {}))
    assert dict(found.nets) == {"Ann": 300, "Bob": 0, "Eve": -300}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=2, max_size=12),
    st.integers(0, 500),
    st.integers(0, 300),
    st.sampled_from([(100,), (70, 30), (50, 30, 20), (34, 33, 33), (1, 99)]),
    st.data(),
)
def test_every_pot_is_shared_to_the_last_cent(
    losses: list[int], stake: int, loss_value: int, split: tuple[int, ...], data: st.DataObject
) -> None:
    names = [f"P{k}" for k in range(len(losses))]
    stakes = Stakes(stake, loss_value, Payout.PLACES, split)
    purse = Purse.start(stakes, names)
    for name, lost in zip(names, losses, strict=True):
        purse = purse.lose(name, lost)
    if data.draw(st.booleans()):
        purse = purse.take_over(names[0], "New")
        names[0] = "New"
    order = data.draw(st.permutations(names))
    places = sorted(data.draw(st.lists(st.integers(1, len(names)), min_size=len(names),
                                       max_size=len(names))))  # fmt: skip
    places[0] = 1
    found = result(purse, Standing(tuple(order), tuple(places), {}))
    assert sum(found.takes.values()) == purse.pot
    assert sum(found.nets.values()) == 0
    assert all(v >= 0 for v in found.takes.values())


@pytest.mark.parametrize(
    ("names", "extra"),
    [
        (["Ann", "Bob", "Cy", "Dee", "Eve"], 1000),  # the bundled Kariki night's: 40 + a comma
        ([f"P{k}" for k in range(9)], 1000),
        ([f"Player{k}" for k in range(20)], 5),
    ],
)
def test_the_money_line_breaks_after_a_comma_within_40_cells(names: list[str], extra: int) -> None:
    """`pot 20 · paid Ann 2, Bob 12, Cy 2, Dee 2,` was 41 cells: the terminal broke it again."""
    from referee.render.common import money_lines
    from referee.session import Money

    purse = Purse.start(Stakes(stake=200), names).pay(names[1], extra)
    lines = [t.plain for t in money_lines(Money(purse, None), names, 40)]
    assert all(len(line) <= 40 for line in lines), lines
    assert all(line.endswith(",") for line in lines[:-1])
    if len(names) < 6:
        assert len(lines) > 1  # each by name, broken after a comma
    else:  # a big table where most paid alike: the usual amount, then the others
        extra_paid = "12" if extra == 1000 else "2.05"
        assert " ".join(" ".join(lines).split()).endswith(
            f"each paid 2, but {names[1]} {extra_paid}"
        )
        assert len(lines) <= 2
