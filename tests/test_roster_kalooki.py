"""Kalooki's night (RULES.md section 7 on section 5): stakes paid as penalty points are scored,
a newcomer sitting down before a round is dealt, a player leaving for good, a seat taken over;
through the engine, the session's undo, the money and the command line."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RuleViolation, UsageError
from referee.games.base import PlayerInfo
from referee.games.kalooki import engine as kg
from referee.games.kalooki import melds as k
from referee.games.kalooki.card import card_lines, columns, sheet, totals_card
from referee.games.kalooki.words import words
from referee.games.money import Payout, Purse, Stakes, Transfer
from referee.games.roster import Join, Joined, LateJoin, Leave, Left, Replace, Replaced
from referee.render.cells import width_of
from referee.session import Session, append, money, replay, undo
from test_kalooki_game import contract_of, play

RULES = k.Rules.from_table(storage.load_ruleset("kalooki"), "kalooki")


def game(
    players: str = "Ann Bob Cy",
    late_join: LateJoin = LateJoin.UNTIL_FIRST_OUT,
    nick: dict[str, str] | None = None,
    **stakes: Any,
) -> kg.State:
    """A fresh game with these stakes (in cents) and this `late_join`."""
    rules = dataclasses.replace(RULES, stakes=Stakes(**stakes), late_join=late_join)
    people = [PlayerInfo(n, (nick or {}).get(n)) for n in players.split()]
    return kg.start(rules, people, kg.options_from_table({}, people, rules))


def close_round(state: kg.State, out: str, points: int) -> kg.State:
    """`out` lays down (unless down) and goes out; every other hand dealt is `points`."""
    others = [
        s.name for s in state.seats if s.name != out and s.is_dealt(state.round) and s.hand is None
    ]
    down = "" if state.seats[state.index(out)].down else f"{out} down {contract_of(state)}; "
    hands = "; ".join(f"{o} hand points {points}" for o in others)
    return play(f"{down}{out} out; {hands}", state)


def run(script: str, state: kg.State) -> kg.State:
    """`play`'s lines, and the roster's: `join Dee after Ann`, `leave Bob`, `replace Bob Eve`,
    `close Ann 50` (Ann lays down, goes out, every other hand 50)."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        first, *rest = line.split()
        if first == "join":
            after = rest[2] if len(rest) > 2 else None
            state = kg.apply(state, Join(rest[0], after))
        elif first == "leave":
            state = kg.apply(state, Leave(rest[0]))
        elif first == "replace":
            state = kg.apply(state, Replace(rest[0], rest[1]))
        elif first == "close":
            state = close_round(state, out=rest[0], points=int(rest[1]))
        else:
            state = play(line, state)
    return state


def names(state: kg.State) -> list[str]:
    return [s.name for s in state.seats]


# ------------------------------------------------------------------ join: when

JOINS = [
    pytest.param("", None, id="before-round-1-is-dealt"),
    pytest.param("close Ann 50", None, id="between-rounds"),
    pytest.param("stockout; stockout", None, id="after-a-void-deal-before-the-new-one"),
    pytest.param("join Dee", None, id="a-second-newcomer"),
    pytest.param("join Dee; leave Bob", "Bob has left (late_join = until_first_out)",
                 id="just-after-the-first-leave"),
    pytest.param("leave Bob", "Bob has left (late_join = until_first_out)",
                 id="after-a-leave-at-a-fresh-deal"),
    pytest.param("Bob call", "round 1 is under way: a newcomer sits down before a round is dealt",
                 id="after-a-call"),
    pytest.param("Cy call refused by Ann", "round 1 is under way", id="after-a-refused-call"),
    pytest.param("stockout", "round 1 is under way", id="after-a-first-stock-out"),
    pytest.param("Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out", "round 1 is under way",
                 id="while-the-hands-are-entered"),
    pytest.param("join Dee; join Eve; join Fay", "at most 6, and 6 sit here",
                 id="past-the-maximum"),
]  # fmt: skip


@pytest.mark.parametrize(("before", "refused"), JOINS)
def test_a_newcomer_sits_down_only_before_a_deal_and_until_someone_leaves(
    before: str, refused: str | None
) -> None:
    state = run(before, game())
    if refused is None:
        joined = kg.apply(state, Join("Gil"))
        assert names(joined)[-1] == "Gil" and "join" in kg.legal_actions(state)
        highest = max(s.total for s in state.seats)
        assert joined.ruling == (Joined("Gil", names(state)[-1], highest, 0),)
    else:
        assert refused in _refusal(state)
        assert "join" not in kg.legal_actions(state)


def _refusal(state: kg.State) -> str:
    try:
        kg.apply(state, Join("Gil"))
    except RuleViolation as error:
        return str(error)
    raise AssertionError("joined")


def test_the_edge_join_just_before_the_first_leave_and_not_right_after() -> None:
    state = run("close Ann 40; join Dee", game())  # the event just before someone leaves
    assert names(state) == ["Ann", "Bob", "Cy", "Dee"]
    gone = run("leave Bob", state)
    assert _refusal(gone) == "Gil cannot join: Bob has left (late_join = until_first_out)"


def test_late_join_never_refuses_every_newcomer() -> None:
    state = game(late_join=LateJoin.NEVER)
    assert _refusal(state) == "Gil cannot join: this table takes no newcomers (late_join = never)"
    assert "join" not in kg.legal_actions(state)
    assert k.Rules.from_table({"late_join": "never"}).late_join is LateJoin.NEVER


def test_the_game_over_refuses_a_join_a_leave_and_a_replace() -> None:
    state = game()
    for _ in range(9):
        state = close_round(state, out="Ann", points=50)
    assert state.is_over and kg.legal_actions(state) == ("fix",)
    for event in (Join("Gil"), Leave("Bob"), Replace("Bob", "Eve")):
        with pytest.raises(RuleViolation, match="the game is over after round 9"):
            kg.apply(state, event)


# ------------------------------------------------------------------ join: who, where, at what

BAD_NEWCOMERS = [
    pytest.param(Join("Ann"), "'Ann' is already at the table", id="a-name-seated"),
    pytest.param(Join("bOB"), "'bOB' is already at the table", id="a-name-seated-in-another-case"),
    pytest.param(Join("annie"), "'annie' is already at the table", id="a-nickname-clash"),
    pytest.param(Join("Dee", "Zed"), "unknown player 'Zed'", id="after-an-unknown-player"),
    pytest.param(Join("  "), "empty player name", id="no-name"),
    pytest.param(Join("-x"), "may not start with '-'", id="an-option-for-a-name"),
    pytest.param(Replace("Bob", "cy"), "'cy' is already at the table", id="replace-by-a-seated"),
    pytest.param(Replace("Bob", "ANNIE"), "'ANNIE' is already", id="replace-by-a-nickname"),
    pytest.param(Replace("Bob", "bob"), "'bob' is already", id="replace-by-himself"),
]


@pytest.mark.parametrize(("event", "said"), BAD_NEWCOMERS)
def test_a_newcomer_s_name_is_one_nobody_at_the_table_has(event: Any, said: str) -> None:
    state = game(nick={"Ann": "Annie"})
    with pytest.raises(UsageError, match=said):
        kg.apply(state, event)


SEATS = [
    pytest.param(None, ["Ann", "Bob", "Cy", "Dee"], "Cy", id="default-the-last-seat"),
    pytest.param("Cy", ["Ann", "Bob", "Cy", "Dee"], "Cy", id="after-the-last-seat"),
    pytest.param("Ann", ["Ann", "Dee", "Bob", "Cy"], "Ann", id="after-the-first"),
    pytest.param("Bob", ["Ann", "Bob", "Dee", "Cy"], "Bob", id="in-the-middle"),
]


@pytest.mark.parametrize(("after", "seated", "said_after"), SEATS)
def test_a_newcomer_sits_after_the_player_named(
    after: str | None, seated: list[str], said_after: str
) -> None:
    state = kg.apply(game(), Join("Dee", after))
    assert names(state) == seated
    assert state.ruling == (Joined("Dee", said_after, 0, 0),)
    assert state.name(state.dealer) == "Ann"  # the deal of round 1 is still Ann's


def test_the_newcomer_starts_at_the_highest_total_and_is_dealt_in_from_his_round() -> None:
    state = run("close Ann 30; close Bob 45; join Dee after Ann", game())
    dee = state.seats[1]
    assert (dee.name, dee.total, dee.carried, dee.joined) == ("Dee", 75, 75, 3)
    assert dee.scores == (None, None)
    assert words(state.ruling) == ("Dee joins after Ann, starting at 75 (the highest total)")
    state = close_round(state, out="Cy", points=40)  # his hand is entered like anyone's
    assert state.seats[1].scores == (None, None, 40) and state.seats[1].total == 115
    assert kg.scores(state) == {"Ann": 85, "Dee": 115, "Bob": 70, "Cy": 75}


def test_the_deal_passes_through_the_newcomer_s_seat() -> None:
    """Kalooki keeps no turns: the newcomer's seat's turn is the deal, which reaches him."""
    state = run("close Ann 30; join Dee after Bob", game())  # Bob deals round 2
    assert state.name(state.dealer) == "Bob"
    dealers = []
    while not state.is_over:
        dealers.append(state.name(state.dealer))
        state = close_round(state, out="Ann", points=50)
    assert dealers == ["Bob", "Dee", "Cy", "Ann", "Bob", "Dee", "Cy", "Ann"]


def test_a_join_before_the_dealer_moves_no_deal() -> None:
    state = run("close Ann 30; close Bob 30", game())  # Cy deals round 3
    state = run("join Dee after Ann", state)
    assert names(state) == ["Ann", "Dee", "Bob", "Cy"] and state.name(state.dealer) == "Cy"
    assert list(kg.dealers_ahead(state).values())[:4] == ["Cy", "Ann", "Dee", "Bob"]


def test_the_sheet_keeps_its_rounds_seat_by_seat_after_a_join() -> None:
    state = run("Bob call; close Ann 30; join Dee after Ann", game())
    assert [p.calls for p in state.played] == [(0, 0, 1, 0)]
    assert [p.down for p in state.played] == [(True, False, False, False)]
    state = kg.apply(state, kg.Fix(1, "Bob", None, 31))  # Bob's round 1 hand, still his
    assert state.seats[2].scores == (31,) and state.seats[2].name == "Bob"
    with pytest.raises(RuleViolation, match="Dee was not dealt round 1: no hand to fix"):
        kg.apply(state, kg.Fix(1, "Dee", None, 31))


# ------------------------------------------------------------------ leave

LEAVES = [
    pytest.param("leave Bob", "Bob", (None,), 1, id="before-the-deal"),
    pytest.param("Bob call; leave Bob", "Bob", (None,), 1, id="mid-deal-his-hand-is-dead"),
    pytest.param("Ann call; leave Bob", "Bob", (None,), 1, id="mid-deal-not-his-play"),
    pytest.param("Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out; Bob hand points 20;"
                 " leave Bob", "Bob", (20,), 2, id="in-the-scoring-his-hand-in-counts"),
    pytest.param("Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out; leave Ann", "Ann", (0,), 2,
                 id="who-went-out-leaves-in-the-scoring"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "who", "round_1", "left"), LEAVES)
def test_a_player_who_leaves_is_dealt_no_more_rounds(
    script: str, who: str, round_1: tuple[int | None], left: int
) -> None:
    state = run(script, game("Ann Bob Cy Dee"))
    assert state.seats[state.index(who)].left == left and state.gone == (who,)
    assert Left(who) in state.ruling
    if state.phase is kg.Phase.PLAYING:
        state = close_round(state, out="Cy", points=40)  # his hand is not asked for
    else:
        others = [s.name for s in state.seats if s.hand is None]
        state = play("; ".join(f"{o} hand points 40" for o in others), state)
    assert state.round == 2 and state.seats[state.index(who)].scores == round_1
    with pytest.raises(RuleViolation, match=f"{who} has left the game"):
        play(f"{who} call", state)
    assert outcome_places(state)[-1] == (who, 4)


def outcome_places(state: kg.State) -> list[tuple[str, int]]:
    found = kg.outcome(state)
    return list(zip(found.standings, found.places, strict=True))


def test_a_leave_in_the_scoring_waits_for_his_hand() -> None:
    state = run("Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out", game())
    with pytest.raises(RuleViolation, match="Bob's hand is not in: round 1 is over, so it counts"):
        kg.apply(state, Leave("Bob"))


LEAVE_REFUSED = [
    pytest.param("leave Bob", Leave("Bob"), RuleViolation, "Bob has left already",
                 id="leave-of-a-player-who-left"),
    pytest.param("leave Bob", Replace("Bob", "Eve"), RuleViolation,
                 "Bob has left: there is no seat to take over", id="replace-of-who-left"),
    pytest.param("", Leave("Zed"), UsageError, "unknown player 'Zed'", id="leave-of-nobody"),
    pytest.param("", Replace("Zed", "Eve"), UsageError, "unknown player 'Zed'",
                 id="replace-of-nobody"),
    pytest.param("leave Bob", kg.Call("Cy", True, "Bob"), RuleViolation, "Bob has left the game",
                 id="a-refusal-by-who-left"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "event", "error", "said"), LEAVE_REFUSED)
def test_what_a_leave_refuses(script: str, event: Any, error: type[Exception], said: str) -> None:
    state = run(script, game("Ann Bob Cy Dee"))
    with pytest.raises(error, match=said):
        kg.apply(state, event)


def test_the_dealer_who_leaves_before_his_deal_passes_it_on() -> None:
    state = run("close Ann 30", game())  # Bob deals round 2
    state = kg.apply(state, Leave("Bob"))
    assert state.name(state.dealer) == "Cy"
    assert words(state.ruling) == (
        "Bob leaves: dealt no more rounds, ranked below all who play on; Cy deals round 2 instead"
    )
    assert list(kg.dealers_ahead(state).values())[:3] == ["Cy", "Ann", "Cy"]


def test_the_dealer_who_leaves_mid_deal_keeps_that_deal() -> None:
    state = run("close Ann 30; Cy call; leave Bob", game("Ann Bob Cy Dee"))
    assert state.name(state.dealer) == "Bob" and len(state.ruling) == 1
    state = close_round(state, out="Cy", points=40)
    assert state.played[-1].dealer == "Bob" and state.name(state.dealer) == "Cy"


def test_two_play_on_and_a_leave_that_leaves_one_ends_the_game() -> None:
    state = run("close Ann 30; leave Bob", game())  # Ann 0, Cy 30: two play on
    assert not state.is_over and "leave" in kg.legal_actions(state)
    state = run("close Cy 40; Ann call", state)  # Ann 40, Cy 30
    state = kg.apply(state, Leave("Cy"))  # Cy leaves with the lower total: Ann wins
    assert state.is_over and state.winners == ("Ann",)
    assert words(state.ruling).endswith("; Ann wins with 40")
    assert outcome_places(state) == [("Ann", 1), ("Cy", 2), ("Bob", 3)]
    assert kg.outcome(state).finished and kg.legal_actions(state) == ("fix",)
    assert kg.summary(state)["winner"] == "Ann" and kg.summary(state)["rounds_played"] == 2


def test_who_plays_to_the_end_ranks_above_who_left_and_a_tie_shares_a_place() -> None:
    state = run("close Ann 30; leave Bob; close Ann 40; leave Eve", game("Ann Bob Cy Dee Eve"))
    for _ in range(7):
        state = close_round(state, out="Ann", points=40)
    assert state.is_over
    assert [(s.name, s.total) for s in state.seats] == [
        ("Ann", 0), ("Bob", 30), ("Cy", 350), ("Dee", 350), ("Eve", 70)]  # fmt: skip
    assert outcome_places(state) == [("Ann", 1), ("Cy", 2), ("Dee", 2), ("Eve", 4), ("Bob", 5)]


# ------------------------------------------------------------------ replace


def test_the_newcomer_takes_the_seat_with_everything_on_it() -> None:
    state = run("close Bob 30; Bob call", game())
    state = play(f"Bob down {contract_of(state)}", state)
    before = state.seats[1]
    state = kg.apply(state, Replace("Bob", "Eve"))
    eve = state.seats[1]
    assert names(state) == ["Ann", "Eve", "Cy"] and eve == dataclasses.replace(before, name="Eve")
    assert {m.owner for m in state.table} == {"Eve"} and state.played[0].out == "Eve"
    assert state.played[0].dealer == "Ann" and state.name(state.dealer) == "Eve"
    assert "'Bob'" not in repr(dataclasses.replace(state, purse=Purse(), ruling=()))
    state = play("Eve out; Ann hand points 40; Cy hand points 50", state)
    assert kg.scores(state) == {"Ann": 70, "Eve": 0, "Cy": 80}


def test_a_replace_keeps_the_laying_turn_of_his_seat() -> None:
    rules = dataclasses.replace(RULES, out_on_laydown=False)
    people = [PlayerInfo(n) for n in ("Ann", "Bob", "Cy")]
    state = kg.start(rules, people, kg.options_from_table({}, people, rules))
    state = run("Bob call; Bob down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; replace Bob Eve", state)
    with pytest.raises(RuleViolation, match="Eve cannot go out: Eve laid down this turn"):
        play("Eve out", state)


# ------------------------------------------------------------------ money


def test_the_stake_is_paid_at_the_start_and_on_joining() -> None:
    state = run("close Ann 20; join Dee", game(stake=200))
    assert state.purse.pot == 800 and state.purse.put_in("Dee") == 200
    assert state.ruling == (Joined("Dee", "Cy", 20, 200),)
    assert words(state.ruling) == "Dee joins after Cy, starting at 20 (the highest total), paying 2"


def test_each_penalty_point_pays_the_loss_value_as_the_hand_is_scored() -> None:
    state = run("Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out", game(loss_value=5))
    state = play("Bob hand points 30", state)
    assert state.purse.put_in("Bob") == 150 and state.purse.put_in("Cy") == 0
    state = play("Cy hand points 18", state)
    assert state.purse.put_in("Cy") == 90 and state.purse.put_in("Ann") == 0
    up = kg.apply(state, kg.Fix(1, "Bob", None, 40))  # ten points more: ten more paid
    assert up.purse.put_in("Bob") == 200
    down = kg.apply(up, kg.Fix(1, "Bob", None, 20))  # corrected down: nothing back
    assert down.purse.put_in("Bob") == 200 and down.seats[1].total == 20


def test_who_takes_a_seat_pays_its_holder_what_he_had_paid() -> None:
    state = run("Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out; Bob hand points 30",
                game(stake=100, loss_value=1))  # fmt: skip
    state = kg.apply(state, Replace("Bob", "Eve"))
    assert state.ruling == (Replaced("Bob", "Eve", 130),)
    assert words(state.ruling) == "Eve takes Bob's seat, total and calls, paying Bob 1.30"
    assert state.purse.moved == (Transfer("Eve", "Bob", 130),)
    assert kg.GAME.seats is not None and [p.name for p in kg.GAME.seats(state)] == [
        "Ann", "Eve", "Cy"]  # fmt: skip


def session_of(rules: dict[str, object], players: str = "Ann Bob Cy") -> tuple[Session, Any]:
    table = {**storage.load_ruleset("kalooki"), **rules}
    session = Session("u", "kalooki", table, tuple(PlayerInfo(n) for n in players.split()), {})
    return session, replay(session)


def played_to_the_end(session: Session, state: Any, plan: list[Any]) -> tuple[Session, Any]:
    """The events of `plan` (roster events, or `(out, points)` for a round) to the end."""
    for step in plan:
        if isinstance(step, tuple):
            out, points = step
            before = state
            after = close_round(before, out=out, points=points)
            # the same round as events through the session
            others = [s.name for s in before.seats if s.name != out and s.is_dealt(before.round)]
            laid = tuple(tuple(m) for m in k.parse_lay_down([contract_of(before)]))
            events = [kg.Down(out, laid), kg.Out(out)]
            events += [kg.Hand(o, None, points) for o in others]
            for event in events:
                session, state = append(session, state, event)
            assert state == dataclasses.replace(after, events=state.events)
        else:
            session, state = append(session, state, step)
    return session, state


def test_a_finished_game_s_money_nets_to_zero_with_a_leaver_and_a_taker() -> None:
    session, state = session_of({"stake": 2, "loss_value": 0.01})
    plan: list[Any] = [("Ann", 40), Join("Dee", "Ann"), ("Cy", 50), Leave("Bob"),
                       Replace("Dee", "Eve"), *[("Ann", 45)] * 7]  # fmt: skip
    session, state = played_to_the_end(session, state, plan)
    found = money(session, state)
    assert found is not None and found.result is not None
    assert kg.outcome(state).standings == ("Ann", "Cy", "Eve", "Bob")
    result = found.result
    assert sum(result.nets.values()) == 0
    pot = found.purse.pot
    assert result.takes == {"Ann": pot}
    assert Transfer("Eve", "Dee", 200 + 50) in result.transfers  # his stake, his 50 points
    assert result.nets["Dee"] == 0  # what Dee put in, Eve paid him back


def test_per_point_each_pays_the_winners_his_total_minus_theirs() -> None:
    session, state = session_of({"payout": "per_point", "point_value": 0.1}, "Ann Bob Cy Dee")
    plan: list[Any] = [("Ann", 40), ("Cy", 50), Leave("Dee"), *[("Cy", 40)] * 7]
    session, state = played_to_the_end(session, state, plan)
    assert kg.scores(state) == {"Ann": 330, "Bob": 370, "Cy": 40, "Dee": 90}
    found = money(session, state)
    assert found is not None and found.result is not None
    assert state.winners == ("Cy",)
    assert outcome_places(state) == [("Cy", 1), ("Ann", 2), ("Bob", 3), ("Dee", 4)]
    assert found.result.transfers == (
        Transfer("Ann", "Cy", 2900),
        Transfer("Bob", "Cy", 3300),
        Transfer("Dee", "Cy", 3300),  # he left with 90, below all who played on: pays as Bob
    )
    assert sum(found.result.nets.values()) == 0


def test_per_point_with_a_tie_for_the_lowest_divides_among_the_winners() -> None:
    session, state = session_of({"payout": "per_point", "point_value": 0.05})
    plan: list[Any] = [*[("Ann", 40), ("Bob", 40)] * 4, ("Cy", 40)]
    session, state = played_to_the_end(session, state, plan)
    assert kg.scores(state) == {"Ann": 200, "Bob": 200, "Cy": 320}
    assert outcome_places(state) == [("Ann", 1), ("Bob", 1), ("Cy", 3)]
    found = money(session, state)
    assert found is not None and found.result is not None
    assert found.result.transfers == (Transfer("Cy", "Ann", 300), Transfer("Cy", "Bob", 300))


def test_per_point_takes_no_stake_and_no_loss_value() -> None:
    with pytest.raises(Exception, match="per_point has no pot"):
        k.Rules.from_table({"payout": "per_point", "stake": 1})
    assert k.Rules.from_table({"payout": "per_point"}).stakes.payout is Payout.PER_POINT


# ------------------------------------------------------------------ undo


@pytest.mark.parametrize(
    "event",
    [
        pytest.param(Join("Dee", "Ann"), id="join"),
        pytest.param(Leave("Bob"), id="leave"),
        pytest.param(Replace("Bob", "Eve"), id="replace"),
    ],
)
def test_a_roster_change_undone_leaves_the_state_before_it(event: Any) -> None:
    session, state = session_of({"stake": 1, "loss_value": 0.01})
    session, state = played_to_the_end(session, state, [("Ann", 40)])
    before = state
    session, state = append(session, state, event)
    assert state != before
    session, state, undone = undo(session)
    assert state == before and undone["type"] == event.__class__.__name__.lower()


# ------------------------------------------------------------------ the sheet


def test_the_sheet_starts_a_newcomer_s_column_at_his_round_and_marks_who_left() -> None:
    state = run("close Ann 30; close Bob 45; join Dee after Ann; Ann call; leave Cy", game())
    state = close_round(state, out="Ann", points=40)
    lines = [t.plain.rstrip() for t in sheet(state, 40)]
    assert lines[:5] == [
        "rnd code dl by    Ann   Dee   Bob    Cy",
        " 1  333   9 Ann    *0          30    30",
        " 2  334  10 Bob    45          *0    45",
        " 3  344  11 Cy    *'0    40    40     x",
        " 4> 444  12 Ann     .     .     .",
    ]
    assert lines[-2:] == ["total              45   115    70    75",
                          "calls/3             1     0     0     0"]  # fmt: skip
    shown = "\n".join(t.plain for t in _card_text(state))
    assert "x left" in shown and "Dee in from R3 at 75" in shown


def _card_text(state: kg.State) -> list[Any]:
    from referee.games.kalooki.card import _card

    return _card(state, "night", 40, False)


def test_the_totals_card_runs_a_newcomer_from_his_total_and_stops_at_a_leave() -> None:
    from rich.console import Console

    state = run("close Ann 30; join Dee; Ann call; leave Bob", game())
    state = close_round(state, out="Cy", points=40)
    console = Console(width=40, record=True, color_system=None)
    console.print(totals_card(state, "night", 40))
    shown = [line.rstrip() for line in console.export_text().splitlines()]
    assert shown[2:4] == [
        "  1 Ann        *0     30     30",
        "  2 Bob        40      x    *30     70",
    ]
    assert "x left" in shown[-2]


def test_the_sheet_with_six_long_names_and_roster_changes_fits_40_columns() -> None:
    state = game("Annabelle Bartholomew Cyrus", nick=None)
    state = run("join Dorothea; join Ezekiel after Annabelle; join Fitzgerald", state)
    state = close_round(state, out="Cyrus", points=88)
    state = run("Annabelle call; leave Bartholomew; replace Cyrus Wilhelmina", state)
    for width in (40, 32):
        for line in [*sheet(state, width), *columns(state, width)[0]]:
            assert width_of(line.plain.rstrip()) <= width, line.plain
    assert card_lines(state, 40, "night") >= len(sheet(state, 40))


# ------------------------------------------------------------------ the command line

START = ("new", "kalooki", "Ann", "Bob", "Cy", "--name", "friday", "--set", "stake=1.50")


def test_join_log_undo_and_show_json_on_the_command_line(referee: Runner, home: Path) -> None:
    assert referee(*START).code == 0
    joined = referee("kalooki", "join", "Dee", "--after", "ann")
    assert joined.code == 0, joined.err
    assert " ".join(joined.out.split()).startswith(
        "Dee joins after Ann, starting at 0, paying 1.50"
    )
    doc: dict[str, Any] = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in doc["players"]] == ["Ann", "Dee", "Bob", "Cy"]
    assert doc["players"][1]["joined"] == 1 and doc["players"][1]["left"] is None
    log = referee("log").out
    assert "Dee joins after Ann" in log
    assert "join Dee --after Ann" in referee("log", "--script").out
    assert referee("kalooki", "call", "dee").code == 0  # the newcomer is named like anyone
    assert referee("kalooki", "leave", "b").code == 0  # by a prefix too
    assert referee("undo").code == 0 and referee("undo").code == 0
    assert referee("undo").code == 0
    doc = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob", "Cy"] and doc["events"] == 0


REFUSED = [
    pytest.param(("join", "ann"), 2, "'ann' is already at the table", id="duplicate"),
    pytest.param(("join", "Dee", "--after", "Zed"), 2, "unknown player 'Zed'", id="after-nobody"),
    pytest.param(("leave", "Zed"), 2, "unknown player 'Zed'", id="leave-nobody"),
    pytest.param(("replace", "Bob", "cy"), 2, "'cy' is already at the table", id="replace-seated"),
    pytest.param(("replace", "Bob", "Cy=Cyrus"), 2, "may not contain '='", id="replace-bad-name"),
]


@pytest.mark.parametrize(("args", "code", "said"), REFUSED)
def test_a_refused_roster_change_is_one_line_and_changes_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, said: str
) -> None:
    assert referee(*START).code == 0
    assert referee("kalooki", "call", "bob").code == 0
    before = snapshot(session_file(home))
    result = referee("kalooki", *args)
    assert result.code == code and said in result.err and result.err.count("\n") == 1
    assert snapshot(session_file(home)) == before


def test_a_join_mid_round_is_refused_on_the_command_line(referee: Runner, home: Path) -> None:
    assert referee(*START).code == 0
    assert referee("kalooki", "call", "bob").code == 0
    before = snapshot(session_file(home))
    result = referee("kalooki", "join", "Dee")
    assert result.code == 1 and result.err.strip().endswith(
        "Dee cannot join: round 1 is under way: a newcomer sits down before a round is dealt"
    )
    assert snapshot(session_file(home)) == before
