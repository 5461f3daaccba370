"""Mia's actions: what `referee mia ...` makes of its words (see `cli.moves`)."""

from __future__ import annotations

from referee.cli.acting import actor
from referee.cli.moves import MakeEvent, Move, Moves, Word
from referee.games.mia import engine as mia
from referee.games.mia.values import MiaValue


def announce(value: list[str], by: str | None) -> MakeEvent:
    said = MiaValue.parse(" ".join(value))
    return lambda s, state: mia.Announce(actor(s, state, by), said)


def believe(by: str | None) -> MakeEvent:
    return lambda s, state: mia.Believe(actor(s, state, by))


def lift(dice: list[str], by: str | None) -> MakeEvent:
    shown = MiaValue.parse(" ".join(dice))
    return lambda s, state: mia.Lift(actor(s, state, by), shown)


def giveup(by: str | None) -> MakeEvent:
    return lambda s, state: mia.GiveUp(actor(s, state, by))


MOVES: Moves = {
    "announce": Move(announce, (Word("value", "words", required=True),)),
    "believe": Move(believe),
    "lift": Move(lift, (Word("dice", "words", required=True),)),
    "giveup": Move(giveup),
}
