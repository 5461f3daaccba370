"""Kiriki in words: each ruling's facts as a sentence, in Spanish poker dice. No Rich."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from referee.games import kiriki as kr
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_FACES
from referee.text import printable


def words(facts: Sequence[kr.Fact]) -> str:
    """A ruling in words: `Bob lifts 5-5 (Pair of Kings) on Pair of Jacks: it holds`."""
    return "; ".join(_sentence(f) for f in facts)


def _sentence(fact: kr.Fact) -> str:
    n = printable
    match fact:
        case kr.Started(format=format_name, target=target, first=first):
            opener = f"; {n(first)} rolls first" if first else "; roll off: rolloff 5 3"
            return f"{format_name.title()} match, first to {target}{opener}"
        case kr.RolledOff(dice=(a, b), starter=starter):
            return f"roll-off {a}-{b}: {n(starter)} rolls first"
        case kr.Claimed(by=by, rank=rank, shown=shown, raised=raised):
            verb = "keeps the dice and raises to" if raised else "claims"
            show = f", showing a {KIRIKI_FACES[shown - 1]}" if shown and not raised else ""
            return f"{n(by)} {verb} {LADDER.name(rank)}{show}"
        case kr.Lifted(by=by, dice=dice, claim=claim, met=met):
            verdict = "it holds" if met else "a lie"
            seen = f"{dice} ({LADDER.name(dice.rank)})"
            return f"{n(by)} lifts {seen} on {LADDER.name(claim)}: {verdict}"
        case kr.Believed(by=by, claim=claim):
            return f"{n(by)} believes {LADDER.name(claim)}"
        case kr.Revealed(by=by, dice=dice, claim=claim):
            seen = f"{dice} ({LADDER.name(dice.rank)})"
            return f"{n(by)} shows {seen}: {LADDER.name(claim)} was a bluff, and it worked"
        case kr.Rerolled(by=by):
            return f"{n(by)} rerolls"
        case kr.TookMug(by=by, need=need):
            return f"{n(by)} takes the mug to roll: {LADDER.name(need)} or higher"
        case kr.KirikiShown(by=by):
            return f"{n(by)} shows KIRIKI"
        case kr.Point(player=player, score=(a, b)):
            return f"point to {n(player)} ({a}-{b})"
        case kr.Resigned(player=player):
            return f"{n(player)} resigns"
        case kr.MatchWon(player=player, score=(a, b)):
            return f"{n(player)} wins the match {a}-{b}"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)
