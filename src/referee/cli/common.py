"""What every command shares: the data folder, the session option, and one path for actions."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from referee import storage
from referee.cli import output
from referee.session import Session, append, replay, resolve_player

SessionOpt = Annotated[
    str | None,
    typer.Option(
        "--session",
        "-s",
        help="Session NAME or PATH (default: the current one).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead.")]
ByOpt = Annotated[
    str | None,
    typer.Option("--by", help="Who acts (checked against whose turn it is).", show_default=False),
]


def home() -> storage.Home:
    """The data folder: $REFEREE_HOME, else the platform's user data folder."""
    root = os.environ.get("REFEREE_HOME") or typer.get_app_dir("referee")
    return storage.Home(Path(root))


def open_session(ref: str | None) -> storage.Loaded:
    """Load and replay the session `ref` names (or the current one)."""
    here = home()
    return storage.load(storage.resolve(here, ref), here.cache)


def draw_card(session: Session, state: Any | None = None, ruling: str | None = None) -> None:
    """The session's score card, after the ruling of the last action if there is one."""
    from referee.render import card

    if state is None:
        state = replay(session)
    screens: list[Any] = [ruling] if ruling else []
    screens.append(card(session.game, state, session.name, output.width()))
    output.draw(*screens)


def act(ref: str | None, make_event: Callable[[Session, Any], Any]) -> None:
    """Build an event against the live state, apply it, save it, show the ruling and card."""
    here = home()
    path = storage.resolve(here, ref)

    def change(session: Session, state: Any) -> tuple[Session, Any, None]:
        return (*append(session, state, make_event(session, state)), None)

    result = storage.transaction(path, change, here.cache)
    state = result.loaded.state
    draw_card(result.session, state, result.session.engine.ruling(state))


def actor(session: Session, state: Any, by: str | None) -> str:
    """The player acting: `--by` (checked by the rules) or whoever is on turn."""
    if by:
        return resolve_player(session, by)
    turn = session.engine.summary(state).get("turn")
    return str(turn) if turn else session.players[0].name
