"""Mia (RULES.md section 6): every rule as a table of short games, the values, odds, screens."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import NotationError, RuleViolation, UsageError
from referee.games.base import Direction, PlayerInfo
from referee.games.mia import engine as mia
from referee.games.mia.values import (
    ALL_VALUES,
    MIA,
    DoublesOrder,
    MiaValue,
    chance_at_least,
    ladder,
)
from referee.games.mia.words import words
from referee.games.roster import Join, Joined, Leave, Replace
from referee.notation.dice import ALL_ROLLS
from referee.session import money, states
from test_machines import SETTINGS, SessionMachine

DEFAULT = mia.Rules.from_table(storage.load_ruleset("mia"), "mia")
EXAMPLES = Path(__file__).parents[1] / "examples"
NIGHT = EXAMPLES / "mia-night.toml"


def table(players: str = "Ann Bob Cy", first: str = "Ann", **changes: Any) -> mia.State:
    """A fresh table with the default rules and `changes` to them; `first` rolls first."""
    rules = replace(DEFAULT, **changes)
    people = [PlayerInfo(n) for n in players.split()]
    options = mia.options_from_table({"first": first}, people, rules)
    return mia.start(rules, people, options)


def play(script: str, state: mia.State) -> mia.State:
    """`Ann 54; Bob believe; Bob 62; Cy lift 43; Ann giveup`: a bare value is an announcement."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        who, action, *rest = line.split()
        event: mia.Event
        match action:
            case "believe":
                event = mia.Believe(who)
            case "lift":
                event = mia.Lift(who, MiaValue.parse(rest[0]))
            case "giveup":
                event = mia.GiveUp(who)
            case _:
                event = mia.Announce(who, MiaValue.parse(action))
        state = mia.apply(state, event)
    return state


def screen(*args: str) -> str:
    """What a command printed, as on a screen: trailing spaces stripped, like a terminal."""
    return "".join(line.rstrip() + "\n" for line in args[0].splitlines())


def lives(state: mia.State) -> dict[str, int]:
    return {s.name: s.lives for s in state.seats}


# ------------------------------------------------------------------ values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("61", MiaValue(6, 1), id="canonical"),
        pytest.param("6-1", MiaValue(6, 1), id="dashed"),
        pytest.param("1-6", MiaValue(6, 1), id="dashed-either-order"),
        pytest.param(" 6 1 ", MiaValue(6, 1), id="spaced"),
        pytest.param("33", MiaValue(3, 3), id="double"),
        pytest.param("mia", MIA, id="mia"),
        pytest.param("MIA", MIA, id="mia-capitals"),
        pytest.param("21", MIA, id="mia-21"),
        pytest.param("2-1", MIA, id="mia-2-1"),
        pytest.param("1-2", MIA, id="mia-1-2"),
    ],
)
def test_value_spellings(text: str, value: MiaValue) -> None:
    assert MiaValue.parse(text) == value


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        pytest.param("16", "did you mean 61?", id="16"),
        pytest.param("23", "did you mean 32?", id="23"),
        pytest.param("12", "did you mean 21 (Mia)?", id="12-is-mia"),
        pytest.param("56", "did you mean 65?", id="56"),
        pytest.param("7", "give two dice high first, like 65, 33 or mia", id="7"),
        pytest.param("71", "give two dice high first", id="a-seven"),
        pytest.param("60", "give two dice high first", id="a-zero"),
        pytest.param("", "give two dice high first", id="empty"),
        pytest.param("１６", "give two dice high first", id="fullwidth"),
        pytest.param("mia mia", "give two dice high first", id="two-mias"),
        pytest.param("6" * 5000, "give two dice high first", id="very-long"),
    ],
)
def test_bad_values_are_refused_with_the_canonical_spelling(text: str, hint: str) -> None:
    with pytest.raises(NotationError, match="not a Mia value") as caught:
        MiaValue.parse(text)
    assert hint in str(caught.value) and len(str(caught.value)) < 100


@given(st.sampled_from(ALL_VALUES))
def test_values_print_and_parse_back(value: MiaValue) -> None:
    assert MiaValue.parse(str(value)) == value


@given(st.text(max_size=12))
def test_a_value_parses_or_says_why(text: str) -> None:
    with contextlib.suppress(NotationError):
        MiaValue.parse(text)


@pytest.mark.parametrize(
    ("order", "lowest_to_highest"),
    [
        pytest.param(DoublesOrder.ASCENDING,
                     "31 32 41 42 43 51 52 53 54 61 62 63 64 65 11 22 33 44 55 66 Mia",
                     id="ascending"),
        pytest.param(DoublesOrder.REVERSED,
                     "31 32 41 42 43 51 52 53 54 61 62 63 64 65 66 55 44 33 22 11 Mia",
                     id="reversed"),
    ],
)  # fmt: skip
def test_the_order_of_values(order: DoublesOrder, lowest_to_highest: str) -> None:
    assert " ".join(str(v) for v in ladder(order)) == lowest_to_highest


@pytest.mark.parametrize(
    ("value", "order", "chance"),
    [
        pytest.param("31", DoublesOrder.ASCENDING, Fraction(36, 36), id="31-every-roll"),
        pytest.param("65", DoublesOrder.ASCENDING, Fraction(10, 36), id="65"),
        pytest.param("11", DoublesOrder.ASCENDING, Fraction(8, 36), id="11-lowest-double"),
        pytest.param("11", DoublesOrder.REVERSED, Fraction(3, 36), id="11-highest-double"),
        pytest.param("66", DoublesOrder.ASCENDING, Fraction(3, 36), id="66"),
        pytest.param("mia", DoublesOrder.ASCENDING, Fraction(2, 36), id="mia"),
    ],
)
def test_odds_are_exact_fractions_of_36(value: str, order: DoublesOrder, chance: Fraction) -> None:
    assert chance_at_least(MiaValue.parse(value), order) == chance


def test_odds_match_counting_all_36_rolls() -> None:
    ordered = [MiaValue.of(r) for r in ALL_ROLLS for _ in range(1 if r.low == r.high else 2)]
    assert len(ordered) == 36
    for order in DoublesOrder:
        for value in ALL_VALUES:
            at_least = sum(1 for v in ordered if v.rank(order) >= value.rank(order))
            assert chance_at_least(value, order) == Fraction(at_least, 36)


# ------------------------------------------------------------------ announcing


@pytest.mark.parametrize(
    ("changes", "script", "refused"),
    [
        pytest.param({}, "Ann 31", None, id="a-round-opens-with-anything"),
        pytest.param({}, "Ann mia", None, id="a-round-opens-with-mia"),
        pytest.param({}, "Ann 54; Bob 61", None, id="higher"),
        pytest.param({}, "Ann 54; Bob 54", "must beat 54: 61 or more", id="equal-refused"),
        pytest.param({"equal_allowed": True}, "Ann 54; Bob 54", None, id="equal-allowed"),
        pytest.param({"equal_allowed": True}, "Ann 54; Bob 53", "must be 54 or more",
                     id="equal-not-lower"),
        pytest.param({}, "Ann 54; Bob 53", "must beat 54: 61 or more", id="lower-refused"),
        pytest.param({}, "Ann 65; Bob 11", None, id="a-double-beats-65"),
        pytest.param({}, "Ann 11; Bob 22", None, id="ascending-22-over-11"),
        pytest.param({}, "Ann 22; Bob 11", "must beat 22", id="ascending-not-11-over-22"),
        pytest.param({"doubles_order": DoublesOrder.REVERSED}, "Ann 22; Bob 11", None,
                     id="reversed-11-over-22"),
        pytest.param({"doubles_order": DoublesOrder.REVERSED}, "Ann 11; Bob 22", "must beat 11",
                     id="reversed-not-22-over-11"),
        pytest.param({"doubles_order": DoublesOrder.REVERSED}, "Ann 65; Bob 66", None,
                     id="reversed-66-still-over-65"),
        pytest.param({}, "Ann 66; Bob mia", None, id="mia-over-66"),
        pytest.param({"doubles_order": DoublesOrder.REVERSED}, "Ann 11; Bob mia", None,
                     id="reversed-mia-over-11"),
        pytest.param({}, "Ann 54; Bob believe; Bob 53", "must beat 54: 61 or more",
                     id="believer-too-low"),
        pytest.param({}, "Ann 54; Bob believe; Bob 61; Cy 62", None, id="believer-then-next"),
        pytest.param({}, "Ann mia; Bob believe", "nothing beats Mia", id="mia-not-believed"),
        pytest.param({}, "Ann mia; Bob mia", "nothing beats Mia", id="mia-not-announced-over"),
        pytest.param({"equal_allowed": True}, "Ann mia; Bob mia", "nothing beats Mia",
                     id="mia-not-matched-either"),
        pytest.param({}, "Bob 54", "Ann's turn, not Bob's", id="not-on-turn"),
        pytest.param({}, "Ann 54; Ann 61", "Bob's turn, not Ann's", id="not-twice"),
        pytest.param({}, "Ann believe", "nothing to believe", id="believe-at-the-start"),
        pytest.param({}, "Ann 54; Bob believe; Bob believe", "nothing to believe",
                     id="believe-twice"),
        pytest.param({}, "Ann lift 54", "nothing to lift", id="lift-at-the-start"),
        pytest.param({}, "Ann 54; Bob believe; Bob lift 43",
                     "^Bob believed 54: Bob rolls and announces higher$", id="lift-own-mug"),
    ],
)  # fmt: skip
def test_announcements(changes: dict[str, Any], script: str, refused: str | None) -> None:
    state = table(**changes)
    if refused is None:
        play(script, state)
        return
    *before, last = script.split(";")
    state = play(";".join(before), state)
    with pytest.raises(RuleViolation, match=refused):
        play(last, state)


def test_announcing_over_a_value_means_believing_it() -> None:
    state = play("Ann 54; Bob 61", table())
    assert words(state.ruling) == "Bob believes Ann's 54 and announces 61"
    assert (state.standing, state.turn, state.phase) == (MiaValue(6, 1), 2, mia.Phase.ANSWER)


# ------------------------------------------------------------------ challenges

CHALLENGES = [
    pytest.param({}, "Ann 54; Bob lift 43", {"Ann": 5}, "Bob", id="lie-caught-announcer-pays"),
    pytest.param({}, "Ann 54; Bob lift 54", {"Bob": 5}, "Ann", id="equal-dice-lifter-pays"),
    pytest.param({}, "Ann 54; Bob lift 66", {"Bob": 5}, "Ann", id="higher-dice-lifter-pays"),
    pytest.param({}, "Ann 11; Bob lift 65", {"Ann": 5}, "Bob", id="65-below-a-double"),
    pytest.param({"doubles_order": DoublesOrder.REVERSED}, "Ann 22; Bob lift 11", {"Bob": 5},
                 "Ann", id="reversed-11-meets-22"),
    pytest.param({}, "Ann 22; Bob lift 11", {"Ann": 5}, "Bob", id="ascending-11-below-22"),
    pytest.param({}, "Ann mia; Bob lift mia", {"Bob": 4}, "Ann", id="true-mia-costs-2"),
    pytest.param({"mia_costs": 3}, "Ann mia; Bob lift 1-2", {"Bob": 3}, "Ann",
                 id="true-mia-costs-mia-costs"),
    pytest.param({}, "Ann mia; Bob lift 66", {"Ann": 5}, "Bob", id="false-mia-costs-1"),
    pytest.param({}, "Ann mia; Bob giveup", {"Bob": 5}, "Ann", id="give-up-costs-1"),
    pytest.param({"next_starter": mia.NextStarter.LOSER}, "Ann 54; Bob lift 43", {"Ann": 5},
                 "Ann", id="loser-starts"),
    pytest.param({"next_starter": mia.NextStarter.LOSER}, "Ann mia; Bob giveup", {"Bob": 5},
                 "Bob", id="loser-starts-after-give-up"),
    pytest.param({}, "Ann 54; Bob 61; Cy lift 61", {"Cy": 5}, "Bob", id="the-believer-answers"),
    pytest.param({}, "Ann 54; Bob believe; Bob 61; Cy lift 43", {"Bob": 5}, "Cy",
                 id="the-believers-own-dice"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "script", "lost", "starter"), CHALLENGES)
def test_challenges(
    changes: dict[str, Any], script: str, lost: dict[str, int], starter: str
) -> None:
    state = play(script, table(**changes))
    assert lives(state) == {"Ann": 6, "Bob": 6, "Cy": 6, **lost}
    assert (state.name(state.turn), state.phase, state.standing) == (starter, mia.Phase.OPEN, None)
    assert state.round == 2


@pytest.mark.parametrize(
    ("script", "refused"),
    [
        pytest.param("Ann 54; Bob giveup", "give up only against Mia", id="give-up-not-vs-mia"),
        pytest.param("Ann giveup", "nothing to give up", id="give-up-at-the-start"),
        pytest.param("Ann mia; Cy giveup", "Bob's turn, not Cy's", id="give-up-not-on-turn"),
        pytest.param("Ann 54; Cy lift 43", "Bob's turn, not Cy's", id="lift-not-on-turn"),
    ],
)
def test_refused_challenges(script: str, refused: str) -> None:
    *before, last = script.split(";")
    state = play(";".join(before), table())
    with pytest.raises(RuleViolation, match=refused):
        play(last, state)


# ------------------------------------------------------------------ lives, turns, the end


@pytest.mark.parametrize(
    ("changes", "first", "script", "turn"),
    [
        pytest.param({}, "Ann", "Ann 54", "Bob", id="left-is-seat-order"),
        pytest.param({"direction": Direction.RIGHT}, "Ann", "Ann 54", "Dee",
                     id="right-against-it"),
        pytest.param({"direction": Direction.RIGHT}, "Ann", "Ann 54; Dee 61", "Cy",
                     id="right-goes-on"),
        pytest.param({}, "Dee", "Dee 54", "Ann", id="left-wraps-round"),
    ],
)  # fmt: skip
def test_direction(changes: dict[str, Any], first: str, script: str, turn: str) -> None:
    state = play(script, table("Ann Bob Cy Dee", first=first, **changes))
    assert state.name(state.turn) == turn


def test_direction_is_a_new_option_over_the_ruleset() -> None:
    people = [PlayerInfo(n) for n in ("Ann", "Bob", "Cy")]
    options = mia.options_from_table({"direction": "right"}, people, DEFAULT)
    state = play("Ann 54", mia.start(DEFAULT, people, options))
    assert state.name(state.turn) == "Cy"


def test_lives_to_zero_and_the_out_player_is_skipped() -> None:
    state = table(lives=1)
    state = play("Ann 54; Bob lift 43", state)  # Ann is out; Bob starts
    assert lives(state) == {"Ann": 0, "Bob": 1, "Cy": 1} and state.out == ("Ann",)
    assert "Ann is out" in words(state.ruling)
    state = play("Bob 54; Cy 61", state)  # after Cy comes Bob: Ann is skipped
    assert state.name(state.turn) == "Bob"
    with pytest.raises(RuleViolation, match="Ann has no lives left"):
        play("Ann lift 43", state)


def test_a_true_mia_never_takes_lives_below_zero() -> None:
    state = play("Ann mia; Bob lift mia", table("Ann Bob Cy", lives=1))
    assert lives(state)["Bob"] == 0 and state.ruling[1] == mia.LostLives("Bob", 1, 0)


@pytest.mark.parametrize(
    ("next_starter", "starter"),
    [
        pytest.param(mia.NextStarter.WINNER, "Cy", id="winner"),
        pytest.param(mia.NextStarter.LOSER, "Cy", id="out-loser-skipped-to-the-next"),
    ],
)
def test_next_starter_when_the_loser_goes_out(next_starter: mia.NextStarter, starter: str) -> None:
    state = table("Ann Bob Cy Dee", lives=1, next_starter=next_starter)
    state = play("Ann 54; Bob 61; Cy lift 43", state)  # Bob lied and is out
    assert lives(state)["Bob"] == 0 and state.name(state.turn) == starter


def test_next_starter_loser_skips_out_players_right_to_left() -> None:
    state = table("Ann Bob Cy Dee", lives=1, next_starter=mia.NextStarter.LOSER,
                  direction=Direction.RIGHT)  # fmt: skip
    state = play("Ann 54; Dee lift 54", state)  # Dee lifted the truth and is out
    assert state.name(state.turn) == "Cy"


def test_the_last_player_with_lives_wins_and_nothing_follows() -> None:
    state = play("Ann 54; Bob lift 43; Bob mia; Cy lift mia", table(lives=1))
    assert state.is_over and state.winner == "Bob" and state.phase is mia.Phase.OVER
    assert words(state.ruling).endswith("Cy is out; Bob wins")
    assert mia.outcome(state).standings == ("Bob", "Cy", "Ann")
    assert mia.legal_actions(state) == () and mia.turn(state) is None
    with pytest.raises(RuleViolation, match="the game is over: Bob won"):
        play("Bob 54", state)


@pytest.mark.parametrize(
    ("script", "actions"),
    [
        pytest.param("", ("announce", "join"), id="open"),
        pytest.param("Ann 54", ("believe", "lift", "announce"), id="answer"),
        pytest.param("Ann 54; Bob believe", ("announce",), id="believed"),
        pytest.param("Ann mia", ("lift", "giveup"), id="facing-mia"),
        pytest.param("Ann 54; Bob lift 43", ("announce", "join"), id="between-rounds"),
    ],
)
def test_legal_actions(script: str, actions: tuple[str, ...]) -> None:
    """The game's own actions, a join between rounds, and leave and replace while it is on."""
    assert mia.legal_actions(play(script, table())) == (*actions, "leave", "replace")


@pytest.mark.parametrize(
    ("table_", "problem"),
    [
        pytest.param({"lives": 0}, "lives must be from 1 to 20, not 0", id="no-lives"),
        pytest.param({"mia_costs": "2"}, "mia_costs must be a whole number", id="costs-text"),
        pytest.param({"doubles_order": "down"}, "ascending | reversed", id="order"),
        pytest.param({"next_starter": "caller"}, "winner | loser", id="starter"),
        pytest.param({"direction": "up"}, "left | right", id="direction"),
        pytest.param({"equal_allowed": 1}, "true or false", id="equal"),
    ],
)
def test_bad_rulesets_say_what_is_wrong(table_: dict[str, object], problem: str) -> None:
    from referee.errors import RulesetError

    with pytest.raises(RulesetError, match=problem):
        mia.Rules.from_table({"game": "mia", "name": "x", **table_}, "x.toml")


def test_bad_options_from_a_file() -> None:
    people = [PlayerInfo("Ann"), PlayerInfo("Bob")]
    with pytest.raises(UsageError, match="unknown first roller 'Zed'"):
        mia.options_from_table({"first": "Zed"}, people, DEFAULT)
    with pytest.raises(UsageError, match="unknown Mia options: buy_in"):
        mia.options_from_table({"buy_in": 2}, people, DEFAULT)


def test_another_games_event_is_a_refusal_not_a_crash() -> None:
    from referee.games.kariki.engine import Claim
    from referee.notation.dice import Rank

    with pytest.raises(RuleViolation, match="is not a move of this game"):
        mia.GAME.checked_apply(table(), Claim("Ann", Rank.NINE))


def test_stored_events_are_checked() -> None:
    assert mia.GAME.event_from_dict({"type": "lift", "by": "Bob", "dice": "61"}) == mia.Lift(
        "Bob", MiaValue(6, 1)
    )
    with pytest.raises(NotationError, match="did you mean 61"):
        mia.GAME.event_from_dict({"type": "announce", "by": "Ann", "value": "16"})
    with pytest.raises(NotationError, match="unknown fields: dice"):
        mia.GAME.event_from_dict({"type": "giveup", "by": "Ann", "dice": "61"})
    with pytest.raises(NotationError, match="unknown Mia event type 'bid'"):
        mia.GAME.event_from_dict({"type": "bid", "by": "Ann"})


# ------------------------------------------------------------------ the example night


def test_the_mia_night_replays_to_its_winner() -> None:
    loaded = storage.load(NIGHT)
    state = loaded.state
    assert len(loaded.session.players) == 5 and state.winner == "Bob"
    said = [words(s.ruling) for s in states(loaded.session)]
    for seen in ("Mia shown, true", "loses 2 lives", "gives up against", "a lie", "Bob wins"):
        assert any(seen in r for r in said), seen
    assert any("Mia:" in r and "a lie" in r for r in said)  # a false Mia lifted
    tally = loaded.session.engine.tally(list(states(loaded.session)))
    assert sum(row.get("lives lost", 0) for row in tally.values()) == 6 * 5 - 1


# ------------------------------------------------------------------ the command line

START = ("new", "mia", "Ann", "Bob", "Cy", "--name", "friday")


def test_a_round_on_the_command_line_at_40_columns(referee: Runner) -> None:
    assert screen(referee(*START).out) == (
        "started friday (mia)\n"
        "MIA friday            goes left, round 1\n"
        "> Ann              oooooo  6\n"
        "  Bob              oooooo  6\n"
        "  Cy               oooooo  6\n"
        "Ann rolls round 1: announce any value\n"
    )
    assert screen(referee("mia", "announce", "5-4").out) == (
        "Ann announces 54\n"
        "MIA friday            goes left, round 1\n"
        "  Ann              oooooo  6\n"
        "> Bob              oooooo  6\n"
        "  Cy               oooooo  6\n"
        "54 by Ann\n"
        "Bob: lift or believe (over 54)\n"
        "a fresh roll beats it: 18/36 (50.0%)\n"
    )
    assert referee("mia", "announce", "mia").out.splitlines()[-2:] == [
        "Mia by Bob!",
        "Cy: lift (costs 2 if true) or giveup",
    ]
    assert screen(referee("mia", "lift", "2-1").out) == (
        "Cy lifts Bob's Mia: Mia shown, true; Cy\n"
        "loses 2 lives (4 left); round 2: Bob\n"
        "rolls\n"
        "MIA friday            goes left, round 2\n"
        "  Ann              oooooo  6\n"
        "> Bob              oooooo  6\n"
        "  Cy               oooo..  4\n"
        "Bob rolls round 2: announce any value\n"
    )
    assert referee("mia", "announce", "33").code == 0
    assert referee("mia", "believe").out.splitlines()[-3:] == [
        "33 by Bob, believed",
        "Cy rolls and announces over 33",
        "a fresh roll beats it: 5/36 (13.9%)",
    ]


def test_the_finished_night_and_its_json(referee: Runner) -> None:
    before = NIGHT.read_bytes()
    assert screen(referee("show", "-s", str(NIGHT)).out) == (
        "MIA mia-night        goes left, round 27\n"
        "  Ann (Ace)        out\n"
        "  Bob              o.....  1 WINNER\n"
        "  Cy               out\n"
        "  Dee (Dice)       out\n"
        "  Eve              out\n"
        "Bob wins\n"
    )
    doc = json.loads(referee("show", "--json", "-s", str(NIGHT)).out)
    assert (doc["game"], doc["winner"], doc["phase"], doc["turn"]) == ("mia", "Bob", "over", None)
    assert doc["players"][1] == {"name": "Bob", "nickname": None, "lives": 1, "out": False}
    assert NIGHT.read_bytes() == before  # looking never writes


def test_a_big_table_gets_the_compact_card(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LINES", "24")
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lea",
             "Max", "Ned", "Ola", "Pia", "Quin", "Rex", "Sam", "Tom"]  # fmt: skip
    assert referee("new", "mia", *names, "--name", "big").code == 0
    assert referee("mia", "announce", "54").code == 0
    shown = referee("mia", "lift", "43").out
    assert screen(shown) == (
        "Bob lifts Ann's 54: 43 shown, a lie; Ann\n"
        "loses a life (5 left); round 2: Bob\n"
        "rolls\n"
        "MIA big               goes left, round 2\n"
        "Ann 5  >Bob 6  Cy 6  Dee 6  Eve 6  Fay 6\n"
        "Gus 6  Hal 6  Ida 6  Jo 6  Kim 6  Lea 6\n"
        "Max 6  Ned 6  Ola 6  Pia 6  Quin 6\n"
        "Rex 6  Sam 6  Tom 6\n"
        "Bob rolls round 2: announce any value\n"
    )
    assert len(referee("show", "--full").out.splitlines()) == 22


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        pytest.param(("announce", "16"), 2, "did you mean 61?", id="16"),
        pytest.param(("announce", "23"), 2, "did you mean 32?", id="23"),
        pytest.param(("announce", "7"), 2, "give two dice high first", id="7"),
        pytest.param(("lift", "43"), 1, "nothing to lift", id="lift-first"),
        pytest.param(("giveup",), 1, "nothing to give up", id="give-up-first"),
        pytest.param(("announce", "54", "--by", "Bob"), 1, "Ann's turn", id="not-on-turn"),
        pytest.param(("announce", "54", "--by", "Zed"), 2, "unknown player 'Zed'", id="no-such"),
        pytest.param(("announce",), 2, "'announce' needs VALUE", id="no-value"),
    ],
)
def test_bad_input_is_one_line_and_saves_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    assert referee(*START).code == 0
    before = snapshot(session_file(home))
    result = referee("mia", *args)
    assert result.code == code and message in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home)) == before


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(("54",), "fresh roll 54 or better: 20/36 (55.6%)", id="54"),
        pytest.param(("mia",), "fresh roll Mia: 2/36 (5.6%)", id="mia"),
        pytest.param(("11", "--ruleset", "mia"), "fresh roll 11 or better: 8/36 (22.2%)",
                     id="ruleset"),
    ],
)  # fmt: skip
def test_odds_outside_a_session(referee: Runner, args: tuple[str, ...], said: str) -> None:
    result = referee("mia", "odds", *args)
    assert result.code == 0 and result.out == said + "\n", result


def test_odds_in_a_session_use_its_standing_value_and_doubles_order(
    referee: Runner, tmp_path: Path
) -> None:
    house = tmp_path / "house.toml"
    house.write_text('game = "mia"\nname = "house"\ndoubles_order = "reversed"\n')
    assert referee(*START, "--ruleset", str(house)).code == 0
    assert referee("mia", "announce", "11").code == 0
    assert referee("mia", "odds").out == "fresh roll 11 or better: 3/36 (8.3%)\n"


def test_the_shell_plays_mia_with_short_forms(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert referee(*START).code == 0
    lines = ["a 54", "b", "a 61", "lift 43", "a mia", "help", "giveup", "undo", "lift 2-1",
             "odds 65"]  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    result = referee("shell")
    assert result.code == 0, result
    out = result.out
    for seen in (
        "Bob vs 54> b",
        "Bob believes Ann's 54",
        "Bob over 54> a 61",
        "Cy vs 61> lift 43",
        "Cy lifts Bob's 61: 43 shown, a lie; Bob",
        "Cy rolls> a mia",
        "Ann vs Mia> giveup",
        "Ann gives up against Cy's Mia; Ann",
        "undid event 6: giveup --by Ann",
        "Ann lifts Cy's Mia: Mia shown, true; Ann",
        "fresh roll 65 or better: 10/36 (27.8%)",
    ):
        assert seen in out, seen
    assert "  lift     Lift the mug: dice shown.\n" in out  # help: one line each
    assert "  giveup   Give up to Mia: 1 life.\n" in out
    assert json.loads(referee("show", "--json").out)["players"][0]["lives"] == 4


def test_stats_and_exports_count_lives(referee: Runner, home: Path, tmp_path: Path) -> None:
    storage_dir = home / "sessions"
    storage_dir.mkdir(parents=True)
    (storage_dir / "night.toml").write_bytes(NIGHT.read_bytes())
    stats = referee("stats", "--json")
    assert stats.code == 0, stats
    assert "lives lost" in stats.out and "lies caught" in stats.out
    for fmt in ("csv", "json", "md", "html", "svg"):
        result = referee("export", "--format", fmt, "-s", "night", "-o", str(tmp_path / f"n.{fmt}"))
        assert result.code == 0, (fmt, result)
    here = referee("import", str(tmp_path / "n.json"), "--name", "again")
    assert here.code == 2 and "already here as night" in here.err  # one night, one id
    assert referee("import", str(tmp_path / "n.json"), "--name", "again", "--as-copy").code == 0
    again = json.loads(referee("show", "--json", "-s", "again").out)
    assert {**again, "session": ""} == {**json.loads(referee("show", "--json", "-s", "night").out),
                                        "session": ""}  # fmt: skip


def test_every_action_has_a_whole_help_line_at_40_columns(referee: Runner) -> None:
    shown = referee("mia", "--help").out.splitlines()
    actions = shown[shown.index("Commands:") + 1 :]
    assert [line.split()[0] for line in actions] == [
        "announce",
        "believe",
        "lift",
        "giveup",
        "pass",
        "join",
        "leave",
        "replace",
        "odds",
    ]
    assert all(len(line) <= 40 and not line.endswith("...") for line in actions), actions


# ------------------------------------------------------------------ random nights


VALUES = st.sampled_from(ALL_VALUES)
SEATED = st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
NEWCOMERS = st.sampled_from(["Eve", "Fay", "Gus", "bob", "-x"])


class MiaNight(SessionMachine):
    """Random nights aimed at the last life: the shared invariants, and lives that add up."""

    @initialize(
        players=st.integers(2, 4),
        start_lives=st.sampled_from([1, 2, 3]),
        order=st.sampled_from(["ascending", "reversed"]),
        equal=st.booleans(),
        starter=st.sampled_from(["winner", "loser"]),
        direction=st.sampled_from(["left", "right"]),
        announced=st.sampled_from(["lift", "ends_round"]),
        passing=st.booleans(),
        stakes=st.sampled_from([(0, 0), (2, 0.5), (0, 0.25)]),
    )
    def start(
        self,
        players: int,
        start_lives: int,
        order: str,
        equal: bool,
        starter: str,
        direction: str,
        announced: str,
        passing: bool,
        stakes: tuple[int, float],
    ) -> None:
        table = storage.load_ruleset("mia")
        table.update(lives=start_lives, doubles_order=order, equal_allowed=equal,
                     next_starter=starter, mia_announced=announced,
                     pass_mia=passing, stake=stakes[0], loss_value=stakes[1])  # fmt: skip
        names = ["Ann", "Bob", "Cy", "Dee"][:players]
        self.begin("mia", table, names, {"first": "Ann", "direction": direction})

    def turn(self) -> str:
        return str(self.state.name(self.state.turn))

    @rule(data=st.data())
    def announce_the_smallest_allowed(self, data: st.DataObject) -> None:
        allowed = mia.announceable(self.state)
        if allowed:
            self.act(mia.Announce(self.turn(), data.draw(st.sampled_from(allowed[:3]))))

    @rule(value=VALUES)
    def announce_anything(self, value: MiaValue) -> None:
        self.act(mia.Announce(self.turn(), value))

    @rule()
    def believe(self) -> None:
        self.act(mia.Believe(self.turn()))

    @rule(dice=VALUES)
    def lift(self, dice: MiaValue) -> None:
        self.act(mia.Lift(self.turn(), dice))

    @rule(true=st.booleans())
    def lift_the_truth_or_a_lie(self, true: bool) -> None:
        standing = self.state.standing
        if standing is not None:  # aimed at the limits: exactly the value, or the lowest roll
            self.act(mia.Lift(self.turn(), standing if true else MiaValue(3, 1)))

    @rule()
    def give_up(self) -> None:
        self.act(mia.GiveUp(self.turn()))

    @rule()
    def pass_mia(self) -> None:
        self.act(mia.Pass(self.turn()))

    @rule(dice=VALUES)
    def announce_mia_shown(self, dice: MiaValue) -> None:
        self.act(mia.Announce(self.turn(), MIA, dice))

    @rule(player=st.sampled_from(["Ann", "Bob", "Cy", "Dee"]))
    def out_of_turn(self, player: str) -> None:
        self.act(mia.Lift(player, MIA))

    @rule(name=NEWCOMERS, after=st.sampled_from([None, "Ann", "Bob", "Dee", "Eve"]))
    def join(self, name: str, after: str | None) -> None:
        self.act(Join(name, after))

    @rule(player=SEATED)
    def leave(self, player: str) -> None:
        self.act(Leave(player))

    @rule(old=SEATED, new=NEWCOMERS)
    def replace(self, old: str, new: str) -> None:
        self.act(Replace(old, new))

    @invariant()
    def the_money_adds_up(self) -> None:
        """The pot is every stake paid (at the start and on joining) and every life lost;
        a finished game's nets sum to zero."""
        if self.started:
            state = self.state
            seen = [*self.history, state]  # the state before each event, and now
            lost = sum(f.lost for s in seen for f in s.ruling if isinstance(f, mia.LostLives))
            joined = sum(isinstance(f, Joined) for s in seen for f in s.ruling)
            stakes = state.rules.stakes
            stake_paid = (len(self.session.players) + joined) * stakes.stake
            assert state.purse.pot == stake_paid + lost * stakes.loss_value
            found = money(self.session, state)
            if found is not None and found.result is not None:
                assert sum(found.result.nets.values()) == 0

    @invariant()
    def lives_add_up(self) -> None:
        if self.started:
            state = self.state
            assert all(0 <= s.lives <= state.rules.lives for s in state.seats)
            assert {s.name for s in state.seats if s.lives == 0} == set(state.out)
            assert state.is_over == (state.phase is mia.Phase.OVER)
            if not state.is_over:
                assert state.seats[state.turn].lives > 0  # an out player never has the turn
            if state.rules.mia_announced is mia.MiaAnnounced.ENDS_ROUND:
                assert state.standing != MIA  # a Mia ends the round at once: nobody faces it
            if state.mia_from is not None:  # passed on: still a Mia, on a table that passes
                assert state.standing == MIA and state.rules.pass_mia


MiaNight.TestCase.settings = SETTINGS
test_mia_nights = MiaNight.TestCase


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["show", "--json", "-s", str(NIGHT)], id="show-json"),
        pytest.param(["log", "--json", "-s", str(NIGHT)], id="log-json"),
        pytest.param(["mia", "odds", "54"], id="odds"),
    ],
)
def test_mia_json_and_tools_load_no_rich_and_no_other_game(tmp_path: Path, args: list[str]) -> None:
    from test_imports import modules_after

    loaded = modules_after(tmp_path, *args)
    assert "referee.cli" in loaded  # the probe really ran the command
    others = {f"referee.games.{g}" for g in ("kariki", "liars", "kiriki", "kalooki")}
    assert {m for m in loaded if m.split(".")[0] == "rich" or m in others} == set(), loaded


@pytest.mark.parametrize("width", [40, 60, 100])
def test_card_lines_counts_what_the_full_card_takes(width: int) -> None:
    """The CLI picks the full or the compact card by `card_lines`: it must be the truth,
    wrapped status included, or the ruling scrolls off a phone's screen."""
    from referee import storage
    from referee.games.mia import card as render
    from referee.render.share import card_text
    from referee.session import states

    session = storage.load(NIGHT).session
    for state in states(session):
        drawn = card_text(render.card(state, "night", width, compact=False), width)
        assert render.card_lines(state, width) == len(drawn.splitlines())


def test_the_compact_card_says_who_is_out_first_out_first_on_one_line(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 20 players the `out:` line ran to four lines, in seat order; Liar's dice's says the
    order they went out, on one line."""
    monkeypatch.setenv("COLUMNS", "40")
    names = "Alexander Bob Cy Dee Eve Fay Gus Hal Ivy Jo Kim Lou Max Ned Oz Pat Quinn Rosa Sam Tom"
    assert referee("new", "mia", *names.split(), "--name", "m20").code == 0
    gone = names.split()[:7:-1]  # Tom first, then back to Ivy
    for name in gone:
        assert referee("mia", "leave", name).code == 0
    assert referee("show", "--compact").out.splitlines()[1:4] == [
        ">Alexander 6  Bob 6  Cy 6  Dee 6  Eve 6",
        "Fay 6  Gus 6  Hal 6",
        "out (12): Tom, Sam, Rosa, Quinn, Pat, …",
    ]
    referee("new", "mia", "Ann", "Bob", "Cy", "--name", "m3")
    referee("mia", "leave", "cy")
    assert "out: Cy" in referee("show", "--compact").out.splitlines()


def test_the_card_says_which_way_play_goes_and_who_won(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mia's card said neither (`MIA m20  round 1` with --direction right; `Ann wins` only
    under the list), where Kariki's says `play goes right` and WINNER."""
    monkeypatch.setenv("COLUMNS", "40")
    start = ["new", "mia", "Ann", "Bob", "Cy", "--direction", "right", "--name", "dr"]
    assert referee(*start).out.splitlines()[1] == "MIA dr               goes right, round 1"
    for name in ("bob", "cy"):
        assert referee("mia", "leave", name).code == 0
    assert referee("show", "--full").out.splitlines()[1] == "  Ann              oooooo  6 WINNER"
    assert referee("show", "--compact").out.splitlines()[1] == "Ann 6 WINNER"
