"""The live page's server under a flood, and what the page says when it can't keep up.

Floods are bounded in count and time: the limits are lowered (constructor parameters in
process, `REFEREE_SERVE_LIMITS` for a real `referee shell --serve`) so each plays in seconds.
Waits are for observed states, with a guard that only catches a hang.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from queue import Empty, Queue

import pytest

from referee.server import SCRIPT, Background, Limits, LiveServer, Page
from test_serve import env_for, one_off

GUARD = 20.0  # seconds: a hang, never a slow machine
HAS_FDS = Path("/proc/self/fd").is_dir()


def open_fds(pid: int | str = "self") -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))  # noqa: PTH208 -- a count


def rss_kib(pid: int | str = "self") -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+)", text)
    assert found
    return int(found[1])


def until(check: Callable[[], bool], guard: float = GUARD) -> None:
    """Wait for `check` to hold (polling), failing only on a hang."""
    deadline = time.monotonic() + guard
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


class Fixed:
    """A source whose page never changes unless told to (`bump`)."""

    def __init__(self, size: int = 200) -> None:
        self.size = size
        self.count = 0

    def stamp(self) -> object:
        return self.count

    def render(self, version: int) -> Page:
        fragment = f"<p>card {self.count}</p>" + "x" * self.size
        return Page(f"<html><body>{fragment}</body></html>", fragment)


class Running:
    """A `LiveServer` on its own thread (as `shell --serve` runs it), on loopback."""

    def __init__(self, source: Fixed, limits: Limits, port: int = 0) -> None:
        self.said: list[str] = []
        self.server = LiveServer(source, "T" * 26, poll=0.02, limits=limits,
                                 say=self.said.append)  # fmt: skip
        self.runner = Background(self.server, "127.0.0.1", port)
        self.host, self.port = self.runner.start()

    def connect(self, rcvbuf: int | None = None) -> socket.socket:
        sock = socket.socket()
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(GUARD)
        sock.connect((self.host, self.port))
        return sock

    def request(self, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
        with self.connect() as sock:
            sock.sendall(f"{method} /{'T' * 26}/{path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        return int(lines[0].split()[1]), headers, body

    def stop(self) -> None:
        self.runner.stop()


@pytest.fixture
def running() -> Iterator[Callable[..., Running]]:
    made: list[Running] = []

    def make(source: Fixed | None = None, **limits: float) -> Running:
        made.append(Running(source or Fixed(), Limits(**limits)))  # type: ignore[arg-type]
        return made[-1]

    yield make
    for one in made:
        one.stop()


# ---------------------------------------------------------------------------- idle floods


def test_idle_clients_are_closed_on_time_and_never_keep_out_a_real_one(
    running: Callable[..., Running],
) -> None:
    served = running(header_timeout=0.5, max_per_address=8, max_clients=20)
    before = open_fds() if HAS_FDS else 0
    idle = [served.connect() for _ in range(60)]
    for sock in idle[:30]:
        sock.sendall(b"GET /TTTT")  # slowloris: half a request line, never finished
    status, _, body = served.request("GET", "")
    assert status == 200 and b"card 0" in body
    assert sum(served.server.per_address.values()) <= 8
    until(lambda: not served.server.clients)  # every idle one closed by the timeout
    for sock in idle:
        sock.close()
    if HAS_FDS:
        until(lambda: open_fds() <= before + 1)


def test_at_the_descriptor_ceiling_idle_ones_go_first_else_accepting_waits(
    running: Callable[..., Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    served = running(header_timeout=1.0, max_per_address=10_000, max_clients=10_000)
    server = served.server
    # The process as if it held 10 files besides the server's clients, under a ceiling of 50
    # (the flood's own sockets are this test's, in this process: they are not counted).
    monkeypatch.setattr("referee.server.open_files", lambda: 10 + len(server.clients))
    server.ceiling = 50
    flood = [served.connect() for _ in range(100)]
    until(lambda: server.serial >= 100)
    assert len(server.clients) <= 41
    status, _, _ = served.request("GET", "")  # an idle one makes room for a real request
    assert status == 200
    busy: list[socket.socket] = []
    for _ in range(40):  # streams hold their descriptors: at most half the ceiling of them
        busy.append(served.connect())
        busy[-1].sendall(f"GET /{'T' * 26}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    until(lambda: server.streams >= 25)
    time.sleep(0.3)
    assert server.streams == 25 and len(server.clients) <= 41
    status, headers, _ = served.request("GET", "events")  # one stream more: told to come back
    assert status == 503 and "Retry-After" in headers
    assert served.request("GET", "")[0] == 200  # and the page is always had
    for sock in flood + busy:
        sock.close()
    until(lambda: not server.clients)


def test_emfile_on_accept_is_one_line_and_the_loop_backs_off(
    running: Callable[..., Running],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    served = running()
    real = socket.socket.accept
    failures = [0]

    def accept(sock: socket.socket) -> tuple[socket.socket, object]:
        if failures[0] < 5:
            failures[0] += 1
            raise OSError(errno.EMFILE, "Too many open files")
        return real(sock)

    monkeypatch.setattr(socket.socket, "accept", accept)
    status, _, _ = served.request("GET", "")  # served once the backoff lets it be taken
    assert status == 200 and failures[0] == 5
    assert len(served.said) == 1 and "out of file descriptors" in served.said[0]
    assert "\n" not in served.said[0]
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out


# ---------------------------------------------------------------------------- streams


def test_a_stream_that_never_reads_is_closed_after_its_timeout_and_holds_its_slot(
    running: Callable[..., Running],
) -> None:
    source = Fixed(size=400_000)  # one card overflows every buffer on the way
    served = running(source, write_timeout=0.5, max_streams=1, stream_sndbuf=4096,
                     keepalive=0.2)  # fmt: skip
    before = rss_kib() if HAS_FDS else 0
    deaf = served.connect(rcvbuf=4096)
    deaf.sendall(f"GET /{'T' * 26}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    until(lambda: served.server.streams == 1)
    status, headers, _ = served.request("GET", "events")  # the cap counts the deaf one
    assert status == 503 and headers["Retry-After"] == "10"
    status, headers, _ = served.request("HEAD", "events")  # the page's probe
    assert status == 503 and headers["Retry-After"] == "10"
    until(lambda: served.server.streams == 0, guard=5.0)  # aborted, not left to linger
    assert not served.server.clients
    status, _, _ = served.request("HEAD", "events")
    assert status == 200
    deaf.close()
    if HAS_FDS:
        assert rss_kib() - before < 20_000


def test_a_flood_of_deaf_streams_keeps_files_and_memory_flat(
    running: Callable[..., Running],
) -> None:
    if not HAS_FDS:
        pytest.skip("no /proc/self/fd to count open files")
    source = Fixed(size=100_000)
    served = running(source, write_timeout=0.5, max_streams=8, stream_sndbuf=4096,
                     keepalive=0.2, max_per_address=64)  # fmt: skip
    files, memory = open_fds(), rss_kib()
    for _ in range(3):  # waves: each is let go before the next is let in
        deaf = [served.connect(rcvbuf=4096) for _ in range(40)]
        for sock in deaf:
            sock.sendall(f"GET /{'T' * 26}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        until(lambda: served.server.streams >= 1)
        assert served.server.streams <= 8
        source.count += 1  # a change: every stream is sent the new card
        until(lambda: not served.server.clients, guard=10.0)
        for sock in deaf:
            sock.close()
    until(lambda: open_fds() <= files + 1)
    assert rss_kib() - memory < 20_000


def test_a_hung_up_stream_frees_its_slot_at_once(running: Callable[..., Running]) -> None:
    served = running(max_streams=1, keepalive=30.0)
    sock = served.connect()
    sock.sendall(f"GET /{'T' * 26}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    until(lambda: served.server.streams == 1)
    sock.close()
    until(lambda: served.server.streams == 0, guard=3.0)  # not at the next ping, 30 s on


# ---------------------------------------------------------------------------- the page


def test_the_script_says_each_state_in_words_and_backs_off_with_jitter() -> None:
    for words in ["Live: updates by itself", "reconnecting in", "Offline:", "stale",
                  "busy", "no longer works", "Scan the new code"]:  # fmt: skip
        assert words in SCRIPT
    assert "Retry-After" in SCRIPT and "Math.random()" in SCRIPT
    assert "Math.min(CAP,Math.pow(2,tries))" in SCRIPT  # doubling, capped
    assert "QUIET=37" in SCRIPT  # the watchdog: no ping for 2.5 pings is a lost connection


def test_a_restart_on_the_same_port_serves_the_same_token(
    running: Callable[..., Running],
) -> None:
    first = running()
    first.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", first.port), timeout=1).close()
    second = Running(Fixed(), Limits(), port=first.port)  # the address the page still has
    try:
        status, _, body = second.request("GET", "card")
        assert status == 200 and b"card 0" in body
    finally:
        second.stop()


# ---------------------------------------------------------------------------- no paths


@pytest.mark.parametrize("broken", ["missing", "directory", "shadow-link", "garbage", "fifo"])
def test_no_path_or_link_target_reaches_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    from referee.cli.serve import SessionSource

    home = tmp_path / "secret-home"
    assert one_off(home, "new", "kariki", "Ann", "Bob", "--name", "friday").returncode == 0
    monkeypatch.setenv("REFEREE_HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    told: list[str] = []
    source = SessionSource("friday", tell=told.append)
    assert "Ann" in source.render(0).fragment
    path = home / "sessions" / "friday.toml"
    path.unlink()
    if broken == "directory":
        path.mkdir()
    elif broken == "shadow-link":
        path.symlink_to("/etc/shadow")
    elif broken == "garbage":
        path.write_bytes(b"\xff\xfe[[[ /etc/shadow")
    elif broken == "fifo":
        os.mkfifo(path)
    source = SessionSource("friday", tell=told.append)  # as a fresh `serve` would find it
    for _ in range(2):
        page = source.render(1)
        for leak in [str(tmp_path), "secret-home", "/etc", "shadow", "sessions/", ".toml"]:
            assert leak not in page.html, leak
        assert "can&#x27;t be read right now" in page.fragment
    assert len(told) == 1 and "\n" not in told[0]  # the details: once, on the terminal


def test_a_deleted_session_is_named_but_its_folder_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.cli.serve import SessionSource

    home = tmp_path / "secret-home"
    assert one_off(home, "new", "kariki", "Ann", "Bob", "--name", "friday").returncode == 0
    monkeypatch.setenv("REFEREE_HOME", str(home))
    source = SessionSource("friday", tell=lambda line: None)
    source.render(0)
    (home / "sessions" / "friday.toml").unlink()
    page = source.render(1)
    assert "&#x27;friday&#x27; was deleted or renamed" in page.fragment
    assert "secret-home" not in page.html


# ---------------------------------------------------------------------------- the shell


def _limit_files(soft: int) -> Callable[[], None]:
    def limit() -> None:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return limit


@pytest.mark.skipif(not HAS_FDS or sys.platform == "win32", reason="counts /proc/PID/fd")
def test_the_shell_keeps_working_through_a_flood_with_256_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert one_off(home, "new", "kariki", "Ann", "Bob", "Cy", "--name", "bar").returncode == 0
    env = env_for(home)
    env["REFEREE_SERVE_LIMITS"] = (  # no cap per address: the loopback flood meets the ceiling
        "header_timeout=1,write_timeout=1,keepalive=0.5,max_streams=8,max_per_address=9999"
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "shell", "--serve"], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=_limit_files(256),
    )  # fmt: skip
    stdout, stderr = process.stdout, process.stderr
    assert process.stdin is not None and stdout is not None and stderr is not None
    lines: Queue[str] = Queue()
    errors: list[str] = []

    def read_out() -> None:
        for line in stdout:
            lines.put(line)

    readers = [threading.Thread(target=read_out, daemon=True),
               threading.Thread(target=lambda: errors.extend(stderr), daemon=True)]  # fmt: skip
    for reader in readers:
        reader.start()
    text = ""
    while not (found := re.search(r"http://([\d.]+):(\d+)/\s*([A-Z2-7]{26})/", text)):
        text += lines.get(timeout=GUARD)
    host, port, token = found[1], int(found[2]), found[3]
    time.sleep(0.3)
    files, memory = open_fds(process.pid), rss_kib(process.pid)

    def act(line: str, expect: str) -> str:
        process.stdin.write(line + "\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        seen = ""
        while expect not in seen:
            try:
                seen += lines.get(timeout=GUARD)
            except Empty:
                raise AssertionError(f"{line!r}: no {expect!r} in {seen!r}") from None
        return seen

    flood: list[socket.socket] = []
    try:
        for _ in range(400):  # past the 256 files the shell may open
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            sock.connect_ex((host, port))
            flood.append(sock)
        for sock in flood[:40]:  # and event streams that never read
            with contextlib.suppress(OSError):  # refused while the server is full: fine
                sock.send(f"GET /{token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        time.sleep(0.5)
        assert open_fds(process.pid) < 256
        act("claim 9", "Nine")
        act("pull 4-5", "berry")
        act("undo", "undid")
        act("redo", "redid")
        act("slash bob drop", "slash")
        act("show", "KARIKI")
    finally:
        for sock in flood:
            sock.close()
    until(lambda: open_fds(process.pid) <= files + 2, guard=10.0)
    assert rss_kib(process.pid) - memory < 20_000
    process.stdin.close()
    assert process.wait(timeout=GUARD) == 0
    for reader in readers:
        reader.join(GUARD)
    stdout.close()
    stderr.close()
    said = "".join(errors)
    assert "Too many open files" not in said.replace("out of file descriptors", "")
    assert "Traceback" not in said and "Traceback" not in text
    assert len(said.splitlines()) <= 3, said
