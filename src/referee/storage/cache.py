"""The replay cache: kept replays of session files, in the user's private cache folder."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import stat
from dataclasses import replace
from hashlib import sha256
from pathlib import Path
from typing import Any

from referee.codeid import code_digest
from referee.errors import RefereeError
from referee.plain import from_plain, to_plain
from referee.session import event_of
from referee.storage import files
from referee.storage.atomic import atomic_write
from referee.storage.codec import SCHEMA, Loaded, checked_session, session_to_doc, split_events
from referee.storage.files import shown


def _as_json(document: object) -> object:
    """`document` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(document, ensure_ascii=False))


def _ours(info: os.stat_result) -> bool:
    """Whether a file belongs to this user (where files have owners)."""
    uid = files.my_uid()
    return uid is None or info.st_uid == uid


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
        from referee.places import cache_root

        return cls(Path(cache_root()))

    def is_private(self, *, create: bool = False) -> bool:
        """Whether the folder is ours alone (a real folder of ours, closed to others)."""
        try:
            if create and not self.root.exists():
                self.root.parent.mkdir(parents=True, exist_ok=True)
                self.root.mkdir(mode=0o700)
            info = os.lstat(self.root)
        except OSError:
            return False
        return stat.S_ISDIR(info.st_mode) and _ours(info) and info.st_mode & 0o077 == 0

    def _read_json(self, target: Path) -> object:
        """The JSON document in `target` if it is a regular file of ours, else None."""
        if not self.is_private():
            return None
        try:
            fd = os.open(target, os.O_RDONLY | files.NOFOLLOW | files.NONBLOCK | files.CLOEXEC)
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode) or not _ours(info):
                    return None
                return json.loads(handle.read(files.MAX_FILE_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            return None

    def _write_json(self, target: Path, document: object) -> None:
        """Keep `document` in `target` (best effort: a cache not written is a slower start)."""
        if not self.is_private(create=True):
            return
        with contextlib.suppress(OSError, ValueError, TypeError):
            data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            atomic_write(target, data, durable=False, crash="cache_")

    def read_document(self, name: str) -> object:
        """A JSON document this cache keeps by `name` (None if absent, broken or not ours)."""
        return self._read_json(self.root / f"{name}.json")

    def write_document(self, name: str, document: object) -> None:
        """Keep a JSON document by `name` (best effort, like every cache write)."""
        self._write_json(self.root / f"{name}.json", document)

    def forget(self, path: Path) -> None:
        """Drop the kept replay and rows of `path` (a deleted session)."""
        for entry in (self.entry(path), self.entry(path, "rows")):
            with contextlib.suppress(OSError):
                entry.unlink()

    def entry(self, path: Path, kind: str = "") -> Path:
        """The one entry of a `kind` a session file has (rewritten as the file changes)."""
        name = sha256(str(path.absolute()).encode()).hexdigest()[:32]
        return self.root / (f"{name}.{kind}.json" if kind else f"{name}.json")

    def key(self, digest: str) -> list[object]:
        """What an entry must match to be served."""
        return [digest, code_digest(), SCHEMA]

    def load(self, path: Path, raw: bytes, digest: str) -> Loaded | None:
        """The session in the bytes `raw` (of `path`, with `digest`) with its kept replay,
        without parsing the bytes' events, or None (then parse them, and ask `get`).

        The session still comes from the bytes (`codec.split_events`): their header and tables
        are parsed, and their events must be, character for character, the kept session's
        events as every save writes them; any file referee did not write that way takes the
        longer way. A kept replay is believed only for exactly the events it was made of."""
        found = self._read_json(self.entry(path))
        try:
            if not isinstance(found, dict) or found.get("key") != self.key(digest):
                return None
            kept = found["session"]
            tables = {"options": kept["options"], "ruleset": kept["ruleset"]}
            split = split_events(raw, kept["events"], kept["undone"], tables)
            if split is None:
                return None
            session = checked_session(split[0], shown(path))
            state = from_plain(session.engine.state_type, found["state"])
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError, RefereeError):
            return None  # a missing, old, broken or planted entry only means: parse and replay
        before = found.get("before")
        return Loaded(path, session, state, SCHEMA, digest, kept_before=before, lines=split[1])

    def get(self, parsed: Loaded) -> Loaded | None:
        """`parsed` (a session just parsed from its file's bytes) with its kept replay, or None
        (then replay). The session is never taken from the entry: the entry's copy must equal
        it, so an entry planted, cut or left from other bytes only means a replay."""
        found = self._read_json(self.entry(parsed.path))
        try:
            if not isinstance(found, dict) or found.get("key") != self.key(parsed.digest):
                return None
            if found["session"] != _as_json(session_to_doc(parsed.session)):
                return None
            state = from_plain(parsed.session.engine.state_type, found["state"])
        except (ValueError, KeyError, TypeError, RecursionError, RefereeError):
            return None  # a missing, old, broken or planted entry only means: replay
        return replace(parsed, state=state, kept_before=found.get("before"))

    def before(self, loaded: Loaded) -> Any:
        """The state after every event of `loaded` but the last, if its kept replay held it
        (an undo needs no replay then), else None.

        Believed only when the last event leads from it to the kept state: an entry written
        wrong or planted with the right key only means a replay."""
        if loaded.kept_before is None or not loaded.session.events:
            return None
        engine = loaded.session.engine
        try:
            before = from_plain(engine.state_type, loaded.kept_before)
            after = engine.checked_apply(before, event_of(engine, loaded.session.events[-1]))
        except (ValueError, KeyError, TypeError, RecursionError, RefereeError):
            return None
        return before if after == loaded.state else None

    def put(self, loaded: Loaded, before: Any = None) -> None:
        """Keep `loaded` as the replay of the bytes it was read from or saved as (best effort),
        and `before`, the state after every event but its last, when the caller has it.

        Not of an older schema's file: its migration reads the ruleset it names, a file beside
        the session's bytes, so those bytes alone do not decide its replay."""
        if not loaded.digest or loaded.schema != SCHEMA:
            return
        with contextlib.suppress(ValueError, TypeError):
            document = {
                "key": self.key(loaded.digest),
                "schema": loaded.schema,
                "session": session_to_doc(loaded.session),
                "state": to_plain(loaded.state),
            }
            if before is not None:
                document["before"] = to_plain(before)
            self._write_json(self.entry(loaded.path), document)

    def get_rows(self, path: Path, digest: str) -> Rows | None:
        """The kept export rows of `path` whose bytes have `digest`, or None (then replay)."""
        found = self._read_json(self.entry(path, "rows"))
        if not isinstance(found, dict) or found.get("key") != self.key(digest):
            return None
        tables = found.get("tables")
        if not isinstance(tables, dict) or set(tables) != set(ROW_WIDTHS):
            return None
        rows: Rows = {}
        for table, width in ROW_WIDTHS.items():
            kept = tables[table]
            if not _are_rows(kept, width):
                return None  # a broken or planted entry only means: replay
            rows[table] = list(map(tuple, kept))
        return rows

    def has_rows(self, path: Path, digest: str) -> bool:
        """Whether rows are kept for the bytes of `path` with `digest`, by the entry's key alone
        (the start of the file `put_rows` writes): `get_rows` still checks every row, and an
        entry it refuses means a replay then."""
        if not self.is_private():
            return False
        key = json.dumps(self.key(digest), ensure_ascii=False, separators=(",", ":"))
        start = f'{{"key":{key},'.encode()
        try:
            fd = os.open(self.entry(path, "rows"),
                         os.O_RDONLY | files.NOFOLLOW | files.NONBLOCK | files.CLOEXEC)  # fmt: skip
        except OSError:
            return False
        try:
            info = os.fstat(fd)
            return stat.S_ISREG(info.st_mode) and _ours(info) and os.read(fd, len(start)) == start
        except OSError:
            return False
        finally:
            os.close(fd)

    def put_rows(self, path: Path, digest: str, rows: Rows) -> None:
        """Keep the export rows of the bytes with `digest` (best effort)."""
        self._write_json(self.entry(path, "rows"), {"key": self.key(digest), "tables": rows})


Rows = dict[str, list[tuple[Any, ...]]]
# The tables of an export a session's bytes decide, and the cells in a row of each (the
# session's row is kept with a null path and a null night: neither the file's path nor the
# night that lists it is in its bytes).
ROW_WIDTHS = {"sessions": 10, "players": 4, "events": 7, "results": 8, "tallies": 4}


def _are_rows(rows: object, width: int) -> bool:
    """Rows as JSON keeps them: a list of lists of `width` cells, each text, a whole number or
    null (checked by the exact types of all the cells at once: JSON gives no subclasses, and
    true is a `bool`, not an `int`)."""
    return (
        type(rows) is list
        and set(map(type, rows)) <= _LIST
        and all(len(row) == width for row in rows)
        and set(map(type, itertools.chain.from_iterable(rows))) <= _CELL
    )


_LIST = frozenset({list})
_CELL = frozenset({str, int, type(None)})
