"""Writing exports: whole files only, never over an existing one without `--force`, never
replacing what is not a regular file (a pipe or a device is written into instead)."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from referee.errors import StorageError
from referee.storage.atomic import atomic_write
from referee.storage.files import CLOEXEC, NONBLOCK, shown

STDOUT = "-"  # `-o -`: the export goes to standard output


def _exists(path: Path) -> StorageError:
    return StorageError(f"{shown(path)} exists: add --force to replace it")


def write_new(path: Path, data: bytes, *, force: bool = False) -> None:
    """Write an export: never a half file under the final name, never over an existing file
    unless `force` (without it the temp file is linked into place, which fails if the name
    is taken). `-` is standard output; a pipe or a device is written into, never replaced."""
    if str(path) == STDOUT:
        sys.stdout.flush()
        _write_all(sys.stdout.fileno(), data, path)
        return
    if _write_special(path, data):
        return
    _put(path, data, force)


def _put(path: Path, content: bytes | Callable[[Path], None], force: bool) -> None:
    """An export put in place whole (swept of a killed writer's temp files first), or one
    line saying why not: the file is there (without --force), or the disk refused."""
    _sweep_dead_temps(path)
    try:
        atomic_write(path, content, overwrite=force, crash="export_", shared=True)
    except FileExistsError:
        raise _exists(path) from None
    except OSError as error:
        raise StorageError(f"{shown(path)}: not written: {error.strerror or error}") from None


def write_sqlite(
    path: Path,
    schema: str,
    parts: Iterable[Mapping[str, list[tuple[Any, ...]]]],
    *,
    force: bool = False,
) -> None:
    """A fresh SQLite database of `parts` (each: the rows one session adds to each table),
    filled in one transaction as the parts come, then put in place whole: re-exporting
    refreshes it, a kill midway leaves the old one. The database is built on disk, in the temp
    file that becomes the export (no journal: a half-built temp file is thrown away, never
    rolled back), so only one session's rows and SQLite's small page cache are ever held in
    memory, however many sessions there are; for standard output, a pipe or a device it is
    built in a private temp file and then copied out."""
    if str(path) != STDOUT and path.exists() and not force and not _is_special(path):
        raise _exists(path)

    def fill(target: Path) -> None:
        _fill_sqlite(target, schema, parts, path)

    if str(path) == STDOUT or _is_special(path):
        import tempfile

        with tempfile.TemporaryDirectory(prefix="referee-export-") as folder:
            built = Path(folder) / "export.db"
            fill(built)
            _copy_out(built, path)
        return
    _put(path, fill, force)


def _fill_sqlite(
    target: Path, schema: str, parts: Iterable[Mapping[str, list[tuple[Any, ...]]]], path: Path
) -> None:
    """Build the database in the file `target` (`path`: the export, for messages)."""
    import sqlite3

    try:
        db = sqlite3.connect(target)
    except sqlite3.Error as error:
        raise StorageError(f"{shown(path)}: not written: {error}") from None
    try:
        # the file is a temp file until it is whole: no journal beside it, no syncs but the
        # one `atomic_write` makes at the end
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        with db:  # one transaction
            db.executescript(schema)
            for tables in parts:
                for table, table_rows in tables.items():
                    if table_rows:
                        marks = ", ".join("?" * len(table_rows[0]))
                        db.executemany(f"INSERT INTO {table} VALUES ({marks})", table_rows)
    except sqlite3.Error as error:
        raise StorageError(f"{shown(path)}: not written: {error}") from None
    finally:
        db.close()


def _copy_out(built: Path, path: Path) -> None:
    """The built database to standard output, or into the pipe or device `path`, a piece at a
    time."""
    with built.open("rb") as source:
        if str(path) == STDOUT:
            sys.stdout.flush()
            fd, opened = sys.stdout.fileno(), False
        else:
            fd, opened = _open_special(path), True
        try:
            while piece := source.read(1 << 20):
                _write_all(fd, piece, path)
        finally:
            if opened:
                os.close(fd)


def _is_special(path: Path) -> bool:
    """Whether `path` names something that exists and is not a regular file (or a folder)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode)


def _write_special(path: Path, data: bytes) -> bool:
    """Write into a pipe or device `path` names (True), or leave a regular or new file to the
    caller (False). A folder or anything else is refused."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    if stat.S_ISREG(mode):
        return False
    fd = _open_special(path)
    try:
        _write_all(fd, data, path)
    finally:
        os.close(fd)
    return True


def _open_special(path: Path) -> int:
    """A pipe or device `path` names, opened to write into (blocking); anything else that is
    not a regular file is refused."""
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        raise StorageError(f"{shown(path)}: is a folder: give a file name")
    if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise StorageError(f"{shown(path)}: not a regular file, a pipe or a terminal")
    # No O_CREAT and no O_TRUNC: the pipe or device stays what it is. O_NONBLOCK: a pipe that
    # nobody reads is an error now (ENXIO), not a hang.
    flags = os.O_WRONLY | NONBLOCK | getattr(os, "O_NOCTTY", 0) | CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise StorageError(f"{shown(path)}: not written: {error.strerror or error}") from None
    os.set_blocking(fd, True)
    return fd


def _write_all(fd: int, data: bytes, path: Path) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError as error:
        raise StorageError(f"{shown(path)}: not written: {error.strerror or error}") from None


def _sweep_dead_temps(path: Path) -> None:
    """Remove the temp files of exports to `path` whose writer was killed (its pid is gone).

    Exports take no lock, so a temp file is only removed when its process no longer exists.
    """
    if os.name != "posix":  # os.kill(pid, 0) is a probe only on POSIX
        return
    with contextlib.suppress(OSError):
        for temp in path.parent.glob(f".{path.name}.*.tmp"):
            pid = temp.name[len(path.name) + 2 :].split(".", 1)[0]
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                with contextlib.suppress(OSError):
                    temp.unlink()
            except OSError:
                continue  # alive, someone else's: leave it
