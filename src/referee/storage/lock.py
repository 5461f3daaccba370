"""The lock beside a session file: one writer at a time, load -> check -> save."""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from referee.errors import StorageError, UsageError, quote
from referee.storage.files import CLOEXEC, NOFOLLOW, NONBLOCK, refuse_special, shown

LOCK_TIMEOUT_ENV = "REFEREE_LOCK_TIMEOUT"
LOCK_TIMEOUT_MAX = 600.0


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


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on the open lock file `fd` without waiting: True if taken.

    `fcntl.flock` on POSIX (Linux, macOS, Termux); `msvcrt.locking` on Windows, which has no
    fcntl. Both are released when the file is closed (or the process dies).
    """
    try:
        import fcntl
    except ImportError:
        import msvcrt  # Windows: lock the first byte of the file

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def lock_path(path: Path) -> Path:
    """The lock file beside a session file: `friday.toml` is locked by `friday.lock`."""
    return path.with_name(path.name.removesuffix(".toml") + ".lock")


def _open_lock(lock_file: Path) -> tuple[int, bool]:
    """The lock file, opened (made if missing, then True), never through a link, never a FIFO
    or a device planted under its name: those are refused before and after opening."""
    refuse_special(lock_file, "lock file", follow=False)
    base = os.O_RDWR | CLOEXEC | NOFOLLOW | NONBLOCK
    try:
        # O_NOFOLLOW: a lock file planted as a link must not create or touch its target.
        try:
            fd, made = os.open(lock_file, base | os.O_CREAT | os.O_EXCL, 0o600), True
        except FileExistsError:
            fd, made = os.open(lock_file, base), False
    except OSError as error:
        reason = error.strerror or error
        raise StorageError(f"{shown(lock_file)}: cannot lock: {reason}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise StorageError(f"{shown(lock_file)}: not a regular file, so not a lock file")
    return fd, made


def _still_there(fd: int, lock_file: Path) -> bool:
    """Whether the lock file's name still names the file `fd` holds: a holder that made it for
    a command that was then refused removes it, and a lock on a removed file locks nothing."""
    try:
        named = lock_file.lstat()
    except OSError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None, what: str = "session") -> Iterator[None]:
    """Hold the lock file of `path` (never the data file, which gets replaced): a session's, or
    the nights' (`what` names it in the message when another holds it).

    The folder must exist: a refused command never creates folders, and a lock file this
    command made is removed again (under the lock) when the command is refused or fails, so a
    refusal leaves nothing behind. Every holder checks, once it has the lock, that the name
    still names the file it locked, so removing a lock file under its lock is safe.
    """
    if timeout is None:
        timeout = lock_timeout()
    lock_file = lock_path(path)
    deadline = time.monotonic() + timeout
    while True:
        fd, made = _open_lock(lock_file)
        try:
            while not _try_lock(fd):
                if time.monotonic() >= deadline:
                    raise StorageError(
                        f"{shown(path)}: another referee is writing this {what}; try again"
                    )
                time.sleep(0.01)
            if _still_there(fd, lock_file):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the holder before removed it: lock the file the name now names
        if time.monotonic() >= deadline:
            raise StorageError(f"{shown(path)}: another referee is writing this {what}; try again")
    try:
        yield
    except BaseException:
        if made:  # refused or failed: the lock file this command made goes (Windows: stays)
            with contextlib.suppress(OSError):
                lock_file.unlink()
        raise
    finally:
        os.close(fd)  # closing releases the lock
