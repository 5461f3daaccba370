"""Kariki rules (RULES.md section 2), as tables of short games.

Each case is a script of `Player action arg` lines played from a fresh table; the test checks
berries (with causes), whose turn it is, and what is refused.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from referee.errors import NotationError, RuleViolation, UsageError
from referee.games.base import Outcome, PlayerInfo
from referee.games.kariki import engine as k
from referee.notation.dice import Rank, Roll, parse_rank

C = k.Cause


def table(players: str = "Ann Bob Cy Dee", **rules: Any) -> k.State:
    """A fresh table; `buy_in` and `loss_value` are in whole units, as a ruleset says them."""
    base = k.Rules(slash_rules=(k.SlashRule("drop", "dropped dice", 10), k.SlashRule("mug", "m")))
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    money = {key: round(rules.pop(key) * 100) for key in ("buy_in", "loss_value") if key in rules}
    fields["stakes"] = dataclasses.replace(
        base.stakes, stake=money.get("buy_in", 100), loss_value=money.get("loss_value", 0)
    )
    fields.update(rules)
    options: dict[str, object] = {"first": players.split()[0]}
    if "direction" in rules:
        options["direction"] = fields.pop("direction")
    people = [PlayerInfo(n) for n in players.split()]
    built = k.Rules(**fields)
    return k.start(built, people, k.options_from_table(options, people, built))


def event(line: str) -> k.Event:
    who, action, *rest = line.split()
    arg = " ".join(rest)
    match action:
        case "claim":
            return k.Claim(who, parse_rank(arg))
        case "kariki":
            return k.ShowKariki(who)
        case "roll":
            return k.TakeMug(who)
        case "pull":
            return k.Pull(who, Roll.parse(arg))
        case "pass":
            return k.Pass(who)
        case "slash":
            return k.Slash(who, count=int(arg or 1))
        case "buyback":
            return k.BuyBack(who)
    raise AssertionError(line)


def play(script: str, state: k.State | None = None, **rules: Any) -> k.State:
    state = state or table(**rules)
    for line in filter(None, (x.strip() for x in script.split(";"))):
        state = k.apply(state, event(line))
    return state


def berries(state: k.State) -> dict[str, list[str]]:
    return {s.name: [c.value for c in s.berries] for s in state.seats if s.berries}


def turn(state: k.State) -> str:
    return state.seats[state.turn].name


def said(state: k.State) -> str:
    from referee.games.kariki.words import words

    return words(state.ruling)


# ------------------------------------------------------------------ claims and pulls

PULLS = [
    pytest.param("Ann claim 9; Bob pull 4-5", {"Bob": ["false accusation"]}, "Ann", id="true"),
    pytest.param("Ann claim 9; Bob pull 3-6", {"Bob": ["false accusation"]}, "Ann", id="same-sum"),
    pytest.param("Ann claim 9; Bob pull 6-6", {"Bob": ["false accusation"]}, "Ann", id="downplay"),
    pytest.param("Ann claim 9; Bob pull 2-6", {"Ann": ["lie"]}, "Bob", id="lie"),
    pytest.param(
        "Ann claim 66; Bob pull 1-2", {"Bob": ["false accusation"]}, "Ann", id="hidden-1-2"
    ),
    pytest.param("Ann claim 4; Bob pull 1-3", {"Bob": ["false accusation"]}, "Ann", id="lowest"),
]


@pytest.mark.parametrize(("script", "expected", "starter"), PULLS)
def test_pulls(script: str, expected: dict[str, list[str]], starter: str) -> None:
    state = play(script)
    assert berries(state) == expected
    assert turn(state) == starter  # the player without the berry rolls fresh
    assert state.phase is k.Phase.ROLL and state.claim is None


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        pytest.param("Ann claim 9; Bob pull 4-5", {"Bob": ["false accusation"]}, id="exact"),
        pytest.param("Ann claim 9; Bob pull 6-6", {"Ann": ["lie"]}, id="downplay-is-a-lie"),
    ],
)
def test_truth_exact(script: str, expected: dict[str, list[str]]) -> None:
    assert berries(play(script, truth=k.Truth.EXACT)) == expected


CLAIMS_REFUSED = [
    pytest.param("Ann claim 9; Bob roll; Bob claim 8", "must match or beat 'Nine'", id="below"),
    pytest.param("Ann claim 9; Bob claim 8", "must match or beat 'Nine'", id="responder-below"),
    pytest.param("Ann claim kariki", "never claimed", id="spoken-kariki"),
    pytest.param("Ann claim 9; Bob roll; Bob claim 12", "never claimed", id="spoken-after-roll"),
    pytest.param("Bob claim 9", "Ann's turn", id="out-of-turn"),
    pytest.param("Ann claim 9; Cy pull 45", "Bob's turn", id="pull-out-of-turn"),
    pytest.param("Ann pull 4-5", "no claim to pull", id="pull-no-claim"),
    pytest.param("Ann pass", "no claim to pass", id="pass-no-claim"),
    pytest.param("Ann roll", "already has the mug", id="roll-own-mug"),
    pytest.param("Ann claim 9; Bob roll; Bob pull 45", "no claim to pull", id="pull-after-roll"),
]


@pytest.mark.parametrize(("script", "reason"), CLAIMS_REFUSED)
def test_refused_actions(script: str, reason: str) -> None:
    *before, last = script.split(";")
    state = play(";".join(before))
    with pytest.raises(RuleViolation, match=reason):
        k.apply(state, event(last))


def test_match_or_beat_accepts_an_equal_claim_and_strict_refuses_it() -> None:
    assert play("Ann claim 9; Bob roll; Bob claim 4-5").claim is Rank.NINE
    with pytest.raises(RuleViolation, match="must beat 'Nine'"):
        play("Ann claim 9; Bob roll; Bob claim 9", raise_rule=k.Raise.STRICT)
    assert play("Ann claim 9; Bob roll; Bob claim 10", raise_rule=k.Raise.STRICT).claim is Rank.TEN


def test_responder_claim_means_he_rolled() -> None:
    state = play("Ann claim 9; Bob claim 10")
    assert (state.claim, turn(state), state.seats[state.roller or 0].name) == (
        Rank.TEN,
        "Cy",
        "Bob",
    )


def test_illegal_claim_berry_mode_costs_a_berry_and_changes_nothing_else() -> None:
    state = play("Ann claim 9; Bob roll; Bob claim 8", illegal_claim=k.IllegalClaim.BERRY)
    assert berries(state) == {"Bob": ["illegal claim"]}
    assert (turn(state), state.phase, state.claim) == ("Bob", k.Phase.ROLL, Rank.NINE)


# ------------------------------------------------------------------ pass chains

CHAINS = [
    pytest.param("Ann claim 9; Bob pass; Cy pull 2-6", {"Bob": ["lie"]}, "Cy", id="passer-answers"),
    pytest.param("Ann claim 9; Bob pass; Cy pull 4-5", {"Cy": ["false accusation"]}, "Bob",
                 id="passer-was-right"),
    pytest.param("Ann claim 9; Bob pass; Cy pass; Dee pull 3-4", {"Cy": ["lie"]}, "Dee",
                 id="last-passer-answers"),
    pytest.param("Ann claim 9; Bob pass; Cy pass; Dee pass; Ann pull 3-4", {"Dee": ["lie"]}, "Ann",
                 id="roller-pulls-own-lie"),
    pytest.param("Ann claim 9; Bob pass; Cy pass; Dee pass; Ann pull 4-5",
                 {"Ann": ["false accusation"]}, "Dee", id="roller-pulls-own-truth"),
    pytest.param("Ann claim 9; Bob pass; Cy pass; Dee pass; Ann pass; Bob pull 3-4",
                 {"Ann": ["lie"]}, "Bob", id="final-pass-then-lie"),
    pytest.param("Ann claim 9; Bob pass; Cy pass; Dee pass; Ann pass; Bob pull 5-5",
                 {"Bob": ["false accusation"]}, "Ann", id="final-pass-then-truth"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "expected", "starter"), CHAINS)
def test_pass_chains(script: str, expected: dict[str, list[str]], starter: str) -> None:
    state = play(script)
    assert berries(state) == expected
    assert turn(state) == starter


def test_chain_back_at_the_roller_allows_only_pull_or_final_pass() -> None:
    state = play("Ann claim 9; Bob pass; Cy pass; Dee pass")
    assert (turn(state), k.choices(state)) == ("Ann", ("pull", "pass"))
    with pytest.raises(RuleViolation, match="came back to Ann"):
        k.apply(state, k.TakeMug("Ann"))
    with pytest.raises(RuleViolation, match="came back to Ann"):
        k.apply(state, k.Claim("Ann", Rank.TEN))


def test_after_the_final_pass_the_first_passer_may_not_pass_again() -> None:
    state = play("Ann claim 9; Bob pass; Cy pass; Dee pass; Ann pass")
    assert (turn(state), state.final_pass, k.choices(state)) == ("Bob", True, ("roll", "pull"))
    with pytest.raises(RuleViolation, match="nobody passes twice"):
        k.apply(state, k.Pass("Bob"))
    rolled = play("Bob roll; Bob claim 10", state)
    assert (rolled.claim, turn(rolled)) == (Rank.TEN, "Cy")


def test_two_players_chain() -> None:
    state = play("Ann claim 9; Bob pass", table("Ann Bob"))
    assert (turn(state), k.choices(state)) == ("Ann", ("pull", "pass"))
    state = play("Ann pass; Bob pull 2-2", state)
    assert berries(state) == {"Bob": ["false accusation"]}


def test_direction_right() -> None:
    state = play("Ann claim 9", direction="right")
    assert turn(state) == "Dee"
    assert turn(play("Dee pass", state)) == "Cy"


def test_out_players_are_skipped_playing_right() -> None:
    state = play("Cy slash 15; Dee claim 9", table("Dee Ann Bob Cy", direction="right"))
    assert state.seats[3].out
    assert turn(state) == "Bob"  # right of Dee is Cy, who is out


def test_a_kariki_berry_skips_a_player_who_is_out() -> None:
    state = play("Bob slash 15; Ann kariki")
    assert berries(state)["Cy"] == ["kariki"]


# ------------------------------------------------------------------ Kariki and crowns


def test_kariki_crowns_the_roller_and_berries_the_next() -> None:
    state = play("Ann kariki")
    assert state.seats[0].crowns == 1
    assert berries(state) == {"Bob": ["kariki"]}
    assert (turn(state), state.claim) == ("Ann", None)


def test_after_kariki_starter_victim() -> None:
    assert turn(play("Ann kariki", after_kariki_starter=k.Starter.VICTIM)) == "Bob"


def test_kariki_after_taking_the_mug() -> None:
    state = play("Ann claim 9; Bob kariki")
    assert berries(state) == {"Cy": ["kariki"]}
    assert state.seats[1].crowns == 1


def test_every_third_crown_hangs_a_berry_on_each_other_player() -> None:
    state = play("Ann kariki; Ann kariki")
    assert berries(state) == {"Bob": ["kariki", "kariki"]}
    state = play("Ann kariki", state)
    assert berries(state) == {
        "Bob": ["kariki", "kariki", "kariki", "crowns"],
        "Cy": ["crowns"],
        "Dee": ["crowns"],
    }
    state = play("Ann kariki; Ann kariki; Ann kariki", state)  # the 6th crown: again
    assert state.seats[1].out  # Bob's 5th berry: later Karikis hit Cy, the next one still in
    assert berries(state)["Cy"] == ["crowns", "kariki", "kariki", "crowns"]
    assert berries(state)["Dee"] == ["crowns", "crowns"]


def test_crown_hits_roller_and_threshold_keys() -> None:
    state = play("Ann kariki; Ann kariki", crown_threshold=2, crown_hits_roller=True)
    assert berries(state)["Ann"] == ["crowns"]
    assert berries(state)["Cy"] == ["crowns"]


# ------------------------------------------------------------------ slashes

SLASHES = [
    pytest.param(k.Slash("Bob"), 1, [], id="one"),
    pytest.param(k.Slash("Bob", count=3), 0, ["slashes"], id="three-make-a-berry"),
    pytest.param(k.Slash("Bob", count=7), 1, ["slashes", "slashes"], id="seven"),
    pytest.param(k.Slash("Bob", "drop", seconds=1), 1, [], id="drop-1s"),
    pytest.param(k.Slash("Bob", "drop", seconds=9), 1, [], id="drop-9s"),
    pytest.param(k.Slash("Bob", "drop", seconds=10), 1, [], id="drop-10s-is-one"),
    pytest.param(k.Slash("Bob", "drop", seconds=11), 2, [], id="drop-11s-started"),
    pytest.param(k.Slash("Bob", "drop", seconds=20), 2, [], id="drop-20s-is-two"),
    pytest.param(k.Slash("Bob", "dr", seconds=25), 0, ["slashes"], id="drop-25s-prefix"),
]


@pytest.mark.parametrize(("slash", "tally", "expected"), SLASHES)
def test_slashes(slash: k.Slash, tally: int, expected: list[str]) -> None:
    state = k.apply(table(), slash)
    assert state.seats[1].slashes == tally
    assert [c.value for c in state.seats[1].berries] == expected


def test_slashes_per_berry_key() -> None:
    state = k.apply(table(slashes_per_berry=2), k.Slash("Bob", count=2))
    assert berries(state) == {"Bob": ["slashes"]}


@pytest.mark.parametrize(
    "slash",
    [
        pytest.param(k.Slash("Bob", "nope"), id="unknown-rule"),
        pytest.param(k.Slash("Bob", "mug", seconds=4), id="seconds-on-untimed-rule"),
        pytest.param(k.Slash("Bob", "drop", seconds=4, count=1), id="both"),
        pytest.param(k.Slash("Bob", count=0), id="zero"),
        pytest.param(k.Slash("Bob", "drop", seconds=-1), id="negative"),
        pytest.param(k.Slash("Bob", "drop", seconds=0), id="a-die-no-second-down"),  # RULES: 1-10
    ],
)
def test_bad_slashes(slash: k.Slash) -> None:
    with pytest.raises(UsageError):
        k.apply(table(), slash)


# ------------------------------------------------------------------ going out, winning, buying back


def near_out(players: str = "Ann Bob Cy Dee", who: str = "Bob", **rules: Any) -> k.State:
    return play(f"{who} slash 12", table(players, **rules))  # 4 berries: in the poo


def test_in_the_poo_at_four_berries() -> None:
    state = near_out()
    assert state.in_poo(state.seats[1]) and "in the poo" in said(state)


def test_out_at_the_berry_limit_and_skipped_everywhere() -> None:
    state = play("Ann claim 9; Bob pull 4-5", near_out())
    assert state.seats[1].out and state.bartender == "Bob"
    assert "Bob is OUT (bartender/DJ)" in said(state)
    state = play("Ann claim 9", state)
    assert turn(state) == "Cy"  # Bob is skipped
    with pytest.raises(RuleViolation, match="Bob is out"):
        k.apply(state, k.Slash("Bob"))


def test_berry_limit_key() -> None:
    state = play("Ann claim 9; Bob pull 4-5", table(berry_limit=1))
    assert state.seats[1].out


def test_elimination_of_the_answering_passer_voids_the_claim() -> None:
    state = play("Ann claim 9; Bob pass; Bob slash 15")
    assert state.seats[1].out
    assert (turn(state), state.phase, state.claim) == ("Cy", k.Phase.ROLL, None)


def test_elimination_of_a_bystander_mid_chain_keeps_the_chain() -> None:
    state = play("Ann claim 9; Bob pass; Dee slash 15")
    assert state.seats[3].out
    assert (turn(state), state.claim, state.responsible) == ("Cy", Rank.NINE, 1)
    state = play("Cy pass", state)
    assert turn(state) == "Ann"  # Dee is skipped: the chain is back at the roller


def test_winner_takes_the_pot_and_the_game_stops() -> None:
    state = play("Ann claim 9; Bob pull 4-5", near_out("Ann Bob"))
    assert (state.winner, state.shown_phase, state.pot) == ("Ann", k.Phase.OVER, 200)
    assert "Ann wins the pot of 2" in said(state)
    with pytest.raises(RuleViolation, match="game is over"):
        k.apply(state, k.Claim("Ann", Rank.NINE))


def test_buyback_costs_the_pot_and_returns_in_the_poo() -> None:
    state = play("Ann claim 9; Bob pull 4-5; Bob buyback", near_out())
    bob = state.seats[1]
    assert (bob.out, len(bob.berries), bob.buyback_used, state.pot) == (False, 4, True, 800)
    assert state.bartender == "Bob"  # going out first still pours the drinks


def test_buyback_revives_a_finished_game() -> None:
    state = play("Ann claim 9; Bob pull 4-5", near_out("Ann Bob"))
    assert state.winner == "Ann"
    state = play("Bob buyback", state)
    assert (state.winner, state.pot, turn(state)) == (None, 400, "Ann")


@pytest.mark.parametrize(
    ("script", "reason", "rules"),
    [
        pytest.param("Bob buyback", "not out", {}, id="not-out"),
        pytest.param("Ann claim 9; Bob pull 4-5; Ann claim 9; Bob buyback", "went out earlier",
                     {}, id="too-late"),
        pytest.param("Ann claim 9; Bob pull 4-5; Bob buyback", "off", {"buyback": False},
                     id="key-off"),
    ],
)  # fmt: skip
def test_buyback_refused(script: str, reason: str, rules: dict[str, Any]) -> None:
    *before, last = script.split(";")
    state = play(";".join(before), near_out(**rules))
    with pytest.raises(RuleViolation, match=reason):
        k.apply(state, event(last))


def test_buyback_only_once() -> None:
    state = play("Ann claim 9; Bob pull 4-5; Bob buyback; Ann claim 9; Bob pull 4-5", near_out())
    with pytest.raises(RuleViolation, match="once per game"):
        k.apply(state, k.BuyBack("Bob"))


# ------------------------------------------------------------------ the ruleset


def test_ruleset_reports_every_problem_at_once() -> None:
    from referee.errors import RulesetError

    with pytest.raises(RulesetError) as caught:
        k.Rules.from_table({"raise": "sometimes", "berry_limit": 0, "truth": 3, "colour": "red"})
    message = str(caught.value)
    for part in ("raise must be one of", "berry_limit must be from 1 to 99", "truth", "'colour'"):
        assert part in message


@pytest.mark.parametrize(
    ("seconds", "refused"),
    [
        pytest.param({"seconds_per_slash": 0}, True, id="zero"),
        pytest.param({"seconds_per_slash": 1}, False, id="one"),
        pytest.param({}, False, id="left-out-counted"),
    ],
)
def test_a_timed_slash_rule_takes_at_least_a_second_a_slash(
    seconds: dict[str, int], refused: bool
) -> None:
    """0 seconds a slash read as no timing at all, so a 12-second drop was 12 slashes."""
    from referee.errors import RulesetError

    table = {"slash_rules": {"drop": {"text": "dropped dice", **seconds}}}
    if refused:
        with pytest.raises(RulesetError, match="seconds_per_slash must be from 1"):
            k.Rules.from_table(table)
    else:
        assert k.Rules.from_table(table).slash_rule("drop") is not None


def test_stored_events_round_trip() -> None:
    events: list[k.Event] = [
        k.Claim("Ann", Rank.NINE), k.ShowKariki("Ann"), k.TakeMug("Bob"),
        k.Pull("Bob", Roll(4, 5)), k.Pass("Cy"), k.Slash("Dee", "drop", seconds=12),
        k.Slash("Dee", count=2), k.BuyBack("Dee"),
    ]  # fmt: skip
    for e in events:
        assert k.GAME.event_from_dict(k.GAME.event_to_dict(e)) == e


# ------------------------------------------------------------ rulings a real night found wrong


def test_the_player_facing_a_claim_going_out_hands_it_on() -> None:
    state = play("Bob slash 12; Ann claim 9; Bob slash 3")
    assert state.seats[1].out
    assert (turn(state), state.phase, state.claim) == ("Cy", k.Phase.RESPOND, Rank.NINE)
    assert state.seats[state.responsible or 0].name == "Ann"
    assert "Cy faces Nine, Ann answers" in said(state)


def test_the_roller_going_out_after_passes_keeps_the_chain() -> None:
    state = play("Ann slash 12; Ann claim 9; Bob pass; Cy pass; Ann slash 3")
    assert state.seats[0].out and turn(state) == "Dee" and state.claim is Rank.NINE
    assert state.seats[state.responsible or 0].name == "Cy"
    # when the choice comes back round, the first passer still in must roll or pull
    state = play("Dee pass", state)
    assert turn(state) == "Bob" and k.choices(state) == ("roll", "pull")
    assert state.seats[state.responsible or 0].name == "Dee"
    with pytest.raises(RuleViolation, match="nobody passes twice"):
        play("Bob pass", state)
    assert berries(play("Bob pull 2-6", state)) == {"Ann": [C.SLASHES.value] * 5, "Dee": ["lie"]}


def test_the_roller_out_when_the_chain_is_back_sends_it_to_the_first_passer() -> None:
    state = play("Ann slash 12; Ann claim 9; Bob pass; Cy pass; Dee pass")
    assert turn(state) == "Ann" and k.choices(state) == ("pull", "pass")
    state = play("Ann slash 3", state)
    assert turn(state) == "Bob" and k.choices(state) == ("roll", "pull", "buyback")
    assert state.seats[state.responsible or 0].name == "Dee"


def test_the_player_answering_going_out_voids_the_claim_and_says_so() -> None:
    state = play("Bob slash 12; Ann claim 9; Bob pass; Bob slash 3")
    assert (turn(state), state.phase, state.claim) == ("Cy", k.Phase.ROLL, None)
    assert "Bob answered for the claim: it is void, Cy rolls fresh" in said(state)


def test_two_players_out_in_one_event_may_both_buy_back() -> None:
    rules = {"berry_limit": 2, "crown_threshold": 1}
    state = play("Bob slash 3; Cy slash 3; Ann kariki", table("Ann Bob Cy", **rules))
    assert [s.out for s in state.seats] == [False, True, True]
    assert state.winner == "Ann" and "unless Bob or Cy buys back" in said(state)
    state = play("Bob buyback", state)
    assert not state.is_over and state.buyback_open == (2,)
    state = play("Cy buyback", state)
    assert [s.out for s in state.seats] == [False, False, False] and state.pot == 3 * 2 * 200
    assert [state.paid(s) for s in state.seats] == [100, 400, 700]


def test_slashes_count_only_the_berries_hung_and_die_with_the_player() -> None:
    state = play("Bob slash 12; Bob slash 7")
    bob = state.seats[1]
    assert bob.out and bob.slashes == 0 and len(bob.berries) == 5
    assert said(state).startswith("7 slashes: a berry for Bob; Bob is OUT")


def test_a_player_out_twice_is_announced_once_and_stays_bartender() -> None:
    state = play("Bob slash 15; Bob buyback; Cy slash 15; Bob slash 3")
    assert said(state).count("Bob is OUT") == 1 and "bartender" not in said(state)
    assert state.out_order == (1, 2) and state.bartender == "Bob"


def test_berries_of_one_event_stop_when_one_player_stands() -> None:
    rules = {"berry_limit": 1, "crown_threshold": 1, "crown_hits_roller": True}
    state = play("Ann kariki", table("Ann Bob", **rules))
    assert state.winner == "Ann" and not state.seats[0].out
    state = play("Ann kariki", table("Ann Bob Cy", berry_limit=2, crown_threshold=1,
                                     crown_hits_roller=True))  # fmt: skip
    assert [len(s.berries) for s in state.seats] == [1, 2, 1]  # K to Bob, then Bob, Cy, Ann
    assert [s.out for s in state.seats] == [False, True, False]


def test_strict_raises_refuse_taking_the_mug_over_double_sixes() -> None:
    state = play("Ann claim 66", raise_rule=k.Raise.STRICT)
    assert k.choices(state) == ("pull", "pass")
    said_for = {  # all three take the mug, each refusal in its own words
        "Bob roll": "nothing but a shown Kariki beats 'Double Sixes' under strict raises",
        "Bob claim 66": "Bob cannot take the mug over 'Double Sixes' under strict raises, so"
        " claims nothing",
        "Bob kariki": "Bob cannot take the mug over 'Double Sixes' under strict raises, so"
        " shows no Kariki",
    }
    for line, words in said_for.items():
        with pytest.raises(RuleViolation) as refused:
            play(line, state)
        assert str(refused.value) == f"{words}: pull or pass"
    assert said(play("Bob pass", state)) == "Bob passes and answers for Double Sixes"


def test_a_buyback_is_offered_with_its_price_and_the_win_is_provisional() -> None:
    state = play("Bob slash 12; Ann claim 9; Bob pull 4-5", table("Ann Bob"))
    assert said(state) == (
        "Bob pulls 4-5 (Nine) on Nine: true, a berry for Bob; Bob is OUT (bartender/DJ), may"
        " buy back for 2; Ann wins the pot of 2 unless Bob buys back for 2"
    )
    doc = k.summary(state)
    assert doc["buyback_open"] == ["Bob"] and k.outcome(state).provisional
    players = doc["players"]
    assert isinstance(players, list) and [p["paid"] for p in players] == [100, 100]
    state = play("Bob buyback", state)
    assert not k.outcome(state).finished and k.summary(state)["buyback_open"] == []


def test_a_kariki_shown_by_the_responder_says_he_took_the_mug() -> None:
    state = play("Ann claim 9; Bob kariki")
    assert said(state) == "Bob takes the mug and shows KARIKI: a crown; Cy gets a berry"


# ------------------------------------------------- issue 19: a night that ends, and no hole left


def over_with_offer() -> k.State:
    """Ann and Bob; Bob goes out on a true Nine and may buy back: Ann leads."""
    return play("Bob slash 12; Ann claim 9; Bob pull 4-5", table("Ann Bob"))


def test_settle_closes_the_offer_and_the_winner_takes_the_pot() -> None:
    state = over_with_offer()
    assert k.outcome(state).provisional and k.summary(state)["pot_to"] is None
    state = k.apply(state, k.Settle())
    assert said(state) == "Bob did not buy back: Ann wins the pot of 2"
    assert k.outcome(state) == Outcome(True, ("Ann",), ("Ann", "Bob"), places=(1, 2))
    assert k.outcome(state).status == "finished"
    assert (k.summary(state)["pot_to"], k.summary(state)["buyback_open"]) == ("Ann", [])
    assert k.legal_actions(state) == ()
    for late in (k.BuyBack("Bob"), k.Settle(), k.Claim("Ann", Rank.NINE)):
        with pytest.raises(RuleViolation, match="the game is over: Ann won"):
            k.apply(state, late)


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        pytest.param("", "no buy-back is on offer", id="fresh-table"),
        pytest.param("Bob slash 15", "3 players still stand; the offer to Bob", id="mid-night"),
        pytest.param("Bob slash 15; Bob buyback; Cy slash 15; Dee slash 15; Bob slash 3",
                     "the game is over: Ann won", id="over-with-nothing-on-offer"),
    ],
)  # fmt: skip
def test_settle_is_refused_when_no_offer_ends_the_night(script: str, reason: str) -> None:
    state = play(script)
    with pytest.raises(RuleViolation, match=re.escape(reason)):
        k.apply(state, k.Settle())


def test_a_night_over_with_nothing_on_offer_is_finished_without_settle() -> None:
    state = play("Bob slash 15; Bob buyback; Cy slash 15; Dee slash 15; Bob slash 3")
    assert k.outcome(state).status == "finished" and state.pot_to == "Ann"


def test_settle_round_trips_as_a_stored_event() -> None:
    assert k.GAME.event_to_dict(k.Settle()) == {"type": "settle"}
    assert k.GAME.event_from_dict({"type": "settle"}) == k.Settle()
    with pytest.raises(NotationError, match="unknown fields: by"):
        k.GAME.event_from_dict({"type": "settle", "by": "Ann"})


def test_a_buyback_after_the_final_pass_leaves_the_choice_with_the_first_passer() -> None:
    state = play(
        "Bob slash 12; Cy slash 12; Ann claim 9; Bob pass; Cy pass; Ann pass; Bob slash 3;"
        " Bob buyback; Cy slash 3",
        table("Ann Bob Cy"),
    )
    assert (turn(state), k.choices(state)) == ("Bob", ("roll", "pull", "buyback"))
    assert state.seats[state.responsible or 0].name == "Ann"  # the roller answers again
    with pytest.raises(RuleViolation, match="it is Bob's turn"):
        k.apply(state, k.Pull("Ann", Roll(4, 5)))  # Ann may not pull her own Nine
    assert berries(play("Bob pull 2-6", state))["Ann"] == ["lie"]


def test_a_claim_voided_by_the_event_that_ends_the_game_stays_void_after_a_buyback() -> None:
    state = play("Ann slash 12; Ann claim 9; Ann slash 3", table("Ann Bob"))
    assert state.winner == "Bob" and k.outcome(state).provisional
    state = play("Ann buyback", state)
    assert (turn(state), state.phase, state.claim) == ("Bob", k.Phase.ROLL, None)
    assert k.choices(state) == ("claim", "kariki")


def test_the_player_facing_a_claim_who_ends_the_game_faces_it_again_after_a_buyback() -> None:
    state = play("Bob slash 12; Ann claim 9; Bob slash 3; Bob buyback", table("Ann Bob"))
    assert (turn(state), state.phase, state.claim) == ("Bob", k.Phase.RESPOND, Rank.NINE)


def test_places_follow_the_last_time_out() -> None:
    state = play("Bob slash 15; Bob buyback; Cy slash 15; Bob slash 3; Dee slash 15")
    result = k.outcome(state)
    assert result.standings == ("Ann", "Dee", "Bob", "Cy")  # Bob went out after Cy, the 2nd time
    assert result.places == (1, 2, 3, 4) and state.bartender == "Bob"


def test_players_out_in_one_event_share_a_place() -> None:
    state = play("Dee slash 6; Bob slash 3; Cy slash 3; Ann kariki",
                 table(berry_limit=2, crown_threshold=1))  # fmt: skip
    result = k.outcome(state)
    assert result.standings[0] == "Ann" and set(result.standings[1:3]) == {"Bob", "Cy"}
    assert result.standings[3] == "Dee" and result.places == (1, 2, 2, 4)


def test_two_out_in_one_event_are_each_quoted_todays_price_and_told_it_doubles() -> None:
    rules = {"berry_limit": 2, "crown_threshold": 1}
    state = play("Bob slash 3; Cy slash 3; Ann kariki", table("Ann Bob Cy", **rules))
    assert said(state) == (
        "Ann shows KARIKI: a crown; Bob gets a berry; Bob is OUT (bartender/DJ), may buy"
        " back for 3; crown 1: a berry for Cy; Cy is OUT, may buy back for 3; the price"
        " doubles after each buy-back; Ann wins the pot of 3 unless Bob or Cy buys back for 3"
    )
    after = play("Cy buyback; Bob buyback", state)
    assert [after.paid(s) for s in after.seats] == [100, 700, 400]


def test_the_ruling_says_who_goes_out_before_who_faces_the_claim() -> None:
    said_now = said(play("Bob slash 12; Ann claim 9; Bob slash 3"))
    assert said_now.index("Bob is OUT") < said_now.index("Cy faces Nine")
    said_now = said(play("Bob slash 12; Ann claim 9; Bob pass; Bob slash 3"))
    assert said_now.index("Bob is OUT") < said_now.index("it is void")


@pytest.mark.parametrize(
    ("script", "words", "roller"),
    [
        pytest.param("Ann slash 12; Ann slash 3", "Ann held the mug: Bob rolls fresh", "Bob",
                     id="fresh-mug"),
        pytest.param("Bob slash 12; Ann claim 9; Bob roll; Bob slash 3",
                     "Bob held the mug: the claim to beat (Nine) is dropped, Cy rolls fresh",
                     "Cy", id="took-the-mug"),
    ],
)  # fmt: skip
def test_the_holder_of_the_mug_going_out_drops_the_claim_and_says_who_rolls(
    script: str, words: str, roller: str
) -> None:
    state = play(script)
    assert words in said(state)
    assert (turn(state), state.phase, state.claim) == (roller, k.Phase.ROLL, None)


def test_buy_in_zero_is_a_night_without_money() -> None:
    state = play("Bob slash 12; Ann claim 9; Bob pull 4-5", table("Ann Bob", buy_in=0))
    assert state.pot == 0 and [state.paid(s) for s in state.seats] == [0, 0]
    assert said(state).endswith("Bob is OUT (bartender/DJ); Ann wins")
    assert k.outcome(state).status == "finished" and k.summary(state)["pot_to"] is None
    with pytest.raises(RuleViolation, match="game is over"):
        k.apply(state, k.BuyBack("Bob"))
    assert "paid" not in k.tally([state]).get("Ann", {})


def test_the_tally_counts_money_and_the_pot_only_once_the_night_is_finished() -> None:
    before = [play("Bob slash 15; Bob buyback; Bob slash 3; Cy slash 15; Dee slash 15")]
    assert k.outcome(before[-1]).provisional
    tally = k.tally(before)
    assert [tally[n]["paid"] for n in ("Ann", "Bob", "Cy", "Dee")] == [100, 500, 100, 100]
    assert "won" not in tally["Ann"]
    after = [*before, k.apply(before[-1], k.Settle())]
    assert k.tally(after)["Ann"]["won"] == 800 and "won" not in k.tally(after)["Bob"]


def test_stats_never_count_a_cause_with_no_berry() -> None:
    tally = k.tally([play("Bob slash 1")])
    assert tally["Bob"] == {"slashes": 1, "paid": 100}


def test_players_put_out_or_in_the_poo_by_one_event_are_said_together() -> None:
    """A third crown at twenty players said "X is in the poo" once a player, a line each on a
    phone, and named every player it hit: the ruling scrolled off a 40x24 screen."""
    from referee.games.kariki.words import words

    facts: list[k.Fact] = [
        k.WentOut("Jo", True, 2000), k.WentOut("Kim", False, 2000), k.WentOut("Lou", False, 2000),
        k.InPoo("Cy"), k.InPoo("Dee"), k.PriceDoubles(2000),
    ]  # fmt: skip
    assert words(facts) == (
        "OUT: Jo (bartender/DJ), Kim, Lou; each may buy back for 20, the price doubling after"
        " each; in the poo: Cy, Dee"
    )
    assert words([k.WentOut("Jo", False, 2000), k.WentOut("Kim", False, None)]) == (
        "OUT: Jo, Kim; may buy back for 20: Jo"
    )
    assert words([k.WentOut("Jo", False), k.WentOut("Kim", True)]) == "OUT: Jo, Kim (bartender/DJ)"
    assert words([k.WentOut("Jo", False, 100), k.WentOut("Kim", False, 200)]) == (
        "OUT: Jo, Kim; may buy back: Jo for 1, Kim for 2"
    )
    assert words([k.InPoo("Cy"), k.WentOut("Jo", False, 100), k.InPoo("Dee")]) == (
        "Cy is in the poo; Jo is OUT, may buy back for 1; Dee is in the poo"
    )
    hit = tuple(f"P{i}" for i in range(9))
    assert words([k.Crowned("Ann", 3, hit)]) == "crown 3: a berry each for 9 players"
    assert words([k.Crowned("Ann", 3, hit[:8])]) == (
        "crown 3: a berry for P0, P1, P2, P3, P4, P5, P6, P7"
    )
