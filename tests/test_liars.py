"""Liar's dice and Perudo (RULES.md section 4) as tables of short games, plus odds and bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import NotationError, RuleViolation, UsageError
from referee.games import liars as ld
from referee.games.base import PlayerInfo
from referee.notation.bids import Bid, Hands
from referee.render.liars_words import words

SEED = ld.Rules.from_table(storage.load_ruleset("liars-dice"), "liars-dice")
PERUDO = ld.Rules.from_table(storage.load_ruleset("perudo"), "perudo")


def table(players: str = "Ann Bob Cy", rules: ld.Rules = SEED, **changes: Any) -> ld.State:
    """Play goes left (seat order) in these tables unless a case says otherwise."""
    rules = ld.Rules(**{**{f: getattr(rules, f) for f in rules.__slots__}, **changes})
    people = [PlayerInfo(n) for n in players.split()]
    options = ld.options_from_table({"direction": "left"}, people, rules)
    return ld.start(rules, people, options)


def play(script: str, state: ld.State) -> ld.State:
    """`Ann bid 5x3; Bob call 4; Cy call Ann=1,2 Bob=3; Dee exact 2`."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        who, action, *rest = line.split(maxsplit=2)
        arg = rest[0] if rest else ""
        if action == "bid":
            event: ld.Event = ld.BidEvent(who, Bid.parse(arg))
        else:
            count, hands = (int(arg), None) if arg.isdigit() else (None, Hands.parse(arg))
            event = ld.Call(who, count, hands, exact=action == "exact")
        state = ld.apply(state, event)
    return state


def dice(state: ld.State) -> dict[str, int]:
    return {c.name: c.dice for c in state.cups}


# ------------------------------------------------------------------ raises

RAISES = [
    pytest.param(SEED, False, None, "5x3", None, id="opening-free"),
    pytest.param(SEED, False, "4x5", "4x6", None, id="seed-4-fives-to-4-sixes"),
    pytest.param(SEED, False, "3x2", "4x1", None, id="seed-3-twos-to-4-ones"),
    pytest.param(SEED, False, "1x2", "4x5", None, id="seed-jumps-allowed"),
    pytest.param(SEED, False, "5x3", "5x3", "raise the face or the quantity", id="same"),
    pytest.param(SEED, False, "5x3", "5x2", "raise the face or the quantity", id="lower-face"),
    pytest.param(SEED, False, "5x3", "4x6", "raise the face or the quantity", id="fewer"),
    pytest.param(SEED, False, None, "2x1", None, id="seed-opens-on-ones"),
    pytest.param(PERUDO, False, None, "2x1", "opening bid may not be on ones", id="p-open-ones"),
    pytest.param(PERUDO, False, "3x2", "2x1", None, id="p-3x2-to-2x1"),
    pytest.param(PERUDO, False, "3x2", "1x1", "at least 2", id="p-3x2-to-1x1"),
    pytest.param(PERUDO, False, "5x3", "3x1", None, id="p-halve-rounds-up"),
    pytest.param(PERUDO, False, "5x3", "2x1", "at least 3", id="p-halve-not-down"),
    pytest.param(PERUDO, False, "2x1", "5x2", None, id="p-2x1-to-5x2"),
    pytest.param(PERUDO, False, "2x1", "4x6", "at least 5", id="p-leaving-ones"),
    pytest.param(PERUDO, False, "2x1", "3x1", None, id="p-more-ones"),
    pytest.param(PERUDO, True, "2x4", "3x4", None, id="palifico-more-of-the-face"),
    pytest.param(PERUDO, True, "2x4", "3x5", "the face stays 4", id="palifico-face-fixed"),
    pytest.param(PERUDO, True, None, "1x1", None, id="palifico-opens-on-ones"),
    pytest.param(PERUDO, True, "2x4", "1x1", "the face stays 4", id="palifico-no-switch"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "palifico", "standing", "bid", "reason"), RAISES)
def test_raises(
    rules: ld.Rules, palifico: bool, standing: str | None, bid: str, reason: str | None
) -> None:
    before = Bid.parse(standing) if standing else None
    found = ld.is_raise(before, Bid.parse(bid), rules, palifico)
    assert (found is None) if reason is None else (reason in (found or "")), found


def test_a_refused_bid_names_the_smallest_raises() -> None:
    state = play("Ann bid 5x3", table())
    with pytest.raises(RuleViolation, match="smallest raises: 5x4, 5x5, 5x6, 6x1, 6x2, 6x3"):
        play("Bob bid 5x2", state)
    state = play("Ann bid 5x3", table(rules=PERUDO))
    with pytest.raises(RuleViolation, match="smallest raises: 3x1, 5x4, 5x5, 5x6, 6x2, 6x3"):
        play("Bob bid 2x1", state)


def test_a_bid_above_the_dice_in_play_is_refused() -> None:
    with pytest.raises(RuleViolation, match="only 18 are in play"):
        play("Ann bid 19x3", table())
    assert play("Ann bid 18x3", table()).bid == Bid(18, 3)


# ------------------------------------------------------------------ calls

CALLS = [
    pytest.param(SEED, "Ann bid 5x3; Bob call 5", {"Bob": 5}, "Bob", id="count-equal-bid-holds"),
    pytest.param(SEED, "Ann bid 5x3; Bob call 6", {"Bob": 5}, "Bob", id="more-than-the-bid"),
    pytest.param(SEED, "Ann bid 5x3; Bob call 4", {"Ann": 5}, "Bob", id="one-under-bidder-loses"),
    pytest.param(SEED, "Ann bid 3x4; Bob call Ann=1,4,4,2,2,2 Bob=1,3,3,3,3,3 Cy=6,6,6,6,6,6",
                 {"Ann": 5}, "Bob", id="seed-ones-not-wild"),
    pytest.param(PERUDO, "Ann bid 3x4; Bob call Ann=1,4,2,2,2 Bob=1,3,3,3,3 Cy=6,6,6,6,6",
                 {"Bob": 4}, "Bob", id="perudo-wilds-count"),
    pytest.param(PERUDO, "Ann bid 2x4; Bob bid 2x1; Cy call Ann=1,4,4,4,2 Bob=2,4,3,3,3 "
                 "Cy=6,6,6,6,6", {"Bob": 4}, "Bob", id="perudo-bid-on-ones-counts-ones-only"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "script", "lost", "starter"), CALLS)
def test_calls(rules: ld.Rules, script: str, lost: dict[str, int], starter: str) -> None:
    start = table(rules=rules)
    state = play(script, start)
    assert {n: d for n, d in dice(state).items() if d != rules.dice_per_player} == lost
    assert state.name(state.turn) == starter and state.bid is None and state.round == 2


def test_palifico_counts_no_wilds_and_keeps_the_face() -> None:
    state = table(rules=PERUDO, dice_per_player=2)
    state = play("Ann bid 1x3; Bob call 0", state)  # Ann drops to one die: palifico
    assert state.palifico and state.name(state.turn) == "Ann" and "palifico" in words(state.ruling)
    state = play("Ann bid 2x4; Bob bid 3x4; Cy call Ann=1 Bob=4,1 Cy=4,4", state)
    assert dice(state) == {"Ann": 1, "Bob": 2, "Cy": 1}  # 3 fours without the ones: it held
    assert state.palifico  # Cy dropped to one die: his palifico round now
    state = play("Cy bid 1x6; Ann call 0", state)
    assert dice(state)["Cy"] == 0 and not state.palifico
    state = play("Ann bid 1x2; Bob call 0", state)  # Ann loses again: her palifico was played
    assert state.is_over and state.winner == "Bob"


def test_next_starter_when_the_caller_or_the_loser_is_out() -> None:
    state = play("Ann bid 2x6; Bob call 0", table(dice_per_player=1))  # Ann out, Bob (caller) opens
    assert (dice(state)["Ann"], state.name(state.turn)) == (0, "Bob")
    state = play("Ann bid 2x6; Bob call 3", table(dice_per_player=1))  # caller Bob out
    assert (dice(state)["Bob"], state.name(state.turn)) == (0, "Cy")
    loser = table(dice_per_player=1, next_starter=ld.NextStarter.LOSER)
    state = play("Ann bid 2x6; Bob call 0", loser)  # loser Ann is out: the next after her opens
    assert state.name(state.turn) == "Bob"
    winner = table(next_starter=ld.NextStarter.WINNER)
    assert (
        play("Ann bid 2x6; Bob call 0", winner).name(play("Ann bid 2x6; Bob call 0", winner).turn)
        == "Bob"
    )


def test_calza_both_ways_and_its_cap() -> None:
    state = play("Ann bid 5x3; Bob call 6", table(rules=PERUDO))  # Bob loses a die and opens
    assert dice(state)["Bob"] == 4 and state.name(state.turn) == "Bob"
    state = play("Bob bid 2x4; Cy bid 3x4", state)
    full = play("Ann exact 3", state)
    assert dice(full)["Ann"] == 5 and full.name(full.turn) == "Ann"  # never above the start
    state = play("Ann bid 4x4", state)
    right = play("Bob exact 4", state)
    assert dice(right)["Bob"] == 5 and right.name(right.turn) == "Bob"
    assert "Bob regains a die (5)" in words(right.ruling)
    wrong = play("Bob exact 5", state)
    assert dice(wrong)["Bob"] == 3 and wrong.name(wrong.turn) == "Bob"  # the caller opens
    with pytest.raises(RuleViolation, match="Ann made that bid"):
        play("Ann exact 4", state)
    with pytest.raises(RuleViolation, match="no exact call"):
        play("Ann bid 5x3; Bob exact 5", table())


def test_the_last_die_the_winner_and_nothing_after() -> None:
    state = play("Ann bid 1x3; Bob call 0; Bob bid 1x3; Cy call 0", table(dice_per_player=1))
    assert state.is_over and state.winner == "Cy" and ld.outcome(state).winners == ("Cy",)
    assert "Cy wins" in words(state.ruling)
    for line in ("Cy bid 1x3", "Cy call 1"):
        with pytest.raises(RuleViolation, match="the game is over"):
            play(line, state)


REFUSED = [
    pytest.param("Bob call 3", RuleViolation, "no bid to call", id="call-before-a-bid"),
    pytest.param("Ann bid 5x3; Ann call 3", RuleViolation, "Ann made that bid", id="own-bid"),
    pytest.param("Ann bid 5x3; Cy call 3", RuleViolation, "Bob's turn", id="not-on-turn"),
    pytest.param("Ann bid 5x3; Bob call Ann=1,2,3,4,5,6 Bob=1,2,3,4,5,6", UsageError,
                 "missing Cy", id="missing-player"),
    pytest.param("Ann bid 5x3; Bob call Ann=1,2 Bob=1,2,3,4,5,6 Cy=1,2,3,4,5,6", UsageError,
                 "Ann holds 6 dice, not 2", id="wrong-number-of-dice"),
    pytest.param("Ann bid 5x3; Bob call 19", UsageError, "a count is 0 to 18", id="count-too-big"),
    pytest.param("Bob bid 5x3", RuleViolation, "Ann's turn", id="bid-out-of-turn"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "error", "reason"), REFUSED)
def test_refused(script: str, error: type[Exception], reason: str) -> None:
    with pytest.raises(error, match=reason):
        play(script, table())


# ------------------------------------------------------------------ notation


@pytest.mark.parametrize(
    ("text", "bid"),
    [("5x3", Bid(5, 3)), ("5 3", Bid(5, 3)), ("five 3s", Bid(5, 3)), ("5 threes", Bid(5, 3)),
     ("five threes", Bid(5, 3)), ("FIVE 3'S", Bid(5, 3)), ("1x6", Bid(1, 6)),
     ("12 ones", Bid(12, 1))],
)  # fmt: skip
def test_bid_notation(text: str, bid: Bid) -> None:
    assert Bid.parse(text) == bid and Bid.parse(str(bid)) == bid


@pytest.mark.parametrize("text", ["0x3", "5x7", "x3", "5x", "", "5x3x2", "five", "-1x3", "5x0"])
def test_bad_bids(text: str) -> None:
    with pytest.raises(NotationError):
        Bid.parse(text)


@given(st.text(max_size=20))
def test_a_bid_parses_or_says_why(text: str) -> None:
    try:
        bid = Bid.parse(text)
    except NotationError:
        return
    assert Bid.parse(str(bid)) == bid


@given(st.integers(1, 999), st.integers(1, 6))
def test_bids_print_and_parse_back(quantity: int, face: int) -> None:
    assert Bid.parse(str(Bid(quantity, face))) == Bid(quantity, face)
    assert Bid.parse(Bid(quantity, face).words()) == Bid(quantity, face)


def test_hands_notation() -> None:
    assert str(Hands.parse("Ann=3,3,1 Bob=6,2")) == "Ann=1,3,3 Bob=2,6"
    assert str(Hands.parse("Ann Marie=3 3; Bob=6")) == "Ann Marie=3,3; Bob=6"
    for bad in ("Ann=7", "Ann", "Ann=1,x", "=", ""):
        with pytest.raises(NotationError):
            Hands.parse(bad)


# ------------------------------------------------------------------ odds


def brute(bid: Bid, unknown: int, known: tuple[int, ...], wild: bool) -> Fraction:
    counts_for = {bid.face, 1} if wild and bid.face != 1 else {bid.face}
    good = 0
    for roll in itertools.product(range(1, 7), repeat=unknown):
        if sum(1 for d in (*roll, *known) if d in counts_for) >= bid.quantity:
            good += 1
    return Fraction(good, 6**unknown)


def test_odds_match_the_worked_example() -> None:
    assert round(ld.odds(Bid(5, 3), 36), 6) == 0.739323


@pytest.mark.parametrize("unknown", range(0, 7))
@pytest.mark.parametrize("wild", [False, True])
def test_odds_match_a_brute_force(unknown: int, wild: bool) -> None:
    for quantity, face, known in [(1, 3, ()), (2, 1, ()), (3, 4, (4,)), (2, 6, (1, 6)),
                                  (unknown + 2, 2, (2, 2)), (4, 5, (3,))]:  # fmt: skip
        bid = Bid(quantity, face)
        assert ld.odds(bid, unknown, known, wild) == pytest.approx(
            float(brute(bid, unknown, known, wild)), abs=1e-12
        ), (bid, unknown, known, wild)


# ------------------------------------------------------------------ through the command line

START = ("new", "liars", "Ann", "Bob", "Cy", "Dee", "--name", "friday", "--direction", "left")

BAD_INPUT = [
    pytest.param(("bid", "0x3"), 2, "at least one die", id="0x3"),
    pytest.param(("bid", "5x7"), 2, "faces are 1 to 6", id="5x7"),
    pytest.param(("bid", "x3"), 2, "unknown bid", id="x3"),
    pytest.param(("bid", "5x"), 2, "unknown bid", id="5x"),
    pytest.param(("bid", "25x3"), 1, "only 24 are in play", id="too-many-dice"),
    pytest.param(("call", "3"), 1, "no bid to call", id="call-before-a-bid"),
    pytest.param(("call",), 2, "give the count", id="call-without-count"),
    pytest.param(("bid", "5x3", "--by", "Bob"), 1, "Ann's turn", id="not-on-turn"),
    pytest.param(("call", "--dice", "Ann=1,2,7"), 2, "1 to 6, not '7'", id="face-7"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "code", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_saves_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    assert referee(*START).code == 0
    before = snapshot(session_file(home))
    result = referee("liars", *args)
    assert result.code == code and message in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home)) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("call", "--dice", "Ann=1,2,3,4,5,6 Bob=1,2,3,4,5,6"), "missing Cy, Dee",
                     id="missing-player"),
        pytest.param(("call", "--dice", "Ann=1 Bob=1,2,3,4,5,6 Cy=1,1,1,1,1,1 Dee=2,2,2,2,2,2"),
                     "Ann holds 6 dice, not 1", id="wrong-count"),
        pytest.param(("call", "3", "--by", "Ann"), "Ann made that bid", id="own-bid"),
        pytest.param(("call", "3", "--by", "Cy"), "Bob's turn", id="not-on-turn"),
    ],
)  # fmt: skip
def test_bad_calls_save_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], message: str
) -> None:
    assert referee(*START).code == 0 and referee("ld", "bid", "5x3").code == 0
    before = snapshot(session_file(home))
    result = referee("liars", *args)
    assert result.code in (1, 2) and message in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home)) == before


def test_a_warning_outside_four_to_eight_players(referee: Runner) -> None:
    result = referee("new", "liars", "Ann", "Bob", "--name", "two")
    assert (
        result.code == 0 and result.err == "warning: Liar's dice plays best with 4 to 8 players\n"
    )
    assert referee("new", "liars", "A", "B", "C", "D", "--name", "four").err == ""


def test_odds_in_and_out_of_a_session(referee: Runner) -> None:
    out = referee("liars", "odds", "5x3", "--dice", "36")
    assert out.code == 0 and "0.739323" in out.out
    assert "ones wild" in referee("ld", "odds", "5x3", "--dice", "36", "--ruleset", "perudo").out
    referee(*START)
    referee("ld", "bid", "5x3")
    in_session = referee("ld", "odds", "--mine", "3,3,1")
    expected = ld.odds(Bid(5, 3), 24 - 3, (3, 3, 1), wild=False)
    assert in_session.code == 0 and f"{expected:.6f}" in in_session.out


def test_the_json_document(referee: Runner) -> None:
    import json

    referee(*START)
    referee("ld", "bid", "5x3")
    doc = json.loads(referee("show", "--json").out)
    assert set(doc) == {"game", "session", "players", "turn", "bid", "round", "dice_in_play",
                        "palifico", "winner", "events"}  # fmt: skip
    assert doc["bid"] == {"quantity": 5, "face": 3, "bidder": "Ann"} and doc["turn"] == "Bob"
    assert doc["players"][0] == {"name": "Ann", "dice": 6, "out": False}


def test_a_wide_table_keeps_every_player_with_the_dice_he_lost(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = str(Path(__file__).parents[1] / "examples" / "perudo-night.toml")
    monkeypatch.setenv("COLUMNS", "80")
    wide = referee("show", "-s", example).out.splitlines()
    assert wide[1:5] == [
        "  Ana              [?][x][x][x][x]  1 left",
        "  Beto             [x][x][x][x][x]  out",
        "  Carla            [x][x][x][x][x]  out",
        "  Dani             [x][x][x][x][x]  out",
    ]
    monkeypatch.setenv("COLUMNS", "40")
    assert "out: Beto, Carla, Dani" in referee("show", "-s", example).out


def test_play_goes_counter_clockwise_by_default_as_the_seed_plays() -> None:
    people = [PlayerInfo(n) for n in ("Ann", "Bob", "Cy", "Dee")]
    for rules, expected in ((SEED, "Dee"), (PERUDO, "Dee")):
        state = ld.start(rules, people, ld.options_from_table({}, people, rules))
        assert state.direction is ld.Direction.RIGHT  # against the order the players were named
        assert play("Ann bid 2x3", state).name(play("Ann bid 2x3", state).turn) == expected
