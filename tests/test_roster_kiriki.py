"""Kiriki's night (RULES.md section 7 on section 3): two play, so nobody joins; leaving a match
is resigning it; a side taken over is the taker's, its result and its KR too; the stake and a
round lost paid into the pot."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RulesetError, RuleViolation, UsageError
from referee.games.base import PlayerInfo
from referee.games.kiriki import engine as kr
from referee.games.kiriki.kr import matches
from referee.games.kiriki.words import words
from referee.games.money import Stakes, Transfer
from referee.games.roster import Join, Leave, Left, Replace, Replaced
from referee.notation.dice import Rank, Roll
from referee.session import Session, append, money, replay, undo
from test_kiriki import play

RULES = kr.Rules.from_table(storage.load_ruleset("kiriki"), "kiriki")
NOT_TWO = "Dee cannot join: Kiriki is played by exactly two"


def match(nick: str | None = None, first: str | None = "Ann", **stakes: Any) -> kr.State:
    """A bullet match, Ann rolling first, with these stakes (in cents)."""
    rules = dataclasses.replace(RULES, stakes=Stakes(**stakes))
    people = [PlayerInfo("Ann", nick), PlayerInfo("Bob")]
    table: dict[str, object] = {"format": "bullet", **({"first": first} if first else {})}
    return kr.start(rules, people, kr.options_from_table(table, people, rules))


# ------------------------------------------------------------------ join

WHENEVER = [
    pytest.param("", None, id="at-the-roll-off"),
    pytest.param("", "Ann", id="before-the-first-claim"),
    pytest.param("Ann claim 9", "Ann", id="facing-a-claim"),
    pytest.param("Ann claim 9; Bob believe", "Ann", id="after-a-believe"),
    pytest.param("Ann claim 9; Bob lift 4-5", "Ann", id="between-rounds"),
    pytest.param("Bob resign", "Ann", id="after-the-match"),
]


@pytest.mark.parametrize(("script", "first"), WHENEVER)
def test_nobody_ever_joins_a_kiriki_match(script: str, first: str | None) -> None:
    state = play(script, match(first=first))
    with pytest.raises(RuleViolation) as refused:
        kr.apply(state, Join("Dee"))
    assert str(refused.value) == NOT_TWO
    assert "join" not in kr.legal_actions(state)


def test_join_is_refused_before_any_name_check() -> None:
    with pytest.raises(RuleViolation, match="Ann cannot join: Kiriki is played by exactly two"):
        kr.apply(match(), Join("Ann"))


# ------------------------------------------------------------------ leave is resigning

LEAVES = [
    pytest.param("", "Ann", id="on-turn-before-a-claim"),
    pytest.param("", "Bob", id="not-on-turn"),
    pytest.param("Ann claim 9", "Bob", id="on-turn-facing-a-claim"),
    pytest.param("Ann claim 9", "Ann", id="the-claimer-not-on-turn"),
    pytest.param("Ann claim 9; Bob lift 4-5; Bob claim 10; Ann believe", "Bob",
                 id="believed-and-in-control"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "who"), LEAVES)
def test_leaving_a_match_is_resigning_it(script: str, who: str) -> None:
    state = play(script, match())
    left = kr.apply(state, Leave(who))
    resigned = kr.apply(state, kr.Resign(who))
    assert dataclasses.replace(left, ruling=()) == dataclasses.replace(resigned, ruling=())
    other = "Bob" if who == "Ann" else "Ann"
    assert left.ruling == (Left(who), resigned.ruling[1])
    assert kr.outcome(left) == kr.outcome(resigned) and kr.outcome(left).winners == (other,)
    said = words(left.ruling)
    assert said.startswith(f"{who} leaves: {who} resigns; {other} wins the match")
    assert kr.over_words(left).endswith(f", {who} resigned")


def test_nobody_leaves_a_finished_match() -> None:
    state = play("Bob resign", match())
    for event in (Leave("Ann"), Replace("Ann", "Eve")):
        with pytest.raises(RuleViolation, match="the match is over: Ann won 0-0, Bob resigned"):
            kr.apply(state, event)


def test_leave_and_replace_are_open_all_match_but_not_listed() -> None:
    """Like resign: at a Kiriki table `l` is lift and `r` is roll, never leave or replace."""
    state = play("Ann claim 9", match())
    assert kr.legal_actions(state) == ("lift", "believe", "roll")


# ------------------------------------------------------------------ replace


def test_the_taker_has_the_side_s_points_turn_and_claim() -> None:
    state = play("Ann claim 9; Bob lift 4-5; Bob claim 10", match())  # Ann 1-0, Ann answers
    taken = kr.apply(state, Replace("Bob", "Eve"))
    assert [s.name for s in taken.sides] == ["Ann", "Eve"] and taken.score == (1, 0)
    assert kr.turn(taken) == "Ann" and taken.claim is state.claim and taken.claimer == 1
    assert taken.ruling == (Replaced("Bob", "Eve", 0),)
    assert words(taken.ruling) == "Eve takes Bob's side of the match"
    assert "'Bob'" not in repr(dataclasses.replace(taken, ruling=()))
    won = play("Ann lift 4-5; Eve claim 10; Ann lift 4-5", taken)  # two lies lifted: 3-0
    assert won.is_over and kr.outcome(won).standings == ("Ann", "Eve")
    assert kr.scores(won) == {"Ann": 3, "Eve": 0}


BAD = [
    pytest.param(Replace("Bob", "ann"), UsageError, "'ann' is already at the table",
                 id="a-seated-name-in-another-case"),
    pytest.param(Replace("Bob", "Annie"), UsageError, "'Annie' is already at the table",
                 id="a-nickname"),
    pytest.param(Replace("Bob", "BOB"), UsageError, "'BOB' is already", id="himself"),
    pytest.param(Replace("Zed", "Eve"), UsageError, "unknown player 'Zed'", id="nobody's-side"),
    pytest.param(Replace("Bob", " "), UsageError, "empty player name", id="no-name"),
]  # fmt: skip


@pytest.mark.parametrize(("event", "error", "said"), BAD)
def test_a_taker_is_somebody_new(event: Any, error: type[Exception], said: str) -> None:
    with pytest.raises(error, match=said):
        kr.apply(match(nick="Annie"), event)


# ------------------------------------------------------------------ money

LOST = [
    pytest.param("Ann claim 9; Bob lift 4-5", {"Ann": 100, "Bob": 150}, id="a-lift-on-truth"),
    pytest.param("Ann claim 9; Bob lift 3-1", {"Ann": 150, "Bob": 100}, id="a-lift-on-a-lie"),
    pytest.param("Ann kiriki", {"Ann": 100, "Bob": 150}, id="a-shown-kiriki"),
    pytest.param("Ann claim 9; Bob believe; Ann reveal 3-1", {"Ann": 100, "Bob": 150},
                 id="a-believed-bluff"),
    pytest.param("Ann claim 9; Bob lift 4-5; Bob kiriki", {"Ann": 150, "Bob": 150},
                 id="one-round-each"),
    pytest.param("Bob resign", {"Ann": 100, "Bob": 100}, id="a-resignation-loses-no-round"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "paid"), LOST)
def test_the_stake_and_each_round_lost_are_paid_into_the_pot(
    script: str, paid: dict[str, int]
) -> None:
    state = play(script, match(stake=100, loss_value=50))
    assert {n: state.purse.put_in(n) for n in ("Ann", "Bob")} == paid


def test_the_taker_pays_the_side_s_holder_what_he_had_put_in() -> None:
    state = play("Ann claim 9; Bob lift 4-5", match(stake=100, loss_value=50))
    taken = kr.apply(state, Replace("Bob", "Eve"))
    assert taken.ruling == (Replaced("Bob", "Eve", 150),)
    assert words(taken.ruling) == "Eve takes Bob's side of the match, paying Bob 1.50"
    assert taken.purse.moved == (Transfer("Eve", "Bob", 150),)
    again = kr.apply(taken, Replace("Eve", "Fay"))  # what Eve paid for the side, to Eve
    assert again.purse.moved[-1] == Transfer("Fay", "Eve", 150)


def session_of(rules: dict[str, object], first: str = "Ann") -> tuple[Session, Any]:
    table = {**storage.load_ruleset("kiriki"), **rules}
    players = (PlayerInfo("Ann"), PlayerInfo("Bob"))
    session = Session("u", "kiriki", table, players, {"format": "bullet", "first": first})
    return session, replay(session)


def events(session: Session, state: Any, *made: Any) -> tuple[Session, Any]:
    for event in made:
        session, state = append(session, state, event)
    return session, state


PAYOUTS = [
    pytest.param({"stake": 2}, {"Ann": 200, "Eve": -200}, {"Ann": 400}, id="winner-takes"),
    pytest.param({"stake": 2, "loss_value": 0.5, "payout": "places", "payout_split": [70, 30]},
                 {"Ann": 140, "Bob": 0, "Eve": -140}, {"Ann": 490, "Eve": 210}, id="places"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "nets", "takes"), PAYOUTS)
def test_a_finished_match_s_money_nets_to_zero(
    rules: dict[str, object], nets: dict[str, int], takes: dict[str, int]
) -> None:
    session, state = session_of(rules)
    session, state = events(
        session, state, kr.Claim("Ann", Rank.NINE), Replace("Bob", "Eve"),
        kr.Lift("Eve", Roll(4, 5)), kr.ShowKiriki("Eve"), kr.ShowKiriki("Ann"),
        kr.ShowKiriki("Eve"), kr.ShowKiriki("Ann"), kr.ShowKiriki("Eve"), Leave("Eve"),
    )  # fmt: skip
    assert state.is_over and kr.outcome(state).standings == ("Ann", "Eve")
    found = money(session, state)
    assert found is not None and found.result is not None
    assert dict(found.result.takes) == takes
    assert {n: v for n, v in found.result.nets.items() if v or n in nets} == nets
    assert sum(found.result.nets.values()) == 0


def test_kiriki_never_pays_per_point() -> None:
    with pytest.raises(RulesetError, match="per_point is Kalooki's only"):
        kr.Rules.from_table({"payout": "per_point"})
    with pytest.raises(RulesetError, match="unknown key 'late_join'"):
        kr.Rules.from_table({"late_join": "never"})  # nobody joins: no key says when


# ------------------------------------------------------------------ undo


@pytest.mark.parametrize(
    "event",
    [pytest.param(Leave("Bob"), id="leave"), pytest.param(Replace("Bob", "Eve"), id="replace")],
)
def test_a_leave_or_a_replace_undone_leaves_the_match_as_it_was(event: Any) -> None:
    session, state = session_of({"stake": 1, "loss_value": 0.25})
    session, state = events(session, state, kr.Claim("Ann", Rank.NINE))
    before = state
    session, state = append(session, state, event)
    assert state != before
    session, state, _ = undo(session)
    assert state == before


# ------------------------------------------------------------------ KR and the command line

START = ("new", "kiriki", "Ann", "Bob", "--format", "bullet", "--first", "Ann", "--ranked",
         "--name", "duel", "--set", "stake=1")  # fmt: skip


def test_a_taken_over_match_is_rated_and_rematched_by_who_finished_it(
    referee: Runner, home: Path
) -> None:
    assert referee(*START).code == 0
    assert referee("kr", "claim", "9").code == 0
    taken = referee("kr", "replace", "bo", "Eve")
    assert taken.code == 0 and " ".join(taken.out.split()).startswith(
        "Eve takes Bob's side of the match, paying Bob 1"
    )
    for line in (["lift", "4-5"], ["claim", "10"], ["lift", "4-5"], ["claim", "10"],
                 ["lift", "4-5"]):  # Ann 3-0: her 9 held, two lies lifted  # fmt: skip
        assert referee("kr", *line).code == 0, line
    doc: dict[str, Any] = json.loads(referee("show", "--json").out)
    assert doc["winner"] == "Ann" and [p["name"] for p in doc["players"]] == ["Ann", "Eve"]
    loaded = storage.load(session_file(home, "duel"))
    assert [(m.winner, m.loser) for m in matches([loaded])] == [("Ann", "Eve")]
    rated = json.loads(referee("ratings", "--json").out)
    assert {p["name"] for p in rated["games"]["kiriki"]["players"]} == {"Ann", "Eve"}
    assert referee("kr", "rematch", "--name", "again").code == 0
    again = storage.load(session_file(home, "again"))
    assert [p.name for p in again.session.players] == ["Ann", "Eve"]
    assert again.state.turn == 1  # the loser, Eve, rolls first


def test_join_leave_log_undo_and_show_json_on_the_command_line(referee: Runner, home: Path) -> None:
    assert referee(*START).code == 0
    assert referee("kr", "claim", "9").code == 0
    before = snapshot(session_file(home, "duel"))
    refused = referee("kiriki", "join", "Dee", "--after", "Ann")
    assert (refused.code, refused.err) == (1, f"error: {NOT_TWO}\n")
    assert snapshot(session_file(home, "duel")) == before
    left = referee("kiriki", "leave", "bob")
    said = " ".join(left.out.split())
    assert left.code == 0 and said.startswith("Bob leaves: Bob resigns; Ann wins the match 0-0")
    assert "leave Bob" in referee("log", "--script").out
    assert "Bob leaves" in referee("log").out
    doc: dict[str, Any] = json.loads(referee("show", "--json").out)
    assert (doc["winner"], doc["phase"]) == ("Ann", "over")
    assert referee("undo").code == 0
    doc = json.loads(referee("show", "--json").out)
    assert (doc["winner"], doc["phase"], doc["turn"]) == (None, "answer", "Bob")


REFUSED = [
    pytest.param(("replace", "Bob", "ann"), 2, "'ann' is already at the table", id="seated"),
    pytest.param(("replace", "Zed", "Eve"), 2, "unknown player 'Zed'", id="unknown-old"),
    pytest.param(("leave", "Zed"), 2, "unknown player 'Zed'", id="unknown-leaver"),
    pytest.param(("join", "Ann"), 1, "Ann cannot join: Kiriki is played by exactly two",
                 id="join-a-seated-name"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "code", "said"), REFUSED)
def test_a_refused_roster_change_is_one_line_and_changes_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, said: str
) -> None:
    assert referee(*START).code == 0
    before = snapshot(session_file(home, "duel"))
    result = referee("kiriki", *args)
    assert result.code == code and said in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home, "duel")) == before
