"""Where referee keeps things, found without importing anything heavy (the answering front door
asks before Typer is loaded): the data folder, and the private cache folder."""

from __future__ import annotations

import os
import stat
import sys


def data_folder() -> str:
    """`$REFEREE_HOME`, else the platform's user data folder as Click names it
    (`typer.get_app_dir("referee")`, written out here for POSIX so a start needs no Typer)."""
    found = os.environ.get("REFEREE_HOME")
    if found:
        return found
    if sys.platform.startswith("win"):
        import typer  # noqa: TID251 -- Windows' folder rules are Click's to know

        return typer.get_app_dir("referee")
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Application Support"), "referee")
    base = os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config"))
    return os.path.join(base, "referee")


def cache_root() -> str:
    """The user's private cache folder for referee (`$XDG_CACHE_HOME/referee`)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "referee")


# Flags Windows lacks (no symlinks to refuse there, no FIFOs to not wait for): nothing there.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def is_ours(info: os.stat_result) -> bool:
    """Whether a file is this user's and nobody else's: owner and mode where the platform has
    users and modes (POSIX, Termux); on Windows (no `os.getuid`, modes that mean nothing) the
    user's own profile folder is what keeps it private, so any file passes."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    return bool(info.st_uid == getuid() and not info.st_mode & 0o077)


def is_private_folder(path: str) -> bool:
    """A real folder of ours that nobody else may read or write (never a link)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and is_ours(info)
