"""Kariki's night (RULES 2 and 7): the pot kept in cents on the shared purse, each berry paying
`loss_value`, and people who come and go: `join`, `leave`, `replace`.

Cases are scripts of the rules tests' `Player action arg` lines, with three more: `join NAME
[after PLAYER]`, `leave PLAYER`, `replace OLD NEW`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RuleViolation, UsageError
from referee.games.base import PlayerInfo
from referee.games.kariki import engine as k
from referee.games.money import Payout, Stakes, Transfer, show
from referee.games.roster import Join, LateJoin, Leave, Replace
from referee.notation.dice import Rank
from referee.session import money
from test_kariki_rules import event, said, table, turn


def step(line: str) -> k.Event:
    """One line of a script: the rules tests' lines, and the three roster lines."""
    match line.split():
        case ["join", name]:
            return Join(name)
        case ["join", name, "after", after]:
            return Join(name, after)
        case ["leave", player]:
            return Leave(player)
        case ["replace", old, new]:
            return Replace(old, new)
        case ["settle"]:
            return k.Settle()
    return event(line)


def play(script: str, state: k.State | None = None, **rules: Any) -> k.State:
    state = state or table(**rules)
    for line in filter(None, (x.strip() for x in script.split(";"))):
        state = k.apply(state, step(line))
    return state


def names(state: k.State) -> list[str]:
    return [s.name for s in state.seats]


def berries(state: k.State) -> dict[str, int]:
    return {s.name: len(s.berries) for s in state.seats}


def players(state: k.State) -> list[dict[str, Any]]:
    found = k.summary(state)["players"]
    assert isinstance(found, list)
    return found


def nicknamed() -> k.State:
    """Ann (Ace), Bob, Cy (Sly)."""
    people = [PlayerInfo("Ann", "Ace"), PlayerInfo("Bob"), PlayerInfo("Cy", "Sly")]
    rules = k.Rules()
    return k.start(rules, people, k.options_from_table({}, people, rules))


# ---------------------------------------------------------------------------- join

JOINS = [
    pytest.param("", "join Eve", ["Ann", "Bob", "Cy", "Dee", "Eve"], 0, "Ann",
                 "Eve joins after Dee with no berries, paying 1", id="at-the-start"),
    pytest.param("", "join Eve after Ann", ["Ann", "Eve", "Bob", "Cy", "Dee"], 0, "Ann",
                 "Eve joins after Ann with no berries, paying 1", id="after-ann"),
    pytest.param("", "join Eve after Dee", ["Ann", "Bob", "Cy", "Dee", "Eve"], 0, "Ann",
                 "Eve joins after Dee", id="after-the-last-seat"),
    pytest.param("Bob slash 6; Cy slash 3", "join Eve", None, 2, "Ann",
                 "with 2 berries", id="as-many-as-the-most"),
    pytest.param("Bob slash 12", "join Eve", None, 4, "Ann",
                 "with 4 berries, paying 1; Eve is in the poo", id="edge-just-before-an-out"),
    pytest.param("Ann claim 9; Bob pull 4-5", "join Eve after Ann", None, 1, "Ann",
                 "with 1 berry", id="right-after-a-pull"),
    pytest.param("Ann claim 9; Bob pull 1-3", "join Eve after Ann", None, 1, "Bob",
                 "", id="the-turn-stays-with-its-player"),
    pytest.param("Ann kariki", "join Eve", None, 1, "Ann", "", id="after-a-shown-kariki"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "line", "seats", "start", "on_turn", "words"), JOINS)
def test_a_newcomer_sits_down_between_challenges(
    script: str, line: str, seats: list[str] | None, start: int, on_turn: str, words: str
) -> None:
    before = play(script)
    state = play(line, before)
    if seats is not None:
        assert names(state) == seats
    eve = state.seats[state.index("Eve")]
    assert len(eve.berries) == start and set(eve.berries) <= {k.Cause.JOINED}
    assert not eve.out and turn(state) == on_turn
    assert words in said(state)
    assert state.pot == before.pot + 100 and state.paid(eve) == 100
    assert state.events == before.events + 1


JOINS_REFUSED = [
    pytest.param("Bob slash 15", {}, "Eve cannot join: Bob is already out"
                 " (late_join = until_first_out)", id="right-after-an-out"),
    pytest.param("Bob slash 15; Bob buyback", {}, "Eve cannot join: Bob went out already"
                 " (late_join = until_first_out)", id="out-and-bought-back"),
    pytest.param("leave Dee", {}, "Eve cannot join: Dee is already out", id="after-a-leave"),
    pytest.param("", {"late_join": LateJoin.NEVER}, "Eve cannot join: nobody joins a game"
                 " under way (late_join = never)", id="late-join-never"),
    pytest.param("Ann claim 9", {}, "Eve cannot join: a claim stands (Nine); join between"
                 " challenges", id="mid-challenge"),
    pytest.param("Ann claim 9; Bob pass", {}, "a claim stands (Nine)", id="mid-pass-chain"),
    pytest.param("Ann claim 9; Bob roll", {}, "a claim stands (Nine)", id="mug-taken-over"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "rules", "message"), JOINS_REFUSED)
def test_a_join_out_of_its_time_is_refused(
    script: str, rules: dict[str, Any], message: str
) -> None:
    state = play(script, **rules)
    with pytest.raises(RuleViolation, match=re.escape(message)):
        k.apply(state, Join("Eve"))
    assert "join" not in k.legal_actions(state)


@pytest.mark.parametrize(
    ("join", "message"),
    [
        pytest.param(Join("Bob"), "'Bob' is already at the table", id="seated"),
        pytest.param(Join("bob"), "'bob' is already at the table", id="seated-in-another-case"),
        pytest.param(Join("ace"), "'ace' is already at the table", id="a-nickname"),
        pytest.param(Join("Eve", "Zed"), "unknown player 'Zed'", id="after-an-unknown-player"),
        pytest.param(Join("-x"), "may not start with '-'", id="not-a-name"),
    ],
)
def test_a_newcomer_needs_a_name_of_his_own_and_a_seat_to_sit_after(
    join: Join, message: str
) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        k.apply(nicknamed(), join)


def test_join_is_listed_exactly_when_it_works() -> None:
    assert "join" in k.legal_actions(play(""))
    assert "join" in k.legal_actions(play("Ann claim 9; Bob pull 4-5"))
    assert "join" not in k.legal_actions(play("Ann claim 9"))
    assert "join" not in k.legal_actions(play("", late_join=LateJoin.NEVER))
    assert {"leave", "replace"} <= set(k.legal_actions(play("Ann claim 9")))
    over = play("Bob slash 15; Cy slash 15; Dee slash 15")
    assert not {"join", "leave", "replace"} & set(k.legal_actions(over))


@pytest.mark.parametrize(
    ("after", "direction", "script", "faces"),
    [
        pytest.param("Ann", "left", "Ann claim 9", "Eve", id="left-after-the-roller"),
        pytest.param("Dee", "left", "Ann claim 9; Bob pass; Cy pass; Dee pass", "Eve",
                     id="left-after-the-last-seat"),
        pytest.param("Dee", "right", "Ann claim 9", "Eve", id="right-before-the-roller"),
        pytest.param("Ann", "right", "Ann claim 9; Dee pass; Cy pass; Bob pass", "Eve",
                     id="right-comes-round-to-him"),
    ],
)  # fmt: skip
def test_the_newcomer_plays_when_the_turn_reaches_his_seat(
    after: str, direction: str, script: str, faces: str
) -> None:
    start = table(direction=direction)
    state = play(f"join Eve after {after}; {script}", start)
    assert turn(state) == faces


# ---------------------------------------------------------------------------- leave

LEAVES = [
    pytest.param("", "leave Cy", "Ann", None, "Cy leaves: out", id="not-on-turn"),
    pytest.param("", "leave Ann", "Bob", None,
                 "Ann leaves: out; Ann held the mug: Bob rolls fresh", id="on-turn"),
    pytest.param("Ann claim 9", "leave Bob", "Cy", Rank.NINE,
                 "Bob leaves: out; Cy faces Nine, Ann answers", id="facing-the-claim"),
    pytest.param("Ann claim 9; Bob pass", "leave Bob", "Cy", None,
                 "Bob leaves: out; Bob answered for the claim: it is void, Cy rolls fresh",
                 id="answering-for-the-claim"),
    pytest.param("Ann claim 9; Bob pass", "leave Ann", "Cy", Rank.NINE, "Ann leaves: out",
                 id="the-roller-mid-chain"),
    pytest.param("Ann claim 9; Bob roll", "leave Bob", "Cy", None, "Bob leaves: out; Bob held"
                 " the mug: the claim to beat (Nine) is dropped, Cy rolls fresh",
                 id="holding-a-taken-mug"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "line", "on_turn", "claim", "words"), LEAVES)
def test_a_player_who_leaves_is_out_and_the_chain_goes_on_as_for_any_out(
    script: str, line: str, on_turn: str, claim: Rank | None, words: str
) -> None:
    before = play(script)
    state = play(line, before)
    gone = state.seats[state.index(line.split()[1])]
    assert gone.out and gone.left and gone.out_at == state.events
    assert (turn(state), state.claim) == (on_turn, claim)
    assert said(state).startswith(words)
    assert state.buyback_open == () and state.pot == before.pot  # his money stays in the pot
    assert state.bartender is None  # a player who left pours no drinks


def test_a_leave_is_placed_as_anyone_out_at_it_and_pours_no_drinks() -> None:
    assert "Cy is OUT (bartender/DJ)" in said(play("leave Dee; Cy slash 15"))
    state = play("leave Dee; Cy slash 15; Bob slash 15")
    assert state.bartender == "Cy" and "Bob is OUT, may buy back for 4" in said(state)
    state = k.apply(state, k.Settle())
    found = k.outcome(state)
    assert (found.standings, found.places) == (("Ann", "Bob", "Cy", "Dee"), (1, 2, 3, 4))


@pytest.mark.parametrize(
    ("players", "script", "winner"),
    [
        pytest.param("Ann Bob", "leave Bob", "Ann", id="two-players"),
        pytest.param("Ann Bob", "Ann claim 9; leave Ann", "Bob", id="mid-claim"),
        pytest.param("Ann Bob Cy", "Cy slash 15; leave Bob", "Ann", id="an-offer-closes-too"),
    ],
)
def test_a_leave_that_leaves_one_player_ends_the_game_with_no_offer(
    players: str, script: str, winner: str
) -> None:
    state = play(script, table(players))
    assert state.is_finished and state.winner == winner and state.buyback_open == ()
    assert k.outcome(state).status == "finished"
    assert said(state).endswith(f"{winner} wins the pot of {show(state.pot)}")
    with pytest.raises(RuleViolation, match=f"the game is over: {winner} won"):
        k.apply(state, k.Settle())


@pytest.mark.parametrize(
    ("script", "message"),
    [
        pytest.param("Bob slash 15", "Bob is out of the game already", id="out"),
        pytest.param("leave Bob", "Bob is out of the game already", id="left-already"),
        pytest.param("Bob slash 15; Cy slash 15; Dee slash 15", "the game is over", id="over"),
    ],
)
def test_a_leave_of_a_player_out_is_refused(script: str, message: str) -> None:
    with pytest.raises(RuleViolation, match=re.escape(message)):
        k.apply(play(script), Leave("Bob"))


# ---------------------------------------------------------------------------- replace


def test_a_newcomer_takes_over_a_seat_and_everything_on_it() -> None:
    script = "Ann kariki; Ann claim 9; Bob pull 1-3; Bob kariki; Bob claim 9; Bob slash 5"
    before = play(script)
    old = before.seats[1]
    assert (len(old.berries), old.slashes, old.crowns) == (2, 2, 1)
    state = play("replace Bob Eve", before)
    eve = state.seats[1]
    assert names(state) == ["Ann", "Eve", "Cy", "Dee"] and eve.nickname is None
    assert (eve.berries, eve.slashes, eve.crowns) == (old.berries, old.slashes, old.crowns)
    assert (turn(state), state.responsible, state.claim) == ("Cy", 1, Rank.NINE)
    assert said(state) == "Eve takes Bob's seat, paying Bob 1"
    assert "Bob" not in k.scores(state) and [p["name"] for p in players(state)][1] == "Eve"
    state = play("Cy pull 1-3", state)  # the seat's claim still stands: a lie, Eve's berry
    assert berries(state)["Eve"] == 3 and said(state).endswith("a berry for Eve")


def test_the_taker_over_keeps_the_buyback_used_and_the_bartender() -> None:
    state = play("Bob slash 15; Bob buyback; replace Bob Eve")
    eve = state.seats[1]
    assert eve.buyback_used and state.bartender == "Eve" and len(eve.berries) == 4
    assert state.paid(eve) == 100 + 400  # the buy-in and the buy-back Bob paid
    assert said(state) == "Eve takes Bob's seat, paying Bob 5"
    with pytest.raises(RuleViolation, match="once per game"):
        play("Eve slash 3; Eve buyback", state)


@pytest.mark.parametrize(
    ("script", "line", "error", "message"),
    [
        pytest.param("", "replace Bob Cy", UsageError, "'Cy' is already at the table",
                     id="a-name-seated"),
        pytest.param("", "replace Bob ann", UsageError, "'ann' is already at the table",
                     id="in-another-case"),
        pytest.param("", "replace Bob Bob", UsageError, "'Bob' is already at the table",
                     id="himself"),
        pytest.param("Bob slash 15", "replace Bob Eve", RuleViolation,
                     "Eve cannot take Bob's seat: Bob is out", id="an-out-player"),
        pytest.param("leave Bob", "replace Bob Eve", RuleViolation,
                     "Eve cannot take Bob's seat: Bob is out", id="a-player-who-left"),
        pytest.param("", "replace Zed Eve", UsageError, "unknown player 'Zed'", id="unknown"),
    ],
)  # fmt: skip
def test_a_replace_that_cannot_be_is_refused(
    script: str, line: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        play(line, play(script))


def test_a_replace_by_a_nickname_at_the_table_is_refused() -> None:
    with pytest.raises(UsageError, match="'sly' is already at the table"):
        k.apply(nicknamed(), Replace("Bob", "sly"))


# ---------------------------------------------------------------------------- money


def test_every_berry_hung_pays_the_loss_value_as_it_is_hung() -> None:
    state = table("Ann Bob Cy", loss_value=0.5, crown_threshold=1)
    assert state.pot == 300
    state = play("Bob slash 2", state)
    assert state.pot == 300  # two slashes: no berry yet
    state = play("Bob slash 1", state)
    assert state.purse.put_in("Bob") == 150
    state = play("Ann kariki", state)  # Bob's Kariki berry, then a crown berry each
    assert [state.purse.put_in(n) for n in ("Ann", "Bob", "Cy")] == [100, 250, 150]
    assert said(state).startswith("Ann shows KARIKI")


def test_the_emergency_berry_after_a_buyback_pays_too_and_the_buyback_pays_the_pot() -> None:
    state = play("Bob slash 15", table("Ann Bob", loss_value=0.25))
    assert state.pot == 200 + 125 and state.buyback_open == (1,)
    state = play("Bob buyback", state)
    assert state.pot == 2 * 325 and state.paid(state.seats[1]) == 100 + 125 + 325
    state = play("Bob slash 3", state)
    assert state.pot == 650 + 25 and said(state).endswith("Ann wins the pot of 6.75")


def test_a_night_without_money_has_no_pot_and_no_buyback_and_no_result() -> None:
    state = play("Bob slash 15", table("Ann Bob", buy_in=0))
    assert state.pot == 0 and state.is_finished and k.summary(state)["pot_to"] is None
    with pytest.raises(RuleViolation, match="game is over"):
        k.apply(state, k.BuyBack("Bob"))


def test_a_loss_value_without_a_buyin_still_makes_a_pot_and_a_buyback() -> None:
    state = play("Bob slash 15", table("Ann Bob", buy_in=0, loss_value=1))
    assert state.pot == 500 and state.buyback_open == (1,)
    assert said(state).endswith("Ann wins the pot of 5 unless Bob buys back for 5")


def test_join_pays_the_stake_and_replace_pays_the_old_holder() -> None:
    state = play("join Eve; Bob slash 3; replace Bob Fay", table(loss_value=0.5))
    assert state.purse.put_in("Eve") == 100
    assert state.purse.moved == (Transfer("Fay", "Bob", 150),)
    assert state.paid(state.seats[1]) == 150 and state.pot == 5 * 100 + 50


@pytest.mark.parametrize(
    ("script", "takes"),
    [
        pytest.param("Bob slash 15; Cy slash 15; Dee slash 15; settle", {"Ann": 400},
                     id="the-winner-takes-the-pot"),
        pytest.param("join Eve; leave Dee; replace Bob Fay; Fay slash 15; Cy slash 15;"
                     " Eve slash 15; settle", {"Ann": 500}, id="after-join-leave-replace"),
        pytest.param("Bob slash 15; Bob buyback; Bob slash 3; leave Cy; leave Dee",
                     {"Ann": 800}, id="a-leave-ends-it"),
    ],
)  # fmt: skip
def test_the_result_of_a_finished_game_nets_to_zero(
    referee: Runner, home: Path, script: str, takes: dict[str, int]
) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "friday").code == 0
    for line in script.split(";"):
        words = line.split()
        if words[0] not in ("join", "leave", "replace", "settle"):  # `Bob slash 15`
            words = [words[1], words[0], *words[2:]]
        result = referee("kariki", *words)
        assert result.code == 0, (line, result.err)
    loaded = storage.load(session_file(home))
    found = money(loaded.session, loaded.state)
    assert found is not None and found.result is not None
    assert dict(found.result.takes) == takes
    assert sum(found.result.nets.values()) == 0
    tally = loaded.session.engine.tally([loaded.state])
    paid = {name: row["paid"] for name, row in tally.items() if "paid" in row}
    assert sum(paid.values()) == found.purse.pot  # each seat's paid: the whole pot
    assert {n: row["won"] for n, row in tally.items() if "won" in row} == takes


def test_places_share_the_pot_by_payout_split() -> None:
    from referee.games.money import Standing, result

    rules = k.Rules(stakes=Stakes(stake=100, payout=Payout.PLACES, split=(70, 30)))
    people = [PlayerInfo(n) for n in ("Ann", "Bob", "Cy")]
    state = k.start(rules, people, k.options_from_table({}, people, rules))
    state = play("leave Cy; Bob slash 15; settle", state)
    ended = k.outcome(state)
    found = result(state.purse, Standing(ended.standings, ended.places, k.scores(state)))
    assert dict(found.takes) == {"Ann": 210, "Bob": 90}


# ---------------------------------------------------------------------------- the buy-in


@pytest.mark.parametrize(
    ("stored", "cents"),
    [
        pytest.param(2, 200, id="an-old-file's-whole-units"),
        pytest.param("1.50", 150, id="an-amount"),
        pytest.param("2", 200, id="typed-whole"),
        pytest.param(0, 0, id="no-money"),
    ],
)
def test_the_buy_in_option_is_read_in_cents(stored: object, cents: int) -> None:
    people = [PlayerInfo("Ann"), PlayerInfo("Bob")]
    options = k.options_from_table({"buy_in": stored}, people, k.Rules())
    assert options.buy_in == cents
    assert k.start(k.Rules(), people, options).pot == 2 * cents


@pytest.mark.parametrize("stored", ["1.505", -1, "x", True, 100_001])
def test_a_bad_buy_in_is_refused(stored: object) -> None:
    people = [PlayerInfo("Ann"), PlayerInfo("Bob")]
    with pytest.raises(UsageError, match="buy-in"):
        k.options_from_table({"buy_in": stored}, people, k.Rules())


def test_the_ruleset_reads_the_stake_keys_and_late_join() -> None:
    rules = k.Rules.from_table({"buy_in": "1.50", "loss_value": 0.25, "late_join": "never"})
    assert (rules.stakes.stake, rules.stakes.loss_value) == (150, 25)
    assert rules.late_join is LateJoin.NEVER
    assert k.Rules.from_table({}).stakes.stake == 100  # RULES 2: a buy-in of 1
    with pytest.raises(Exception, match="per_point is Kalooki's only"):
        k.Rules.from_table({"payout": "per_point"})


# ---------------------------------------------------------------------------- the CLI


def test_join_log_undo_and_show_json_through_the_cli(referee: Runner, home: Path) -> None:
    new = referee("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday", "--buy-in", "1.50")
    assert new.code == 0, new.err
    path = session_file(home)
    before = json.loads(referee("show", "--json").out)
    joined = referee("kariki", "join", "Dee", "--after", "Ann")
    assert joined.code == 0, joined.err
    assert " ".join(joined.out.split()).startswith(
        "Dee joins after Ann with no berries, paying 1.50"
    )
    doc = json.loads(referee("show", "--json").out)
    assert [p["name"] for p in doc["players"]] == ["Ann", "Dee", "Bob", "Cy"]
    assert [p["paid"] for p in doc["players"]] == [150] * 4 and doc["pot"] == 600
    log = referee("log").out
    assert "Dee joins after Ann" in " ".join(log.split())
    assert "join Dee --after Ann" in referee("log", "--script").out
    assert referee("kariki", "claim", "9").code == 0
    assert json.loads(referee("show", "--json").out)["turn"] == "Dee"
    assert referee("undo").code == 0 and referee("undo").code == 0
    assert json.loads(referee("show", "--json").out) == before
    assert 'buy_in = "1.50"' in path.read_text()


@pytest.mark.parametrize(
    ("setup", "line"),
    [
        pytest.param((), "join Dee --after Ann", id="join"),
        pytest.param(("claim 9",), "leave Bob", id="leave"),
        pytest.param(("claim 9", "pass"), "replace Bob Eve", id="replace"),
        pytest.param(("slash bob 12",), "leave Cy", id="leave-then-one-in-poo"),
    ],
)
def test_join_leave_replace_then_undo_leaves_the_state_as_before(
    referee: Runner, home: Path, setup: tuple[str, ...], line: str
) -> None:
    referee("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")
    for typed in setup:
        assert referee("kariki", *typed.split()).code == 0
    path = session_file(home)
    state = storage.load(path).state
    assert referee("kariki", *line.split()).code == 0
    assert storage.load(path).state != state
    assert referee("undo").code == 0
    assert storage.load(path).state == state
    assert referee("redo").code == 0
    assert referee("undo").code == 0 and storage.load(path).state == state


@pytest.mark.parametrize(
    ("setup", "line", "code", "message"),
    [
        pytest.param(("slash bob 15",), "join Dee", 1, "Bob is already out", id="join-late"),
        pytest.param(("claim 9",), "join Dee", 1, "a claim stands", id="join-mid-claim"),
        pytest.param((), "join bob", 2, "already at the table", id="join-a-name-seated"),
        pytest.param((), "join Dee --after Zed", 2, "unknown player", id="after-unknown"),
        pytest.param(("slash bob 15", "claim 9"), "leave Bob", 1, "out of the game already",
                     id="leave-out"),
        pytest.param((), "replace Bob Cy", 2, "already at the table", id="replace-seated"),
        pytest.param(("slash bob 15", "claim 9"), "replace Bob Eve", 1, "Bob is out",
                     id="replace-out"),
    ],
)  # fmt: skip
def test_every_refusal_changes_nothing_on_disk(
    referee: Runner, home: Path, setup: tuple[str, ...], line: str, code: int, message: str
) -> None:
    referee("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")
    for typed in setup:
        assert referee("kariki", *typed.split()).code == 0, typed
    path = session_file(home)
    kept = snapshot(path)
    refused = referee("kariki", *line.split())
    assert (refused.code, snapshot(path)) == (code, kept), refused.err
    assert message in refused.err


def test_a_buy_in_typed_as_an_amount(referee: Runner) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--buy-in", "2.5", "--name", "f").code == 0
    assert json.loads(referee("show", "--json").out)["pot"] == 500
    assert referee("new", "kariki", "Ann", "Bob", "--buy-in", "2.505").code == 2


@pytest.mark.parametrize("game", ["kariki", "mia", "liars"])
def test_a_newcomer_finds_no_seat_at_a_full_table(referee: Runner, home: Path, game: str) -> None:
    """`new` refuses 21 players, but join seated a 21st, then a 45th, at Kariki and Mia."""
    names = [f"P{k:02d}" for k in range(20)]
    assert referee("new", game, *names, "--name", "full").code == 0
    before = (home / "sessions" / "full.toml").read_bytes()
    result = referee(game, "join", "Newbie")
    assert result.code == 1
    assert result.err.startswith("error: Newbie cannot join: the table is full (20 players)")
    assert (home / "sessions" / "full.toml").read_bytes() == before
