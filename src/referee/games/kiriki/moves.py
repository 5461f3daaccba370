"""Kiriki's actions: what `referee kiriki ...` makes of its words (see `cli.moves`), and the
line under the card when an action ends a ranked match: what it did to KR (`cli.kr`)."""

from __future__ import annotations

from referee.cli.acting import actor
from referee.cli.moves import BY, MakeEvent, Move, Moves, Option, Word
from referee.errors import RuleViolation, UsageError
from referee.games.kiriki import engine as kiriki
from referee.games.kiriki.kr import after
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.notation.dice import Roll
from referee.session import Session, resolve_player


def _roll(dice: list[str]) -> Roll:
    if len(dice) > 2:
        raise UsageError(f"two dice, like 4-5 or K-K, not {len(dice)} words")
    return WORDS.parse_dice(" ".join(dice))


def _actor(session: Session, state: kiriki.State, by: str | None) -> str:
    """Who acts (see `acting.actor`); a finished match says so in its own words."""
    if state.is_over and not by:
        raise RuleViolation(kiriki.over_words(state))
    return actor(session, state, by)


def rolloff(first: int, second: int) -> MakeEvent:
    for die in (first, second):
        if not 1 <= die <= 6:
            raise UsageError(f"a die shows 1 to 6, not {die}")
    return lambda s, state: kiriki.RollOff(first, second)


def claim(rank: list[str], show: str | None, by: str | None) -> MakeEvent:
    parsed = WORDS.parse_rank(" ".join(rank))
    shown = WORDS.parse_face(show) if show is not None else None
    return lambda s, state: kiriki.Claim(_actor(s, state, by), parsed, shown)


def show_kiriki(by: str | None) -> MakeEvent:
    return lambda s, state: kiriki.ShowKiriki(_actor(s, state, by))


def lift(dice: list[str], by: str | None) -> MakeEvent:
    rolled = _roll(dice)
    return lambda s, state: kiriki.Lift(_actor(s, state, by), rolled)


def believe(by: str | None) -> MakeEvent:
    return lambda s, state: kiriki.Believe(_actor(s, state, by))


def reveal(dice: list[str], by: str | None) -> MakeEvent:
    rolled = _roll(dice)
    return lambda s, state: kiriki.Reveal(_actor(s, state, by), rolled)


def raise_(rank: list[str], by: str | None) -> MakeEvent:
    parsed = WORDS.parse_rank(" ".join(rank))
    return lambda s, state: kiriki.Raise(_actor(s, state, by), parsed)


def reroll(by: str | None) -> MakeEvent:
    return lambda s, state: kiriki.Reroll(_actor(s, state, by))


def roll(by: str | None) -> MakeEvent:
    return lambda s, state: kiriki.Roll_(_actor(s, state, by))


def resign(player: str) -> MakeEvent:
    return lambda s, state: kiriki.Resign(resolve_player(s, player))


RANK = (Word("rank", "words", required=True),)
DICE = (Word("dice", "words", required=True),)
MOVES: Moves = {
    "rolloff": Move(
        rolloff, (Word("first", "number", True), Word("second", "number", True)), (), after
    ),
    "claim": Move(claim, RANK, (Option("--show", "show", "text"), BY), after),
    "kiriki": Move(show_kiriki, after=after),
    "lift": Move(lift, DICE, after=after),
    "believe": Move(believe, after=after),
    "reveal": Move(reveal, DICE, after=after),
    "raise": Move(raise_, RANK, after=after),
    "reroll": Move(reroll, after=after),
    "roll": Move(roll, after=after),
    "resign": Move(resign, (Word("player", "text", True),), (), after),
}
