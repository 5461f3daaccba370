"""Kariki in words: each ruling's facts as a sentence. No Rich, so `log --json` stays light."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from referee.games import kariki as k
from referee.notation.dice import KARIKI as LADDER
from referee.text import printable


def words(facts: Sequence[k.Fact]) -> str:
    """A ruling in words: `Ann pulls 3-4 (Seven) on Nine: a lie, a berry for Bob`."""
    return "; ".join(_sentence(f) for f in facts)


def _sentence(fact: k.Fact) -> str:
    n = printable
    match fact:
        case k.Started(first=first, direction=direction):
            return f"{n(first)} rolls first; play goes {direction.value}"
        case k.Claimed(by=by, rank=rank, took_mug=took_mug):
            verb = "takes the mug and claims" if took_mug else "claims"
            return f"{n(by)} {verb} {LADDER.name(rank)}"
        case k.ClaimRefused(by=by, rank=rank, standing=standing, strict=strict):
            reason = k.illegal_reason(rank, standing, strict)
            return f"{reason}; {n(by)} gets a berry"
        case k.TookMug(by=by):
            return f"{n(by)} takes the mug"
        case k.ShowedKariki(by=by, victim=victim, took_mug=took_mug):
            verb = "takes the mug and shows" if took_mug else "shows"
            berry = f"; {n(victim)} gets a berry" if victim else ""
            return f"{n(by)} {verb} KARIKI: a crown{berry}"
        case k.Crowned(crowns=crowns, hit=hit):
            return f"crown {crowns}: a berry for {', '.join(map(n, hit)) or 'nobody'}"
        case k.Pulled(by=by, dice=dice, claim=claim, true=true, berry_to=loser):
            verdict = "true" if true else "a lie"
            shown = f"{dice} ({LADDER.name(dice.rank)})"
            return (
                f"{n(by)} pulls {shown} on {LADDER.name(claim)}: {verdict}, a berry for {n(loser)}"
            )
        case k.Passed(by=by, claim=claim):
            return f"{n(by)} passes and answers for {LADDER.name(claim)}"
        case k.FinalPass(by=by, to=to):
            return f"{n(by)} makes the final pass back to {n(to)}"
        case k.Slashed(player=player, slashes=count, rule=rule, berries=berries):
            why = f" ({rule})" if rule else ""
            hung = f": {berries} berr{'ies' if berries > 1 else 'y'}" if berries else ""
            return f"{n(player)}: {count} slash{'es' if count > 1 else ''}{why}{hung}"
        case k.BoughtBack(player=player, price=price, pot=pot):
            return f"{n(player)} buys back for {price}: the pot is {pot}"
        case k.WentOut(player=player, bartender=bartender, price=price):
            role = " (bartender/DJ)" if bartender else ""
            offer = f". Buy back: buyback {n(player)} ({price}, pot {price * 2})" if price else ""
            return f"{n(player)} is OUT{role}{offer}"
        case k.InPoo(player=player):
            return f"{n(player)} is in the poo"
        case k.ClaimVoid(out=out, roller=roller):
            return f"{n(out)} answered for the claim: it is void, {n(roller)} rolls fresh"
        case k.ChainMoved(player=player, claim=claim, answers=answers):
            return f"{n(player)} faces {LADDER.name(claim)}, {n(answers)} answers"
        case k.Won(player=player, pot=pot, open=still_open):
            unless = f" unless {' or '.join(map(n, still_open))} buys back" if still_open else ""
            return f"{n(player)} wins the pot of {pot}{unless}"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)
