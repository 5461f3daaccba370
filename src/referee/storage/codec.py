"""Session files as TOML: parsing, the schema and its migrations, the document <-> `Session`.

The only module that imports a TOML library (ruff's banned-api keeps it so).
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from hashlib import sha256
from pathlib import Path
from typing import Any, NamedTuple

from referee import games
from referee.errors import RefereeError, StorageError, UsageError, quote, quote_number
from referee.games.base import PlayerInfo
from referee.session import (
    DERIVED_ID_EVENTS,
    ReplayError,
    Session,
    check_id,
    check_players,
    check_session_name,
    check_undone,
    derived_id,
    derived_id_of,
    event_time,
    initial,
    states,
)
from referee.storage.files import read_bytes, shown
from referee.text import check_name, loaded_name

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


def toml_value(text: str) -> object:
    """One value in TOML syntax (`5`, `true`, `"ends_round"`, `[70, 30]`), as `--set KEY=VALUE`
    gives it; a bare word is taken as the text it is (`--set mia_announced=ends_round`).
    `UsageError` if it is neither."""
    import re
    import tomllib

    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]{0,39}", text):
            return text
        raise UsageError(
            f'{quote(text)} is no TOML value: try 5, true, "word" or [70, 30]'
        ) from None


def toml_text(value: object) -> str:
    """A value in TOML syntax on one line, as `toml_value` reads it back (`--set` in `log
    --script`): a table inline (`{ text = "...", seconds_per_slash = 10 }`), a list in brackets."""
    import re

    import tomli_w

    if isinstance(value, dict):
        pairs = [
            f"{k if re.fullmatch(r'[A-Za-z0-9_-]+', k) else toml_text(k)} = {toml_text(v)}"
            for k, v in value.items()
        ]
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    return tomli_w.dumps({"v": value}).removeprefix("v = ").rstrip("\n")


def document_text(doc: Mapping[str, Any]) -> str:
    """A small document (a night) as TOML text, checked by parsing it back (RELIABILITY 1)."""
    import tomli_w

    try:
        text = tomli_w.dumps(dict(doc))
    except (TypeError, ValueError) as error:
        raise StorageError(f"refusing to save: {str(error)[:60]}") from None
    if _parse(text) != doc:
        raise StorageError("refusing to save: the text would not read back the same")
    return text


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


def schema_of(doc: dict[str, Any], where: str, current: int) -> int:
    """The file's `schema`, a whole number no newer than `current` (else `StorageError` saying
    to upgrade): what every kind of file checks first."""
    schema = doc.get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise StorageError(f"{where}: 'schema' must be a whole number, not {schema!r:.20}")
    if schema > current:
        raise StorageError(
            f"{where}: written by a newer referee (schema {quote_number(schema)},"
            f" this one reads {current}); upgrade referee"
        )
    return schema


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


def parse_session(path: Path, raw: bytes, digest: str) -> Loaded:
    """A session file's bytes parsed, migrated and checked, not yet replayed (`state` None).

    Always done on the bytes themselves: the session never comes from anywhere else.
    """
    where = shown(path)
    try:
        canonical = read_canonical(raw)
    except (ValueError, RecursionError):  # not UTF-8, not TOML: the whole parse says why
        canonical = None
    doc, original = migrate(canonical[0] if canonical else parse_toml(raw, path), where)
    session = checked_session(doc, where)  # the events are the objects each line was read as
    lines = canonical[1] if canonical else None
    return Loaded(path, session, None, original, digest, backup_suffix(original, doc), lines=lines)


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
    """The `Facts` of a session file's bytes, exactly as `parse_session` would give them (its
    `StorageError` too): read straight from the text when it is laid out as referee writes it
    (`canonical_facts`), else from a full parse."""
    found = canonical_facts(path, raw)
    if found is not None:
        return found
    return facts_of(parse_session(path, raw, "").session)


# A file in the exact layout `session_to_text` writes: the head line by line, one event a
# line (bare keys, plain strings without escapes, whole numbers of at most 18 digits), no
# undone events, then the tables. A string here holds no quote, backslash or control character
# but a tab (what TOML lets a basic string hold unescaped), so every such text is TOML that
# reads as the parts the pattern names. No key may come twice on an event line: each key after
# the first is checked against the ones before it. Anything else (a hand edit that changed the
# layout, an escaped quote, a longer line) is read by the full parse.
_STR = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*+"'
_INT = r"-?(?:0|[1-9][0-9]{0,17})"
_KEY = r"[A-Za-z0-9_-]++"
_VALUE = rf"(?:{_STR}|{_INT})"
_PAIRS_MAX = 12  # more pairs on an event line than this: the full parse reads it
_PARTS_MAX = 64 * 1024  # a longer players list or ruleset: the full parse reads it


def _event_line_pattern(pairs: int) -> str:
    """One event line of up to `pairs` key = value pairs, no key twice."""
    inner = ""
    for n in range(pairs, 1, -1):  # built from the innermost (last) pair outwards
        before = "|".join(f"(?P=k{k})" for k in range(1, n))
        inner = f"(?:, (?!(?:{before}) = )(?P<k{n}>{_KEY}) = {_VALUE}{inner})?+"
    return rf"    \{{ (?P<k1>{_KEY}) = {_VALUE}{inner} \}},\n"


@functools.cache
def _canonical() -> re.Pattern[str]:
    """The pattern of the layout (compiled on first use: it takes milliseconds, which no
    command but stats and exports should pay at start)."""
    return re.compile(
        rf"schema = 1\n"
        rf'(?:id = "(?P<id>[0-9a-f]{{32}})"\n)?+'
        rf'name = "(?P<name>[A-Za-z0-9_.-]*+)"\n'
        rf'game = "(?P<game>[a-z_-]++)"\n'
        rf'created = "(?P<created>[0-9T:.+-]*+)"\n'
        rf'updated = "(?P<updated>[0-9T:.+-]*+)"\n'
        rf"players = \[\n(?P<players>(?:    \{{ name = {_STR}"
        rf"(?:, nickname = {_STR})?+ \}},\n)++)\]\n"
        rf"events = (?:\[\]\n|\[\n(?P<events>(?:{_event_line_pattern(_PAIRS_MAX)})++)\]\n)"
        rf"undone = \[\]\n"
        rf"\n(?P<tables>\[.*)",
        re.DOTALL,
    )


_PLAYER = r'    \{ name = "(?P<name>[^"]*)"(?:, nickname = "(?P<nick>[^"]*)")? \},\n'
_PAIR = rf'({_KEY}) = (?:"([^"]*)"|({_INT}))'


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """A pattern of this module, compiled on first use."""
    return re.compile(pattern)


def canonical_facts(path: Path, raw: bytes) -> Facts | None:
    """The `Facts` of a file in the layout referee writes (`_canonical`), checked as
    `session_from_doc` checks a session (so a file the full parse refuses gives None here
    too), or None: not in that layout, parse it.

    Only the parts the facts come from are read (the head, the count of event lines, and the
    first events of a file whose id is derived from them); the players and the tables, which
    repeat from file to file, are checked once a run.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found = _canonical().fullmatch(text)
    if found is None:
        return None
    if len(found["players"]) > _PARTS_MAX or len(found["tables"]) > _PARTS_MAX:
        return None  # more than any table seats or any ruleset holds: not kept once a run
    try:
        game = games.canonical(found["game"])
    except RefereeError:
        return None
    players = _canonical_players(found["players"], game)
    created = found["created"]
    if (
        players is None
        or not _canonical_tables(found["tables"], game)
        or any(t and event_time(t) is None for t in (created, found["updated"]))
    ):
        return None
    if found["name"]:
        try:
            check_session_name(found["name"])
        except RefereeError:
            return None
    start, end = found.span("events")  # (-1, -1) for `events = []`
    ident = found["id"]
    if ident is None:  # a file from before ids: its id is derived from its first events
        lines = text[start:end].split("\n", DERIVED_ID_EVENTS)[:DERIVED_ID_EVENTS]
        first = [_pairs(line) for line in lines if line]
        ident = derived_id_of(game, created, players, first)
    count = text.count("\n", start, end) if start >= 0 else 0  # one event a line
    return Facts(ident, game, [p.name for p in players], count, created, found["updated"])


def _pairs(line: str) -> dict[str, str | int]:
    """A canonical event line as its table (plain strings, whole numbers)."""
    return {key: text if number == "" else int(number)
            for key, text, number in _compiled(_PAIR).findall(line)}  # fmt: skip


@functools.lru_cache(maxsize=256)
def _canonical_players(block: str, game: str) -> tuple[PlayerInfo, ...] | None:
    """The players of a canonical file's `players` lines, checked as `session_from_doc` checks
    them (None: it would refuse them)."""
    players = []
    for line in _compiled(_PLAYER).finditer(block):
        name, nickname = line["name"], line["nick"]
        try:
            for text, what in ((name, "player name"), (nickname, "nickname")):
                if text is not None and check_name(text, what) != text:
                    return None
        except RefereeError:
            return None
        players.append(PlayerInfo(name, nickname))
    try:
        return check_players(players, game)
    except RefereeError:
        return None


@functools.lru_cache(maxsize=64)
def _canonical_tables(text: str, game: str) -> bool:
    """Whether the text ending a canonical file holds just its `options` and `ruleset` tables,
    as `session_from_doc` accepts them for `game`: the same few rulesets end most files, so
    each is parsed once a run."""
    import tomllib

    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return False
    if set(doc) != {"options", "ruleset"} or not all(isinstance(v, dict) for v in doc.values()):
        return False
    if not all(isinstance(v, str | int) for v in doc["options"].values()):
        return False
    ruleset_game = doc["ruleset"].get("game", game)
    try:
        return isinstance(ruleset_game, str) and games.canonical(ruleset_game) == game
    except RefereeError:
        return False


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
    schema = schema_of(doc, where, SCHEMA)
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


def _events(
    doc: Mapping[str, Any], key: str, names: frozenset[str] = frozenset()
) -> tuple[dict[str, str | int], ...]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise UsageError(f"'{key}' must be a list of tables")
    for number, item in enumerate(value, start=1):
        # Exactly str or int (a bool is an int too): what a parser or JSON gives, nothing else.
        if type(item) is not dict or not _PLAIN.issuperset(map(type, item.values())):
            what = "event" if key == "events" else "undone event"
            raise UsageError(f"{what} {number} must be a table of strings and numbers")
    return tuple(_nfc_values(item, names) for item in value)


def _nfc_values(table: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    """A table whose strings that name a player (`names`, in NFC, as the players' names are
    read) are in NFC: an event names a player exactly, so a file's "Zoe" and a combining
    diaeresis stays the player it was. Any other text is kept as it is (a table read back is
    the table written); ASCII, every key and word the games write, is never touched."""
    if all(type(v) is not str or v.isascii() for v in table.values()):
        return table
    import unicodedata

    def kept(value: Any) -> Any:
        if type(value) is not str or value.isascii():
            return value
        found = unicodedata.normalize("NFC", value)
        return found if found in names else value

    return {k: kept(v) for k, v in table.items()}


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
        # as typed names are: checked, and kept in NFC (a file may hold "Zoe" and a combining
        # diaeresis, which a table must not tell apart from the one letter)
        name = loaded_name(name, "player name")
        nickname = None if nickname is None else loaded_name(nickname, "nickname")
        players.append(PlayerInfo(name, nickname))
    names = frozenset(n for p in players for n in (p.name, p.nickname) if n is not None)
    options = _nfc_values(dict(_table(doc, "options")), names)  # `first`, `dealer`: a name
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
        events=_events(doc, "events", names),
        undone=_events(doc, "undone", names),
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


def read_canonical(raw: bytes) -> tuple[dict[str, Any], Lines] | None:
    """The document in `raw` as tomllib reads it, and the line of each event, for a file
    exactly as `session_to_text` writes it: the header and tables by tomllib, each event line
    by the strict reader of the one form `event_line` writes (`read_back`, held to tomllib by
    tests), so a long night is not parsed by tomllib line by line. None for any other file
    (then it is parsed whole)."""
    text = raw.decode("utf-8")
    start = _lists_start(text)
    if start is None:
        return None
    events, event_lines, at = _read_list(text, start, "events")
    if events is None:
        return None
    undone, undone_lines, at = _read_list(text, at, "undone")
    if undone is None or not text.startswith("\n", at):
        return None
    rest = text[at + 1 :]
    found = _document(text[:start], rest, events, undone)
    return None if found is None else (found, Lines(event_lines, undone_lines, rest))


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


def _read_list(text: str, at: int, key: str) -> tuple[list[Any] | None, tuple[str, ...], int]:
    """The events of the list `key` starting at `at`, each line in the written form, their
    lines, and where the text goes on; None if any of it is not exactly as `_list_text`
    writes it."""
    if text.startswith(f"{key} = []\n", at):
        return [], (), at + len(key) + 6
    if not text.startswith(f"{key} = [\n", at):
        return None, (), at
    at += len(key) + 5
    found, lines = [], []
    while not text.startswith("]\n", at):
        end = text.find(",\n", at)
        line = text[at + 4 : end]
        event = strict_read(line) if end > 0 and text.startswith("    ", at) else None
        if event is None or "\n" in text[at:end]:
            return None, (), at
        found.append(event)
        lines.append(line)
        at = end + 2
    return found, tuple(lines), at + 2


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


# One pair as `event_line` writes it: a bare key, then a basic string (escapes as tomli-w
# writes them) or a whole number. Kept beside tomllib for the whole read of a file referee
# wrote (`read_canonical`): without it a cold stats over 5,000 sessions passes its goal (issue
# 34: 154 shows against 150); any other line is read by tomllib.
_READ_PAIR = re.compile(
    r'([A-Za-z0-9_-]+) = (?:"((?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\[bnfr"\\]'
    r'|\\u00(?:[01][0-9a-f]|7f))*)"'
    r"|(-?(?:0|[1-9][0-9]{0,17})))(, | \}$)"
)
_UNESCAPE = re.compile(r'\\(u00[0-9a-f]{2}|[bnfr"\\])')
_SHORT = {"b": "\b", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


def strict_read(line: str) -> dict[str, str | int] | None:
    """An event line in the one form `event_line` writes, read without tomllib; None for any
    other line (which only tomllib may read)."""
    if line == "{}":
        return {}
    found: dict[str, str | int] = {}
    at = 2
    while line.startswith("{ ") and at < len(line):
        pair = _READ_PAIR.match(line, at)
        if pair is None or pair.group(1) in found:
            return None
        key, text, number, end = pair.groups()
        if text is not None:
            found[key] = _UNESCAPE.sub(_unescaped, text) if "\\" in text else text
        else:
            found[key] = int(number)
        at = pair.end()
        if end == " }":
            return found if at == len(line) else None
    return None


def _unescaped(escape: re.Match[str]) -> str:
    code = escape.group(1)
    return chr(int(code[1:], 16)) if code[0] == "u" else _SHORT[code]


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
