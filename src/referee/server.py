"""`referee serve`'s web server: one read-only page that follows a file, for the phones at a table.

The standard library's asyncio streams are enough: one thread holds every connection, so 200
phones that connect and send nothing cost 200 small objects, not 200 threads, and time out on
their own. Only GET and HEAD are answered, only under an unguessable token (every other path is
404), and the page is whatever `Source.render` made for the file's last change, so a client can
never make the server read anything else. Each change of the source is pushed to every open
event stream (server-sent events) within one `poll` of the save; a page without JavaScript
shows the latest on a refresh.

Nothing here names a game or reads a session: the CLI gives a `Source` (`cli/serve.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
from collections.abc import Callable
from typing import NamedTuple, Protocol

from referee.lan import lan_address as lan_address  # moved to referee.lan; named here still

HEADER_TIMEOUT = 5.0  # seconds a client has to send its request
WRITE_TIMEOUT = 5.0  # seconds a client has to take what it is sent
KEEPALIVE = 15.0  # seconds between comments on an idle event stream
MIN_GAP = 0.25  # seconds between two renders: a burst of saves costs the shell a few, not each
MAX_CLIENTS = 1024  # connections at once; past it a new one is closed at once
MAX_STREAMS = 256  # open event streams at once (phones at one table: a few dozen)
HEAD_LIMIT = 8192  # bytes of request line and headers


class Page(NamedTuple):
    """What the server shows: the whole page, and the part an update replaces."""

    html: str
    fragment: str


class Source(Protocol):
    """Where the page comes from: a cheap `stamp` that changes when the page would, and
    `render`, run in a worker thread when it did."""

    def stamp(self) -> object:
        """Something that compares equal until the page would change (a file's stat)."""

    def render(self, version: int) -> Page:
        """The page as of now (`version` counts the changes seen, for the page's script)."""


def new_token() -> str:
    """128 random bits as 26 upper-case base-32 letters and digits: QR codes hold those in
    their compact alphanumeric mode, so the code stays small enough for a phone's screen."""
    import base64

    return base64.b32encode(secrets.token_bytes(16)).decode("ascii").rstrip("=")


class LiveServer:
    """The server of one `Source`: the page, its fragment, and an event stream of changes."""

    def __init__(
        self,
        source: Source,
        token: str,
        *,
        poll: float = 0.1,
        max_clients: int = MAX_CLIENTS,
        max_streams: int = MAX_STREAMS,
    ) -> None:
        self.source = source
        self.token = token
        self.poll = poll
        self.max_clients = max_clients
        self.max_streams = max_streams
        self.clients = 0
        self.streams = 0
        self.version = 0
        self.stamp = source.stamp()
        self.page = source.render(self.version)
        self.changed = asyncio.Event()
        self.server: asyncio.Server | None = None

    # ------------------------------------------------------------------ running

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen on `host:port` (port 0: any free one); returns the address bound."""
        self.changed = asyncio.Event()  # bound to the running loop
        self.server = await asyncio.start_server(self.handle, host, port, limit=HEAD_LIMIT)
        bound = self.server.sockets[0].getsockname()
        return str(bound[0]), int(bound[1])

    async def run(self, host: str, port: int, ready: Callable[[str, int], None]) -> None:
        """Serve until cancelled, watching the source; `ready` is told the address bound."""
        bound = await self.start(host, port)
        ready(*bound)
        assert self.server is not None
        async with self.server:
            await self.watch()

    async def watch(self) -> None:
        """Render again whenever the source's stamp changes, and wake every stream.

        A lone save is shown within `poll`; in a burst (a script piped into the shell) renders
        are `MIN_GAP` apart and the last one shows the final state.
        """
        loop = asyncio.get_running_loop()
        rendered = loop.time()
        while True:
            await asyncio.sleep(self.poll)
            stamp = await asyncio.to_thread(self.source.stamp)
            if stamp == self.stamp:
                continue
            pause = rendered + MIN_GAP - loop.time()
            if pause > 0:
                await asyncio.sleep(pause)
                stamp = await asyncio.to_thread(self.source.stamp)
            self.stamp = stamp
            rendered = loop.time()
            page = await asyncio.to_thread(self.source.render, self.version + 1)
            self.version += 1
            self.page = page
            woken, self.changed = self.changed, asyncio.Event()
            woken.set()

    # ------------------------------------------------------------------ one connection

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Answer one request (or hold one event stream); never raise."""
        if self.clients >= self.max_clients:
            writer.transport.abort()
            return
        self.clients += 1
        try:
            await self.answer(reader, writer)
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError, ValueError):  # fmt: skip
            pass
        finally:
            self.clients -= 1
            writer.close()

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEADER_TIMEOUT)
        parts = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            await self.send(writer, 400, "text/plain", "bad request\n", head_only=False)
            return
        method, target = parts[0], parts[1].split("?", 1)[0]
        if method not in ("GET", "HEAD"):
            await self.send(writer, 405, "text/plain", "read-only\n", method == "HEAD",
                            extra={"Allow": "GET, HEAD"})  # fmt: skip
            return
        head_only = method == "HEAD"
        where = self.route(target)
        if where == "page":
            await self.send(writer, 200, "text/html; charset=utf-8", self.page.html, head_only)
        elif where == "card":
            await self.send(writer, 200, "text/html; charset=utf-8", self.page.fragment,
                            head_only, extra={"X-Version": str(self.version)})  # fmt: skip
        elif where == "events" and not head_only:
            await self.stream(writer)
        elif where == "slash":
            await self.send(writer, 301, "text/plain", "", head_only,
                            extra={"Location": f"/{self.token}/"})  # fmt: skip
        else:
            await self.send(writer, 404, "text/plain", "not found\n", head_only)

    def route(self, target: str) -> str:
        """What a path asks for: page, card, events, slash (the page without its slash), or ''."""
        segments = target.split("/")
        if len(segments) < 2 or segments[0] != "":
            return ""
        if not secrets.compare_digest(segments[1].encode("latin-1"), self.token.encode("ascii")):
            return ""
        rest = "/".join(segments[2:]) if len(segments) > 2 else None
        return {None: "slash", "": "page", "card": "card", "events": "events"}.get(rest, "")

    def headers(self, status: int, kind: str, extra: dict[str, str] | None = None) -> bytes:
        reasons = {200: "OK", 301: "Moved Permanently", 400: "Bad Request", 404: "Not Found",
                   405: "Method Not Allowed", 503: "Service Unavailable"}  # fmt: skip
        lines = [
            f"HTTP/1.1 {status} {reasons[status]}",
            f"Content-Type: {kind}",
            "Cache-Control: no-store",
            "X-Content-Type-Options: nosniff",
            "X-Frame-Options: DENY",
            "Referrer-Policy: no-referrer",
            f"Content-Security-Policy: {CSP}",
            "Connection: close",
            *(f"{key}: {value}" for key, value in (extra or {}).items()),
        ]
        return ("\r\n".join(lines) + "\r\n").encode("latin-1")

    async def send(self, writer: asyncio.StreamWriter, status: int, kind: str, body: str,
                   head_only: bool, extra: dict[str, str] | None = None) -> None:  # fmt: skip
        data = body.encode("utf-8")
        length = {"Content-Length": str(len(data))}
        writer.write(self.headers(status, kind, {**(extra or {}), **length}))
        writer.write(b"\r\n" if head_only else b"\r\n" + data)
        await asyncio.wait_for(writer.drain(), WRITE_TIMEOUT)

    async def stream(self, writer: asyncio.StreamWriter) -> None:
        """Server-sent events: the fragment now, then at every change; a comment when idle."""
        if self.streams >= self.max_streams:
            await self.send(writer, 503, "text/plain", "too many phones\n", False)
            return
        self.streams += 1
        try:
            writer.write(self.headers(200, "text/event-stream") + b"\r\nretry: 1000\n\n")
            sent = -1
            while True:
                changed = self.changed
                if sent != self.version:
                    sent = self.version
                    data = "".join(f"data: {line}\n" for line in self.page.fragment.split("\n"))
                    writer.write(f"id: {sent}\nevent: card\n{data}\n".encode())
                else:
                    try:
                        await asyncio.wait_for(changed.wait(), KEEPALIVE)
                        continue
                    except TimeoutError:
                        writer.write(b": still here\n\n")
                await asyncio.wait_for(writer.drain(), WRITE_TIMEOUT)
        finally:
            self.streams -= 1


# The page's own script: take each update from the event stream, or poll when there is none.
SCRIPT = (
    '(function(){var live=document.getElementById("live"),'
    'v=document.body.getAttribute("data-version");'
    "function show(html,ver){if(ver===v)return;v=ver;live.innerHTML=html;"
    'var t=live.querySelector("[data-title]");if(t)document.title=t.getAttribute("data-title")}'
    "function poll(){setInterval(function(){var r=new XMLHttpRequest();"
    'r.open("GET","card");r.onload=function(){if(r.status===200)'
    'show(r.responseText,r.getResponseHeader("X-Version"))};r.send()},2000)}'
    "if(!window.EventSource){poll();return}"
    'var es=new EventSource("events"),fails=0;'
    'es.addEventListener("card",function(e){fails=0;show(e.data,e.lastEventId)});'
    "es.onerror=function(){if(++fails>5){es.close();poll()}}})();"
)


def _csp() -> str:
    from referee.render.share import STYLE, source_hash

    return (
        f"default-src 'none'; style-src {source_hash(STYLE)}; script-src {source_hash(SCRIPT)}; "
        "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )


CSP = _csp()


class Background:
    """A `LiveServer` on its own thread and event loop (for `referee shell --serve`)."""

    def __init__(self, server: LiveServer, host: str, port: int) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.bound: tuple[str, int] | None = None
        self.failed: BaseException | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(host, port), daemon=True)

    def _ready(self, host: str, port: int) -> None:
        self.bound = (host, port)
        self.ready.set()

    def _run(self, host: str, port: int) -> None:
        asyncio.set_event_loop(self.loop)
        task = self.loop.create_task(self.server.run(host, port, self._ready))
        try:
            self.loop.run_until_complete(task)
        except BaseException as error:  # told to the shell by start(), never raised here
            self.failed = error
        finally:
            self.ready.set()
            with contextlib.suppress(Exception):
                self.loop.close()

    def start(self) -> tuple[str, int]:
        """Start serving; the address bound, or the error that stopped it (an `OSError`)."""
        self.thread.start()
        self.ready.wait()
        if self.bound is None:
            raise self.failed if isinstance(self.failed, OSError) else OSError("server failed")
        return self.bound

    def stop(self) -> None:
        """Stop serving and release the port."""

        def cancel() -> None:
            for task in asyncio.all_tasks(self.loop):
                task.cancel()

        if self.thread.is_alive():
            self.loop.call_soon_threadsafe(cancel)
            self.thread.join(5)
