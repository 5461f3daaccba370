"""`referee night`: the night a table plays (RULES 7): start one, see its games, nets and rounds
owed, settle its money with the fewest transfers, end it, and record a round bought.

Thin, as every command is: the record is `referee.night`'s and `referee.storage`'s; the sums
are `night.ledger`'s; this module reads the arguments and says the result in 40 columns.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from referee import storage
from referee.cli import output
from referee.cli.common import JsonOpt, workspace
from referee.errors import RuleViolation, StorageError, UsageError, quote
from referee.night import (
    Ledger,
    Night,
    Settlement,
    Status,
    check_night_name,
    default_name,
    ledger,
    pick_player,
    settled_doc,
    settlement,
    start_players,
    with_drink,
    with_players,
)
from referee.render.night import count, night_lines, settle_lines

app = typer.Typer(
    help="A night's games and money.\n\n"
    "With no command: the open night (else the latest, or --night NAME), its games, stakes,"
    " each player's net and the rounds owed. While a night is open, every 'referee new' joins"
    " it; 'night settle' says who pays whom.",
    no_args_is_help=False,
    rich_markup_mode=None,
)

NightOpt = Annotated[
    str | None,
    typer.Option(
        "--night",
        metavar="NAME",
        help="This night (default: the open one, else the latest).",
        show_default=False,
    ),
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Leave out the games that are not finished.")
]


FORMATS = ("md", "html")


@app.callback(invoke_without_command=True)
def night(
    ctx: typer.Context,
    json_out: JsonOpt = False,
    name: NightOpt = None,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="md or html: the night's share card.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", metavar="FILE", help="Write it to FILE.", show_default=False
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """The night: its games, stakes, nets and rounds owed."""
    if ctx.invoked_subcommand is not None:
        return
    if format is not None and format not in FORMATS:
        raise UsageError(f"--format takes md or html, not {quote(format)}")
    if format is not None and json_out:
        raise UsageError("--json and --format are two answers: give one")
    if (out is not None or force) and format is None:
        raise UsageError("-o and --force go with --format md or html")
    space = workspace(ctx)
    home = space.home
    loaded: storage.LoadedNight | None
    if name is not None:
        loaded = storage.find_night(home, name)
    else:
        loaded, unreadable = storage.latest_night(home)
        for line in unreadable:
            output.warning_line(line)
    if loaded is None:
        if json_out:
            output.print_json(None)
            return
        output.print_text("no nights yet: referee night start")
        return
    games = storage.night_games(home, loaded.night, space.cache)
    found = ledger(loaded.night, games, _left(loaded.night))
    if json_out:
        output.print_json(night_doc(loaded.night, found))
        return
    if format is not None:
        _share(loaded.night, found, format, out, force)
        return
    output.print_wrapped("\n".join(night_lines(loaded.night, found, output.width())))


def _share(night: Night, found: Ledger, format: str, out: Path | None, force: bool) -> None:
    """The night's share card: to FILE (written whole, never over a file without --force), or
    to stdout (`-o -` too)."""
    import sys

    from referee.render import night as cards

    card = cards.night_card(night, found)
    text = cards.markdown(card) if format == "md" else cards.page(card)
    if out is None or str(out) == storage.STDOUT:
        if sys.stdout.isatty():  # never a raw control character on a terminal
            from referee.text import printable

            text = printable(text, keep_newlines=True)
        output.write_utf8(text)
        return
    storage.write_new(out, text.encode("utf-8"), force=force)
    output.print_text(f"exported to {out}")


@app.command()
def start(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME]",
            help="The night's name (default: the date; '-' for it when players follow).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[PLAYER...]", help="Who is at the table so far.", show_default=False
        ),
    ] = None,
) -> None:
    """Open a night.

    Every 'referee new' joins it until it is settled or ended; one night is open at a time.
    Players named here are on its roster; each game's players join it too.
    """
    from referee.session import event_time

    chosen = None if name in (None, "-") else check_night_name(name)
    roster = start_players(players or [])
    created = storage.now()
    day = event_time(created).astimezone().date().isoformat()

    def make(taken: list[str]) -> Night:
        return Night(chosen or default_name(day, taken), created, players=roster)

    made = storage.start_night(workspace(ctx).home, make)
    lines = [f"started night {made.name}", "every 'referee new' joins it"]
    if made.players:
        lines.append(f"players: {', '.join(made.players)}")
    output.print_wrapped("\n".join(lines))


@app.command()
def settle(ctx: typer.Context, json_out: JsonOpt = False, force: ForceOpt = False) -> None:
    """Who pays whom; closes it.

    The fewest transfers, from each player's net over the night's finished games. Refused
    while a game with money is unfinished (a Kariki night needs its settle); --force leaves
    it out of the money.
    """
    space = workspace(ctx)

    def change(night: Night) -> tuple[Night, tuple[Ledger, Settlement]]:
        games = storage.night_games(space.home, night, space.cache)
        out = _stopping(night, ledger(night, games), money_only=True, force=force, doing="settled")
        found = ledger(night, games, out)
        now = storage.now()
        done = settlement(found, now, out)
        # Anyone with money in a game (a newcomer who joined one) is on the roster it settles.
        closed = with_players(night, found.players)
        return replace(closed, status=Status.SETTLED, closed=now, settled=done), (found, done)

    night, (found, done) = storage.change_open_night(space.home, change)
    if json_out:
        output.print_json({"name": night.name, **settled_doc(done)})
        return
    output.print_wrapped("\n".join(settle_lines(night, found, done)))


@app.command()
def end(ctx: typer.Context, force: ForceOpt = False) -> None:
    """Close it without money.

    Refused while a game of the night is unfinished (a Kariki night needs its settle);
    --force closes it all the same.
    """
    space = workspace(ctx)

    def change(night: Night) -> tuple[Night, Ledger]:
        found = ledger(night, storage.night_games(space.home, night, space.cache))
        _stopping(night, found, money_only=False, force=force, doing="ended")
        return replace(night, status=Status.ENDED, closed=storage.now()), found

    night, found = storage.change_open_night(space.home, change)
    said = f"ended night {night.name}: {count(len(night.games), 'game')}"
    if any(found.nets.values()):
        said += "; its money is not settled"
    output.print_wrapped(said)


@app.command()
def drink(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="Who bought the round.")],
) -> None:
    """A round bought.

    It clears one owed (the last place of a game with loser_buys owes one); bought when none
    is owed, it counts against the next.
    """
    space = workspace(ctx)

    def change(night: Night) -> tuple[Night, tuple[str, Ledger]]:
        games = storage.night_games(space.home, night, space.cache)
        who = pick_player(ledger(night, games), player)
        after = with_drink(night, who, storage.now())
        return after, (who, ledger(after, games))

    _, (who, found) = storage.change_open_night(space.home, change)
    owed = found.rounds_owed(who)
    if found.lost.get(who, 0) < found.bought.get(who, 0):
        said = f"{who} bought a round, owing none: it counts against {who}'s next"
    elif owed:
        said = f"{who} bought a round: {count(owed, 'more round')} owed"
    else:
        said = f"{who} bought a round: none owed now"
    output.print_wrapped(said)


# ---------------------------------------------------------------------------- refusals


def _left(night: Night) -> tuple[str, ...]:
    """The games a settled night left out of its money."""
    return night.settled.left_out if night.settled is not None else ()


def _stopping(
    night: Night, found: Ledger, *, money_only: bool, force: bool, doing: str
) -> tuple[str, ...]:
    """The games that stop the night being `doing` (settled or ended): refused, unless `force`,
    which leaves them out (their ids)."""
    stopping = found.unfinished(money_only=money_only)
    if not stopping or force:
        return tuple(g.member.id for g in stopping)
    first = stopping[0]
    more = f" (and {count(len(stopping) - 1, 'more game')})" if len(stopping) > 1 else ""
    which = f"game {first.number}, {quote(first.file)}"
    verb = "be settled" if doing == "settled" else "end"
    if not first.is_readable:
        what = "is missing" if first.status == "missing" else "cannot be read"
        raise StorageError(
            f"night {quote(night.name)} cannot {verb}: {which}, {what}{more}; restore it,"
            " or --force leaves it out"
        )
    if first.status == "provisional":
        state = "needs its settle (a buy-back is on offer)"
    else:
        state = "has money and is not finished" if money_only else "is not finished"
    raise RuleViolation(
        f"night {quote(night.name)} cannot {verb}: {which}, {state}{more}; finish it,"
        " or --force leaves it out"
    )


# ---------------------------------------------------------------------------- JSON


def night_doc(night: Night, found: Ledger) -> dict[str, Any]:
    """`referee night --json` (documented in the README)."""
    games = []
    for line in found.games:
        kept = line.money
        games.append(
            {
                "number": line.number,
                "id": line.member.id,
                "session": line.file,
                "game": line.member.game,
                "status": line.status,
                "winners": list(line.winners),
                "stakes": kept.purse.stakes.doc() if kept is not None else None,
                "nets": dict(kept.result.nets) if kept is not None and kept.result else None,
                "counted": line.is_counted,
                "left_out": line.left_out,
            }
        )
    return {
        "name": night.name,
        "status": night.status.value,
        "created": night.created,
        "closed": night.closed or None,
        "players": list(found.players),
        "games": games,
        "nets": {n: found.nets[n] for n in found.players if n in found.nets},
        "rounds_owed": {n: found.rounds_owed(n) for n in found.players if found.rounds_owed(n)},
        "drinks": [{"player": d.player, "at": d.at} for d in night.drinks],
        "settled": settled_doc(night.settled) if night.settled is not None else None,
    }
