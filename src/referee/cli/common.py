"""What every command shares: the data folder, the session option, and one path for actions."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
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


@dataclass
class Workspace:
    """What the commands of one process share: the data folder and the session last seen.

    A one-off command starts with nothing in memory; `referee shell` keeps one Workspace for
    all its lines, so each action uses the session in memory while its file is unchanged.
    """

    home: storage.Home = field(default_factory=home)
    known: storage.Loaded | None = None
    keeps_replays: bool = False  # the shell keeps its replay in memory, cached once on exit
    cache: storage.Cache = field(default_factory=storage.Cache.default)

    def load(self, ref: str | None) -> storage.Loaded:
        """The session `ref` names: the copy in memory if its file's bytes are unchanged."""
        path = storage.resolve(self.home, ref)
        raw = storage.read_bytes(path, "session file")
        known = self.known
        if known is not None and known.path == path and known.digest == storage.digest_of(raw):
            return known
        self.known = storage.load_bytes(path, raw, None if self.keeps_replays else self.cache)
        return self.known

    def change(self, ref: str | None, change: storage.Change[Any]) -> storage.Saved[Any]:
        """Run a change of the session `ref` names under its lock, and remember the result."""
        path = storage.resolve(self.home, ref)
        known = self.known if self.known is not None and self.known.path == path else None
        cache = None if self.keeps_replays else self.cache
        result = storage.transaction(path, change, cache, known)
        self.known = result.loaded
        return result


@dataclass(frozen=True)
class ShellPlugin:
    """What a game adds to `referee shell`: its prompt, and words to complete after a command."""

    prompt: Callable[[Any], str]  # state -> "Bob vs Nine"
    words: Callable[[Session, Any, list[str]], list[str]]  # (session, state, words so far)


def workspace(ctx: typer.Context) -> Workspace:
    """The workspace of this process (the shell passes its own as the context object)."""
    found: Workspace = ctx.ensure_object(Workspace)
    return found


def open_session(ctx: typer.Context, ref: str | None) -> storage.Loaded:
    """Load and replay the session `ref` names (or the current one)."""
    return workspace(ctx).load(ref)


def draw_card(session: Session, state: Any | None = None, ruling: str | None = None) -> None:
    """The session's score card, after the ruling of the last action if there is one."""
    from referee.render import card

    if state is None:
        state = replay(session)
    screens: list[Any] = [ruling] if ruling else []
    screens.append(card(session.game, state, session.name, output.width()))
    output.draw(*screens)


def act(ctx: typer.Context, ref: str | None, make_event: Callable[[Session, Any], Any]) -> None:
    """Build an event against the live state, apply it, save it, show the ruling and card."""

    def change(session: Session, state: Any) -> tuple[Session, Any, None]:
        return (*append(session, state, make_event(session, state)), None)

    result = workspace(ctx).change(ref, change)
    state = result.loaded.state
    draw_card(result.session, state, result.session.engine.ruling(state))


def actor(session: Session, state: Any, by: str | None) -> str:
    """The player acting: `--by` (checked by the rules) or whoever is on turn."""
    if by:
        return resolve_player(session, by)
    turn = session.engine.summary(state).get("turn")
    return str(turn) if turn else session.players[0].name
