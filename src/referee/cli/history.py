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
    skip_copy,
    workspace,
)
from referee.errors import RefereeError, StorageError, UsageError
from referee.session import check_session_name, replay
from referee.text import printable


class Format(Enum):
    """What `export` writes."""

    CSV = "csv"
    JSON = "json"
    MD = "md"
    HTML = "html"
    SVG = "svg"
    SQLITE = "sqlite"


SHARE_WIDTH = 48  # html and svg cards: a phone's screen, with room to spare


def export(
    ctx: typer.Context,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="csv, json, md, html, svg or sqlite.")
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

    As CSV rows, JSON (which 'import' reads back), a Markdown report, the card as HTML or
    SVG to share, or with sqlite (and --all, every session) a database.
    """
    to_stdout = out is not None and str(out) == storage.STDOUT  # `-o -`
    if format is Format.SQLITE:
        if out is None:
            raise UsageError("sqlite is a binary file: give -o FILE (or -o - for stdout)")
        _export_sqlite(ctx, out, force, all_sessions, session)
        if not to_stdout:
            output.print_text(f"exported to {out}")
        return
    if all_sessions:
        raise UsageError("--all goes with --format sqlite")
    loaded = open_session(ctx, session)
    text = _render(loaded, format)
    if out is None or to_stdout:
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
            return _card_export(loaded, format)
    raise AssertionError(format)  # pragma: no cover - sqlite is written elsewhere


def _recorded(loaded: storage.Loaded, width: int) -> Any:
    from rich.console import Console

    render = games.module(loaded.session.game, "render")
    import io

    console = Console(record=True, width=width, file=io.StringIO(), color_system="truecolor",
                      highlight=False, emoji=False)  # fmt: skip
    console.print(render.card(loaded.state, loaded.session.name, width, compact=False))
    return console


def _card_text(loaded: storage.Loaded, width: int) -> str:
    text: str = _recorded(loaded, width).export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def _card_export(loaded: storage.Loaded, format: Format) -> str:
    console = _recorded(loaded, SHARE_WIDTH)
    title = f"{loaded.session.game}: {loaded.session.name}"
    if format is Format.SVG:
        return str(console.export_svg(title=title))
    return str(console.export_html(inline_styles=True))


def _export_sqlite(
    ctx: typer.Context, out: Path, force: bool, all_sessions: bool, ref: str | None
) -> None:
    from dataclasses import replace

    space = workspace(ctx)
    # --all: each session once, however many copies of its file there are.
    chosen = every_session(ctx) if all_sessions else [storage.load(space.path(ref), space.cache)]
    tables: dict[str, list[tuple[Any, ...]]] = {"sessions": [], "players": [], "events": [],
                                                 "results": []}  # fmt: skip
    for loaded in chosen:
        engine = loaded.session.engine
        # Keyed by the file's name, unique in the data folder (two files may share a `name`);
        # the path is the file's name only: an export carries no home folder.
        session = replace(loaded.session, name=loaded.path.stem)
        found = history.sqlite_rows(
            session, loaded.path.name, engine.outcome(loaded.state), loaded.state
        )
        for table, rows in found.items():
            tables[table] += rows
    storage.write_sqlite(out, history.SQLITE_SCHEMA, tables, force=force)


def import_session(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A JSON export.")],
    name: NameOpt = None,
    as_copy: Annotated[
        bool, typer.Option("--as-copy", help="Import a session that is here already, anew.")
    ] = False,
) -> None:
    """Import a JSON export.

    It becomes a new session that replays to the same state; a file that does not replay is
    refused with the event number, and nothing is written. A session already in the data
    folder (the same id) is refused unless --as-copy gives it a new id.
    """
    import json
    from dataclasses import replace

    from referee.session import new_id

    raw = storage.read_bytes(file, "JSON export")
    where = storage.shown(file)
    try:
        doc = history.session_doc_of(json.loads(raw))
    except (ValueError, RecursionError) as error:
        raise StorageError(f"{where}: not a referee export: {str(error)[:80]}") from None
    session = storage.session_from_export(dict(doc), where)
    try:
        state = replay(session)
    except RefereeError as error:
        raise StorageError(f"{where}, {error}") from None
    space = workspace(ctx)
    if as_copy:
        session = replace(session, id=new_id())
    else:  # an export from before ids carries its derived id, as its file does
        for path in storage.session_files(space.home):
            try:
                held = storage.read_bytes(path, "session file")
                here = storage.parse_session(path, held, storage.digest_of(held)).session.id
            except RefereeError:
                continue  # an unreadable file holds no session to collide with
            if here == session.id:
                raise UsageError(
                    f"{printable(file.name)} is already here as {path.stem}:"
                    " add --as-copy to import it again as another session"
                )
    new_name = check_session_name(name or session.name or "imported")
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
    parsed: list[storage.Loaded] = []
    raws: dict[Path, bytes] = {}
    for path in storage.session_files(space.home):
        try:
            raw = storage.read_bytes(path, "session file")
            # Always parsed from the file: a kept summary is only used when it agrees with it.
            parsed.append(storage.parse_session(path, raw, storage.digest_of(raw)))
        except RefereeError as error:
            output.warning_line(f"skipped {path.name}: {error}")
            continue
        raws[path] = raw
    fresh: dict[str, Any] = {}
    found = []
    for one in storage.unique_sessions(parsed, skip_copy):  # a hand copy counts once
        path = one.path
        entry = old.get(str(path))
        summary = None
        if isinstance(entry, dict) and entry.get("digest") == one.digest:
            try:
                summary = history.Summary.from_plain(entry.get("summary"))
            except ValueError:
                summary = None
        if summary is not None and not summary.agrees_with(one.session):
            summary = None  # planted or stale: rebuilt below
        if summary is None:
            try:
                summary = history.summarise(storage.load_bytes(path, raws[path]).session)
            except RefereeError as error:
                output.warning_line(f"skipped {path.name}: {error}")
                continue
        fresh[str(path)] = {"digest": one.digest, "summary": summary.to_plain()}
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
    path = storage.locate(space.home, name)  # a link is deleted as a link
    storage.read_bytes(storage.follow_links(path), "session file")
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"delete {path.stem}? not at a terminal: add --yes")
        if not typer.confirm(f"delete {path.stem} for good?", default=False):
            raise typer.Abort()
    real = storage.follow_links(path)
    if storage.remove_session(space.home, path):
        output.print_text(f"deleted the link {path.stem}; {storage.shown(real)} is kept")
        return
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
