"""Kalooki's actions: what `referee kalooki ...` makes of its words (see `cli.moves`)."""

from __future__ import annotations

from referee.cli.moves import MakeEvent, Move, Moves, Option, Word
from referee.errors import UsageError
from referee.games.kalooki import engine as kg
from referee.games.kalooki import melds as k
from referee.games.kalooki.cards import parse_cards
from referee.session import resolve_player


def call(caller: str, refused: bool, by: str | None) -> MakeEvent:
    # `--by ""` names nobody: refused as an unknown player, not read as no --by at all
    return lambda s, state: kg.Call(
        resolve_player(s, caller), refused, resolve_player(s, by) if by is not None else None
    )


def down(player: str, melds: list[str]) -> MakeEvent:
    laid = tuple(tuple(m) for m in k.parse_lay_down(melds))
    return lambda s, state: kg.Down(resolve_player(s, player), laid)


def tack(player: str, card: str, on: int, swap: bool) -> MakeEvent:
    cards = parse_cards(card)
    if len(cards) != 1:
        raise UsageError(f"one card at a time, not {len(cards)}")
    return lambda s, state: kg.Tack(resolve_player(s, player), cards[0], on, swap)


def stockout() -> MakeEvent:
    return lambda s, state: kg.StockOut()


def out(player: str) -> MakeEvent:
    return lambda s, state: kg.Out(resolve_player(s, player))


def hand(player: str, cards: list[str] | None, points: int | None) -> MakeEvent:
    held = parse_cards(*cards) if cards else None
    if held is None and points is None:
        raise UsageError("give the cards left in hand, or --points N")
    return lambda s, state: kg.Hand(resolve_player(s, player), held, points)


def fix(round_number: int, player: str, cards: list[str] | None, points: int | None) -> MakeEvent:
    held = parse_cards(*cards) if cards else None
    if held is None and points is None:
        raise UsageError("give the cards that player held, or --points N")
    return lambda s, state: kg.Fix(round_number, resolve_player(s, player), held, points)


PLAYER = Word("player", "text", required=True)
POINTS = Option("--points", "points", "number")
MOVES: Moves = {
    "call": Move(
        call,
        (Word("caller", "text", required=True),),
        (Option("--refused", "refused", "flag"), Option("--by", "by", "text")),
    ),
    "down": Move(down, (PLAYER, Word("melds", "words", required=True)), ()),
    "tack": Move(
        tack,
        (PLAYER, Word("card", "text", required=True)),
        (Option("--on", "on", "number", required=True), Option("--swap", "swap", "flag")),
    ),
    "stockout": Move(stockout, (), ()),
    "out": Move(out, (PLAYER,), ()),
    "hand": Move(hand, (PLAYER, Word("cards", "words")), (POINTS,)),
    "fix": Move(
        fix,
        (Word("round_number", "number", required=True), PLAYER, Word("cards", "words")),
        (POINTS,),
    ),
}
