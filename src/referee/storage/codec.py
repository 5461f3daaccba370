"""Session files as TOML: parsing, the schema and its migrations, the document <-> `Session`.

The only module that imports a TOML library (ruff's banned-api keeps it so).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from hashlib import sha256
from pathlib import Path
from typing import Any, NamedTuple

from referee import games
from referee.errors import RefereeError, StorageError, UsageError, quote, quote_number
from referee.games.base import PlayerInfo
from referee.session import (
    ReplayError,
    Session,
    check_id,
    check_players,
    check_session_name,
    check_undone,
    derived_id,
    event_time,
    initial,
    states,
)
from referee.storage.files import read_bytes, shown
from referee.text import check_name

SCHEMA = 1


def _from_schema_0(doc: dict[str, Any]) -> dict[str, Any]:
    """The prototype's files: players as `Name=Nick` strings, options and the ruleset's name at
    the top, `[[event]]` tables with a `kind`. The ruleset becomes a snapshot of the bundled
    one it names, as every later session carries."""
    # Imported here: rulesets.py reads its files with this module's `read_toml`.
    from referee.storage.rulesets import load_ruleset

    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise StorageError("schema 0: 'players' must be a list of \"Name=Nick\" strings")
    ruleset = doc.get("ruleset", doc.get("game"))
    if not isinstance(ruleset, str):
        raise StorageError("schema 0: 'ruleset' must name a bundled ruleset")
    events = doc.get("event", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise StorageError("schema 0: every [[event]] must be a table")
    return {
        "schema": 1,
        "name": doc.get("name", ""),
        "game": doc.get("game"),
        "players": [
            {"name": name, **({"nickname": nick} if nick else {})}
            for name, _, nick in (p.partition("=") for p in players)
        ],
        "options": {k: doc[k] for k in ("first", "direction", "buy_in") if k in doc},
        "ruleset": load_ruleset(ruleset),
        "events": [
            {("type" if k == "kind" else k): v for k, v in event.items()} for event in events
        ],
        "undone": [],
    }


# schema N -> a function turning a schema-N document into a schema-(N+1) one.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _from_schema_0}


def read_toml(path: Path, what: str = "file") -> dict[str, Any]:
    """Parse a TOML file, turning every failure into one clear `StorageError`."""
    return parse_toml(read_bytes(path, what), path)


def parse_toml(raw: bytes, path: Path) -> dict[str, Any]:
    """Parse TOML bytes, turning every failure into one clear `StorageError`."""
    import tomllib

    where = shown(path)
    if raw.startswith(b"\xef\xbb\xbf"):
        raise StorageError(f"{where}: starts with a byte-order mark; save it as plain UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise StorageError(f"{where}, line {line}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StorageError(f"{where}: not valid TOML: {error}") from None
    except (ValueError, RecursionError) as error:  # 5,000-digit integers, absurd nesting
        raise StorageError(f"{where}: cannot be read: {str(error)[:60]}") from None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A session as read and replayed: `digest` is the SHA-256 of the exact bytes replayed."""

    path: Path
    session: Session
    state: Any
    schema: int  # the schema of the file on disk
    digest: str = ""
    backup: str = ""  # the file on disk is of an older kind: back it up as NAME.toml.BACKUP.bak
    # The state after every event but the last, as the replay cache kept it (plain JSON, read
    # only by an undo: see `storage.sessions.transaction`); None when not kept.
    kept_before: object = field(default=None, compare=False)
    # The line of each event in the file, when it was read or written line by line (`Lines`).
    lines: Lines | None = field(default=None, compare=False)


class Lines(NamedTuple):
    """The line of each event of a session's two lists, as its file holds them, beside the
    event each was read as (or written from), and the text of its tables. A save writes the
    line of an event it holds from here (`session_text`), and the tables' text while they are
    the same tables: a long night's save writes and reads back only what is new."""

    events: tuple[str, ...] = ()
    undone: tuple[str, ...] = ()
    tables: str | None = None  # the `options` and `ruleset` tables as written


def digest_of(raw: bytes) -> str:
    """The key of a file's content."""
    return sha256(raw).hexdigest()


def parse_session(path: Path, raw: bytes, digest: str, *, lines: bool = False) -> Loaded:
    """A session file's bytes parsed (tomllib), migrated and checked, not yet replayed (`state`
    None); with `lines`, the line of each event too when the file is laid out as a save writes
    it (so the next save writes only what is new).

    Always done on the bytes themselves: the session never comes from anywhere else.
    """
    where = shown(path)
    parsed = parse_toml(raw, path)
    doc, original = migrate(parsed, where)
    session = checked_session(doc, where)
    known = None
    if lines and original == SCHEMA and "id" in doc:
        tables = {"options": doc.get("options"), "ruleset": doc.get("ruleset")}
        split = split_events(raw, doc.get("events"), doc.get("undone"), tables)
        known = split[1] if split is not None and split[0] == parsed else None
    return Loaded(path, session, None, original, digest, backup_suffix(original, doc), lines=known)


class Facts(NamedTuple):
    """What a kept stats summary must agree with: the session's id, game, players (names, in
    their seats) and number of events; and when it was started and last changed (what an
    export orders and counts the sessions by)."""

    id: str
    game: str
    players: list[str]
    events: int
    created: str
    updated: str


def facts_of(session: Session) -> Facts:
    """A parsed session's `Facts`."""
    names = [p.name for p in session.players]
    return Facts(session.id, session.game, names, len(session.events), session.created,
                 session.updated)  # fmt: skip


def session_facts(path: Path, raw: bytes) -> Facts:
    """The `Facts` of a session file's bytes, by the parse (its `StorageError` too)."""
    return facts_of(parse_session(path, raw, "").session)


def replay_of(loaded: Loaded) -> tuple[Any, Any]:
    """The state after every event of a parsed session, and the state before its last event
    (None with no events), which the replay passes anyway and an undo after it needs (see
    `storage.sessions.transaction`); a refused event is a file problem."""
    with _file_problem(loaded.path):
        before, state = None, initial(loaded.session)
        for after in states(loaded.session):
            before, state = state, after
        return state, before


def decode_states(path: Path, raw: bytes) -> tuple[Session, list[Any]]:
    """A file's session and the state after every event, for whoever needs them all (stats,
    exports): parsed from the bytes as any load is, one replay, every state kept, the same
    checks and the same messages."""
    parsed = parse_session(path, raw, digest_of(raw))
    with _file_problem(path):
        return parsed.session, list(states(parsed.session))


@contextlib.contextmanager
def _file_problem(path: Path) -> Iterator[None]:
    """A replay's refusal as a file problem (exit 3), naming the file: `x.toml, event 7: ...`."""
    try:
        yield
    except ReplayError as error:
        raise StorageError(f"{shown(path)}, {error}") from None
    except RefereeError as error:
        raise StorageError(f"{shown(path)}: {error}") from None


def backup_suffix(schema: int, doc: Mapping[str, Any]) -> str:
    """What a file read as `doc` (of `schema` on disk) is backed up as before its first write:
    an older schema, or a file from before session ids; "" if it needs no backup."""
    if schema < SCHEMA:
        return f"schema{schema}"
    return "" if "id" in doc else "before-id"


def migrate(doc: dict[str, Any], where: str) -> tuple[dict[str, Any], int]:
    """A document of any schema this referee reads, as the current schema (and its own)."""
    schema = doc.get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise StorageError(f"{where}: 'schema' must be a whole number, not {schema!r:.20}")
    if schema > SCHEMA:
        raise StorageError(
            f"{where}: written by a newer referee (schema {quote_number(schema)},"
            f" this one reads {SCHEMA}); upgrade referee"
        )
    original = schema
    while schema < SCHEMA:
        if schema not in MIGRATIONS:
            raise StorageError(f"{where}: schema {schema} is too old to read")
        doc = MIGRATIONS[schema](doc)
        schema += 1
    return doc, original


def checked_session(doc: Mapping[str, Any], where: str) -> Session:
    """`session_from_doc`, its errors naming the file (`where`) as file problems (exit 3)."""
    try:
        session = session_from_doc(doc)
        check_undone(session)
    except RefereeError as error:
        raise StorageError(f"{where}: {error}") from None
    return session


def session_from_export(doc: object, where: str) -> Session:
    """The session inside an export (a JSON document's `session` table), checked as a session
    file is: its schema (migrated if older, refused if newer), then every field."""
    if not isinstance(doc, dict):
        raise StorageError(f"{where}: the export holds no session table")
    current, _ = migrate(doc, where)
    return checked_session(current, where)


def _table(doc: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = doc.get(key, {})
    if not isinstance(value, Mapping):
        raise UsageError(f"'{key}' must be a table")
    return value


def _text(doc: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = doc.get(key, default)
    if not isinstance(value, str):
        raise UsageError(f"'{key}' must be a string, not {value!r}")
    return value


def _events(doc: Mapping[str, Any], key: str) -> tuple[dict[str, str | int], ...]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise UsageError(f"'{key}' must be a list of tables")
    for number, item in enumerate(value, start=1):
        # Exactly str or int (a bool is an int too): what a parser or JSON gives, nothing else.
        if type(item) is not dict or not _PLAIN.issuperset(map(type, item.values())):
            raise UsageError(f"{key[:-1]} {number} must be a table of strings and numbers")
    return tuple(value)


_PLAIN = frozenset((str, int))


def session_from_doc(doc: Mapping[str, Any]) -> Session:
    """A `Session` from a parsed, current-schema document, checked as strictly as typed input.

    A key it does not know is refused, not skipped: `event = [...]` for `events` would read as
    a session without events, and the next command would save it so, the events gone.
    """
    game = games.canonical(_text(doc, "game"))
    players_doc = doc.get("players")
    if not isinstance(players_doc, list) or not players_doc:
        raise UsageError("'players' must be a list of {name = ...} tables")
    players = []
    for item in players_doc:
        if not isinstance(item, dict) or set(item) - {"name", "nickname"}:
            raise UsageError("'players' must be a list of {name = ..., nickname = ...} tables")
        name = _text(item, "name")
        nickname = item.get("nickname")
        if nickname is not None and not isinstance(nickname, str):
            raise UsageError(f"the nickname of {quote(name)} must be a string")
        for text, what in ((name, "player name"), (nickname, "nickname")):
            if text is not None and check_name(text, what) != text:
                raise UsageError(f"{what} {quote(text)} has spaces around it")
        players.append(PlayerInfo(name, nickname))
    options = _table(doc, "options")
    if not all(isinstance(v, str | int) for v in options.values()):  # booleans are ints too
        raise UsageError("'options' must hold strings, numbers and true/false")
    name = _text(doc, "name", "")
    if name:
        check_session_name(name)
    session_id = check_id(doc["id"]) if "id" in doc else ""
    session = Session(
        name=name,
        game=game,
        ruleset=dict(_table(doc, "ruleset")),
        players=check_players(players, game),
        options=dict(options),
        events=_events(doc, "events"),
        undone=_events(doc, "undone"),
        created=_time(doc, "created"),
        updated=_time(doc, "updated"),
        id=session_id,
    )
    ruleset_game = session.ruleset.get("game", game)
    if not isinstance(ruleset_game, str) or games.canonical(ruleset_game) != game:
        raise UsageError(f"the ruleset is for {quote(str(ruleset_game)[:20])}, not {game}")
    unknown = sorted(str(k) for k in doc if k not in KEYS)
    if unknown:
        raise UsageError(
            f"unknown key {quote(unknown[0][:40])} at the top of the session"
            f" (the keys are {', '.join(sorted(KEYS))})"
        )
    # A file from before ids gets one derived from its content; its next save writes it.
    return session if session_id else replace(session, id=derived_id(session))


def _time(doc: Mapping[str, Any], key: str) -> str:
    """`created` or `updated`: empty (a hand-written file) or an ISO time with its zone."""
    text = _text(doc, key, "")
    if text and event_time(text) is None:
        raise UsageError(f"'{key}' must be an ISO time with its zone, not {quote(text[:40])}")
    return text


def session_to_doc(session: Session) -> dict[str, Any]:
    """A session as the plain document its file holds (no `id` before it has one)."""
    return {
        "schema": SCHEMA,
        **({"id": session.id} if session.id else {}),
        "name": session.name,
        "game": session.game,
        "created": session.created,
        "updated": session.updated,
        "players": [
            {"name": p.name, **({"nickname": p.nickname} if p.nickname else {})}
            for p in session.players
        ],
        "events": [dict(e) for e in session.events],
        "undone": [dict(e) for e in session.undone],
        "options": dict(session.options),
        "ruleset": dict(session.ruleset),
    }


HEAD = ("schema", "id", "name", "game", "created", "updated", "players")
# Every top-level key a session document has (session_to_doc writes them all but `id` on
# a file from before ids): any other is a slip that would lose what it holds on the next save.
KEYS = frozenset((*HEAD, "events", "undone", "options", "ruleset"))


def session_to_text(session: Session) -> str:
    """The TOML text of a session file, each part checked by parsing it back."""
    return session_text(session)[0]


def session_text(session: Session, known: Loaded | None = None) -> tuple[str, Lines]:
    """The TOML text of a session file, each part checked by parsing it back, and the line of
    each event in it.

    The header and the tables are small and are dumped and checked on every save; each event
    is one line, written and read back once (`_lines`), so a long night saves quickly. An
    event `known` holds (the same object: nothing changes an event once made) is written as
    the line it was read as or written with, which is known to read back as it.
    """
    import tomli_w

    doc = session_to_doc(session)
    head = {k: doc[k] for k in HEAD if k in doc}
    head_text = tomli_w.dumps(head)
    if _parse(head_text) != head:
        raise StorageError("refusing to save: the text would not read back the same")
    kept: dict[int, str] = {}
    tables_text = None
    if known is not None and known.lines is not None:
        held = (*known.session.events, *known.session.undone)
        written = (*known.lines.events, *known.lines.undone)
        kept = {id(e): line for e, line in zip(held, written, strict=True)}
        was = known.session
        if session.options is was.options and session.ruleset is was.ruleset:
            tables_text = known.lines.tables  # the very tables it was read as: as they were
    if tables_text is None:
        tables = {k: doc[k] for k in ("options", "ruleset")}
        tables_text = tomli_w.dumps(tables)
        if _parse(tables_text) != tables:
            raise StorageError("refusing to save: the text would not read back the same")
    lines = Lines(_lines(session.events, kept), _lines(session.undone, kept), tables_text)
    lists = _list_text("events", lines.events) + _list_text("undone", lines.undone)
    return "".join([head_text, lists, "\n", tables_text]), lines


def _lines(events: tuple[Mapping[str, str | int], ...], kept: dict[int, str]) -> tuple[str, ...]:
    """The line of each event: the one `kept` by its identity, else written (`event_line`) and
    read back by tomllib and compared (RELIABILITY 1), all the new ones in one parse: a long
    night's save writes and reads back only what it did not read."""
    lines = [kept.get(id(e)) for e in events]
    fresh = [k for k, line in enumerate(lines) if line is None]
    for k in fresh:
        lines[k] = event_line(events[k].items())
    if fresh:
        written = tuple(lines[k] or "" for k in fresh)
        try:  # a line is one line, or the list's text would not be these lines
            back = None if any("\n" in x for x in written) else _parse(_list_text("e", written))
        except ValueError:
            back = None
        if back is None or back.get("e") != [dict(events[k]) for k in fresh]:
            raise StorageError("refusing to save: an event would not read back the same")
    return tuple(line or "" for line in lines)


def split_events(
    raw: bytes, events: object, undone: object, tables: object = None
) -> tuple[dict[str, Any], Lines] | None:
    """The document in `raw`, a file as `session_to_text` writes it, whose events and undone
    events are `events` and `undone` (kept elsewhere), and the line of each: its header read,
    its two lists checked character for character instead, and its tables too when `tables`
    (kept beside them: `{"options": ..., "ruleset": ...}`) are written as the file holds them,
    else parsed. None if the bytes are not exactly that (any other file is parsed whole); see
    `_document` for why the parts may be read apart."""
    if not isinstance(events, list) or not isinstance(undone, list):
        return None
    text = raw.decode("utf-8")  # a UnicodeDecodeError is a ValueError: the whole parse says why
    start = _lists_start(text)
    lists = Lines(_written(events), _written(undone))
    listed = _list_text("events", lists.events) + _list_text("undone", lists.undone) + "\n"
    if start is None or not text.startswith(listed, start):
        return None
    rest = text[start + len(listed) :]
    found = _document(text[:start], rest, events, undone, _as_written(tables, rest))
    if found is None or "id" not in found:  # no id: one is derived
        return None
    return found, lists._replace(tables=rest)


def _as_written(tables: object, text: str) -> dict[str, Any] | None:
    """`tables` if they are exactly what `text` holds, written as a save writes them (so `text`
    reads back as them: tomli-w's promise, which every save checks); else None."""
    import tomli_w

    if not isinstance(tables, dict) or set(tables) != {"options", "ruleset"}:
        return None
    try:
        return tables if tomli_w.dumps(tables) == text else None
    except (TypeError, ValueError):  # something TOML cannot hold: the parse says what
        return None


def _lists_start(text: str) -> int | None:
    """Where the events list starts in a file's text, if its header can be read apart: no
    byte-order mark, and no line of it opens a table."""
    start = text.find("\nevents = ") + 1
    head = text[:start]
    if not start or text.startswith("\ufeff"):
        return None
    if any(line.lstrip().startswith("[") for line in head.splitlines()):
        return None
    return start


def _document(
    head: str,
    rest: str,
    events: list[Any],
    undone: list[Any],
    tables: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """A whole document from its header, the text after its lists (`tables`, when the caller
    knows what it holds), and the lists.

    Sound because the parts stand alone: the header holds no table (no line opens one) and only
    the header's keys, the lists are written by `_list_text` (read back as the events they were
    written from: tests/test_storage.py), and the tables hold only `options` and `ruleset`;
    so a parse of the whole is the header's, the lists and the tables' together."""
    doc = _parse(head)
    if tables is None:
        tables = _parse(rest)
    if not set(doc) <= set(HEAD) or not set(tables) <= {"options", "ruleset"}:
        return None
    schema = doc.get("schema")
    if type(schema) is not int or schema != SCHEMA:
        # An older file is migrated, and `schema = true` or `1.0` (equal to 1 in Python)
        # refused by `migrate`: both parsed whole.
        return None
    return {**doc, "events": events, "undone": undone, **tables}


def _parse(text: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(text)


def _written(events: list[Any]) -> tuple[str, ...]:
    """The lines of events as JSON gave them, each written once (nothing kept: a load)."""
    return tuple(event_line(e.items()) for e in events)


def _list_text(key: str, lines: tuple[str, ...]) -> str:
    """`key = [...]` as a session file holds it: one event a line, or `[]`."""
    if not lines:
        return f"{key} = []\n"
    return f"{key} = [\n" + "".join(f"    {line},\n" for line in lines) + "]\n"


def event_line(items: Iterable[tuple[str, str | int]]) -> str:
    """One event as an inline table, exactly as tomli-w writes each pair (`toml_pair`).

    Written here rather than by tomli-w, which turns a table longer than 100 characters into
    an [[array of tables]] that could not stand inside the events list, and costs a dump a pair:
    a long night's every save writes every event, and every load from the kept replay compares
    them. `tests/test_storage.py` checks that each line is what tomli-w would write, and that
    tomllib reads back the event it was made of.
    """
    parts = []
    for key, value in items:  # the usual pairs inline (this runs for every event of a night)
        shown = _KEYS.get(key) or _bare(key)
        if shown is not None and value.__class__ is str:
            if not value.isprintable() or '"' in value or "\\" in value:  # else nothing to escape
                value = value.translate(_ESCAPES)
            parts.append(f'{shown} = "{value}"')
        elif shown is not None and value.__class__ is int:
            parts.append(f"{shown} = {value}")
        else:
            parts.append(toml_pair(key, value))
    return "{ " + ", ".join(parts) + " }" if parts else "{}"


_BARE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
# As tomli-w escapes a basic string: a few short escapes, any other control character (tab
# aside) as \uXXXX.
_ESCAPES = str.maketrans(
    {chr(c): f"\\u{c:04x}" for c in (*range(32), 127) if c != 9}
    | {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
)


_KEYS: dict[str, str] = {}  # the bare keys seen (`type`, `by`, `at`): each checked once


def _bare(key: str) -> str | None:
    """`key` if it is written bare (and remembered as such), else None."""
    if not (isinstance(key, str) and key and _BARE_KEY.issuperset(key)):
        return None
    if len(_KEYS) < 1000:
        _KEYS[key] = key
    return key


def toml_string(text: str) -> str:
    """`text` as a TOML basic string, as tomli-w writes it."""
    return '"' + text.translate(_ESCAPES) + '"'


def toml_pair(key: str, value: str | int) -> str:
    """`key = value` as `tomli_w.dumps({key: value})` writes it (without its newline)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise StorageError(
            f"refusing to save: {key!r} holds {type(value).__name__}, not text or a number"
        )
    shown_key = key if key and _BARE_KEY.issuperset(key) else toml_string(key)
    return f"{shown_key} = {toml_string(value) if isinstance(value, str) else value}"
