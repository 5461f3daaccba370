"""The data folder and where sessions are: `sessions/NAME.toml`, the `current` pointer."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from referee.errors import StorageError, UsageError
from referee.session import check_session_name
from referee.storage.atomic import atomic_write
from referee.storage.files import read_bytes, shown
from referee.text import pick


@dataclass(frozen=True, slots=True)
class Home:
    """The data folder: `sessions/NAME.toml` and the `current` pointer."""

    root: Path

    @property
    def sessions(self) -> Path:
        """The folder holding one TOML file per session."""
        return self.root / "sessions"

    def session_path(self, name: str) -> Path:
        """Where the session called `name` lives."""
        return self.sessions / f"{check_session_name(name)}.toml"

    def current(self) -> str | None:
        """The current session's name or path, if one was chosen."""
        pointer = self.root / "current"
        if not pointer.exists() and not pointer.is_symlink():
            return None
        # Never through a link, never a pipe, never more than a small file: a synced folder
        # may hold anything under this name.
        raw = read_bytes(pointer, "pointer file", follow=False)
        if len(raw) > 4096:
            raise StorageError(f"{shown(pointer)}: too long for a session name or path")
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise StorageError(f"{shown(pointer)}: not UTF-8 text") from None
        return text or None

    def set_current(self, ref: str) -> None:
        """Make `ref` (a name or a resolved path) the current session."""
        try:
            private_folder(self.root)
            atomic_write(self.root / "current", ref + "\n")
        except OSError as error:
            where = shown(self.root / "current")
            raise StorageError(f"{where}: cannot write: {error.strerror or error}") from None


def private_folder(folder: Path) -> None:
    """Make `folder` and any missing parent, each closed to other users (0700)."""
    missing = []
    while not folder.exists() and not folder.is_symlink() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(mode=0o700, exist_ok=True)


def is_path(ref: str) -> bool:
    """A session reference is a path when it ends in .toml or contains a slash."""
    return ref.endswith(".toml") or "/" in ref or os.sep in ref


def current_ref(home: Home) -> str | None:
    """The current session: `$REFEREE_SESSION`, else the data folder's pointer."""
    return os.environ.get("REFEREE_SESSION") or home.current()


def resolve(home: Home, ref: str | None) -> Path:
    """The file of the session `ref` names (a name or a path), else the current one."""
    return follow_links(locate(home, ref))


def locate(home: Home, ref: str | None) -> Path:
    """The path `ref` names (else `$REFEREE_SESSION`'s, else the current session's), not
    following a link: what `delete` removes. The pointer names its session exactly: referee
    wrote it, and a prefix of a session gone could find another one."""
    typed = ref or os.environ.get("REFEREE_SESSION")
    if typed:
        return find_session(home, typed)
    pointer = home.current()
    if not pointer:
        raise UsageError("no current session: start one with 'referee new kariki Ann Bob'")
    return Path(pointer) if is_path(pointer) else home.session_path(pointer)


def find_session(home: Home, typed: str) -> Path:
    """The session file a user named, not following a link: a PATH as given, else a name as
    a player's is (its whole name in any case, or a unique prefix; a near miss is one line
    with 'did you mean', never a path)."""
    if is_path(typed):
        return Path(typed)
    path = home.session_path(typed)  # a bad name (or none) is refused here
    if os.path.lexists(path):  # its own name, even a link to nothing
        return path
    names = [p.stem for p in session_files(home)]
    return home.session_path(pick(typed, [(n, n) for n in names], "session"))


def follow_links(path: Path) -> Path:
    """The real file behind a session path: a symlinked session is saved where it really is."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def session_files(home: Home) -> list[Path]:
    """Every session file in the data folder, by name."""
    if not home.sessions.is_dir():
        return []
    return sorted(home.sessions.glob("*.toml"), key=lambda path: path.name)  # one folder
