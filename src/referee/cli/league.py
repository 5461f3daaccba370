"""`referee ratings`: every game's ratings (RULES 8), OpenSkill from the sessions' places, and
the games that keep their own (Kiriki's KR) in their own words."""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer

from referee import games, league
from referee.cli import output
from referee.cli.common import JsonOpt
from referee.text import printable

TOP = 5  # players each game shows when every game is shown
NAME_CELLS = 20  # a name's cells in a table row: 20 + 18 for the figures fit 40 columns


def ratings(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Option(
            "--game", metavar="GAME", help="Only this game (perudo apart).", show_default=False
        ),
    ] = None,
    history: Annotated[
        bool, typer.Option("--history", help="Every rated session and what it moved.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Ratings for every game.

    OpenSkill (Plackett-Luce) from each finished session's places, one pool per game (Perudo
    apart from Liar's dice), shown as mu - 3 sigma, rounded; ? marks a provisional rating
    (fewer than 3 games). Kiriki keeps its KR (Elo). Derived afresh every time, each session
    once, in the order they finished: the time of the event that ended each, then when its
    play began, then its id; copies, imports and undo/redo never move one. --history lists
    each rated session and what it changed.
    """
    wanted = league.parse_pool(game) if game is not None else None
    from referee.cli.history import every_summary

    found = league.rate(every_summary(ctx))
    own = {
        info.name: info.rating
        for info in games.GAMES
        if info.rating and wanted in (None, info.name)
    }
    pools = [p for p in league.pools() if wanted in (None, p)]
    scored = [p for p in pools if p in found and p not in own]  # OpenSkill pools with ratings
    documents: dict[str, Any] = {}
    texts: dict[str, str] = {}
    for name in pools:  # every player of a game when it is asked for, or the only one rated
        if name in own:
            every = wanted is not None or not scored
            texts[name], doc = _own(ctx, own[name], history=history, every=every)
            if texts[name] or wanted is not None:
                documents[name] = doc
        elif name in found:
            documents[name] = {"rating": "openskill"} | league.pools_doc({name: found[name]})[name]
    for name in scored:
        every = wanted is not None or (len(scored) == 1 and not any(texts.values()))
        texts[name] = "\n".join(_pool_lines(found[name], history=history, every=every))
    rated = [name for name in pools if texts.get(name)]
    parts = [texts[name] for name in rated]
    if json_out:
        output.print_json(
            {
                "order": ["finished", "began", "id"],
                "provisional_under": league.PROVISIONAL_UNDER,
                "games": documents,
            }
        )
        return
    if not parts:
        which = f"{league.pool_title(wanted)} " if wanted else ""
        output.print_text(
            f"no finished {which}sessions to rate yet;\nratings come from finished sessions"
        )
        return
    if not history and any(r.provisional for p in scored for r in found[p].ratings.values()):
        parts.append("? provisional: fewer than 3 games")
    output.print_wrapped("\n\n".join(parts))


def _own(ctx: typer.Context, where: str, **options: Any) -> tuple[str, dict[str, Any]]:
    """A game's own ratings (`GameInfo.rating`): its text and its JSON document."""
    module, _, function = where.partition(":")
    made: tuple[str, dict[str, Any]] = getattr(importlib.import_module(module), function)(
        ctx, top=None if options.pop("every") else TOP, **options
    )
    return made


def _pool_lines(pool: league.Pool, *, history: bool, every: bool) -> list[str]:
    """A pool's table (its first `TOP` players unless `every`), or its history."""
    from referee.render.cells import cut, ljust

    title = league.pool_title(pool.name)
    if history:
        lines = [title]
        for rated in pool.history:
            summary = rated.summary
            lines.append(f"{summary.day or '-'} {printable(summary.name)}")
            lines += [
                f"{c.place:>3} {ljust(cut(printable(c.name), NAME_CELLS), NAME_CELLS)}"
                f" {c.after:>5} ({_signed(c.after - c.before)})"
                for c in rated.changes
            ]
        return lines
    table = pool.table()
    shown = table if every else table[:TOP]
    lines = [f"{ljust(cut(title, NAME_CELLS), NAME_CELLS)} rating games  won"]
    for r in shown:
        mark = "?" if r.provisional else " "
        name = ljust(cut(printable(r.name), NAME_CELLS), NAME_CELLS)
        lines.append(f"{name} {r.shown:>5}{mark} {r.games:>5} {r.wins:>4}")
    if len(shown) < len(table):
        lines.append(f"  +{len(table) - len(shown)} more: ratings --game {pool.name}")
    return lines


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "±0"
