"""Mia's house rules (RULES.md section 6, issue 35): `mia_announced` and `pass_mia`, each a
table of short games, the defaults unchanged, their words, the card, the shell and the script."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner
from referee.errors import RulesetError, RuleViolation
from referee.games.base import Direction, Outcome
from referee.games.mia import engine as mia
from referee.games.mia.values import MiaValue
from referee.games.mia.words import HOUSE_WORDS, words
from test_mia import DEFAULT, lives, screen, table

ROSTER_OPEN = ("leave", "replace")  # open all game long (RULES.md section 7)

ENDS: dict[str, Any] = {"mia_announced": mia.MiaAnnounced.ENDS_ROUND}
PASS: dict[str, Any] = {"pass_mia": True}


def play(script: str, state: mia.State) -> mia.State:
    """`test_mia.play`, and `Bob pass`, `Ann mia/43` (announce Mia with 43 shown)."""
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
            case "pass":
                event = mia.Pass(who)
            case _ if "/" in action:
                value, shown = action.split("/")
                event = mia.Announce(who, MiaValue.parse(value), MiaValue.parse(shown))
            case _:
                event = mia.Announce(who, MiaValue.parse(action))
        state = mia.apply(state, event)
    return state


def refused(script: str, state: mia.State, message: str) -> None:
    """Every event of `script` but the last plays; the last is refused with `message`."""
    *before, last = script.split(";")
    state = play(";".join(before), state)
    with pytest.raises(RuleViolation, match=message) as caught:
        play(last, state)
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------------ the keys


def test_the_bundled_ruleset_rules_as_before() -> None:
    assert (DEFAULT.mia_announced, DEFAULT.pass_mia) == (mia.MiaAnnounced.LIFT, False)
    assert mia.Rules.from_table({"game": "mia", "name": "x"}) == DEFAULT


@pytest.mark.parametrize(
    ("table_", "problem"),
    [
        pytest.param({"mia_announced": "shown"}, "mia_announced must be one of lift | ends_round",
                     id="announced-unknown"),
        pytest.param({"mia_announced": True}, "mia_announced must be one of", id="announced-bool"),
        pytest.param({"pass_mia": "yes"}, "pass_mia must be true or false", id="pass-text"),
        pytest.param({"pass_mia": 1}, "pass_mia must be true or false", id="pass-number"),
    ],
)  # fmt: skip
def test_bad_values_are_said(table_: dict[str, object], problem: str) -> None:
    with pytest.raises(RulesetError, match=problem):
        mia.Rules.from_table({"game": "mia", "name": "x", **table_}, "x.toml")


def test_a_bad_value_is_said_with_every_other_problem() -> None:
    bad = {"game": "mia", "name": "x", "lives": 0, "mia_announced": "x", "pass_mia": "no"}
    with pytest.raises(RulesetError) as caught:
        mia.Rules.from_table(bad, "x.toml")
    for key in ("lives", "mia_announced", "pass_mia"):
        assert key in str(caught.value), key


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        pytest.param("mia_announced", "ends_round", "Mia shown at once", id="ends-round"),
        pytest.param("mia_announced", "lift", "Mia is lifted", id="lift"),
        pytest.param("pass_mia", True, "Mia passed on unseen", id="pass"),
        pytest.param("pass_mia", False, "Mia not passed on", id="no-pass"),
    ],
)
def test_house_words_for_the_card(key: str, value: object, said: str) -> None:
    assert HOUSE_WORDS[key](value) == said and len(said) <= 24


# ------------------------------------------------------------------ mia_announced = ends_round

ENDED = [
    pytest.param({}, "Ann mia/21", {"Bob": 5, "Cy": 5}, "Ann",
                 "Ann announces Mia: Mia shown, true; Bob loses a life (5 left); Cy loses a life"
                 " (5 left); round 2: Ann rolls", id="true-mia-costs-every-other-player-one"),
    pytest.param({}, "Ann mia/43", {"Ann": 4}, "Bob",
                 "Ann announces Mia: 43 shown, a lie; Ann loses 2 lives (4 left); round 2: Bob"
                 " rolls", id="false-mia-costs-the-announcer-mia-costs"),
    pytest.param({"mia_costs": 3}, "Ann mia/66", {"Ann": 3}, "Bob",
                 "Ann announces Mia: 66 shown, a lie; Ann loses 3 lives", id="false-mia-costs-3"),
    pytest.param({}, "Ann 54; Bob mia/21", {"Ann": 5, "Cy": 5}, "Bob",
                 "Bob believes Ann's 54 and announces Mia: Mia shown, true; Cy loses a life",
                 id="announced-over-a-value"),
    pytest.param({}, "Ann 54; Bob believe; Bob mia/2-1", {"Ann": 5, "Cy": 5}, "Bob",
                 "Bob announces Mia: Mia shown, true", id="after-believing"),
    pytest.param({"next_starter": mia.NextStarter.LOSER}, "Ann mia/21", {"Bob": 5, "Cy": 5},
                 "Bob", "round 2: Bob rolls", id="loser-starts-the-first-after-the-announcer"),
    pytest.param({"next_starter": mia.NextStarter.LOSER}, "Ann mia/43", {"Ann": 4}, "Ann",
                 "round 2: Ann rolls", id="loser-starts-the-liar"),
    pytest.param({"direction": Direction.RIGHT}, "Ann mia/43", {"Ann": 4}, "Cy",
                 "round 2: Cy rolls", id="right-the-next-player-wins-a-lie"),
    pytest.param({}, "Ann 54; Bob lift 43", {"Ann": 5}, "Bob", "43 shown, a lie",
                 id="other-values-are-lifted-as-ever"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "script", "lost", "starter", "said"), ENDED)
def test_mia_ends_the_round(
    changes: dict[str, Any], script: str, lost: dict[str, int], starter: str, said: str
) -> None:
    state = play(script, table(**ENDS, **changes))
    assert lives(state) == {"Ann": 6, "Bob": 6, "Cy": 6, **lost}
    assert (state.name(state.turn), state.phase, state.round) == (starter, mia.Phase.OPEN, 2)
    assert said in words(state.ruling)


@pytest.mark.parametrize(
    ("changes", "script", "message"),
    [
        pytest.param(ENDS, "Ann mia", "Ann cannot announce Mia unseen: announcing Mia shows the"
                     r" dice, give them with --shown \(mia_announced = ends_round\)",
                     id="mia-without-the-dice"),
        pytest.param(ENDS, "Ann 54/43", r"Ann cannot show the dice of 54: only a Mia is shown at"
                     r" once \(mia_announced = ends_round\)", id="dice-of-another-value"),
        pytest.param({}, "Ann mia/21", r"Ann cannot show the dice: the next player lifts a Mia"
                     r" or gives up \(mia_announced = lift\)", id="dice-when-mia-is-lifted"),
        pytest.param(ENDS, "Ann 66; Bob 65/21", "must beat 66", id="a-low-value-first"),
        pytest.param(ENDS, "Ann mia/21; Ann giveup", "nothing to give up: Ann rolls",
                     id="nothing-faced"),
    ],
)  # fmt: skip
def test_mia_ends_the_round_refusals(changes: dict[str, Any], script: str, message: str) -> None:
    refused(script, table(**changes), message)


def test_the_last_two_a_true_mia_puts_the_other_out_and_ends_the_game() -> None:
    state = play("Ann 54; Bob lift 43", table(**ENDS, lives=1))  # Ann is out
    state = play("Bob mia/21", state)
    assert state.is_over and state.winner == "Bob" and state.phase is mia.Phase.OVER
    assert words(state.ruling) == (
        "Bob announces Mia: Mia shown, true; Cy loses a life (0 left); Cy is out; Bob wins"
    )
    assert mia.outcome(state) == Outcome(True, ("Bob",), ("Bob", "Cy", "Ann"))
    assert mia.legal_actions(state) == ()


def test_the_last_two_a_false_mia_puts_the_announcer_out() -> None:
    state = play("Ann mia/65", table("Ann Bob", **ENDS, lives=2))
    assert state.winner == "Bob" and words(state.ruling).endswith("Ann is out; Bob wins")


def test_a_true_mia_takes_several_out_at_once_and_they_share_a_place() -> None:
    state = table("Ann Bob Cy Dee", **ENDS, lives=2)
    state = play("Ann 54; Bob lift 43", state)  # Ann 1
    state = play("Bob 54; Cy lift 43", state)  # Bob 1
    state = play("Cy mia/21", state)  # Ann, Bob and Dee lose one: Ann and Bob are out
    assert lives(state) == {"Ann": 0, "Bob": 0, "Cy": 2, "Dee": 1} and not state.is_over
    said = words(state.ruling)
    assert "Dee loses a life (1 left); Ann loses a life (0 left); Ann is out" in said
    state = play("Cy mia/21", state)  # Dee is out: the game is over
    result = mia.outcome(state)
    assert result.standings == ("Cy", "Dee", "Bob", "Ann")
    assert result.places == (1, 2, 3, 3)


def test_every_other_player_out_at_once_share_second_place() -> None:
    state = play("Ann mia/21", table("Ann Bob Cy", **ENDS, lives=1))
    assert mia.outcome(state).places == (1, 2, 2) and state.winner == "Ann"
    assert words(state.ruling).endswith("Bob is out; Cy loses a life (0 left); Cy is out; Ann wins")


def test_out_one_at_a_time_keeps_places_in_order() -> None:
    state = play("Ann 54; Bob lift 43; Bob mia/21", table("Ann Bob Cy", **ENDS, lives=1))
    assert mia.outcome(state).places == ()  # 1, 2, 3


# ------------------------------------------------------------------ pass_mia

PASSES = [
    pytest.param("Ann mia; Bob pass", "Cy", "Bob", ("lift", "giveup", "pass"),
                 "Bob passes the Mia on unseen: Cy faces it", id="one-pass"),
    pytest.param("Ann mia; Bob pass; Cy pass", "Ann", "Cy", ("lift", "giveup"),
                 "Cy passes the Mia on unseen: back to Ann, who must lift or give up",
                 id="round-once-back-to-the-announcer"),
    pytest.param("Ann 54; Bob mia; Cy pass", "Ann", "Cy", ("lift", "giveup", "pass"),
                 "Cy passes the Mia on unseen: Ann faces it", id="a-believer-s-mia"),
    pytest.param("Ann 54; Bob mia; Cy pass; Ann pass", "Bob", "Ann", ("lift", "giveup"),
                 "Ann passes the Mia on unseen: back to Bob, who must lift or give up",
                 id="round-once-from-the-believer"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "facing", "answers", "actions", "said"), PASSES)
def test_passing_mia(
    script: str, facing: str, answers: str, actions: tuple[str, ...], said: str
) -> None:
    state = play(script, table(**PASS))
    assert (state.name(state.turn), state.phase, state.standing) == (facing, mia.Phase.ANSWER,
                                                                    MiaValue(2, 1))  # fmt: skip
    assert state.announcer is not None and state.name(state.announcer) == answers
    assert mia.legal_actions(state) == (*actions, *ROSTER_OPEN)
    assert mia.may_pass(state) == ("pass" in actions)
    assert mia.announceable(state) == () and words(state.ruling) == said


PASSED_CHALLENGES = [
    pytest.param("Ann mia; Bob pass; Cy lift 43", {"Bob": 5}, "Cy",
                 "Cy lifts Bob's Mia: 43 shown, a lie; Bob loses a life", id="the-passer-answers"),
    pytest.param("Ann mia; Bob pass; Cy lift mia", {"Cy": 4}, "Bob",
                 "Cy lifts Bob's Mia: Mia shown, true; Cy loses 2 lives", id="true-costs-2"),
    pytest.param("Ann mia; Bob pass; Cy giveup", {"Cy": 5}, "Bob",
                 "Cy gives up against Bob's Mia", id="give-up-after-a-pass"),
    pytest.param("Ann mia; Bob pass; Cy pass; Ann lift 43", {"Cy": 5}, "Ann",
                 "Ann lifts Cy's Mia: 43 shown, a lie; Cy loses", id="back-round-lie-last-passer"),
    pytest.param("Ann mia; Bob pass; Cy pass; Ann giveup", {"Ann": 5}, "Cy",
                 "Ann gives up against Cy's Mia", id="back-round-give-up"),
    pytest.param("Ann mia; Bob pass; Cy pass; Ann lift 21", {"Ann": 4}, "Cy",
                 "Mia shown, true; Ann loses 2 lives", id="back-round-true"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "lost", "starter", "said"), PASSED_CHALLENGES)
def test_a_passed_mia_is_lifted_or_given_up(
    script: str, lost: dict[str, int], starter: str, said: str
) -> None:
    state = play(script, table(**PASS))
    assert lives(state) == {"Ann": 6, "Bob": 6, "Cy": 6, **lost}
    assert (state.name(state.turn), state.phase, state.mia_from) == (starter, mia.Phase.OPEN, None)
    assert said in words(state.ruling)


def test_a_new_round_may_pass_again() -> None:
    state = play("Ann mia; Bob pass; Cy pass; Ann giveup; Cy mia", table(**PASS))
    assert mia.legal_actions(state) == ("lift", "giveup", "pass", *ROSTER_OPEN)
    state = play("Ann pass", state)
    assert state.name(state.turn) == "Bob" and mia.may_pass(state)


def test_two_players_pass_once() -> None:
    state = play("Ann mia; Bob pass", table("Ann Bob", **PASS))
    assert state.name(state.turn) == "Ann" and mia.legal_actions(state) == (
        "lift",
        "giveup",
        *ROSTER_OPEN,
    )
    assert words(state.ruling) == (
        "Bob passes the Mia on unseen: back to Ann, who must lift or give up"
    )


def test_an_out_player_is_skipped_by_a_pass() -> None:
    state = play("Ann 54; Bob lift 43", table("Ann Bob Cy Dee", lives=1, **PASS))  # Ann out
    state = play("Bob mia; Cy pass", state)
    assert state.name(state.turn) == "Dee"
    state = play("Dee pass", state)  # Ann is skipped: back to Bob
    assert state.name(state.turn) == "Bob" and not mia.may_pass(state)


@pytest.mark.parametrize(
    ("changes", "script", "message"),
    [
        pytest.param({}, "Ann mia; Bob pass",
                     r"Bob cannot pass: this table does not pass a Mia \(pass_mia = false\)",
                     id="off-by-default"),
        pytest.param(PASS, "Ann mia; Bob pass; Cy pass; Ann pass",
                     r"Ann cannot pass: the Mia has gone round once \(pass_mia\), lift or give up",
                     id="back-round-passing-again"),
        pytest.param(PASS, "Ann 54; Bob pass",
                     "Bob cannot pass: only a Mia is passed on, and Bob faces 54",
                     id="not-facing-mia"),
        pytest.param(PASS, "Ann pass",
                     "Ann cannot pass: only a Mia is passed on, and Ann rolls and announces",
                     id="nothing-announced"),
        pytest.param(PASS, "Ann 54; Bob believe; Bob pass",
                     "Bob cannot pass: only a Mia is passed on, and Bob believed 54",
                     id="after-believing"),
        pytest.param(PASS, "Ann mia; Cy pass", "Bob's turn, not Cy's", id="not-on-turn"),
        pytest.param(PASS, "Ann mia; Bob pass; Bob pass", "Cy's turn, not Bob's",
                     id="the-passer-again"),
        pytest.param(PASS, "Ann mia; Bob believe",
                     "nothing beats Mia: lift the mug, give up \\(1 life\\) or pass it on",
                     id="believe-says-pass"),
        pytest.param(PASS, "Ann mia; Bob pass; Cy pass; Ann 65",
                     r"nothing beats Mia: lift the mug, or give up \(1 life\)$",
                     id="announce-when-back-round"),
        pytest.param({**PASS, **ENDS}, "Ann mia/21; Ann pass",
                     "Ann cannot pass: only a Mia is passed on, and Ann rolls and announces",
                     id="ends-round-leaves-nothing-to-pass"),
    ],
)  # fmt: skip
def test_passes_refused(changes: dict[str, Any], script: str, message: str) -> None:
    refused(script, table(**changes), message)


def test_the_tally_counts_passes_and_shown_lies() -> None:
    passed = [play("Ann mia; Bob pass", table(**PASS))]
    assert mia.tally(passed)["Bob"] == {"passed Mia": 1}
    shown = [play("Ann mia/43", table(**ENDS))]
    assert mia.tally(shown)["Ann"]["lies caught"] == 1


# ------------------------------------------------------------------ the command line


def ruleset(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'game = "mia"\nname = "{name}"\n{text}\n')
    return str(path)


def test_ends_round_on_the_command_line(referee: Runner, tmp_path: Path) -> None:
    house = ruleset(tmp_path, "shown", 'mia_announced = "ends_round"')
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "s", "--ruleset", house).code == 0
    unseen = referee("mia", "announce", "mia")
    assert unseen.code == 1 and unseen.err == (
        "error: Ann cannot announce Mia unseen: announcing Mia shows the dice, give them with"
        " --shown (mia_announced = ends_round)\n"
    )
    assert screen(referee("mia", "announce", "mia", "--shown", "2-1").out) == (
        "Ann announces Mia: Mia shown, true; Bob\n"
        "loses a life (5 left); Cy loses a life\n"
        "(5 left); round 2: Ann rolls\n"
        "MIA s                 goes left, round 2\n"
        "> Ann              oooooo  6\n"
        "  Bob              ooooo.  5\n"
        "  Cy               ooooo.  5\n"
        "Ann rolls round 2: announce any value\n"
        "house: Mia shown at once\n"
    )
    assert referee("log", "--script").out.splitlines()[1] == "announce Mia --by Ann --shown Mia"


def test_a_pass_on_the_command_line(referee: Runner, tmp_path: Path) -> None:
    house = ruleset(tmp_path, "passing", "pass_mia = true")
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "p", "--ruleset", house).code == 0
    assert screen(referee("mia", "announce", "mia").out).splitlines()[-4:] == [
        "Mia by Ann!",
        "Bob: lift (costs 2 if true), giveup or",
        "pass",
        "house: Mia passed on unseen",
    ]
    assert screen(referee("mia", "pass").out) == (
        "Bob passes the Mia on unseen: Cy faces\n"
        "it\n"
        "MIA p                 goes left, round 1\n"
        "  Ann              oooooo  6\n"
        "  Bob              oooooo  6\n"
        "> Cy               oooooo  6\n"
        "Mia by Ann, passed by Bob!\n"
        "Cy: lift (costs 2 if true), giveup or\n"
        "pass\n"
        "house: Mia passed on unseen\n"
    )
    assert referee("mia", "odds").out == "fresh roll Mia: 2/36 (5.6%)\n"
    assert referee("mia", "pass").out.splitlines()[-3:] == [
        "Mia by Ann, passed by Cy!",
        "Ann: lift (costs 2 if true) or giveup",
        "house: Mia passed on unseen",
    ]
    again = referee("mia", "pass")
    assert again.code == 1 and again.err == (
        "error: Ann cannot pass: the Mia has gone round once (pass_mia), lift or give up\n"
    )


def test_pass_is_refused_on_the_bundled_ruleset(referee: Runner) -> None:
    assert referee("new", "mia", "Ann", "Bob").code == 0
    assert referee("mia", "announce", "mia").code == 0
    result = referee("mia", "pass")
    assert (result.code, result.err) == (
        1,
        "error: Bob cannot pass: this table does not pass a Mia (pass_mia = false)\n",
    )


def test_a_night_with_passes_in_the_shell_and_its_script_replayed(
    referee: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    house = ruleset(tmp_path, "passing", "pass_mia = true\nlives = 2")
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "p", "--ruleset", house).code == 0
    lines = ["a mia", "p", "p", "lift 43", "a 54", "a mia", "help", "p", "giveup", "a mia", "p",
             "p", "giveup", "a mia", "p", "lift mia"]  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    result = referee("shell")
    assert result.code == 0, result
    for seen in (
        "Bob vs Mia> p",
        "Cy vs Mia> p",
        "Ann vs Mia> lift 43",
        "Ann lifts Cy's Mia: 43 shown, a lie; Cy",
        "Cy vs Mia> p",
        "Cy gives up against Bob's Mia; Cy",
        "Ann wins",
    ):
        assert seen in result.out, seen
    assert "  pass     Pass the Mia on unseen.\n" in result.out  # help, facing Mia
    card = referee("show").out
    script = referee("log", "--script").out.splitlines()
    # The script carries the table's own rules: it needs no file in another data folder.
    assert script[0] == "# referee new mia Ann Bob Cy --set lives=2 --set pass_mia=true"
    assert script[1:4] == ["announce Mia --by Ann", "pass --by Bob", "pass --by Cy"]
    Path(house).unlink()
    new = script[0].removeprefix("# referee ").split()
    assert referee(*new, "--name", "again").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script[1:]) + "\n"))
    replayed = referee("shell")
    assert replayed.code == 0 and replayed.err == "", replayed
    assert referee("show", "-s", "again").out == card.replace("MIA p    ", "MIA again")
