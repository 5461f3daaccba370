"""What every command shares: the data folder, the options, starting a session, one path for
actions, and the score card after them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from referee import games, storage
from referee.cli import output
from referee.errors import RefereeError, RuleViolation, UsageError, quote
from referee.session import Session, append, parse_players, replay, resolve_player
from referee.text import pick, printable

DirectionOpt = Annotated[  # `new` of a table game whose ruleset sets the way play goes
    str | None,
    typer.Option(
        metavar="left|right",
        help="Which way play goes [default: the ruleset's].",
        show_default=False,
    ),
]
SessionOpt = Annotated[
    str | None,
    typer.Option(
        "--session",
        "-s",
        metavar="NAME",
        help="Session NAME or PATH (default: the current one).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead.")]
ByOpt = Annotated[
    str | None,
    typer.Option(
        "--by", metavar="PLAYER", help="Who acts (checked against the turn).", show_default=False
    ),
]
# The options every game's `new` takes (see `start_session`).
PlayersArg = Annotated[
    list[str],
    typer.Argument(metavar="PLAYER...", help="Players in seat order; Name=Nick gives a nickname."),
]
NameOpt = Annotated[
    str | None,
    typer.Option(metavar="NAME", help="Session name (default: game-date).", show_default=False),
]
RulesetOpt = Annotated[
    str | None,
    typer.Option(
        metavar="RULESET", help="Bundled ruleset NAME, or PATH to yours.", show_default=False
    ),
]
NickOpt = Annotated[
    list[str] | None,
    typer.Option(metavar="NAME=NICK", help="A nickname (repeat for more).", show_default=False),
]


def home() -> storage.Home:
    """The data folder: $REFEREE_HOME, else the platform's user data folder."""
    from referee.places import data_folder

    return storage.Home(Path(data_folder()))


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
    default_ref: str | None = None  # `referee -s NAME COMMAND`

    def path(self, ref: str | None) -> Path:
        """The file of the session `ref` names, else the one given before the command."""
        return storage.resolve(self.home, ref or self.default_ref)

    def load(self, ref: str | None) -> storage.Loaded:
        """The session `ref` names: the copy in memory if its file's bytes are unchanged."""
        path = self.path(ref)
        raw = storage.read_bytes(path, "session file")
        known = self.known
        if known is not None and known.path == path and known.digest == storage.digest_of(raw):
            return known
        # The shell keeps its replays in memory and caches one on exit; opening, it asks the
        # cache like any command (a long night opens as fast as a short one).
        cache = self.cache if known is None or not self.keeps_replays else None
        self.known = storage.load_bytes(path, raw, cache)
        return self.known

    def change(self, ref: str | None, change: storage.Change[Any]) -> storage.Saved[Any]:
        """Run a change of the session `ref` names under its lock, and remember the result."""
        path = self.path(ref)
        known = self.known if self.known is not None and self.known.path == path else None
        cache = None if self.keeps_replays else self.cache
        result = storage.transaction(path, change, cache, known)
        self.known = result.loaded
        return result


def workspace(ctx: typer.Context) -> Workspace:
    """The workspace of this process (the shell passes its own as the context object)."""
    found: Workspace = ctx.ensure_object(Workspace)
    return found


def open_session(ctx: typer.Context, ref: str | None) -> storage.Loaded:
    """Load and replay the session `ref` names (or the current one)."""
    return workspace(ctx).load(ref)


def session_state(ctx: typer.Context, ref: str | None, game: str) -> Any | None:
    """The state of the `game` session in use, for a tool that works with or without one.

    A session named with `-s` must load and be of `game`; with none named, the current one is
    used if it is of `game`, and anything else (none, another game, unreadable) means None.
    """
    try:
        loaded = workspace(ctx).load(ref)
    except RefereeError:
        if ref:
            raise
        return None
    if loaded.session.game != game:
        if ref:
            raise slip(ctx, loaded.session, games.info(game))
        return None
    return loaded.state


def every_session(ctx: typer.Context) -> list[storage.Loaded]:
    """Every session in the data folder that loads, each identity once (a night imported twice
    counts once: the copy changed first, under the shortest name, is kept); one that does not
    load is skipped with a warning line naming its file."""
    from referee.history import session_id, unique_by_id

    space = workspace(ctx)
    found = []
    for path in storage.session_files(space.home):
        try:
            found.append(storage.load(path, space.cache))
        except RefereeError as error:
            output.warning_line(f"skipped {path.name}: {error}")
    return unique_by_id(
        found,
        lambda loaded: session_id(loaded.session),
        lambda loaded: (loaded.session.updated, len(loaded.path.name), loaded.path.name),
    )


# ---------------------------------------------------------------------------- starting


def start_session(
    ctx: typer.Context,
    game: str,
    players: list[str],
    *,
    nick: list[str] | None,
    name: str | None,
    ruleset: str | None,
    options: Mapping[str, str | int | bool | None],
    player_options: tuple[str, ...] = (),
    warning: str | None = None,
    table: Mapping[str, Any] | None = None,
) -> None:
    """`referee new GAME ...`: check everything, write the session, make it current.

    `options` are the game's own (None: not given); those in `player_options` name a player,
    by a prefix or a nickname as anywhere else, and are stored as the player's name. A
    `warning` is shown above the card, which then leaves room for it. `table` is a ruleset
    already in hand (a rematch keeps the house rules of the match before).
    """
    from referee.session import check_session_name, initial

    info = games.info(game)
    if table is None:
        table = storage.load_ruleset(ruleset or info.rulesets[0])
    if table.get("game") != info.name:
        raise UsageError(
            f"ruleset {quote(str(table.get('name')))} is for"
            f" {printable(str(table.get('game')))[:20]}, not {info.name}"
        )
    people = parse_players(players, nick or (), info.name)
    stored = {key: value for key, value in options.items() if value is not None}
    labels = [(p.name, p.name) for p in people] + [
        (p.nickname, p.name) for p in people if p.nickname
    ]
    for key in player_options:
        if key in stored:
            stored[key] = pick(str(stored[key]), labels, "player")
    space = workspace(ctx)
    session_name = check_session_name(name) if name else _free_name(space.home, info.name)
    session = Session(session_name, info.name, table, people, stored)
    state = initial(session)  # the ruleset and options are checked before anything is written
    path = space.home.session_path(session_name)
    session = storage.create(path, session, state)
    try:
        space.home.set_current(session_name)
    except RefereeError:
        storage.discard(path)  # not current, so not started: a retry must work
        raise
    output.print_text(f"started {session_name} ({info.name})")
    above = 1
    if warning:
        above += output.warning_line(warning)
    draw_card(session, state, above=above)


def _free_name(here: storage.Home, game: str) -> str:
    base = f"{game}-{storage.now()[:10]}"
    name, n = base, 1
    while here.session_path(name).exists():
        n += 1
        name = f"{base}-{n}"
    return name


# ---------------------------------------------------------------------------- acting


def act(ctx: typer.Context, ref: str | None, make_event: Callable[[Session, Any], Any]) -> None:
    """Build an event against the live state, apply it, save it, show the ruling and card.

    The session must be of the game whose command this is: `referee liars bid` on a Kariki
    session is refused (exit 2, nothing written) before any event is made.
    """
    space = workspace(ctx)
    wanted = command_game(ctx)
    if wanted is not None:
        check_game(ctx, space.load(ref).session, wanted)  # before the lock: the usual slip

    def change(session: Session, state: Any) -> tuple[Session, Any, None]:
        if wanted is not None:
            check_game(ctx, session, wanted)  # and again under it: the file may have changed
        return (*append(session, state, make_event(session, state), at=storage.now()), None)

    result = space.change(ref, change)
    state = result.loaded.state
    ruling = games.module(result.session.game, "words").words(result.session.engine.ruling(state))
    draw_card(result.session, state, ruling)


def command_game(ctx: typer.Context) -> games.GameInfo | None:
    """The game whose command is running (`referee ld bid`: Liar's dice), from the group
    that holds it; None for a shared command."""
    here = ctx.parent
    while here is not None:
        found = games.BY_NAME.get((here.info_name or "").lower())
        if found is not None:
            return found
        here = here.parent
    return None


def slip(ctx: typer.Context, session: Session, wanted: games.GameInfo) -> UsageError:
    """The one-line answer to a command of another game than the session's."""
    have = games.info(session.game)
    command = f"{wanted.name} {ctx.info_name}"
    return UsageError(
        f"session {quote(session.name)} is {have.title}: {quote(command)} needs"
        f" a {wanted.title} session (referee new {wanted.name} ... or -s NAME)"
    )


def check_game(ctx: typer.Context, session: Session, wanted: games.GameInfo) -> None:
    """Refuse a command of the game `wanted` on a session of another game."""
    if session.game != wanted.name:
        raise slip(ctx, session, wanted)


def actor(session: Session, state: Any, by: str | None) -> str:
    """The player acting: `--by` (checked by the rules), else whoever is on turn."""
    if by is not None:  # `--by ""` names nobody: refused, not read as "whoever is on turn"
        return resolve_player(session, by)
    turn = session.engine.turn(state)
    if turn is None:
        result = session.engine.outcome(state)
        winners = " and ".join(result.winners) or "nobody"
        if result.provisional:  # one more event may still change it (a buy-back on offer)
            actions = " or ".join(repr(a) for a in session.engine.legal_actions(state))
            raise RuleViolation(f"the game is over: {winners} leads; {actions} the night")
        raise RuleViolation(f"the game is over: {winners} won")
    return turn


# ---------------------------------------------------------------------------- the card


def draw_card(
    session: Session,
    state: Any | None = None,
    ruling: str | None = None,
    full: bool | None = None,
    above: int = 0,
) -> None:
    """The ruling of the last action, then the score card: the full card when it fits the
    screen under the ruling (and `above` lines already printed), else the compact one (`full`
    chooses)."""
    if state is None:
        state = replay(session)
    render = games.module(session.game, "render")
    width = output.width()
    if full is None:
        used = above + (output.wrapped_lines(ruling, width) if ruling else 0)
        full = render.card_lines(state, width) + used <= output.height() - 1
    screens: list[Any] = [ruling] if ruling else []
    screens.append(render.card(state, session.name, width, compact=not full))
    output.draw(*screens)


class ShellPlugin(NamedTuple):
    """What a game adds to `referee shell`: its prompt, and how to complete its arguments.

    `complete` maps a command parameter's name (`rank`, `dice`, `player`, `rule`) to the words
    it may take now; the shell finds which parameter comes next from the command itself.
    """

    prompt: Callable[[Any], str]  # state -> "Bob vs Nine"
    complete: Mapping[str, Callable[[Session, Any], list[str]]]
    tools: tuple[str, ...] = ()  # commands open at any time that are not moves (odds)
