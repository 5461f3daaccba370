"""Session files as a whole: load (through the cache), save, create, change under the lock,
delete and rename.

Promises (RELIABILITY.md): a save is atomic (`atomic.atomic_write`); a lock on a separate
`NAME.lock` covers load -> check -> save; a file that cannot be read is never overwritten;
every file carries `schema`, older ones are migrated in memory and backed up before the first
write.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from referee.errors import RefereeError, StorageError, UsageError, quote
from referee.session import Session, new_id, replay
from referee.storage import codec, files
from referee.storage.atomic import atomic_write, temp_pattern
from referee.storage.cache import Cache
from referee.storage.codec import SCHEMA, Loaded, digest_of, session_text
from referee.storage.files import CLOEXEC, NOFOLLOW, read_bytes, shown
from referee.storage.home import Home, follow_links, private_folder
from referee.storage.lock import lock_path, locked
from referee.text import is_same_name

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
    # to the millisecond: two matches a script plays within one second still finish in order
    # (ratings replay sessions by their finishing time, RULES 8)
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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
        kept = cache.load(path, raw, digest)
        if kept is not None:
            return kept
    parsed = codec.parse_session(path, raw, digest)
    if cache is not None:
        hit = cache.get(parsed)
        if hit is not None:
            return hit
    # Through the module, not a name imported from it: tests count the replays.
    state, before = codec.replay_of(parsed)
    loaded = replace(parsed, state=state)
    if cache is not None:
        cache.put(loaded, before)  # an undo after this load needs no replay either
    return loaded


def save(
    path: Path,
    session: Session,
    schema_on_disk: int | None = None,
    *,
    state: Any = None,
    cache: Cache | None = None,
    backup: str = "",
    before: Any = None,
    known: Loaded | None = None,
) -> Loaded:
    """Write `session` atomically, stamping `updated`; back up a file of an older kind first
    (`backup`, or an older `schema_on_disk`) as `NAME.toml.BACKUP.bak`.

    Returns what was saved as a `Loaded` (its digest is of the bytes written); with `state`
    (the replay of `session`) and a `cache`, the next load of this file needs no replay, and
    with `before` (the replay of all its events but the last) nor does an undo. Each event of
    `known` (the session as loaded) is written as the line it was read as.
    """
    if not backup and schema_on_disk is not None and schema_on_disk < SCHEMA:
        backup = f"schema{schema_on_disk}"
    session = replace(session, updated=now(), id=session.id or new_id())
    text, lines = session_text(session, known)
    data = text.encode("utf-8")
    if len(data) > files.MAX_FILE_BYTES:
        raise StorageError(
            f"{shown(path)}: not saved: the session would pass the {files.MAX_FILE_BYTES} byte"
            " limit that files are read with; start a new session"
        )
    try:
        private_folder(path.parent)
        # We hold the lock, so a temp file of this session belongs to a writer that was killed.
        for stale in path.parent.glob(temp_pattern(path)):
            with contextlib.suppress(OSError):
                stale.unlink()
        if backup:
            _back_up(path, path.with_name(f"{path.name}.{backup}.bak"))
        atomic_write(path, data)
    except OSError as error:
        raise StorageError(f"{shown(path)}: not saved: {error.strerror or error}") from None
    saved = Loaded(path, session, state, SCHEMA, digest_of(data), lines=lines)
    if cache is not None and state is not None:
        cache.put(saved, before)
    return saved


def _back_up(path: Path, backup: Path) -> Path:
    """Copy the file at `path` to `backup` (`NAME.toml.KIND.bak`) before its first write in
    the newer form, and return where the copy is.

    Never over an existing file and never through a link planted under the name (O_EXCL
    refuses any existing name, links too). A name already held by exactly these bytes (a save
    that failed after its backup, then tried again) is the backup. A name held by anything
    else (an older backup of another file, or a file planted by a synced folder to make the
    migration skip its backup) is left alone and the copy goes to the first free
    `NAME.toml.KIND.N.bak`: a backup is never skipped because its name is taken."""
    raw = read_bytes(path, "session file")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC
    stem = backup.name.removesuffix(".bak")
    for number in range(100):
        target = backup if number == 0 else backup.with_name(f"{stem}.{number}.bak")
        try:
            fd = os.open(target, flags, 0o600)
        except FileExistsError:
            if _holds(target, raw):
                return target
            continue
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(raw)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError:
            with contextlib.suppress(OSError):
                target.unlink()
            raise
        return target
    raise StorageError(
        f"{shown(backup)}: not saved: no free name for the backup of the older file"
        f" ({shown(backup.with_name(stem + '.99.bak'))} is taken too); move the old backups away"
    )


def _holds(path: Path, raw: bytes) -> bool:
    """Whether `path` is a regular file (not a link) of exactly `raw`'s bytes."""
    try:
        return read_bytes(path, "backup", follow=False) == raw
    except StorageError:
        return False


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
        if state is None and cache is not None and session.events == loaded.session.events[:-1]:
            state = cache.before(loaded)  # an undo: the kept replay of exactly what is left
        if state is None:
            state = replay(session)
        # One event added (an action, a redo): the state before it is the one just loaded.
        before = loaded.state if session.events[:-1] == loaded.session.events else None
        saved = save(
            path,
            session,
            loaded.schema,
            state=state,
            cache=cache,
            backup=loaded.backup,
            before=before,
            known=loaded,
        )
    return Saved(saved, value)


def create(path: Path, session: Session, state: Any, *, keep_created: bool = False) -> Session:
    """Write a brand-new session (`state` is its replay), refusing to overwrite any file;
    `keep_created` keeps the session's own creation time (an import)."""
    try:
        private_folder(path.parent)
    except OSError as error:
        where = shown(path.parent)
        raise StorageError(f"{where}: cannot make the folder: {error.strerror or error}") from None
    with locked(path):
        if path.exists() or path.is_symlink():
            where = shown(path)
            raise UsageError(f"a session file already exists at {where}: pick another --name")
        _refuse_twin(path)
        stamped = session if keep_created and session.created else replace(session, created=now())
        return save(path, replace(stamped, id=stamped.id or new_id()), state=state).session


def _refuse_twin(path: Path) -> None:
    """Refuse a session whose name differs from another's only in case (`friday` beside
    `Friday`): one file on a Mac's or Windows' disk, and `-s fri` could not choose."""
    wanted = path.stem.casefold()
    try:
        with os.scandir(path.parent) as entries:  # names only: nothing there is opened
            twins = [e.name for e in entries if e.name.casefold() == f"{wanted}.toml"]
    except OSError:
        return
    twin = next((n[: -len(".toml")] for n in twins if n != path.name), None)
    if twin is not None:
        said = f"a session called {quote(twin)} exists already: names differ by more than case"
        raise UsageError(said)


def remove_session(home: Home, path: Path) -> bool:
    """Delete a session under its lock, then its lock; clear the pointer to it.

    `path` is the name as found, not followed: a session that is a link loses the link (under
    the lock of the file it points to, which writers take) and the file stays. True if it was
    a link.
    """
    is_link = path.is_symlink()
    real = follow_links(path)
    pointed = _pointer(home)  # read first: a pointer that is no file of ours is left alone
    if is_link and not real.exists():  # a link to nothing: only the link to remove
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return True
    read_bytes(real, "session file")
    with locked(real):
        try:
            path.unlink()
        except OSError as error:
            raise StorageError(f"{shown(path)}: not deleted: {error.strerror or error}") from None
    if not is_link:
        with contextlib.suppress(OSError):
            lock_path(path).unlink()
    if pointed in (path.stem, str(path), str(real)):
        with contextlib.suppress(OSError):
            (home.root / "current").unlink()
    return is_link


def _pointer(home: Home) -> str | None:
    """The current-session pointer, or None where it is none of ours (a FIFO, a folder, a
    link planted there): a delete or a rename then does its work and leaves the pointer, which
    the next command refuses in one line, rather than doing the work and failing after it."""
    try:
        return home.current()
    except RefereeError:
        return None


def rename_session(home: Home, old: Path, new_name: str) -> Path:
    """Give a session a new name: the file is written anew under it (with its `name`), then
    the old one removed, so a crash between leaves both, never neither. A session that is a
    link stays a link: its file gets the new `name` and the link the new file name."""
    new = home.session_path(new_name)
    real = follow_links(old)
    pointed = _pointer(home)
    with locked(real):
        loaded = load_bytes(real, read_bytes(real, "session file"))
        if new.exists() or new.is_symlink():
            raise UsageError(f"a session called {quote(new_name)} exists already")
        if not is_same_name(new.stem, old.stem):  # `rename friday Friday` changes the case
            _refuse_twin(new)
        renamed = replace(loaded.session, name=new_name)
        if old.is_symlink():
            save(real, renamed, state=loaded.state, backup=loaded.backup)
            try:
                os.rename(old, new)  # noqa: PTH104 -- moves the link itself
            except OSError as error:
                raise StorageError(f"{shown(old)}: not renamed: {error.strerror}") from None
        else:
            if loaded.backup:  # the old file goes away: keep it in its older form first
                _back_up(old, old.with_name(f"{old.name}.{loaded.backup}.bak"))
            save(new, renamed, state=loaded.state)
            try:
                old.unlink()
            except OSError as error:
                raise StorageError(f"{shown(old)}: copied, not removed: {error.strerror}") from None
    if real == old:
        with contextlib.suppress(OSError):
            lock_path(old).unlink()
    if pointed in (old.stem, str(old)):
        with contextlib.suppress(RefereeError):  # the session is renamed: the pointer follows
            home.set_current(new_name)  # if it can (a folder planted there since: it cannot)
    return new


def discard(path: Path) -> None:
    """Remove a session just created whose creation could not be finished, and the lock file
    its creation made (best effort): a refused `new` leaves nothing behind."""
    with contextlib.suppress(OSError):
        path.unlink()
    with contextlib.suppress(OSError):
        lock_path(path).unlink()
