"""Kariki in words: each ruling's facts as a sentence. No Rich, so `log --json` stays light."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from referee.games.kariki import engine as k
from referee.games.money import house_words, show
from referee.games.roster import Joined, Left, Replaced
from referee.notation.dice import KARIKI as LADDER
from referee.text import printable

# A house rule in a few words, for the line under the card (`referee.house`).
HOUSE_WORDS: dict[str, Callable[[object], str]] = {
    "after_kariki_starter": lambda v: f"Kariki: the {v} rolls",
    "raise": lambda v: "strict raises" if v == "strict" else "match or beat",
    "truth": lambda v: "exact truth" if v == "exact" else "truth at least",
    "slashes_per_berry": lambda v: f"{v} slashes a berry",
    "crown_threshold": lambda v: f"berries every {v} crowns",
    "crown_hits_roller": lambda v: "crowns hit the roller" if v else "crowns spare the roller",
    "berry_limit": lambda v: f"out at {v} berries",
    "buyback": lambda v: "buy-back" if v else "no buy-back",
    "illegal_claim": lambda v: "berry for a bad claim" if v == "berry" else "bad claim refused",
    "slash_rules": lambda v: "own slash rules",
    **house_words("a berry", stake_key="buy_in"),
}


CROWN_NAMES = 8  # a third crown names this many players hit at most, then counts them
# (at twenty players the names took four lines of a phone; the card marks each one's berry)


def words(facts: Sequence[k.Fact]) -> str:
    """A ruling in words: `Ann pulls 3-4 (Seven) on Nine: a lie, a berry for Bob`. Players
    put out or in the poo by one event are said together (`in the poo: Cy, Dee, Eve`): a
    third crown at twenty players said "X is in the poo" a line each, off a phone's screen."""
    said: list[str] = []
    run: list[k.WentOut | k.InPoo] = []
    offers: int | None = None  # the sentence offering several a buy-back, if one does
    for fact in [*facts, None]:
        if run and (fact is None or type(fact) is not type(run[0])):
            if len(run) > 1 and any(isinstance(f, k.WentOut) and f.price for f in run):
                offers = len(said)
            said.append(_together(run) if len(run) > 1 else _sentence(run[0]))
            run = []
        if isinstance(fact, k.WentOut | k.InPoo):
            run.append(fact)
        elif isinstance(fact, k.PriceDoubles) and offers is not None:
            said[offers] += ", the price doubling after each"
        elif fact is not None:
            said.append(_sentence(fact))
    return "; ".join(said)


def _together(run: Sequence[k.WentOut | k.InPoo]) -> str:
    """`OUT: Jo (bartender/DJ), Kim; each may buy back for 20`, `in the poo: Cy, Dee`."""
    if all(isinstance(f, k.InPoo) for f in run):
        return "in the poo: " + ", ".join(printable(f.player) for f in run)
    out = [f for f in run if isinstance(f, k.WentOut)]
    names = [printable(f.player) + (" (bartender/DJ)" if f.bartender else "") for f in out]
    said = "OUT: " + ", ".join(names)
    offered = [f for f in out if f.price]
    if len({f.price for f in offered}) == 1:  # one price: the usual case
        price = show(offered[0].price or 0)
        if len(offered) == len(out):
            return f"{said}; each may buy back for {price}"
        return (
            f"{said}; may buy back for {price}: {', '.join(printable(f.player) for f in offered)}"
        )
    if offered:
        said += "; may buy back: " + ", ".join(
            f"{printable(f.player)} for {show(f.price or 0)}" for f in offered
        )
    return said


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
        case k.Crowned(crowns=crowns, hit=hit) if len(hit) > CROWN_NAMES:  # the card shows them
            return f"crown {crowns}: a berry each for {len(hit)} players"
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
        case k.Slashed(player=player, slashes=count, rule=rule, berries=berries, tally=tally):
            return _slashed(n(player), count, rule, berries, tally)
        case k.BoughtBack(player=player, price=price, pot=pot):
            return f"{n(player)} buys back for {show(price)}: the pot is {show(pot)}"
        case k.WentOut(player=player, bartender=bartender, price=price):
            role = " (bartender/DJ)" if bartender else ""
            offer = f", may buy back for {show(price)}" if price else ""  # the card says how
            return f"{n(player)} is OUT{role}{offer}"
        case k.InPoo(player=player):
            return f"{n(player)} is in the poo"
        case k.MugHolderOut(out=out, roller=roller, claim=claim):
            dropped = f"the claim to beat ({LADDER.name(claim)}) is dropped, " if claim else ""
            return f"{n(out)} held the mug: {dropped}{n(roller)} rolls fresh"
        case k.ClaimVoid(out=out, roller=roller):
            return f"{n(out)} answered for the claim: it is void, {n(roller)} rolls fresh"
        case k.ChainMoved(player=player, claim=claim, answers=answers):
            return f"{n(player)} faces {LADDER.name(claim)}, {n(answers)} answers"
        case k.PriceDoubles():  # each offer says today's price
            return "the price doubles after each buy-back"
        case k.Won(player=player, pot=pot, open=still_open, price=price):
            won = f"{n(player)} wins the pot of {show(pot)}" if pot else f"{n(player)} wins"
            if not still_open:
                return won
            return f"{won} unless {' or '.join(map(n, still_open))} buys back for {show(price)}"
        case k.Settled(player=player, pot=pot, closed=closed):
            closing = f"{', '.join(map(n, closed))} did not buy back"
            return f"{closing}: {n(player)} wins the pot of {show(pot)}"
        case Joined(player=player, after=after, start=start, paid=paid):
            paying = f", paying {show(paid)}" if paid else ""
            return f"{n(player)} joins after {n(after)} with {_berries(start)}{paying}"
        case Left(player=player):
            return f"{n(player)} leaves: out"
        case Replaced(old=old, new=new, paid=paid):
            paying = f", paying {n(old)} {show(paid)}" if paid else ""
            return f"{n(new)} takes {n(old)}'s seat{paying}"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)


def _berries(count: int) -> str:
    """`no berries`, `1 berry`, `4 berries`."""
    return "no berries" if not count else "1 berry" if count == 1 else f"{count} berries"


def ordinal(number: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`.

    >>> [ordinal(x) for x in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = (
        "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _slashed(player: str, count: int, rule: str | None, berries: int, tally: int) -> str:
    """`3rd slash (drop): a berry for Bob`, `7 slashes: 2 berries for Bob`.

    The tally counts from the last berry, so the scorekeeper sees how close the next one is;
    only berries actually hung are counted (a player out keeps no slashes).
    """
    why = f" ({rule})" if rule else ""
    # One slash at a time is counted (the 3rd is a berry); a handful at once is just counted.
    said = f"{ordinal(tally)} slash{why}" if count == 1 else f"{count} slashes{why}"
    if not berries:
        return f"{said} for {player}"
    return f"{said}: {'a berry' if berries == 1 else f'{berries} berries'} for {player}"
