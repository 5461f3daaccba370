"""What the Typer commands share: the options, the workspace of a command's context, starting
a session, and an action's path (`act`, which hands over to `acting`, the part without Typer)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, NamedTuple

import typer

from referee import games, storage
from referee.cli import acting, output
from referee.cli.acting import Workspace, actor, draw_card
from referee.errors import RefereeError, UsageError, quote
from referee.games.base import PlayerInfo
from referee.session import Session, parse_players
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
StakeOpt = Annotated[
    str | None,
    typer.Option(
        "--stake",
        metavar="AMOUNT",
        help="What each player puts in the pot (3 or 3.50): the ruleset's stake, set.",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="A ruleset key for this session only, the value in TOML (repeat for more).",
        show_default=False,
    ),
]
NickOpt = Annotated[
    list[str] | None,
    typer.Option(metavar="NAME=NICK", help="A nickname (repeat for more).", show_default=False),
]


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
            raise acting.slip(ctx.info_name or "", loaded.session, games.info(game))
        return None
    return loaded.state


def every_session(ctx: typer.Context, *, warn: bool = True) -> list[storage.Loaded]:
    """Every session in the data folder that loads, each identity once (a copy counts once:
    the finished file with the most events is kept, as `league.once` keeps it); one that does
    not load is skipped, with a warning line naming its file unless not `warn`."""
    from referee.history import session_id, unique_by_id

    space = workspace(ctx)
    found = []
    for path in storage.session_files(space.home):
        try:
            found.append(storage.load(path, space.cache))
        except RefereeError as error:
            if warn:
                output.warning_line(f"skipped {path.name}: {error}")
    return unique_by_id(
        found,
        lambda loaded: (  # one session: its id, game and first table (`league.identity`)
            session_id(loaded.session),
            loaded.session.game,
            *(p.name for p in loaded.session.players),
        ),
        lambda loaded: (
            not loaded.session.engine.outcome(loaded.state).finished,
            -len(loaded.session.events),
            loaded.path.name,
        ),
    )


# ---------------------------------------------------------------------------- starting


def as_the_night_spells(home: Any, people: tuple[PlayerInfo, ...]) -> tuple[PlayerInfo, ...]:
    """The players as the open night's roster spells them: `ann` at the night's second game is
    the `Ann` of its first, so stats and the night count one player (RULES 7)."""
    from dataclasses import replace

    return tuple(replace(p, name=acting.roster_spelling(home, p.name)) for p in people)


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
    warning: Callable[[int, str], str | None] | None = None,
    table: Mapping[str, Any] | None = None,
    sets: list[str] | None = None,
) -> None:
    """`referee new GAME ...`: check everything, write the session, make it current.

    `options` are the game's own (None: not given); those in `player_options` name a player,
    by a prefix or a nickname as anywhere else, and are stored as the player's name. A
    `warning` (the game's `New.warning`) is shown above the card, which then leaves room for
    it. `table` is a ruleset already in hand (a rematch keeps the house rules of the match
    before).
    """
    from referee.league import pool_title, session_pool
    from referee.session import check_session_name, initial

    info = games.info(game)
    if table is None:
        table = storage.load_ruleset(ruleset or info.rulesets[0])
    if table.get("game") != info.name:
        raise UsageError(
            f"ruleset {quote(str(table.get('name')))} is for"
            f" {printable(str(table.get('game')))[:20]}, not {info.name}"
        )
    if sets:  # house rules for this session only: the ruleset kept is the whole of it
        from referee.house import with_sets

        table = with_sets(info.name, table, sets)
    space = workspace(ctx)
    people = as_the_night_spells(space.home, parse_players(players, nick or (), info.name))
    stored = {key: value for key, value in options.items() if value is not None}
    labels = [(p.name, p.name) for p in people] + [
        (p.nickname, p.name) for p in people if p.nickname
    ]
    for key in player_options:
        if key in stored:
            stored[key] = pick(str(stored[key]), labels, "player")
    session_name = check_session_name(name) if name else _free_name(space.home, info.name)
    session = Session(session_name, info.name, table, people, stored)
    state = initial(session)  # the ruleset and options are checked before anything is written
    path = space.home.session_path(session_name)
    # While a night is open the session joins it, under the nights' lock (RULES 7): an open
    # night that cannot be read refuses the start before anything is written.
    with storage.night_for_new(space.home) as night:
        session = storage.create(path, session, state)
        try:
            space.home.set_current(session_name)
            if night is not None:
                night.join(session)
        except RefereeError:
            storage.discard(path)  # not current, or not in the night: a retry must work
            raise
    named = session_pool(session)  # Perudo by its own name
    output.print_text(f"started {session_name} ({named})")
    above = 1
    if night is not None:
        output.print_text(f"in night {night.name}")
        above += 1
    said = warning(len(people), pool_title(named)) if warning else None
    if said:
        above += output.warning_line(said)
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
    """`acting.act` for the command running in `ctx`: its game, from the group that holds it
    (`referee ld bid`: Liar's dice; None for a shared command), and its name."""
    acting.act(workspace(ctx), command_game(ctx), ctx.info_name or "", ref, make_event)


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


class ShellPlugin(NamedTuple):
    """What a game adds to `referee shell`: its prompt, and how to complete its arguments.

    `complete` maps a command parameter's name (`rank`, `dice`, `player`, `rule`) to the words
    it may take now; the shell finds which parameter comes next from the command itself.
    """

    prompt: Callable[[Any], str]  # state -> "Bob vs Nine"
    complete: Mapping[str, Callable[[Session, Any], list[str]]]
    tools: tuple[str, ...] = ()  # commands open at any time that are not moves (odds)
    bare: str | None = None  # the action a line of no command means, when open (`9`: claim 9)
    after: tuple[str, ...] = ()  # tools open only once the game is over (a rematch)


__all__ = [  # `actor`, `draw_card` and `Workspace` are `acting`'s, used by every game's commands
    "ByOpt", "DirectionOpt", "JsonOpt", "NameOpt", "NickOpt", "PlayersArg", "RulesetOpt",
    "SessionOpt", "ShellPlugin", "Workspace", "act", "actor", "command_game", "draw_card",
    "every_session", "open_session", "session_state", "start_session", "workspace",
]  # fmt: skip
