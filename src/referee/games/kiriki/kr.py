"""KR, Kiriki's rating, across the data folder's sessions: the matches it counts, and what a
finished ranked match did to it (the line under its card, and `referee ratings`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from referee.cli.acting import Workspace
from referee.games.kiriki import engine as kiriki
from referee.session import Session
from referee.text import printable


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


def after(space: Workspace) -> None:
    """Under the card of an action that ended a ranked match (or of the redo that put its last
    point back): what it did to KR."""
    known = space.known
    if known is not None and known.state.is_over and known.state.ranked:
        said = kr_change(space, known.session)
        if said:
            from referee.cli import output

            output.print_wrapped(said)
