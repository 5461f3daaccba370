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
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from referee import __version__, games
from referee.errors import RefereeError, StorageError, UsageError, quote
from referee.games.base import PlayerInfo
from referee.session import ReplayError, Session, check_session_name, replay

SCHEMA = 1
# schema N -> a function turning a schema-N document into a schema-(N+1) one.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
MAX_FILE_BYTES = 8 * 1024 * 1024

# Test hook (RELIABILITY.md): kill this process at a named point of a save.
CRASH_ENV = "REFEREE_TEST_CRASH_AT"
LOCK_TIMEOUT_ENV = "REFEREE_LOCK_TIMEOUT"


# ---------------------------------------------------------------------------- places


@dataclass(frozen=True, slots=True)
class Home:
    """The data folder: `sessions/NAME.toml` and the `current` pointer."""

    root: Path

    @property
    def sessions(self) -> Path:
        """The folder holding one TOML file per session."""
        return self.root / "sessions"

    @property
    def cache(self) -> Path:
        """Replays kept by file content, so a long session shows fast; safe to delete."""
        return self.root / "cache"

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
            raise StorageError(f"{self.root / 'current'}: cannot read: {error}") from None
        return text or None

    def set_current(self, ref: str) -> None:
        """Make `ref` (a name or a path) the current session."""
        self.root.mkdir(parents=True, exist_ok=True)
        atomic_write(self.root / "current", ref + "\n")


def is_path(ref: str) -> bool:
    """A session reference is a path when it ends in .toml or contains a slash."""
    return ref.endswith(".toml") or "/" in ref or os.sep in ref


def resolve(home: Home, ref: str | None) -> Path:
    """The file of the session `ref` names (a name or a path), else the current one."""
    ref = ref or os.environ.get("REFEREE_SESSION") or home.current()
    if not ref:
        raise UsageError("no current session: start one with 'referee new kariki Ann Bob'")
    return Path(ref) if is_path(ref) else home.session_path(ref)


def session_names(home: Home) -> list[Path]:
    """Every session file in the data folder, by name."""
    if not home.sessions.is_dir():
        return []
    return sorted(home.sessions.glob("*.toml"))


# ---------------------------------------------------------------------------- reading


def read_toml(path: Path, what: str = "file") -> dict[str, Any]:
    """Parse a TOML file, turning every failure into one clear `StorageError`."""
    return parse_toml(read_bytes(path, what), path)


def read_bytes(path: Path, what: str = "file") -> bytes:
    """A file's bytes, or one clear `StorageError`."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise StorageError(f"{path}: too large for a {what} ({path.stat().st_size} bytes)")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise StorageError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise StorageError(f"{path}: is a folder, not a {what}") from None
    except OSError as error:
        raise StorageError(f"{path}: cannot read: {error.strerror or error}") from None
    return raw


def parse_toml(raw: bytes, path: Path) -> dict[str, Any]:
    """Parse TOML bytes, turning every failure into one clear `StorageError`."""
    import tomllib

    if raw.startswith(b"\xef\xbb\xbf"):
        raise StorageError(f"{path}: starts with a byte-order mark; save it as plain UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise StorageError(f"{path}, line {line}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StorageError(f"{path}: not valid TOML: {error}") from None
    except (ValueError, RecursionError) as error:  # 5,000-digit integers, absurd nesting
        raise StorageError(f"{path}: cannot be read: {str(error)[:60]}") from None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A session as read and replayed, with the schema its file had on disk."""

    path: Path
    session: Session
    state: Any
    schema: int
    stamp: tuple[int, int, int] | None = None  # (inode, size, mtime) of the file as read

    def is_current(self) -> bool:
        """True while the file on disk is the one this was read from (or saved as)."""
        return self.stamp is not None and _stamp(self.path) == self.stamp


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def load(path: Path, cache: Path | None = None) -> Loaded:
    """Read and check a session file: its shape, then a replay of every event.

    With a `cache` folder, a file whose bytes were loaded before is not replayed again: the
    replay is kept under the SHA-256 of the bytes, so any edit, by hand or not, replays.
    """
    stamp = _stamp(path)
    raw = read_bytes(path, "session file")
    digest = hashlib.sha256(raw).hexdigest()
    if cache is not None:
        hit = _cache_read(cache, path, digest)
        if hit is not None:
            return replace(hit, stamp=stamp)
    loaded = replace(_load_bytes(path, raw), stamp=stamp)
    if cache is not None:
        _cache_write(cache, loaded, digest)
    return loaded


def _load_bytes(path: Path, raw: bytes) -> Loaded:
    doc = parse_toml(raw, path)
    schema = doc.get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise StorageError(f"{path}: 'schema' must be a whole number, not {schema!r}")
    if schema > SCHEMA:
        raise StorageError(
            f"{path}: written by a newer referee (schema {schema}, this one reads {SCHEMA});"
            " upgrade referee"
        )
    original = schema
    while schema < SCHEMA:
        if schema not in MIGRATIONS:
            raise StorageError(f"{path}: schema {schema} is too old to read")
        doc = MIGRATIONS[schema](doc)
        schema += 1
    try:
        session = session_from_doc(doc)
        state = replay(session)
    except ReplayError as error:
        raise StorageError(f"{path}, {error}") from None
    except RefereeError as error:
        raise StorageError(f"{path}: {error}") from None
    return Loaded(path, session, state, original)


# The replay cache holds derived data only: the session file stays the one source of truth.
# Pickle is used because states are the games' own dataclasses; the folder is the user's own
# data folder, never shared, and any entry that fails to read is ignored.
_CACHE_KEY = f"referee {__version__} schema {SCHEMA}"


def keep_replay(cache: Path, loaded: Loaded) -> None:
    """Keep `loaded` as the replay of its file as it is now on disk (best effort)."""
    try:
        raw = loaded.path.read_bytes()
    except OSError:
        return
    _cache_write(cache, loaded, hashlib.sha256(raw).hexdigest())


def _cache_file(cache: Path, path: Path) -> Path:
    name = hashlib.sha1(str(path.resolve()).encode(), usedforsecurity=False).hexdigest()[:20]
    return cache / f"{name}.pickle"


def _cache_read(cache: Path, path: Path, digest: str) -> Loaded | None:
    import pickle

    try:
        with _cache_file(cache, path).open("rb") as handle:
            key, found = pickle.load(handle)
    except Exception:  # a missing, old or broken cache entry only means: replay
        return None
    if key != (_CACHE_KEY, digest) or not isinstance(found, Loaded):
        return None
    return replace(found, path=path)


def _cache_write(cache: Path, loaded: Loaded, digest: str) -> None:
    import pickle

    target = _cache_file(cache, loaded.path)
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        cache.mkdir(parents=True, exist_ok=True)
        with temp.open("wb") as handle:
            pickle.dump(((_CACHE_KEY, digest), loaded), handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, target)  # noqa: PTH105 -- the same call as the session save
    except Exception:  # a cache that cannot be written is only a slower next start
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
    """A `Session` from a parsed, current-schema document; `UsageError` on a bad shape."""
    game = games.canonical(_text(doc, "game"))
    players_doc = doc.get("players")
    if not isinstance(players_doc, list) or not players_doc:
        raise UsageError("'players' must be a list of {name = ...} tables")
    players = []
    for item in players_doc:
        if not isinstance(item, dict):
            raise UsageError("'players' must be a list of {name = ...} tables")
        nickname = item.get("nickname")
        if nickname is not None and not isinstance(nickname, str):
            raise UsageError(f"nickname of {item.get('name')!r} must be a string")
        players.append(PlayerInfo(_text(item, "name"), nickname))
    options = _table(doc, "options")
    if not all(isinstance(v, str | int) for v in options.values()):
        raise UsageError("'options' must hold strings and numbers")
    return Session(
        name=_text(doc, "name", ""),
        game=game,
        ruleset=dict(_table(doc, "ruleset")),
        players=tuple(players),
        options=dict(options),
        events=_events(doc, "events"),
        undone=_events(doc, "undone"),
        created=_text(doc, "created", ""),
        updated=_text(doc, "updated", ""),
    )


def session_to_text(session: Session) -> str:
    """The TOML text of a session file, each part checked by parsing it back.

    The header and the tables are small and are dumped and checked on every save; each event
    is one line, dumped and checked once (`_event_line`), so a long night saves quickly.
    """
    import tomli_w

    head: dict[str, Any] = {
        "schema": SCHEMA,
        "name": session.name,
        "game": session.game,
        "created": session.created,
        "updated": session.updated,
        "players": [
            {"name": p.name, **({"nickname": p.nickname} if p.nickname else {})}
            for p in session.players
        ],
    }
    tables: dict[str, Any] = {"options": dict(session.options), "ruleset": dict(session.ruleset)}
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


def atomic_write(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves the old or the new file, never a mix."""
    import tempfile

    data = text.encode("utf-8")
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
    cache: Path | None = None,
) -> Loaded:
    """Write `session` atomically, stamping `updated`; back up a file of an older schema first.

    Returns what was saved as a `Loaded`; with `state` (the replay of `session`) and a `cache`
    folder, the next load of this file needs no replay.
    """
    session = replace(session, updated=now())
    text = session_to_text(session)
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
        atomic_write(path, text)
    except OSError as error:
        raise StorageError(f"{path}: not saved: {error.strerror or error}") from None
    saved = Loaded(path, session, state, SCHEMA, _stamp(path))
    if cache is not None and state is not None:
        _cache_write(cache, saved, hashlib.sha256(text.encode("utf-8")).hexdigest())
    return saved


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the session's lock file (never the data file, which gets replaced)."""
    if timeout is None:
        timeout = float(os.environ.get(LOCK_TIMEOUT_ENV, "5"))
    lock_path = path.with_name(path.name.removesuffix(".toml") + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StorageError(f"{lock_path}: cannot lock: {error.strerror or error}") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StorageError(
                        f"{path}: another referee is writing this session; try again"
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
    path: Path, change: Change[T], cache: Path | None = None, known: Loaded | None = None
) -> Saved[T]:
    """Under the lock: load, apply `change`, save. A refused change writes nothing.

    `change(session, state)` returns the new session, its state (None: replay it) and a value.
    `known` is a copy already in memory (the shell's), used while the file is unchanged.
    """
    with locked(path):
        loaded = known if known is not None and known.is_current() else load(path, cache)
        session, state, value = change(loaded.session, loaded.state)
        if state is None:
            state = replay(session)
        saved = save(path, session, loaded.schema, state=state, cache=cache)
    return Saved(saved, value)


def read_text(path: Path) -> str:
    """A small text file, or a clear `StorageError`."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StorageError(f"{path}: cannot read: {error}") from None


def now() -> str:
    """The time stamp written in session files."""
    from datetime import UTC, datetime

    return datetime.now(UTC).replace(microsecond=0).isoformat()


def create(path: Path, session: Session) -> Session:
    """Write a brand-new session, refusing to overwrite an existing file."""
    with locked(path):
        if path.exists():
            raise UsageError(f"a session file already exists at {path}: pick another --name")
        stamped = replace(session, created=now())
        return save(path, stamped, state=replay(stamped)).session


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
        raise StorageError(f'{path}: a ruleset needs game = "kariki" (or another game)')
    table.setdefault("name", path.stem)
    return table
