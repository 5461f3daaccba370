"""A Kalooki game in words: each ruling's facts as a sentence. No Rich."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from referee.games.kalooki import engine as kg
from referee.games.kalooki.cards import Card, show
from referee.games.kalooki.melds import scored
from referee.games.money import house_words
from referee.games.money import show as money
from referee.games.roster import Joined, Left, Replaced
from referee.text import printable

# What a table reads on the card when a key differs from the bundled ruleset (issue 35).
HOUSE_WORDS: dict[str, Callable[[object], str]] = {
    "decks": lambda v: f"{v} decks",
    "jokers": lambda v: f"{v} jokers",
    "deal_sizes": lambda v: "own deal sizes",
    "contracts": lambda v: "own contracts",
    "three_distinct_suits": lambda v: "threes of distinct suits" if v else "threes any suits",
    "ace_both_ends": lambda v: "ace at both ends" if v else "ace at one end",
    "allow_new_melds_after_laydown": lambda v: "new melds after" if v else "no new melds after",
    "tack_order": lambda v: "tack either end" if v == "either_end" else "tack high first",
    "call_limit": lambda v: f"{v} calls each",
    "call_limit_scope": lambda v: f"call limit a {v}",
    "out_on_laydown": lambda v: "out on lay-down turn" if v else "no out on lay-down turn",
    **house_words("a penalty point"),
}


def words(facts: Sequence[kg.Fact]) -> str:
    """A ruling in words: `Cy lays down 1) 7H 7S 7D 2) 8C 9C 10C JC`."""
    return "; ".join(_sentence(f) for f in facts)


def _sentence(fact: kg.Fact) -> str:
    n = printable
    match fact:
        case kg.Started(dealer=dealer):
            return f"{n(dealer)} deals round 1"
        case kg.Called(caller=caller, refused=refused, used=used):
            if refused:
                return f"{n(caller)}'s call is refused (it does not count)"
            return f"{n(caller)} calls the discard and takes a penalty card (call {used})"
        case kg.LaidDown(player=player, first=first, melds=melds, contract=contract):
            laid = " ".join(
                f"{first + k}) {show(list(m))}{_jokers(first + k, fact.jokers)}"
                for k, m in enumerate(melds)
            )
            verb = "lays down" if contract else "lays new melds"
            return f"{n(player)} {verb} {laid}"
        case kg.Tacked(
            player=player, card=card, meld=meld, swap=swap, reading=reading, joker=joker
        ):
            stands = _places([joker] if joker else [])
            if swap:
                return (
                    f"{n(player)} puts {card} in for the joker on meld {meld}, which moves:"
                    f" {show(list(reading))}{stands}"
                )
            return f"{n(player)} tacks {card} on meld {meld}: {show(list(reading))}{stands}"
        case kg.Emptied(player=player, kept=kept):
            return f"{n(player)} has {kg.cards_left(kept)} left: out {n(player)} ends the round"
        case kg.Reshuffled():
            return "the stock ran out: keep the top discard, shuffle the rest as the stock"
        case kg.Voided(round=number):
            return (
                f"the stock ran out again: round {number} is void, dealt again by the same dealer"
            )
        case kg.WentOut(player=player):
            return f"{n(player)} goes out: enter every other hand"
        case kg.Scored(player=player, points=points, cards=cards):
            if cards is None:
                return f"{n(player)} scores {points} points"
            return f"{n(player)} scores {scored(cards)}"
        case kg.Fixed(round=number, player=player, before=before, points=points, cards=cards):
            held = scored(cards) if cards is not None else f"{points} points"
            return (
                f"round {number} corrected: {n(player)} held {held}, not {before};"
                f" {n(player)}'s total {fact.total}"
            )
        case kg.RoundClosed(round=number, next_dealer=dealer, next_contract=contract):
            if dealer is None:
                return f"round {number} closed"
            return f"round {number} closed; {n(dealer)} deals round {number + 1} ({contract})"
        case kg.GameWon(players=players, total=total):
            if len(players) > 1:
                return f"{' and '.join(map(n, players))} tie with {total}"
            return f"{n(players[0])} wins with {total}"
        case Joined(player=player, after=after, start=start, paid=paid):
            at = f"starting at {start} (the highest total)" if start else "starting at 0"
            pays = f", paying {money(paid)}" if paid else ""
            return f"{n(player)} joins after {n(after)}, {at}{pays}"
        case Left(player=player):
            return f"{n(player)} leaves: dealt no more rounds, ranked below all who play on"
        case Replaced(old=old, new=new, paid=paid):
            pays = f", paying {n(old)} {money(paid)}" if paid else ""
            return f"{n(new)} takes {n(old)}'s seat, total and calls{pays}"
        case kg.DealPassed(dealer=dealer, round=number):
            return f"{n(dealer)} deals round {number} instead"
        case _:  # mypy proves this unreachable: a fact without words fails the type check
            assert_never(fact)


def _jokers(number: int, jokers: Sequence[tuple[int, Card]]) -> str:
    """Where each joker of four `number` stands: ` (JK as 5D)`; nothing for a three."""
    return _places([place for meld, place in jokers if meld == number])


def _places(places: Sequence[Card]) -> str:
    """Where jokers stand, as a ruling says it: ` (JK as 5D, JK as 9D)`; nothing for none."""
    return f" ({', '.join(f'JK as {place}' for place in places)})" if places else ""
