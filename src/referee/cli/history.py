"""The night's history: `export`, `import`, `stats`, `delete`, `rename` (every game alike)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
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
    if format is Format.SQLITE:
        if out is None:
            raise UsageError("sqlite is a binary file: give -o FILE")
        _export_sqlite(ctx, out, force, all_sessions, session)
        output.print_text(f"exported to {out}")
        return
    if all_sessions:
        raise UsageError("--all goes with --format sqlite")
    loaded = open_session(ctx, session)
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
    space = workspace(ctx)
    if not all_sessions:  # one session: read before anything is written, as every command
        path = storage.follow_links(space.path(ref))
        one = history.with_path(_session_rows(space.cache, path), str(path))
        storage.write_sqlite(out, history.SQLITE_SCHEMA, [one], force=force)
        return

    def every() -> Iterator[dict[str, list[tuple[Any, ...]]]]:
        for path in storage.session_files(space.home):
            path = storage.follow_links(path)
            try:
                found = _session_rows(space.cache, path)
            except RefereeError as error:
                output.warning_line(f"skipped {path.name}: {error}")
                continue
            yield history.with_path(found, str(path))

    storage.write_sqlite(out, history.SQLITE_SCHEMA, every(), force=force)


def _session_rows(cache: storage.Cache, path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """A session's export rows: kept for exactly its bytes and this code, else one replay
    (and then kept)."""
    raw = storage.read_bytes(path, "session file")
    digest = storage.digest_of(raw)
    found = cache.get_rows(path, digest)
    if found is None:
        session, after = storage.decode_states(path, raw)
        found = history.sqlite_rows(session, after)
        cache.put_rows(path, digest, found)
    return found


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
    """Every session's summary (a file that fails to load is skipped, with a line)."""
    space = workspace(ctx)
    found, skipped = summaries(space.home, space.cache, workers=_cores())
    for line in skipped:
        output.warning_line(line)
    return found


PARALLEL_FROM = 64  # sessions to replay before the cores are worth starting
PROGRESS_FROM = 20  # sessions to replay before a bar is worth drawing


def summaries(
    home: storage.Home, cache: storage.Cache, *, workers: int = 1
) -> tuple[list[history.Summary], list[str]]:
    """Every session's summary, in the order of their files, and a line for each file skipped.

    A summary is kept for the file's exact bytes and this code (RELIABILITY 9), so only new or
    changed files are replayed; with many to replay and `workers` > 1, a pool of processes
    shares them out (the result is the same as one process's, in the same order).
    """
    key = storage.code_digest()
    kept = cache.read_document("stats")
    old: dict[str, Any] = (
        kept.get("entries", {}) if isinstance(kept, dict) and kept.get("code") == key else {}
    )
    paths = storage.session_files(home)
    outcome: list[tuple[str, history.Summary] | str] = []
    missed: list[int] = []
    for path in paths:
        entry = old.get(str(path))
        summary = None
        try:
            digest = storage.digest_of(storage.read_bytes(path, "session file"))
        except RefereeError as error:
            outcome.append(f"skipped {path.name}: {error}")
            continue
        if isinstance(entry, dict) and entry.get("digest") == digest:
            try:
                summary = history.Summary.from_plain(entry.get("summary"))
            except ValueError:
                summary = None
        if summary is None:
            missed.append(len(outcome))
            outcome.append(str(path))  # replaced below by its summary or its skip line
        else:
            outcome.append((digest, summary))
    todo = [Path(str(outcome[k])) for k in missed]
    for k, made in zip(missed, _replay_all(todo, workers), strict=True):
        outcome[k] = made
    fresh: dict[str, Any] = {}
    found, skipped = [], []
    for path, made in zip(paths, outcome, strict=True):
        if isinstance(made, str):
            skipped.append(made)
            continue
        digest, summary = made
        fresh[str(path)] = {"digest": digest, "summary": summary.to_plain()}
        found.append(summary)
    if fresh != old:
        cache.write_document("stats", {"code": key, "entries": fresh})
    return found, skipped


def _replay_all(paths: list[Path], workers: int) -> Iterator[tuple[str, history.Summary] | str]:
    """`summary_of` each file, in order: in a pool of processes when there are many."""
    bar = Progress(len(paths))
    try:
        if workers > 1 and len(paths) >= PARALLEL_FROM:
            import multiprocessing

            chunk = max(1, min(50, len(paths) // (workers * 8)))
            with multiprocessing.get_context().Pool(workers) as pool:
                for done, made in enumerate(pool.imap(summary_of, paths, chunk), 1):
                    bar.show(done)
                    yield made
        else:
            for done, path in enumerate(paths, 1):
                made = summary_of(path)
                bar.show(done)
                yield made
    finally:
        bar.close()


def summary_of(path: Path) -> tuple[str, history.Summary] | str:
    """(digest of the bytes read, their summary) of one file by one replay, or its skip line."""
    try:
        raw = storage.read_bytes(path, "session file")
        session, after = storage.decode_states(path, raw)
        return storage.digest_of(raw), history.summarise(session, after)
    except RefereeError as error:
        return f"skipped {path.name}: {error}"


def _cores() -> int:
    """How many processes a cold stats may use (the cores this process may run on)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Progress:
    """A one-line bar on stderr while stats replay many sessions, only at a terminal (a pipe
    or a file gets nothing), erased when done so the answer prints as it always does."""

    WIDTH = 39  # one short of the 40 columns: the cursor never wraps

    def __init__(self, total: int) -> None:
        self.total = total
        self.on = total >= PROGRESS_FROM and sys.stderr.isatty()
        self.last = -1

    def line(self, done: int) -> str:
        """The bar after `done` of the sessions."""
        label = f"replaying {done}/{self.total} "
        room = max(4, self.WIDTH - len(label) - 2)
        filled = room * done // max(1, self.total)
        return f"{label}[{'#' * filled}{'.' * (room - filled)}]"

    def show(self, done: int) -> None:
        """Redraw when the bar has moved (a hundred redraws at most)."""
        step = done * 100 // max(1, self.total)
        if self.on and step != self.last:
            self.last = step
            sys.stderr.write("\r" + self.line(done))
            sys.stderr.flush()

    def close(self) -> None:
        """Erase the bar."""
        if self.on and self.last >= 0:
            sys.stderr.write("\r" + " " * self.WIDTH + "\r")
            sys.stderr.flush()


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
