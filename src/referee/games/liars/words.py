"""Liar's dice in words: each ruling's facts as a sentence. No Rich, so `log --json` stays light."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from referee.games.liars import engine as ld
from referee.games.liars.bids import Bid, count_dice
from referee.games.money import house_words, show
from referee.games.roster import Joined, Left, Replaced
from referee.render.cells import listed
from referee.text import printable

# What a table reads on the card when its ruleset differs from the bundled one in a key.
HOUSE_WORDS: dict[str, Callable[[object], str]] = {
    "palifico_one_die_free_face": lambda v: "one die: face free" if v else "one die: face kept",
    "two_player_palifico": lambda v: "palifico two-handed" if v else "no palifico two-handed",
    "two_player_calza": lambda v: "calza two-handed" if v else "no calza two-handed",
    "dice_per_player": lambda v: "1 die each" if v == 1 else f"{v} dice each",
    "direction": lambda v: f"play goes {v}",
    "bidding_rule": lambda v: f"{v} bidding",
    "ones_wild": lambda v: "ones wild" if v else "ones not wild",
    "open_on_ones": lambda v: "open on ones" if v else "no opening on ones",
    "next_starter": lambda v: f"the {v} starts",
    "call_by": lambda v: "anyone calls" if v == "any" else "the next player calls",
    "palifico": lambda v: "palifico" if v else "no palifico",
    "exact_call": lambda v: "calza" if v else "no calza",
    "exact_call_by": lambda v: "anyone calzas" if v == "any" else "calza on turn",
    "exact_call_limit": lambda v: "calza once each" if v == "once_per_game" else "calza any time",
    "exact_call_after_loss": lambda v: "calza after a lost die" if v else "calza with all dice",
    "palifico_once": lambda v: "palifico once each" if v else "palifico each time",
    **house_words("a die lost"),
}


def words(facts: Sequence[ld.Fact]) -> str:
    """A ruling in words: `Cy calls five threes by Bob: 4 counted, false; Bob loses a die`."""
    return "; ".join(_sentence(f) for f in facts)


def play_goes(order: Sequence[str], width: int | None = None) -> str:
    """The order of play as names: `Ann, Dee, Cy, Bob`, cut with `…` past `width` columns."""
    return listed([printable(name) for name in order], width)


def _sentence(fact: ld.Fact) -> str:
    n = printable
    match fact:
        case ld.Started(first=first, dice=dice, order=order):
            return f"{count_dice(dice)} each; {n(first)} opens; play goes: {play_goes(order)}"
        case ld.Bade(by=by, bid=bid):
            return f"{n(by)} bids {bid.words()} ({bid})"
        case ld.Counted(by=by, bid=bid, bidder=bidder, counted=count, exact=exact, held=held):
            wild = " with wild ones" if fact.wild else ""
            if exact:
                verdict = "exact" if held else "not exact"
                return (
                    f"{n(by)} calls {n(bidder)}'s {bid.words()} exact: {count} counted{wild},"
                    f" {verdict}"
                )
            verdict = "the bid holds" if held else "the bid was false"
            return f"{n(by)} calls {n(bidder)}'s {bid.words()}: {count} counted{wild}, {verdict}"
        case ld.LostDie(player=player, left=left, paid=paid):
            paying = f", paying {show(paid)}" if paid else ""
            return f"{n(player)} loses a die ({left} left){paying}"
        case ld.RegainedDie(player=player, left=left):
            return f"{n(player)} regains a die ({left} now)"
        case ld.KeptDice(player=player, left=left):
            return f"{n(player)} is at the start count ({count_dice(left)}): none comes back"
        case ld.WentOut(player=player):
            return f"{n(player)} is out"
        case ld.PalificoSpent(player=player):
            return f"{n(player)} is on one die again: no second palifico"
        case ld.RoundStarts(number=number, starter=starter, palifico=palifico):
            special = " (palifico: no wild ones, the face stays)" if palifico else ""
            return f"round {number}: {n(starter)} opens{special}"
        case ld.Won(player=player):
            return f"{n(player)} wins"
        case Joined(player=player, after=after, start=start, paid=paid):
            paying = f", paying {show(paid)}" if paid else ""
            return f"{n(player)} joins after {n(after)} with {count_dice(start)}{paying}"
        case Left(player=player):
            return f"{n(player)} leaves: out"
        case ld.BidVoided(bidder=bidder, bid=bid):
            return f"{n(bidder)}'s {bid.words()} ({bid}) is void: nobody loses a die"
        case Replaced(old=old, new=new, paid=paid):
            paying = f", paying {n(old)} {show(paid)}" if paid else ""
            return f"{n(new)} takes {n(old)}'s seat{paying}"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)


def odds_lines(
    table: Sequence[tuple[Bid, ld.Chances]],
    among: str,
    source: str,
    width: int = 40,
) -> list[str]:
    """The odds screen: the dice counted and the rules (`source`), then a row a bid (the bid asked
    about first, then each smallest raise), at least and exactly, each in 40 columns.

    >>> print("\\n".join(odds_lines([(Bid(5, 3), ld.chances(Bid(5, 3), 36))],
    ...       "36 dice", "liars-dice (no game)")))
    five threes (5x3) among 36 dice
    liars-dice (no game)
    bid    at least        exactly
    5x3    0.739323  73.9% 0.170199  17.0%
    """
    import textwrap

    first = table[0][0]
    lines = textwrap.wrap(f"{first.words()} ({first}) among {among}", width, subsequent_indent="  ")
    lines += textwrap.wrap(source, width, subsequent_indent="  ")
    lines.append(f"{'bid':<6} {'at least':<15} exactly")
    for k, (bid, chance) in enumerate(table):
        if k == 1:
            lines.append("raises:")
        lines.append(
            f"{bid!s:<6} {chance.at_least:.6f} {chance.at_least:>6.1%}"
            f" {chance.exactly:.6f} {chance.exactly:>6.1%}"
        )
    return lines
