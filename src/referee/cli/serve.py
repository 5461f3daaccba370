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
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee import lan, storage
from referee.cli import output
from referee.cli.common import SessionOpt, Workspace, workspace
from referee.errors import RefereeError, UsageError, quote
from referee.server import SCRIPT, Background, Limits, LiveServer, Page, new_token
from referee.storage import Loaded, serving

if TYPE_CHECKING:
    from rich.console import RenderableType

DEFAULT_PORT = 8765
HEADING = "scan for the live card (same Wi-Fi):"
LOCAL_HEADING = "the live card, on this device only:"
NOT_SERVING = "not serving: start with 'referee serve' (or 'referee shell --serve')"

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
        help="Address to listen on (default: this machine's address on the local network; "
        "0.0.0.0: all of them).",
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
            home = self.space.home
            try:  # the session as asked for: a link's own name, not its target's
                asked = storage.locate(home, self.ref or self.space.default_ref)
            except RefereeError:
                if self.shown is None:
                    raise
                asked = home.session_path(self.shown)  # `delete` took the pointer
            path = storage.follow_links(asked)
            if self.shown is not None and not (os.path.lexists(asked) and path.exists()):
                raise SessionGone(f"the session {quote(self.shown)} was deleted or renamed")
            loaded = self.load(path)
            self.shown = asked.stem
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


def urls(host: str, port: int, token: str) -> tuple[list[str], list[str], bool]:
    """What a server listening on `host` shows: the URLs a phone can open (the first goes in
    the QR code), the other addresses `--host` could pick, and whether the page is for this
    device only (loopback, or no address of the network found)."""

    def url(where: str) -> str:
        return f"http://{lan.url_host(where)}:{port}/{token}/"

    if lan.is_loopback(host):
        return [url(host)], [], True
    if lan.is_wildcard(host):
        found = [url(str(a.ip)) for a in lan.reachable(host)]
        loopback = "::1" if host == "::" else "127.0.0.1"
        return found or [url(loopback)], [], not found
    others = [a.host for a in lan.addresses() if str(a.ip) != host.split("%", 1)[0]]
    return [url(host)], others, False


def address_lines(host: str, port: int, token: str, width: int) -> list[str]:
    """The lines under the QR code: the address to type (cut at the token when the screen is
    narrow), then the others the page answers on, or that `--host` could pick."""
    import textwrap

    found, others, _ = urls(host, port, token)
    first = found[0]
    cut = first.rindex("/", 0, len(first) - 1) + 1
    lines = [first] if len(first) <= width else [first[:cut], f"  {first[cut:]}"]
    also = [u[: u.rindex("/", 0, len(u) - 1) + 1] for u in found[1:]]
    if also:
        lines += textwrap.wrap("same page at: " + ", ".join(also), width, subsequent_indent="  ")
    if others:
        text = "other addresses (--host): " + ", ".join(others)
        lines += textwrap.wrap(text, width, subsequent_indent="  ")
    return lines


def show_address(host: str, port: int, token: str, last: str) -> None:
    """The address and its QR code: in explicit colours where colour is on (it scans on a
    light terminal and a dark one), else in the terminal's text colour for its background."""
    from referee.render import qr

    width = output.width()
    found, _, local = urls(host, port, token)
    wildcard_only = local and not lan.is_loopback(host)
    heading = LOCAL_HEADING if local else HEADING
    items: list[RenderableType | str] = [heading]
    if wildcard_only:  # no address of the network found: nothing a phone could scan
        items = ["no network address found; on this device:"]
    else:
        console = output.console()
        if console.is_terminal and console.color_system is not None and not console.no_color:
            items.append(qr.qr_text(found[0], width))
        else:
            dark = qr.is_dark_background()
            items.append("\n".join(qr.qr_lines(found[0], width, dark_background=dark)))
    items += address_lines(host, port, token, width)
    if last:
        items.append(last)
    output.draw(*items)


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
            raise cannot_listen(host, attempt, error) from None


class Live:
    """The server `shell --serve` runs on a thread, and what `qr` in the shell shows of it."""

    def __init__(self, runner: Background, host: str, port: int, token: str, root: Path) -> None:
        self.runner = runner
        self.host, self.port, self.token = host, port, token
        self.root = root
        self.record = serving.Serving(os.getpid(), host, port, token)
        serving.record(root, self.record)

    def show(self) -> None:
        """The address and QR code again."""
        show_address(self.host, self.port, self.token, "")

    def stop(self) -> None:
        """Stop serving, free the port and say so to `referee qr`."""
        self.runner.stop()
        serving.forget(self.root, self.record)


def start_background(
    ref: str | None, host: str | None, port: int | None, shell: Workspace | None = None
) -> Live:
    """`shell --serve`: the server on a thread of the shell's process; prints its address."""
    host = lan.lan_address() if host is None else host
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
        live = Live(runner, bound_host(host, bound[0]), bound[1], token, cache_root(shell))
        show_address(live.host, live.port, token, "qr shows this again.")
        return live
    raise cannot_listen(host, port, last)


def cannot_listen(host: str, port: int | None, error: OSError | None) -> UsageError:
    """Why the live card cannot listen, in one line: a port taken says what to do."""
    if error is not None and error.errno == errno.EADDRINUSE and port:
        return UsageError(
            f"port {port} is taken on {host or 'this machine'}: pick another --port"
            " (a live card served already? referee qr shows it)"
        )
    said = (error.strerror or str(error)) if error is not None else "failed"
    return UsageError(f"cannot listen on {quote(f'{host}:{port}' if port else host)}: {said}")


def bound_host(asked: str, bound: str) -> str:
    """The address to show for a server asked to listen on `asked`: the one bound, except
    that an empty host (every address of both families) stays empty."""
    return "" if asked == "" else bound


def cache_root(space: Workspace | None) -> Path:
    """The private cache folder, where the running server is noted for `referee qr`."""
    return (space.cache if space is not None else storage.Cache.default()).root


def serve(
    ctx: typer.Context,
    session: SessionOpt = None,
    port: PortOpt = None,
    host: HostOpt = None,
) -> None:
    """The card, live on phones.

    Serves the session's card as a read-only page on the local network and shows its address
    as a QR code to scan. The page updates by itself after every save; it follows 'use'
    unless -s names a session. Ctrl-C stops it; 'referee qr' shows the address again.
    """
    space = workspace(ctx)
    ref = session or space.default_ref
    if ref:  # a name found once: a session started later cannot make its prefix ambiguous
        ref = str(storage.find_session(space.home, ref))
    space.path(ref)  # no session at all: say so now, not on the page
    source = SessionSource(ref)
    server = LiveServer(source, new_token(), limits=tuned(), say=terminal_line)
    where = lan.lan_address() if host is None else host
    root = space.cache.root
    recorded: list[serving.Serving] = []

    def ready(bound: str, bound_port: int) -> None:
        shown = bound_host(where, bound)
        recorded.append(serving.Serving(os.getpid(), shown, bound_port, server.token))
        serving.record(root, recorded[-1])
        show_address(shown, bound_port, server.token, "Ctrl-C stops it.")
        sys.stdout.flush()

    try:
        listen(server, where, port, ready)
    except KeyboardInterrupt:
        output.print_text("stopped")
    finally:
        for done in recorded:
            serving.forget(root, done)


def qr(ctx: typer.Context) -> None:
    """The live card's QR again.

    The address and QR code that 'referee serve' (or 'shell --serve') showed when it
    started, while it runs; exit 1 when nothing is served.
    """
    found = serving.running(workspace(ctx).cache.root)
    if found is None:
        output.error_line(NOT_SERVING)
        raise typer.Exit(1)
    show_address(found.host, found.port, found.token, "")
