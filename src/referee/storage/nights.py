"""Night files: `nights/NAME.toml` in the data folder, the `open-night` pointer beside
`current`, and every change of a night under one lock.

A night file keeps every promise a session file does (RELIABILITY 11): it is read as bytes
that must be a small regular file (never a FIFO, a device or a link: `read_bytes` with
`follow=False`), parsed and checked as strictly as typed input (`night.night_from_doc`) on
every load, and replaced whole (`atomic_write`) under the nights' lock (`open-night.lock`).

Which night is open is the pointer's to say, and the record's to confirm: the pointer names
it, and it is the open night only while its record says `open`. The pointer is one read at
every `new` (no scan of every night), and one night open at a time is then a single name. A
night starts by writing the pointer first, then the record; it closes by writing the record
first, then removing the pointer. A crash between the two leaves a pointer to a night that is
missing or closed, which means none is open: never two open nights, never a closed one open.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from referee.errors import RefereeError, RuleViolation, StorageError, UsageError, quote
from referee.night import (
    NIGHT_SCHEMA,
    Night,
    Played,
    check_night_name,
    night_from_doc,
    night_of_each,
    night_to_doc,
    with_game,
)
from referee.session import Session
from referee.storage import codec, files
from referee.storage.atomic import atomic_write, temp_pattern
from referee.storage.cache import Cache
from referee.storage.codec import digest_of, document_text, parse_toml, schema_of
from referee.storage.files import read_bytes, shown
from referee.storage.home import Home, private_folder, session_files
from referee.storage.lock import locked
from referee.storage.sessions import load, now

POINTER = "open-night"  # in the data folder, beside `current`: the open night's name
CRASH = "night_"  # the crash-test hook's points of a night's save: night_after_replace ...
NO_NIGHT = "no night is open: start one with 'referee night start'"

T = TypeVar("T")


def folder(home: Home) -> Path:
    """The folder of night files."""
    return home.root / "nights"


def night_path(home: Home, name: str) -> Path:
    """Where the night called `name` lives."""
    return folder(home) / f"{check_night_name(name)}.toml"


def night_files(home: Home) -> list[Path]:
    """Every night file in the data folder, by name."""
    where = folder(home)
    if not where.is_dir():
        return []
    return sorted(where.glob("*.toml"), key=lambda path: path.name)


@dataclass(frozen=True, slots=True)
class LoadedNight:
    """A night as read: its file, its record, and the digest of the bytes read."""

    path: Path
    night: Night
    digest: str


def load_night(path: Path) -> LoadedNight:
    """Read and check a night file (`StorageError`, exit 3, naming the file, if it is not one)."""
    return parse_night(path, read_bytes(path, "night file", follow=False))


def parse_night(path: Path, raw: bytes) -> LoadedNight:
    """A night file's bytes, parsed and checked."""
    where = shown(path)
    doc = parse_toml(raw, path)
    schema = schema_of(doc, where, NIGHT_SCHEMA)
    if schema != NIGHT_SCHEMA:
        raise StorageError(f"{where}: schema {schema} is no night file's")
    try:
        night = night_from_doc(doc)
    except RefereeError as error:
        raise StorageError(f"{where}: {error}") from None
    if night.name != path.stem:
        raise StorageError(f"{where}: it says it is night {quote(night.name)}: rename one")
    return LoadedNight(path, night, digest_of(raw))


def save_night(path: Path, night: Night, *, new: bool = False) -> Night:
    """Write `night` whole (stamping `updated`), checked by reading it back; `new` refuses to
    write over any file of that name."""
    night = replace(night, updated=now())
    data = document_text(night_to_doc(night)).encode("utf-8")
    if len(data) > files.MAX_FILE_BYTES:
        raise StorageError(f"{shown(path)}: not saved: the night would pass the size limit")
    try:  # what is written is what a load accepts: never a night no command could read back
        night_from_doc(parse_toml(data, path))
    except RefereeError as error:
        raise StorageError(f"{shown(path)}: not saved: {error}") from None
    try:
        private_folder(path.parent)
        # Under the lock, a temp file of this night belongs to a writer that was killed.
        for stale in path.parent.glob(temp_pattern(path)):
            with contextlib.suppress(OSError):
                stale.unlink()
        atomic_write(path, data, crash=CRASH, overwrite=not new)
    except FileExistsError:
        raise UsageError(f"a night called {quote(night.name)} exists already") from None
    except OSError as error:
        raise StorageError(f"{shown(path)}: not saved: {error.strerror or error}") from None
    return night


# ---------------------------------------------------------------------------- the open night


def open_name(home: Home) -> str | None:
    """The name the `open-night` pointer holds, if there is one (never through a link, never a
    pipe, never more than a name)."""
    pointer = home.root / POINTER
    if not os.path.lexists(pointer):
        return None
    raw = read_bytes(pointer, "pointer file", follow=False)
    if len(raw) > 4096:
        raise StorageError(f"{shown(pointer)}: too long for a night's name")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise StorageError(f"{shown(pointer)}: not UTF-8 text") from None
    if not text:
        return None
    try:
        return check_night_name(text)
    except UsageError as error:
        raise StorageError(f"{shown(pointer)}: {error}") from None


def open_night(home: Home) -> LoadedNight | None:
    """The open night: the one the pointer names, while its record says open."""
    name = open_name(home)
    if name is None:
        return None
    path = night_path(home, name)
    if not os.path.lexists(path):
        return None  # a start killed between the pointer and the record
    loaded = load_night(path)
    return loaded if loaded.night.is_open else None


@contextlib.contextmanager
def nights_locked(home: Home) -> Iterator[None]:
    """Hold the one lock every change of a night takes (`open-night.lock`)."""
    try:
        private_folder(home.root)
    except OSError as error:
        raise StorageError(f"{shown(home.root)}: cannot make it: {error.strerror}") from None
    with locked(home.root / POINTER, what="night"):
        yield


def _set_pointer(home: Home, name: str | None) -> None:
    pointer = home.root / POINTER
    try:
        if name is None:
            with contextlib.suppress(FileNotFoundError):
                pointer.unlink()
        else:
            atomic_write(pointer, name + "\n")
    except OSError as error:
        raise StorageError(f"{shown(pointer)}: cannot write: {error.strerror or error}") from None


def start_night(home: Home, make: Callable[[list[str]], Night]) -> Night:
    """Open a night: `make(taken)` builds it from the names already taken; refused (exit 1)
    while another is open, and (exit 2) when its name is taken."""
    with nights_locked(home):
        loaded = open_night(home)
        if loaded is not None:
            raise RuleViolation(
                f"night {quote(loaded.night.name)} is open: settle or end it first"
                " ('referee night settle' or 'referee night end')"
            )
        taken = [p.stem for p in night_files(home)]
        night = make(taken)
        if night.name.casefold() in (t.casefold() for t in taken):
            raise UsageError(f"a night called {quote(night.name)} exists already")
        path = night_path(home, night.name)
        _set_pointer(home, night.name)  # first: a crash here leaves a pointer to nothing
        try:
            return save_night(path, night, new=True)
        except RefereeError:
            with contextlib.suppress(RefereeError):
                _set_pointer(home, None)
            raise


def change_open_night(home: Home, change: Callable[[Night], tuple[Night, T]]) -> tuple[Night, T]:
    """Under the lock: read the open night, apply `change`, save it (and, once it is closed,
    clear the pointer). A refused change (it raises) writes nothing."""
    if open_name(home) is None:  # before the lock: a refused command makes no lock file
        raise UsageError(NO_NIGHT)
    with nights_locked(home):
        loaded = open_night(home)
        if loaded is None:
            raise UsageError(NO_NIGHT)
        night, value = change(loaded.night)
        saved = save_night(loaded.path, night)
        if not saved.is_open:  # second: a crash before this leaves a pointer to a closed night
            with contextlib.suppress(RefereeError):
                _set_pointer(home, None)
    return saved, value


class Joining:
    """The open night a session being started joins (see `night_for_new`)."""

    def __init__(self, loaded: LoadedNight) -> None:
        self.loaded = loaded

    @property
    def name(self) -> str:
        """The night's name."""
        return self.loaded.night.name

    def join(self, session: Session) -> None:
        """Add the session just written to the night, and its players to the roster."""
        save_night(self.loaded.path, with_game(self.loaded.night, session))


@contextlib.contextmanager
def night_for_new(home: Home) -> Iterator[Joining | None]:
    """While a night is open, hold the nights' lock around a new session's start and give the
    night it joins (None: no night is open, and no lock taken). An open night whose file
    cannot be read refuses the start before anything is written."""
    if open_name(home) is None:
        yield None
        return
    with nights_locked(home):
        loaded = open_night(home)
        yield None if loaded is None else Joining(loaded)


# ---------------------------------------------------------------------------- looking up


def find_night(home: Home, text: str) -> LoadedNight:
    """The night `text` names: its whole name in any case, or a unique prefix."""
    from referee.text import pick

    names = [p.stem for p in night_files(home)]
    if not names:
        raise UsageError("no nights yet: start one with 'referee night start'")
    found = pick(text, [(n, n) for n in names], "night")
    return load_night(night_path(home, found))


def latest_night(home: Home) -> tuple[LoadedNight | None, list[str]]:
    """The open night, else the one started last (None: no night yet), and for each night file
    that cannot be read the line saying why (it is passed over: one broken file hides no other
    night; an open night that cannot be read is a `StorageError`, as any night named is)."""
    loaded = open_night(home)
    if loaded is not None:
        return loaded, []
    found, problems = [], []
    for path in night_files(home):
        try:
            found.append(load_night(path))
        except RefereeError as error:
            problems.append(f"skipped {path.name}: {error}")
    if not found:
        return None, problems
    return max(found, key=lambda n: (n.night.created, n.night.name)), problems


def every_night(home: Home) -> tuple[list[Night], list[str]]:
    """Every night that can be read, by its file's name, and for each night file that cannot
    be, the line saying why (it is skipped: one broken file hides no other night)."""
    found: list[Night] = []
    problems: list[str] = []
    for path in night_files(home):
        try:
            found.append(load_night(path).night)
        except RefereeError as error:
            problems.append(f"skipped {path.name}: {error}")
    return found, problems


def nights_by_session(home: Home) -> tuple[dict[str, str], list[str]]:
    """Which night lists each session (by id) and, for a night file that cannot be read, the
    line saying why (it is skipped: one broken file hides no other night)."""
    nights, problems = every_night(home)
    return night_of_each(nights), problems


def night_of(home: Home, session_id: str) -> tuple[str | None, list[str]]:
    """The night listing the session `session_id` (None: none does), and for a night file that
    might list it but cannot be read, the line saying why. Only a file whose bytes hold the id,
    or hold an escape (the one way TOML can spell hex digits without them), is parsed: `show
    --json` reads every night's bytes, not every night."""
    wanted = session_id.encode("ascii")
    problems: list[str] = []
    for path in night_files(home):
        try:
            raw = read_bytes(path, "night file", follow=False)
            if wanted not in raw and b"\\" not in raw:
                continue
            night = parse_night(path, raw).night
        except RefereeError as error:
            problems.append(f"skipped {path.name}: {error}")
            continue
        if any(member.id == session_id for member in night.games):
            return night.name, problems
    return None, problems


def night_games(home: Home, night: Night, cache: Cache | None = None) -> list[Played]:
    """Each game of the night as its session file holds it now: found by the name it was
    started under, else by its id among every session (renamed since); "missing" if neither."""
    by_id: dict[str, Path] | None = None
    out: list[Played] = []
    for member in night.games:
        path = home.session_path(member.file)
        loaded: Any = None
        problem = "missing"
        if os.path.lexists(path):
            try:
                loaded = _load(path, cache)
            except RefereeError as error:
                loaded, problem = None, str(error)
            if loaded is not None and loaded.session.id != member.id:
                loaded, problem = None, "missing"  # the name was given to another session since
        if loaded is None and problem == "missing":
            if by_id is None:
                by_id = _ids(home)
            elsewhere = by_id.get(member.id)
            if elsewhere is not None:
                try:
                    loaded, path = _load(elsewhere, cache), elsewhere
                except RefereeError as error:
                    loaded, problem = None, str(error)
        if loaded is None:
            out.append(Played(member, path.stem, problem=problem))
        else:
            out.append(Played(member, path.stem, loaded.session, loaded.state))
    return out


def _load(path: Path, cache: Cache | None) -> Any:
    return load(path, cache)


def _ids(home: Home) -> dict[str, Path]:
    """Every readable session file by its id (a file that cannot be read is no one's)."""
    found: dict[str, Path] = {}
    for path in session_files(home):
        try:
            facts = codec.session_facts(path, read_bytes(path, "session file"))
        except RefereeError:
            continue
        found.setdefault(facts.id, path)
    return found
