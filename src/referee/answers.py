"""The front door: a read-only command answered before, for exactly these bytes, is answered
again without loading Typer, Rich or a game.

What `referee show`, `referee log` and a bare `referee` print depends only on the session file's
bytes, referee's code, the command line, the screen (width, height, colour, encoding, time zone)
and, for cards that look at other sessions, the data folder's list of sessions (for `show
--json`, the night files too, as the folder lists them); what `referee stats` prints, on the
bytes of every session file in the data folder instead, and the night files as the folder lists
them. The first run of such a line keeps what it printed in the private cache folder, under a
digest of all of these; a later run with the same inputs prints it back. Anything else (an
action, an error, anything on stderr, a line `cli.line` cannot read with certainty, any line
while a shell asks for completions) takes the ordinary path and keeps nothing. A kept answer is
derived data (RELIABILITY 9): keyed by the exact bytes and code, never the source of anything
saved, and a miss costs the ordinary run, never a wrong answer. Deleting the cache folder is
always safe.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from hashlib import sha256

from referee.cli.line import ACROSS, read
from referee.places import NOFOLLOW, NONBLOCK, cache_root, data_folder, is_ours, is_private_folder

TYPE_CHECKING = False  # mypy reads it as typing's; at run time `typing` is never imported
if TYPE_CHECKING:  # this module's start is the fast path's whole cost
    from collections.abc import Sequence
    from typing import TextIO

# The lines answered again, as `cli.line` reads them: a bare `referee` (None) and the read-only
# commands with the options it reads (a line it cannot read is the ordinary path's).
ANSWERED = (None, "show", "log", "stats")
# What a screen's text may depend on besides the bytes (Rich reads these, and so does `log`).
ENVIRONMENT = (
    "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM", "COLORTERM", "TTY_COMPATIBLE",
    "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES", "REFEREE_CLOCK", "TZ", "REFEREE_HOME",
    "REFEREE_SESSION", "PYTHONIOENCODING",
)  # fmt: skip
MAX_SESSION_BYTES = 8 * 1024 * 1024  # the reader's limit: a larger file is the ordinary path's
MAX_ANSWERS = 2000  # kept answers; past it the older half is dropped
SWITCH = "REFEREE_NO_ANSWERS"  # set: always the ordinary path (benchmarks, tests)
CURRENT_SCHEMA = b"schema = 1\n"  # storage.codec.SCHEMA, as every save writes it


def main() -> None:
    """Console-script entry point: `--version` and kept answers here, the rest in `cli.run`."""
    # A kept answer or an action is a moment's work that leaves no cycles worth collecting,
    # and the collector's passes over everything imported cost more than that work; the
    # ordinary path, which may run a whole night (the shell) or read every session, turns it
    # back on (`cli.run`).
    gc.disable()
    tolerant_output()
    argv = sys.argv[1:]
    try:
        if argv == ["--version"]:
            from referee import __version__

            sys.stdout.write(f"referee {__version__}\n")
            code = 0
        else:
            code = answer(argv)
        # Flushed here, where a reader that went away is caught, not by the interpreter's
        # last flush (which would print a traceback of its own).
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = closed_pipe()
    sys.exit(code)


def tolerant_output() -> None:
    """On a terminal that cannot show everything (a `C` locale, a Windows code page), what it
    cannot show is printed as `?`, never a traceback; `--json` escapes it instead
    (`output.print_json`). UTF-8 output is left as it is."""
    import codecs  # both already loaded by the interpreter
    import io

    for stream in (sys.stdout, sys.stderr):
        try:
            utf8 = codecs.lookup(stream.encoding or "ascii").name.startswith("utf")
            if not utf8 and isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="replace")  # stderr's backslashes too: one `?` a cell
                if stream is sys.stdout:
                    from referee.text import show_only

                    show_only(stream.encoding)  # names laid out as they will show
        except (AttributeError, LookupError, ValueError, OSError):
            pass  # not a real text stream (a test's), or one that cannot change
    try:  # what is typed at such a terminal: read as UTF-8 (what phones send), never a crash
        if isinstance(sys.stdin, io.TextIOWrapper) and not codecs.lookup(
            sys.stdin.encoding or "ascii"
        ).name.startswith("utf"):
            sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    except (AttributeError, LookupError, ValueError, OSError):
        pass


def closed_pipe() -> int:
    """A reader that went away (`referee log | head -1`, `referee show | true`): a quiet exit
    for every command, kept answer or not. As Python's documentation advises (and as Rich and
    Click already end the commands they print when it happens to them): what is left to write
    goes to /dev/null, so no later flush fails, and the exit code is 1. Whatever the command
    did before it printed (an action's save) is done."""
    import contextlib  # only on the way out

    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):  # not a real file
            os.dup2(devnull, stream.fileno())
    return 1


def answer(argv: Sequence[str]) -> int:
    """Run one command line: print its kept answer if there is one, else run it (and keep the
    answer when it is a read-only command that succeeded and said nothing on stderr)."""
    key = None if SWITCH in os.environ else answer_key(argv)
    if key is not None:
        kept = read_answer(key.name)
        if kept is not None:
            sys.stdout.write(kept)
            sys.stdout.flush()
            return 0
    from referee.cli import run

    if key is None:
        return run(argv)
    from referee.cli.acting import Workspace

    space = Workspace()  # what the run loads is left here, to check what it drew
    out, err = Tee(sys.stdout), Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err  # a Tee stands in for both
    try:
        code = run(argv, space)
    finally:
        sys.stdout, sys.stderr = out.real, err.real
    if key.across:  # every file still as the key read it: read them all again (only on a miss)
        drawn = folder_digest() or ""
    else:
        drawn = space.known.digest if space.known is not None else ""  # "": how to start
    # Kept only if the run drew exactly the bytes the key was made of: another terminal may
    # have saved in between, and its card must never be kept under these bytes' key.
    said = code == 0 and not (out.spoiled or err.spoiled or err.parts) and out.parts
    if said and drawn == key.digest:
        keep_answer(key.name, "".join(out.parts))
    return code


class Tee:  # a TextIO by delegation
    """A stream that passes everything on and remembers the text it passed (isatty, fileno and
    the rest are the real stream's, so what is drawn is exactly what would have been).

    Only text the real stream took is remembered: Click asks whether a stream is binary by
    writing `b""` to it, and anything but text spoils the run, which then keeps nothing."""

    def __init__(self, real: TextIO) -> None:
        self.real = real
        self.parts: list[str] = []
        self.spoiled = False

    def write(self, text: str) -> int:
        written = self.real.write(text)
        if isinstance(text, str):
            self.parts.append(text)
        else:
            self.spoiled = True
        return written

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


# ---------------------------------------------------------------------------- the key


def session_file(ref: str | None) -> str | None:
    """The file a line's session resolves to, as `storage.resolve` finds it (None: no session)."""
    root = data_folder()
    ref = ref or os.environ.get("REFEREE_SESSION") or _pointer(root)
    if not ref:
        return None
    is_path = ref.endswith(".toml") or "/" in ref or os.sep in ref
    path = ref if is_path else os.path.join(root, "sessions", f"{ref}.toml")
    if os.path.islink(path):
        path = os.path.realpath(path)
    return os.path.abspath(path)


def _open_regular(path: str, follow: bool = True) -> int:
    """`path` opened for reading if it is a regular file; anything else (a FIFO, a device, a
    link to one, or with `follow=False` any link) raises `OSError` and is never opened, as
    `storage.files.read_bytes` refuses it: the ordinary path says why in one line."""
    if not os.stat(path, follow_symlinks=follow).st_mode & 0o170000 == 0o100000:
        raise OSError(f"{path}: not a regular file")
    fd = os.open(path, os.O_RDONLY | NONBLOCK | (0 if follow else NOFOLLOW))
    if os.fstat(fd).st_mode & 0o170000 != 0o100000:  # swapped since the stat
        os.close(fd)
        raise OSError(f"{path}: not a regular file")
    return fd


def _pointer(root: str) -> str | None:
    """The `current` pointer's text (None: there is none). Anything but a regular file planted
    there (a FIFO would wait for a writer forever, a link to /dev/tty for a line typed) raises
    `OSError`: no answer is kept or given for it, and the ordinary path refuses it in one
    line."""
    try:
        fd = _open_regular(os.path.join(root, "current"), follow=False)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as pointer:
        return pointer.read(4096).decode("utf-8").strip() or None


def _session_bytes(path: str) -> bytes | None:
    """A regular file's bytes up to the reader's limit, else None (the ordinary path says why)."""
    try:
        fd = _open_regular(path)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if os.fstat(handle.fileno()).st_size > MAX_SESSION_BYTES:
            return None
        return handle.read(MAX_SESSION_BYTES + 1)


def _is_current(raw: bytes) -> bool:
    """Whether a session file says it has today's schema (older files are migrated)."""
    return raw.startswith(CURRENT_SCHEMA) or b"\n" + CURRENT_SCHEMA in raw[:4096]


def _screen() -> list[object]:
    """What the drawing may depend on: a terminal's size and encoding, the time zone."""
    tty = os.isatty(1)
    size: object = None
    try:  # piped, a screen is laid out for stderr's terminal (`cli.output.width`)
        size = tuple(os.get_terminal_size(1 if tty else 2))
    except OSError:
        size = None
    encoding = getattr(sys.stdout, "encoding", None)
    return [tty, size, encoding, time.tzname, time.timezone, time.altzone, time.daylight]


class Key:
    """What an answer is kept under (`name`), and the digest of the session's bytes in it
    (of every session file's, for a command `across` them)."""

    __slots__ = ("across", "digest", "name")

    def __init__(self, name: str, digest: str, across: bool = False) -> None:
        self.name = name
        self.digest = digest
        self.across = across


def folder_digest() -> str | None:
    """A digest of the name and bytes of every session file in the data folder (links
    followed, as loading them does); None if one cannot be read as the ordinary path would
    read it, or is of an older schema (then it is the ordinary path's to say or migrate)."""
    folder = os.path.join(data_folder(), "sessions")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".toml"))
    except FileNotFoundError:
        names = []
    except OSError:
        return None
    digest = sha256()
    for name in names:
        raw = _session_bytes(os.path.join(folder, name))
        if raw is None or not _is_current(raw):
            return None
        digest.update(name.encode("utf-8", "surrogatepass") + b"\0")
        digest.update(sha256(raw).digest())
    return digest.hexdigest()


def _nights() -> list[object]:
    """What `show --json`'s `night` and `stats` may depend on: each night file as the folder
    lists it (its name, size, times and inode: any save replaces the file, and an edit in place
    changes its change time, which no one can set back), read without opening one."""
    folder = os.path.join(data_folder(), "nights")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".toml"))
    except FileNotFoundError:
        return []
    found: list[object] = []
    for name in names:
        info = os.stat(os.path.join(folder, name), follow_symlinks=False)
        found.append(
            (name, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_mode)
        )
    return found


def answer_key(argv: Sequence[str]) -> Key | None:
    """What an answer to this line is kept under, or None when it cannot be answered."""
    try:
        line = read(argv)  # the one reader of the fast paths (None while a shell completes)
        if line is None or line.move is not None or line.command not in ANSWERED:
            return None
        across = line.command in ACROSS
        if across:
            path, every = None, folder_digest()
            if every is None:
                return None
            digest = every
        else:
            path = session_file(line.ref)
            raw = _session_bytes(path) if path else None
            if raw is None and not (path is None and line.command is None):
                return None  # a session that cannot be read: the ordinary path says why
            if raw is not None and not _is_current(raw):
                return None  # an older file is migrated with a ruleset beside it: not only bytes
            digest = sha256(raw).hexdigest() if raw is not None else ""
        from referee.codeid import code_digest

        try:
            listing = os.stat(os.path.join(data_folder(), "sessions")).st_mtime_ns
        except OSError:
            listing = None
        parts = [
            code_digest(),
            list(argv),
            [os.environ.get(name) for name in ENVIRONMENT],
            _screen(),
            path,  # None for a bare `referee` with no session: how to start
            digest,
            listing,
        ]
        if (line.command == "show" and line.values.get("json_out")) or across:
            # `show --json`'s `"night"`: which night lists the session; `stats`: the nights'
            # money (`--money`, `--json`) and which night lists each session
            parts.append(_nights())
    except (OSError, ValueError, UnicodeError):
        return None
    name = sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return Key(name, digest, across)


# ---------------------------------------------------------------------------- the store


def _folder() -> str:
    return os.path.join(cache_root(), "answers")


def read_answer(key: str) -> str | None:
    """The answer kept under `key`, if it is there and the folder and file are ours alone."""
    folder = _folder()
    if not (is_private_folder(os.path.dirname(folder)) and is_private_folder(folder)):
        return None
    try:
        fd = os.open(os.path.join(folder, key), os.O_RDONLY | NOFOLLOW | NONBLOCK)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if info.st_mode & 0o170000 != 0o100000 or not is_ours(info):
                return None
            return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def keep_answer(key: str, text: str) -> None:
    """Keep `text` under `key` (best effort: an answer not kept is only a slower next time)."""
    root, folder = cache_root(), _folder()
    try:
        for path in (root, folder):
            if not os.path.lexists(path):
                os.makedirs(path, mode=0o700, exist_ok=True)
        if not (is_private_folder(root) and is_private_folder(folder)):
            return
        temp = os.path.join(folder, f".{key}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.replace(temp, os.path.join(folder, key))
        _prune(folder)
    except (OSError, UnicodeEncodeError):
        pass


def _prune(folder: str) -> None:
    """Past `MAX_ANSWERS`, drop the older half (by when they were kept)."""
    with os.scandir(folder) as found:
        entries = [e for e in found if e.is_file(follow_symlinks=False)]
    if len(entries) <= MAX_ANSWERS:
        return
    import contextlib  # only on the way out of an ordinary run

    entries.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns)
    for entry in entries[: len(entries) // 2]:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
