"""`referee season`: a group's season (RULES 8): start one, see its standings with the
movement since its previous night, list them, delete one.

`referee season [NAME]` shows a season beside the subcommands (`season new ...`): the group
reads a first word that is no command as a season's name (the hidden `show`), so a slip like
`season nwe` says `no season 'nwe' (did you mean 'referee season new'?)`. Thin, as every
command is: the record is `referee.league`'s and `referee.storage`'s, the standings are worked
out afresh from the sessions' summaries (never stored), the screen is `render.season`'s.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from referee import storage
from referee.cli import output
from referee.cli.common import JsonOpt, workspace
from referee.errors import UsageError, quote
from referee.league import Season, Standing, finished_in_order, make_season, season_doc, standings

COMMANDS = ("new", "list", "delete")  # the words a season's name cannot be
SHOW = "show"  # hidden: what a first word that is no command runs
NONE_YET = "no seasons yet; start one with: referee season new NAME"


class SeasonGroup(TyperGroup):
    """A group whose first word, when it is no command, is the season to show."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """`season`, `season --json`, `season NAME ...` run `show`; help stays the group's."""
        first = args[0] if args else None
        if first in ("-h", "--help") or first in self.commands:
            return super().parse_args(ctx, args)
        return super().parse_args(ctx, [SHOW, *args])


app = typer.Typer(
    cls=SeasonGroup,
    help="A season's standings.\n\n"
    "referee season [NAME] shows one (default: the newest running today, else the newest),"
    " with each player's movement since its previous night.",
    no_args_is_help=False,
    rich_markup_mode=None,
)


@app.callback()
def season() -> None:
    """A season's standings."""


@app.command(SHOW, hidden=True)
def show(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(metavar="[NAME]", help="The season (default: today's).", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A season's standings."""
    home = workspace(ctx).home
    if name is not None:
        chosen = _find(home, name)
    else:
        found, unreadable = storage.every_season(home)
        for line in unreadable:
            output.warning_line(line)
        if not found:
            if json_out:
                output.print_json(None)
            else:
                output.print_text(NONE_YET)
            return
        chosen = current(found, _today()).season
    table, nights = standings(chosen, every_summary(ctx))
    if json_out:
        output.print_json(season_doc(chosen, table, nights))
        return
    _print_standings(chosen, table, nights)


@app.command()
def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The season's name.")],
    first: Annotated[
        str | None,
        typer.Option(
            "--from", metavar="DATE", help="Its first day (2026-09-01).", show_default=False
        ),
    ] = None,
    last: Annotated[
        str | None,
        typer.Option(
            "--to", metavar="DATE", help="Its last day (default: open).", show_default=False
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            metavar="GAME",
            help="Only this game (perudo apart from liars).",
            show_default=False,
        ),
    ] = None,
    points: Annotated[
        str | None,
        typer.Option(
            "--points",
            metavar="P,P,..",
            help="Points by place, best first (default 3,1,0).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Start a season.

    A named range of days (either end open), of every game or one, with points by place:
    the last value counts for every later place, a shared place gives each the points of
    the best place shared. Standings: points, then wins, then fewer games.
    """
    if name.strip().casefold() in (*COMMANDS, SHOW):
        raise UsageError(
            f"bad season name {quote(name)}: it is a command of 'referee season'; pick another"
        )
    made = make_season(name, first, last, game, points, storage.now())
    home = workspace(ctx).home
    storage.create_season(home, made)
    table, nights = standings(made, every_summary(ctx))
    _print_standings(made, table, nights)


@app.command("list")
def list_seasons(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Every season: its days, game, points and games counted."""
    from referee.render.season import list_line

    found, unreadable = storage.every_season(workspace(ctx).home)
    for line in unreadable:
        output.warning_line(line)
    if not found:
        if json_out:
            output.print_json([])
        else:
            output.print_text(NONE_YET)
        return
    decided = finished_in_order(every_summary(ctx))
    counted = [(s.season, sum(1 for d in decided if s.season.counts(d))) for s in found]
    if json_out:
        output.print_json(
            [season_doc(s, [], [])["season"] | {"games": games} for s, games in counted]
        )
        return
    output.print_text("\n".join(line for s, games in counted for line in list_line(s, games)))


@app.command()
def delete(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The season's whole name.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
) -> None:
    """Delete a season.

    Removes its file (its sessions stay as they are). Asks at a terminal; needs --yes
    otherwise. A file that cannot be read can be deleted too.
    """
    import os

    home = workspace(ctx).home
    names = [p.stem for p in storage.season_files(home)]
    same = [n for n in names if n == name] or [n for n in names if n.casefold() == name.casefold()]
    if len(same) != 1:
        raise UsageError(storage.no_season(name, names))
    path = storage.season_path(home, same[0])
    if not os.path.lexists(path):  # pragma: no cover - listed a moment ago
        raise UsageError(storage.no_season(name, names))
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"delete season {same[0]}? not at a terminal: add --yes")
        if not typer.confirm(f"delete season {same[0]} for good?", default=False):
            raise typer.Abort()
    storage.delete_season(home, path)
    output.print_text(f"deleted season {same[0]}")


# ---------------------------------------------------------------------------- helpers


def current(found: list[storage.LoadedSeason], today: str) -> storage.LoadedSeason:
    """The season shown without a name: the newest created whose days cover `today`, else the
    newest created."""
    running = [s for s in found if s.season.covers(today)]
    return max(running or found, key=lambda s: (s.season.created, s.season.name))


def _today() -> str:
    """Today's local day (by `storage.now`, which tests can set)."""
    from referee.session import event_time

    at = event_time(storage.now())
    return "" if at is None else at.astimezone().date().isoformat()


def _find(home: storage.Home, name: str) -> Season:
    names = [p.stem for p in storage.season_files(home)]
    wanted = name.strip().casefold()
    if not any(n.casefold() == wanted or n.casefold().startswith(wanted) for n in names):
        raise UsageError(storage.no_season(name, names, COMMANDS))
    return storage.find_season(home, name).season


def every_summary(ctx: typer.Context) -> list[Any]:
    from referee.cli.history import every_summary as every

    return every(ctx)


def _print_standings(season: Season, table: list[Standing], nights: list[str]) -> None:
    from referee.render.season import season_lines

    output.print_text(
        "\n".join(season_lines(season, table, nights, min(60, max(40, output.width()))))
    )
