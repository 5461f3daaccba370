"""Mia's night (RULES.md sections 6 and 7): stakes paid as lives are lost, and people who join
between rounds, leave (a standing value is void) or take over a seat, as tables of short games;
undo, the money of a finished game, and the command line once through."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RefereeError, RuleViolation, UsageError
from referee.games.base import Direction, PlayerInfo
from referee.games.mia import engine as mia
from referee.games.mia.values import MIA, MiaValue
from referee.games.mia.words import words
from referee.games.money import Payout, Stakes, Transfer
from referee.games.roster import Join, Joined, LateJoin, Leave, Left, Replace, Replaced
from referee.session import Session, append, money, replay, undo

DEFAULT = mia.Rules.from_table(storage.load_ruleset("mia"), "mia")
STAKES = Stakes(stake=200, loss_value=50)  # 2 in, 0.50 a life


def table(players: str = "Ann Bob Cy", first: str = "Ann", **changes: Any) -> mia.State:
    """A fresh table (`Ann=Ace` gives Ann a nickname) with `changes` to the default rules."""
    rules = replace(DEFAULT, **changes)
    people = [PlayerInfo(*p.split("=")) for p in players.split()]
    options = mia.options_from_table({"first": first}, people, rules)
    return mia.start(rules, people, options)


def event(line: str) -> mia.Event:
    """`Ann 54`, `Bob lift 43`, `Bob believe`, `Bob giveup`, `Bob pass`, `join Dee after Ann`,
    `leave Bob`, `replace Bob Eve`."""
    who, action, *rest = line.split()
    match who, action:
        case "join", name:
            return Join(name, rest[1] if rest else None)
        case "leave", player:
            return Leave(player)
        case "replace", old:
            return Replace(old, rest[0])
    match action:
        case "believe":
            return mia.Believe(who)
        case "lift":
            return mia.Lift(who, MiaValue.parse(rest[0]))
        case "giveup":
            return mia.GiveUp(who)
        case "pass":
            return mia.Pass(who)
    return mia.Announce(who, MiaValue.parse(action))


def play(script: str, state: mia.State) -> mia.State:
    """Each `;`-separated line of `script` applied in turn."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        state = mia.apply(state, event(line))
    return state


def seats(state: mia.State) -> str:
    """`Ann 6, Dee 6, Bob 5`: who sits where, with his lives."""
    return ", ".join(f"{s.name} {s.lives}" for s in state.seats)


def on_turn(state: mia.State) -> str | None:
    return mia.turn(state)


# ------------------------------------------------------------------ join

JOINS = [
    pytest.param({}, "", "join Dee", "Ann 6, Bob 6, Cy 6, Dee 6", "Ann",
                 "Dee joins after Cy with 6 lives", id="at-the-start-last-seat"),
    pytest.param({}, "", "join Dee after Cy", "Ann 6, Bob 6, Cy 6, Dee 6", "Ann",
                 "Dee joins after Cy with 6 lives", id="after-the-last-seat-named"),
    pytest.param({}, "", "join Dee after Ann", "Ann 6, Dee 6, Bob 6, Cy 6", "Ann",
                 "Dee joins after Ann with 6 lives", id="after-the-player-on-turn"),
    pytest.param({}, "Ann 54; Bob lift 43", "join Dee after Ann", "Ann 5, Dee 5, Bob 6, Cy 6",
                 "Bob", "Dee joins after Ann with 5 lives", id="fewest-lives-turn-moves-up"),
    pytest.param({}, "Ann mia; Bob lift mia; Ann 54; Bob lift 43", "join Dee",
                 "Ann 5, Bob 4, Cy 6, Dee 4", "Bob", "Dee joins after Cy with 4 lives",
                 id="the-fewest-of-anyone-in"),
    pytest.param({"lives": 2}, "Ann 54; Bob lift 43", "join Dee", "Ann 1, Bob 2, Cy 2, Dee 1",
                 "Bob", "Dee joins after Cy with 1 life", id="edge-last-life-before-an-out"),
    pytest.param({"stakes": STAKES}, "", "join Dee", "Ann 6, Bob 6, Cy 6, Dee 6", "Ann",
                 "Dee joins after Cy with 6 lives, paying 2", id="pays-the-stake"),
    pytest.param({"direction": Direction.RIGHT}, "", "join Dee after Ann",
                 "Ann 6, Dee 6, Bob 6, Cy 6", "Ann", "Dee joins after Ann with 6 lives",
                 id="right-hand-play"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "before", "line", "after", "turn", "said"), JOINS)
def test_joins(
    changes: dict[str, Any], before: str, line: str, after: str, turn: str, said: str
) -> None:
    state = play(line, play(before, table(**changes)))
    assert (seats(state), on_turn(state), words(state.ruling)) == (after, turn, said)
    assert state.phase is mia.Phase.OPEN and state.out == ()


REFUSED_JOINS = [
    pytest.param({"lives": 1}, "Ann 54; Bob lift 43", "join Dee", RuleViolation,
                 "Dee cannot join: Ann is already out (late_join = until_first_out)",
                 id="edge-right-after-the-first-out"),
    pytest.param({}, "leave Cy", "join Dee", RuleViolation,
                 "Dee cannot join: Cy is already out (late_join = until_first_out)",
                 id="after-a-leave"),
    pytest.param({"late_join": LateJoin.NEVER}, "", "join Dee", RuleViolation,
                 "Dee cannot join: this table takes nobody once it has begun (late_join = never)",
                 id="late-join-never"),
    pytest.param({}, "Ann 54", "join Dee", RuleViolation,
                 "Dee cannot join: Ann's 54 stands: join between rounds", id="mid-challenge"),
    pytest.param({}, "Ann 54; Bob believe", "join Dee", RuleViolation,
                 "Dee cannot join: Bob believed 54 and rolls: join between rounds",
                 id="believed-a-roll-under-the-cup"),
    pytest.param({}, "Ann mia", "join Dee", RuleViolation, "Ann's Mia stands",
                 id="facing-mia"),
    pytest.param({}, "", "join Bob", UsageError, "'Bob' is already at the table",
                 id="duplicate-name"),
    pytest.param({}, "", "join bOB", UsageError, "'bOB' is already at the table",
                 id="duplicate-in-another-case"),
    pytest.param({}, "", "join ace", UsageError, "'ace' is already at the table",
                 id="a-nickname"),
    pytest.param({}, "", "join Dee after Zed", UsageError, "unknown player 'Zed'",
                 id="after-an-unknown-player"),
    pytest.param({}, "", "join -x", UsageError, "may not start with '-'", id="a-bad-name"),
    pytest.param({}, "replace Bob Eve", "join Bob", UsageError,
                 "'Bob' gave up a seat in this game", id="who-gave-his-seat-up"),
    pytest.param({"lives": 1}, "Ann 54; Bob lift 43; Bob 54; Cy lift 54", "join Dee",
                 RuleViolation, "the game is over: Bob won", id="the-game-is-over"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "before", "line", "error", "message"), REFUSED_JOINS)
def test_refused_joins(
    changes: dict[str, Any], before: str, line: str, error: type[RefereeError], message: str
) -> None:
    state = play(before, table("Ann=Ace Bob Cy", **changes))
    with pytest.raises(error) as caught:
        play(line, state)
    assert message in str(caught.value)
    if error is RuleViolation and not state.is_over:
        assert "join" not in mia.legal_actions(state)


@pytest.mark.parametrize(
    ("changes", "after", "script", "turns"),
    [
        pytest.param({}, "Ann", "Ann 54; Dee 61; Bob 62", ["Dee", "Bob", "Cy"],
                     id="left-he-plays-after-ann"),
        pytest.param({}, None, "Ann 54; Bob 61; Cy 62", ["Bob", "Cy", "Dee"],
                     id="left-last-seat"),
        pytest.param({"direction": Direction.RIGHT}, "Ann", "Ann 54; Cy 61; Bob 62",
                     ["Cy", "Bob", "Dee"], id="right-he-plays-before-bob"),
    ],
)  # fmt: skip
def test_the_newcomer_plays_in_his_seats_turn(
    changes: dict[str, Any], after: str | None, script: str, turns: list[str]
) -> None:
    state = mia.apply(table(**changes), Join("Dee", after))
    seen = []
    for line in script.split(";"):
        state = play(line, state)
        seen.append(on_turn(state))
    assert seen == turns


def test_a_newcomer_goes_out_like_anyone() -> None:
    state = play("join Dee; Ann 54; Bob 61; Cy 62; Dee lift 43", table(lives=1))
    assert (state.out, seats(state)) == (("Cy",), "Ann 1, Bob 1, Cy 0, Dee 1")
    state = play("Dee 31; Ann lift 43; Dee 54; Bob lift 43", state)
    assert state.winner == "Bob" and mia.outcome(state).standings == ("Bob", "Dee", "Ann", "Cy")


# ------------------------------------------------------------------ leave

LEAVES = [
    pytest.param({}, "", "leave Bob", "Ann 6, Bob 0, Cy 6", "Ann", 1, "Bob leaves: out",
                 id="not-on-turn-between-rounds"),
    pytest.param({}, "", "leave Ann", "Ann 0, Bob 6, Cy 6", "Bob", 1,
                 "Ann leaves: out; round 1: Bob rolls", id="on-turn-between-rounds"),
    pytest.param({"direction": Direction.RIGHT}, "", "leave Ann", "Ann 0, Bob 6, Cy 6", "Cy", 1,
                 "Ann leaves: out; round 1: Cy rolls", id="on-turn-right-hand-play"),
    pytest.param({}, "Ann 54", "leave Ann", "Ann 0, Bob 6, Cy 6", "Bob", 2,
                 "Ann leaves: out; round 1 is void, no life lost; round 2: Bob rolls",
                 id="the-announcer-leaves-a-void-round"),
    pytest.param({}, "Ann 54", "leave Bob", "Ann 6, Bob 0, Cy 6", "Cy", 2,
                 "Bob leaves: out; round 1 is void, no life lost; round 2: Cy rolls",
                 id="on-turn-facing-the-value"),
    pytest.param({}, "Ann 54", "leave Cy", "Ann 6, Bob 6, Cy 0", "Bob", 2,
                 "Cy leaves: out; round 1 is void, no life lost; round 2: Bob rolls",
                 id="not-in-the-challenge-still-void"),
    pytest.param({}, "Ann 54; Bob believe", "leave Bob", "Ann 6, Bob 0, Cy 6", "Cy", 2,
                 "Bob leaves: out; round 1 is void, no life lost; round 2: Cy rolls",
                 id="believed-and-rolling"),
    pytest.param({"pass_mia": True}, "Ann mia; Bob pass", "leave Ann", "Ann 0, Bob 6, Cy 6",
                 "Cy", 2, "Ann leaves: out; round 1 is void, no life lost; round 2: Cy rolls",
                 id="a-passed-mia-void"),
    pytest.param({}, "Ann 54; Bob lift 43; Bob 31", "leave Cy", "Ann 5, Bob 6, Cy 0", "Ann", 3,
                 "Cy leaves: out; round 2 is void, no life lost; round 3: Ann rolls",
                 id="void-in-a-later-round"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "before", "line", "after", "turn", "round_", "said"), LEAVES)
def test_leaves(
    changes: dict[str, Any],
    before: str,
    line: str,
    after: str,
    turn: str,
    round_: int,
    said: str,
) -> None:
    state = play(line, play(before, table(**changes)))
    assert (seats(state), on_turn(state), state.round, words(state.ruling)) == (
        after, turn, round_, said,
    )  # fmt: skip
    assert (state.phase, state.standing, state.announcer, state.mia_from) == (
        mia.Phase.OPEN, None, None, None,
    )  # fmt: skip
    gone = line.split()[1]
    assert state.out == (gone,) and state.out_at == (state.events,)


@pytest.mark.parametrize(
    ("players", "before", "line", "winner", "standings", "places"),
    [
        pytest.param("Ann Bob", "", "leave Bob", "Ann", ("Ann", "Bob"), (), id="two-left-one"),
        pytest.param("Ann Bob", "Ann 54", "leave Ann", "Bob", ("Bob", "Ann"), (),
                     id="mid-challenge-the-other-wins"),
        pytest.param("Ann Bob Cy", "Ann 54; Bob lift 43", "leave Bob", "Cy",
                     ("Cy", "Bob", "Ann"), (), id="after-an-out-ranks-above-him"),
    ],
)  # fmt: skip
def test_a_leave_that_ends_the_game(
    players: str,
    before: str,
    line: str,
    winner: str,
    standings: tuple[str, ...],
    places: tuple[int, ...],
) -> None:
    state = play(line, play(before, table(players, lives=1)))
    assert state.is_over and state.phase is mia.Phase.OVER and state.winner == winner
    assert words(state.ruling).endswith(f"{winner} wins")
    result = mia.outcome(state)
    assert (result.finished, result.winners, result.standings, result.places) == (
        True, (winner,), standings, places,
    )  # fmt: skip
    assert mia.legal_actions(state) == () and mia.turn(state) is None


@pytest.mark.parametrize(
    ("before", "line", "error", "message"),
    [
        pytest.param("Ann 54; Bob lift 43", "leave Ann", RuleViolation,
                     "Ann cannot leave: Ann is out already", id="out-of-lives"),
        pytest.param("leave Cy", "leave Cy", RuleViolation, "Cy cannot leave: Cy is out already",
                     id="left-already"),
        pytest.param("", "leave Zed", UsageError, "unknown player 'Zed'", id="nobody-so-called"),
        pytest.param("Ann 54; Bob lift 43; Bob 54; Cy lift 54", "leave Bob", RuleViolation,
                     "the game is over: Bob won", id="the-game-is-over"),
    ],
)  # fmt: skip
def test_refused_leaves(before: str, line: str, error: type[RefereeError], message: str) -> None:
    state = play(before, table(lives=1))
    with pytest.raises(error, match=message):
        play(line, state)


def test_a_left_player_is_skipped_and_shown_out() -> None:
    from referee.games.mia import card
    from referee.render.share import card_text

    state = play("leave Bob; Ann 54", table())
    assert on_turn(state) == "Cy"
    assert json.loads(json.dumps(mia.summary(state)))["players"][1] == {
        "name": "Bob", "nickname": None, "lives": 0, "out": True,
    }  # fmt: skip
    drawn = card_text(card.card(state, "friday", 40), 40)
    assert "  Bob              out" in drawn.splitlines()


# ------------------------------------------------------------------ replace


@pytest.mark.parametrize(
    ("before", "line", "after", "turn", "then", "lost"),
    [
        pytest.param("", "replace Ann Eve", "Eve 6, Bob 6, Cy 6", "Eve", "Eve 54; Bob lift 43",
                     {"Eve": 5}, id="on-turn"),
        pytest.param("Ann 54", "replace Bob Eve", "Ann 6, Eve 6, Cy 6", "Eve",
                     "Eve lift 43", {"Ann": 5}, id="facing-a-value-mid-challenge"),
        pytest.param("Ann 54", "replace Ann Eve", "Eve 6, Bob 6, Cy 6", "Bob",
                     "Bob lift 43", {"Eve": 5}, id="the-announcer-answers-for-it"),
        pytest.param("Ann mia; Bob lift mia", "replace Bob Eve", "Ann 6, Eve 4, Cy 6", "Ann",
                     "Ann 54; Eve lift 54", {"Eve": 3}, id="his-lives-go-with-the-seat"),
    ],
)  # fmt: skip
def test_replaces(
    before: str, line: str, after: str, turn: str, then: str, lost: dict[str, int]
) -> None:
    state = play(line, play(before, table()))
    old = line.split()[1]
    assert (seats(state), on_turn(state)) == (after, turn)
    assert words(state.ruling) == f"Eve takes {old}'s seat"
    state = play(then, state)
    assert {name: n for name, n in mia.scores(state).items() if n != 6} == lost


@pytest.mark.parametrize(
    ("before", "line", "error", "message"),
    [
        pytest.param("", "replace Bob Cy", UsageError, "'Cy' is already at the table",
                     id="by-a-name-already-seated"),
        pytest.param("", "replace Bob bob", UsageError, "'bob' is already at the table",
                     id="by-his-own-name"),
        pytest.param("", "replace Bob ace", UsageError, "'ace' is already at the table",
                     id="by-a-nickname"),
        pytest.param("Ann 54; Bob lift 43", "replace Ann Eve", RuleViolation,
                     "Eve cannot take Ann's seat: Ann is out, nothing to take over",
                     id="an-out-player"),
        pytest.param("leave Cy", "replace Cy Eve", RuleViolation,
                     "Cy is out, nothing to take over", id="a-player-who-left"),
        pytest.param("replace Bob Eve", "replace Cy Bob", UsageError,
                     "'Bob' gave up a seat in this game", id="who-gave-his-seat-up"),
        pytest.param("", "replace Zed Eve", UsageError, "unknown player 'Zed'",
                     id="nobody-so-called"),
    ],
)  # fmt: skip
def test_refused_replaces(before: str, line: str, error: type[RefereeError], message: str) -> None:
    state = play(before, table("Ann=Ace Bob Cy", lives=1))
    with pytest.raises(error, match=message):
        play(line, state)


def test_after_a_replace_the_old_player_is_gone_and_the_new_one_finishes() -> None:
    state = play("Ann 54; Bob lift 43; replace Ann Eve", table(lives=2))
    names = ["Eve", "Bob", "Cy"]
    seated = mia.GAME.seats
    assert seated is not None and [p.name for p in seated(state)] == names
    assert list(mia.scores(state)) == names
    assert [p["name"] for p in json.loads(json.dumps(mia.summary(state)))["players"]] == names
    state = play("Bob 54; Cy lift 54; Bob 54; Cy lift 43; Cy 54; Eve lift 54", state)
    state = play("Cy 54; Bob lift 54", state)  # Eve, then Bob out
    assert state.winner == "Cy" and mia.outcome(state).standings == ("Cy", "Bob", "Eve")
    assert state.out == ("Eve", "Bob")


# ------------------------------------------------------------------ money


@pytest.mark.parametrize(
    ("changes", "script", "paid"),
    [
        pytest.param({}, "Ann 54; Bob lift 43", {"Ann": 250, "Bob": 200, "Cy": 200},
                     id="a-life-pays-as-it-is-lost"),
        pytest.param({}, "Ann mia; Bob lift mia", {"Ann": 200, "Bob": 300, "Cy": 200},
                     id="a-true-mia-two-lives-two-prices"),
        pytest.param({"lives": 1}, "Ann mia; Bob lift mia", {"Ann": 200, "Bob": 250, "Cy": 200},
                     id="only-the-lives-he-had"),
        pytest.param({"mia_announced": mia.MiaAnnounced.ENDS_ROUND}, "Ann mia --shown mia",
                     {"Ann": 200, "Bob": 250, "Cy": 250}, id="ends-round-every-other-pays"),
        pytest.param({}, "join Dee", {"Ann": 200, "Bob": 200, "Cy": 200, "Dee": 200},
                     id="a-newcomer-pays-the-stake"),
        pytest.param({}, "Ann 54; Bob lift 43; leave Ann",
                     {"Ann": 250, "Bob": 200, "Cy": 200}, id="a-leaver-pays-no-more"),
        pytest.param({}, "Ann 54; leave Bob", {"Ann": 200, "Bob": 200, "Cy": 200},
                     id="a-void-round-costs-nothing"),
    ],
)  # fmt: skip
def test_what_each_puts_in(changes: dict[str, Any], script: str, paid: dict[str, int]) -> None:
    state = table(stakes=STAKES, **changes)
    for line in script.split(";"):
        if "--shown" in line:
            state = mia.apply(state, mia.Announce("Ann", MIA, MIA))
        else:
            state = play(line, state)
    assert {name: state.purse.put_in(name) for name in paid} == paid
    assert state.purse.pot == sum(paid.values())


def test_a_replace_pays_the_old_player_what_his_seat_cost() -> None:
    state = play("Ann mia; Bob lift mia", table(stakes=STAKES))
    assert state.purse.seat_paid("Bob") == 300  # the stake and two lives
    state = play("replace Bob Eve", state)
    assert state.ruling == (Replaced("Bob", "Eve", 300),)
    assert words(state.ruling) == "Eve takes Bob's seat, paying Bob 3"
    assert state.purse.moved == (Transfer("Eve", "Bob", 300),)
    state = play("Ann 54; Eve lift 54; replace Eve Fay", state)
    assert state.purse.moved[-1] == Transfer("Fay", "Eve", 350)  # her transfer and her life
    assert words(state.ruling) == "Fay takes Eve's seat, paying Eve 3.50"


def test_a_join_said_with_the_stake() -> None:
    state = mia.apply(table(stakes=Stakes(stake=150)), Join("Dee", "Ann"))
    assert state.ruling == (Joined("Dee", "Ann", 6, 150),)
    assert words(state.ruling) == "Dee joins after Ann with 6 lives, paying 1.50"


# ------------------------------------------------------------------ the session: undo, money

RULESET = storage.load_ruleset("mia")


def session(**changes: object) -> tuple[Session, Any]:
    """A session of Ann, Bob and Cy with ruleset `changes`, and its state."""
    made = Session("t", "mia", {**RULESET, **changes}, tuple(PlayerInfo(n) for n in
                   ("Ann", "Bob", "Cy")), {"first": "Ann"})  # fmt: skip
    return made, replay(made)


def played(lines: str, **changes: object) -> tuple[Session, Any]:
    """A session with `lines` appended through the session layer."""
    made, state = session(**changes)
    for line in filter(None, (x.strip() for x in lines.split(";"))):
        made, state = append(made, state, event(line))
    return made, state


@pytest.mark.parametrize(
    ("before", "line"),
    [
        pytest.param("", "join Dee after Ann", id="join"),
        pytest.param("Ann 54; Bob lift 43", "join Dee", id="join-later"),
        pytest.param("Ann 54", "leave Bob", id="leave-void"),
        pytest.param("", "leave Ann", id="leave-on-turn"),
        pytest.param("Ann 54; Bob lift 43; Bob 54", "replace Cy Eve", id="replace"),
    ],
)
def test_undo_puts_back_the_state_before(before: str, line: str) -> None:
    made, state = played(before, stake=2, loss_value=0.5)
    after, changed = append(made, state, event(line))
    assert changed != state
    back, again, last = undo(after)
    assert (back.events, again) == (made.events, state)
    assert last == mia.GAME.event_to_dict(event(line))


def test_a_finished_games_money_nets_to_zero() -> None:
    script = (
        "join Dee after Ann; Ann 54; Dee lift 43; replace Bob Eve; Dee mia; Eve lift mia;"
        " leave Cy; Dee 54; Ann lift 43; Ann 31; Dee lift 31"
    )
    made, state = played(script, stake=2, loss_value=0.5, lives=2, payout="places",
                         payout_split=[70, 30])  # fmt: skip
    assert state.is_over and state.winner == "Ann"
    assert mia.outcome(state).standings == ("Ann", "Dee", "Cy", "Eve")
    found = money(made, state)
    assert found is not None and found.result is not None
    result = found.result
    assert found.purse.pot == 4 * 200 + 5 * 50  # four stakes, five lives
    assert result.takes == {"Ann": 735, "Dee": 315}
    assert result.transfers == (Transfer("Eve", "Bob", 200),)
    assert sum(result.nets.values()) == 0
    assert result.nets == {"Ann": 485, "Bob": 0, "Cy": -200, "Dee": 15, "Eve": -300}


def test_a_game_for_nothing_has_no_money() -> None:
    made, state = played("join Dee; Ann 54; Bob lift 43")
    assert state.purse.pot == 0 and money(made, state) is None
    assert state.rules.stakes == Stakes() and state.rules.stakes.payout is Payout.WINNER


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        pytest.param({"stake": -1}, "stake is 0 to 100000", id="negative-stake"),
        pytest.param({"loss_value": 0.005}, "loss_value has at most two decimals",
                     id="a-fraction-of-a-cent"),
        pytest.param({"late_join": "sometimes"}, "until_first_out | never", id="late-join"),
        pytest.param({"payout": "per_point"}, "Kalooki's only", id="per-point"),
        pytest.param({"point_value": 1}, "point_value is for payout = per_point",
                     id="point-value"),
        pytest.param({"payout": "places", "payout_split": [70, 20]}, "add up to 100",
                     id="a-split-short"),
    ],
)  # fmt: skip
def test_bad_stakes_in_a_ruleset(changes: dict[str, object], problem: str) -> None:
    from referee.errors import RulesetError

    with pytest.raises(RulesetError, match=problem):
        mia.Rules.from_table({"game": "mia", "name": "x", **changes}, "x.toml")


# ------------------------------------------------------------------ the command line


def test_join_log_undo_and_json_on_the_command_line(referee: Runner, home: Path) -> None:
    started = referee("new", "mia", "Ann", "Bob", "Cy", "--name", "friday", "--set", "stake=2")
    assert started.code == 0, started.err
    joined = referee("mia", "join", "Dee", "--after", "ann")
    assert joined.code == 0, joined.err
    assert joined.out.splitlines()[:6] == [
        "Dee joins after Ann with 6 lives, paying",
        "2",
        "MIA friday                       round 1",
        "> Ann              oooooo  6",
        "  Dee              oooooo  6",
        "  Bob              oooooo  6",
    ]
    assert all(len(line) <= 40 for line in joined.out.splitlines())
    assert referee("mia", "announce", "54").code == 0
    assert json.loads(referee("show", "--json").out)["turn"] == "Dee"  # his seat's turn
    log = referee("log").out
    assert "Dee joins after Ann" in log and "Ann announces 54" in log
    doc = json.loads(referee("log", "--json").out)
    assert doc[0]["ruling"] == "Dee joins after Ann with 6 lives, paying 2"
    assert doc[0]["facts"] == [{
        "kind": "joined", "player": "Dee", "after": "Ann", "start": 6, "paid": 200,
    }]  # fmt: skip
    assert referee("undo").code == 0 and referee("undo").code == 0
    shown = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in shown["players"]] == ["Ann", "Bob", "Cy"]
    assert referee("redo").code == 0
    shown = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in shown["players"]] == ["Ann", "Dee", "Bob", "Cy"]
    assert referee("mia", "leave", "bob").out.startswith("Bob leaves: out")
    assert referee("mia", "replace", "Cy", "Eve").out.startswith("Eve takes Cy's seat, paying")
    script = referee("log", "--script").out.splitlines()
    assert script[1:] == ["join Dee --after Ann", "leave Bob", "replace Cy Eve"]


@pytest.mark.parametrize(
    ("before", "args", "code", "message"),
    [
        pytest.param([], ("join", "Bob"), 2, "'Bob' is already at the table", id="dup"),
        pytest.param([], ("join", "Dee", "--after", "Zed"), 2, "unknown player 'Zed'",
                     id="after-unknown"),
        pytest.param([("announce", "54")], ("join", "Dee"), 1, "join between rounds",
                     id="mid-challenge"),
        pytest.param([("leave", "Cy")], ("join", "Dee"), 1, "Cy is already out",
                     id="after-an-out"),
        pytest.param([("leave", "Cy")], ("leave", "Cy"), 1, "Cy cannot leave", id="left"),
        pytest.param([], ("replace", "Bob", "Ann"), 2, "'Ann' is already at the table",
                     id="replace-by-seated"),
        pytest.param([("leave", "Cy")], ("replace", "Cy", "Eve"), 1, "nothing to take over",
                     id="replace-out"),
    ],
)  # fmt: skip
def test_a_refusal_changes_nothing_on_disk(
    referee: Runner,
    home: Path,
    before: list[tuple[str, ...]],
    args: tuple[str, ...],
    code: int,
    message: str,
) -> None:
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    for line in before:
        assert referee("mia", *line).code == 0
    was = snapshot(session_file(home))
    result = referee("mia", *args)
    assert result.code == code and message in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home)) == was


def test_left_is_a_fact_of_the_log() -> None:
    state = play("leave Bob", table())
    assert state.ruling == (Left("Bob"),)


def test_the_shell_takes_the_games_own_action_first_by_a_prefix(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`l` is lift while leave is open too, `r` still redo; join by its prefix when nothing
    else starts so, and leave only in full (it ends a player's game: `le` is refused)."""
    import io

    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    lines = ["a 54", "l 43", "j Dee", "le Dee", "leave Dee", "r", "rep Bob Eve"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    result = referee("shell")
    for seen in (
        "Bob lifts Ann's 54: 43 shown, a lie",
        "Dee joins after Cy with 5 lives",
        "Dee leaves: out",
        "Eve takes Bob's seat",
    ):
        assert seen in result.out, seen
    assert "nothing to redo" in result.err
    assert "error: type 'leave' in full: it ends a player's game for good" in result.err
