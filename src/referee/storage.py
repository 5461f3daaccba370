"""The only code that touches the disk: session files, rulesets, the lock, the current pointer.

Promises (RELIABILITY.md): a save is atomic (temp file, fsync, replace, fsync the folder); a
lock on a separate `NAME.lock` covers load -> check -> save; a file that cannot be read is never
overwritten; every file carries `schema`, older ones are migrated in memory and backed up before
the first write.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from referee import games
from referee.errors import RefereeError, StorageError, UsageError, quote, quote_number
from referee.games.base import PlayerInfo
from referee.plain import from_plain, to_plain
from referee.session import ReplayError, Session, check_players, check_session_name, replay
from referee.text import check_name, printable

SCHEMA = 1


def _from_schema_0(doc: dict[str, Any]) -> dict[str, Any]:
    """The prototype's files: players as `Name=Nick` strings, options and the ruleset's name at
    the top, `[[event]]` tables with a `kind`. The ruleset becomes a snapshot of the bundled
    one it names, as every later session carries."""
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
MAX_FILE_BYTES = 8 * 1024 * 1024

# Test hook (RELIABILITY.md): kill this process at a named point of a save.
CRASH_ENV = "REFEREE_TEST_CRASH_AT"
LOCK_TIMEOUT_ENV = "REFEREE_LOCK_TIMEOUT"
LOCK_TIMEOUT_MAX = 600.0


def shown(path: Path) -> str:
    """A path as error messages print it: a folder name may hold anything."""
    return printable(str(path))


# ---------------------------------------------------------------------------- places


@dataclass(frozen=True, slots=True)
class Home:
    """The data folder: `sessions/NAME.toml` and the `current` pointer."""

    root: Path

    @property
    def sessions(self) -> Path:
        """The folder holding one TOML file per session."""
        return self.root / "sessions"

    def session_path(self, name: str) -> Path:
        """Where the session called `name` lives."""
        return self.sessions / f"{check_session_name(name)}.toml"

    def current(self) -> str | None:
        """The current session's name or path, if one was chosen."""
        try:
            text = (self.root / "current").read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise StorageError(f"{shown(self.root / 'current')}: cannot read: {error}") from None
        return text or None

    def set_current(self, ref: str) -> None:
        """Make `ref` (a name or a resolved path) the current session."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            atomic_write(self.root / "current", ref + "\n")
        except OSError as error:
            where = shown(self.root / "current")
            raise StorageError(f"{where}: cannot write: {error.strerror or error}") from None


def is_path(ref: str) -> bool:
    """A session reference is a path when it ends in .toml or contains a slash."""
    return ref.endswith(".toml") or "/" in ref or os.sep in ref


def current_ref(home: Home) -> str | None:
    """The current session: `$REFEREE_SESSION`, else the data folder's pointer."""
    return os.environ.get("REFEREE_SESSION") or home.current()


def resolve(home: Home, ref: str | None) -> Path:
    """The file of the session `ref` names (a name or a path), else the current one."""
    ref = ref or current_ref(home)
    if not ref:
        raise UsageError("no current session: start one with 'referee new kariki Ann Bob'")
    return follow_links(Path(ref) if is_path(ref) else home.session_path(ref))


def follow_links(path: Path) -> Path:
    """The real file behind a session path: a symlinked session is saved where it really is."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def session_files(home: Home) -> list[Path]:
    """Every session file in the data folder, by name."""
    if not home.sessions.is_dir():
        return []
    return sorted(home.sessions.glob("*.toml"))


# ---------------------------------------------------------------------------- reading


def read_toml(path: Path, what: str = "file") -> dict[str, Any]:
    """Parse a TOML file, turning every failure into one clear `StorageError`."""
    return parse_toml(read_bytes(path, what), path)


def read_bytes(path: Path, what: str = "file") -> bytes:
    """A regular file's bytes (never a device, a pipe or a folder), or one clear `StorageError`."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise StorageError(f"{shown(path)}: no such {what}") from None
    except OSError as error:
        raise StorageError(f"{shown(path)}: cannot read: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise StorageError(f"{shown(path)}: is a folder, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise StorageError(f"{shown(path)}: not a regular file, so not a {what}")
        if info.st_size > MAX_FILE_BYTES:
            raise StorageError(f"{shown(path)}: too large for a {what} ({info.st_size} bytes)")
        chunks, left = [], MAX_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise StorageError(f"{shown(path)}: cannot read: {error.strerror or error}") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_FILE_BYTES:  # it grew while we read
        raise StorageError(f"{shown(path)}: too large for a {what}")
    return raw


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


def digest_of(raw: bytes) -> str:
    """The key of a file's content."""
    return hashlib.sha256(raw).hexdigest()


def load(path: Path, cache: Cache | None = None) -> Loaded:
    """Read and check a session file: its shape, then a replay of every event.

    With a `cache`, bytes whose replay was kept before are not replayed again; any edit, by
    hand or not, changes the bytes and so replays.
    """
    path = follow_links(path)
    raw = read_bytes(path, "session file")
    return load_bytes(path, raw, cache)


def load_bytes(path: Path, raw: bytes, cache: Cache | None = None) -> Loaded:
    """`load` of bytes already read (under the lock, by a transaction)."""
    digest = digest_of(raw)
    if cache is not None:
        hit = cache.get(path, digest)
        if hit is not None:
            return hit
    loaded = _load_bytes(path, raw, digest)
    if cache is not None:
        cache.put(loaded)
    return loaded


def _load_bytes(path: Path, raw: bytes, digest: str) -> Loaded:
    doc = parse_toml(raw, path)
    schema = doc.get("schema")
    where = shown(path)
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
    try:
        session = session_from_doc(doc)
        state = replay(session)
    except ReplayError as error:
        raise StorageError(f"{where}, {error}") from None
    except RefereeError as error:
        raise StorageError(f"{where}: {error}") from None
    return Loaded(path, session, state, original, digest)


# ---------------------------------------------------------------------------- the replay cache


@functools.cache
def code_digest() -> str:
    """A digest of referee's own sources: an edited engine never serves an old replay."""
    return source_digest(Path(__file__).parent)


def source_digest(package: Path) -> str:
    """A digest of every Python source below `package`: its name, size and modification time.

    Stat-based, so it costs a fraction of a millisecond on every start; any edit, install or
    checkout changes a file's time or size, and so every key.
    """
    digest = hashlib.sha256()
    # os.walk and os.stat rather than Path.rglob: half the time, and this runs on every start.
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)  # noqa: PTH118
            info = os.stat(path)  # noqa: PTH116
            where = os.path.relpath(path, package)
            digest.update(f"{where}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


class Cache:
    """Replays of session files, kept so a long night shows as fast as a short one.

    Derived data only, in the user's cache folder (never the data folder, which may be synced
    or shared): private to the user, JSON (a format that cannot run code), keyed on the bytes
    of the session file and the code of the engine. Anything odd about an entry or the folder
    means a replay, never an error; deleting the folder is always safe.
    """

    def __init__(self, root: Path) -> None:
        self.root = root

    @classmethod
    def default(cls) -> Cache:
        """`$XDG_CACHE_HOME/referee`, else `~/.cache/referee` (Linux, macOS and Termux alike)."""
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return cls(Path(base) / "referee")

    def is_private(self, *, create: bool = False) -> bool:
        """Whether the folder is ours alone (a real folder of ours, closed to others)."""
        try:
            if create and not self.root.exists():
                self.root.parent.mkdir(parents=True, exist_ok=True)
                self.root.mkdir(mode=0o700)
            info = os.lstat(self.root)
        except OSError:
            return False
        return (
            stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o077 == 0
        )

    def read_document(self, name: str) -> object:
        """A JSON document this cache keeps by `name` (None if absent, broken or not ours)."""
        if not self.is_private():
            return None
        try:
            fd = os.open(self.root / f"{name}.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    return None
                return json.loads(handle.read(MAX_FILE_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            return None

    def write_document(self, name: str, document: object) -> None:
        """Keep a JSON document by `name` (best effort, like every cache write)."""
        if not self.is_private(create=True):
            return
        target = self.root / f"{name}.json"
        temp = target.with_name(f".{target.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
        try:
            data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            with os.fdopen(os.open(temp, flags, 0o600), "wb") as handle:
                handle.write(data)
            os.replace(temp, target)  # noqa: PTH105 -- as every other cache write
        except (OSError, ValueError, TypeError):
            with contextlib.suppress(OSError):
                temp.unlink()

    def forget(self, path: Path) -> None:
        """Drop the kept replay of `path` (a deleted session)."""
        with contextlib.suppress(OSError):
            self.entry(path).unlink()

    def entry(self, path: Path) -> Path:
        """The one entry a session file has (rewritten as the file changes)."""
        name = hashlib.sha256(str(path.absolute()).encode()).hexdigest()[:32]
        return self.root / f"{name}.json"

    def key(self, digest: str) -> list[object]:
        """What an entry must match to be served."""
        return [digest, code_digest(), SCHEMA]

    def get(self, path: Path, digest: str) -> Loaded | None:
        """The kept replay of `path` whose bytes have `digest`, or None (then replay)."""
        if not self.is_private():
            return None
        try:
            fd = os.open(self.entry(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                    return None
                raw = handle.read(MAX_FILE_BYTES + 1)
            found = json.loads(raw)
            if not isinstance(found, dict) or found.get("key") != self.key(digest):
                return None
            session = session_from_doc(found["session"])
            state = from_plain(session.engine.state_type, found["state"])
            schema = found["schema"]
            if isinstance(schema, bool) or not isinstance(schema, int):
                return None
        except (OSError, ValueError, KeyError, TypeError, RecursionError, RefereeError):
            return None  # a missing, old, broken or planted entry only means: replay
        return Loaded(path, session, state, schema, digest)

    def put(self, loaded: Loaded) -> None:
        """Keep `loaded` as the replay of the bytes it was read from or saved as (best effort)."""
        if not loaded.digest or not self.is_private(create=True):
            return
        target = self.entry(loaded.path)
        temp = target.with_name(f".{target.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
        try:
            document = {
                "key": self.key(loaded.digest),
                "schema": loaded.schema,
                "session": session_to_doc(loaded.session),
                "state": to_plain(loaded.state),
            }
            data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(temp, flags, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temp, target)  # noqa: PTH105 -- the same call as the session save
        except (OSError, ValueError, TypeError):  # a cache not written is only a slower start
            with contextlib.suppress(OSError):
                temp.unlink()


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
    return Session(
        name=name,
        game=game,
        ruleset=dict(_table(doc, "ruleset")),
        players=check_players(players, game),
        options=dict(options),
        events=_events(doc, "events"),
        undone=_events(doc, "undone"),
        created=_text(doc, "created", ""),
        updated=_text(doc, "updated", ""),
    )


def session_to_doc(session: Session) -> dict[str, Any]:
    """A session as the plain document its file holds."""
    return {
        "schema": SCHEMA,
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


def session_to_text(session: Session) -> str:
    """The TOML text of a session file, each part checked by parsing it back.

    The header and the tables are small and are dumped and checked on every save; each event
    is one line, dumped and checked once (`_event_line`), so a long night saves quickly.
    """
    import tomli_w

    doc = session_to_doc(session)
    head = {k: doc[k] for k in ("schema", "name", "game", "created", "updated", "players")}
    tables = {k: doc[k] for k in ("options", "ruleset")}
    head_text, tables_text = tomli_w.dumps(head), tomli_w.dumps(tables)
    if _parse(head_text) != head or _parse(tables_text) != tables:
        raise StorageError("refusing to save: the text would not read back the same")
    return "".join(
        [head_text, _array("events", session.events), _array("undone", session.undone), "\n",
         tables_text]
    )  # fmt: skip


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
    """One event as an inline table, checked by parsing it back (events never change).

    Written here rather than by tomli-w, which turns a table longer than 100 characters into
    an [[array of tables]] that could not stand inside the events list; tomli-w still does the
    quoting and escaping of every key and value.
    """
    import tomli_w

    def pair(key: str, value: str | int) -> str:
        return tomli_w.dumps({key: value}).rstrip("\n")

    event = dict(items)
    line = "{ " + ", ".join(pair(k, v) for k, v in items) + " }" if items else "{}"
    if "\n" in line or _parse(f"e = {line}") != {"e": event}:
        raise StorageError("refusing to save: an event would not read back the same")
    return line


def _crash_point(name: str) -> None:
    if os.environ.get(CRASH_ENV) == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def atomic_write(path: Path, content: str | bytes) -> None:
    """Replace `path` with `content` so that a crash leaves the old or the new file, never a mix."""
    import tempfile

    data = content.encode("utf-8") if isinstance(content, str) else content
    folder = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            _crash_point("after_temp_write")
            os.fsync(handle.fileno())
        _crash_point("after_fsync")
        os.replace(tmp, path)  # noqa: PTH105 -- tests break os.replace to simulate a full disk
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    # From here the new file is in place: "saved" means saved, so nothing below may fail loudly.
    _crash_point("after_replace")
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def save(
    path: Path,
    session: Session,
    schema_on_disk: int | None = None,
    *,
    state: Any = None,
    cache: Cache | None = None,
) -> Loaded:
    """Write `session` atomically, stamping `updated`; back up a file of an older schema first.

    Returns what was saved as a `Loaded` (its digest is of the bytes written); with `state`
    (the replay of `session`) and a `cache`, the next load of this file needs no replay.
    """
    session = replace(session, updated=now())
    data = session_to_text(session).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        raise StorageError(
            f"{shown(path)}: not saved: the session would pass the {MAX_FILE_BYTES} byte limit"
            " that files are read with; start a new session"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # We hold the lock, so a temp file of this session belongs to a writer that was killed.
        for stale in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()
        if schema_on_disk is not None and schema_on_disk < SCHEMA:
            backup = path.with_name(f"{path.name}.schema{schema_on_disk}.bak")
            if not backup.exists():
                import shutil

                shutil.copy2(path, backup)
        atomic_write(path, data)
    except OSError as error:
        raise StorageError(f"{shown(path)}: not saved: {error.strerror or error}") from None
    saved = Loaded(path, session, state, SCHEMA, digest_of(data))
    if cache is not None and state is not None:
        cache.put(saved)
    return saved


def lock_timeout() -> float:
    """Seconds to wait for another terminal's lock: `$REFEREE_LOCK_TIMEOUT`, default 5."""
    text = os.environ.get(LOCK_TIMEOUT_ENV, "5")
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= LOCK_TIMEOUT_MAX:  # also refuses nan
        raise UsageError(
            f"{LOCK_TIMEOUT_ENV} must be a number of seconds from 0 to {LOCK_TIMEOUT_MAX:.0f},"
            f" not {quote(text)}"
        )
    return seconds


def lock_path(path: Path) -> Path:
    """The lock file beside a session file: `friday.toml` is locked by `friday.lock`."""
    return path.with_name(path.name.removesuffix(".toml") + ".lock")


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the session's lock file (never the data file, which gets replaced).

    The folder must exist: a refused command never creates folders or lock files.
    """
    if timeout is None:
        timeout = lock_timeout()
    lock_file = lock_path(path)
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        reason = error.strerror or error
        raise StorageError(f"{shown(lock_file)}: cannot lock: {reason}") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StorageError(
                        f"{shown(path)}: another referee is writing this session; try again"
                    ) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # closing releases the lock


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Saved(Generic[T]):
    """What a transaction wrote (with the state after it), and what its change returned."""

    loaded: Loaded
    value: T

    @property
    def session(self) -> Session:
        """The session as saved."""
        return self.loaded.session


Change = Callable[[Session, Any], tuple[Session, Any, T]]


def transaction(
    path: Path, change: Change[T], cache: Cache | None = None, known: Loaded | None = None
) -> Saved[T]:
    """Under the lock: read, apply `change`, save. A refused change writes nothing.

    `change(session, state)` returns the new session, its state (None: replay it) and a value.
    `known` is a copy already in memory (the shell's): it is used only when its digest is the
    digest of the bytes read here, under the lock, so a change always builds on the file as it
    is, never on a copy another terminal has since replaced.
    """
    path = follow_links(path)
    read_bytes(path, "session file")  # refuse a missing session before making a lock file
    with locked(path):
        raw = read_bytes(path, "session file")
        if known is not None and known.path == path and known.digest == digest_of(raw):
            loaded = known
        else:
            loaded = load_bytes(path, raw, cache)
        session, state, value = change(loaded.session, loaded.state)
        if state is None:
            state = replay(session)
        saved = save(path, session, loaded.schema, state=state, cache=cache)
    return Saved(saved, value)


def read_text(path: Path, what: str = "file") -> str:
    """A small text file, or a clear `StorageError`."""
    raw = read_bytes(path, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StorageError(f"{shown(path)}: not UTF-8 text") from None


CLOCK_ENV = "REFEREE_CLOCK"  # a fixed time for reproducible transcripts and tests


def now() -> str:
    """The time stamp written in session files (UTC); `$REFEREE_CLOCK` fixes it."""
    from datetime import UTC, datetime

    fixed = os.environ.get(CLOCK_ENV)
    if fixed:
        try:
            return datetime.fromisoformat(fixed).astimezone(UTC).isoformat()
        except ValueError:
            raise UsageError(f"{CLOCK_ENV} must be an ISO time, not {quote(fixed)}") from None
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def create(path: Path, session: Session, state: Any, *, keep_created: bool = False) -> Session:
    """Write a brand-new session (`state` is its replay), refusing to overwrite any file;
    `keep_created` keeps the session's own creation time (an import)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        where = shown(path.parent)
        raise StorageError(f"{where}: cannot make the folder: {error.strerror or error}") from None
    with locked(path):
        if path.exists() or path.is_symlink():
            where = shown(path)
            raise UsageError(f"a session file already exists at {where}: pick another --name")
        stamped = session if keep_created and session.created else replace(session, created=now())
        return save(path, stamped, state=state).session


def write_new(path: Path, data: bytes, *, force: bool = False) -> None:
    """Write an export: never a half file under the final name, never over an existing file
    unless `force`. The temp file is linked into place (which fails if the name is taken)."""
    import tempfile

    folder = path.parent
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise StorageError(f"{shown(path)}: cannot write: {error.strerror or error}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            _crash_point("export_after_temp_write")
            os.fsync(handle.fileno())
        _publish(tmp, path, force)
    except OSError as error:
        raise StorageError(f"{shown(path)}: not written: {error.strerror or error}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _publish(tmp: Path, path: Path, force: bool) -> None:
    if force:
        os.replace(tmp, path)  # noqa: PTH105 -- the same call as the session save
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise StorageError(f"{shown(path)} exists: add --force to replace it") from None


def write_sqlite(
    path: Path, schema: str, tables: Mapping[str, list[tuple[Any, ...]]], *, force: bool = False
) -> None:
    """A fresh SQLite database of `tables`, written in one transaction to a temp file and then
    put in place whole: re-exporting refreshes it, a kill midway leaves the old one."""
    import sqlite3
    import tempfile

    if path.exists() and not force:
        raise StorageError(f"{shown(path)} exists: add --force to replace it")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise StorageError(f"{shown(path)}: cannot write: {error.strerror or error}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        db = sqlite3.connect(tmp)
        try:
            with db:  # one transaction
                db.executescript(schema)
                for table, table_rows in tables.items():
                    if table_rows:
                        marks = ", ".join("?" * len(table_rows[0]))
                        db.executemany(f"INSERT INTO {table} VALUES ({marks})", table_rows)
        finally:
            db.close()
        with open(tmp, "rb+") as handle:  # noqa: PTH123 -- the fd is what gets fsynced
            os.fsync(handle.fileno())
        _crash_point("export_after_temp_write")
        _publish(tmp, path, force)
    except (OSError, sqlite3.Error) as error:
        raise StorageError(f"{shown(path)}: not written: {error}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def remove_session(home: Home, path: Path) -> None:
    """Delete a session file under its lock, then its lock; clear the pointer to it."""
    read_bytes(path, "session file")
    with locked(path):
        try:
            path.unlink()
        except OSError as error:
            raise StorageError(f"{shown(path)}: not deleted: {error.strerror or error}") from None
    with contextlib.suppress(OSError):
        lock_path(path).unlink()
    if home.current() in (path.stem, str(path)):
        with contextlib.suppress(OSError):
            (home.root / "current").unlink()


def rename_session(home: Home, old: Path, new_name: str) -> Path:
    """Give a session a new name: the file is written anew under it (with its `name`), then
    the old one removed, so a crash between leaves both, never neither."""
    new = home.session_path(new_name)
    with locked(old):
        loaded = load_bytes(old, read_bytes(old, "session file"))
        if new.exists() or new.is_symlink():
            raise UsageError(f"a session called {quote(new_name)} exists already")
        save(new, replace(loaded.session, name=new_name), state=loaded.state)
        try:
            old.unlink()
        except OSError as error:
            raise StorageError(f"{shown(old)}: copied, not removed: {error.strerror}") from None
    with contextlib.suppress(OSError):
        lock_path(old).unlink()
    if home.current() in (old.stem, str(old)):
        home.set_current(new_name)
    return new


def discard(path: Path) -> None:
    """Remove a session just created whose creation could not be finished (best effort)."""
    with contextlib.suppress(OSError):
        path.unlink()


# ---------------------------------------------------------------------------- rulesets


def bundled_rulesets() -> Path:
    """The folder of bundled rulesets: inside the installed package, or the repo's top level."""
    packaged = Path(__file__).parent / "rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"


def ruleset_names() -> list[str]:
    """Names of the bundled rulesets."""
    return sorted(p.stem for p in bundled_rulesets().glob("*.toml"))


def ruleset_path(ref: str) -> Path:
    """The file a ruleset reference names: a bundled name or a path."""
    if is_path(ref):
        return Path(ref)
    if not ref or ref not in ruleset_names():
        raise UsageError(
            f"unknown ruleset {quote(ref)}: bundled ones are {', '.join(ruleset_names())}"
        )
    return bundled_rulesets() / f"{ref}.toml"


def load_ruleset(ref: str) -> dict[str, Any]:
    """The ruleset table `ref` names, with its `name` filled in."""
    path = ruleset_path(ref)
    table = read_toml(path, "ruleset")
    if not isinstance(table.get("game"), str):
        raise StorageError(f'{shown(path)}: a ruleset needs game = "kariki" (or another game)')
    table.setdefault("name", path.stem)
    return table
