"""The lock beside a session file: one writer at a time, load -> check -> save."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from referee.errors import StorageError, UsageError, quote
from referee.storage.files import CLOEXEC, NOFOLLOW, shown

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


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None, what: str = "session") -> Iterator[None]:
    """Hold the lock file of `path` (never the data file, which gets replaced): a session's, or
    the nights' (`what` names it in the message when another holds it).

    The folder must exist: a refused command never creates folders or lock files.
    """
    if timeout is None:
        timeout = lock_timeout()
    lock_file = lock_path(path)
    try:
        # O_NOFOLLOW: a lock file planted as a link must not create or touch its target.
        flags = os.O_RDWR | os.O_CREAT | CLOEXEC | NOFOLLOW
        fd = os.open(lock_file, flags, 0o600)
    except OSError as error:
        reason = error.strerror or error
        raise StorageError(f"{shown(lock_file)}: cannot lock: {reason}") from None
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise StorageError(
                    f"{shown(path)}: another referee is writing this {what}; try again"
                )
            time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # closing releases the lock
