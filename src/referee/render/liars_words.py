"""Liar's dice in words: each ruling's facts as a sentence. No Rich, so `log --json` stays light."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from referee.games import liars as ld
from referee.text import printable


def words(facts: Sequence[ld.Fact]) -> str:
    """A ruling in words: `Cy calls five threes by Bob: 4 counted, false; Bob loses a die`."""
    return "; ".join(_sentence(f) for f in facts)


def _sentence(fact: ld.Fact) -> str:
    n = printable
    match fact:
        case ld.Started(first=first, direction=direction, dice=dice):
            return f"{dice} dice each; {n(first)} opens; play goes {direction.value}"
        case ld.Bade(by=by, bid=bid):
            return f"{n(by)} bids {bid.words()} ({bid})"
        case ld.Counted(by=by, bid=bid, bidder=bidder, counted=count, exact=exact, held=held):
            wild = " with wild ones" if fact.wild else ""
            if exact:
                verdict = "exact" if held else "not exact"
                return f"{n(by)} calls {bid.words()} exact: {count} counted{wild}, {verdict}"
            verdict = "the bid holds" if held else "the bid was false"
            return f"{n(by)} calls {n(bidder)}'s {bid.words()}: {count} counted{wild}, {verdict}"
        case ld.LostDie(player=player, left=left):
            return f"{n(player)} loses a die ({left} left)"
        case ld.RegainedDie(player=player, left=left):
            return f"{n(player)} regains a die ({left})"
        case ld.WentOut(player=player):
            return f"{n(player)} is out"
        case ld.RoundStarts(number=number, starter=starter, palifico=palifico):
            special = " (palifico: no wild ones, the face stays)" if palifico else ""
            return f"round {number}: {n(starter)} opens{special}"
        case ld.Won(player=player):
            return f"{n(player)} wins"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)
