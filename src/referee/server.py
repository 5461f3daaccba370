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
import errno
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from referee.lan import lan_address as lan_address  # moved to referee.lan; named here still

HEAD_LIMIT = 8192  # bytes of request line and headers
MIN_GAP = 0.25  # seconds between two renders: a burst of saves costs the shell a few, not each
SAY_EVERY = 10.0  # seconds between two terminal lines about one kind of trouble
ACCEPT_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server lets its clients hold: time, connections, streams, descriptors."""

    header_timeout: float = 5.0  # seconds a client has to send its whole request head
    write_timeout: float = 5.0  # seconds a client's write buffer may stay full
    keepalive: float = 15.0  # seconds between pings on an idle event stream (the page's watchdog)
    max_clients: int = 1024  # connections at once
    max_per_address: int = 16  # connections at once from one address (a phone needs 2 or 3)
    max_streams: int = 256  # open event streams at once (phones at one table: a few dozen)
    fd_reserve: int = 64  # descriptors left to the scorekeeper (at least a quarter of the limit)
    retry_after: int = 10  # seconds a refused stream is told to wait (503, Retry-After)
    write_high: int = 16384  # bytes buffered per connection before a write waits for the client
    stream_sndbuf: int = 32768  # the kernel's send buffer of an event stream


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


def open_files() -> int | None:
    """How many descriptors this process holds now, where the system lists them."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))  # noqa: PTH208 -- a count, no Path objects needed
        except OSError:
            continue
    return None


def fd_ceiling(reserve: int) -> int | None:
    """The most descriptors the server may let the process hold: the soft limit less a reserve
    for the scorekeeper's own work (saves, locks, the shell); None where there is no such
    limit to ask for (Windows has no `resource` module)."""
    try:
        import resource
    except ImportError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    return max(soft - max(reserve, soft // 4), 8)


class Client:
    """One accepted connection, from its accept until its socket is truly closed."""

    __slots__ = ("address", "counted", "idle", "sock", "stream", "transport")

    def __init__(self, address: str, sock: socket.socket) -> None:
        self.address = address
        self.idle = True  # no complete request head yet: the first to go when room is short
        self.counted = True  # against the connection caps (no more once it is let go)
        self.stream = False  # holds a slot of the stream cap until closed
        self.transport: asyncio.Transport | None = None
        self.sock: socket.socket | None = sock

    def drop(self) -> None:
        """Close at once, whatever is buffered (the socket is gone on the loop's next turn)."""
        if self.transport is not None:
            self.transport.abort()
        elif self.sock is not None:
            self.sock.close()
        self.idle = False


class LiveServer:
    """The server of one `Source`: the page, its fragment, and an event stream of changes.

    It holds what a flood could exhaust: connections in all and per address, event streams,
    and the process's file descriptors (a reserve stays for the scorekeeper). When one runs
    short, the oldest connection that has not yet sent its request goes first, else the
    newest is closed at once; past the descriptor ceiling it stops accepting for a moment.
    Trouble is said on the terminal through `say`, one line at a time, never a traceback.
    """

    def __init__(
        self,
        source: Source,
        token: str,
        *,
        poll: float = 0.1,
        limits: Limits | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.source = source
        self.token = token
        self.poll = poll
        self.limits = limits or Limits()
        self.say_line = say or (lambda line: None)
        self.clients: dict[int, Client] = {}  # accept order: the oldest first
        self.per_address: dict[str, int] = {}
        self.streams = 0
        self.version = 0
        self.stamp = source.stamp()
        self.page = source.render(self.version)
        self.changed = asyncio.Event()
        self.listener: socket.socket | None = None
        self.ceiling = fd_ceiling(self.limits.fd_reserve)
        self.said: dict[str, tuple[float, int]] = {}  # kind of trouble: (said at, since held)
        self.serial = 0

    @property
    def max_streams(self) -> int:
        """Event streams at once. A stream holds its descriptor for good: at most half the
        descriptor ceiling, so a phone asking for the page always gets it (or a 503 it
        retries after a while), never a silent wait."""
        if self.ceiling is None:
            return self.limits.max_streams
        return min(self.limits.max_streams, max(1, self.ceiling // 2))

    # ------------------------------------------------------------------ running

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen on `host:port` (port 0: any free one); returns the address bound."""
        self.changed = asyncio.Event()  # bound to the running loop
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        # `::` is every address of both families where the system allows it (IPv4 phones too)
        both = host == "::" and socket.has_dualstack_ipv6()
        listener = socket.create_server(
            (host, port), family=family, backlog=128, dualstack_ipv6=both
        )
        listener.setblocking(False)
        self.listener = listener
        bound = listener.getsockname()
        return str(bound[0]), int(bound[1])

    async def run(self, host: str, port: int, ready: Callable[[str, int], None]) -> None:
        """Serve until cancelled, watching the source; `ready` is told the address bound."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_trouble)
        bound = await self.start(host, port)
        ready(*bound)
        try:
            await asyncio.gather(self.watch(), self.accept())
        finally:
            if self.listener is not None:
                self.listener.close()
            for client in list(self.clients.values()):
                client.drop()

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

    # ------------------------------------------------------------------ accepting

    async def accept(self) -> None:
        """Accept connections while there is room; never raise for a full table or system."""
        assert self.listener is not None
        loop = asyncio.get_running_loop()
        pause = 0.05
        while True:
            if not self.has_room():
                await asyncio.sleep(pause)  # the kernel's backlog holds the newcomers
                pause = min(pause * 2, 1.0)
                continue
            try:
                sock, peer = await loop.sock_accept(self.listener)
            except OSError as error:
                if error.errno not in ACCEPT_ERRORS:
                    continue  # the client gave up before we took it (ECONNABORTED ...)
                self.say("accept", f"live page: out of file descriptors ({error.strerror}); "
                         "not taking new phones for a moment")  # fmt: skip
                self.drop_idle(None)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            pause = 0.05
            self.admit(sock, str(peer[0]) if isinstance(peer, tuple) else "")
            # An accept that finds a connection waiting never yields: without this, a flood
            # would keep the loop from closing what it let go, and from everything else.
            await asyncio.sleep(0)

    def has_room(self) -> bool:
        """Whether another connection may be taken: one more descriptor stays under the
        ceiling, or an idle client can be let go for it once it is in; else accepting waits
        (the kernel's backlog holds the newcomers)."""
        if self.is_under_ceiling(1) or any(client.idle for client in self.clients.values()):
            return True
        self.say("ceiling", "live page: near this process's limit of open files; "
                 "not taking new phones for a moment")  # fmt: skip
        return False

    def is_under_ceiling(self, more: int) -> bool:
        """Whether `more` descriptors keep the process at or under the ceiling (no ceiling:
        no `resource` module, or no list of open files to count)."""
        if self.ceiling is None:
            return True
        held = open_files()
        return held is None or held + more <= self.ceiling

    def admit(self, sock: socket.socket, address: str) -> None:
        """Take one accepted socket under the caps (in all, per address), or close it."""
        limits = self.limits
        if not self.is_under_ceiling(0) and not self.drop_idle(None):
            sock.close()
            return
        if self.counted() >= limits.max_clients and not self.drop_idle(None):
            sock.close()
            return
        if self.per_address.get(address, 0) >= limits.max_per_address and not self.drop_idle(
            address
        ):
            sock.close()
            return
        self.serial += 1
        client = Client(address, sock)
        self.clients[self.serial] = client
        self.per_address[address] = self.per_address.get(address, 0) + 1
        task = asyncio.ensure_future(self.connect(self.serial, client, sock))
        task.add_done_callback(lambda done: None if done.cancelled() else done.exception())

    def counted(self) -> int:
        """Connections held against the cap in all (those let go are closing)."""
        return sum(self.per_address.values())

    def drop_idle(self, address: str | None) -> bool:
        """Let go of the oldest client (from `address`, or any) that has sent no request yet."""
        for client in self.clients.values():
            if client.idle and (address is None or client.address == address):
                self.forget_counts(client)
                client.drop()
                return True
        return False

    def forget_counts(self, client: Client) -> None:
        """Stop counting a client against the connection caps (its socket is closing)."""
        left = self.per_address.get(client.address, 0) - 1
        if left > 0:
            self.per_address[client.address] = left
        else:
            self.per_address.pop(client.address, None)
        client.counted = False

    async def connect(self, serial: int, client: Client, sock: socket.socket) -> None:
        """Stream wrappers around the socket, then the request (or stream) it carries."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=HEAD_LIMIT, loop=loop)
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        try:
            transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock)
        except (OSError, ValueError):  # let go (closed) before it was wrapped, or reset
            sock.close()
            self.release(serial, client)
            return
        client.transport, client.sock = transport, None
        if not client.counted:  # let go while being wrapped
            transport.abort()
            self.release(serial, client)
            return
        transport.set_write_buffer_limits(high=self.limits.write_high)
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        await self.handle(reader, writer, serial, client)

    def release(self, serial: int, client: Client) -> None:
        """The client's socket is closed: it no longer counts anywhere."""
        if self.clients.pop(serial, None) is None:
            return
        if client.counted:
            self.forget_counts(client)
        if client.stream:
            self.streams -= 1

    # ------------------------------------------------------------------ one connection

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     serial: int, client: Client) -> None:  # fmt: skip
        """Answer one request (or hold one event stream); never raise."""
        clean = False
        try:
            await self.answer(reader, writer, client)
            clean = True
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError, ValueError, OSError):  # fmt: skip
            pass
        except asyncio.CancelledError:
            writer.transport.abort()
            self.release(serial, client)
            raise
        await self.close(writer, clean)
        self.release(serial, client)

    async def close(self, writer: asyncio.StreamWriter, clean: bool) -> None:
        """Close for good: a clean close flushes what is left, within the write timeout; a
        client that will not take it (or any failure) is aborted, its buffer thrown away."""
        if clean:
            writer.close()
        else:
            writer.transport.abort()
        try:
            await asyncio.wait_for(writer.wait_closed(), self.limits.write_timeout)
        except (TimeoutError, ConnectionError, OSError):
            writer.transport.abort()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     client: Client) -> None:  # fmt: skip
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.limits.header_timeout)
        client.idle = False
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
        elif where == "events":
            await self.stream(reader, writer, client, head_only)
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
        await asyncio.wait_for(writer.drain(), self.limits.write_timeout)

    async def stream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     client: Client, head_only: bool) -> None:  # fmt: skip
        """Server-sent events: the card now, then at every change; a ping when idle.

        A HEAD asks whether a stream would be had now (the page's probe before it reconnects).
        A stream holds its slot until its socket is closed, and a client that stops reading is
        aborted once its buffer has stayed full for the write timeout.
        """
        if self.streams >= self.max_streams:
            after = {"Retry-After": str(self.limits.retry_after)}
            await self.send(writer, 503, "text/plain", "too many phones: try again soon\n",
                            head_only, extra=after)  # fmt: skip
            return
        if head_only:
            writer.write(self.headers(200, "text/event-stream") + b"\r\n")
            await asyncio.wait_for(writer.drain(), self.limits.write_timeout)
            return
        client.stream = True
        self.streams += 1
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.stream_sndbuf)
        writer.write(self.headers(200, "text/event-stream") + b"\r\n")
        gone = asyncio.ensure_future(reader.read(1))  # a browser sends nothing: EOF is goodbye
        try:
            sent = -1
            while not gone.done():
                if sent != self.version:
                    sent = self.version
                    data = "".join(f"data: {line}\n" for line in self.page.fragment.split("\n"))
                    writer.write(f"id: {sent}\nevent: card\n{data}\n".encode())
                else:
                    woken = asyncio.ensure_future(self.changed.wait())
                    done, _ = await asyncio.wait(
                        {woken, gone}, timeout=self.limits.keepalive,
                        return_when=asyncio.FIRST_COMPLETED,
                    )  # fmt: skip
                    woken.cancel()
                    if done:
                        continue
                    writer.write(b"event: ping\ndata:\n\n")
                await asyncio.wait_for(writer.drain(), self.limits.write_timeout)
        finally:
            gone.cancel()

    # ------------------------------------------------------------------ the terminal

    def say(self, kind: str, line: str) -> None:
        """One line on the terminal about `kind` of trouble, at most every `SAY_EVERY`
        seconds (with how many were held back since)."""
        now = time.monotonic()
        said, held = self.said.get(kind, (-SAY_EVERY, 0))
        if now - said < SAY_EVERY:
            self.said[kind] = (said, held + 1)
            return
        self.said[kind] = (now, 0)
        more = f" ({held} more since)" if held else ""
        with contextlib.suppress(Exception):
            self.say_line(line + more)

    def _loop_trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What asyncio would print with a traceback, as one line."""
        error = context.get("exception")
        what = f"{type(error).__name__}: {error}" if error is not None else context.get("message")
        self.say("loop", f"live page: {what}")


# The page's own script. It says in words how the card is kept: live, reconnecting (with
# backoff and jitter, capped), offline, busy (a 503's Retry-After), or gone (the server now
# has another token); a card not known to be current is marked stale, with the time it was.
SCRIPT = (
    '(function(){var live=document.getElementById("live"),'
    'note=document.getElementById("state"),body=document.body,'
    'v=body.getAttribute("data-version"),es=null,tries=0,timer=null,heard=Date.now(),'
    "at=new Date(),over=false,CAP=30,QUIET={quiet};"
    'function two(n){return(n<10?"0":"")+n}'
    'function say(state,words){body.setAttribute("data-state",state);'
    'var stale=state!=="live"&&state!=="connecting";live.className=stale?"stale":"";'
    'note.textContent=words+(stale?" This card may be stale: last updated at "+two(at.getHours())'
    '+":"+two(at.getMinutes())+":"+two(at.getSeconds())+".":"")}'
    "function show(html,ver){at=new Date();heard=Date.now();if(ver===v)return;v=ver;"
    'live.innerHTML=html;var t=live.querySelector("[data-title]");'
    'if(t)document.title=t.getAttribute("data-title")}'
    "function backoff(){return Math.min(CAP,Math.pow(2,tries))*(0.5+Math.random()/2)}"
    "function later(state,words,secs){clearTimeout(timer);tries++;"
    'say(state,words.replace("%s",Math.ceil(secs)));timer=setTimeout(probe,secs*1000)}'
    "function lost(){if(es){es.close();es=null}if(over)return;"
    'if(navigator.onLine===false)later("offline",'
    '"Offline: this phone has no network. Trying again in %s s.",backoff());'
    'else later("reconnecting","Connection lost: reconnecting in %s s.",backoff())}'
    "function gone(){over=true;if(es){es.close();es=null}clearTimeout(timer);"
    'say("gone","This link no longer works: the scorekeeper restarted the live card with a '
    'new link. Scan the new code.")}'
    'function probe(){var r=new XMLHttpRequest();r.open("HEAD",window.EventSource?'
    '"events":"card");r.timeout=10000;'
    "r.onload=function(){var s=r.status;if(s===200)return open();if(s===404)return gone();"
    'var wait=parseInt(r.getResponseHeader("Retry-After"),10);'
    'if(!(wait>0))return lost();later("busy","The live card is busy (too many phones). '
    'Trying again in %s s.",Math.min(wait,300)*(1+Math.random()/4))};'
    "r.onerror=r.ontimeout=lost;r.send()}"
    'function poll(){var r=new XMLHttpRequest();r.open("GET","card");r.timeout=10000;'
    "r.onload=function(){if(r.status===404)return gone();if(r.status!==200)return lost();"
    'tries=0;show(r.responseText,r.getResponseHeader("X-Version"));'
    'say("live","Live: updates every few seconds.");timer=setTimeout(poll,3000)};'
    "r.onerror=r.ontimeout=lost;r.send()}"
    'function open(){if(!tries)say("connecting","Connecting for live updates...");'
    'if(!window.EventSource)return poll();v=null;es=new EventSource("events");'
    'es.addEventListener("card",function(e){tries=0;show(e.data,e.lastEventId);'
    'say("live","Live: updates by itself.")});'
    'es.addEventListener("ping",function(){heard=Date.now();at=new Date();'
    'if(body.getAttribute("data-state")==="live")say("live","Live: updates by itself.")});'
    "es.onerror=lost}"
    "setInterval(function(){if(es&&Date.now()-heard>QUIET*1000)lost()},5000);"
    'window.addEventListener("offline",function(){if(es)lost()});'
    'window.addEventListener("online",function(){if(!es&&!over){clearTimeout(timer);probe()}});'
    "open()})();"
).replace("{quiet}", str(int(Limits().keepalive * 2.5)))  # the watchdog: 2.5 pings


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
