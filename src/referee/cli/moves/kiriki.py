"""Kiriki's actions: what `referee kiriki ...` makes of its words (see `cli.moves`), and the
line under the card when an action ends a ranked match: what it did to KR."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from referee.cli import output
from referee.cli.acting import Workspace, actor
from referee.cli.moves import BY, MakeEvent, Move, Moves, Option, Word
from referee.errors import RuleViolation, UsageError
from referee.games import kiriki
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.notation.dice import Roll
from referee.session import Session, resolve_player
from referee.text import printable


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


def after(space: Workspace) -> None:
    """Under the card of an action that ended a ranked match: what it did to KR."""
    known = space.known
    if known is not None and known.state.is_over and known.state.ranked:
        said = kr_change(space, known.session)
        if said:
            output.print_wrapped(said)


# ---------------------------------------------------------------------------- KR ratings


def match_id(session: Session) -> str:
    """The session's id: a match counts once, however many copies of it the folder holds
    (files from before session ids get one that rename, export and import keep)."""
    from referee.history import session_id

    return session_id(session)


def _utc(text: str) -> str:
    from datetime import UTC

    from referee.session import event_time

    found = event_time(text) if text else None
    return found.astimezone(UTC).isoformat() if found is not None else ""


def rated(session: Session, state: kiriki.State) -> kiriki.RatedMatch | None:
    """A session as KR counts it, if it is a finished ranked Kiriki match."""
    if session.game != "kiriki" or not state.ranked or not state.is_over:
        return None
    from referee.session import TIME_KEY

    at = session.events[-1].get(TIME_KEY) if session.events else None
    finished = _utc(at if isinstance(at, str) else "") or _utc(session.created)
    return kiriki.rated_match(
        state, finished, _utc(session.created), match_id(session), session.name
    )


def matches(loaded_all: Iterable[Any]) -> Iterator[kiriki.RatedMatch]:
    """The finished ranked matches among sessions as loaded (None: one that did not load)."""
    for loaded in loaded_all:
        if loaded is not None:
            found = rated(loaded.session, loaded.state)
            if found is not None:
                yield found


def _quietly(load: Callable[..., Any], *args: Any) -> Any:
    from referee.errors import RefereeError

    try:
        return load(*args)
    except RefereeError:
        return None


def signed(n: int) -> str:
    return f"{n:+d}" if n else "±0"


def kr_change(space: Workspace, session: Session) -> str | None:
    """What a finished ranked match did to KR: `KR: Ann 1516 (+16), Bob 1484 (-16)`. Under a
    match-end screen, a broken file elsewhere is not this screen's news: it is left out."""
    from referee import storage

    mine = match_id(session)
    loaded_all = (
        _quietly(storage.load, path, space.cache) for path in storage.session_files(space.home)
    )
    for found in kiriki.kr_history(list(matches(loaded_all))):
        if found.match.id == mine:
            m = found.match
            return (
                f"KR: {printable(m.winner)} {found.winner_kr} ({signed(found.winner_change)}),"
                f" {printable(m.loser)} {found.loser_kr} ({signed(found.loser_change)})"
            )
    return None


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
