"""People who come and go at a Liar's dice table, and its money (RULES.md sections 4 and 7).

A newcomer joins between rounds while nobody is out, with the dice of the player still in with
the fewest, and pays the stake; a player leaves at any time (a bid left standing is void); a
newcomer takes over a seat still in, cup and all, and pays its holder what he had put in. Each
die lost pays `loss_value` as it is lost. Tables of short games, then the same through the
command line.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RefereeError, RuleViolation, UsageError
from referee.games.base import PlayerInfo
from referee.games.liars import engine as ld
from referee.games.liars.bids import Bid
from referee.games.liars.card import card_text
from referee.games.liars.words import words
from referee.games.money import Payout, Stakes, Transfer
from referee.games.roster import Join, LateJoin, Leave, Replace
from referee.session import Session, append, money, replay, undo
from test_liars import PERUDO, SEED, dice, play

MONEY = Stakes(stake=200, loss_value=50)  # 2 to sit down, 0.50 a die lost


def seated(
    players: str = "Ann Bob Cy", rules: ld.Rules = SEED, direction: str = "left", **changes: Any
) -> ld.State:
    """A table of `Name` or `Name=Nickname` players (play goes left unless said otherwise)."""
    rules = dataclasses.replace(rules, **changes)
    people = [PlayerInfo(*p.split("=")) for p in players.split()]
    return ld.start(rules, people, ld.options_from_table({"direction": direction}, people, rules))


def go(script: str, state: ld.State) -> ld.State:
    """`play`'s lines (`Ann bid 5x3; Bob call 4`), and `join Dee [after Ann]`, `leave Bob` and
    `replace Bob Eve`."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        word, *rest = line.split()
        event: ld.Event
        if word == "join":
            event = Join(rest[0], rest[2] if len(rest) > 2 else None)
        elif word == "leave":
            event = Leave(rest[0])
        elif word == "replace":
            event = Replace(rest[0], rest[1])
        else:
            state = play(line, state)
            continue
        state = ld.apply(state, event)
    return state


def seats(state: ld.State) -> str:
    return " ".join(c.name for c in state.cups)


def on_turn(state: ld.State) -> str | None:
    return ld.turn(state)


def refused(script: str, state: ld.State, error: type[RefereeError]) -> str:
    """The refusal of the script's last line (the lines before it are played first)."""
    *before, last = script.split(";")
    state = go(";".join(before), state)
    with pytest.raises(error) as found:
        go(last, state)
    return str(found.value)


# Two dice each, play goes Ann, Bob, Cy: Ann loses a die (one left), and Bob, who called,
# opens round 2; then Bob and Cy each lose one, and Ann calls a true bid with her last die.
ANN_ON_ONE = "Ann bid 1x3; Bob call 0"
ANN_OUT = f"{ANN_ON_ONE}; Bob bid 1x3; Cy call 0; Cy bid 1x3; Ann call 1"
NAMES20 = " ".join(f"P{i:02d}" for i in range(20))
EVER = f"Dee cannot join: Ann is already out (late_join = {LateJoin.UNTIL_FIRST_OUT.value})"

# ------------------------------------------------------------------ join

# (players, rule changes, script, the join, (seats after, the newcomer's dice, on turn) or the
# refusal's type and words)
JOINS = [
    pytest.param("Ann Bob Cy", {}, "", "join Dee", ("Ann Bob Cy Dee", 6, "Ann"),
                 id="default-the-last-seat"),
    pytest.param("Ann Bob Cy", {}, "", "join Dee after Cy", ("Ann Bob Cy Dee", 6, "Ann"),
                 id="after-the-last-seat"),
    pytest.param("Ann Bob Cy", {}, "", "join Dee after Ann", ("Ann Dee Bob Cy", 6, "Ann"),
                 id="after-the-first-seat"),
    pytest.param("Ann Bob Cy", {}, "Ann bid 2x3; Bob call 3", "join Dee after Ann",
                 ("Ann Dee Bob Cy", 5, "Bob"), id="the-fewest-dice-between-rounds"),
    pytest.param("Ann Bob Cy", {}, "Ann bid 2x3; Bob call 3; join Dee after Ann", "join Eve",
                 ("Ann Dee Bob Cy Eve", 5, "Bob"), id="two-newcomers"),
    pytest.param("Ann Bob Cy", {"dice_per_player": 2}, ANN_ON_ONE, "join Dee",
                 ("Ann Bob Cy Dee", 1, "Bob"), id="edge-the-round-before-the-first-out"),
    pytest.param("Ann Bob Cy", {"dice_per_player": 2}, ANN_OUT, "join Dee", (RuleViolation, EVER),
                 id="edge-right-after-the-first-out"),
    pytest.param("Ann Bob Cy", {}, "leave Ann", "join Dee",
                 (RuleViolation, EVER), id="a-player-who-left-is-out"),
    pytest.param("Ann Bob Cy", {"late_join": LateJoin.NEVER}, "", "join Dee",
                 (RuleViolation, "Dee cannot join: this table takes no newcomers"
                  " (late_join = never)"), id="late-join-never"),
    pytest.param("Ann Bob Cy", {}, "Ann bid 2x3", "join Dee",
                 (RuleViolation, "Dee cannot join: Ann's 2x3 stands, and newcomers sit down"
                  " between rounds"), id="mid-challenge"),
    pytest.param(NAMES20, {}, "", "join Dee",
                 (RuleViolation, "Dee cannot join: the table is full (20 players)"), id="full"),
    pytest.param("Ann Bob Cy", {}, "", "join bob",
                 (UsageError, "'bob' is already at the table: names must differ"),
                 id="duplicate-name-in-another-case"),
    pytest.param("Ann=Annie Bob Cy", {}, "", "join ANNIE",
                 (UsageError, "'ANNIE' is already at the table: names must differ"),
                 id="nickname-clash"),
    pytest.param("Ann Bob Cy", {}, "", "join Dee after Zed",
                 (UsageError, "unknown player 'Zed'"), id="after-an-unknown-player"),
    pytest.param("Ann Bob Cy", {}, "replace Bob Eve", "join Bob",
                 (UsageError, "'Bob' gave up a seat in this game: names must differ"),
                 id="the-name-of-one-who-gave-up-his-seat"),
    pytest.param("Ann Bob", {}, "leave Bob", "join Dee",
                 (RuleViolation, "the game is over: Ann won"), id="the-game-is-over"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "changes", "script", "line", "expected"), JOINS)
def test_join(
    players: str,
    changes: dict[str, Any],
    script: str,
    line: str,
    expected: tuple[Any, ...],
) -> None:
    start = seated(players, **changes)
    if isinstance(expected[0], type):
        error, message = expected
        assert refused(f"{script}; {line}", start, error) == message
        return
    order, newcomer_dice, turn = expected
    before = go(script, start)
    after = go(line, before)
    name = line.split()[1]
    assert seats(after) == order and dice(after)[name] == newcomer_dice
    assert on_turn(after) == turn and after.round == before.round and after.bid is None
    assert ld.GAME.seats is not None
    assert [p.name for p in ld.GAME.seats(after)] == order.split()
    doc = json.loads(json.dumps(ld.summary(after)))
    assert [p["name"] for p in doc["players"]] == order.split()


def test_a_palifico_round_nobody_has_bid_in_is_between_rounds() -> None:
    """Ann drops to one die: her palifico round. Before its first bid Dee may sit down, with
    one die; the round stays palifico, and Dee has had no palifico of his own."""
    state = go("Ann bid 2x3; Bob call 0", seated(rules=PERUDO, dice_per_player=2))
    assert state.palifico and on_turn(state) == "Ann" and dice(state)["Ann"] == 1
    joined = go("join Dee", state)
    assert joined.palifico and dice(joined)["Dee"] == 1
    assert not joined.cups[joined.index("Dee")].had_palifico
    assert "join" not in ld.legal_actions(go("Ann bid 1x3", joined))


@pytest.mark.parametrize(
    ("direction", "line", "order"),
    [
        pytest.param("left", "join Dee after Ann", ["Ann", "Dee", "Bob", "Cy", "Ann"], id="left"),
        pytest.param("right", "join Dee", ["Ann", "Dee", "Cy", "Bob", "Ann"], id="right-last"),
        pytest.param("right", "join Dee after Bob", ["Ann", "Cy", "Dee", "Bob", "Ann"],
                     id="right-middle"),
    ],
)  # fmt: skip
def test_the_newcomer_plays_in_his_seats_turn(direction: str, line: str, order: list[str]) -> None:
    state = go(line, seated(direction=direction, dice_per_player=5))
    found = [on_turn(state)]
    for quantity in range(1, 5):  # each raises by one die: the turn goes once round the table
        state = go(f"{on_turn(state)} bid {quantity}x3", state)
        found.append(on_turn(state))
    assert found == order


def test_join_is_offered_only_when_allowed() -> None:
    state = seated()
    assert ld.legal_actions(state) == ("bid", "join", "leave", "replace")
    assert ld.legal_actions(go("Ann bid 2x3", state)) == ("bid", "call", "leave", "replace")
    assert "join" not in ld.legal_actions(seated(late_join=LateJoin.NEVER))
    assert "join" not in ld.legal_actions(go("leave Cy", state))
    assert ld.legal_actions(go("leave Bob; leave Cy", state)) == ()


# ------------------------------------------------------------------ leave

# (players, direction, rule changes, script, the leave, (dice after, on turn, round, palifico,
# the ruling in words) or the refusal's type and words)
LEAVES = [
    pytest.param("Ann Bob Cy", "left", {}, "", "leave Cy",
                 ({"Cy": 0}, "Ann", 1, False, "Cy leaves: out"), id="not-on-turn"),
    pytest.param("Ann Bob Cy", "left", {}, "", "leave Ann",
                 ({"Ann": 0}, "Bob", 1, False, "Ann leaves: out"), id="on-turn-the-turn-passes"),
    pytest.param("Ann Bob Cy", "right", {}, "", "leave Ann",
                 ({"Ann": 0}, "Cy", 1, False, "Ann leaves: out"), id="on-turn-counter-clockwise"),
    pytest.param("Ann Bob Cy", "left", {}, "Ann bid 2x3", "leave Bob",
                 ({"Bob": 0}, "Cy", 2, False, "Bob leaves: out; Ann's two threes (2x3) is void:"
                  " nobody loses a die; round 2: Cy opens"), id="on-turn-a-bid-standing"),
    pytest.param("Ann Bob Cy", "left", {}, "Ann bid 2x3", "leave Ann",
                 ({"Ann": 0}, "Bob", 2, False, "Ann leaves: out; Ann's two threes (2x3) is void:"
                  " nobody loses a die; round 2: Bob opens"), id="the-bidder"),
    pytest.param("Ann Bob Cy Dee", "left", {}, "Ann bid 2x3", "leave Cy",
                 ({"Cy": 0}, "Bob", 2, False, "Cy leaves: out; Ann's two threes (2x3) is void:"
                  " nobody loses a die; round 2: Bob opens"), id="another-a-bid-standing"),
    pytest.param("Ann Bob Cy", "left", {"rules": PERUDO, "dice_per_player": 2},
                 "Ann bid 2x3; Bob call 0; Ann bid 1x3", "leave Cy",
                 ({"Ann": 1, "Cy": 0}, "Bob", 3, True, "Cy leaves: out; Ann's one three (1x3) is"
                  " void: nobody loses a die; round 3: Bob opens (palifico: no wild ones, the"
                  " face stays)"), id="a-void-palifico-round-is-played-again"),
    pytest.param("Ann Bob", "left", {}, "", "leave Bob",
                 ({"Bob": 0}, None, 1, False, "Bob leaves: out; Ann wins"), id="ends-the-game"),
    pytest.param("Ann Bob", "left", {}, "Ann bid 2x3", "leave Ann",
                 ({"Ann": 0}, None, 1, False, "Ann leaves: out; Bob wins"),
                 id="ends-the-game-a-bid-standing"),
    pytest.param("Ann Bob Cy", "left", {"dice_per_player": 2}, ANN_OUT, "leave Ann",
                 (RuleViolation, "Ann has no dice left: out of the game already"),
                 id="a-player-who-is-out"),
    pytest.param("Ann Bob Cy", "left", {}, "leave Ann", "leave Ann",
                 (RuleViolation, "Ann has no dice left: out of the game already"),
                 id="twice"),
    pytest.param("Ann Bob Cy", "left", {}, "", "leave Zed",
                 (UsageError, "unknown player 'Zed'"), id="unknown"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "direction", "changes", "script", "line", "expected"), LEAVES)
def test_leave(
    players: str,
    direction: str,
    changes: dict[str, Any],
    script: str,
    line: str,
    expected: tuple[Any, ...],
) -> None:
    start = seated(players, direction=direction, **changes)
    if isinstance(expected[0], type):
        error, message = expected
        assert refused(f"{script}; {line}", start, error) == message
        return
    changed, turn, round_, palifico, said = expected
    each = start.rules.dice_per_player
    after = go(f"{script}; {line}", start)
    assert {n: d for n, d in dice(after).items() if d != each} == changed
    assert on_turn(after) == turn and after.round == round_ and after.palifico is palifico
    assert after.bid is None and after.bidder is None
    assert words(after.ruling) == said
    assert seats(after) == seats(start)  # he stays seated, out


def test_a_leaver_is_placed_as_anyone_out_at_that_event() -> None:
    """Bob leaves first, then Ann goes out, then Cy: Bob is last, Ann third, Cy runner-up."""
    state = go("leave Bob; Ann bid 1x3; Cy call 0; Cy bid 1x3; Dee call 0; Dee bid 1x3; Ann call 1",
               seated("Ann Bob Cy Dee", dice_per_player=2))  # fmt: skip
    assert [state.name(i) for i in state.out_in_order] == ["Bob", "Ann"]
    state = go("Cy bid 1x3; Dee call 0", state)
    found = ld.outcome(state)
    assert found.finished and found.winners == ("Dee",)
    assert found.standings == ("Dee", "Cy", "Ann", "Bob")


# ------------------------------------------------------------------ replace

# (players, rule changes, script, the replace, (seats after, on turn) or the refusal)
REPLACES = [
    pytest.param("Ann Bob Cy", {}, "", "replace Bob Eve", ("Ann Eve Cy", "Ann"), id="a-player"),
    pytest.param("Ann Bob Cy", {}, "", "replace Ann Eve", ("Eve Bob Cy", "Eve"), id="on-turn"),
    pytest.param("Ann Bob Cy", {}, "Ann bid 2x3", "replace Ann Eve", ("Eve Bob Cy", "Bob"),
                 id="the-bidder-mid-challenge"),
    pytest.param("Ann=Annie Bob Cy", {}, "", "replace Ann Annie", (UsageError,
                 "'Annie' is already at the table: names must differ"), id="her-own-nickname"),
    pytest.param("Ann Bob Cy", {}, "", "replace Bob cy", (UsageError,
                 "'cy' is already at the table: names must differ"), id="a-name-already-seated"),
    pytest.param("Ann Bob Cy", {}, "replace Bob Eve", "replace Cy Bob", (UsageError,
                 "'Bob' gave up a seat in this game: names must differ"), id="one-who-gave-up"),
    pytest.param("Ann Bob Cy", {"dice_per_player": 2}, ANN_OUT, "replace Ann Eve", (RuleViolation,
                 "Eve cannot take Ann's seat: Ann is out, nothing to take over"), id="out"),
    pytest.param("Ann Bob Cy", {}, "leave Cy", "replace Cy Eve", (RuleViolation,
                 "Eve cannot take Cy's seat: Cy is out, nothing to take over"), id="left"),
    pytest.param("Ann Bob Cy", {}, "", "replace Zed Eve", (UsageError, "unknown player 'Zed'"),
                 id="unknown"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "changes", "script", "line", "expected"), REPLACES)
def test_replace(
    players: str, changes: dict[str, Any], script: str, line: str, expected: tuple[Any, ...]
) -> None:
    start = seated(players, **changes)
    if isinstance(expected[0], type):
        error, message = expected
        assert refused(f"{script}; {line}", start, error) == message
        return
    order, turn = expected
    _, old, new = line.split()
    before = go(script, start)
    after = go(line, before)
    assert seats(after) == order and on_turn(after) == turn
    assert after.bid == before.bid and after.bidder == before.bidder
    assert old not in seats(after) and old not in ld.scores(after)
    assert old not in ld.outcome(after).standings and old not in json.dumps(ld.summary(after))
    assert words(after.ruling) == f"{new} takes {old}'s seat"


def test_the_taker_has_everything_on_the_cup_and_no_nickname() -> None:
    """Bob loses a die and gets it back by calza: he has lost a die and called exact once."""
    once = ld.ExactCallLimit.ONCE_PER_GAME
    state = go("Ann bid 5x3; Bob call 6; Bob bid 2x4; Cy bid 3x4; Ann bid 4x4; Bob exact 4",
               seated("Ann Bob=Bobby Cy", PERUDO, exact_call_limit=once))  # fmt: skip
    bob = state.cups[1]
    assert (bob.dice, bob.calzas, bob.lost_a_die, bob.nickname) == (5, 1, True, "Bobby")
    after = go("replace Bob Eve", state)
    assert after.cups[1] == dataclasses.replace(bob, name="Eve", nickname=None)
    refusal = refused("Eve bid 5x5; Cy bid 6x5; Eve exact 6", after, RuleViolation)
    assert refusal.startswith("Eve cannot calza: each player calzas once a game")


def test_the_taker_of_the_bid_loses_its_die() -> None:
    state = go("Ann bid 2x3; replace Ann Eve; Bob call 0", seated())
    assert dice(state) == {"Eve": 5, "Bob": 6, "Cy": 6}
    assert words(state.ruling).startswith("Bob calls Eve's two threes: 0 counted")


def test_a_taker_keeps_the_place_the_seat_earns() -> None:
    state = go(f"{ANN_OUT}; replace Bob Eve; Eve bid 1x3", seated(dice_per_player=2))
    state = go("Cy call 1", state)  # Cy loses his last die: Eve wins
    assert ld.outcome(state).standings == ("Eve", "Cy", "Ann")


# ------------------------------------------------------------------ money


def test_the_stake_and_each_die_lost_go_into_the_pot() -> None:
    state = seated(stakes=MONEY)
    assert state.purse.pot == 600 and state.purse.put_in("Ann") == 200
    state = go("Ann bid 2x3; Bob call 0", state)  # Ann loses a die: 0.50
    assert words(state.ruling).endswith("Ann loses a die (5 left), paying 0.50; round 2: Bob opens")
    assert state.purse.put_in("Ann") == 250 and state.purse.pot == 650
    state = go("join Dee after Ann", state)
    assert words(state.ruling) == "Dee joins after Ann with 5 dice, paying 2"
    assert state.purse.put_in("Dee") == 200 and state.purse.pot == 850


def test_a_die_a_calza_gives_back_refunds_nothing() -> None:
    state = go("Ann bid 5x3; Bob call 6; Bob bid 2x4; Cy bid 3x4; Ann bid 4x4; Bob exact 4",
               seated(rules=PERUDO, stakes=MONEY))  # fmt: skip
    assert dice(state)["Bob"] == 5 and state.purse.put_in("Bob") == 250
    wrong = go("Bob bid 2x2; Cy exact 3", state)  # a wrong calza loses a die, and pays for it
    assert wrong.purse.put_in("Cy") == 250 and "Cy loses a die (4 left), paying 0.50" in words(
        wrong.ruling
    )


def test_a_leaver_s_money_stays_in_the_pot_and_costs_no_die() -> None:
    state = go("Ann bid 2x3; Bob call 0; leave Cy", seated(stakes=MONEY))
    assert state.purse.pot == 650 and state.purse.put_in("Cy") == 200


def test_a_taker_pays_the_holder_what_he_had_put_in() -> None:
    state = go("Ann bid 2x3; Bob call 0; replace Ann Eve", seated(stakes=MONEY))
    assert words(state.ruling) == "Eve takes Ann's seat, paying Ann 2.50"
    assert state.purse.moved == (Transfer("Eve", "Ann", 250),)
    assert state.purse.seat_paid("Eve") == 250
    state = go("Bob bid 2x3; Cy call 0; Cy bid 2x3; Eve call 3", state)  # Eve loses a die
    assert state.purse.put_in("Eve") == 50 and state.purse.put_in("Ann") == 250


def _session(ruleset: dict[str, Any], *events: object) -> tuple[Session, Any]:
    """A session of Ann, Bob and Cy (play goes left) with `events` appended."""
    session = Session(
        "t", "liars", ruleset, tuple(PlayerInfo(n) for n in ("Ann", "Bob", "Cy")),
        {"direction": "left"},
    )  # fmt: skip
    state = replay(session)
    for event in events:
        session, state = append(session, state, event)
    return session, state


ONE_DIE = {**storage.load_ruleset("liars-dice"), "dice_per_player": 1, "stake": 2,
           "loss_value": 0.5}  # fmt: skip
# Dee joins; Ann goes out; Eve takes Cy's seat (paying Cy 2); Eve goes out; Dee leaves: Bob wins
NIGHT = (
    Join("Dee"),
    ld.BidEvent("Ann", Bid(1, 3)),
    ld.Call("Bob", 0),
    Replace("Cy", "Eve"),
    ld.BidEvent("Bob", Bid(1, 3)),
    ld.Call("Eve", 1),
    Leave("Dee"),
)


@pytest.mark.parametrize(
    ("changes", "takes", "nets"),
    [
        pytest.param({}, {"Bob": 900},
                     {"Ann": -250, "Bob": 700, "Cy": 0, "Dee": -200, "Eve": -250}, id="winner"),
        pytest.param({"payout": "places", "payout_split": [70, 30]}, {"Bob": 630, "Dee": 270},
                     {"Ann": -250, "Bob": 430, "Cy": 0, "Dee": 70, "Eve": -250}, id="places"),
    ],
)  # fmt: skip
def test_a_finished_game_s_result(
    changes: dict[str, Any], takes: dict[str, int], nets: dict[str, int]
) -> None:
    session, state = _session({**ONE_DIE, **changes}, *NIGHT)
    assert ld.outcome(state).standings == ("Bob", "Dee", "Eve", "Ann")
    found = money(session, state)
    assert found is not None and found.result is not None
    assert found.purse.pot == 900 and dict(found.result.takes) == takes
    assert dict(found.result.nets) == nets and sum(found.result.nets.values()) == 0
    assert found.result.transfers == (Transfer("Eve", "Cy", 200),)


def test_the_stake_keys_are_read_and_checked() -> None:
    rules = ld.Rules.from_table({**ONE_DIE, "payout": "places", "payout_split": [60, 40]})
    assert rules.stakes == Stakes(200, 50, Payout.PLACES, (60, 40))
    assert ld.Rules.from_table(storage.load_ruleset("perudo")).stakes == Stakes()
    assert SEED.late_join is PERUDO.late_join is LateJoin.UNTIL_FIRST_OUT
    for changes, message in (
        ({"payout": "per_point"}, "payout = per_point is Kalooki's only"),
        ({"point_value": 1}, "point_value is Kalooki's"),
        ({"stake": -1}, "stake is 0 to"),
        ({"late_join": "sometimes"}, "late_join must be one of until_first_out | never"),
    ):
        with pytest.raises(RefereeError, match=re.escape(message)):
            ld.Rules.from_table({**storage.load_ruleset("liars-dice"), **changes})


# ------------------------------------------------------------------ undo


SIX_DICE = {**ONE_DIE, "dice_per_player": 6}
# Ann loses a die (0.50); Bob opens round 2 with 1x3, and Cy is on turn
BOB_BIDS = (ld.BidEvent("Ann", Bid(1, 3)), ld.Call("Bob", 0), ld.BidEvent("Bob", Bid(1, 3)))


@pytest.mark.parametrize(
    ("script", "event"),
    [
        pytest.param(BOB_BIDS[:2], Join("Dee", "Ann"), id="join"),
        pytest.param(BOB_BIDS, Leave("Bob"), id="leave-the-bidder"),
        pytest.param(BOB_BIDS, Leave("Cy"), id="leave-on-turn"),
        pytest.param(BOB_BIDS, Leave("Ann"), id="leave-another"),
        pytest.param(BOB_BIDS, Replace("Ann", "Eve"), id="replace"),
    ],
)
def test_undo_puts_the_table_back(script: tuple[object, ...], event: object) -> None:
    session, before = _session(SIX_DICE, *script)
    done, after = append(session, before, event)
    assert after != before
    back, state, _ = undo(done)
    assert state == before and back.events == session.events


# ------------------------------------------------------------------ the card


def test_the_card_seats_the_newcomer_and_shows_who_left_as_out() -> None:
    state = go("Ann bid 2x3; Bob call 0; join Dee after Ann; leave Cy", seated(dice_per_player=3))
    lines = [line.plain.rstrip() for line in card_text(state, "friday", 40)]
    assert lines == [
        "LIAR'S DICE friday               round 2",
        "  Ann              [?][?]",
        "  Dee              [?][?]",
        "> Bob              [?][?][?]",
        "out: Cy",
        "7 dice in play",
        "play goes: Bob, Ann, Dee",
        "Bob opens round 2",
    ]


# ------------------------------------------------------------------ through the command line

START = ("new", "liars", "Ann", "Bob", "Cy", "--name", "friday", "--direction", "left",
         "--set", "stake=2", "--set", "loss_value=0.5")  # fmt: skip


def test_join_log_undo_and_json_through_the_command_line(referee: Runner) -> None:
    assert referee(*START).code == 0
    joined = referee("liars", "join", "Dee", "--after", "Ann")
    assert joined.code == 0, joined.err
    assert " ".join(joined.out.split()).startswith("Dee joins after Ann with 6 dice, paying 2")
    doc = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in doc["players"]] == ["Ann", "Dee", "Bob", "Cy"]
    assert referee("ld", "bid", "2x3").code == 0
    assert json.loads(referee("show", "--json").out)["turn"] == "Dee"
    log = " ".join(referee("log").out.split())
    assert "Dee joins after Ann with 6 dice, paying 2 2 21:04 Ann bids two threes" in log
    script = referee("log", "--script").out
    assert "join Dee --after Ann" in script
    assert referee("undo").code == 0 and referee("undo").code == 0
    doc = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob", "Cy"] and doc["events"] == 0
    assert referee("redo").code == 0
    assert referee("liars", "leave", "dee").code == 0  # a newcomer is named as anyone is
    assert referee("liars", "replace", "Bob", "Eve").code == 0
    doc = json.loads(referee("show", "--json").out)
    assert [(p["name"], p["out"]) for p in doc["players"]] == [
        ("Ann", False), ("Dee", True), ("Eve", False), ("Cy", False),
    ]  # fmt: skip
    assert "Eve takes Bob's seat, paying Bob 2" in " ".join(referee("log").out.split())


@pytest.mark.parametrize(
    ("before_it", "args", "code", "message"),
    [
        pytest.param("2x3", ("join", "Dee"), 1, "Dee cannot join: Ann's 2x3 stands",
                     id="join-mid-bid"),
        pytest.param("", ("join", "bob"), 2, "'bob' is already at the table", id="join-duplicate"),
        pytest.param("", ("join", "Dee", "--after", "Zed"), 2, "unknown player 'Zed'",
                     id="join-after-unknown"),
        pytest.param("", ("leave", "Zed"), 2, "unknown player 'Zed'", id="leave-unknown"),
        pytest.param("2x3", ("replace", "Ann", "Cy"), 2, "'Cy' is already at the table",
                     id="replace-by-one-seated"),
        pytest.param("", ("replace", "Ann", " "), 2, "", id="replace-by-no-name"),
    ],
)  # fmt: skip
def test_a_refusal_changes_nothing_on_disk(
    referee: Runner, home: Path, before_it: str, args: tuple[str, ...], code: int, message: str
) -> None:
    assert referee(*START).code == 0
    if before_it:
        assert referee("ld", "bid", before_it).code == 0
    before = snapshot(session_file(home))
    result = referee("liars", *args)
    assert result.code == code and message in result.err, result
    assert snapshot(session_file(home)) == before
