"""Which code is running: a digest of referee's sources by their content, paid for once per install.

Everything derived (kept replays, kept answers, stats summaries) is keyed on it, so an edited
engine never serves an old result. Reading every source on every start would cost more than
the answers it guards, and a digest of modification times changes with every reinstall of the
same code (making every kept replay cold). So: the cheap stat signature of the installed files
(names, sizes, times) names a small note in the cache folder that holds the content digest;
a new install reads the sources once, finds the same content digest, and every entry stays warm.
"""

from __future__ import annotations

import functools
import os
from hashlib import sha256

from referee.places import NOFOLLOW, NONBLOCK, cache_root, is_private_folder

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _sources(package: str) -> list[tuple[str, str]]:
    """(path, name below the package) of every Python source and bundled ruleset, in a stable
    order. The rulesets ship in the package (installed) or sit at the checkout's top (run from
    a checkout), as `storage.rulesets` finds them."""
    found = []
    top = os.path.join(os.path.dirname(os.path.dirname(package)), "rulesets")
    if not os.path.isdir(os.path.join(package, "rulesets")) and os.path.isdir(top):
        for name in sorted(n for n in os.listdir(top) if n.endswith(".toml")):
            found.append((os.path.join(top, name), f"rulesets/{name}"))
    for folder, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        below = os.path.relpath(folder, package)  # once a folder: relpath is slow at start
        for name in sorted(n for n in names if n.endswith(".py") or n.endswith(".toml")):
            path = os.path.join(folder, name)
            found.append((path, name if below == os.curdir else os.path.join(below, name)))
    return found


def stat_signature(package: str = PACKAGE) -> str:
    """Names, sizes and modification times of the sources: changes with any install or edit."""
    digest = sha256()
    for path, where in _sources(package):
        info = os.stat(path)
        digest.update(f"{where}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def content_digest(package: str = PACKAGE) -> str:
    """Names and bytes of the sources: the same for the same code, however it was installed."""
    digest = sha256()
    for path, where in _sources(package):
        with open(path, "rb") as source:
            data = source.read()
        digest.update(f"{where}\0{len(data)}\0".encode() + data)
    return digest.hexdigest()


@functools.cache
def code_digest(package: str = PACKAGE) -> str:
    """The content digest of the running code, from the note its stat signature names."""
    signature = stat_signature(package)
    root = cache_root()
    note = os.path.join(root, "code", signature[:32])
    if is_private_folder(root) and is_private_folder(os.path.dirname(note)):
        try:
            fd = os.open(note, os.O_RDONLY | NOFOLLOW | NONBLOCK)
            with os.fdopen(fd, "rb") as handle:
                text = handle.read(100).decode("ascii")
            if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
                return text
        except (OSError, UnicodeDecodeError):
            pass
    found = content_digest(package)
    _keep(root, note, found)
    return found


def _keep(root: str, note: str, digest: str) -> None:
    """Write the note (best effort: without it the next start reads the sources again)."""
    folder = os.path.dirname(note)
    try:
        for path in (root, folder):
            if not os.path.lexists(path):
                os.makedirs(path, mode=0o700, exist_ok=True)
        if not (is_private_folder(root) and is_private_folder(folder)):
            return
        temp = f"{note}.{os.getpid()}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(digest.encode("ascii"))
        os.replace(temp, note)
    except OSError:
        pass
