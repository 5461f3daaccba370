"""Session files as TOML: parsing, the schema and its migrations, the document <-> `Session`.

The only module that imports a TOML library (ruff's banned-api keeps it so).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
    replay,
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


def digest_of(raw: bytes) -> str:
    """The key of a file's content."""
    return hashlib.sha256(raw).hexdigest()


def parse_session(path: Path, raw: bytes, digest: str) -> Loaded:
    """A session file's bytes parsed, migrated and checked, not yet replayed (`state` None).

    Always done on the bytes themselves: the session never comes from anywhere else.
    """
    where = shown(path)
    doc, original = migrate(parse_toml(raw, path), where)
    session = checked_session(doc, where)
    return Loaded(path, session, None, original, digest, backup_suffix(original, doc))


def replay_of(loaded: Loaded) -> Any:
    """The state after every event of a parsed session; a refused event is a file problem."""
    with _file_problem(loaded.path):
        return replay(loaded.session)


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
    out = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict) or not all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in item.values()
        ):
            raise UsageError(f"{key[:-1]} {number} must be a table of strings and numbers")
        out.append(item)
    return tuple(out)


def session_from_doc(doc: Mapping[str, Any]) -> Session:
    """A `Session` from a parsed, current-schema document, checked as strictly as typed input."""
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


def session_to_text(session: Session) -> str:
    """The TOML text of a session file, each part checked by parsing it back.

    The header and the tables are small and are dumped and checked on every save; each event
    is one line, dumped and checked once (`_event_line`), so a long night saves quickly.
    """
    import tomli_w

    doc = session_to_doc(session)
    head = {k: doc[k] for k in HEAD if k in doc}
    tables = {k: doc[k] for k in ("options", "ruleset")}
    head_text, tables_text = tomli_w.dumps(head), tomli_w.dumps(tables)
    if _parse(head_text) != head or _parse(tables_text) != tables:
        raise StorageError("refusing to save: the text would not read back the same")
    return "".join(
        [head_text, _array("events", session.events), _array("undone", session.undone), "\n",
         tables_text]
    )  # fmt: skip


def split_events(raw: bytes, events: object, undone: object) -> dict[str, Any] | None:
    """The document in `raw`, a file as `session_to_text` writes it, whose events and undone
    events are `events` and `undone` (kept elsewhere): its header and tables parsed, its two
    lists checked character for character instead, so a long night is not parsed line by line.
    None if the bytes are not exactly that (any other file is parsed whole).

    Sound because the parts stand alone: the header holds no table (no line opens one) and only
    the header's keys, the lists are written by `_array` (which tomllib reads back as the events
    they were written from: tests/test_storage.py), and the tables hold only `options` and
    `ruleset`; so a parse of the whole is the header's, the lists and the tables' together."""
    if not isinstance(events, list) or not isinstance(undone, list):
        return None
    text = raw.decode("utf-8")  # a UnicodeDecodeError is a ValueError: the whole parse says why
    start = text.find("\nevents = ") + 1
    head = text[:start]
    if (
        not start
        or text.startswith("\ufeff")
        or any(line.lstrip().startswith("[") for line in head.splitlines())
    ):
        return None
    lists = _array("events", tuple(events)) + _array("undone", tuple(undone)) + "\n"
    if not text.startswith(lists, start):
        return None
    import tomllib

    doc = tomllib.loads(head)
    tables = tomllib.loads(text[start + len(lists) :])
    if not set(doc) <= set(HEAD) or not set(tables) <= {"options", "ruleset"}:
        return None
    schema = doc.get("schema")
    if type(schema) is not int or schema != SCHEMA or "id" not in doc:
        # An older file is migrated, one without an id given one, and `schema = true` or
        # `1.0` (equal to 1 in Python) refused by `migrate`: all parsed whole.
        return None
    return {**doc, "events": events, "undone": undone, **tables}


def _parse(text: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(text)


def _array(key: str, events: tuple[Mapping[str, str | int], ...]) -> str:
    if not events:
        return f"{key} = []\n"
    lines = "".join(f"    {_event_line(tuple(e.items()))},\n" for e in events)
    return f"{key} = [\n{lines}]\n"


@functools.lru_cache(maxsize=100_000)
def _event_line(items: tuple[tuple[str, str | int], ...]) -> str:
    """One event as an inline table, exactly as tomli-w writes each pair (`toml_pair`).

    Written here rather than by tomli-w, which turns a table longer than 100 characters into
    an [[array of tables]] that could not stand inside the events list, and costs a dump a pair:
    a long night's every save writes every event. `tests/test_storage.py` checks that each
    line tomli-w would write is this one, and that tomllib reads back the event it was made of.
    """
    return "{ " + ", ".join(toml_pair(k, v) for k, v in items) + " }" if items else "{}"


_BARE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
# As tomli-w escapes a basic string: a few short escapes, any other control character (tab
# aside) as \uXXXX.
_ESCAPES = str.maketrans(
    {chr(c): f"\\u{c:04x}" for c in (*range(32), 127) if c != 9}
    | {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
)


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
