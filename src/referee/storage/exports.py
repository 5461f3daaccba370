"""Writing exports: whole files only, never over an existing one without `--force`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from referee.errors import StorageError
from referee.storage.atomic import atomic_write
from referee.storage.files import shown


def _exists(path: Path) -> StorageError:
    return StorageError(f"{shown(path)} exists: add --force to replace it")


def write_new(path: Path, data: bytes, *, force: bool = False) -> None:
    """Write an export: never a half file under the final name, never over an existing file
    unless `force` (without it the temp file is linked into place, which fails if the name
    is taken)."""
    try:
        atomic_write(path, data, overwrite=force, crash="export_")
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
    written in one transaction to a temp file and then put in place whole: re-exporting
    refreshes it, a kill midway leaves the old one. The parts are inserted as they come, so
    memory holds one session's rows at a time, however many sessions there are."""
    import sqlite3

    if path.exists() and not force:
        raise _exists(path)

    def fill(tmp: Path) -> None:
        db = sqlite3.connect(tmp)
        try:
            with db:  # one transaction
                db.executescript(schema)
                for tables in parts:
                    for table, table_rows in tables.items():
                        if table_rows:
                            marks = ", ".join("?" * len(table_rows[0]))
                            db.executemany(f"INSERT INTO {table} VALUES ({marks})", table_rows)
        finally:
            db.close()

    try:
        atomic_write(path, fill, overwrite=force, crash="export_")
    except FileExistsError:
        raise _exists(path) from None
    except (OSError, sqlite3.Error) as error:
        raise StorageError(f"{shown(path)}: not written: {error}") from None
