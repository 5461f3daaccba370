"""A Kalooki game kept end to end (RULES.md section 5): rounds, calls, lay-downs, tacks, void
rounds, hands and the winner, through the engine and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage
from referee.errors import RuleViolation, UsageError
from referee.games import kalooki as k
from referee.games import kalooki_game as kg
from referee.games.base import PlayerInfo
from referee.notation.cards import parse_cards, show
from referee.render.kalooki_words import words
from referee.session import Session, append, replay, undo

RULES = k.Rules.from_table(storage.load_ruleset("kalooki"), "kalooki")


def game(rules: k.Rules = RULES, players: str = "Ann Bob Cy Dee", **changes: Any) -> kg.State:
    rules = k.Rules(**{**{f: getattr(rules, f) for f in rules.__slots__}, **changes})
    people = [PlayerInfo(n) for n in players.split()]
    return kg.start(rules, people, kg.options_from_table({}, people, rules))


def play(script: str, state: kg.State) -> kg.State:
    """`Bob call; Cy call refused by Ann; Cy down 7H 7S 7D / ...; Cy tack 9C on 3 swap; ...`."""
    for line in filter(None, (x.strip() for x in script.split(";"))):
        if line == "stockout":
            state = kg.apply(state, kg.StockOut())
            continue
        who, action, *rest = line.split(maxsplit=2)
        arg = rest[0] if rest else ""
        match action:
            case "call":
                by = arg.split("by ")[1] if "by " in arg else None
                event: kg.Event = kg.Call(who, "refused" in arg, by)
            case "down":
                event = kg.Down(who, tuple(tuple(m) for m in k.parse_lay_down([arg])))
            case "tack":
                card, _, place = arg.partition(" on ")
                number, _, swap = place.partition(" ")
                event = kg.Tack(who, parse_cards(card)[0], int(number), swap == "swap")
            case "out":
                event = kg.Out(who)
            case "hand":
                if arg.startswith("points "):
                    event = kg.Hand(who, None, int(arg.split()[1]))
                else:
                    event = kg.Hand(who, parse_cards(arg))
            case _:
                raise AssertionError(line)
        state = kg.apply(state, event)
    return state


def close_round(state: kg.State, out: str = "Ann", points: int = 10) -> kg.State:
    """Somebody goes out and every other hand is entered as points."""
    others = [s.name for s in state.seats if s.name != out]
    return play(f"{out} out; " + "; ".join(f"{o} hand points {points}" for o in others), state)


# ------------------------------------------------------------------ rounds and the dealer


def test_nine_rounds_with_the_deal_passing_left_and_the_lowest_total_winning() -> None:
    state = game()
    dealers = []
    for number in range(1, 10):
        assert state.round == number and not state.is_over
        dealers.append(state.name(state.dealer))
        out = ["Ann", "Bob", "Cy", "Dee"][number % 4]
        state = close_round(state, out=out, points=number)
    assert dealers == ["Ann", "Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann"]
    assert state.is_over and kg.outcome(state).finished
    totals = {s.name: s.total for s in state.seats}
    assert totals == {"Ann": 45 - 4 - 8, "Bob": 45 - 1 - 5 - 9, "Cy": 45 - 2 - 6, "Dee": 45 - 3 - 7}
    assert state.winners == ("Bob",) and "Bob wins with 30" in words(state.ruling)
    with pytest.raises(RuleViolation, match="the game is over after round 9"):
        play("Ann call", state)  # there is no 10th round


def test_a_tie_for_the_lowest_total_has_several_winners() -> None:
    state = game(players="Ann Bob Cy")
    for _ in range(9):
        state = play("Cy out; Ann hand points 5; Bob hand points 5", state)
    assert state.winners == ("Cy",)
    state = game(players="Ann Bob Cy")
    for _ in range(9):
        state = play("Cy out; Ann hand points 0; Bob hand points 5", state)
    assert state.winners == ("Ann", "Cy") and kg.summary(state)["winner"] == ["Ann", "Cy"]
    assert "Ann and Cy tie with 0" in words(state.ruling)


# ------------------------------------------------------------------ calls

CALL_LIMITS = [
    pytest.param(k.CallScope.GAME, 3, id="game-scope"),
    pytest.param(k.CallScope.HAND, 3, id="hand-scope"),
]


@pytest.mark.parametrize(("scope", "limit"), CALL_LIMITS)
def test_the_call_limit_under_both_scopes(scope: k.CallScope, limit: int) -> None:
    state = play("Bob call; Bob call; Bob call", game(call_limit_scope=scope))
    with pytest.raises(RuleViolation, match="has made 3 calls"):
        play("Bob call", state)
    state = play("Bob call refused", state)  # a refusal is recorded and does not count
    state = close_round(state)
    if scope is k.CallScope.GAME:
        with pytest.raises(RuleViolation, match="3 calls this game"):
            play("Bob call", state)
    else:
        assert kg.summary(play("Bob call", state))["players"][1]["calls_used"] == 1  # type: ignore[index]


def test_nobody_down_may_call_or_refuse() -> None:
    state = play("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK", game())
    with pytest.raises(RuleViolation, match="Cy has laid down: no more calls"):
        play("Cy call", state)
    with pytest.raises(RuleViolation, match="Cy has laid down: he cannot refuse"):
        play("Bob call refused by Cy", state)
    assert words(play("Bob call refused by Ann", state).ruling) == (
        "Bob's call is refused (it does not count)"
    )


# ------------------------------------------------------------------ lay-downs and tacks


def test_a_lay_down_is_checked_against_the_contract_and_marks_the_player_down() -> None:
    with pytest.raises(RuleViolation, match="round 1 needs 3 threes"):
        play("Cy down 7H 7S 7D / 8C 8S 8D", game())
    state = play("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK", game())
    assert state.seats[2].down and len(state.table) == 3
    with pytest.raises(RuleViolation, match="may only add cards"):
        play("Cy down 10H 10S 10D", state)
    allowed = play("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK; Cy down 10H 10S 10D",
                   game(allow_new_melds_after_laydown=True))  # fmt: skip
    assert len(allowed.table) == 4


RUN_ROUND = "Ann out; Bob hand points 1; Cy hand points 1; Dee hand points 1"  # to round 2 (334)
LAID = "Cy down 7H 7S 7D / 8C 8S 8D / 5S 6S 7S 8S"

TACKS = [
    pytest.param(k.TackOrder.HIGH_FIRST, "9S", "5S 6S 7S 8S 9S", id="high-end"),
    pytest.param(k.TackOrder.HIGH_FIRST, "4S", "takes 9S", id="high-first-refuses-low"),
    pytest.param(k.TackOrder.EITHER_END, "4S", "4S 5S 6S 7S 8S", id="either-end-low"),
    pytest.param(k.TackOrder.HIGH_FIRST, "9H", "not a spade", id="wrong-suit"),
    pytest.param(k.TackOrder.HIGH_FIRST, "JK", "5S 6S 7S 8S JK", id="a-joker-at-the-end"),
]  # fmt: skip


@pytest.mark.parametrize(("order", "card", "expected"), TACKS)
def test_tack_order_both_ways(order: k.TackOrder, card: str, expected: str) -> None:
    state = play(f"{RUN_ROUND}; {LAID}", game(tack_order=order))
    try:
        after = play(f"Cy tack {card} on 3", state)
    except RuleViolation as error:
        assert expected in str(error)
        return
    assert show(list(after.table[2].cards)) == expected


def test_a_four_at_the_ace_goes_on_at_the_low_end() -> None:
    state = play("Ann out; Bob hand points 1; Cy hand points 1; Dee hand points 1", game())
    state = play("Cy down 7H 7S 7D / 8C 8S 8D / JS QS KS AS", state)
    with pytest.raises(RuleViolation, match="takes 10S"):
        play("Cy tack 2S on 3", state)
    assert show(list(play("Cy tack 10S on 3", state).table[2].cards)) == "10S JS QS KS AS"


def test_the_joker_swap_moves_the_joker_to_the_high_end() -> None:
    state = play(f"{RUN_ROUND}; Cy down 7H 7S 7D / 8C 8S 8D / 5S JK 7S 8S", game())
    assert show(list(state.table[2].cards)) == "5S JK 7S 8S"
    after = play("Cy tack 6S on 3 swap", state)
    assert show(list(after.table[2].cards)) == "5S 6S 7S 8S JK"
    assert "puts 6S in for the joker on meld 3" in words(after.ruling)
    with pytest.raises(RuleViolation, match="no joker in meld 3 stands for 9S"):
        play("Cy tack 9S on 3 swap", state)
    with pytest.raises(RuleViolation, match="a joker in a three never moves"):
        play("Cy tack 7C on 1 swap", state)
    with pytest.raises(RuleViolation, match="has not laid down"):
        play("Bob tack 9S on 3", state)


def test_a_player_down_tacks_onto_anyone_s_melds() -> None:
    state = play(f"{RUN_ROUND}; {LAID}; Ann down 10H 10S 10D / JC JS JD / 5H 6H 7H 8H", game())
    after = play("Ann tack 9S on 3", state)  # Cy's four, tacked by Ann
    assert show(list(after.table[2].cards)) == "5S 6S 7S 8S 9S" and after.table[2].owner == "Cy"
    assert show(list(play("Cy tack 10C on 4", after).table[3].cards)) == "10S 10H 10D 10C"
    with pytest.raises(RuleViolation, match="does not fit a three"):
        play("Cy tack 7C on 4", after)


def test_distinct_suits_in_threes_hold_for_tacks_too() -> None:
    strict = game(three_distinct_suits=True)
    state = play("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK", strict)
    assert show(list(play("Cy tack 7C on 1", state).table[0].cards)).startswith("7S 7H 7D 7C")
    with pytest.raises(RuleViolation, match="suits must differ"):
        play("Cy tack 7H on 1", state)
    assert len(play("Cy tack 7H on 1", play("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK",
                                                 game())).table[0].cards) == 4  # fmt: skip


def test_two_jokers_never_stand_side_by_side_on_a_tack() -> None:
    state = play(f"{RUN_ROUND}; Cy down 7H 7S 7D / 8C 8S 8D / 5S 6S 7S JK", game())
    with pytest.raises(RuleViolation, match="a joker does not fit"):
        play("Cy tack JK on 3", state)


# ------------------------------------------------------------------ the stock


def test_the_stock_running_out_once_then_twice_voids_the_round() -> None:
    state = play("Bob call; Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK; stockout", game())
    assert state.stockouts == 1 and "keep the top discard" in words(state.ruling)
    voided = play("stockout", state)
    assert voided.round == 1 and voided.void_rounds == (1,) and voided.name(voided.dealer) == "Ann"
    assert voided.table == () and not voided.seats[2].down  # dealt again, nobody down
    assert voided.seats[1].calls_game == 1  # calls made in a void round still count
    assert "round 1 is void" in words(voided.ruling)
    after = close_round(voided)
    assert after.round == 2 and after.name(after.dealer) == "Bob"
    assert all(len(s.scores) == 1 for s in after.seats)


# ------------------------------------------------------------------ hands


HANDS = [
    pytest.param("JK AS AH KD 10C 7H", 50 + 15 + 1 + 10 + 10 + 7, id="every-kind"),
    pytest.param("2C 3C 9D", 14, id="face-values"),
    pytest.param("AC", 15, id="black-ace"),
    pytest.param("AD", 1, id="red-ace"),
]


@pytest.mark.parametrize(("cards", "points"), HANDS)
def test_each_hand_is_scored_card_by_card(cards: str, points: int) -> None:
    state = play(f"Ann out; Bob hand {cards}", game())
    assert state.seats[1].hand == points


REFUSED_HANDS = [
    pytest.param("Bob hand 5H", RuleViolation, "before someone goes out",
                 id="before-anyone-out"),
    pytest.param("Ann out; Ann hand 5H", RuleViolation, "went out", id="the-one-out"),
    pytest.param("Ann out; Bob hand 5H; Bob hand 6H", RuleViolation, "in already",
                 id="twice"),
    pytest.param("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK; Ann out; Bob hand 7H 7H", UsageError,
                 "3 x 7H", id="a-third-7H"),
    pytest.param("Ann out; Bob hand JK JK JK; Cy hand JK JK", UsageError, "5 x JK",
                 id="a-fifth-joker"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "error", "reason"), REFUSED_HANDS)
def test_hands_the_rules_or_the_pack_refuse(
    script: str, error: type[Exception], reason: str
) -> None:
    with pytest.raises(error, match=reason):
        play(script, game())


# ------------------------------------------------------------------ undo


def test_undo_across_a_round_boundary_and_a_void_round() -> None:
    table = storage.load_ruleset("kalooki")
    people = tuple(PlayerInfo(n) for n in ("Ann", "Bob", "Cy"))
    session = Session("u", "kalooki", table, people, {})
    state = replay(session)
    history = [state]
    for event in (kg.Call("Bob"), kg.StockOut(), kg.StockOut(), kg.Out("Ann"),
                  kg.Hand("Bob", None, 5), kg.Hand("Cy", None, 7)):  # fmt: skip
        session, state = append(session, state, event)
        history.append(state)
    assert state.round == 2 and state.void_rounds == (1,)
    for expected in reversed(history[:-1]):
        session, state, _ = undo(session)
        assert state == expected
    assert state.round == 1 and state.void_rounds == ()


# ------------------------------------------------------------------ the command line

START = ("new", "kalooki", "Ann", "Bob", "Cy", "Dee", "--name", "friday")

BAD = [
    pytest.param(("hand", "Bob", "5H"), 1, "before someone goes out", id="hand-before-out"),
    pytest.param(("call", "Zed"), 2, "unknown player 'Zed'", id="unknown-player"),
    pytest.param(("down", "Cy", "7H", "7S", "7D", "/", "8C", "8S", "8D"), 1, "needs 3 threes",
                 id="lay-down-misses-the-contract"),
    pytest.param(("down", "Cy", "7H", "7H", "7H", "/", "8C", "8S", "8D", "/", "9S", "9D", "9H"),
                 1, "3 x 7H", id="a-lay-down-the-pack-cannot-hold"),
    pytest.param(("tack", "Cy", "8S", "--on", "1"), 1, "has not laid down", id="tack-before-down"),
    pytest.param(("hand", "Bob", "ZZ"), 2, "unknown card", id="bad-card"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "code", "message"), BAD)
def test_bad_input_is_one_line_and_saves_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    assert referee(*START).code == 0
    before = snapshot(session_file(home))
    result = referee("kalooki", *args)
    assert result.code == code and message in result.err and result.err.count("\n") == 1, result
    assert snapshot(session_file(home)) == before


def test_a_10th_round_and_a_fifth_joker_through_the_command_line(
    referee: Runner, home: Path
) -> None:
    assert referee(*START).code == 0
    assert referee("kal", "out", "Ann").code == 0
    assert referee("kal", "hand", "Bob", "JK", "JK", "JK").code == 0
    before = snapshot(session_file(home))
    result = referee("kal", "hand", "Cy", "JK", "JK")
    assert result.code == 2 and "5 x JK" in result.err
    assert snapshot(session_file(home)) == before


def test_the_json_document_and_the_sheet(referee: Runner) -> None:
    assert referee(*START, "--dealer", "bob").code == 0
    referee("kal", "call", "ann")
    referee("kal", "down", "cy", "7H 7S 7D / 8C 8S 8D / 9H 9S JK")
    doc: dict[str, Any] = json.loads(referee("show", "--json").out)
    assert set(doc) == {
        "game",
        "session",
        "round",
        "contract",
        "deal_size",
        "dealer",
        "phase",
        "players",
        "table",
        "void_rounds",
        "rounds_played",
        "winner",
        "events",
    }
    assert (doc["round"], doc["contract"], doc["deal_size"], doc["dealer"]) == (1, "333", 9, "Bob")
    assert doc["players"][0] == {"name": "Ann", "total": 0, "rounds": [None] * 9,
                                 "calls_used": 1, "down": False}  # fmt: skip
    assert doc["table"][2] == {"number": 3, "owner": "Cy", "kind": "three",
                               "cards": ["9S", "9H", "JK"]}  # fmt: skip
    shown = referee("show").out
    assert "R1 333, Bob deals; down: Cy" in shown and "3) 9S 9H JK (Cy)" in shown
    assert max(len(line) for line in shown.splitlines()) <= 40


def test_a_six_player_sheet_fits_a_phone(referee: Runner) -> None:
    referee("new", "kalooki", "Annabelle", "Annalise", "Cy", "Dee", "Eve", "Fay", "--name", "six")
    for number in range(1, 10):
        referee("kal", "out", "Cy")
        for name in ("Annabelle", "Annalise", "Dee", "Eve", "Fay"):
            assert referee("kal", "hand", name, "--points", str(10 * number)).code == 0
    shown = referee("show", "--full").out
    assert max(len(line) for line in shown.splitlines()) <= 40
    assert "Ann An2 Cy Dee" in " ".join(shown.split()) and "Cy wins with 0" in shown
    assert "Ann=Annabelle An2=Annalise" in shown  # a legend for the names cut short
    assert "450" in shown.splitlines()[-3]  # 10 + 20 + ... + 90 for the others


def test_a_thin_pack_is_a_warning_not_a_refusal(referee: Runner) -> None:
    six = referee("new", "kalooki", "A", "B", "C", "D", "E", "F", "--name", "six")
    assert six.code == 0 and six.err == (
        "warning: a thin pack: 6 x 16 cards in the last round leave 12 of 108 for the stock\n"
    )
    assert referee("new", "kalooki", "A", "B", "C", "D", "E", "--name", "five").err == ""
