"""Liar's dice's actions: what `referee liars ...` makes of its words (see `cli.moves`)."""

from __future__ import annotations

from referee.cli.acting import actor
from referee.cli.moves import BY, MakeEvent, Move, Moves, Option, Word
from referee.errors import UsageError, quote
from referee.games.liars import engine as liars
from referee.games.liars.bids import Bid, Hands, parse_count


def bid(bid: list[str], by: str | None) -> MakeEvent:
    parsed = Bid.parse(" ".join(bid))
    return lambda s, state: liars.BidEvent(actor(s, state, by), parsed)


def _call(count: str | None, dice: str | None, by: str | None, exact: bool) -> MakeEvent:
    hands = Hands.parse(dice) if dice is not None else None
    # Neither or both of a count and the dice: the engine says so, after whether it may call.
    if count is not None and count.startswith("-") and not count[1:].isdecimal():
        raise UsageError(f"unknown option {quote(count)}: the options are --dice, --by, -s")
    number = parse_count(count) if count is not None else None
    return lambda s, state: liars.Call(actor(s, state, by), number, hands, exact)


def call(count: str | None, dice: str | None, by: str | None) -> MakeEvent:
    return _call(count, dice, by, exact=False)


def exact(count: str | None, dice: str | None, by: str | None) -> MakeEvent:
    return _call(count, dice, by, exact=True)


COUNTED = ((Word("count", "text"),), (Option("--dice", "dice", "text"), BY))
MOVES: Moves = {
    "bid": Move(bid, (Word("bid", "words", required=True),)),
    "call": Move(call, *COUNTED),
    "exact": Move(exact, *COUNTED),
}
