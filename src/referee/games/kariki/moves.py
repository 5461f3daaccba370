"""Kariki's actions: what `referee kariki ...` makes of its words (see `cli.moves`)."""

from __future__ import annotations

from referee.cli.acting import actor
from referee.cli.moves import MakeEvent, Move, Moves, Option, Word, needed
from referee.errors import RuleViolation, UsageError, quote
from referee.games.kariki import engine as kariki
from referee.notation.dice import Roll, parse_rank
from referee.session import Session, resolve_player


def claim(rank: list[str] | None, by: str | None) -> MakeEvent:
    parsed = parse_rank(" ".join(needed(rank, "claim", "a rank, like claim 9 or claim 1-1")))
    return lambda s, state: kariki.Claim(actor(s, state, by), parsed)


def show_kariki(by: str | None) -> MakeEvent:
    return lambda s, state: kariki.ShowKariki(actor(s, state, by))


def roll(by: str | None) -> MakeEvent:
    return lambda s, state: kariki.TakeMug(actor(s, state, by))


def pull(dice: list[str] | None, by: str | None) -> MakeEvent:
    dice = needed(dice, "pull", "the dice under the mug, like pull 4-5")
    if len(dice) > 2:
        raise UsageError(f"pull takes two dice, like 4-5, not {len(dice)} words")
    parsed = Roll.parse(" ".join(dice))
    return lambda s, state: kariki.Pull(actor(s, state, by), parsed)


def pass_(by: str | None) -> MakeEvent:
    return lambda s, state: kariki.Pass(actor(s, state, by))


def slash(
    player: str | None,
    rule: str | None,
    amount: int | None,
    seconds: int | None,
    count: int | None,
) -> MakeEvent:
    who = needed(player, "slash", "who broke a rule, like slash bob drop 25 or slash bob 3")
    rule_word, amount_given = rule, amount
    if rule is not None and rule.isascii() and rule.isdigit():  # `slash bob 3`: three slashes
        if amount is not None:
            typed = quote(f"slash {who} {rule} {amount}", 40)
            like = "like slash bob drop 25 or slash bob 3"
            raise UsageError(f"{typed}: {rule[:12]} is a count, not a rule; {like}")
        # A count of more digits than any table needs is refused below without parsing it all.
        rule_word, amount_given = None, int(rule) if len(rule) <= 12 else 10**12

    def make(s: Session, state: kariki.State) -> kariki.Slash:
        found = state.rules.slash_rule(rule_word) if rule_word else None
        timed, counted = seconds, count
        amount = amount_given
        if amount is not None:
            if seconds is not None or count is not None:
                raise UsageError("give the amount once: as a word, or as --seconds / --count")
            if found is not None and found.seconds_per_slash is not None:
                timed = amount
            else:
                counted = amount
        rule_name = found.name if found else None
        return kariki.Slash(resolve_player(s, who), rule_name, timed, counted)

    return make


def buyback(player: str | None) -> MakeEvent:
    def make(s: Session, state: kariki.State) -> kariki.BuyBack:
        if player is not None:
            return kariki.BuyBack(resolve_player(s, player))
        offered = [state.name(i) for i in state.buyback_open]
        if len(offered) == 1:  # `bu` alone: the one player on offer
            return kariki.BuyBack(offered[0])
        if not offered:
            raise RuleViolation(
                "no buy-back is on offer: only a player who just went out buys back"
            )
        raise UsageError(f"buyback needs the player: {' or '.join(offered)}")

    return make


def settle() -> MakeEvent:
    return lambda s, state: kariki.Settle()


MOVES: Moves = {
    "claim": Move(claim, (Word("rank", "words"),)),
    "kariki": Move(show_kariki),
    "roll": Move(roll),
    "pull": Move(pull, (Word("dice", "words"),)),
    "pass": Move(pass_),
    "slash": Move(
        slash,
        (Word("player", "text"), Word("rule", "text"), Word("amount", "number")),
        (Option("--seconds", "seconds", "number"), Option("--count", "count", "number")),
    ),
    "buyback": Move(buyback, (Word("player", "text"),), ()),
    "settle": Move(settle, (), ()),
}
