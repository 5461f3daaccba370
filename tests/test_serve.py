"""`referee serve` and the share card, driven over real HTTP from other processes.

The server runs as a real `referee serve` (or `referee shell --serve`) subprocess on loopback;
every save in these tests comes from another process, as at a table. Waits are for observed
events, with a generous guard that only catches a hang.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

GUARD = 20.0  # seconds: a hang, never a slow machine


def env_for(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(REFEREE_HOME=str(home), XDG_CACHE_HOME=str(home.parent / "cache"),
               COLUMNS="40", NO_COLOR="1", PYTHONUNBUFFERED="1")  # fmt: skip
    env.pop("REFEREE_SESSION", None)
    return env


def one_off(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A one-off command in its own process (another terminal at the table)."""
    return subprocess.run([sys.executable, "-m", "referee", *args], env=env_for(home),
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip


class Served:
    """A running server: its process, address and token."""

    def __init__(self, process: subprocess.Popen[str], banner: list[str]) -> None:
        self.process = process
        self.banner = banner
        text = "\n".join(banner)
        found = re.search(r"http://([\d.]+):(\d+)/\s*([A-Z2-7]{26})/", text)
        assert found, text
        self.host, self.port, self.token = found[1], int(found[2]), found[3]

    def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, dict[str, str],
                                                                          bytes]:  # fmt: skip
        with socket.create_connection((self.host, self.port), timeout=GUARD) as sock:
            sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode() + body)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head, _, payload = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        return int(lines[0].split()[1]), headers, payload

    def stop(self) -> None:
        """Kill it (if still running) and close its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        if self.process.stdin is not None and self.process.stdin.closed:
            self.process.stdin = None
        self.process.communicate(timeout=GUARD)

    def page(self) -> str:
        status, _, body = self.request("GET", f"/{self.token}/")
        assert status == 200
        return body.decode()


def _default_sigint() -> None:
    # A suite started in the background by a script (`pytest &`) inherits SIGINT ignored, and
    # so would the server, which Ctrl-C could then never stop: give it the terminal's default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(home: Path, *args: str, stdin: int | None = None) -> Served:
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", *args], env=env_for(home), stdin=stdin,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
    )  # fmt: skip
    banner: list[str] = []
    deadline = time.monotonic() + GUARD
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"server ended: {process.stderr.read() if process.stderr else ''}")
        banner.append(line.rstrip("\n"))
        if re.search(r"[A-Z2-7]{26}/", line):
            return Served(process, banner)
    raise AssertionError("no address printed")


class Events:
    """An open event stream: each `next()` is the data of the next `card` event."""

    def __init__(self, served: Served) -> None:
        self.sock = socket.create_connection((served.host, served.port), timeout=GUARD)
        self.sock.sendall(f"GET /{served.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        assert b"200 OK" in head and b"text/event-stream" in head, head

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError("stream closed")
            self.buffer += chunk
        found, _, self.buffer = self.buffer.partition(mark)
        return found

    def next(self) -> str:
        while True:
            block = self._until(b"\n\n").decode()
            if "event: card" in block:
                return "\n".join(
                    line[6:] for line in block.split("\n") if line.startswith("data: ")
                )

    def close(self) -> None:
        self.sock.close()


def serve_kariki(home: Path) -> Served:
    """A Kariki session and `referee serve` on loopback, any free port."""
    made = one_off(home, "new", "kariki", "Ann", "B<b>ob</b>", "Cy", "--name", "friday")
    assert made.returncode == 0, made.stderr
    return start(home, "serve", "--host", "127.0.0.1", "--port", "0")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Path, Served]]:
    """A server of its own, for a test that changes the session."""
    served = serve_kariki(tmp_path / "home")
    yield tmp_path / "home", served
    served.stop()


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Served]]:
    """One server for the tests that only read."""
    home = tmp_path_factory.mktemp("serve") / "home"
    served = serve_kariki(home)
    yield home, served
    served.stop()


def test_the_page_is_the_share_card_and_names_are_text(watched: tuple[Path, Served]) -> None:
    _, served = watched
    page = served.page()
    assert "<title>Kariki: friday," in page
    assert 'name="viewport"' in page
    assert "B&lt;b&gt;ob&lt;/b&gt;" in page and "<b>ob" not in page
    assert "playing: Ann to act" in page


def test_headers_stop_framing_sniffing_and_outside_resources(watched: tuple[Path, Served]) -> None:
    _, served = watched
    status, headers, _ = served.request("GET", f"/{served.token}/")
    assert status == 200
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-store"
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "http" not in policy


@pytest.mark.parametrize(
    "method, path, status",
    [
        pytest.param("GET", "/", 404, id="root"),
        pytest.param("GET", "/index.html", 404, id="a-file"),
        pytest.param("GET", "/{token}/../", 404, id="dot-dot"),
        pytest.param("GET", "/{token}/x", 404, id="other-path-under-the-token"),
        pytest.param("GET", "/{lower}/", 404, id="token-in-lower-case"),
        pytest.param("GET", "/{short}/", 404, id="token-cut-short"),
        pytest.param("GET", "/{token}", 301, id="no-slash-redirects"),
        pytest.param("POST", "/{token}/", 405, id="post"),
        pytest.param("PUT", "/{token}/", 405, id="put"),
        pytest.param("DELETE", "/{token}/", 405, id="delete"),
        pytest.param("GET", "/{token}/card", 200, id="the-fragment"),
        pytest.param("HEAD", "/{token}/", 200, id="head"),
    ],
)
def test_only_the_card_under_the_token(
    watched: tuple[Path, Served], method: str, path: str, status: int
) -> None:
    _, served = watched
    token = served.token
    target = path.format(token=token, lower=token.lower(), short=token[:-1])
    found, headers, body = served.request(method, target)
    assert found == status
    if method == "HEAD":
        assert body == b"" and int(headers["Content-Length"]) > 100
    if status == 404:
        assert b"Kariki" not in body


def test_a_save_from_another_process_reaches_the_stream(table: tuple[Path, Served]) -> None:
    home, served = table
    events = Events(served)
    try:
        first = events.next()
        assert "Nine" not in first
        assert one_off(home, "kariki", "claim", "9").returncode == 0
        assert "Nine" in events.next()
        assert one_off(home, "undo").returncode == 0
        assert "Nine" not in events.next()
    finally:
        events.close()
    assert "Nine" not in served.page()


def test_it_follows_use_and_says_when_the_session_is_gone(table: tuple[Path, Served]) -> None:
    home, served = table
    events = Events(served)
    try:
        events.next()
        assert one_off(home, "new", "liars", "Dee", "Eve", "--name", "later").returncode == 0
        assert "Liar" in events.next()
        assert one_off(home, "delete", "later", "--yes").returncode == 0
        gone = events.next()
        assert "deleted or renamed" in gone and "later" in gone
    finally:
        events.close()


def test_a_prefix_given_to_serve_keeps_its_session(tmp_path: Path) -> None:
    """`serve -s fri` found friday at every render: a session `fried` made later made the
    prefix ambiguous, and the page said the session could not be read."""
    home = tmp_path / "home"
    assert one_off(home, "new", "kariki", "Ann", "Bob", "--name", "friday").returncode == 0
    served = start(home, "serve", "-s", "fri", "--host", "127.0.0.1", "--port", "0")
    try:
        assert "friday" in served.page()
        assert one_off(home, "new", "liars", "Dee", "Eve", "--name", "fried").returncode == 0
        assert one_off(home, "kariki", "claim", "9", "-s", "friday").returncode == 0
        deadline = time.monotonic() + 10  # the server sees the save when it next looks
        while "Nine" not in (page := served.page()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "friday" in page and "Nine" in page and "be read" not in page
    finally:
        served.stop()


def test_stalled_clients_do_not_stop_the_next_one(watched: tuple[Path, Served]) -> None:
    _, served = watched
    stalled = [socket.create_connection((served.host, served.port), timeout=GUARD)
               for _ in range(200)]  # fmt: skip
    try:
        for sock in stalled[:100]:
            sock.sendall(b"GET /")  # half a request line, never finished
        assert "Kariki" in served.page()
    finally:
        for sock in stalled:
            sock.close()


def test_ctrl_c_ends_it_with_exit_0_and_frees_the_port(table: tuple[Path, Served]) -> None:
    _, served = table
    served.process.send_signal(signal.SIGINT)
    assert served.process.wait(timeout=GUARD) == 0
    with socket.socket() as again:
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind((served.host, served.port))


def test_no_session_is_one_line_and_no_server(tmp_path: Path) -> None:
    found = one_off(tmp_path / "home", "serve", "--host", "127.0.0.1", "--port", "0")
    assert found.returncode == 2
    assert found.stderr.count("\n") == 1 and "no current session" in found.stderr


def test_shell_serve_updates_after_a_shell_action(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert one_off(home, "new", "liars", "Ann", "Bob", "Cy", "--name", "bar").returncode == 0
    served = start(home, "shell", "--serve", stdin=subprocess.PIPE)
    assert served.process.stdin is not None
    events = Events(served)
    try:
        assert "5x3" not in events.next()
        served.process.stdin.write("bid 5x3\n")
        served.process.stdin.flush()
        assert "5x3" in events.next()
    finally:
        events.close()
        served.process.stdin.close()
        assert served.process.wait(timeout=GUARD) == 0
        served.stop()
