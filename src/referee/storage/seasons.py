"""Season files: `seasons/NAME.toml` in the data folder, one a season (RULES 8).

A season file keeps every promise a session file does: it is read as bytes that must be a
small regular file (never a FIFO, a device or a link: `read_bytes` with `follow=False`),
parsed and checked exactly as `season new` checks what is typed (`league.season_from_doc`) on
every load, and written whole (`atomic_write`) under the seasons' lock (`seasons.lock`). A
season holds only its definition: its standings are worked out afresh from the sessions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from referee.errors import RefereeError, StorageError, UsageError, quote
from referee.league import SEASON_SCHEMA, Season, check_season_name, season_from_doc, season_to_doc
from referee.storage import files
from referee.storage.atomic import atomic_write, temp_pattern
from referee.storage.codec import document_text, parse_toml, schema_of
from referee.storage.files import read_bytes, shown
from referee.storage.home import Home, private_folder
from referee.storage.lock import locked
from referee.text import printable

CRASH = "season_"  # the crash-test hook's points of a season's save


def folder(home: Home) -> Path:
    """The folder of season files."""
    return home.root / "seasons"


def season_path(home: Home, name: str) -> Path:
    """Where the season called `name` lives."""
    return folder(home) / f"{check_season_name(name)}.toml"


def season_files(home: Home) -> list[Path]:
    """Every season file in the data folder, by name (links and pipes too: a load refuses
    them, one line each)."""
    where = folder(home)
    if not where.is_dir() or where.is_symlink():
        return []
    return sorted(where.glob("*.toml"), key=lambda path: path.name)


@dataclass(frozen=True, slots=True)
class LoadedSeason:
    """A season as read: its file and its record."""

    path: Path
    season: Season


def load_season(path: Path) -> LoadedSeason:
    """Read and check a season file (`StorageError`, exit 3, naming the file, if it is not
    one)."""
    return parse_season(path, read_bytes(path, "season file", follow=False))


def parse_season(path: Path, raw: bytes) -> LoadedSeason:
    """A season file's bytes, parsed and checked."""
    where = shown(path)
    if len(raw) > 64 * 1024:  # a season is a few lines: anything more is not one
        raise StorageError(f"{where}: too large for a season file ({len(raw)} bytes)")
    doc = parse_toml(raw, path)
    schema = schema_of(doc, where, SEASON_SCHEMA)
    if schema != SEASON_SCHEMA:
        raise StorageError(f"{where}: schema {schema} is no season file's")
    try:
        season = season_from_doc(doc)
    except RefereeError as error:
        raise StorageError(f"{where}: {error}") from None
    if season.name != path.stem:
        raise StorageError(f"{where}: it says it is season {quote(season.name)}: rename one")
    return LoadedSeason(path, season)


@contextlib.contextmanager
def seasons_locked(home: Home) -> Iterator[None]:
    """Hold the one lock every change of a season takes (`seasons.lock` in the data folder)."""
    try:
        private_folder(home.root)
    except OSError as error:
        raise StorageError(f"{shown(home.root)}: cannot make it: {error.strerror}") from None
    with locked(home.root / "seasons", what="season"):
        yield


def create_season(home: Home, season: Season) -> Season:
    """Write a new season file: refused (exit 2, nothing written) when a season of that name
    exists in any case."""
    path = season_path(home, season.name)
    data = document_text(season_to_doc(season)).encode("utf-8")
    if len(data) > files.MAX_FILE_BYTES:  # pragma: no cover - a season is a few lines
        raise StorageError(f"{shown(path)}: not saved: too large")
    try:  # what is written is what a load accepts
        season_from_doc(parse_toml(data, path))
    except RefereeError as error:
        raise StorageError(f"{shown(path)}: not saved: {error}") from None
    _refuse_taken(home, season.name)  # before the lock too: a refused command makes no file
    with seasons_locked(home):
        _refuse_taken(home, season.name)
        try:
            private_folder(path.parent)
            for stale in path.parent.glob(temp_pattern(path)):
                with contextlib.suppress(OSError):
                    stale.unlink()
            atomic_write(path, data, crash=CRASH, overwrite=False)
        except FileExistsError:
            raise UsageError(_taken(season.name)) from None
        except OSError as error:
            raise StorageError(f"{shown(path)}: not saved: {error.strerror or error}") from None
    return season


def _taken(name: str) -> str:
    return f"a season called {quote(name)} exists already: pick another name"


def _refuse_taken(home: Home, name: str) -> None:
    """A name taken in any case (a file there, readable or not) is refused."""
    import os

    wanted = name.casefold()
    if os.path.lexists(season_path(home, name)):
        raise UsageError(_taken(name))
    for path in season_files(home):
        if path.stem.casefold() == wanted:  # named as it is spelled there: 'autumn', not AUTUMN
            raise UsageError(_taken(path.stem))


def every_season(home: Home) -> tuple[list[LoadedSeason], list[str]]:
    """Every season that can be read, by file name, and for each season file that cannot be,
    the line saying why (it is skipped: one broken file hides no other season)."""
    found: list[LoadedSeason] = []
    problems: list[str] = []
    for path in season_files(home):
        try:
            found.append(load_season(path))
        except RefereeError as error:
            problems.append(f"skipped {printable(path.name)}: {error}")
    return found, problems


def find_season(home: Home, text: str) -> LoadedSeason:
    """The season `text` names: its whole name in any case, or a unique prefix; `UsageError`
    `no season 'x' (did you mean ...)` else."""
    names = [p.stem for p in season_files(home)]
    wanted = text.strip().casefold()
    exact = [n for n in names if n.casefold() == wanted]
    prefixed = [n for n in names if wanted and n.casefold().startswith(wanted)]
    chosen = exact or prefixed
    if len(chosen) == 1:
        return load_season(folder(home) / f"{chosen[0]}.toml")
    if len(chosen) > 1:
        raise UsageError(f"season {quote(text)} could be {', '.join(chosen)}: type more letters")
    raise UsageError(no_season(text, names))


def no_season(text: str, names: list[str], commands: tuple[str, ...] = ()) -> str:
    """`no season 'nwe' (did you mean 'season new'?)`: the nearest season or command."""
    import difflib

    shown_ = quote(text)
    if not names and not commands:
        return f"no season {shown_}: there are none yet; start one with: referee season new NAME"
    labels = {n.casefold(): f"season {n}" for n in names}
    labels |= {c: f"'referee season {c}'" for c in commands}
    close = difflib.get_close_matches(text.strip().casefold(), list(labels), 1, 0.6)
    if close:
        return f"no season {shown_} (did you mean {labels[close[0]]}?)"
    listed = ", ".join(names[:6]) or "none yet"
    return f"no season {shown_}: the seasons are {listed}"


def delete_season(home: Home, path: Path) -> None:
    """Remove a season file (a link or a pipe where one should be: removed as it is, never
    followed)."""
    with seasons_locked(home):
        try:
            path.unlink()
        except FileNotFoundError:
            raise UsageError(f"no season {quote(path.stem)}") from None
        except OSError as error:
            raise StorageError(f"{shown(path)}: not deleted: {error.strerror or error}") from None
