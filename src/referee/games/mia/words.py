"""Mia in words: each ruling's facts as a sentence. No Rich, so `log --json` stays light."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from referee.games import roster
from referee.games.mia import engine as mia
from referee.games.money import house_words, show
from referee.text import printable

HOUSE_WORDS: dict[str, Callable[[object], str]] = {
    "lives": lambda v: "1 life" if v == 1 else f"{v} lives",
    "mia_costs": lambda v: f"a true Mia costs {v}",
    "equal_allowed": lambda v: "equal values allowed" if v else "strictly higher",
    "doubles_order": lambda v: "11 highest double" if v == "reversed" else "66 highest double",
    "next_starter": lambda v: f"the {v} starts",
    "direction": lambda v: f"play goes {v}",
    "mia_announced": lambda v: "Mia shown at once" if v == "ends_round" else "Mia is lifted",
    "pass_mia": lambda v: "Mia passed on unseen" if v is True else "Mia not passed on",
    **house_words("a life lost"),
}
"""A few words a card says for a house rule that differs from the bundled ruleset."""


def words(facts: Sequence[mia.Fact]) -> str:
    """A ruling in words: `Bob lifts Ann's 54: 43 shown, a lie; Ann loses a life (5 left)`."""
    said = ""
    for fact in facts:  # a Mia shown at once reads as its announcement's verdict
        joint = ": " if isinstance(fact, mia.MiaShown) else "; "
        said = f"{said}{joint}{_sentence(fact)}" if said else _sentence(fact)
    match facts:  # believing and announcing at once reads as one sentence
        case [mia.Believed(by=by), mia.Announced(value=value), *_]:
            return said.replace(
                f"; {printable(by)} announces {value}", f" and announces {value}", 1
            )
    return said


def lives(n: int) -> str:
    """`a life`, `2 lives`."""
    return "a life" if n == 1 else f"{n} lives"


def _sentence(fact: mia.Fact) -> str:
    n = printable
    match fact:
        case mia.Started(first=first, direction=direction, lives=count):
            return f"{lives(count)} each; {n(first)} rolls first; play goes {direction.value}"
        case mia.Announced(by=by, value=value):
            return f"{n(by)} announces {value}"
        case mia.Believed(by=by, announcer=announcer, value=value):
            return f"{n(by)} believes {n(announcer)}'s {value}"
        case mia.Lifted(by=by, announcer=announcer, value=value, dice=dice, true=true):
            verdict = "true" if true else "a lie"
            return f"{n(by)} lifts {n(announcer)}'s {value}: {dice} shown, {verdict}"
        case mia.GaveUp(by=by, announcer=announcer):
            return f"{n(by)} gives up against {n(announcer)}'s Mia"
        case mia.MiaShown(dice=dice, true=true):
            return f"{dice} shown, {'true' if true else 'a lie'}"
        case mia.Passed(by=by, to=to, last=last):
            if last:
                to_last = f"back to {n(to)}, who must lift or give up"
                return f"{n(by)} passes the Mia on unseen: {to_last}"
            return f"{n(by)} passes the Mia on unseen: {n(to)} faces it"
        case mia.LostLives(player=player, lost=lost, left=left):
            return f"{n(player)} loses {lives(lost)} ({left} left)"
        case mia.WentOut(player=player):
            return f"{n(player)} is out"
        case mia.RoundStarts(number=number, starter=starter):
            return f"round {number}: {n(starter)} rolls"
        case mia.Won(player=player):
            return f"{n(player)} wins"
        case mia.RoundVoid(number=number):
            return f"round {number} is void, no life lost"
        case roster.Joined(player=player, after=after, start=start, paid=paid):
            paying = f", paying {show(paid)}" if paid else ""
            with_lives = "1 life" if start == 1 else f"{start} lives"
            return f"{n(player)} joins after {n(after)} with {with_lives}{paying}"
        case roster.Left(player=player):
            return f"{n(player)} leaves: out"
        case roster.Replaced(old=old, new=new, paid=paid):
            paying = f", paying {n(old)} {show(paid)}" if paid else ""
            return f"{n(new)} takes {n(old)}'s seat{paying}"
        case _:
            assert_never(fact)
