"""Kiriki in words: each ruling's facts as a sentence, in Spanish poker dice. No Rich."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from referee.games.kiriki import engine as kr
from referee.games.money import house_words
from referee.games.money import show as money
from referee.games.roster import Left, Replaced
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.notation.dice import Rank
from referee.text import printable

# A house rule in a few words, for the line under the card (`referee.house`).
HOUSE_WORDS: dict[str, Callable[[object], str]] = {
    "default_format": lambda v: f"{v} by default",
    "win_by": lambda v: f"win by {v}",
    "rating_k": lambda v: f"KR factor {v}",
    "rating_start": lambda v: f"KR from {v}",
    "rematch_first": lambda v: f"rematch: the {v} opens",
    "formats": lambda v: "own match formats",
    **house_words("a round lost"),
}


def words(facts: Sequence[kr.Fact]) -> str:
    """A ruling in words: `Bob lifts Pair of Kings on Pair of Jacks: it holds`."""
    said = []
    for fact, after in zip(facts, [*facts[1:], None], strict=True):
        match fact, after:
            case kr.Lifted(by=by, dice=roll, claim=claim), kr.BluffHeld(by=bluffer, believed=held):
                said.append(
                    f"{printable(by)} lifts {WORDS.said(roll)} on {LADDER.name(claim)}: below"
                    f" the {LADDER.name(held)} {printable(by)} believed, so {printable(bluffer)}'s"
                    " bluff had already won"
                )
            case kr.BluffHeld(), _:
                pass  # said with the lift
            case _:
                said.append(_sentence(fact))
    return "; ".join(said)


def _sentence(fact: kr.Fact) -> str:
    n = printable
    match fact:
        case kr.Started(format=format_name, target=target, first=first):
            opener = f"; {n(first)} rolls first" if first else "; roll off: rolloff 5 3"
            return f"{format_name.title()} match, first to {target}{opener}"
        case kr.RolledOff(dice=(a, b), starter=None):
            return f"roll-off {a}-{b}: tie, roll again"
        case kr.RolledOff(dice=(a, b), starter=starter):
            return f"roll-off {a}-{b}: {n(starter or '')} rolls first"
        case kr.Claimed(by=by, rank=rank, shown=shown, raised=raised):
            verb = "keeps the dice and raises to" if raised else "claims"
            show = f", showing {kr.article(WORDS.face(shown))}" if shown and not raised else ""
            return f"{n(by)} {verb} {LADDER.name(rank)}{show}"
        case kr.Lifted(by=by, dice=roll, claim=claim, met=met):
            verdict = "it holds" if met else "a lie"
            return f"{n(by)} lifts {WORDS.said(roll)} on {LADDER.name(claim)}: {verdict}"
        case kr.Believed(by=by, claim=claim, claimer=claimer) if claim is Rank.DOUBLE_SIXES:
            return (
                f"{n(by)} believes {LADDER.name(claim)}: {n(claimer)} must reroll (or show a bluff)"
            )
        case kr.Believed(by=by, claim=claim):
            return f"{n(by)} believes {LADDER.name(claim)}"
        case kr.BluffHeld(by=by, believed=believed):
            return f"but {LADDER.name(believed)} was believed: {n(by)}'s bluff had already won"
        case kr.Revealed(by=by, dice=roll, claim=claim):
            return (
                f"{n(by)} shows {WORDS.said(roll)}: {LADDER.name(claim)} was a bluff, and it worked"
            )
        case kr.Rerolled(by=by):
            return f"{n(by)} rerolls"
        case kr.TookMug(by=by, need=need):
            return f"{n(by)} takes the mug to roll: {LADDER.name(need)} or higher"
        case kr.KirikiShown(by=by):
            return f"{n(by)} shows a Kiriki (Black-Red)"
        case kr.Point(player=player, score=(a, b)):
            return f"point to {n(player)} ({a}-{b})"
        case kr.Resigned(player=player):
            return f"{n(player)} resigns"
        case kr.MatchWon(player=player, score=(a, b)):
            return f"{n(player)} wins the match {a}-{b}"
        case Left(player=player):
            return f"{n(player)} leaves: {n(player)} resigns"
        case Replaced(old=old, new=new, paid=paid):
            pays = f", paying {n(old)} {money(paid)}" if paid else ""
            return f"{n(new)} takes {n(old)}'s side of the match{pays}"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)
