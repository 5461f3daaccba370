"""A Kalooki game kept end to end (RULES.md section 5): rounds, calls, lay-downs, tacks, void
rounds, hands and the winner, through the engine and the command line."""

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
from referee.games.kalooki import engine as kg
from referee.games.kalooki import melds as k
from referee.games.kalooki.cards import parse_cards, show
from referee.games.kalooki.words import words
from referee.session import Session, append, replay, undo

RULES = k.Rules.from_table(storage.load_ruleset("kalooki"), "kalooki")


def game(rules: k.Rules = RULES, players: str = "Ann Bob Cy Dee", **changes: Any) -> kg.State:
    rules = k.Rules(
        **{**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}, **changes}
    )
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
                event = kg.Out(who, arg == "later")
            case "hand":
                if arg.startswith("points "):
                    event = kg.Hand(who, None, int(arg.split()[1]))
                else:
                    event = kg.Hand(who, parse_cards(arg))
            case _:
                raise AssertionError(line)
        state = kg.apply(state, event)
    return state


def contract_of(state: kg.State) -> str:
    """A lay-down of the current round's contract: threes of 7s, 8s..., fours 2-5 by suit."""
    code = state.rules.contract(state.round).code
    threes = [f"{r}S {r}H {r}D" for r in range(7, 7 + code.count("3"))]
    fours = [" ".join(f"{r}{suit}" for r in range(2, 6)) for suit in "SHDC"[: code.count("4")]]
    return " / ".join(threes + fours)


def close_round(state: kg.State, out: str = "Ann", points: int = 50) -> kg.State:
    """Somebody lays down and goes out, and every other hand is entered as points."""
    others = [s.name for s in state.seats if s.name != out]
    down = "" if state.seats[state.index(out)].down else f"{out} down {contract_of(state)}; "
    hands = "; ".join(f"{o} hand points {points}" for o in others)
    return play(f"{down}{out} out; {hands}", state)


# ------------------------------------------------------------------ rounds and the dealer


def test_nine_rounds_with_the_deal_passing_left_and_the_lowest_total_winning() -> None:
    state = game()
    dealers = []
    for number in range(1, 10):
        assert state.round == number and not state.is_over
        dealers.append(state.name(state.dealer))
        out = ["Ann", "Bob", "Cy", "Dee"][number % 4]
        state = close_round(state, out=out, points=40 + number)
    assert dealers == ["Ann", "Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann"]
    assert state.is_over and kg.outcome(state).finished
    totals = {s.name: s.total for s in state.seats}
    every = sum(40 + r for r in range(1, 10))  # 405, less the rounds each went out
    assert totals == {"Ann": every - 44 - 48, "Bob": every - 41 - 45 - 49,
                      "Cy": every - 42 - 46, "Dee": every - 43 - 47}  # fmt: skip
    assert state.winners == ("Bob",) and "Bob wins with 270" in words(state.ruling)
    assert [p.dealer for p in state.played] == dealers
    assert [p.out for p in state.played] == ["Bob", "Cy", "Dee", "Ann"] * 2 + ["Bob"]
    with pytest.raises(RuleViolation, match="the game is over after round 9"):
        play("Ann call", state)  # there is no 10th round


def test_a_tie_for_the_lowest_total_has_several_winners() -> None:
    state = game(players="Ann Bob Cy")
    for _ in range(9):
        state = close_round(state, out="Cy", points=50)
    assert state.winners == ("Cy",)
    state = game(players="Ann Bob Cy")
    for number in range(9):
        state = close_round(state, out="Cy" if number % 2 else "Ann", points=50)
    assert state.winners == ("Ann",)  # Ann went out 5 times, Cy 4: Ann 200, Cy 250
    state = kg.apply(state, kg.Fix(2, "Ann", None, 100))  # a slip put right: now a tie
    assert state.winners == ("Ann", "Cy") and kg.summary(state)["winner"] == ["Ann", "Cy"]
    assert "Ann and Cy tie with 250" in words(state.ruling)


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
    with pytest.raises(RuleViolation, match="has made 3 calls"):
        play("Bob call refused", state)  # a call he may not make cannot be refused either
    state = play("Cy call refused", state)  # a refusal is recorded and does not count
    assert state.seats[2].calls_game == 0
    state = close_round(state)
    if scope is k.CallScope.GAME:
        with pytest.raises(RuleViolation, match="3 calls this game"):
            play("Bob call", state)
    else:
        assert kg.summary(play("Bob call", state))["players"][1]["calls_used"] == 1  # type: ignore[index]


def test_nobody_down_may_call_or_refuse() -> None:
    state = play("Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK", game())
    with pytest.raises(RuleViolation, match="Cy has laid down: Cy may not call any more"):
        play("Cy call", state)
    with pytest.raises(RuleViolation, match="Cy has laid down: Cy may not refuse a call"):
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
    allowed = play("Cy call; Cy down 7H 7S 7D / 8C 8S 8D / 9H 9S JK; Cy down 10H 10S 10D",
                   game(allow_new_melds_after_laydown=True))  # fmt: skip
    assert len(allowed.table) == 4


RUN_ROUND = (  # to round 2 (334)
    "Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D; Ann out;"
    " Bob hand points 20; Cy hand points 20; Dee hand points 20"
)
LAID = "Cy down 7H 7S 7D / 8C 8S 8D / 5S 6S 7S 8S"

TACKS = [
    pytest.param(k.TackOrder.HIGH_FIRST, "9S", "5S 6S 7S 8S 9S", id="high-end"),
    pytest.param(k.TackOrder.HIGH_FIRST, "4S", "the high end takes 9S; the low end opens once",
                 id="high-first-refuses-low"),
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
    state = play(RUN_ROUND, game())
    state = play("Cy down 7H 7S 7D / 8C 8S 8D / JS QS KS AS", state)
    with pytest.raises(RuleViolation, match="takes 10S"):
        play("Cy tack 2S on 3", state)
    assert show(list(play("Cy tack 10S on 3", state).table[2].cards)) == "10S JS QS KS AS"


def test_the_joker_swap_moves_the_joker_to_the_high_end() -> None:
    state = play(f"{RUN_ROUND}; Cy down 7H 7S 7D / 8C 8S 8D / 5S JK 7S 8S", game())
    assert show(list(state.table[2].cards)) == "5S JK 7S 8S"
    after = play("Cy tack 6S on 3 swap", state)
    assert show(list(after.table[2].cards)) == "5S 6S 7S 8S JK"
    assert words(after.ruling).split("; ")[0] == (
        "Cy puts 6S in for the joker on meld 3, which moves: 5S 6S 7S 8S JK (JK as 9S)"
    )
    with pytest.raises(RuleViolation, match="no joker in meld 3 stands for 9S"):
        play("Cy tack 9S on 3 swap", state)
    with pytest.raises(RuleViolation, match="meld 1 has no joker"):
        play("Cy tack 7C on 1 swap", state)
    with pytest.raises(RuleViolation, match="has not laid down"):
        play("Bob tack 9S on 3", state)


# RULES 5: "the ruling says it (`JK as 5D`)": a tack that puts a joker somewhere says where,
# as a lay-down does (a swap said only the meld, and the reader had to work the place out).
JOKER_PLACES = [
    pytest.param("JK 6S 7S 8S", "Cy tack 5S on 3 swap",
                 "Cy puts 5S in for the joker on meld 3, which moves: 5S 6S 7S 8S JK (JK as 9S)",
                 id="swap-to-the-high-end"),
    pytest.param("JK JS QS KS AS", "Cy tack 10S on 3 swap",
                 "Cy puts 10S in for the joker on meld 3, which moves: JK 10S JS QS KS AS"
                 " (JK as 9S)", id="swap-at-the-ace-goes-low"),
    pytest.param("5S 6S 7S 8S", "Cy tack JK on 3",
                 "Cy tacks JK on meld 3: 5S 6S 7S 8S JK (JK as 9S)", id="a-joker-tacked"),
    pytest.param("5S 6S 7S 8S", "Cy tack 9S on 3", "Cy tacks 9S on meld 3: 5S 6S 7S 8S 9S",
                 id="no-joker-placed-nothing-said"),
    pytest.param("5S 6S 7S 8S", "Cy tack JK on 1", "Cy tacks JK on meld 1: 7S 7H 7D JK",
                 id="a-three-has-no-places"),
]  # fmt: skip


@pytest.mark.parametrize(("four", "tack", "said"), JOKER_PLACES)
def test_a_tack_that_places_a_joker_says_where_it_stands(four: str, tack: str, said: str) -> None:
    state = play(f"{RUN_ROUND}; Cy call; Cy down 7H 7S 7D / 8C 8S 8D / {four}", game())
    assert words(play(tack, state).ruling).split("; ")[0] == said


NO_JOKER = [
    pytest.param("Cy tack 7C on 1 swap", "meld 1 has no joker (7S 7H 7D): tack 7C without --swap",
                 id="a-three"),
    pytest.param("Cy tack 9S on 3 swap",
                 "meld 3 has no joker (5S 6S 7S 8S): tack 9S without --swap", id="a-four"),
    pytest.param("Cy tack 8C on 2 swap", "a joker in a three never moves", id="a-three-with-one"),
]  # fmt: skip


@pytest.mark.parametrize(("tack", "refused"), NO_JOKER)
def test_a_swap_on_a_meld_without_a_joker_says_so(tack: str, refused: str) -> None:
    """`--swap` on `5S 5D 5C` said "a joker in a three never moves": there was none to move."""
    state = play(f"{RUN_ROUND}; Cy call; Cy down 7H 7S 7D / 8C 8S JK / 5S 6S 7S 8S", game())
    with pytest.raises(RuleViolation) as error:
        play(tack, state)
    assert str(error.value) == refused


def test_a_player_down_tacks_onto_anyone_s_melds() -> None:
    # Ann's call leaves her two cards to keep after her lay-down: Cy has laid all his
    laid = f"{RUN_ROUND}; {LAID}; Ann call; Ann down 10H 10S 10D / JC JS JD / 5H 6H 7H 8H"
    after = play("Ann tack 9S on 3", play(laid, game()))  # Cy's four, tacked by Ann
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
    with pytest.raises(RuleViolation, match=r"the high end holds a joker already \(for 8S\)"):
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
    pytest.param("JK AS AH KD 10C 7H", "JK 50 + AS 15 + AH 1 + KD 10 + 10C 10 + 7H 7 = 93",
                 id="every-kind"),
    pytest.param("2C 3C 9D", "2C 2 + 3C 3 + 9D 9 = 14", id="face-values"),
    pytest.param("AC", "AC 15 = 15", id="black-ace"),
    pytest.param("AD", "AD 1 = 1", id="red-ace"),
    pytest.param("QD JD 10D 9C 8C 6C 5C 4C 3C", "QD 10 + JD 10 + 10D 10 + 9C 9 + 8C 8 + 6C 6"
                 " + 5C 5 + 4C 4 + 3C 3 = 65", id="nine-cards-of-one-never-down"),
]  # fmt: skip
TWO_DOWN = (  # Bob's three calls leave him 6 cards beside his 9 on the table
    "Bob call; Bob call; Bob call; Ann down 7S 7H 7D / 8S 8H 8D / 9S 9H 9D;"
    " Bob down 10S 10H 10D / JS JH JC / QS QH QC; Ann out"
)


@pytest.mark.parametrize(("cards", "said"), HANDS)
def test_each_hand_is_scored_card_by_card(cards: str, said: str) -> None:
    state = play(TWO_DOWN, game())
    who = "Bob" if len(cards.split()) < 9 else "Cy"  # Bob laid down; Cy holds all 9
    state = play(f"{who} hand {cards}", state)
    assert state.seats[state.index(who)].hand == int(said.rsplit(" ", 1)[1])
    assert words(state.ruling) == f"{who} scores {said}"


NINE = "2C 3C 4C 5C 6C 8C 9C 10C"  # eight cards: a ninth makes a hand never laid down
REFUSED_HANDS = [
    pytest.param("Bob hand 5H", RuleViolation, "before someone goes out",
                 id="before-anyone-out"),
    pytest.param(f"{TWO_DOWN}; Ann hand 5H", RuleViolation, "went out", id="the-one-out"),
    pytest.param(f"{TWO_DOWN}; Bob hand 5H; Bob hand 6H", RuleViolation, "in already",
                 id="twice"),
    pytest.param(f"{TWO_DOWN}; Bob hand 7H 7H", UsageError, "3 x 7H", id="a-third-7H"),
    pytest.param(f"{TWO_DOWN}; Cy hand JK JK JK 2C 3C 4C 5C 6C 8C; Dee hand JK JK {NINE[:-4]}",
                 UsageError, "5 x JK", id="a-fifth-joker"),
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
    laid = tuple(tuple(m) for m in k.parse_lay_down(["7S 7H 7D / 8S 8H 8D / 9S 9H 9D"]))
    for event in (kg.Call("Bob"), kg.StockOut(), kg.StockOut(), kg.Down("Ann", laid),
                  kg.Out("Ann"), kg.Hand("Bob", None, 30), kg.Hand("Cy", None, 40)):  # fmt: skip
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
    assert referee("kal", "down", "Ann", "7S 7H 7D / 8S 8H 8D / 9S 9H 9D").code == 0
    assert referee("kal", "out", "Ann").code == 0
    assert referee("kal", "hand", "Bob", "JK", "JK", "JK", *NINE.split()[:6]).code == 0
    before = snapshot(session_file(home))
    result = referee("kal", "hand", "Cy", "JK", "JK", *NINE.split()[:7])
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
        "house_rules",
        "money",
        "night",
        "round",
        "contract",
        "deal_size",
        "dealer",
        "phase",
        "players",
        "rounds",
        "table",
        "void_rounds",
        "void_deals",
        "rounds_played",
        "winner",
        "events",
    }
    assert (doc["round"], doc["contract"], doc["deal_size"], doc["dealer"]) == (1, "333", 9, "Bob")
    assert doc["players"][0] == {"name": "Ann", "total": 0, "rounds": [None] * 9,
                                 "calls_used": 1, "calls": [None] * 9, "down": False,
                                 "joined": None, "left": None}  # fmt: skip
    assert doc["table"][2] == {"number": 3, "owner": "Cy", "kind": "three",
                               "cards": ["9S", "9H", "JK"]}  # fmt: skip
    shown = referee("show").out
    assert "R1 333 (3 threes), Bob deals\ndown: Cy" in shown and "3) 9S 9H JK (Cy)" in shown
    assert max(len(line) for line in shown.splitlines()) <= 40


def test_a_thin_pack_is_a_warning_not_a_refusal(referee: Runner) -> None:
    six = referee("new", "kalooki", "A", "B", "C", "D", "E", "F", "--name", "six")
    assert six.code == 0 and six.err == (
        "warning: a thin pack: 6 x 16 cards in the last round leave 12 of 108 for the stock\n"
    )
    assert referee("new", "kalooki", "A", "B", "C", "D", "E", "--name", "five").err == ""


# ------------------------------------------------------------------ going out, hands and calls
# (issue 22: each of these was accepted before)

R1 = "7S 7H 7D / 8S 8H 8D / 9S 9H 9D"  # round 1's contract (333)

GOING_OUT = [
    pytest.param("Cy out", "Cy has not laid down this round", id="never-down"),
    pytest.param(f"Ann down {R1}; Cy out", "Cy has not laid down this round",
                 id="another-player-down"),
    pytest.param(f"Cy down {R1}; stockout; stockout; Cy out", "Cy has not laid down this round",
                 id="down-before-a-void-deal"),
    pytest.param(f"{RUN_ROUND}; Ann out", "Ann has not laid down this round",
                 id="down-last-round-only"),
    pytest.param(f"Cy down {R1}; Cy out", None, id="down-then-out"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "refused"), GOING_OUT)
def test_going_out_needs_a_lay_down_this_round(script: str, refused: str | None) -> None:
    if refused is None:
        assert play(script, game()).phase is kg.Phase.SCORING
        return
    with pytest.raises(RuleViolation, match=refused):
        play(script, game())


# Round 1 deals 9 and its contract is 9 cards: a lay-down without a call keeps only the drawn
# card, the discard that takes the player out. Nobody else can empty his hand after that.
EMPTIED = [
    pytest.param(f"Ann down {R1}", "Ann has one card left: out Ann ends the round", id="laid-all"),
    pytest.param(f"Ann down {R1}; Ann tack 9C on 3", "Ann has no card left", id="laid-the-last"),
    pytest.param(f"Bob call; Bob down {R1}", "Bob lays down", id="a-call-keeps-two"),
    pytest.param(f"Ann down {R1}; Bob down {R1}",
                 "Bob would have one card left, but Ann has one card left already and goes out:"
                 " out Ann ends the round", id="a-second-player-empties-his-hand"),
    pytest.param(f"Ann down {R1}; Ann tack 9C on 3; Bob down {R1}",
                 "Bob would have one card left, but Ann has no card left already",
                 id="after-the-last-card-laid"),
    pytest.param(f"Ann down {R1}; Bob call; Bob down {R1}; Bob out",
                 "Ann has one card left, so Ann goes out, not Bob: out Ann (or undo the lay"
                 " that left Ann one card)", id="another-player-goes-out"),
    pytest.param(f"Ann call; Ann down {R1}; Bob down {R1}; Ann tack 9C on 3; Ann tack 7C on 1",
                 "Ann would have one card left, but Bob has one card left already",
                 id="a-tack-empties"),
    pytest.param(f"Ann down {R1}; Bob call", "Bob calls the discard", id="a-call-after-it"),
    pytest.param(f"Ann down {R1}; Ann tack 9C on 3; Ann out", "Ann goes out", id="out-after-it"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "said"), EMPTIED)
def test_who_lays_every_card_is_the_one_who_goes_out(script: str, said: str) -> None:
    """A refusal says what the ruling said of the player who is out: `Ann has one card left`
    (her discard), never `Ann has laid every card` beside it (play-test: both, one move apart)."""
    if " would have " in said or said.startswith("Ann has one card left, so"):
        with pytest.raises(RuleViolation) as refused:
            play(script, game())
        assert str(refused.value).startswith(said)
        return
    assert said in words(play(script, game()).ruling)


def test_the_player_who_laid_every_card_goes_out_and_the_round_closes() -> None:
    state = play(f"Ann down {R1}; Bob call; Bob down {R1}; Ann out", game())
    state = play("Bob hand 5H; Cy hand points 40; Dee hand points 60", state)
    assert (state.round, [s.total for s in state.seats]) == (2, [0, 5, 40, 60])


OUT_R1 = f"Ann down {R1}; Ann out"
NINE_CARDS = "2C 3C 4C 5C 6C 8C 9C 10C QD"  # 57 points
BOB_DOWN = "Bob call; Bob down 10S 10H 10D / JS JH JD / QS QH QD"  # 11 held, 9 laid
HAND_COUNTS = [
    pytest.param(OUT_R1, f"Bob hand {NINE_CARDS}", 57, id="never-down-holds-the-deal"),
    pytest.param(OUT_R1, "Bob hand 2C 3C 4C 5C 6C 8C 9C 10C",
                 "8 cards typed, but Bob holds 9 cards (9 dealt, never laid down)",
                 id="never-down-one-short"),
    pytest.param(OUT_R1, f"Bob hand {NINE_CARDS} {NINE_CARDS} 2D 3D 4D 5D 6D",
                 "23 cards typed, but Bob holds 9 cards", id="round-1-given-23-cards"),
    pytest.param(f"Bob call; {OUT_R1}", f"Bob hand {NINE_CARDS} 2H 3H", 62,
                 id="a-call-gives-two-more"),
    pytest.param(f"Bob call; {OUT_R1}", f"Bob hand {NINE_CARDS}",
                 "9 cards typed, but Bob holds 11 cards (9 dealt + 2 for 1 call",
                 id="a-call-forgotten"),
    pytest.param(f"Bob call; Bob call; {OUT_R1}", "Bob hand points 20",
                 "20 points typed, but Bob holds 13 cards (9 dealt + 2 for each of 2 calls,"
                 " never laid down): they score 23 to 310", id="two-calls-too-few-points"),
    pytest.param(f"Bob call; stockout; stockout; {OUT_R1}", f"Bob hand {NINE_CARDS}", 57,
                 id="a-void-deal-takes-its-calls-with-it"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand 5H", 5, id="down-holds-fewer"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand 5H 6H",  5 + 6, id="down-holds-the-rest"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand 5H 6H 7H",
                 "3 cards typed, but Bob holds 1 to 2 cards (9 dealt + 2 for 1 call, 9 laid"
                 " down or tacked)", id="down-holds-no-more-than-he-kept"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", f"Bob hand {NINE_CARDS} 2H",
                 "10 cards typed, but Bob holds 1 to 2 cards", id="down-holds-less-than-the-deal"),
    pytest.param(f"{BOB_DOWN}; Bob tack 10C on 1; {OUT_R1}", "Bob hand 5H 6H",
                 "2 cards typed, but Bob holds 1 card (9 dealt + 2 for 1 call, 10 laid",
                 id="a-tack-leaves-one-fewer"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand points 150",
                 "150 points typed, but Bob holds 1 to 2 cards", id="down-points-of-the-rest"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand points 65", 65,
                 id="down-points-a-joker-and-a-black-ace"),
    pytest.param(OUT_R1, "Bob hand points 300",
                 "300 points typed, but Bob holds 9 cards (9 dealt, never laid down):"
                 " they score 14 to 270", id="300-points-in-9-cards"),
    pytest.param(OUT_R1, "Bob hand points 2000", "they score 14 to 270", id="2000-points"),
    pytest.param(OUT_R1, "Bob hand points 0", "0 points typed, but Bob holds 9 cards",
                 id="0-points-never-down"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand points 0",
                 "0 points typed, but Bob holds 1 to 2 cards", id="0-points-down"),
    pytest.param(f"{BOB_DOWN}; {OUT_R1}", "Bob hand points 12", 12, id="12-points-down"),
    pytest.param(OUT_R1, "Bob hand points 270", 270, id="the-most-9-cards-score"),
    pytest.param(OUT_R1, "Bob hand 5H", "1 card typed, but Bob holds 9 cards",
                 id="one-card-typed-is-one-card"),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "hand", "expected"), HAND_COUNTS)
def test_a_hand_has_the_count_the_deal_and_calls_give(
    setup: str, hand: str, expected: int | str
) -> None:
    state = play(setup, game())
    if isinstance(expected, str):
        with pytest.raises(RuleViolation) as refused:
            play(hand, state)
        assert expected in str(refused.value)
        return
    assert play(hand, state).seats[1].hand == expected


REACHABLE = [
    pytest.param(1, 12, False, id="no-card-scores-12"),
    pytest.param(1, 15, True, id="a-black-ace"),
    pytest.param(1, 50, True, id="a-joker"),
    pytest.param(9, 13, False, id="nine-cards-never-under-14"),
    pytest.param(9, 271, False, id="nine-cards-never-over-270"),
    pytest.param(5, 250, False, id="four-jokers-and-a-fifth-card-cannot-make-250"),
    pytest.param(5, 215, True, id="four-jokers-and-a-black-ace"),
]


@pytest.mark.parametrize(("cards", "points", "possible"), REACHABLE)
def test_points_must_be_a_score_that_many_cards_can_make(
    cards: int, points: int, possible: bool
) -> None:
    assert (points in k.reachable(RULES, cards)) is possible


CALLS = [
    pytest.param("Bob call; Bob call; Bob call; Bob call refused by Ann", "has made 3 calls",
                 id="refused-at-the-limit"),
    pytest.param(f"Bob down {R1}; Bob call refused by Ann", "Bob has laid down: Bob may not call",
                 id="refused-after-laying-down"),
    pytest.param("Ann call by Ann", "Ann is the active player: nobody calls the discard",
                 id="own-discard-granted"),
    pytest.param("Ann call refused by Ann", "Ann is the active player", id="own-discard-refused"),
    pytest.param("Bob call by Ann", None, id="granted-by-another"),
    pytest.param("Bob call; Bob call; Bob call refused by Ann", None,
                 id="refused-below-the-limit"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "refused"), CALLS)
def test_a_call_is_checked_granted_or_refused(script: str, refused: str | None) -> None:
    if refused is None:
        play(script, game())
        return
    with pytest.raises(RuleViolation, match=refused):
        play(script, game())


NEW_MELDS = [
    pytest.param(f"Ann down {R1}; Ann down 9C 9C JK", "Ann has a three of 9s already (meld 3",
                 id="a-second-three-of-9s"),
    pytest.param(f"Ann down {R1}; Ann down 10C 10S JK / 10H 10D JK",
                 "meld 2 (10H 10D JK): Ann has a three of 10s already (meld 1 here)",
                 id="two-new-threes-of-one-rank"),
    pytest.param(f"Ann call; Ann call; Ann call; Ann down {R1}; Ann down 10C 10S JK;"
                 " Ann down 10H 10D 10D",
                 "a three of 10s already (meld 4 on the table)", id="after-an-earlier-new-meld"),
    pytest.param(f"{RUN_ROUND}; Cy down 7H 7S 7D / 8C 8S 8D / 5S 6S 7S 8S; Cy down 10S JS QS KS",
                 "Cy has a four in spades already (meld 3", id="a-second-four-in-spades"),
    pytest.param(f"Ann down {R1}; Bob call; {BOB_DOWN}; Bob down 9C 9C JK",
                 None, id="another-players-three-of-9s"),
    pytest.param(f"Ann call; Ann down {R1}; Ann down 10C 10S JK", None, id="a-new-rank"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "refused"), NEW_MELDS)
def test_new_melds_after_a_lay_down_keep_distinct_ranks_and_suits(
    script: str, refused: str | None
) -> None:
    allowed = game(allow_new_melds_after_laydown=True)
    if refused is None:
        assert show(list(play(script, allowed).table[-1].cards)).endswith("JK")  # laid
        return
    with pytest.raises(RuleViolation) as error:
        play(script, allowed)
    assert refused in str(error.value)


SWAPS = [
    pytest.param("4S JK 6S JK", "Cy tack 5S on 3 swap",
                 "the freed joker does not fit this four: the high end holds a joker already"
                 " (for 7S) and two jokers may never stand side by side; the low end opens once"
                 " the high end reaches the ace", id="the-joker-already-at-the-high-end"),
    pytest.param("5S JK 7S 8S", "Cy tack 6S on 3",
                 "a joker stands for 6S in meld 3: put it in with --swap", id="swap-forgotten"),
    pytest.param("5S 6S 7S JK", "Cy tack JK on 3",
                 "a joker does not fit this four: the high end holds a joker already (for 8S)",
                 id="a-joker-beside-a-joker"),
    pytest.param("JK JS QS KS AS", "Cy tack 8S on 3",
                 "8S does not fit this four: the high end is at the ace; the low end takes 9S",
                 id="at-the-ace-the-low-end"),
    pytest.param("JK JS QS KS AS", "Cy tack 9S on 3", "9S JK JS QS KS AS",
                 id="at-the-ace-tacked-low"),
    pytest.param("4S JK 6S JK", "Cy tack 7S on 3 swap", "4S JK 6S 7S JK", id="a-swap-that-fits"),
]  # fmt: skip


@pytest.mark.parametrize(("four", "tack", "said"), SWAPS)
def test_a_joker_refusal_names_the_real_reason(four: str, tack: str, said: str) -> None:
    state = play(f"{RUN_ROUND}; Cy call; Cy down 7H 7S 7D / 8C 8S 8D / {four}", game())
    try:
        after = play(tack, state)
    except RuleViolation as error:
        assert str(error).startswith(said)
        assert "takes 8S" not in str(error)  # an open place is never given as the reason
        return
    assert show(list(after.table[2].cards)) == said


REFUSALS_NAMING = [
    pytest.param(f"Ann down {R1}; Ann down 10C 10S JK", "Ann has laid down: Ann may only add",
                 id="new-melds"),
    pytest.param(f"Ann down {R1}; Bob call refused by Ann", "Ann may not refuse", id="refuse"),
    pytest.param("Bob tack 9S on 1", "Bob has not laid down: Bob lays down", id="tack"),
    pytest.param(f"Ann down {R1}; Ann out; Ann hand 5H", "Ann went out: Ann's hand is empty",
                 id="hand-of-the-one-out"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "said"), REFUSALS_NAMING)
def test_refusals_name_the_player_never_he(script: str, said: str) -> None:
    with pytest.raises(RuleViolation) as error:
        play(script, game())
    assert said in str(error.value)
    assert not {"he", "his", "him"} & set(str(error.value).replace(":", " ").split())


# ------------------------------------------------------------------ fixing a closed round


def finished(players: str = "Ann Bob Cy") -> kg.State:
    """Nine rounds: Ann goes out in odd rounds, Cy in even ones; the others hold 50."""
    state = game(players=players)
    for number in range(1, 10):
        state = close_round(state, out="Ann" if number % 2 else "Cy", points=50)
    return state


FIXES = [
    pytest.param(kg.Fix(2, "Bob", None, 30), None, id="points"),
    pytest.param(kg.Fix(2, "Bob", parse_cards("2C 3C 4C 5C 6C 8C 9C 10C QD AD"), None), None,
                 id="cards"),
    pytest.param(kg.Fix(2, "Bob", parse_cards("2C 3C"), None),
                 "2 cards typed, but Bob holds 10 cards (10 dealt, never laid down)",
                 id="a-fix-with-the-wrong-count"),
    pytest.param(kg.Fix(2, "Bob", None, 2000), "they score 16 to", id="points-no-hand-makes"),
    pytest.param(kg.Fix(2, "Cy", None, 30), "Cy went out in round 2", id="the-one-out"),
    pytest.param(kg.Fix(2, "Bob", None, 50), "hand is 50 already: nothing to fix",
                 id="nothing-to-fix"),
    pytest.param(kg.Fix(10, "Bob", None, 30), "round 10 is not on the sheet", id="no-round-10"),
    pytest.param(kg.Fix(0, "Bob", None, 30), "round 0 is not on the sheet", id="no-round-0"),
]  # fmt: skip


@pytest.mark.parametrize(("fix", "refused"), FIXES)
def test_a_closed_rounds_hand_is_fixed_as_strictly_as_entered(
    fix: kg.Fix, refused: str | None
) -> None:
    state = finished()
    if refused is not None:
        with pytest.raises(RuleViolation) as error:
            kg.apply(state, fix)
        assert refused in str(error.value)
        return
    after = kg.apply(state, fix)
    bob = after.seats[1]
    new = 30 if fix.points is not None else 58
    assert bob.scores[1] == new and bob.total == state.seats[1].total - 50 + new
    assert after.played[1].corrected == (False, True, False)
    assert kg.GAME.event_from_dict(kg.GAME.event_to_dict(fix)) == fix  # stored as it was typed
    said = words(after.ruling)
    assert said.startswith("round 2 corrected: Bob held ") and ", not 50; Bob's total " in said
    assert said.endswith("Ann wins with 200")  # the game was over: the winner is said again


def test_a_fix_changes_the_winner_as_the_table_would() -> None:
    state = finished()  # Ann 4 x 50 = 200, Bob 450, Cy 5 x 50 = 250
    assert state.winners == ("Ann",)
    state = kg.apply(state, kg.Fix(4, "Ann", None, 100))  # Ann held 100, not 50
    assert {s.name: s.total for s in state.seats} == {"Ann": 250, "Bob": 450, "Cy": 250}
    assert state.winners == ("Ann", "Cy") and "Ann and Cy tie with 250" in words(state.ruling)
    state = kg.apply(state, kg.Fix(4, "Ann", None, 101))
    assert state.winners == ("Cy",) and words(state.ruling).endswith("Cy wins with 250")


def test_a_fix_of_a_round_not_closed_is_refused() -> None:
    with pytest.raises(RuleViolation, match="round 1 is still being played: take a hand"):
        kg.apply(game(), kg.Fix(1, "Bob", None, 30))
    with pytest.raises(RuleViolation, match="no round is on the sheet yet"):
        kg.apply(game(), kg.Fix(2, "Bob", None, 30))
    with pytest.raises(RuleViolation, match=r"round 3 is not on the sheet: rounds 1 to 1 are$"):
        kg.apply(close_round(game()), kg.Fix(3, "Bob", None, 30))


def test_fix_through_the_command_line_is_an_event_and_refusals_write_nothing(
    referee: Runner, home: Path
) -> None:
    assert referee("new", "kalooki", "Ann", "Bob", "Cy", "--name", "fix").code == 0
    for line in (f"down Ann {R1}", "out Ann", "hand Bob --points 40", "hand Cy --points 50"):
        assert referee("kal", *line.split()).code == 0
    before = snapshot(session_file(home, "fix"))
    for args, code, said in [
        (("fix", "1", "Bob", "2C"), 1, "1 card typed, but Bob holds 9 cards (9 dealt"),
        (("fix", "2", "Bob", "--points", "30"), 1, "round 2 is still being played"),
        (("fix", "1", "Bob"), 2, "give the cards that player held, or --points N"),
        (("fix", "1", "Zed", "--points", "30"), 2, "unknown player 'Zed'"),
    ]:
        result = referee("kal", *args)
        assert result.code == code and said in result.err and result.err.count("\n") == 1, result
        assert snapshot(session_file(home, "fix")) == before
    fixed = referee("kal", "fix", "1", "bob", "AS", "JK", "2C", "3C", "4C", "5C", "6C", "8C", "9C")
    assert fixed.code == 0 and " ".join(fixed.out.split()).startswith(
        "round 1 corrected: Bob held AS 15 + JK 50 + 2C 2 + 3C 3 + 4C 4 + 5C 5 + 6C 6 +"
    )
    events = storage.load(session_file(home, "fix")).session.events
    assert [e["type"] for e in events] == ["down", "out", "hand", "hand", "fix"]  # appended
    assert "~102" in referee("show").out
    assert referee("log", "--script").out.splitlines()[-1] == (
        "fix 1 Bob AS JK 2C 3C 4C 5C 6C 8C 9C"
    )


# ------------------------------------------------------------------ what a player can hold

JK_DOWN = "Cy down JK 7S 7D / JK 8S 8D / 9H 9S JK; Cy out"  # three jokers on the table
TYPED = "Bob hand 2C 3C 4C 5C 6C 8C 9C 10C QD; Dee hand 2D 3D 4D 5D 6D 8D 9D 10D JK"
FIXES_BY_THE_TABLE = [
    pytest.param(kg.Fix(1, "Ann", parse_cards("JK JK JK JK 2C 3C 4C 5C 6C"), None), UsageError,
                 "8 x JK this round with the table and the other hands: the pack holds only 4",
                 id="seven-jokers-in-one-round"),
    pytest.param(kg.Fix(1, "Ann", parse_cards("JK 2C 2H 3C 4C 5C 6C 8C 9C"), None), UsageError,
                 "5 x JK", id="a-fifth-joker-beside-the-table-and-dee"),
    pytest.param(kg.Fix(1, "Ann", parse_cards("2C 2C 3H 4H 5H 6H 7H 8H 9H"), None), UsageError,
                 "3 x 2C this round", id="a-card-bob-holds-twice-already"),
    pytest.param(kg.Fix(1, "Ann", None, 270), RuleViolation,
                 "270 points typed, but Ann holds 9 cards (9 dealt, never laid down): they score"
                 " 14 to 110, from what the table and the hands typed leave of the pack",
                 id="points-needing-jokers-on-the-table"),
    pytest.param(kg.Fix(1, "Ann", None, 110), None, None, id="points-the-rest-can-make"),
    pytest.param(kg.Fix(1, "Dee", parse_cards("2D 3D 4D 5D 6D 8D 9D 10D 2C"), None), None, None,
                 id="a-fix-frees-its-own-old-cards"),
    pytest.param(kg.Fix(1, "Ann", parse_cards("2H 3H 4H 5H 6H 8H 9H 10H QH"), None), None, None,
                 id="a-fix-the-pack-allows"),
]  # fmt: skip


@pytest.mark.parametrize(("fix", "error", "said"), FIXES_BY_THE_TABLE)
def test_a_fix_is_checked_against_its_rounds_table_and_hands(
    fix: kg.Fix, error: type[Exception] | None, said: str | None
) -> None:
    state = play(f"Cy call; {JK_DOWN}; Ann hand points 60; {TYPED}", game())
    assert state.round == 2 and len(state.played) == 1
    state = close_round(state)  # a later round's table never counts against round 1
    if error is None:
        after = kg.apply(state, fix)
        assert after.seats[after.index(fix.player)].scores[0] == (
            fix.points if fix.cards is None else sum(k.penalty(c) for c in fix.cards)
        )
        return
    with pytest.raises(error) as refused:
        kg.apply(state, fix)
    assert said is not None and said in str(refused.value)


def test_a_fix_keeps_the_next_fixes_honest() -> None:
    """A fixed hand's cards count against the round's other hands from then on."""
    state = play(f"Cy call; {JK_DOWN}; Ann hand points 60; {TYPED}", game())
    state = kg.apply(state, kg.Fix(1, "Ann", parse_cards("2C 2H 3H 4H 5H 6H 7H 8H 9H"), None))
    with pytest.raises(UsageError, match="3 x 2C"):
        kg.apply(state, kg.Fix(1, "Bob", parse_cards("2C 2C 4C 5C 6C 8C 9C 10C QD"), None))


LAY_DOWNS = [
    pytest.param("", "Dee down 2H 2S 2D 2C 2H / 3C 3S 3D 3H 3C / 4H 4S 4D 4C 4H",
                 "a lay-down of 15 cards, but Dee holds at most 10 cards on a turn (9 dealt"
                 " + 1 drawn)", id="fifteen-of-nine-dealt"),
    pytest.param("", "Dee down 2H 2S 2D 2C / 3C 3S 3D / 4H 4S 4D", None, id="ten-after-a-draw"),
    pytest.param("", "Dee down 2H 2S 2D 2C / 3C 3S 3D 3H / 4H 4S 4D",
                 "a lay-down of 11 cards, but Dee holds at most 10", id="eleven-of-nine"),
    pytest.param("Dee call; Dee call;", "Dee down 2H 2S 2D 2C 2H / 3C 3S 3D 3H 3C / 4H 4S 4D 4C",
                 None, id="two-calls-make-room-for-fourteen"),
    pytest.param("Dee call; stockout; stockout;",
                 "Dee down 2H 2S 2D 2C / 3C 3S 3D 3H / 4H 4S 4D",
                 "a lay-down of 11 cards, but Dee holds at most 10 cards on a turn (9 dealt",
                 id="a-void-deals-call-gives-no-room"),
    pytest.param("Dee down 2H 2S 2D / 3C 3S 3D / 4H 4S 4D;", "Dee tack 2C on 1", None,
                 id="the-tenth-card-tacked"),
    pytest.param("Dee down 2H 2S 2D / 3C 3S 3D / 4H 4S 4D; Dee tack 2C on 1;", "Dee tack 3H on 2",
                 "Dee tacks 3H, but Dee holds at most 0 cards on a turn (9 dealt + 1 drawn,"
                 " 10 laid already)", id="an-eleventh-card-tacked"),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "action", "refused"), LAY_DOWNS)
def test_nobody_lays_more_cards_than_he_holds(setup: str, action: str, refused: str | None) -> None:
    state = play(setup, game())
    if refused is None:
        assert play(action, state).seats[3].down
        return
    with pytest.raises(RuleViolation) as error:
        play(action, state)
    assert refused in str(error.value)


TWO_JOKERS_DOWN = "Ann down JK 7S 7D / JK 8S 8D / 9S 9H 9D; Ann out"
POINTS_BY_THE_TABLE = [
    pytest.param("", "Bob hand points 270", 270, id="all-four-jokers-free"),
    pytest.param(TWO_JOKERS_DOWN, "Bob hand points 270",
                 "they score 14 to 190, from what the table and the hands typed leave",
                 id="two-jokers-on-the-table"),
    pytest.param(TWO_JOKERS_DOWN, "Bob hand points 190", 190, id="the-two-jokers-left"),
    pytest.param(f"{TWO_JOKERS_DOWN}; Cy hand JK JK 2C 3C 4C 5C 6C 8C 9C", "Bob hand points 190",
                 "they score 14 to 110", id="and-two-in-cys-hand"),
    pytest.param(f"{TWO_JOKERS_DOWN}; Cy hand points 190", "Bob hand points 190", 190,
                 id="points-typed-take-no-card"),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "hand", "expected"), POINTS_BY_THE_TABLE)
def test_points_are_reachable_from_what_the_table_and_hands_leave(
    setup: str, hand: str, expected: int | str
) -> None:
    state = play(setup or OUT_R1, game())
    if isinstance(expected, int):
        assert play(hand, state).seats[1].hand == expected
        return
    with pytest.raises(RuleViolation) as refused:
        play(hand, state)
    assert expected in str(refused.value)


def test_a_void_deals_calls_stay_on_that_deal(referee: Runner) -> None:
    """The sheet and `show --json` agree: a void deal's call is ticked on its own row."""
    for line in ("new kalooki Ann Bob Cy Dee", "kal call Bob", "kal stockout", "kal stockout"):
        assert referee(*line.split()).code == 0
    doc = json.loads(referee("show", "--json").out)
    assert doc["void_deals"] == [{"round": 1, "dealer": "Ann", "calls": [0, 1, 0, 0]}]
    assert [p["calls_used"] for p in doc["players"]] == [0, 1, 0, 0]  # the limit counts it
    lines = referee("show").out.splitlines()
    assert lines[2:4] == [
        " 1  333   9 Ann     -    '-     -     -",
        " 1> 333   9 Ann     .     .     .     .",
    ]


def test_a_hand_in_already_of_1_point_says_1_point() -> None:
    state = play(f"{BOB_DOWN}; {OUT_R1}; Bob hand AH", game())
    with pytest.raises(RuleViolation, match=r"Bob's hand is in already \(1 point\)$"):
        play("Bob hand 2H", state)


def test_fix_is_open_once_a_round_is_closed_in_every_phase() -> None:
    # the shell's help lists legal_actions as "open now" and the rest as "not now": a closed
    # round's fix is taken while playing, scoring and after the last round
    state = game()
    assert "fix" not in kg.legal_actions(state)
    state = close_round(state)
    assert kg.legal_actions(state) == (
        "call", "down", "tack", "stockout", "out", "fix", "join", "leave", "replace"
    )  # fmt: skip
    state = play(f"Ann down {contract_of(state)}; Ann out", state)
    assert kg.legal_actions(state) == ("hand", "fix", "leave", "replace")
    state = play("Bob hand points 50; Cy hand points 50; Dee hand points 50", state)
    while not state.is_over:
        state = close_round(state)
    assert kg.legal_actions(state) == ("fix",)
    kg.apply(state, kg.Fix(1, "Bob", None, 60))


def test_a_call_by_nobody_is_refused_and_writes_nothing(referee: Runner, home: Path) -> None:
    # `--by ""` was read as no --by: a refusal by nobody was recorded
    assert referee("new", "kalooki", "Ann", "Bob", "Cy", "--name", "by").code == 0
    before = snapshot(session_file(home, "by"))
    for args in (("call", "Ann", "--refused", "--by", ""), ("call", "Ann", "--by", "")):
        result = referee("kal", *args)
        assert (result.code, result.err) == (2, "error: unknown player '': try Ann, Bob, Cy\n")
        assert snapshot(session_file(home, "by")) == before


# ------------------------------------------------------------------ where a joker stands
# (RULES.md 5: as typed when the cards as typed form a run; the swap follows that reading)

R2 = "5H 5S 5D / 9C 9S JK"  # round 2's threes (334); Ann's call leaves her cards to tack
JOKER_FOURS = [
    pytest.param("JK 6D 7D 8D", "Ann tack 5D on 3 swap", "5D 6D 7D 8D JK",
                 id="swap-at-the-low-end"),
    pytest.param("JK 6D 7D 8D", "Ann tack 9D on 3", "JK 6D 7D 8D 9D", id="high-end-is-no-swap"),
    pytest.param("JK 6D 7D 8D", "Ann tack 9D on 3 swap", "no joker in meld 3 stands for 9D",
                 id="no-joker-at-9D"),
    pytest.param("8D 7D 6D JK", "Ann tack 5D on 3 swap", "5D 6D 7D 8D JK", id="descending"),
    pytest.param("6D 7D 8D JK", "Ann tack 9D on 3", "a joker stands for 9D in meld 3: put it in",
                 id="typed-high-asks-for-swap"),
    pytest.param("6D 7D 8D JK", "Ann tack 9D on 3 swap", "6D 7D 8D 9D JK", id="typed-high-swap"),
    pytest.param("JK 6D 7D JK", "Ann tack 5D on 3 swap",
                 "the freed joker does not fit this four: the high end holds a joker already"
                 " (for 8D)", id="both-ends-the-freed-joker-cannot-touch"),
    pytest.param("JK 6D 7D JK", "Ann tack 8D on 3 swap", "JK 6D 7D 8D JK",
                 id="both-ends-high-swap"),
    pytest.param("6D JK 8D 9D", "Ann tack 7D on 3 swap", "6D 7D 8D 9D JK", id="middle-joker"),
    pytest.param("JK 2D 3D 4D", "Ann tack AD on 3 swap", "AD 2D 3D 4D JK", id="joker-as-the-ace"),
    pytest.param("QD KD AD JK", "Ann tack JD on 3 swap", "JD QD KD AD",
                 id="no-room-above-the-ace"),  # the freed joker goes to the low end: 10D
    pytest.param("JK 6D 7D 8D", "Ann tack 9C on 2 swap", "a joker in a three never moves",
                 id="a-three-never-moves"),
]  # fmt: skip


@pytest.mark.parametrize(("four", "tack", "said"), JOKER_FOURS)
def test_the_swap_follows_where_the_joker_was_typed(four: str, tack: str, said: str) -> None:
    state = play(f"{RUN_ROUND}; Ann call; Ann down {R2} / {four}", game())
    try:
        after = play(tack, state)
    except RuleViolation as error:
        assert str(error).startswith(said)
        return
    assert said in show(list(after.table[-1].cards))


def test_tacked_on_the_high_end_then_swapped() -> None:
    state = play(f"{RUN_ROUND}; Ann call; Ann down {R2} / 5D 6D 7D 8D; Ann tack JK on 3", game())
    assert [str(c) for c in state.table[2].stands_for][-1] == "9D"
    after = play("Ann tack 9D on 3 swap", state)
    assert show(list(after.table[2].cards)) == "5D 6D 7D 8D 9D JK"
    assert str(after.table[2].stands_for[-1]) == "10D"
    state = play(f"{RUN_ROUND}; Ann call; Ann down {R2} / JK 6D 7D 8D; Ann tack 9D on 3", game())
    after = play("Ann tack 5D on 3 swap", state)  # the joker typed low stays low until swapped
    assert show(list(after.table[2].cards)) == "5D 6D 7D 8D 9D JK"


RULINGS = [
    pytest.param("JK 6D 7D 8D", "3) JK 6D 7D 8D (JK as 5D)", id="typed-low"),
    pytest.param("6D 7D 8D JK", "3) 6D 7D 8D JK (JK as 9D)", id="typed-high"),
    pytest.param("JK 6D 7D JK", "3) JK 6D 7D JK (JK as 5D, JK as 8D)", id="two-jokers"),
    pytest.param("5D 6D 7D 8D", "3) 5D 6D 7D 8D", id="no-joker"),
]  # fmt: skip


@pytest.mark.parametrize(("four", "said"), RULINGS)
def test_the_lay_down_ruling_says_where_each_joker_stands(four: str, said: str) -> None:
    ruling = words(play(f"{RUN_ROUND}; Ann call; Ann down {R2} / {four}", game()).ruling)
    assert ruling.startswith(f"Ann lays down 1) 5S 5H 5D 2) 9S 9C JK {said}")  # a three: no place
    assert ruling.count("JK as") == four.count("JK")


# ------------------------------------------------------------------ going out on the lay-down turn
# (`out_on_laydown`): the referee keeps no turns, so the turn of a lay-down lasts until another
# player's call, lay-down or tack, or a stock-out; turns with nothing entered: out --later

BOB_DOWN_R1 = f"Bob call; Bob down {R1}"  # Bob keeps two cards after it
OUT_ON_LAYDOWN = [
    pytest.param(True, f"{BOB_DOWN_R1}; Bob out", None, id="default-out-at-once"),
    pytest.param(True, f"Ann down {R1}; Ann out", None, id="default-laid-every-card"),
    pytest.param(False, f"{BOB_DOWN_R1}; Bob out",
                 "Bob cannot go out: Bob laid down this turn, and going out waits for Bob's next"
                 " turn (out_on_laydown = false; if it came, out Bob --later)", id="same-turn"),
    pytest.param(False, f"{BOB_DOWN_R1}; Bob tack 9C on 3; Bob out", "Bob cannot go out",
                 id="own-tack-is-the-same-turn"),
    pytest.param(False, f"{BOB_DOWN_R1}; Ann call; Bob out", None, id="a-call-between"),
    pytest.param(False, f"{BOB_DOWN_R1}; Ann call refused by Cy; Bob out", None,
                 id="a-refused-call-between"),
    pytest.param(False, f"{BOB_DOWN_R1}; Cy call; Cy down {R1}; Bob out", None,
                 id="another-lay-down-between"),
    pytest.param(False, f"{BOB_DOWN_R1}; stockout; Bob out", None, id="a-stock-out-between"),
    pytest.param(False, f"{BOB_DOWN_R1}; Ann call; Bob tack 9C on 3; Bob out", None,
                 id="a-tack-on-a-later-turn"),
    pytest.param(False, f"{BOB_DOWN_R1}; Bob out later", None, id="the-scorekeeper-says-later"),
    pytest.param(False, f"Ann down {R1}",
                 "Ann cannot lay down 9 cards: Ann would have no card left after the discard,"
                 " and going out waits for Ann's next turn (out_on_laydown = false)",
                 id="a-lay-down-of-every-card"),
    pytest.param(False, f"Cy down {R1}; Cy out", "Cy cannot lay down 9 cards",
                 id="default-script-refused"),
    pytest.param(False, f"{BOB_DOWN_R1}; Ann call; Bob tack 9C on 3; Bob tack 7C on 1", None,
                 id="emptied-on-a-later-turn"),
    pytest.param(False, "Cy out", "Cy has not laid down this round", id="never-down"),
]  # fmt: skip


@pytest.mark.parametrize(("rule", "script", "refused"), OUT_ON_LAYDOWN)
def test_out_on_laydown(rule: bool, script: str, refused: str | None) -> None:
    if refused is None:
        play(script, game(out_on_laydown=rule))
        return
    with pytest.raises(RuleViolation) as error:
        play(script, game(out_on_laydown=rule))
    assert str(error.value).startswith(refused)


def test_a_fix_is_no_turn_and_a_new_round_starts_clean() -> None:
    state = play(f"{BOB_DOWN_R1}; Ann call; Bob out; Ann hand points 40; Cy hand points 50;"
                 " Dee hand points 60", game(out_on_laydown=False))  # fmt: skip
    assert state.round == 2 and state.laying is None
    state = play("Ann call; Ann down 7S 7H 7D / 8S 8H 8D / 5D 6D 7D 8D", state)
    state = kg.apply(state, kg.Fix(1, "Cy", None, 45))  # a correction passes no turn
    with pytest.raises(RuleViolation, match="Ann cannot go out"):
        play("Ann out", state)


def test_the_key_is_read_with_every_other_problem() -> None:
    assert k.Rules() == RULES and RULES.out_on_laydown is True  # the bundled ruleset: as today
    assert not k.Rules.from_table({"out_on_laydown": False}).out_on_laydown
    with pytest.raises(RulesetError) as error:
        k.Rules.from_table({"out_on_laydown": "no", "tack_order": "low"}, "house")
    said = str(error.value)
    assert "out_on_laydown must be true or false, not 'no'" in said and "tack_order" in said


def test_house_words_are_short_for_every_value() -> None:
    from referee.games.kalooki.words import HOUSE_WORDS

    stakes = {"stake", "loss_value", "payout", "payout_split", "point_value", "loser_buys"}
    assert set(HOUSE_WORDS) <= {f.name for f in dataclasses.fields(k.Rules)} | stakes
    for key in ("out_on_laydown",):  # every rule's words: tests/test_house.py
        word, default = HOUSE_WORDS[key], getattr(k.Rules(), key)
        for value in (True, False):
            assert 0 < len(word(value)) <= 24, key
        assert word(default) != word(not default)


def test_out_later_through_the_command_line(referee: Runner, home: Path, tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    bundled = (Path(__file__).parent.parent / "rulesets" / "kalooki.toml").read_text()
    house.write_text(bundled.replace("out_on_laydown = true", "out_on_laydown = false"))
    assert referee(*START, "--ruleset", str(house)).code == 0
    assert referee("kal", "call", "Bob").code == 0
    assert referee("kal", "down", "Bob", R1).code == 0
    before = snapshot(session_file(home))
    result = referee("kal", "out", "Bob")
    assert result.code == 1 and "out Bob --later" in result.err
    assert snapshot(session_file(home)) == before
    assert referee("kal", "out", "Bob", "--later").code == 0
    stored = storage.load(session_file(home)).session.events[-1]
    assert (stored["type"], stored["later"]) == ("out", 1)  # stored only when given
