"""Reading one untrusted file: only regular files, only up to a size limit, one clear error."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from referee.errors import StorageError
from referee.text import printable

# Every file referee reads is refused past this size; `save` refuses to write past it too (it
# reads it from this module, so the two limits are one).
MAX_FILE_BYTES = 8 * 1024 * 1024

# Flags Windows lacks (it has no symlinks to refuse, FIFOs to not wait for, or exec to close
# files across), so there they are nothing.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # refuse a symlink (ELOOP)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def my_uid() -> int | None:
    """This user's id, or None where there are none (Windows)."""
    getuid = getattr(os, "getuid", None)
    return None if getuid is None else int(getuid())


def shown(path: Path) -> str:
    """A path as error messages print it: a folder name may hold anything."""
    return printable(str(path))


def refuse_special(path: Path, what: str = "file", *, follow: bool = True) -> None:
    """Refuse a name that holds a FIFO, a device, a socket (or, `follow`ing, a link to one)
    before anything opens it: opening some devices does something (a terminal, a tape), and a
    FIFO's writer waiting for a reader would be let go. A missing name passes (the open says
    so); the caller's `fstat` after opening catches a swap in between."""
    try:
        info = path.stat(follow_symlinks=follow)
    except OSError:
        return
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode):
        return  # a folder is refused after the open, a link by O_NOFOLLOW, in their own words
    raise StorageError(f"{shown(path)}: not a regular file, so not a {what}")


def read_bytes(path: Path, what: str = "file", *, follow: bool = True) -> bytes:
    """A regular file's bytes (never a device, a pipe or a folder), or one clear `StorageError`.

    `follow=False` refuses a symlink (a file referee itself keeps, which nobody links).
    """
    flags = os.O_RDONLY | NONBLOCK | CLOEXEC | (0 if follow else NOFOLLOW)
    refuse_special(path, what, follow=follow)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        fd = os.open(path, flags)
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
        # its size and a byte more at first (the whole file in one read as a rule: `os.read`
        # makes a buffer of the size asked), then on in small pieces until the end or the
        # limit, for a file that grows while it is read
        ask = min(left, info.st_size + 1)
        while left > 0:
            chunk = os.read(fd, ask)
            ask = min(left - len(chunk), 1 << 16)
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


def read_text(path: Path, what: str = "file") -> str:
    """A small text file, or a clear `StorageError`."""
    raw = read_bytes(path, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StorageError(f"{shown(path)}: not UTF-8 text") from None
