"""The one way referee replaces a file: a temp file beside it, filled, fsynced, put in place.

Session saves, the `current` pointer, exports (text and SQLite) and the replay cache all write
through `atomic_write`, so a crash at any point leaves the old file or the new one, never a
mix, and the only debris is a `.NAME.*.tmp` file that the next save under the lock removes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from referee.storage.files import CLOEXEC, NOFOLLOW

# Test hook (RELIABILITY.md): kill this process at a named point of a write.
CRASH_ENV = "REFEREE_TEST_CRASH_AT"


def crash_point(name: str) -> None:
    """Kill this process here if `$REFEREE_TEST_CRASH_AT` names this point (tests only)."""
    if os.environ.get(CRASH_ENV) == name:
        import signal

        kill = getattr(signal, "SIGKILL", None)  # Windows has none: end as abruptly there
        if kill is None:
            os._exit(137)
        os.kill(os.getpid(), kill)


def _umask() -> int:
    """The process's umask (reading it means setting it: put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def temp_pattern(path: Path) -> str:
    """The glob of the temp files a write of `path` makes (a killed writer leaves one)."""
    return f".{path.name}.*.tmp"


def _temp_file(path: Path) -> tuple[int, Path]:
    """A new private file beside `path`, opened for writing, as `tempfile.mkstemp` makes one
    (O_EXCL, O_NOFOLLOW, 0600) without importing tempfile. The pid in the name lets an export
    (which takes no lock) sweep a killed writer's file."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp file name beside {path.name}")


def _put_new(tmp: Path, path: Path) -> None:
    """Put the filled temp file at `path`, which must not exist (`FileExistsError` if it does).

    A hard link does it in one step. Where there are none (Android's shared storage, a FAT
    card, Windows without `os.link`: `PermissionError` or another `OSError`), the name is
    claimed with O_CREAT|O_EXCL, which fails if it is taken, and the temp file is renamed
    over the empty claim. A crash between the two leaves an empty file, never a mixed one.
    """
    link = getattr(os, "link", None)
    if link is not None:
        try:
            link(tmp, path)
        except FileExistsError:
            raise
        except OSError:
            pass  # no hard links here: claim the name instead
        else:
            with contextlib.suppress(OSError):  # linked: the file is in place either way
                tmp.unlink()
            return
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC, 0o600))
    os.replace(tmp, path)  # noqa: PTH105 -- as above


def atomic_write(
    path: Path,
    content: str | bytes | Callable[[Path], None],
    *,
    overwrite: bool = True,
    durable: bool = True,
    crash: str = "",
    shared: bool = False,
) -> None:
    """Put `content` at `path` whole: a crash leaves the old file or the new one, never a mix.

    `content` is the bytes (or text) to write, or a function that fills the temp file by its
    path (SQLite writes its own file). `overwrite=False` links the temp file into place (or,
    without hard links, claims the name and renames onto it), which fails with
    `FileExistsError` if the name is taken. `durable` fsyncs the file and the folder
    (a cache entry can skip both: losing one only means a replay). `crash` prefixes the names
    of the test hook's kill points. The file is private (0600) unless `shared` (an export),
    which gives it the user's usual mode (0644 under a 022 umask). Failures are `OSError`s;
    the temp file never outlives them. The temp file is made with O_EXCL and O_NOFOLLOW, and
    the rename or link replaces a name, never writes through a link planted under it.
    """
    folder = path.parent
    fd, tmp = _temp_file(path)
    try:
        if shared:
            os.chmod(tmp, 0o666 & ~_umask())  # noqa: PTH101 -- the temp file, by name
        if callable(content):
            os.close(fd)
            content(tmp)
            fd = os.open(tmp, os.O_RDWR | CLOEXEC)
        with os.fdopen(fd, "wb") as handle:
            if not callable(content):
                handle.write(content.encode("utf-8") if isinstance(content, str) else content)
                handle.flush()
            crash_point(f"{crash}after_temp_write")
            if durable:
                os.fsync(handle.fileno())
        crash_point(f"{crash}after_fsync")
        if overwrite:
            os.replace(tmp, path)  # noqa: PTH105 -- tests break os.replace to simulate a full disk
        else:
            _put_new(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    # From here the new file is in place: "saved" means saved, so nothing below may fail loudly.
    crash_point(f"{crash}after_replace")
    if durable:
        with contextlib.suppress(OSError):
            dir_fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
