"""The night's history: `export`, `import`, `stats`, `delete`, `rename` (every game alike)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

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
from referee.errors import RefereeError, StorageError, UsageError, quote
from referee.games.money import show
from referee.night import night_of_each
from referee.session import Session, check_session_name, initial, replay
from referee.text import as_typed, is_same_name, printable

if TYPE_CHECKING:
    import multiprocessing.pool

    from referee.night import Night


class Format(Enum):
    """What `export` writes."""

    CSV = "csv"
    JSON = "json"
    MD = "md"
    HTML = "html"
    SVG = "svg"
    PNG = "png"
    SQLITE = "sqlite"
    BGSTATS = "bgstats"


def export(
    ctx: typer.Context,
    format: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="csv, json, md, html, svg, png, sqlite or bgstats.",
        ),
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
    scores: Annotated[
        bool, typer.Option("--scores", help="csv: one player,score row a player an event.")
    ] = False,
    link: Annotated[
        bool, typer.Option("--link", help="bgstats: the link that opens BG Stats with it.")
    ] = False,
    session: SessionOpt = None,
) -> None:
    """Export a session.

    As CSV rows, JSON (which 'import' reads back), a Markdown report, the share card as a
    page (html), a picture (svg, or png with the png extra), with sqlite (and --all, every
    session) a database, or a finished session as a BG Stats play (bgstats; --link: the link
    that opens it in the app).
    """
    to_stdout = out is not None and str(out) == storage.STDOUT  # `-o -`
    if link and format is not Format.BGSTATS:
        raise UsageError("--link goes with --format bgstats")
    if format is Format.SQLITE:
        if out is None:
            raise UsageError("sqlite is a binary file: give -o FILE (or -o - for stdout)")
        _export_sqlite(ctx, out, force, all_sessions, session)
        if not to_stdout:
            output.print_text(f"exported to {out}")
        return
    if all_sessions:
        raise UsageError("--all goes with --format sqlite")
    if scores and format is not Format.CSV:
        raise UsageError("--scores goes with --format csv")
    loaded = open_session(ctx, session)
    if format is Format.PNG:
        if out is None or to_stdout:
            raise UsageError("png is a binary file: give -o FILE")
        from referee.render.share import share_card
        from referee.render.share_png import png

        card = share_card(
            loaded.session, loaded.state, _night_of(ctx, loaded), _season_of(ctx, loaded)
        )
        storage.write_new(out, png(card), force=force)
        output.print_text(f"exported to {out}")
        return
    night = _night_of(ctx, loaded) if format in (Format.HTML, Format.SVG) else ""
    season = _season_of(ctx, loaded) if format in (Format.HTML, Format.SVG, Format.MD) else ()
    if scores:
        text = history.csv_text(loaded.session, scores=True)
    elif format is Format.BGSTATS:
        text = _bgstats(loaded, link)  # a session without a result is refused before any write
    else:
        text = _render(loaded, format, night, season)
    if out is None or to_stdout:
        output.write_utf8(output_safe(text, format))
        return
    storage.write_new(out, text.encode("utf-8"), force=force)
    output.print_text(f"exported to {out}")


def output_safe(text: str, format: Format) -> str:
    """Text formats printed to a terminal: never a raw control character (and CSV's CRLF line
    ends as plain line ends there, not a `\\x0d` at the end of every row)."""
    from referee.text import printable

    if not sys.stdout.isatty():
        return text
    return printable(text.replace("\r\n", "\n"), keep_newlines=True)


def _night_of(ctx: typer.Context, loaded: storage.Loaded) -> str:
    """The night a session was part of, for its share card ("" for none)."""
    found, _ = storage.night_of(workspace(ctx).home, loaded.session.id)
    return found or ""


def _season_of(ctx: typer.Context, loaded: storage.Loaded) -> tuple[str, ...]:
    """The newest season (by when it was made) the session counts in, as its share card shows
    it: its name and its top five (none: no season counts it). A season file that cannot be
    read is passed over with a warning line."""
    from referee.league import standings
    from referee.render.season import share_lines

    space = workspace(ctx)
    if not storage.season_files(space.home):  # no season: no replay of every session
        return ()
    found, unreadable = storage.every_season(space.home)
    for line in unreadable:
        output.warning_line(line)
    own = history.summarise(loaded.session)
    counting = [s.season for s in found if s.season.counts(own)]
    if not counting:
        return ()
    season = max(counting, key=lambda s: (s.created, s.name))
    table, _ = standings(season, every_summary(ctx))
    return share_lines(season, table)


def _render(
    loaded: storage.Loaded, format: Format, night: str = "", season: tuple[str, ...] = ()
) -> str:
    session, state = loaded.session, loaded.state
    engine = session.engine
    match format:
        case Format.CSV:
            return history.csv_text(session)
        case Format.JSON:
            from referee.cli.acting import money_doc

            summary = engine.summary(state) | {"session": session.name}
            summary["money"] = money_doc(session, state)
            return history.json_document(session, storage.session_to_doc(session), summary)
        case Format.MD:
            from referee.render import share

            return history.markdown(
                session,
                engine.outcome(state),
                share.text_card(session, state, 60),
                _money(session, state),
                season,
            )
        case Format.HTML | Format.SVG:
            from referee.render import share

            card = share.share_card(session, state, night, season)
            return share.svg(card) if format is Format.SVG else share.page(card)
    raise AssertionError(format)  # pragma: no cover - sqlite, png, bgstats: written elsewhere


def _bgstats(loaded: storage.Loaded, link: bool) -> str:
    """The BG Stats play of a finished session: its JSON, or with `link` its link (a line)."""
    from referee import bgstats

    found = bgstats.play_of(loaded.session)
    return bgstats.link(found) + "\n" if link else bgstats.document(found)


def _export_sqlite(
    ctx: typer.Context, out: Path, force: bool, all_sessions: bool, ref: str | None
) -> None:
    space = workspace(ctx)
    nights, unreadable = storage.every_night(space.home)
    night_of = night_of_each(nights)
    if not all_sessions:  # one session: read before anything is written, as every command
        path = storage.follow_links(space.path(ref))
        rows = _session_rows(space.cache, path)
        ident = rows["sessions"][0][0]
        # its night with it (a session names only a night that is in the file), and no other
        its = [n for n in nights if n.name == night_of.get(ident)]
        one = history.with_path(rows, _data_path(space.home, path), night_of.get(ident))
        for line in unreadable:
            output.warning_line(line)
        parts = [history.night_rows(its), one]
        storage.write_sqlite(out, history.SQLITE_SCHEMA, parts, force=force)
        return
    from referee.league import season_rows

    seasons, unreadable_seasons = storage.every_season(space.home)
    counted = every_summary(ctx) if seasons else []  # before anything is written
    unreadable = [*unreadable, *unreadable_seasons]
    # each identity once (as every_session keeps it), oldest first: the same nights give the
    # same file. A first pass reads what orders and counts each session (a few facts from its
    # file's head, or from its replay when no rows are kept for it); the rows are then read
    # one session at a time, so memory holds one session's rows however many there are.
    found, skipped = export_order(space.home, space.cache, workers=_cores())
    for line in [*unreadable, *skipped]:
        output.warning_line(line)

    def every() -> Iterator[dict[str, list[tuple[Any, ...]]]]:
        yield history.night_rows(nights)  # first: the sessions name them
        for path in found:
            try:
                rows = _session_rows(space.cache, path)
            except RefereeError as error:  # changed since the first pass read it
                output.warning_line(f"skipped {path.name}: {error}")
                continue
            night = night_of.get(rows["sessions"][0][0])
            yield history.with_path(rows, _data_path(space.home, path), night)
        yield season_rows((s.season for s in seasons), counted)  # last: they name no session

    storage.write_sqlite(out, history.SQLITE_SCHEMA, every(), force=force)


class Placed(NamedTuple):
    """What an export orders and counts a session file by."""

    path: Path
    id: str
    created: str
    updated: str
    events: int
    game: str
    players: tuple[str, ...]

    @property
    def played(self) -> str:
        """When the session was played (`history.Summary.played`)."""
        return self.created or self.updated


def export_order(
    home: storage.Home, cache: storage.Cache, *, workers: int = 1
) -> tuple[list[Path], list[str]]:
    """The session files an export writes, in its order (each identity once: of copies the one
    with the most events, then the one saved first, then by its file's name; oldest first),
    and a line for each file skipped (in the order of the files).

    A file whose rows are kept for its bytes is placed by the facts of its head (no replay, no
    summary); the others are replayed (over the cores when there are many) and their rows
    kept. Nothing but these few facts a file is held, so memory does not grow with the
    sessions' summaries.
    """
    paths = storage.session_files(home)
    outcome: list[Placed | str | None] = []
    missed: list[int] = []
    for path in paths:
        try:
            raw = storage.read_bytes(path, "session file")
        except RefereeError as error:
            outcome.append(f"skipped {path.name}: {error}")
            continue
        if cache.has_rows(path, storage.digest_of(raw)):
            try:
                facts = storage.session_facts(path, raw)
            except RefereeError:
                pass  # kept rows of a file that does not parse: its replay says why
            else:
                outcome.append(
                    Placed(
                        path,
                        facts.id,
                        facts.created,
                        facts.updated,
                        facts.events,
                        facts.game,
                        tuple(facts.players),
                    )
                )
                continue
        missed.append(len(outcome))
        outcome.append(None)  # placed below from its replay, or its skip line
    replayed = _replay_all([paths[k] for k in missed], workers, cache)
    for k, made in zip(missed, replayed, strict=True):
        done = made if isinstance(made, str) else made[1]
        outcome[k] = done if isinstance(done, str) else Placed(
            paths[k], done.id, done.created, done.updated, done.events, done.game,
            tuple(done.players))  # fmt: skip
    placed = [p for p in outcome if isinstance(p, Placed)]
    chosen = history.unique_by_id(  # of copies, the one with the most events (`league.once`)
        placed,
        lambda p: (p.id, p.game, *p.players),
        lambda p: (-p.events, history.utc(p.updated), len(p.path.name), p.path.name),
    )
    chosen.sort(key=lambda p: (p.played, p.id))
    return [p.path for p in chosen], [line for line in outcome if isinstance(line, str)]


def _session_rows(cache: storage.Cache, path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """A session's export rows (without its path): kept for exactly its bytes and this code,
    else one replay (and then kept)."""
    raw = storage.read_bytes(path, "session file")
    digest = storage.digest_of(raw)
    found = cache.get_rows(path, digest)
    if found is None:
        session, after = storage.decode_states(path, raw)
        found = _rows_of(session, history.summarise(session, after), after)
        cache.put_rows(path, digest, found)
    return found


def _rows_of(
    session: Session, summary: history.Summary, after: list[Any]
) -> dict[str, list[tuple[Any, ...]]]:
    """A session's export rows (without its path), from the state after each event."""
    final = after[-1] if after else initial(session)
    return history.sqlite_rows(session, None, summary, final, after)


def _data_path(home: storage.Home, path: Path) -> str:
    """A session file's path relative to the data folder (a file outside it: its name only,
    so a shared database never shows where anyone keeps his files)."""
    try:
        return path.resolve().relative_to(home.root.resolve()).as_posix()
    except (OSError, ValueError):
        return path.name


def import_session(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A JSON export.")],
    name: NameOpt = None,
    as_copy: Annotated[
        bool,
        typer.Option("--as-copy", help="Import a session that is here already as a copy."),
    ] = False,
) -> None:
    """Import a JSON export.

    It becomes a new session that replays to the same state; a file that does not replay is
    refused with the event number, and nothing is written. A session already in the data
    folder (the same id) is refused unless --as-copy: then it is a copy, another file of the
    same session, and counts once in stats, ratings and seasons (the finished file with the
    most events counts; sessions names the other a copy).
    """
    import json
    from dataclasses import replace

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
    if not as_copy:  # an export from before ids carries its derived id, as its file does
        for path in storage.session_files(space.home):
            try:
                held = storage.read_bytes(path, "session file")
                here = storage.parse_session(path, held, storage.digest_of(held)).session.id
            except RefereeError:
                continue  # an unreadable file holds no session to collide with
            if here == session.id:
                raise UsageError(
                    f"{printable(file.name)} is already here as {path.stem}:"
                    " add --as-copy to import it again as a copy (it counts once)"
                )
    new_name = check_session_name(name or session.name or "imported")
    if as_copy and name is None:  # the original keeps its name: the copy says what it is
        new_name = _free_name(space.home, f"{new_name[:40]}-copy")
    session = replace(session, name=new_name)
    path = space.home.session_path(new_name)
    storage.create(path, session, state, keep_created=True)
    from referee.league import session_pool

    output.print_text(f"imported {file.name} as {new_name} ({session_pool(session)})")


def _free_name(home: storage.Home, base: str) -> str:
    """`base`, else `base-2`, `base-3` ... : the first name no session file has."""
    import os

    found, n = base, 1
    while os.path.lexists(home.session_path(found)):
        n += 1
        found = f"{base}-{n}"
    return check_session_name(found)


def stats(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Option(
            metavar="GAME", help="Only this game or variant (perudo).", show_default=False
        ),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Only sessions under this ruleset.", show_default=False),
    ] = None,
    player: Annotated[
        str | None, typer.Option(metavar="PLAYER", help="This player's page.", show_default=False)
    ] = None,
    versus: Annotated[
        tuple[str, str] | None,
        typer.Option("--vs", metavar="A B", help="Head to head: two players.", show_default=False),
    ] = None,
    first: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="DATE",
            help="Only sessions from DATE on (2026-11-01).",
            show_default=False,
        ),
    ] = None,
    last: Annotated[
        str | None,
        typer.Option("--to", metavar="DATE", help="Only sessions up to DATE.", show_default=False),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(metavar="DATE", help="The same as --from.", show_default=False),
    ] = None,
    money: Annotated[
        bool,
        typer.Option("--money", help="Who paid whom each settled night; each one's money."),
    ] = False,
    whole: Annotated[
        bool,
        typer.Option("--all", help="The whole report: every player, board, month and count."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Stats across sessions.

    One screen: the leaders of each game, the latest nights, the totals and hours played.
    --player P: that player's page (places, streaks, the last 10 results: W won, L lost, - no
    result; ratings, money, hours, rival, nemesis, favourite game); --vs A B: head to head;
    --money: who paid whom each settled night, and what each player paid, won and netted; --all:
    every player, board, month and count. --game, --from and --to choose the sessions.
    """
    since, until = _days(since, first, last)  # a bad date before any file is read
    summaries = every_summary(ctx)
    filters = _filters(summaries, game, ruleset, player, since, until)
    pair = _pair(summaries, versus) if versus else ()
    nights: list[Night] = []
    if money or json_out:  # the plain screen shows no night: it reads none
        nights, unreadable = storage.every_night(workspace(ctx).home)
        for line in unreadable:
            output.warning_line(line)
    doc = history.stats(summaries, filters, pair, nights)
    if json_out:
        output.print_json(doc)
    elif money:
        output.print_wrapped(_money_text(doc, filters))
    elif whole:
        output.print_wrapped(_stats_text(doc, filters.player))
    else:
        shown = _versus_lines(doc["versus"]) if pair else []
        if filters.player is not None:
            shown += [""] * bool(shown) + _player_page(doc, filters, summaries)
        elif not pair:
            shown = _front_lines(doc, filters)
        output.print_text("\n".join(shown))


def _pair(summaries: list[history.Summary], versus: tuple[str, str]) -> tuple[str, str]:
    """The two players `--vs A B` names (in any case, each as his latest session spells him),
    or `UsageError`: an unknown name, or one player twice."""
    from referee.league import key

    names = list(history.spellings(history.chosen(summaries, history.Filters())).values())
    a, b = (history.match_player(n, names) for n in versus)
    if key(a) == key(b):
        raise UsageError(
            f"--vs {quote(versus[0])} {quote(versus[1])} names {a} twice:"
            " give two players (--vs Ann Bob)"
        )
    return a, b


def _days(since: str | None, first: str | None, last: str | None) -> tuple[str | None, str | None]:
    """The first and the last local day counted, as typed: `--since` and `--from` are one
    option, given once; the last day is not before the first."""
    if since is not None and first is not None:
        raise UsageError("--since and --from are the same option: give one")
    option = "--since" if since is not None else "--from"
    typed = since if since is not None else first
    start = history.parse_day(typed, option) if typed is not None else None
    end = history.parse_day(last, "--to") if last is not None else None
    if start is not None and end is not None and end < start:
        raise UsageError(f"--to {end} is before {option} {start}: give the first day first")
    return start, end


def _filters(
    summaries: list[history.Summary],
    game: str | None, ruleset: str | None, player: str | None,
    since: str | None = None, until: str | None = None,
) -> history.Filters:  # fmt: skip
    """The typed filters, each checked: an unknown player or ruleset is exit 2 with a hint."""
    known = sorted({s.ruleset for s in summaries} | set(storage.ruleset_names()))
    wanted_game = wanted_ruleset = None
    if game is not None:
        if game.strip().lower() in games.BY_NAME:
            wanted_game = games.canonical(game)
        elif game.strip().lower() in known:  # a variant's name: `--game perudo`
            wanted_ruleset = game.strip().lower()
        else:
            games.info(game)  # refuses, listing the games
    if ruleset is not None:
        if ruleset not in known:
            from referee.text import pick

            ruleset = pick(ruleset, [(k, k) for k in known], "ruleset")
        wanted_ruleset = ruleset
    names = list(history.spellings(history.chosen(summaries, history.Filters())).values())
    return history.Filters(
        game=wanted_game,
        ruleset=wanted_ruleset,
        player=history.match_player(player, names) if player is not None else None,
        since=since,
        until=until,
    )


def every_summary(ctx: typer.Context) -> list[history.Summary]:
    """Every session's summary (a file that fails to load is skipped, with a line)."""
    space = workspace(ctx)
    found, skipped = summaries(space.home, space.cache, workers=_cores())
    for line in skipped:
        output.warning_line(line)
    return [summary for _, summary in found]


PARALLEL_FROM = 64  # sessions to replay before the cores are worth starting
PROGRESS_FROM = 20  # sessions to replay before a bar is worth drawing


def summaries(
    home: storage.Home, cache: storage.Cache, *, workers: int = 1
) -> tuple[list[tuple[Path, history.Summary]], list[str]]:
    """Every session's file and summary, in the order of their files, and a line for each file
    skipped.

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
    outcome: list[Made] = []
    missed: list[int] = []
    same: dict[str, Any] = {}  # the kept entries served as they are
    for path in paths:
        entry = old.get(str(path))
        summary: history.Summary | str | None = None
        try:
            raw = storage.read_bytes(path, "session file")
            digest = storage.digest_of(raw)
        except RefereeError as error:
            outcome.append(f"skipped {path.name}: {error}")
            continue
        if isinstance(entry, dict) and entry.get("digest") == digest:
            summary = _agreeing(_kept(entry), path, raw)
        if summary is None:
            missed.append(len(outcome))
            outcome.append(str(path))  # replaced below by its summary or its skip line
        else:
            outcome.append((digest, summary))
            if isinstance(entry, dict) and not isinstance(summary, str) and len(entry) == 2:
                same[str(path)] = entry  # kept as it is (no second copy to compare)
    todo = [Path(str(outcome[k])) for k in missed]
    replayed = _replay_all(todo, workers, None)
    for k, made in zip(missed, replayed, strict=True):
        outcome[k] = made
    fresh: dict[str, Any] = {}
    found: list[tuple[Path, history.Summary]] = []
    skipped: list[str] = []
    for path, made in zip(paths, outcome, strict=True):
        if isinstance(made, str):  # a file that could not be read: nothing to keep
            skipped.append(made)
            continue
        digest, done = made
        if isinstance(done, str):  # a file that does not load: kept too, so not replayed again
            fresh[str(path)] = {"digest": digest, "skipped": done}
            skipped.append(done)
            continue
        name = str(path)
        fresh[name] = same.get(name) or {"digest": digest, "summary": done.to_plain()}
        found.append((path, done))
    if fresh != old:
        cache.write_document("stats", {"code": key, "entries": fresh})
    return found, skipped


# One file's outcome: (digest of the bytes read, their summary or the line saying why they do
# not load), or the line saying why the file could not be read.
Made = tuple[str, history.Summary | str] | str


def _agreeing(
    kept: history.Summary | str | None, path: Path, raw: bytes
) -> history.Summary | str | None:
    """What a kept entry may stand for, checked against the file's bytes now (issue 18: a
    planted or stale entry is rebuilt, never shown): a summary only if it agrees with the
    file's facts (read straight from a file in the layout referee writes, else parsed); a skip
    only if the file still does not parse (then with today's reason); None: replay it."""
    if kept is None:
        return None
    try:
        facts = storage.session_facts(path, raw)
    except RefereeError as error:
        return f"skipped {path.name}: {error}" if isinstance(kept, str) else None
    if isinstance(kept, str):
        return None  # it parses: whatever kept it out is for a replay to say
    return kept if kept.agrees(facts.id, facts.game, facts.players, facts.events) else None


def _kept(entry: dict[str, Any]) -> history.Summary | str | None:
    """What a stats entry whose digest matched holds: a summary, a skip line, or None (broken:
    replay)."""
    if isinstance(entry.get("skipped"), str) and entry["skipped"].startswith("skipped "):
        return str(entry["skipped"])
    try:
        return history.Summary.from_plain(entry.get("summary"))
    except ValueError:
        return None


def _replay_all(paths: list[Path], workers: int, rows: storage.Cache | None) -> Iterator[Made]:
    """`summary_of` each file, in order: in a pool of processes when there are many."""
    import functools

    one = functools.partial(summary_of, rows=rows)
    bar = Progress(len(paths))
    try:
        pool = _pool(workers) if workers > 1 and len(paths) >= PARALLEL_FROM else None
        if pool is not None:
            chunk = max(1, min(50, len(paths) // (workers * 8)))
            with pool:
                for done, made in enumerate(pool.imap(one, paths, chunk), 1):
                    bar.show(done)
                    yield made
        else:
            for done, path in enumerate(paths, 1):
                made = one(path)
                bar.show(done)
                yield made
    finally:
        bar.close()


def _pool(workers: int) -> multiprocessing.pool.Pool | None:
    """A pool of `workers` processes, or None where none can start: Android has no
    `sem_open` (importing `multiprocessing.synchronize` fails), a sandbox may refuse the
    processes or the pipes; then the files are replayed in this one process."""
    try:
        import multiprocessing

        return multiprocessing.get_context().Pool(workers)
    except (ImportError, OSError, NotImplementedError, ValueError):
        return None


def summary_of(path: Path, rows: storage.Cache | None = None) -> Made:
    """(digest of the bytes read, their summary by one replay or the line saying why they do
    not load), or the line saying why the file could not be read; with `rows`, the file's
    export rows are kept there too (from the same replay)."""
    try:
        raw = storage.read_bytes(path, "session file")
    except RefereeError as error:
        return f"skipped {path.name}: {error}"
    digest = storage.digest_of(raw)
    try:
        session, after = storage.decode_states(path, raw)
        summary = history.summarise(session, after)
    except RefereeError as error:
        return digest, f"skipped {path.name}: {error}"
    if rows is not None:
        rows.put_rows(path, digest, _rows_of(session, summary, after))
    return digest, summary


def _cores() -> int:
    """How many processes a cold stats may use (the cores this process may run on)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Progress:
    """A one-line bar on stderr while stats replay many sessions (`rich.progress`), only at a
    terminal (a pipe or a file gets nothing), erased when done so the answer prints as it
    always does."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.last = -1
        self.bar: Any = None
        if total >= PROGRESS_FROM and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
            from rich.progress import Progress as Bar

            # Redrawn by `show` alone: no refresh thread while the pool forks its workers.
            self.bar = Bar(
                TextColumn("replaying"),
                MofNCompleteColumn(),
                BarColumn(bar_width=None),
                console=Console(file=sys.stderr, highlight=False, emoji=False),
                auto_refresh=False,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self.task = self.bar.add_task("", total=total)

    def show(self, done: int) -> None:
        """Redraw when the bar has moved (a hundred redraws at most)."""
        step = done * 100 // max(1, self.total)
        if self.bar is not None and step != self.last:
            if self.last < 0:
                self.bar.start()
            self.last = step
            self.bar.update(self.task, completed=done, refresh=True)

    def close(self) -> None:
        """Erase the bar."""
        if self.bar is not None and self.last >= 0:
            self.bar.stop()


MONTHS_SHOWN = 12  # the text chart: the last year (JSON has every month)


def _stats_text(doc: dict[str, Any], player: str | None) -> str:
    from referee.render.cells import cut, ljust

    if not doc["players"]:
        return "no sessions to count yet"
    span = f"{doc['first_played']} to {doc['last_played']}" if doc["first_played"] else ""
    count = doc["sessions"]
    lines = [f"{count} session{'s' * (count != 1)}" + (f", {span}" if span else "")]
    if player is not None:
        lines += _player_lines(doc, doc["players"][0])
    else:
        lines.append("player       games wins rate form")
        for row in doc["players"]:
            lines.append(
                f"{ljust(cut(row['name'], 12, '…'), 12)} {row['games']:>5} {row['wins']:>4} "
                f"{_percent(row['win_rate']):>4} {row['form']}"
            )
        nets = [f"{n} {_signed(m['net'])}" for n, m in doc["money"]["totals"].items()]
        if nets:
            lines.append("money (net): " + ", ".join(nets))
        lines.append("leaderboards (wins/games):")
        for ruleset, board in doc["leaderboards"].items():
            top = [f"{r['name']} {r['wins']}/{r['games']}" for r in board[:5]]
            if len(board) > 5:  # the rest are in `--game` and `--json`: never dropped unsaid
                top.append(f"and {len(board) - 5} more")
            lines.append(f"  {ruleset}: " + ", ".join(top))
    if len(doc["months"]) > 0:
        lines.append("plays per month:")
        shown = doc["months"][-MONTHS_SHOWN:]
        lines += history.bar_chart([(m["month"], m["sessions"]) for m in shown])
    for game, by_player in doc["games"].items():
        lines.append(f"{game}:")
        for who, keys in by_player.items():
            parts = [_tally_part(k, v) for k, v in keys.items()]
            if parts:
                lines.append(f"  {who}: " + ", ".join(parts))
    if "versus" in doc:  # asked for: first
        lines = [_versus_line(doc["versus"]), *lines]
    return "\n".join(lines)


WIDE = 40  # the phone's columns: every line of the first screen and the pages fits
POOLS_SHOWN = 7  # leader lines on the first screen (one more says how many are left)
NIGHTS_SHOWN = 3  # the latest nights on the first screen
MORE = ("  stats --player NAME  stats --vs A B", "  stats --game G       stats --money",
        "  stats --all          ratings")  # fmt: skip


def _name(name: str, room: int) -> str:
    """A player's name as a screen shows it: printable, cut to `room` cells with `…`."""
    from referee.render.cells import cut

    return cut(printable(name), room, "…")


def _fits(lines: list[str]) -> list[str]:
    """Lines wrapped at words to the phone's 40 columns (a count too wide for one line)."""
    from referee.render.cells import wrap_words

    return [part for line in lines for part in wrap_words(line, WIDE, "  ")]


def _joined(head: str, items: list[tuple[str, str]], *, more: bool = True) -> str:
    """`head` and as many of `items` (a name and what follows it: `("Ann", " 3/5")`) as fit in
    40 columns, `, `-joined, each name printable and cut to 12 cells (names cut alike keep the
    ends that tell them apart); with `more`, those left over are counted (`+2 more`), never
    dropped unsaid. The first is always there, its name cut shorter if need be."""
    from referee.render.cells import cut, cut_apart, width_of

    names = cut_apart([printable(name) for name, _ in items], 12)
    parts = [name + tail for name, (_, tail) in zip(names, items, strict=True)]
    if width_of(head + ", ".join(parts)) <= WIDE:
        return head + ", ".join(parts)
    shown: list[str] = []
    for k, part in enumerate(parts):
        left = len(parts) - k - 1
        rest = [f"+{left} more"] if left and more else []
        if width_of(head + ", ".join([*shown, part, *rest])) <= WIDE:
            shown.append(part)
            continue
        if shown:
            return head + ", ".join([*shown, f"+{len(parts) - k} more"] if more else shown)
        # the first, cut to fit with what is said after it
        room = WIDE - width_of(head + items[0][1] + "".join(", " + r for r in rest))
        shown.append(cut(names[0], max(1, room), "…") + items[0][1])
    return head + ", ".join(shown)


def _hours(minutes: int) -> str:
    """Minutes played as a person reads them: `45m`, `5h20`."""
    hours, mins = divmod(minutes, 60)
    return f"{hours}h{mins:02d}" if hours else f"{mins}m"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def _front_lines(doc: dict[str, Any], filters: history.Filters) -> list[str]:
    """The first screen, at most 24 lines of 40 columns whatever the data folder holds: the
    totals, the leaders of each game (by wins), the latest nights, and the commands for more.
    """
    from referee import league

    if not doc["players"]:
        chosen = filters != history.Filters()
        return ["no sessions chosen" if chosen else "no sessions to count yet"]
    span = f"{doc['first_played']} to {doc['last_played']}, " if doc["first_played"] else ""
    lines = _fits([
        f"{_plural(doc['sessions'], 'session')}, {_plural(len(doc['bar_nights']), 'night')},"
        f" {_plural(len(doc['players']), 'player')}",
        f"{span}{_hours(doc['minutes'])} played",
    ])  # fmt: skip
    order = {name: k for k, name in enumerate(league.pools())}
    pools = sorted(doc["pools"].items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
    lines += ["", "leaders (wins/games):"]
    shown = pools if len(pools) <= POOLS_SHOWN else pools[: POOLS_SHOWN - 1]
    for name, board in shown:
        top = [(r["name"], f" {r['wins']}/{r['games']}") for r in board[:3]]
        lines.append(_joined(f"  {_title(name)}: ", top, more=False))
    if len(shown) < len(pools):
        lines.append(f"  and {len(pools) - len(shown)} more: stats --game G")
    lines += ["", "latest nights:"]
    for night in doc["bar_nights"][:NIGHTS_SHOWN]:
        head = f"  {night['date']} {_plural(night['sessions'], 'game')}"
        won = [(n, f" {c}") for n, c in night["winners"].items()]
        lines.append(_joined(f"{head}: ", won) if won else f"{head}, none decided")
    if not doc["bar_nights"]:
        lines.append("  none dated")
    return [*lines, "", "more:", *MORE]


def _title(pool: str) -> str:
    """A pool's title (`Liar's dice`, `Perudo`); a game no longer installed by its name."""
    from referee import league
    from referee.errors import RefereeError

    try:
        return league.pool_title(pool)
    except RefereeError:
        return _name(pool, 12)


def _player_page(
    doc: dict[str, Any], filters: history.Filters, summaries: list[history.Summary]
) -> list[str]:
    """One player's page, at most 24 lines of 40 columns: results, places, streaks, form,
    hours, favourite game, rival, nemesis, money and his rating in each pool he played."""
    from referee import league

    assert filters.player is not None
    if not doc["players"]:
        return [f"{_name(filters.player, 16)}: no sessions in the ones chosen"]
    row = doc["players"][0]
    name = _name(row["name"], 16)
    lines = [f"{name}: {_plural(row['games'], 'game')}, {row['wins']} won"]
    lines.append(f"win rate {_percent(row['win_rate'])} of {row['finished']} finished")
    if row["first_played"]:
        lines.append(f"first {row['first_played']}, last {row['last_played']}")
    lines.append(f"hours played: {_hours(row['minutes'])}")
    placed = {int(k): v for k, v in row["places"].items()}
    if placed:
        parts = [f"{_ordinal(k)} {placed.get(k, 0)}" for k in (1, 2, 3)]
        lower = sum(v for k, v in placed.items() if k > 3)
        lines.append("places: " + ", ".join(parts) + (f", 4th+ {lower}" if lower else ""))
    streak = row["streak"]
    lines.append(
        f"streak: {streak['current'] or '-'} now, best {_plural(streak['longest_win'], 'win')}"
    )
    lines.append(f"last 10: {row['form'] or '-'}")
    if row["favourite_game"]:
        fav = row["favourite_game"]
        lines.append(f"favourite: {_title(fav['game'])}, {_plural(fav['games'], 'game')}")
    if row["rival"]:
        rival = row["rival"]
        tail = f", {_plural(rival['games'], 'game')} together"
        lines.append(_joined("rival: ", [(rival["name"], tail)]))
    if row["nemesis"]:
        nemesis = row["nemesis"]
        tail = f", ahead {_plural(nemesis['ahead'], 'time')}"
        lines.append(_joined("nemesis: ", [(nemesis["name"], tail)]))
    if row["money"] is not None:
        lines.append(f"money: net {_signed(row['money']['net'])}")
    rated = league.rate(summaries)
    mine = league.key(row["name"])
    order = {p: k for k, p in enumerate(league.pools())}
    played = sorted(row["pools"], key=lambda p: (order.get(p, len(order)), p))
    if played:
        lines.append("ratings now:")
    if len(played) > POOLS_SHOWN:
        played = played[: POOLS_SHOWN - 1]
        lines.append(f"  and {len(row['pools']) - len(played)} more: referee ratings")
    for pool in played:
        if pool == league.KR_GAME:
            lines.append(f"  {_title(pool)}: KR in referee ratings")
            continue
        rating = rated[pool].ratings.get(mine) if pool in rated else None
        if rating is None:
            lines.append(f"  {_title(pool)}: not rated yet")
            continue
        mark = ", provisional" if rating.provisional else ""
        lines.append(f"  {_title(pool)} {rating.shown}, {_plural(rating.games, 'game')}{mark}")
    other = row["rival"]["name"] if row["rival"] else "NAME"
    command = f"head to head: stats --vs {as_typed(row['name'])} {as_typed(other)}"
    lines.append(command if len(command) <= WIDE and command.isprintable() and command.isascii()
                 else "head to head: stats --vs A B")  # fmt: skip
    return lines


def _versus_lines(v: dict[str, Any]) -> list[str]:
    """Head to head in 40 columns: games together, wins, who finished ahead, level."""
    from referee.render.cells import cut_apart

    a, b = v["players"]
    long_a, long_b = cut_apart([printable(a), printable(b)], 18)
    short_a, short_b = cut_apart([printable(a), printable(b)], 10)  # names cut alike stay apart
    return [
        f"{long_a} v {long_b}",
        f"  {_plural(v['games'], 'game')} together",
        f"  wins: {short_a} {v['wins'][a]}, {short_b} {v['wins'][b]}",
        f"  ahead: {short_a} {v['ahead'][a]}, {short_b} {v['ahead'][b]}",
        f"  level (same place): {v['level']}",
    ]


def _tally_part(key: str, value: dict[str, Any]) -> str:
    """One count of a game: `calls won 3 (1.5/game)`; money (`paid`, `won`: cents) as money,
    `paid 5.50 (1.38/game)`."""
    if key in (history.MONEY_PAID, history.MONEY_WON):
        return f"{key} {show(value['total'])} ({show(round(value['per_game']))}/game)"
    return f"{key} {value['total']} ({value['per_game']}/game)"


def _player_lines(doc: dict[str, Any], row: dict[str, Any]) -> list[str]:
    """One player's card: results, places, streaks, form, money, boards."""
    name = row["name"]
    lines = [f"{name}: {row['games']} played, {row['finished']} finished, {row['wins']} won",
             f"win rate {_percent(row['win_rate'])} of the finished",
             f"first {row['first_played']}, last {row['last_played']}"]  # fmt: skip
    if row["places"]:
        places = [f"{_ordinal(int(k))} {v}" for k, v in row["places"].items()]
        lines.append("places: " + ", ".join(places))
    streak = row["streak"]
    longest = streak["longest_win"]
    wins = f"{longest} win{'s' * (longest != 1)}"
    lines.append(f"streak: {streak['current'] or '-'} now, longest {wins}")
    lines.append(f"last 10: {row['form'] or '-'}")
    if row["money"] is not None:
        m = row["money"]
        lines.append(
            f"money: paid {show(m['paid'])}, won {show(m['won'])}, net {_signed(m['net'])}"
        )
    for ruleset, board in doc["leaderboards"].items():
        mine = next((r for r in board if r["name"] == name), None)
        if mine is not None:
            # A rank by wins (fewer games breaks a tie), shared by equals: never a place,
            # which the places line above gives.
            key = (-mine["wins"], mine["games"])
            rank = 1 + sum(1 for r in board if (-r["wins"], r["games"]) < key)
            tied = sum(1 for r in board if (-r["wins"], r["games"]) == key) > 1
            lines.append(f"{ruleset}: {mine['wins']} won of {mine['games']}, by wins "
                         f"{_ordinal(rank)}{'=' if tied else ''} of {len(board)}")  # fmt: skip
    return lines


def _versus_line(v: dict[str, Any]) -> str:
    a, b = v["players"]
    return (
        f"{a} v {b}: {v['games']} games, wins {v['wins'][a]}-{v['wins'][b]}, "
        f"finished ahead {v['ahead'][a]}-{v['ahead'][b]}, level {v['level']}"
    )


def _money_text(doc: dict[str, Any], filters: history.Filters) -> str:
    """`stats --money` at 40 columns: each settled night (its nets and who paid whom, as its
    record keeps them), then what each player paid, won and netted over the sessions played
    for money, in a night or not."""
    from referee.render.night import GREEDY, count, signed

    money = doc["money"]
    nights, totals = money["nights"], money["totals"]
    if not nights and not totals:
        chosen = filters != history.Filters()
        return "no money in the sessions chosen" if chosen else "no sessions played for money yet"
    lines = ["settled nights:" if nights else "settled nights: none"]
    for night in nights:
        lines.append(f"{night['date']} {night['name']}")
        nets = [f"{name} {signed(cents)}" for name, cents in night["nets"].items()]
        lines.append("  net: " + ", ".join(nets) if nets else "  nobody won or lost")
        said = [f"{t['payer']} pays {t['payee']} {show(t['cents'])}" for t in night["transfers"]]
        lines += [f"  {line}" for line in said or ["nobody owes anybody"]]
        if not night["exact"]:
            lines.append(f"  {GREEDY}")
        if night["left_out"]:
            lines.append(f"  left out: {count(len(night['left_out']), 'game')}")
    days = sorted(s["date"] for s in money["sessions"] if s["date"])
    first = filters.since or (days[0] if days else "")
    last = filters.until or (days[-1] if days else "")
    span = f", {first or '...'} to {last or '...'}" if first or last else ""
    if not totals:
        return "\n".join([*lines, f"per player{span}: no sessions for money"])
    return "\n".join([*lines, f"per player{span}:", *_totals_lines(totals)])


def _totals_lines(totals: dict[str, dict[str, int]]) -> list[str]:
    """Each player's paid, won and net, lined up in 40 columns (amounts too wide to line up:
    one line a player)."""
    from referee.render.cells import cut, ljust, width_of
    from referee.render.night import signed

    heads = ("paid", "won", "net")
    cells = [(n, (show(m["paid"]), show(m["won"]), signed(m["net"]))) for n, m in totals.items()]
    widths = [max(len(head), *(len(c[1][k]) for c in cells)) for k, head in enumerate(heads)]
    room = min(12, 40 - sum(w + 2 for w in widths))
    if room < len("player"):
        return [f"{n}: paid {p}, won {w}, net {t}" for n, (p, w, t) in cells]
    pad = max(len("player"), *(min(room, width_of(n)) for n, _ in cells))

    def line(name: str, amounts: tuple[str, ...]) -> str:
        return ljust(name, pad) + "".join(
            f"  {a:>{w}}" for a, w in zip(amounts, widths, strict=True)
        )

    return [line("player", heads)] + [line(cut(n, pad, "…"), a) for n, a in cells]


def _percent(rate: float | None) -> str:
    return f"{rate:.0%}" if rate is not None else "-"


def _signed(cents: int) -> str:
    """Money as the night says it: `+3.50`, `-2`, `0` (never raw cents)."""
    from referee.render.night import signed

    return signed(cents)


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


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
    path = storage.find_session(space.home, name)  # a link is deleted as a link
    if not storage.is_path(name) and not is_same_name(name, path.stem):  # never by a prefix
        raise UsageError(f"delete takes the whole name: did you mean {quote(path.stem)}?")
    if not path.is_symlink():  # a link, even to nothing, can always go
        storage.read_bytes(path, "session file")
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"delete {path.stem}? not at a terminal: add --yes")
        if not typer.confirm(f"delete {path.stem} for good?", default=False):
            raise typer.Abort()
    real = storage.follow_links(path)
    if storage.remove_session(space.home, path):
        kept = f"{storage.shown(real)} is kept" if real.exists() else "it pointed to nothing"
        output.print_text(f"deleted the link {path.stem}; {kept}")
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
    path = storage.find_session(space.home, check_session_name(old))  # a name, not a path
    storage.rename_session(space.home, path, check_session_name(new))
    output.print_text(f"renamed {path.stem} to {new}")


COMMANDS: dict[str, Any] = {
    "export": export,
    "import": import_session,
    "stats": stats,
    "delete": delete,
    "rename": rename,
}


def _money(session: Session, state: Any) -> list[str]:
    """A session's money in words, as under its card (`render.common.money_lines`)."""
    from referee.render.common import money_lines
    from referee.session import money, seated_players

    kept = money(session, state)
    if kept is None:
        return []
    seated = [p.name for p in seated_players(session, state)]
    return [line.plain for line in money_lines(kept, seated, 200)]
