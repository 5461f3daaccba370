"""`referee serve`: the live card of the session on every phone at the table.

The server (`referee.server`) knows nothing of sessions: this module gives it a `Source` that
stats the session's file (following `use` unless `-s` names one) and renders the share card
(`render/share.py`) when the file changed, whoever saved it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from referee import storage
from referee.cli import output
from referee.cli.common import SessionOpt, Workspace, workspace
from referee.errors import RefereeError, UsageError, quote
from referee.server import (
    SCRIPT,
    Background,
    Limits,
    LiveServer,
    Page,
    lan_address,
    new_token,
)
from referee.storage import Loaded

DEFAULT_PORT = 8765
HEADING = "scan for the live card (same Wi-Fi):"

PortOpt = Annotated[
    int | None,
    typer.Option(
        "--port",
        help="Port to listen on (default 8765, else a free one).",
        show_default=False,
        min=0,
        max=65535,
    ),
]
HostOpt = Annotated[
    str | None,
    typer.Option(
        "--host",
        help="Address to listen on (default: this machine's address on the local network).",
        show_default=False,
    ),
]


class SessionSource:
    """The share card of a session: `-s` names one, else whichever is current at the time."""

    def __init__(
        self,
        ref: str | None,
        shell: Workspace | None = None,
        tell: Callable[[str], None] | None = None,
    ) -> None:
        self.space = Workspace()  # its own: the server's thread never changes the shell's
        self.ref = ref
        self.shell = shell  # `shell --serve`: its replay in memory spares one here
        self.shown: str | None = None  # the name of the session last shown
        self.tell = tell or terminal_line  # the details the page never shows
        self.told: str | None = None  # the trouble last told (once, not at every render)

    def stamp(self) -> object:
        """The session's file and its stat: any save (replace) changes it."""
        try:
            path = self.space.path(self.ref)
        except RefereeError as error:
            return ("none", str(error))
        try:
            found = path.stat()
        except OSError:
            return (str(path), None)
        return (str(path), found.st_mtime_ns, found.st_size, found.st_ino)

    def render(self, version: int) -> Page:
        """The page as the file is now, or a notice in plain words where the card would be.

        A phone is told what a guest may know (the session can't be read, or was deleted);
        the reason, which may name a file, a folder or a link's target, goes to the
        scorekeeper's terminal instead, once, as one line.
        """
        from referee.render import share

        try:
            try:
                path = self.space.path(self.ref)
            except RefereeError:
                if self.shown is None:
                    raise
                path = self.space.home.session_path(self.shown)  # `delete` took the pointer
            if not path.exists() and self.shown is not None:
                raise SessionGone(f"the session {quote(self.shown)} was deleted or renamed")
            loaded = self.load(path)
            self.shown = path.stem
            card = share.share_card(loaded.session, loaded.state)
            body, title = share.fragment(card), card.title
            self.told = None
        except SessionGone as gone:
            body, title = share.notice(f"{gone}; the card comes back when it does"), "referee"
            self.say(str(gone))
        except (RefereeError, OSError, ValueError, OverflowError) as error:
            # The page stays up whatever the file holds, and says nothing of where it is.
            body = share.notice("the session can't be read right now; the card comes back "
                                "when it can")  # fmt: skip
            title = "referee"
            self.say(f"the live page can't read the session: {error}")
        return Page(share.document(body, title, script=SCRIPT, version=version), body)

    def say(self, detail: str) -> None:
        """Tell the terminal what went wrong, once until it changes."""
        if detail != self.told:
            self.told = detail
            self.tell(detail)

    def load(self, path: Path) -> Loaded:
        """The session as its file is now: the shell's replay when it is of exactly these
        bytes (an immutable `Loaded`, safe to read from this thread), else a load here."""
        known = self.shell.known if self.shell is not None else None
        if known is not None and known.path == path:
            raw = storage.read_bytes(path, "session file")
            if known.digest == storage.digest_of(raw):
                return known
        return self.space.load(str(path))


class SessionGone(RefereeError):
    """The session shown was deleted or renamed (a notice the page may give as it is)."""


def terminal_line(line: str) -> None:
    """One line on the terminal's stderr, escaped, for the scorekeeper (never the page)."""
    with contextlib.suppress(OSError, ValueError):  # a closed or full terminal: the page goes on
        output.warning_line(line)
        sys.stderr.flush()


def tuned() -> Limits:
    """The server's limits; `REFEREE_SERVE_LIMITS` (`name=value,...`, for the tests and the
    bench) lowers them so a flood can be played in seconds. A bad entry is ignored."""
    found: dict[str, Any] = {}
    defaults = Limits()
    for item in os.environ.get("REFEREE_SERVE_LIMITS", "").split(","):
        name, _, value = item.partition("=")
        kind = type(getattr(defaults, name.strip(), None))
        if kind in (int, float):
            with contextlib.suppress(ValueError):
                found[name.strip()] = kind(value)
    return dataclasses.replace(defaults, **found)


def address_lines(host: str, port: int, token: str, width: int) -> list[str]:
    """The address to type, cut at the token when the screen is narrow, and its QR code."""
    from referee.render.qr import qr_lines

    url = f"http://{host}:{port}/{token}/"
    typed = [url] if len(url) <= width else [f"http://{host}:{port}/", f"  {token}/"]
    return [*typed, *qr_lines(url)]


def listen(
    server: LiveServer, host: str, port: int | None, ready: Callable[[str, int], None]
) -> None:
    """Serve on `host` until Ctrl-C: the port asked for, else 8765 or any free one."""
    for attempt in [port] if port is not None else [DEFAULT_PORT, 0]:
        try:
            asyncio.run(server.run(host, attempt, ready))
            return
        except OSError as error:
            if error.errno == errno.EADDRINUSE and port is None and attempt:
                continue
            raise UsageError(f"cannot listen on {quote(f'{host}:{attempt}')}: "
                             f"{error.strerror or error}") from None  # fmt: skip


def start_background(
    ref: str | None, host: str | None, port: int | None, shell: Workspace | None = None
) -> Background:
    """`shell --serve`: the server on a thread of the shell's process; prints its address."""
    host = host or lan_address()
    source = SessionSource(ref, shell)
    token = new_token()
    last: OSError | None = None
    for attempt in [port] if port is not None else [DEFAULT_PORT, 0]:
        runner = Background(LiveServer(source, token, limits=tuned(), say=terminal_line),
                            host, attempt)  # fmt: skip
        try:
            bound = runner.start()
        except OSError as error:
            last = error
            continue
        lines = address_lines(bound[0], bound[1], token, output.width())
        output.print_text("\n".join([HEADING, *lines]))
        return runner
    raise UsageError(f"cannot listen on {quote(host)}: {last.strerror if last else 'failed'}")


def serve(
    ctx: typer.Context,
    session: SessionOpt = None,
    port: PortOpt = None,
    host: HostOpt = None,
) -> None:
    """The card, live on phones.

    Serves the session's card as a read-only page on the local network and shows its address
    as a QR code to scan. The page updates by itself after every save; it follows 'use'
    unless -s names a session. Ctrl-C stops it.
    """
    space = workspace(ctx)
    ref = session or space.default_ref
    space.path(ref)  # no session at all: say so now, not on the page
    source = SessionSource(ref)
    server = LiveServer(source, new_token(), limits=tuned(), say=terminal_line)
    where = host or lan_address()

    def ready(bound_host: str, bound_port: int) -> None:
        lines = address_lines(bound_host, bound_port, server.token, output.width())
        output.print_text("\n".join([HEADING, *lines, "Ctrl-C stops it."]))
        import sys

        sys.stdout.flush()

    try:
        listen(server, where, port, ready)
    except KeyboardInterrupt:
        output.print_text("stopped")
