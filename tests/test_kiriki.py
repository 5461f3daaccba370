"""Kiriki (RULES.md sections 1 and 3): every path of a round, match ends, KR, odds, bad input."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RuleViolation
from referee.games.base import PlayerInfo
from referee.games.kiriki import engine as kr
from referee.games.kiriki.words import words
from referee.notation.dice import ALL_ROLLS, Rank, Roll, chance_to_meet
from referee.notation.dice import KIRIKI_WORDS as WORDS

RULES = kr.Rules.from_table(storage.load_ruleset("kiriki"), "kiriki")


def match(fmt: str = "bullet", first: str | None = "Ann") -> kr.State:
    people = [PlayerInfo("Ann"), PlayerInfo("Bob")]
    table: dict[str, object] = {"format": fmt}
    if first:
        table["first"] = first
    return kr.start(RULES, people, kr.options_from_table(table, people, RULES))


def play(script: str, state: kr.State) -> kr.State:
    """`Ann claim 9 show 4; Bob believe; Ann raise 66; Bob lift 5-5; rolloff 5 3`."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        words_ = line.split()
        if words_[0] == "rolloff":
            event: kr.Event = kr.RollOff((int(words_[1]), int(words_[2])))
        else:
            who, action, *rest = words_
            arg = " ".join(rest)
            match action:
                case "claim":
                    rank, _, show = arg.partition(" show ")
                    event = kr.Claim(
                        who, WORDS.parse_rank(rank), WORDS.parse_face(show) if show else None
                    )
                case "kiriki":
                    event = kr.ShowKiriki(who)
                case "lift":
                    event = kr.Lift(who, WORDS.parse_dice(arg))
                case "believe":
                    event = kr.Believe(who)
                case "reveal":
                    event = kr.Reveal(who, WORDS.parse_dice(arg))
                case "raise":
                    event = kr.Raise(who, WORDS.parse_rank(arg))
                case "reroll":
                    event = kr.Reroll(who)
                case "roll":
                    event = kr.Roll_(who)
                case "resign":
                    event = kr.Resign(who)
                case _:
                    raise AssertionError(line)
        state = kr.apply(state, event)
    return state


def point(state: kr.State) -> str:
    found = [f for f in state.ruling if isinstance(f, kr.Point)]
    assert len(found) == 1, state.ruling
    return found[0].player


# ------------------------------------------------------------------ the round

POINTS = [
    pytest.param("Ann claim 9; Bob lift 4-5", "Ann", id="lift-on-the-truth"),
    pytest.param("Ann claim 9; Bob lift 6-6", "Ann", id="lift-on-a-downplay"),
    pytest.param("Ann claim 9; Bob lift 1-2", "Ann", id="lift-on-a-hidden-kiriki"),
    pytest.param("Ann claim 9; Bob lift 2-6", "Bob", id="lift-on-a-lie"),
    pytest.param("Ann claim 9; Bob believe; Ann reveal 2-6", "Ann", id="believed-bluff-revealed"),
    pytest.param("Ann kiriki", "Ann", id="kiriki-on-the-opening-roll"),
    pytest.param("Ann claim 9; Bob believe; Ann reroll; Ann kiriki", "Ann",
                 id="kiriki-on-a-reroll"),
    pytest.param("Ann claim 9; Bob roll; Bob kiriki", "Bob", id="kiriki-after-taking-the-mug"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 10; Bob lift 4-6", "Ann",
                 id="keep-and-raise-true"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 11; Bob lift 4-6", "Bob",
                 id="keep-and-raise-caught"),
    pytest.param("Ann claim 9; Bob believe; Ann reroll; Ann claim 9; Bob lift 3-6", "Ann",
                 id="reroll-claims-the-same-again"),
    pytest.param("Ann claim 9; Bob roll; Bob claim 10; Ann lift 4-5", "Ann",
                 id="roll-then-lifted-below"),
    # RULES 3: a believed lie already won the claimer the point; raising on it changes nothing.
    pytest.param("Ann claim pair of reds; Bob believe; Ann raise pair of kings; Bob lift 3-4",
                 "Ann", id="raise-on-a-believed-lie"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 10; Bob believe; Ann raise 11; Bob lift 4-5",
                 "Ann", id="raise-twice-on-a-believed-lie"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 10; Bob believe; Ann raise 11; Bob lift 4-6",
                 "Bob", id="true-until-the-last-raise"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 10; Bob lift 3-6", "Bob",
                 id="a-believed-truth-then-a-raise-caught"),
    pytest.param("Ann claim 9; Bob believe; Ann reroll; Ann claim 10; Bob lift 2-3", "Bob",
                 id="a-reroll-forgets-the-believed-claim"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 10; Bob roll; Bob claim 10; Ann lift 2-3",
                 "Ann", id="the-mug-forgets-the-believed-claim"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "winner"), POINTS)
def test_points(script: str, winner: str) -> None:
    assert point(play(script, match())) == winner


def test_the_loser_of_a_round_starts_the_next_with_nothing_to_beat() -> None:
    state = play("Ann claim 9; Bob lift 2-6", match())  # Bob wins: Ann starts
    assert (state.name(state.turn), state.phase, state.claim, state.need) == (
        "Ann",
        kr.Phase.CLAIM,
        None,
        None,
    )
    state = play("Ann claim 4; Bob lift 1-3", state)  # Ann wins: Bob starts
    assert state.name(state.turn) == "Bob" and state.round == 3


def test_a_believed_bluff_is_said_plainly() -> None:
    state = play("Ann claim 66; Bob believe; Ann reveal 3-4", match())
    assert words(state.ruling).startswith(
        "Ann shows Jack-Queen (7): Pair of Aces was a bluff, and it worked; point to Ann (1-0)"
    )


def test_a_raise_on_a_believed_lie_is_settled_in_words() -> None:
    state = play("Ann claim pair of reds; Bob believe; Ann raise pair of kings", match())
    assert state.believed is Rank.DOUBLE_TWOS
    state = play("Bob lift 3-4", state)
    assert words(state.ruling) == (
        "Bob lifts Jack-Queen (7) on Pair of Kings: below the Pair of Reds Bob believed, so"
        " Ann's bluff had already won; point to Ann (1-0)"
    )


def test_the_shown_die_is_kept_and_cleared() -> None:
    state = play("Ann claim 9 show Queen", match())
    assert state.shown == 4
    state = play("Bob believe", state)
    assert state.shown == 4  # through Believe ...
    raised = play("Ann raise 10", state)
    assert raised.shown == 4  # ... and Keep Dice & Raise
    assert play("Ann reroll", state).shown is None  # a reroll clears it
    assert play("Bob roll", raised).shown is None  # so does the opponent's roll
    assert play("Bob lift 4-6", raised).shown is None  # and the end of the round
    with pytest.raises(RuleViolation, match=r"the shown die was a Queen \(4\): it is not in King"):
        play("Bob lift 5-5", raised)
    fresh = play("Ann reroll; Ann claim 9 show 3", state)  # a reroll brings a new show
    assert fresh.shown == 3


REFUSED = [
    pytest.param("Ann claim 9; Bob believe; Ann claim 10 show 3", "not now", id="second-claim"),
    pytest.param("Ann claim 9; Bob believe; Ann raise 9", "must beat", id="raise-not-higher"),
    pytest.param("Ann claim 9; Bob believe; Ann reroll; Ann raise 10", "not now",
                 id="raise-after-a-reroll"),
    pytest.param("Ann claim 9; Bob believe; Ann reroll; Ann claim 8", "'9' or higher",
                 id="claim-below-after-reroll"),
    pytest.param("Ann claim 9; Bob roll; Bob claim 8", "'9' or higher",
                 id="claim-below-after-roll"),
    pytest.param("Ann claim kiriki", "never claimed", id="kiriki-in-words"),
    pytest.param("Bob lift 4-5", "not now", id="lift-with-no-claim"),
    pytest.param("Bob believe", "not now", id="believe-with-no-claim"),
    pytest.param("Ann claim 9; Ann lift 4-5", "Bob's turn", id="wrong-player"),
    pytest.param("Ann claim 9; Bob believe; Ann reveal 4-5", "Queen-King .9. meets '9'",
                 id="reveal-a-truth"),
    pytest.param("Ann claim 66; Bob believe; Ann reveal 6-6", "no bluff to reveal; reroll .forced",
                 id="reveal-a-true-pair-of-aces"),
    pytest.param("Ann claim 66; Bob believe; Ann raise kiriki", "nothing is higher",
                 id="raise-over-aces"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "reason"), REFUSED)
def test_refused(script: str, reason: str) -> None:
    with pytest.raises(RuleViolation, match=reason):
        play(script, match())


def test_pair_of_aces_forces_a_reroll_and_then_locks_believe() -> None:
    state = play("Ann claim 66; Bob believe", match())
    assert kr.legal_actions(state) == ("reveal", "reroll")  # no raise over Pair of Aces
    state = play("Ann reroll; Ann claim 66", state)
    assert state.aces_locked and kr.legal_actions(state) == ("lift", "roll")
    with pytest.raises(RuleViolation, match="cannot be believed"):
        play("Bob believe", state)
    rolled = play("Bob roll; Bob claim 66", state)  # Aces over Aces again: still locked
    assert rolled.aces_locked and kr.legal_actions(rolled) == ("lift", "roll")
    done = play("Ann lift 6-6", rolled)
    assert point(done) == "Bob" and not done.aces_locked  # the lock ends with the round


def test_a_first_pair_of_aces_over_a_lower_claim_can_be_believed() -> None:
    state = play("Ann claim 9; Bob roll; Bob claim 66", match())
    assert not state.aces_locked and "believe" in kr.legal_actions(state)


# ------------------------------------------------------------------ the match


def wins(state: kr.State, player: str, n: int) -> kr.State:
    """`player` takes `n` points: a Kiriki when he rolls, else a lie of the roller lifted."""
    for _ in range(n):
        roller = state.name(state.turn)
        script = f"{roller} kiriki" if roller == player else f"{roller} claim 5; {player} lift 1-3"
        state = play(script, state)
    return state


@pytest.mark.parametrize(
    ("fmt", "target"), [("bullet", 3), ("revolver", 6), ("standard", 11), ("classical", 21)]
)
def test_each_format_ends_at_its_target(fmt: str, target: int) -> None:
    state = wins(match(fmt), "Ann", target - 1)
    assert not state.is_over
    state = wins(state, "Ann", 1)
    assert state.is_over and state.score == (target, 0) and kr.outcome(state).winners == ("Ann",)


def test_deuce_plays_on_without_a_cap() -> None:
    state = wins(wins(match("bullet"), "Ann", 2), "Bob", 2)
    state = wins(state, "Ann", 1)
    assert state.score == (3, 2) and not state.is_over
    state = wins(state, "Ann", 1)
    assert state.score == (4, 2) and state.is_over
    long = wins(wins(match("standard"), "Ann", 10), "Bob", 10)
    assert long.score == (10, 10) and not long.is_over
    long = wins(wins(long, "Ann", 1), "Bob", 1)
    assert long.score == (11, 11) and not long.is_over
    long = wins(long, "Bob", 2)
    assert long.score == (11, 13) and long.is_over and kr.outcome(long).winners == ("Bob",)


STAKES = [
    pytest.param("bullet", 0, 0, None, id="bullet-0-0"),
    pytest.param("bullet", 1, 1, None, id="bullet-1-1"),
    pytest.param("bullet", 2, 0, "match point: Ann", id="bullet-2-0"),
    pytest.param("bullet", 2, 1, "match point: Ann", id="bullet-2-1"),
    pytest.param("bullet", 0, 2, "match point: Bob", id="bullet-0-2"),
    pytest.param("bullet", 2, 2, "play on: a lead of 2 wins", id="bullet-2-2"),
    pytest.param("bullet", 3, 2, "match point: Ann", id="bullet-3-2"),
    pytest.param("bullet", 3, 3, "play on: a lead of 2 wins", id="bullet-3-3"),
    pytest.param("bullet", 4, 5, "match point: Bob", id="bullet-4-5"),
    pytest.param("standard", 9, 9, None, id="standard-9-9"),
    pytest.param("standard", 10, 9, "match point: Ann", id="standard-10-9"),
    pytest.param("standard", 10, 10, "play on: a lead of 2 wins", id="standard-10-10"),
    pytest.param("standard", 10, 11, "match point: Bob", id="standard-10-11"),
    pytest.param("standard", 9, 10, "match point: Bob", id="standard-9-10"),
    pytest.param("standard", 8, 10, "match point: Bob", id="standard-8-10"),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "ann", "bob", "said"), STAKES)
def test_match_point_is_when_the_leaders_next_point_wins(
    fmt: str, ann: int, bob: int, said: str | None
) -> None:
    state = match(fmt)
    sides = (replace(state.sides[0], points=ann), replace(state.sides[1], points=bob))
    state = replace(state, sides=sides)
    assert kr.stakes(state) == said
    for name in kr.match_point(state):  # and the point really wins the match
        assert wins(state, name, 1).is_over


def test_a_lead_of_one_makes_both_match_point() -> None:
    house = replace(RULES, win_by=1)
    state = replace(match(), rules=house)
    state = replace(state, sides=tuple(replace(s, points=2) for s in state.sides))
    assert kr.stakes(state) == "match point: Ann and Bob"


def test_resign_ends_the_match_as_a_loss() -> None:
    state = play("Ann claim 9; Bob resign", match())
    assert state.is_over and state.name(state.winner or 0) == "Ann" and state.resigned == 1
    with pytest.raises(RuleViolation, match=r"^the match is over: Ann won 0-0, Bob resigned$"):
        play("Ann kiriki", state)


@pytest.mark.parametrize("script", [
    pytest.param("Ann claim 9 show ace; Bob resign", id="claim-and-shown-die"),
    pytest.param("Ann claim 66; Bob believe; Ann reroll; Ann claim 66; Bob resign", id="locked"),
    pytest.param("Ann claim 9; Bob roll; Ann resign", id="something-to-beat"),
    pytest.param("Ann claim 9; Bob believe; Ann resign", id="believed"),
])  # fmt: skip
def test_resign_clears_the_round(script: str) -> None:
    state = play(script, match())
    doc = kr.summary(state)
    assert (doc["claim"], doc["shown_die"], doc["aces_locked"], doc["allowed"]) == (
        None, None, False, []
    )  # fmt: skip
    assert (state.claim, state.need, state.shown, state.believed) == (None, None, None, None)


def test_aces_locked_only_while_the_lock_is_in_force() -> None:
    locked = play("Ann claim 66; Bob believe; Ann reroll; Ann claim 66", match())
    assert kr.summary(locked)["aces_locked"] is True
    assert kr.summary(play("Bob roll", locked))["aces_locked"] is False  # nothing to believe
    ended = wins(wins(match(), "Ann", 2), "Bob", 0)
    ended = play("Bob claim 66; Ann roll; Ann claim 66; Bob lift 6-6", ended)
    assert ended.is_over and kr.summary(ended)["aces_locked"] is False


@pytest.mark.parametrize("typed", [["5", "3"], ["5-3"], ["king", "queen"], ["K", "Q"]])
def test_a_rolloff_is_typed_as_dice_are(referee: Runner, typed: list[str]) -> None:
    """Digits only were read (`rolloff ace king` said "'ace' is not a valid int"), and `5-3`,
    the form the ruling itself prints, was refused."""
    assert referee("new", "kiriki", "Ann", "Bob").code == 0
    result = referee("kiriki", "rolloff", *typed)
    assert result.code == 0 and result.out.startswith("roll-off 5-"), result
    assert referee("log", "--script").out.splitlines()[1].startswith("rolloff 5-")


def test_the_rolloff_decides_who_starts() -> None:
    state = match(first=None)
    assert state.phase is kr.Phase.ROLLOFF and kr.legal_actions(state) == ("rolloff",)
    tie = play("rolloff 4 4", state)  # a tie is a normal event: recorded, and roll again
    assert (tie.phase, tie.events, words(tie.ruling)) == (
        kr.Phase.ROLLOFF, 1, "roll-off 4-4: tie, roll again"
    )  # fmt: skip
    with pytest.raises(RuleViolation, match="not now"):
        play("Ann claim 9", state)
    assert play("rolloff 2 5", state).name(play("rolloff 2 5", state).turn) == "Bob"


# ------------------------------------------------------------------ KR


def rated(at: str, winner: str, loser: str, created: str = "c", mid: str = "") -> kr.RatedMatch:
    return kr.RatedMatch(at, created, mid or at, "m", winner, loser, (3, 0), 32, 1500)


def test_kr_by_hand() -> None:
    # Even players: E = 0.5, so the winner gains 16. Then Ann (1516) beats Cy (1500):
    # E = 1/(1+10^(-16/400)) = 0.523022..., gain 32*(1-E) = 15.263; Cy then beats Bob (1484):
    # E = 1/(1+10^(-(1484.737-1484)/400))... computed by hand below.
    found = kr.ratings(kr.kr_history([
        rated("3", "Cy", "Bob"), rated("1", "Ann", "Bob"), rated("2", "Ann", "Cy"),
    ]))  # fmt: skip
    table = {r.name: r._asdict() for r in found}
    e2 = 1 / (1 + 10 ** ((1500 - 1516) / 400))
    ann = 1516 + 32 * (1 - e2)
    cy_after_2 = 1500 - 32 * (1 - e2)
    e3 = 1 / (1 + 10 ** ((1484 - cy_after_2) / 400))
    assert table["Ann"] == {"name": "Ann", "kr": round(ann), "matches": 2, "wins": 2, "losses": 0}
    assert table["Cy"]["kr"] == round(cy_after_2 + 32 * (1 - e3))
    bob = round(1484 - 32 * (1 - e3))
    assert table["Bob"] == {"name": "Bob", "kr": bob, "matches": 2, "wins": 0, "losses": 2}
    assert (round(ann), table["Cy"]["kr"], table["Bob"]["kr"]) == (1531, 1501, 1468)


def test_ratings_come_from_the_saved_ranked_matches(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def ranked(name: str, a: str, b: str, loser: str, ranked: bool = True, hour: int = 9) -> None:
        monkeypatch.setenv("REFEREE_CLOCK", f"2026-11-29T{hour:02d}:00:00+00:00")
        extra = ["--ranked"] if ranked else []
        assert referee("new", "kiriki", a, b, "--first", a, "--name", name, *extra).code == 0
        assert referee("kiriki", "resign", loser).code == 0

    ranked("m1", "Ann", "Bob", "Bob", hour=10)  # KR counts m1 first: it ended first
    ranked("m2", "Ann", "Cy", "Cy", hour=11)
    ranked("casual", "Bob", "Cy", "Cy", ranked=False)  # not rated
    referee("new", "kiriki", "Dee", "Eve", "--ranked", "--name", "unfinished")
    (home / "sessions" / "broken.toml").write_text("schema = 1\n")
    result = referee("ratings", "--json")
    rows = json.loads(result.out)["games"]["kiriki"]["players"]
    assert [r["name"] for r in rows] == ["Ann", "Cy", "Bob"]
    assert rows[0] == {"name": "Ann", "kr": 1531, "matches": 2, "wins": 2, "losses": 0}
    assert result.err.count("warning: skipped broken.toml") == 1
    shown = referee("ratings").out
    assert shown.splitlines()[1].startswith("Ann") and max(map(len, shown.splitlines())) <= 40


# ------------------------------------------------------------------ odds


@pytest.mark.parametrize("rank", list(Rank))
def test_ladder_odds_match_a_count_of_the_36_outcomes(rank: Rank) -> None:
    outcomes = [Roll.of(a, b) for a in range(1, 7) for b in range(1, 7)]
    at_least = sum(1 for r in outcomes if r.rank >= rank)
    exactly = sum(1 for r in outcomes if r.rank == rank)
    assert chance_to_meet(rank) == Fraction(at_least, 36)
    assert chance_to_meet(rank, exact=True) == Fraction(exactly, 36)
    assert len(ALL_ROLLS) == 21


def test_odds_commands_in_each_games_names(referee: Runner, tmp_path: Path) -> None:
    def said(*args: str) -> str:
        return " ".join(referee(*args).out.split())

    assert "Pair of Kings or better: 4/36" in said("kiriki", "odds", "pair", "of", "kings")
    assert "Double Fives or better: 4/36" in said("kariki", "odds", "55")
    house = tmp_path / "exact.toml"
    house.write_text((storage.bundled_rulesets() / "kariki.toml").read_text().replace(
        'truth = "at_least"', 'truth = "exact"'))  # fmt: skip
    assert "exactly Nine: 4/36" in said("kariki", "odds", "9", "--ruleset", str(house))
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "m")
    referee("kiriki", "claim", "10")
    assert "10 or better: 12/36 (33.3%)" in said("kiriki", "odds")


# ------------------------------------------------------------------ the command line

START = ("new", "kiriki", "Ann", "Bob", "--format", "bullet", "--name", "friday")

BAD = [
    pytest.param(("new", "kiriki", "Ann", "Bob", "Cy"), 2, "exactly 2 players", id="third-player"),
    pytest.param(("new", "kiriki", "Ann", "Bob", "--format", "blitz"), 2, "unknown format",
                 id="unknown-format"),
    pytest.param(("kiriki", "rolloff", "0", "3"), 2, "1 to 6, not 0", id="rolloff-0"),
    pytest.param(("kiriki", "rolloff", "3", "7"), 2, "1 to 6, not 7", id="rolloff-7"),
    pytest.param(("kiriki", "rolloff", "5"), 2, "two dice, like 5 3, 5-3 or A K", id="rolloff-1"),
    pytest.param(("kiriki", "rolloff", "x", "3"), 2, "unknown die 'x'", id="rolloff-x"),
    pytest.param(("kiriki", "claim", "9"), 1, "roll-off", id="claim-before-the-rolloff"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "code", "message"), BAD)
def test_bad_input_before_the_match(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    if args[0] != "new":
        assert referee(*START).code == 0
    path = session_file(home)
    before = snapshot(path) if path.exists() else None
    result = referee(*args)
    assert result.code == code and message in result.err and result.err.count("\n") == 1, result
    assert (snapshot(path) if path.exists() else None) == before


IN_PLAY = [
    pytest.param(("claim", "kiriki"), 1, "never claimed", id="rank-above-aces"),
    pytest.param(("claim", "9", "--show", "7"), 2, "unknown die '7'", id="show-7"),
    pytest.param(("lift", "4-5", "--by", "Ann"), 1, "not now", id="wrong-player-and-phase"),
    pytest.param(("claim", "9", "--by", "Bob"), 1, "Ann's turn", id="wrong-player"),
    pytest.param(("raise", "10", "--show", "2"), 2, "No such option", id="show-with-a-raise"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "code", "message"), IN_PLAY)
def test_bad_input_in_play(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    assert referee(*START).code == 0 and referee("kiriki", "rolloff", "5", "3").code == 0
    before = snapshot(session_file(home))
    result = referee("kiriki", *args)
    assert result.code == code and message in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home)) == before


def test_a_reveal_of_dice_that_meet_the_claim_saves_nothing(referee: Runner, home: Path) -> None:
    referee(*START)
    for line in (("rolloff", "5", "3"), ("claim", "9"), ("believe",)):
        assert referee("kiriki", *line).code == 0
    before = snapshot(session_file(home))
    result = referee("kr", "reveal", "4-5")
    assert result.code == 1 and "no bluff to reveal" in result.err
    assert snapshot(session_file(home)) == before


def test_the_json_document(referee: Runner) -> None:
    referee(*START, "--ranked")
    referee("kiriki", "rolloff", "5", "3")
    referee("kiriki", "claim", "9", "--show", "queen")
    doc: dict[str, Any] = json.loads(referee("show", "--json").out)
    assert set(doc) == {"game", "session", "format", "target", "players", "turn", "phase",
                        "claim", "claim_at_least", "shown_die", "allowed", "aces_locked",
                        "winner", "ranked", "events", "house_rules", "money", "night"}  # fmt: skip
    assert (doc["format"], doc["target"], doc["ranked"]) == ("bullet", 3, True)
    assert (doc["claim"], doc["shown_die"], doc["turn"]) == ("9", "Queen", "Bob")
    assert doc["allowed"] == ["lift", "believe", "roll"] and doc["players"][0]["points"] == 0
    assert doc["claim_at_least"] is None
    referee("kiriki", "roll")  # Bob takes the cup: a claim of 9 or more is what is open
    doc = json.loads(referee("show", "--json").out)
    assert (doc["phase"], doc["claim"], doc["claim_at_least"]) == ("claim", None, "9")


def test_a_wide_card_writes_the_ladder_in_words(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "m")
    referee("kiriki", "claim", "pair", "of", "kings")
    assert "4 5 6 7 8 9 10 11 BB RR JJ QQ [KK] AA" in referee("show").out
    monkeypatch.setenv("COLUMNS", "80")
    wide = referee("show").out
    assert "10 Tabique Blacks Reds Jacks Queens [Kings] Aces" in wide
