"""Mia in words: each ruling's facts as a sentence. No Rich, so `log --json` stays light."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from referee.games.mia import engine as mia
from referee.text import printable


def words(facts: Sequence[mia.Fact]) -> str:
    """A ruling in words: `Bob lifts Ann's 54: 43 shown, a lie; Ann loses a life (5 left)`."""
    said = "; ".join(_sentence(f) for f in facts)
    match facts:  # believing and announcing at once reads as one sentence
        case [mia.Believed(by=by), mia.Announced(value=value)]:
            return said.replace(f"; {printable(by)} announces {value}", f" and announces {value}")
    return said


def lives(n: int) -> str:
    """`a life`, `2 lives`."""
    return "a life" if n == 1 else f"{n} lives"


def _sentence(fact: mia.Fact) -> str:
    n = printable
    match fact:
        case mia.Started(first=first, direction=direction, lives=count):
            return f"{count} lives each; {n(first)} rolls first; play goes {direction.value}"
        case mia.Announced(by=by, value=value):
            return f"{n(by)} announces {value}"
        case mia.Believed(by=by, announcer=announcer, value=value):
            return f"{n(by)} believes {n(announcer)}'s {value}"
        case mia.Lifted(by=by, announcer=announcer, value=value, dice=dice, true=true):
            verdict = "true" if true else "a lie"
            return f"{n(by)} lifts {n(announcer)}'s {value}: {dice} shown, {verdict}"
        case mia.GaveUp(by=by, announcer=announcer):
            return f"{n(by)} gives up against {n(announcer)}'s Mia"
        case mia.LostLives(player=player, lost=lost, left=left):
            return f"{n(player)} loses {lives(lost)} ({left} left)"
        case mia.WentOut(player=player):
            return f"{n(player)} is out"
        case mia.RoundStarts(number=number, starter=starter):
            return f"round {number}: {n(starter)} rolls"
        case mia.Won(player=player):
            return f"{n(player)} wins"
        case _:
            assert_never(fact)
