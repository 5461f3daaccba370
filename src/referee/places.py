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


def is_private_folder(path: str) -> bool:
    """A real folder of ours that nobody else may read or write (never a link)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
