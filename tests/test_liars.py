"""Liar's dice and Perudo (RULES.md section 4) as tables of short games, plus odds and bad input."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Runner, example_states, session_file, snapshot
from referee import storage
from referee.errors import NotationError, RuleViolation, UsageError
from referee.games.base import PlayerInfo
from referee.games.liars import engine as ld
from referee.games.liars.bids import Bid, Hands
from referee.games.liars.card import card_text, status_lines
from referee.games.liars.words import words

SEED = ld.Rules.from_table(storage.load_ruleset("liars-dice"), "liars-dice")
PERUDO = ld.Rules.from_table(storage.load_ruleset("perudo"), "perudo")


def table(players: str = "Ann Bob Cy", rules: ld.Rules = SEED, **changes: Any) -> ld.State:
    """Play goes left (seat order) in these tables unless a case says otherwise."""
    rules = ld.Rules(
        **{**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}, **changes}
    )
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


def own(state: ld.State) -> tuple[str, ...]:
    """The game's own actions open now, join, leave and replace aside (test_roster_liars)."""
    return tuple(a for a in ld.legal_actions(state) if a not in ("join", "leave", "replace"))


# ------------------------------------------------------------------ raises


def rule(name: str, base: ld.Rules = SEED) -> ld.Rules:
    """`base` playing another `bidding_rule`."""
    return replace(base, bidding_rule=ld.BiddingRule(name))


FACE, QTY, BOTH = rule("reset-face"), rule("reset-quantity"), rule("both-nondecreasing")
WILD_FACE = replace(SEED, ones_wild=True)  # wild ones, but no halving: ones are the lowest face

# (rules, palifico, standing bid, bid, None if legal else a word of the reason)
RAISES = [
    pytest.param(FACE, False, None, "5x3", None, id="face-opening-free"),
    pytest.param(FACE, False, None, "2x1", None, id="face-opens-on-ones"),
    pytest.param(FACE, False, "4x5", "4x6", None, id="face-same-quantity-higher-face"),
    pytest.param(FACE, False, "3x2", "4x1", None, id="face-more-dice-any-face"),
    pytest.param(FACE, False, "1x2", "4x5", None, id="face-jumps-allowed"),
    pytest.param(FACE, False, "5x3", "5x3", "more dice", id="face-same-bid"),
    pytest.param(FACE, False, "5x3", "5x2", "more dice", id="face-lower-face"),
    pytest.param(FACE, False, "5x3", "4x6", "more dice", id="face-fewer-dice-higher-face"),
    pytest.param(FACE, False, "5x6", "5x1", "more dice", id="face-ones-are-lowest"),
    pytest.param(WILD_FACE, False, "3x2", "2x1", "more dice", id="face-wild-no-halving"),
    pytest.param(QTY, False, None, "1x1", None, id="qty-opening-free"),
    pytest.param(QTY, False, "5x3", "1x4", None, id="qty-higher-face-any-quantity"),
    pytest.param(QTY, False, "5x3", "9x4", None, id="qty-higher-face-more-dice"),
    pytest.param(QTY, False, "5x3", "6x3", None, id="qty-same-face-more-dice"),
    pytest.param(QTY, False, "5x6", "6x6", None, id="qty-sixes-only-by-quantity"),
    pytest.param(QTY, False, "5x3", "5x3", "higher face", id="qty-same-bid"),
    pytest.param(QTY, False, "5x3", "9x2", "higher face", id="qty-lower-face-more-dice"),
    pytest.param(QTY, False, "5x3", "4x3", "higher face", id="qty-fewer-of-the-face"),
    pytest.param(QTY, False, "5x6", "9x5", "higher face", id="qty-no-way-down-from-sixes"),
    pytest.param(BOTH, False, None, "4x6", None, id="both-opening-free"),
    pytest.param(BOTH, False, "5x3", "5x4", None, id="both-face-up"),
    pytest.param(BOTH, False, "5x3", "6x3", None, id="both-quantity-up"),
    pytest.param(BOTH, False, "5x3", "7x6", None, id="both-both-up"),
    pytest.param(BOTH, False, "5x3", "6x2", "go down", id="both-face-down"),
    pytest.param(BOTH, False, "5x3", "4x6", "go down", id="both-quantity-down"),
    pytest.param(BOTH, False, "5x3", "5x3", "raise the quantity or the face", id="both-same"),
    pytest.param(PERUDO, False, None, "2x1", "opening bid may not be on ones", id="p-open-ones"),
    pytest.param(PERUDO, False, None, "2x2", None, id="p-opening-free"),
    pytest.param(PERUDO, False, "4x3", "5x2", None, id="p-more-dice-any-face"),
    pytest.param(PERUDO, False, "4x3", "4x2", "more dice", id="p-lower-face"),
    pytest.param(PERUDO, False, "3x2", "2x1", None, id="p-3x2-to-2x1"),
    pytest.param(PERUDO, False, "3x2", "1x1", "needs 2", id="p-3x2-to-1x1"),
    pytest.param(PERUDO, False, "5x3", "3x1", None, id="p-halve-rounds-up"),
    pytest.param(PERUDO, False, "5x3", "2x1", "needs 3", id="p-halve-not-down"),
    pytest.param(PERUDO, False, "2x1", "5x2", None, id="p-leaving-ones-double-plus-one"),
    pytest.param(PERUDO, False, "2x1", "4x6", "needs 5", id="p-leaving-ones-too-few"),
    pytest.param(PERUDO, False, "2x1", "3x1", None, id="p-more-ones"),
    pytest.param(PERUDO, False, "2x1", "2x1", "more dice", id="p-same-ones"),
    pytest.param(PERUDO, True, "2x4", "3x4", None, id="palifico-more-of-the-face"),
    pytest.param(PERUDO, True, "2x4", "3x5", "the face stays 4", id="palifico-face-fixed"),
    pytest.param(PERUDO, True, None, "1x1", None, id="palifico-opens-on-ones"),
    pytest.param(PERUDO, True, "2x4", "1x1", "the face stays 4", id="palifico-no-halving"),
    pytest.param(rule("reset-quantity", PERUDO), True, "2x4", "2x5", "the face stays 4",
                 id="palifico-face-fixed-whatever-the-rule"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "palifico", "standing", "bid", "reason"), RAISES)
def test_raises(
    rules: ld.Rules, palifico: bool, standing: str | None, bid: str, reason: str | None
) -> None:
    before = Bid.parse(standing) if standing else None
    found = ld.is_raise(before, Bid.parse(bid), rules, palifico)
    assert (found is None) if reason is None else (reason in (found or "")), found


# After 5x3 among 18 dice: the smallest raise of each face, as the refusal lists them.
SMALLEST = [
    pytest.param(FACE, "5x2", "'5x2' does not raise '5x3': try 5x4 5x5 5x6 6x1 6x2 6x3",
                 id="reset-face"),
    pytest.param(QTY, "5x2", "'5x2' does not raise '5x3': try 1x4 1x5 1x6 6x3",
                 id="reset-quantity"),
    pytest.param(BOTH, "6x2", "'6x2' does not raise '5x3': try 5x4 5x5 5x6 6x3",
                 id="both-nondecreasing"),
    pytest.param(PERUDO, "2x1", "'2x1' does not raise '5x3': a bid on ones needs 3 or more; "
                 "try 3x1 5x4 5x5 5x6 6x2 6x3", id="perudo"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "bid", "message"), SMALLEST)
def test_a_refused_bid_names_the_smallest_raises_of_its_rule(
    rules: ld.Rules, bid: str, message: str
) -> None:
    state = play("Ann bid 5x3", table(rules=rules))
    with pytest.raises(RuleViolation) as refused:
        play(f"Bob bid {bid}", state)
    assert str(refused.value) == message
    for raise_ in message.split("try ")[1].split():  # each one listed is accepted
        assert play(f"Bob bid {raise_}", state).bid == Bid.parse(raise_)


def test_each_smallest_raise_is_the_smallest_of_its_face() -> None:
    for rules in (FACE, QTY, BOTH, PERUDO):
        for standing in ("1x1", "3x1", "5x3", "2x6", "17x5"):
            found = ld.raises_over(Bid.parse(standing), rules, 18)
            for bid in found:
                assert ld.is_raise(Bid.parse(standing), bid, rules) is None
                if bid.quantity > 1:
                    less = Bid(bid.quantity - 1, bid.face)
                    assert ld.is_raise(Bid.parse(standing), less, rules) is not None
            faces = {b.face for b in found}
            for face in set(range(1, 7)) - faces:  # a face left out has no raise at all
                assert all(
                    ld.is_raise(Bid.parse(standing), Bid(q, face), rules) for q in range(1, 19)
                )


def test_the_opening_refusal_does_not_dangle() -> None:
    with pytest.raises(RuleViolation) as refused:
        play("Ann bid 2x1", table(rules=PERUDO))
    assert str(refused.value) == (
        "bid '2x1' cannot open the round: the opening bid may not be on ones;"
        " try 1x2 1x3 1x4 1x5 1x6"
    )


def test_no_bid_raises_the_last_one() -> None:
    state = play("Ann bid 18x6", table())
    assert ld.smallest_raises(state) == []
    with pytest.raises(RuleViolation, match="no bid raises it: call it"):
        play("Bob bid 18x5", state)


@pytest.mark.parametrize("text", ["19x3", "25x3", "1000000x6", "999999999999x1"])
def test_a_bid_above_the_dice_in_play_says_so(text: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        play(f"Ann bid {text}", table())
    assert str(refused.value) == f"bid '{text}' names more dice than are in play (18)"
    assert play("Ann bid 18x3", table()).bid == Bid(18, 3)


def test_every_bidding_rule_can_start_a_game(referee: Runner, tmp_path: Path) -> None:
    import tomli_w

    for value in ("reset-face", "reset-quantity", "both-nondecreasing", "perudo"):
        table_ = {**storage.load_ruleset("perudo"), "bidding_rule": value, "name": value}
        path = tmp_path / f"{value}.toml"
        path.write_text(tomli_w.dumps(table_))
        result = referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--ruleset", str(path))
        assert result.code == 0, result
        assert referee("ld", "bid", "3x4").code == 0


BAD_RULESETS = [
    pytest.param({"bidding_rule": "perudo", "ones_wild": False}, "perudo needs ones_wild",
                 id="perudo-without-wild-ones"),
    pytest.param({"bidding_rule": "reset-quantity", "wild_bids_halve": True, "ones_wild": True},
                 "cannot go with reset-quantity", id="old-halving-with-another-rule"),
    pytest.param({"bidding_rule": "highest"}, "bidding_rule must be one of reset-face | "
                 "reset-quantity | both-nondecreasing | perudo", id="unknown-rule"),
    pytest.param({"call_by": "left"}, "call_by must be one of turn | any", id="call-by"),
    pytest.param({"exact_call_by": "bidder"}, "exact_call_by must be one of turn | any",
                 id="exact-call-by"),
    pytest.param({"two_player_calza": "no"}, "two_player_calza must be true or false",
                 id="two-player-calza"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "message"), BAD_RULESETS)
def test_bad_rulesets_say_why(changes: dict[str, object], message: str) -> None:
    from referee.errors import RulesetError

    with pytest.raises(RulesetError, match=message):
        ld.Rules.from_table({**storage.load_ruleset("liars-dice"), **changes})


def test_an_old_session_saying_wild_bids_halve_plays_perudo() -> None:
    old = {**storage.load_ruleset("perudo"), "bidding_rule": "reset-face", "wild_bids_halve": True}
    assert ld.Rules.from_table(old).bidding_rule is ld.BiddingRule.PERUDO
    plain = {**storage.load_ruleset("liars-dice"), "wild_bids_halve": False}
    assert ld.Rules.from_table(plain).bidding_rule is ld.BiddingRule.RESET_FACE


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
    assert "Ann is at the start count (5 dice): none comes back" in words(full.ruling)
    assert not any(isinstance(f, ld.RegainedDie) for f in full.ruling)
    state = play("Ann bid 4x4", state)
    right = play("Bob exact 4", state)
    assert dice(right)["Bob"] == 5 and right.name(right.turn) == "Bob"
    assert "Bob regains a die (5 now)" in words(right.ruling)
    wrong = play("Bob exact 5", state)
    assert dice(wrong)["Bob"] == 3 and wrong.name(wrong.turn) == "Bob"  # the caller opens
    with pytest.raises(RuleViolation, match="Ann made that bid"):
        play("Ann exact 4", state)
    with pytest.raises(RuleViolation, match="no exact call"):
        play("Ann bid 5x3; Bob exact 5", table())


ANY, TURN = ld.CallBy.ANY, ld.CallBy.TURN
FOUR = "Ann Bob Cy Dee"

# Ann bids, Bob is on turn; who else may call, and who opens next.
# (rules changes, script after "Ann bid 5x3", dice left that changed, who opens, or refusal)
CALLERS = [
    pytest.param({}, "Cy exact 5", {}, "Cy", id="calza-by-anyone-right-at-the-start-count"),
    pytest.param({}, "Dee exact 4", {"Dee": 4}, "Dee", id="calza-by-anyone-wrong"),
    pytest.param({}, "Bob exact 5", {}, "Bob", id="calza-by-the-player-on-turn"),
    pytest.param({}, "Ann exact 5", "Ann made that bid", None, id="calza-never-by-the-bidder"),
    pytest.param({"exact_call_by": TURN}, "Cy exact 5", "Bob's turn", None,
                 id="exact-call-by-turn-refuses-others"),
    pytest.param({"exact_call_by": TURN}, "Bob exact 5", {}, "Bob", id="exact-call-by-turn"),
    pytest.param({}, "Cy call 3", "Bob's turn", None, id="call-by-turn-is-the-default"),
    pytest.param({"call_by": ANY}, "Cy call 3", {"Ann": 4}, "Ann", id="call-by-anyone-false"),
    pytest.param({"call_by": ANY}, "Dee call 6", {"Dee": 4}, "Dee", id="call-by-anyone-holds"),
    pytest.param({"call_by": ANY}, "Ann call 3", "Ann made that bid", None,
                 id="call-by-anyone-but-the-bidder"),
    pytest.param({"call_by": ANY, "next_starter": ld.NextStarter.CALLER}, "Dee call 3",
                 {"Ann": 4}, "Dee", id="call-by-anyone-caller-opens"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "script", "expected", "starter"), CALLERS)
def test_who_may_call_and_who_opens_next(
    changes: dict[str, Any], script: str, expected: dict[str, int] | str, starter: str | None
) -> None:
    state = play("Ann bid 5x3", table(FOUR, PERUDO, **changes))
    if isinstance(expected, str):
        with pytest.raises(RuleViolation, match=expected):
            play(script, state)
        return
    after = play(script, state)
    assert {n: d for n, d in dice(after).items() if d != 5} == expected
    assert after.name(after.turn) == starter


def test_an_out_player_cannot_call_or_calza() -> None:
    state = play("Ann bid 2x6; Bob call 0", table(FOUR, PERUDO, dice_per_player=1))
    assert dice(state)["Ann"] == 0  # Ann is out; Bob opens
    state = play("Bob bid 1x3", state)
    for line in ("Ann exact 1", "Ann call 1"):
        with pytest.raises(RuleViolation, match="Ann has no dice left"):
            play(line, replace(state, rules=replace(state.rules, call_by=ANY)))


def test_palifico_one_die_may_change_the_face_where_the_key_says() -> None:
    fixed = play("Ann bid 1x3; Bob call 0", table(FOUR, PERUDO, dice_per_player=2))
    assert fixed.palifico and dice(fixed) == {"Ann": 1, "Bob": 2, "Cy": 2, "Dee": 2}
    free = replace(fixed, rules=replace(fixed.rules, palifico_one_die_free_face=True))
    free = play("Ann bid 2x4; Bob bid 3x4", free)  # Bob (two dice) keeps the face
    with pytest.raises(RuleViolation, match="the face stays 4"):
        play("Cy bid 4x5", free)
    state = play("Cy bid 4x4; Dee call 0", free)  # Cy loses: he is on one die, palifico again
    assert state.palifico and state.name(state.turn) == "Cy"  # the loser opens
    state = play("Cy bid 2x2; Dee bid 3x2", state)
    assert play("Ann bid 3x5", state).bid == Bid(3, 5)  # Ann, on one die, changes the face
    assert play("Ann bid 4x1", state).bid == Bid(4, 1)
    with pytest.raises(RuleViolation, match="try 3x3 3x4 3x5 3x6 4x1 4x2"):
        play("Ann bid 2x1", state)  # no wild ones in palifico, so no halving onto them
    with pytest.raises(RuleViolation, match="the face stays 2"):
        play("Ann bid 3x5", replace(state, rules=fixed.rules))  # without the key she may not
    said = " ".join(" ".join(line.plain for line in status_lines(state)).split())
    assert "palifico: no wild ones; the face stays but for a player on one die" in said


def test_no_palifico_with_two_players_left_where_the_key_says() -> None:
    two = table("Ann Bob", PERUDO, dice_per_player=2)
    assert play("Ann bid 1x3; Bob call 0", two).palifico  # the default: palifico with two
    off = table("Ann Bob", PERUDO, dice_per_player=2, two_player_palifico=False)
    state = play("Ann bid 1x3; Bob call 0", off)
    assert not state.palifico and state.wild and "palifico" not in words(state.ruling)
    three = table("Ann Bob Cy", PERUDO, dice_per_player=2, two_player_palifico=False)
    assert play("Ann bid 1x3; Bob call 0", three).palifico  # three players still in


def test_no_calza_with_two_players_left_where_the_key_says() -> None:
    off = table("Ann Bob Cy", PERUDO, dice_per_player=1, two_player_calza=False)
    state = play("Ann bid 1x3", off)
    assert "exact" in ld.legal_actions(state)  # three players still in
    state = play("Bob call 0", state)  # Ann is out: two left
    state = play("Bob bid 1x3", state)
    assert own(state) == ("bid", "call")
    with pytest.raises(RuleViolation, match="no exact call \\(calza\\) with two players left"):
        play("Cy exact 1", state)
    on = table("Ann Bob Cy", PERUDO, dice_per_player=1)
    state = play("Ann bid 1x3; Bob call 0; Bob bid 1x3", on)
    assert "exact" in ld.legal_actions(state)
    assert "exact" not in ld.legal_actions(play("Ann bid 1x3", table()))  # no calza at all


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
    # As Kariki's `pull 45`: a run of digits is one die a digit (`--dice Ann=335` was refused).
    assert str(Hands.parse("Ann=335 Bob=62")) == "Ann=3,3,5 Bob=2,6"
    for bad in ("Ann=7", "Ann", "Ann=1,x", "=", "", "Ann=10", "Ann=" + "6" * 11):
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
    pytest.param(("bid", "25x3"), 1, "bid '25x3' names more dice than are in play (24)",
                 id="too-many-dice"),
    pytest.param(("bid", "1000000x6"), 1, "bid '1000000x6' names more dice than are in play (24)",
                 id="a-million-dice"),
    pytest.param(("bid", "10000000000000x6"), 2, "more dice than any table holds",
                 id="more-digits-than-a-bid"),
    pytest.param(("bid", "\uff15x3"), 2, "write its digits as 0-9", id="fullwidth-digit"),
    pytest.param(("bid", "\u0665x3"), 2, "write its digits as 0-9", id="arabic-indic-digit"),
    pytest.param(("bid", "5\u00d73"), 2, "unknown bid", id="multiplication-sign"),
    pytest.param(("bid", "5x\uff13"), 2, "write its digits as 0-9", id="fullwidth-face"),
    pytest.param(("call", "3"), 1, "no bid to call", id="call-before-a-bid"),
    pytest.param(("call",), 1, "no bid to call", id="call-without-count-or-bid"),
    pytest.param(("bid", "5x3", "--by", "Bob"), 1, "Ann's turn", id="not-on-turn"),
    pytest.param(("bid", "5x3", "--by", ""), 2, "unknown player ''", id="by-nobody"),
    pytest.param(("bid", "5x3", "--by", " "), 2, "unknown player ' '", id="by-a-space"),
    pytest.param(("call", "--dice", "Ann=1,2,7"), 2, "1 to 6, not '7'", id="face-7"),
    pytest.param(("odds", "5x3", "--dice", "\uff12\uff14"), 2, "digits 0-9", id="odds-fullwidth-n"),
    pytest.param(("odds", "5x3", "--dice", "0"), 2, "dice in play are 1 to 200, not 0",
                 id="odds-no-dice"),
    pytest.param(("odds", "5x3", "--mine", "0,7"), 2, "a die shows 1 to 6, not '0' in '0,7'",
                 id="odds-mine-no-internal-label"),
    pytest.param(("odds", "5x3", "--mine", "\u0663,3"), 2, "not '\u0663'", id="odds-mine-arabic"),
    pytest.param(("odds", "5x3", "--ruleset", "kariki"), 2, "not a Liar's dice ruleset",
                 id="odds-other-game-ruleset"),
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
        pytest.param(("call", "-1"), "a count cannot be negative: '-1'", id="call-negative"),
        pytest.param(("exact", "-3"), "a count cannot be negative: '-3'", id="exact-negative"),
        pytest.param(("call", "\uff15"), "a count is written in digits 0-9, not", id="fullwidth"),
        pytest.param(("call", "\u0665"), "a count is written in digits 0-9, not", id="arabic"),
        pytest.param(("call", "five"), "a count is written in digits 0-9, not 'five'", id="word"),
        pytest.param(("call", "--dicee"), "unknown option '--dicee'", id="option-typo"),
        pytest.param(("call",), "give the count of matching dice", id="no-count"),
        pytest.param(("call", "3", "--dice", "Ann=1"), "give the count of matching dice",
                     id="count-and-dice"),
        pytest.param(("call", "25"), "a count is 0 to 24 (the dice in play), not 25", id="big"),
        pytest.param(("call", "--dice", "Ann=1 Bob=1,2,3,4,5,6 Cy=1,1,1,1,1,1 Dee=2,2,2,2,2,2"),
                     "Ann holds 6 dice, not 1", id="wrong-count"),
        pytest.param(("exact", "3"), "this ruleset has no exact call (calza): use call",
                     id="no-calza-here"),
    ],
)  # fmt: skip
def test_a_count_says_what_is_wrong_with_it(
    referee: Runner, home: Path, args: tuple[str, ...], message: str
) -> None:
    assert referee(*START).code == 0 and referee("ld", "bid", "5x3").code == 0
    before = snapshot(session_file(home))
    result = referee("liars", *args)
    assert result.code in (1, 2) and message in result.err and result.err.count("\n") == 1, result
    assert "No such option" not in result.err and "Invalid value" not in result.err
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


def test_perudo_is_named_perudo_wherever_a_session_is_named(
    referee: Runner, tmp_path: Path
) -> None:
    """`new`, its warning, `sessions`, the Markdown export, the night, a slip of game and
    `import` said Liar's dice."""
    referee("night", "start", "fri", "Ann", "Bob", "Cy")
    started = referee("new", "liars", "Ann", "Bob", "Cy", "--ruleset", "perudo", "--name", "peru")
    assert started.out.splitlines()[:2] == ["started peru (perudo)", "in night fri"]
    assert started.err == "warning: Perudo plays best with 4 to 8 players\n"
    assert referee("sessions").out.splitlines()[1].startswith("    perudo, playing, ")
    listed = json.loads(referee("sessions", "--json").out)[0]
    assert (listed["game"], listed["ruleset"]) == ("liars", "perudo")  # the game kept as it was
    assert referee("export", "--format", "md").out.startswith("# peru (perudo)\n")
    assert "1. peru (perudo): playing" in referee("night").out.splitlines()
    assert json.loads(referee("night", "--json").out)["games"][0]["game"] == "liars"
    slip = referee("kariki", "claim", "9")
    assert slip.err.startswith("error: session 'peru' is Perudo: 'kariki claim' needs a Kariki")
    referee("export", "--format", "json", "-o", str(tmp_path / "peru.json"))
    imported = referee("import", str(tmp_path / "peru.json"), "--name", "again", "--as-copy")
    assert imported.out == "imported peru.json as again (perudo)\n"


def test_odds_in_and_out_of_a_session(referee: Runner) -> None:
    out = referee("liars", "odds", "5x3", "--dice", "36")
    assert out.code == 0 and "0.739323" in out.out and "liars-dice (no game in use)" in out.out
    perudo = referee("ld", "odds", "5x3", "--dice", "36", "--ruleset", "perudo").out
    assert "perudo (--ruleset): ones wild" in perudo
    referee(*START)
    referee("ld", "bid", "5x3")
    in_session = referee("ld", "odds", "--mine", "3,3,1")
    expected = ld.odds(Bid(5, 3), 24 - 3, (3, 3, 1), wild=False)
    assert in_session.code == 0 and f"{expected:.6f}" in in_session.out


def test_odds_keep_the_tables_wild_ones_with_dice_given(referee: Runner) -> None:
    """The issue's case: a Perudo table asking about 20 dice got the odds without wild ones."""
    referee("new", "liars", "A", "B", "C", "D", "--ruleset", "perudo", "--name", "p")
    referee("ld", "bid", "5x3")
    for args in (("5x3", "--dice", "20"), ("5x3",), ()):
        out = referee("ld", "odds", *args).out
        assert out.splitlines()[3].split()[:2] == ["5x3", "0.848489"], out
        assert "perudo, round 1 of this game: ones wild" in out
    seed = referee("ld", "odds", "5x3", "--dice", "20", "--ruleset", "liars-dice").out
    assert "0.231251" in seed and "ones wild" not in seed and "(--ruleset)" in seed


def test_odds_in_a_palifico_round_count_no_wild_ones(referee: Runner) -> None:
    referee("new", "liars", "A", "B", "C", "--ruleset", "perudo", "--name", "p",
            "--direction", "left")  # fmt: skip
    for line in (["bid", "1x3"], ["call", "0"], ["bid", "1x3"], ["call", "0"], ["bid", "1x3"],
                 ["call", "0"], ["bid", "1x3"], ["call", "0"]):  # fmt: skip
        assert referee("ld", *line).code == 0
    doc = json.loads(referee("show", "--json").out)
    assert doc["palifico"] and [p["dice"] for p in doc["players"]] == [1, 5, 5]
    out = referee("ld", "odds", "2x4", "--mine", "4").out
    expected = ld.chances(Bid(2, 4), 10, (4,), wild=False)
    assert f"2x4    {expected.at_least:.6f}" in out
    assert "perudo, round 5 of this game: palifico, ones not wild" in " ".join(out.split())


def test_the_odds_screen_shows_exactly_and_every_smallest_raise(referee: Runner) -> None:
    referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--ruleset", "perudo", "--name", "p")
    referee("ld", "bid", "5x3")
    lines = referee("ld", "odds", "--mine", "1,3,3").out.splitlines()
    raises = ld.raises_over(Bid(5, 3), PERUDO, 20)
    rows = {line.split()[0]: line.split() for line in lines[4:] if "x" in line.split()[0]}
    assert list(rows) == ["5x3", *map(str, raises)]
    for text, row in rows.items():
        chance = ld.chances(Bid.parse(text), 17, (1, 3, 3), wild=True)
        assert row[1] == f"{chance.at_least:.6f}" and row[3] == f"{chance.exactly:.6f}"
    assert len(lines) <= 23 and max(map(len, lines)) <= 40


@settings(deadline=None)  # exact fractions on a loaded machine: no timing in tests
@given(
    st.integers(0, 60),
    st.integers(1, 70),
    st.integers(1, 6),
    st.booleans(),
    st.booleans(),
    st.lists(st.integers(1, 6), max_size=6),
)
def test_odds_match_an_exact_binomial(
    unknown: int, quantity: int, face: int, ones_wild: bool, palifico: bool, mine: list[int]
) -> None:
    """P(at least q) and P(exactly q) against the binomial in exact fractions, through the
    same table the odds screen uses (wild ones, palifico, one's own dice)."""
    rules = replace(SEED, ones_wild=ones_wild)
    bid = Bid(quantity, face)
    rows = ld.odds_table(bid, rules, unknown + len(mine), tuple(mine), palifico)
    wild = ones_wild and not palifico and face != 1
    p = Fraction(2 if wild else 1, 6)
    need = quantity - sum(1 for d in mine if d == face or (wild and d == 1))

    def exactly(k: int) -> Fraction:
        if not 0 <= k <= unknown:
            return Fraction(0)
        return math.comb(unknown, k) * p**k * (1 - p) ** (unknown - k)

    at_least = sum((exactly(k) for k in range(max(need, 0), unknown + 1)), Fraction(0))
    assert rows[0][0] == bid
    assert abs(rows[0][1].at_least - float(at_least)) < 1e-6
    assert abs(rows[0][1].exactly - float(exactly(need))) < 1e-6


def test_the_json_document(referee: Runner) -> None:
    import json

    referee(*START)
    referee("ld", "bid", "5x3")
    doc = json.loads(referee("show", "--json").out)
    assert set(doc) == {"game", "session", "players", "turn", "bid", "round", "dice_in_play",
                        "palifico", "winner", "events", "house_rules", "money",
                        "night", "out_order"}  # fmt: skip
    assert doc["bid"] == {"quantity": 5, "face": 3, "bidder": "Ann"} and doc["turn"] == "Bob"
    assert doc["players"][0] == {"name": "Ann", "nickname": None, "dice": 6, "out": False}
    assert doc["out_order"] == []


def test_the_json_document_says_nicknames_and_who_went_out_first(referee: Runner) -> None:
    import json

    example = str(Path(__file__).parents[1] / "examples" / "perudo-night.toml")
    doc = json.loads(referee("show", "--json", "-s", example).out)
    assert doc["out_order"] == ["Beto", "Carla", "Dani"]  # as its log says them going out
    assert doc["winner"] == "Ana"


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


# ------------------------------------------------------------------ the screen at 40x24


def _names(count: int, long: bool) -> list[str]:
    """`count` distinct names, each 16 characters long if `long` (the longest a name may be)."""
    return [(f"Player{i:02d}" + "x" * 8) if long else f"P{i}" for i in range(count)]


def _all_dice(doc: dict[str, Any], face: int = 3) -> str:
    """Every player still in showing `face` on every die, as `--dice` takes them."""
    return " ".join(
        f"{p['name']}={','.join([str(face)] * p['dice'])}" for p in doc["players"] if p["dice"]
    )


@pytest.mark.parametrize("long", [False, True], ids=["short-names", "16-letter-names"])
@pytest.mark.parametrize("count", [2, 8, 9, 20])
def test_every_action_fits_40x24_and_keeps_its_ruling(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, count: int, long: bool
) -> None:
    """A phone with its keyboard open: at most 23 lines under the prompt, none over 40
    columns; the ruling is the first thing on screen and the status the last."""
    import sys

    monkeypatch.setenv("LINES", "24")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the warning wraps as it would
    names = _names(count, long)
    started = referee("new", "liars", *names, "--ruleset", "perudo", "--name", "s")
    screens = [(started, "started s (perudo)")]

    def doc() -> dict[str, Any]:
        found: dict[str, Any] = json.loads(referee("show", "--json").out)
        return found

    for _ in range(3):  # three rounds: bids, a call with every die shown, a calza out of turn
        first = doc()["turn"]
        screens.append((referee("ld", "bid", "2x3"), f"{first} bids two threes"))
        bidder = doc()["turn"]
        screens.append((referee("ld", "bid", "3x3"), f"{bidder} bids three threes"))
        caller = doc()["turn"]
        dice = _all_dice(doc(), face=2)  # no threes and no ones: the bid was false
        screens.append((referee("ld", "call", "--dice", dice), f"{caller} calls {bidder}'s"))
        if doc()["winner"]:
            break
        opener = doc()["turn"]
        screens.append((referee("ld", "bid", "1x5"), f"{opener} bids one five"))
        anyone = next(p["name"] for p in doc()["players"] if p["dice"] and p["name"] != opener)
        screens.append((referee("ld", "exact", "1", "--by", anyone), f"{anyone} calls {opener}'s"))
    screens.append((referee("show"), "PERUDO s"))
    for result, first_line in screens:
        out = result.out.rstrip("\n").splitlines()
        err = result.err.rstrip("\n").splitlines()
        assert result.code == 0, result
        assert len(out) + len(err) <= 23, "\n".join(out + err)
        assert max(len(line) for line in out + err) <= 40, "\n".join(out + err)
        assert " ".join(" ".join(out).split()).startswith(first_line), (first_line, out)
        assert any(word in "\n".join(out[-3:]) for word in ("opens", "raise", "call", "wins"))


def test_the_4_to_8_warning_wraps_at_words_on_a_terminal(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    result = referee("new", "liars", "Ann", "Bob", "--name", "two")
    assert result.err == "warning: Liar's dice plays best with 4\n  to 8 players\n"


def test_the_card_says_which_way_play_goes(referee: Runner) -> None:
    out = referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--name", "d").out
    assert "play goes: Ann, Dee, Cy, Bob" in out.splitlines()  # counter-clockwise by default
    out = referee("ld", "bid", "2x3").out
    assert "play goes: Dee, Cy, Bob, Ann" in out.splitlines()  # from the player on turn
    out = referee("new", "liars", "Ann", "Bob", "Cy", "--direction", "left", "--name", "l").out
    assert "play goes: Ann, Bob, Cy" in out.splitlines()
    eight = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    out = referee("new", "liars", *eight, "--name", "eight").out  # too many names for a line
    assert "play goes up the list: Ann, Hal, Gus, …" in out.splitlines()
    out = referee("new", "liars", *eight, "--name", "left", "--direction", "left").out
    assert "play goes down the list: Ann, Bob, Cy, …" in out.splitlines()


def test_words_say_one_die_not_one_dice(referee: Runner) -> None:
    referee("new", "liars", "Ann", "Bob", "Cy", "--name", "one", "--direction", "left")
    referee("ld", "bid", "1x3")
    out = referee("ld", "call", "--dice", "Ann=1,2 Bob=3 Cy=4", "--by", "Bob")
    assert "Ann holds 6 dice, not 2: 'Ann=1,2'" in out.err  # his dice quoted, not everyone's
    one = table(dice_per_player=1)
    assert words(one.ruling).startswith("1 die each;")
    state = play("Ann bid 1x3; Bob bid 1x4", one)
    with pytest.raises(UsageError, match="Ann holds 1 die, not 2"):
        play("Cy call Ann=1,2 Bob=3 Cy=4", state)
    lines = [line.plain for line in card_text(play("Ann bid 1x3; Bob call 0", one), "x")]
    assert "2 dice in play" in lines


def test_a_finished_perudo_game_says_nothing_of_wild_ones(referee: Runner) -> None:
    example = str(Path(__file__).parents[1] / "examples" / "perudo-night.toml")
    out = referee("show", "-s", example).out
    assert "wins" in out and "wild" not in out and "play goes" not in out


def test_no_raise_left_is_not_raises_none_and_no_calza_is_not_offered() -> None:
    state = play("Ann bid 18x6", table())
    said = "\n".join(line.plain for line in status_lines(state))
    assert "raises" not in said and "(none)" not in said and "exact" not in said
    assert said.splitlines()[1] == "Bob: call"
    perudo = play("Ann bid 3x6", table(rules=PERUDO))
    lines = [line.plain for line in status_lines(perudo)]
    assert lines[1:3] == ["Bob: raise or call", "exact: anyone but Ann"]
    anyone = play("Ann bid 3x6", table(rules=PERUDO, call_by=ANY))
    assert [line.plain for line in status_lines(anyone)][1:3] == [
        "Bob: raise",
        "call or exact: anyone but Ann",
    ]
    off = play("Ann bid 3x6", table(rules=PERUDO, exact_call=False))
    assert "exact" not in "\n".join(line.plain for line in status_lines(off))


@pytest.mark.parametrize("args", [("call",), ("exact", "2"), ("bid", "3x3")])
def test_an_action_on_another_games_session_is_refused(
    referee: Runner, home: Path, args: tuple[str, ...]
) -> None:
    assert referee("new", "kiriki", "Ann", "Bob", "--name", "friday").code == 0
    before = snapshot(session_file(home))
    result = referee("liars", *args, "-s", "friday")
    assert result.code == 2 and result.err.startswith("error: session 'friday' is Kiriki: 'liars")
    assert snapshot(session_file(home)) == before


def test_another_games_action_on_a_liars_session_is_refused(referee: Runner, home: Path) -> None:
    """The smoke tool's crash: `kariki claim 9 -s` a Liar's dice file reached this engine."""
    assert referee(*START).code == 0
    before = snapshot(session_file(home))
    result = referee("kariki", "claim", "9", "-s", "friday")
    assert result.code == 2
    assert result.err.startswith("error: session 'friday' is Liar's dice: 'kariki claim'")
    assert snapshot(session_file(home)) == before


@pytest.mark.parametrize("example", ["liars-dice-night", "perudo-night"])
def test_places_follow_the_order_players_went_out(example: str) -> None:
    """The last player out is the runner-up, the first out is last (not seat order)."""
    from referee import storage
    from referee.session import states

    path = Path(__file__).parents[1] / "examples" / f"{example}.toml"
    session = storage.load(path).session
    out_order = [
        fact.player
        for state in states(session)
        for fact in state.ruling
        if type(fact).__name__ == "WentOut"
    ]
    final = storage.load(path).state
    outcome = session.engine.outcome(final)
    assert outcome.finished and len(out_order) == len(session.players) - 1
    assert list(outcome.standings) == [*outcome.winners, *reversed(out_order)]


def test_the_out_line_names_the_players_in_the_order_they_went_out() -> None:
    """First out first, as the places count them (the runner-up went out last), not by seat."""
    path = Path(__file__).parents[1] / "examples" / "liars-dice-night.toml"
    state = storage.load(path).state
    lines = [line.plain for line in card_text(state, "night", 40)]
    standings = ld.outcome(state).standings
    assert "out: Dee, Fay, Bob, Ann, Eve" in lines
    assert standings[1:] == ("Eve", "Ann", "Bob", "Fay", "Dee")


def test_a_bad_ruleset_name_is_said_once() -> None:
    """The game reads `name` itself and the common check of name and description ran it again:
    the one problem was said twice."""
    from referee.errors import RulesetError

    with pytest.raises(RulesetError) as refused:
        ld.Rules.from_table({**storage.load_ruleset("liars-dice"), "name": "x\x1b[2J"})
    assert str(refused.value).count("name must be one line of printable text") == 1


@pytest.mark.parametrize(
    "names",
    [
        {"Ann": "安妮", "Bob": "鲍勃鲍勃", "Cy": "罗莎罗莎罗"},
        {"Ann": "\u2764\ufe0f" * 5, "Bob": "e\u0301" * 8},
    ],
    ids=["cjk", "emoji"],
)
def test_each_players_dice_start_in_one_column_with_wide_names(names: dict[str, str]) -> None:
    """Padded by characters, a name of wide characters moved that player's dice."""
    from rich.cells import cell_len

    from referee.games.liars.card import columns

    for state in example_states("liars", names):
        rows = [t.plain for t in columns(state, 40)[0]]
        starts = {cell_len(r[: r.index(" [") if " [" in r else r.rindex(" o")]) for r in rows}
        assert len(starts) == 1, rows


# Moved from the shared notation fuzzer: this game's own notation prints and parses back.
NAMES = (
    st.text(alphabet="AaBbČč Zz-'", min_size=1, max_size=12)
    .map(str.strip)
    .filter(lambda n: n and "=" not in n and not n.startswith("-"))
)


@given(st.lists(st.tuples(NAMES, st.lists(st.integers(1, 6), max_size=6).map(
    lambda d: tuple(sorted(d)))), min_size=1, max_size=5))  # fmt: skip
def test_hands_print_and_parse_back(hands: list[tuple[str, tuple[int, ...]]]) -> None:
    value = Hands(tuple(hands))
    assert Hands.parse(str(value)) == value


@pytest.mark.parametrize(
    ("call", "count", "held", "right"),
    [
        ("call", "4", False, True),  # fewer than five threes: the caller was right
        ("call", "5", True, False),
        ("exact", "5", True, True),  # exactly five: a right calza
        ("exact", "6", False, False),  # a wrong calza: held is false, and so is right
    ],
)
def test_a_call_s_facts_say_whether_the_caller_was_right(
    referee: Runner, call: str, count: str, held: bool, right: bool
) -> None:
    import json

    assert referee("new", "liars", "Ann", "Bob", "Cy", "--ruleset", "perudo").code == 0
    assert referee("ld", "bid", "5x3").code == 0
    assert referee("ld", call, count).code == 0
    fact = json.loads(referee("log", "--json").out)[-1]["facts"][0]
    assert fact["kind"] == "counted" and fact["exact"] is (call == "exact")
    assert (fact["held"], fact["right"]) == (held, right)


@pytest.mark.parametrize("direction", ["left", "right"])
def test_the_order_line_names_a_16_character_player_on_turn(
    referee: Runner, direction: str
) -> None:
    """The first name at most 16 characters: the order line says it, however long the table."""
    table = ["Alexandrabrandts", *[f"P{k}" for k in range(11)]]
    assert referee("new", "liars", *table, "--direction", direction).code == 0
    line = next(ln for ln in referee("show").out.splitlines() if ln.startswith("play goes"))
    way = "down" if direction == "left" else "up"
    assert line.startswith(f"play goes {way}: Alexandrabrandts, P") and len(line) <= 40


@pytest.mark.parametrize(
    ("new", "apart"),
    [
        (["mia", "Alexander Brandt", "Alexander Braun", *[f"P{k}" for k in range(18)]],
         ["Alexander…t", "Alexander…n"]),
        (["liars", "Alexander Brandt=Al", "Alexander Brandy=Bo", *[f"P{k}" for k in range(10)]],
         ["Alexander Br…l)", "Alexander Br…o)"]),
    ],
)  # fmt: skip
def test_names_cut_on_a_folded_table_stay_apart(
    referee: Runner, new: list[str], apart: list[str]
) -> None:
    """Two names cut alike ('Alexander B…' twice) told nobody which was which: each keeps the
    end that tells it apart."""
    assert referee("new", *new).code == 0
    shown = referee("show").out
    assert all(cut in shown for cut in apart), shown
    assert max(len(ln) for ln in shown.splitlines()) <= 40


def test_the_order_line_names_two_players_when_the_short_words_let_it(referee: Runner) -> None:
    """A long name on turn left `play goes up the list: Alexandrabrandts, …`, one name."""
    names = ["Alexandrabrandts", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
    out = referee("new", "liars", *names, "--name", "long").out.splitlines()
    assert "play goes up: Alexandrabrandts, Ivy, …" in out
    names[-1] = "Bartholomewsmith"
    out = referee("new", "liars", *names, "--name", "longer").out.splitlines()
    assert "play goes up: Alexandrabrandts, …" in out  # "up the list:" named nobody
    out = referee("new", "liars", "Ann", *names[1:], "--name", "ann").out.splitlines()
    assert "play goes up: Ann, Bartholomewsmith, …" in out
    out = referee("new", "liars", "Annabelle", *names[1:], "--name", "belle").out.splitlines()
    assert "play goes up the list: Annabelle, …" in out  # "up:" names no more


def test_a_name_too_wide_for_the_order_line_is_cut_not_left_out(referee: Runner) -> None:
    """Sixteen wide characters on turn left `play goes up: …`, naming nobody."""
    wide = "王小明王小明王小明王小明王小明王"
    names = [wide, "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
    out = referee("new", "liars", *names, "--name", "wide").out.splitlines()
    assert "play goes up the list: 王小明王小明…, …" in out


def test_a_finished_game_names_everyone_out_in_order(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finished card said `out (19): Tom, Quin, Ned, Kim, Hal, …`: the runner-up was never
    on it, at any width, though the card was four lines."""
    monkeypatch.setenv("COLUMNS", "40")
    names = [f"Player{k:02d}" for k in range(20)]
    assert referee("new", "liars", *names, "--name", "done").code == 0
    for name in reversed(names[1:]):
        assert referee("liars", "leave", name).code == 0
    shown = referee("show").out.splitlines()
    out = shown[shown.index(next(line for line in shown if line.startswith("out: "))) :]
    said = " ".join(line.strip() for line in out[:6])
    assert said.startswith("out: Player19, Player18,") and "Player01" in said and "…" not in said
    assert max(len(line) for line in shown) <= 40
