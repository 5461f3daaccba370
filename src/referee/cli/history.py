"""The night's history: `export`, `import`, `stats`, `delete`, `rename` (every game alike)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from referee import games, history, storage
from referee.cli import output
from referee.cli.common import (
    JsonOpt,
    NameOpt,
    SessionOpt,
    every_session,
    open_session,
    workspace,
)
from referee.errors import RefereeError, StorageError, UsageError
from referee.session import check_session_name, replay


class Format(Enum):
    """What `export` writes."""

    CSV = "csv"
    JSON = "json"
    MD = "md"
    HTML = "html"
    SVG = "svg"
    PNG = "png"
    SQLITE = "sqlite"


def export(
    ctx: typer.Context,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="csv, json, md, html, svg, png or sqlite.")
    ] = Format.CSV,
    out: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="Write to FILE (else stdout).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
    all_sessions: Annotated[
        bool, typer.Option("--all", help="sqlite: every session in the data folder.")
    ] = False,
    session: SessionOpt = None,
) -> None:
    """Export a session.

    As CSV rows, JSON (which 'import' reads back), a Markdown report, the share card as a
    page (html), a picture (svg, or png with the png extra), or with sqlite (and --all, every
    session) a database.
    """
    if format is Format.SQLITE:
        if out is None:
            raise UsageError("sqlite is a binary file: give -o FILE")
        _export_sqlite(ctx, out, force, all_sessions, session)
        output.print_text(f"exported to {out}")
        return
    if all_sessions:
        raise UsageError("--all goes with --format sqlite")
    loaded = open_session(ctx, session)
    if format is Format.PNG:
        if out is None:
            raise UsageError("png is a binary file: give -o FILE")
        from referee.render.share import share_card
        from referee.render.share_png import png

        storage.write_new(out, png(share_card(loaded.session, loaded.state)), force=force)
        output.print_text(f"exported to {out}")
        return
    text = _render(loaded, format)
    if out is None:
        sys.stdout.write(output_safe(text, format))
        return
    storage.write_new(out, text.encode("utf-8"), force=force)
    output.print_text(f"exported to {out}")


def output_safe(text: str, format: Format) -> str:
    """Text formats printed to a terminal: never a raw control character."""
    from referee.text import printable

    return printable(text, keep_newlines=True) if sys.stdout.isatty() else text


def _render(loaded: storage.Loaded, format: Format) -> str:
    session, state = loaded.session, loaded.state
    engine = session.engine
    match format:
        case Format.CSV:
            return history.csv_text(session)
        case Format.JSON:
            summary = engine.summary(state) | {"session": session.name}
            return history.json_document(session, storage.session_to_doc(session), summary)
        case Format.MD:
            return history.markdown(session, engine.outcome(state), _card_text(loaded, 60))
        case Format.HTML | Format.SVG:
            from referee.render import share

            card = share.share_card(session, state)
            return share.svg(card) if format is Format.SVG else share.page(card)
    raise AssertionError(format)  # pragma: no cover - sqlite and png are written elsewhere


def _card_text(loaded: storage.Loaded, width: int) -> str:
    from referee.render.share import card_text

    render = games.module(loaded.session.game, "render")
    return card_text(render.card(loaded.state, loaded.session.name, width, compact=False),
                     width) + "\n"  # fmt: skip


def _export_sqlite(
    ctx: typer.Context, out: Path, force: bool, all_sessions: bool, ref: str | None
) -> None:
    space = workspace(ctx)
    chosen = every_session(ctx) if all_sessions else [storage.load(space.path(ref), space.cache)]
    tables: dict[str, list[tuple[Any, ...]]] = {"sessions": [], "players": [], "events": [],
                                                 "results": []}  # fmt: skip
    for loaded in chosen:
        engine = loaded.session.engine
        found = history.sqlite_rows(
            loaded.session, str(loaded.path), engine.outcome(loaded.state), loaded.state
        )
        for table, rows in found.items():
            tables[table] += rows
    storage.write_sqlite(out, history.SQLITE_SCHEMA, tables, force=force)


def import_session(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A JSON export.")],
    name: NameOpt = None,
) -> None:
    """Import a JSON export.

    It becomes a new session that replays to the same state; a file that does not replay is
    refused with the event number, and nothing is written.
    """
    import json

    raw = storage.read_bytes(file, "JSON export")
    try:
        doc = history.session_doc_of(json.loads(raw))
    except (ValueError, RecursionError) as error:
        raise StorageError(
            f"{storage.shown(file)}: not a referee export: {str(error)[:80]}"
        ) from None
    try:
        session = storage.session_from_doc(doc)
        state = replay(session)
    except RefereeError as error:
        raise StorageError(f"{storage.shown(file)}, {error}") from None
    space = workspace(ctx)
    new_name = check_session_name(name or session.name or "imported")
    from dataclasses import replace

    session = replace(session, name=new_name)
    path = space.home.session_path(new_name)
    storage.create(path, session, state, keep_created=True)
    output.print_text(f"imported {file.name} as {new_name} ({session.game})")


def stats(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Option(metavar="GAME", help="Only this game.", show_default=False)
    ] = None,
    player: Annotated[
        str | None, typer.Option(metavar="PLAYER", help="Only this player.", show_default=False)
    ] = None,
    versus: Annotated[
        tuple[str, str] | None,
        typer.Option("--vs", metavar="A B", help="Head to head: two players.", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Stats across sessions.

    Per player games, wins and win rate; per game what each counts (berries by cause, calls,
    points, round scores ...); head to head with --vs A B.
    """
    wanted = games.canonical(game) if game else None
    summaries = _summaries(ctx)
    doc = history.stats(summaries, wanted, player, versus or ())
    if json_out:
        output.print_json(doc)
        return
    output.print_wrapped(_stats_text(doc))


def _summaries(ctx: typer.Context) -> list[history.Summary]:
    """Every session's summary: from the cache when the file's bytes and the code are those
    it was made from, else by one replay (a file that fails to load is skipped, with a line)."""
    space = workspace(ctx)
    key = storage.code_digest()
    kept = space.cache.read_document("stats")
    old: dict[str, Any] = (
        kept.get("entries", {}) if isinstance(kept, dict) and kept.get("code") == key else {}
    )
    fresh: dict[str, Any] = {}
    found = []
    for path in storage.session_files(space.home):
        try:
            raw = storage.read_bytes(path, "session file")
        except RefereeError as error:
            output.warning_line(f"skipped {path.name}: {error}")
            continue
        digest = storage.digest_of(raw)
        entry = old.get(str(path))
        summary = None
        if isinstance(entry, dict) and entry.get("digest") == digest:
            try:
                summary = history.Summary.from_plain(entry.get("summary"))
            except ValueError:
                summary = None
        if summary is None:
            try:
                summary = history.summarise(storage.load_bytes(path, raw).session)
            except RefereeError as error:
                output.warning_line(f"skipped {path.name}: {error}")
                continue
        fresh[str(path)] = {"digest": digest, "summary": summary.to_plain()}
        found.append(summary)
    if fresh != old:
        space.cache.write_document("stats", {"code": key, "entries": fresh})
    return found


def _stats_text(doc: dict[str, Any]) -> str:
    if not doc["players"]:
        return "no sessions to count yet"
    lines = ["player           games wins  rate"]
    for row in doc["players"]:
        rate = f"{row['win_rate']:.0%}" if row["win_rate"] is not None else "-"
        lines.append(f"{row['name'][:16]:<16} {row['games']:>5} {row['wins']:>4} {rate:>5}")
    for game, by_player in doc["games"].items():
        lines.append(f"{game}:")
        for who, keys in by_player.items():
            parts = [f"{k} {v['total']} ({v['per_game']}/game)" for k, v in keys.items()]
            if parts:
                lines.append(f"  {who}: " + ", ".join(parts))
    if "versus" in doc:
        v = doc["versus"]
        a, b = v["players"]
        lines.append(f"{a} v {b}: {v['games']} games, {v['wins'][a]}-{v['wins'][b]}")
    return "\n".join(lines)


def delete(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="SESSION", help="Session NAME or PATH.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
) -> None:
    """Delete a session.

    Removes its file, its lock and its kept replay, and clears the current pointer if it
    pointed there. Asks at a terminal; needs --yes otherwise.
    """
    space = workspace(ctx)
    path = space.path(name)
    storage.read_bytes(path, "session file")
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"delete {path.stem}? not at a terminal: add --yes")
        if not typer.confirm(f"delete {path.stem} for good?", default=False):
            raise typer.Abort()
    storage.remove_session(space.home, path)
    space.cache.forget(path)
    output.print_text(f"deleted {path.stem}")


def rename(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(metavar="OLD", help="The session's name.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="Its new name.")],
) -> None:
    """Rename a session."""
    space = workspace(ctx)
    path = space.home.session_path(check_session_name(old))
    storage.rename_session(space.home, path, check_session_name(new))
    output.print_text(f"renamed {old} to {new}")


COMMANDS: dict[str, Any] = {
    "export": export,
    "import": import_session,
    "stats": stats,
    "delete": delete,
    "rename": rename,
}
