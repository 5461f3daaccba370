"""Issue 38: the QR code scans as a terminal shows it, and holds an address a phone can open.

Each drawing is turned into the picture a terminal would show (its own background around it,
light or dark) and read by a real decoder (`zbarimg`, Debian's zbar-tools); the URL it reads is
then fetched from a real server on loopback. The choice of address is tested on simulated
machines (no network, an Android hotspot, IPv6 only, Windows without `if_nameindex`).
"""

from __future__ import annotations

import errno
import ipaddress
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner
from referee import lan
from referee.cli.serve import NOT_SERVING, address_lines, urls
from referee.render import qr
from referee.storage import serving
from test_serve import GUARD, Served, env_for, one_off, start

ZBAR = shutil.which("zbarimg")
needs_decoder = pytest.mark.skipif(
    ZBAR is None, reason="no QR decoder (apt-get install zbar-tools)"
)
TOKEN = "KGIIFKG3M6XM6GTMUJSIX63XQE"
ESC = re.compile(r"\x1b\[([0-9;]*)m")

# ---------------------------------------------------------------------------- a terminal's picture


def _light(code: int, params: list[int]) -> bool | None:
    """Whether an SGR colour (30-37, 90-97, 38;5;N and their backgrounds) is light."""
    if code in (7, 15) or 9 <= code <= 14:
        return True
    if 0 <= code <= 8:
        return False
    if 16 <= code <= 231:
        r, g, b = (code - 16) // 36, (code - 16) // 6 % 6, (code - 16) % 6
        return r + g + b >= 9
    return code >= 244  # the grey ramp


def cells(text: str, dark_terminal: bool) -> list[list[tuple[bool, bool]]]:
    """Each character cell as (foreground light, background light), reading SGR codes the way
    a terminal does; cells without colours of their own get the terminal's."""
    rows = []
    for line in text.split("\n"):
        fg: bool | None = None
        bg: bool | None = None
        row = []
        at = 0
        for found in ESC.finditer(line + "\x1b[m"):
            for char in line[at : found.start()]:
                row.append(
                    (
                        char,
                        dark_terminal if fg is None else fg,
                        (not dark_terminal) if bg is None else bg,
                    )
                )
            at = found.end()
            params = [int(p) for p in found[1].split(";") if p] or [0]
            i = 0
            while i < len(params):
                p = params[i]
                if p == 0:
                    fg = bg = None
                elif p in (38, 48) and params[i + 1] == 5:
                    light = _light(params[i + 2], params)
                    fg, bg = (light, bg) if p == 38 else (fg, light)
                    i += 2
                elif 30 <= p <= 37 or 90 <= p <= 97:
                    fg = _light(p - 30 if p < 90 else p - 82, params)
                elif 40 <= p <= 47 or 100 <= p <= 107:
                    bg = _light(p - 40 if p < 100 else p - 92, params)
                elif p == 39:
                    fg = None
                elif p == 49:
                    bg = None
                i += 1
        rows.append(row)
    return [[(char in "█▀", char in "█▄", f, b) for char, f, b in row] for row in rows]  # type: ignore[misc]


def picture(text: str, dark_terminal: bool, path: Path, scale: int = 6) -> Path:
    """What a terminal shows of `text` (two modules a character cell, top and bottom), with
    a margin of the terminal's background around it, as a PNG."""
    from PIL import Image

    grid = cells(text, dark_terminal)
    width = max(len(row) for row in grid) + 8
    height = 2 * len(grid) + 8
    image = Image.new("L", (width, height), 0 if dark_terminal else 255)
    for y, row in enumerate(grid):
        for x, (top, bottom, fg, bg) in enumerate(row):  # type: ignore[misc]
            image.putpixel((x + 4, 2 * y + 4), 255 if (fg if top else bg) else 0)
            image.putpixel((x + 4, 2 * y + 5), 255 if (fg if bottom else bg) else 0)
    image = image.resize((width * scale, height * scale), Image.Resampling.NEAREST)
    image.save(path)
    return path


def decode(path: Path) -> list[str]:
    """What zbarimg reads in a picture (nothing: an empty list)."""
    assert ZBAR is not None
    found = subprocess.run(
        [ZBAR, "--raw", "-q", "-Sdisable", "-Sqrcode.enable", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return found.stdout.split()


def colour_text(url: str, width: int = 40, system: str = "256") -> str:
    """The colour drawing as a terminal receives it (Rich writes the escape codes)."""
    import io

    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system=system, width=width)  # type: ignore[arg-type]
    console.print(qr.qr_text(url, width))
    return out.getvalue().rstrip("\n")


URLS = [
    pytest.param("http://192.168.1.23:8765/" + TOKEN + "/", id="lan"),
    pytest.param("http://192.168.100.200:65535/" + TOKEN + "/", id="longest-ipv4"),
    pytest.param("http://[fd12:3456:789a:1::5]:8765/" + TOKEN + "/", id="ipv6-ula"),
    pytest.param(
        "http://[2a01:4f8:1c1c:abcd:1234:5678:9abc:def0]:65535/" + TOKEN + "/", id="longest-ipv6"
    ),
]


def same_url(read: str, url: str) -> bool:
    """A decoded URL is the one drawn (an IPv6 host may come back in capitals)."""
    return read.lower() == url.lower() and read.endswith(TOKEN + "/")


@pytest.mark.parametrize("url", URLS)
def test_every_drawing_fits_a_phone(url: str) -> None:
    for lines in (
        qr.qr_lines(url, 40),
        qr.qr_lines(url, 40, dark_background=False),
        colour_text(url).split("\n"),
    ):
        shown = [ESC.sub("", line) for line in lines]
        assert max(len(line) for line in shown) <= 40 and len(shown) <= 20


@needs_decoder
@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("dark", [True, False], ids=["dark-terminal", "light-terminal"])
def test_the_colour_drawing_scans_on_either_terminal(url: str, dark: bool, tmp_path: Path) -> None:
    for system in ("256", "standard"):
        shot = picture(colour_text(url, system=system), dark, tmp_path / "code.png")
        read = decode(shot)
        assert len(read) == 1 and same_url(read[0], url), (system, read)


@needs_decoder
@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("dark", [True, False], ids=["dark-terminal", "light-terminal"])
def test_the_plain_drawing_scans_on_the_terminal_it_is_drawn_for(
    url: str, dark: bool, tmp_path: Path
) -> None:
    text = "\n".join(qr.qr_lines(url, 40, dark_background=dark))
    read = decode(picture(text, dark, tmp_path / "code.png"))
    assert len(read) == 1 and same_url(read[0], url), read


def test_the_quiet_zone_is_four_modules_where_the_screen_allows() -> None:
    url = "http://192.168.100.200:65535/" + TOKEN + "/"
    lines = qr.qr_lines(url, 40, dark_background=True)  # light modules drawn
    assert len(lines[0]) == 29 + 8  # version 3 and 4 modules each side
    assert lines[0] == lines[1] == "█" * 37  # four light rows on top
    assert all(line.startswith("████") and line.endswith("████") for line in lines)
    long = "http://[2a01:4f8:1c1c:abcd:1234:5678:9abc:def0]:65535/" + TOKEN + "/"
    assert len(qr.qr_lines(long, 80)[0]) == 33 + 8  # version 4: the full zone at 80 columns
    assert len(qr.qr_lines(long, 40)[0]) == 33 + 6  # and three modules at 40


@pytest.mark.parametrize(
    ("environ", "dark"),
    [
        pytest.param({}, True, id="no-hint-dark"),
        pytest.param({"REFEREE_QR": "light"}, False, id="said-light"),
        pytest.param({"REFEREE_QR": "DARK", "COLORFGBG": "0;15"}, True, id="said-beats-colorfgbg"),
        pytest.param({"COLORFGBG": "0;15"}, False, id="colorfgbg-white"),
        pytest.param({"COLORFGBG": "15;default;0"}, True, id="colorfgbg-black"),
        pytest.param({"COLORFGBG": "0;7"}, False, id="colorfgbg-grey-is-light"),
        pytest.param({"COLORFGBG": "junk;\x1b[31m"}, True, id="colorfgbg-junk"),
        pytest.param({"REFEREE_QR": "purple"}, True, id="unknown-hint"),
    ],
)
def test_the_background_hint(environ: dict[str, str], dark: bool) -> None:
    assert qr.is_dark_background(environ) is dark


# ---------------------------------------------------------------------------- scanned, then fetched


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, Served]]:
    home = tmp_path / "home"
    made = one_off(home, "new", "kariki", "Ann", "Bob", "--name", "friday")
    assert made.returncode == 0, made.stderr
    server = start(home, "serve", "--host", "127.0.0.1", "--port", "0")
    yield home, server
    server.stop()


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=GUARD) as answer:
        assert answer.status == 200
        return str(answer.read().decode())


@needs_decoder
@pytest.mark.parametrize("dark", [True, False], ids=["dark-terminal", "light-terminal"])
def test_the_printed_code_opens_the_page(
    served: tuple[Path, Served], dark: bool, tmp_path: Path
) -> None:
    home, server = served
    env = {**env_for(home), "REFEREE_QR": "dark" if dark else "light"}
    shown = subprocess.run(
        [sys.executable, "-m", "referee", "qr"],
        env=env,
        text=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    code = [line for line in shown.stdout.split("\n") if set(line) <= set("█▀▄ ") and line]
    read = decode(picture("\n".join(code), dark, tmp_path / "code.png"))
    assert read == [f"http://127.0.0.1:{server.port}/{server.token}/"]
    assert "Kariki: friday" in fetch(read[0])


@needs_decoder
def test_the_code_in_a_colour_terminal_opens_the_page(
    served: tuple[Path, Served], tmp_path: Path
) -> None:
    pexpect = pytest.importorskip("pexpect")
    home, server = served
    env = {**env_for(home), "TERM": "xterm-256color", "LINES": "24"}
    env.pop("NO_COLOR")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "referee", "qr"],
        env=env,
        encoding="utf-8",
        timeout=GUARD,
        dimensions=(24, 40),
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = child.before.replace("\r\n", "\n")
    assert "\x1b[" in text  # drawn in colours of its own
    for dark in (True, False):
        code = [line for line in text.split("\n") if "\x1b[" in line]  # blank rows too
        read = decode(picture("\n".join(code), dark, tmp_path / "code.png"))
        assert read == [f"http://127.0.0.1:{server.port}/{server.token}/"], dark
    assert "Kariki: friday" in fetch(read[0])


def test_qr_at_40_columns_names_this_device_only(served: tuple[Path, Served]) -> None:
    home, server = served
    shown = one_off(home, "qr")
    assert shown.returncode == 0 and shown.stderr == ""
    lines = shown.stdout.splitlines()
    assert lines[0] == "the live card, on this device only:"
    assert lines[-2:] == [f"http://127.0.0.1:{server.port}/", f"  {server.token}/"]
    assert max(len(line) for line in lines) <= 40 and len(lines) <= 23


# ---------------------------------------------------------------------------- referee qr


def test_qr_without_a_server(referee: Runner) -> None:
    found = referee("qr")
    assert (found.code, found.out, found.err) == (1, "", f"error: {NOT_SERVING}\n")


def state_root(home: Path) -> Path:
    return home.parent / "cache" / "referee"


def plant(root: Path, content: object) -> None:
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    root.chmod(0o700)
    text = content if isinstance(content, str) else json.dumps(content)
    (root / serving.NAME).write_text(text)


def gone_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def a_free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


PLANTED: list[Any] = [
    pytest.param(
        lambda: {"pid": gone_pid(), "host": "127.0.0.1", "port": 8765, "token": TOKEN},
        id="stale-pid-gone",
    ),
    pytest.param(
        lambda: {"pid": os.getpid(), "host": "127.0.0.1", "port": a_free_port(), "token": TOKEN},
        id="nothing-listening",
    ),
    pytest.param(
        lambda: {"pid": os.getpid(), "host": "203.0.113.9", "port": 80, "token": TOKEN},
        id="an-address-elsewhere",
    ),
    pytest.param(
        lambda: {"pid": os.getpid(), "host": "127.0.0.1\x1b[2J", "port": 1, "token": TOKEN},
        id="escape-in-host",
    ),
    pytest.param(
        lambda: {"pid": os.getpid(), "host": "evil.example", "port": 1, "token": TOKEN},
        id="a-name-not-an-address",
    ),
    pytest.param(
        lambda: {
            "pid": os.getpid(),
            "host": "127.0.0.1",
            "port": 1,
            "token": "<script>" + "A" * 18,
        },
        id="not-a-token",
    ),
    pytest.param(
        lambda: {"pid": True, "host": "127.0.0.1", "port": 1, "token": TOKEN}, id="bool-pid"
    ),
    pytest.param(
        lambda: {"pid": 1, "host": "127.0.0.1", "port": 10**400, "token": TOKEN}, id="huge-port"
    ),
    pytest.param(lambda: "[" * 100_000, id="deep-json"),
    pytest.param(lambda: "{" + " " * 10_000 + "}", id="too-large"),
    pytest.param(lambda: "\xff\xfe not json", id="not-json"),
]


@pytest.mark.parametrize("content", PLANTED)
def test_a_planted_or_stale_state_file_reads_as_not_serving(
    referee: Runner, home: Path, content: Any
) -> None:
    plant(state_root(home), content())
    began = time.monotonic()
    found = referee("qr")
    assert time.monotonic() - began < 5
    assert (found.code, found.out, found.err) == (1, "", f"error: {NOT_SERVING}\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("kind", ["fifo", "link", "folder"])
def test_a_state_file_that_is_no_file_never_blocks(referee: Runner, home: Path, kind: str) -> None:
    root = state_root(home)
    root.mkdir(parents=True, mode=0o700)
    where = root / serving.NAME
    if kind == "fifo":
        os.mkfifo(where)
    elif kind == "link":
        (root / "real.json").write_text(
            json.dumps({"pid": 1, "host": "", "port": 1, "token": TOKEN})
        )
        where.symlink_to(root / "real.json")
    else:
        where.mkdir()
    found = referee("qr")
    assert (found.code, found.err) == (1, f"error: {NOT_SERVING}\n")


def answering_200() -> Any:
    """A stand-in server on loopback answering every request 200 (what `qr` asks a live
    server for its token's page), in a thread; a context manager giving its port."""
    import contextlib
    import threading

    @contextlib.contextmanager
    def running() -> Iterator[int]:
        listening = socket.create_server(("127.0.0.1", 0))
        stop = threading.Event()

        def answer() -> None:
            listening.settimeout(0.1)
            while not stop.is_set():
                try:
                    peer, _ = listening.accept()
                except OSError:
                    continue
                with peer:
                    peer.settimeout(1)
                    with contextlib.suppress(OSError):
                        peer.recv(1024)
                        peer.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        try:
            yield listening.getsockname()[1]
        finally:
            stop.set()
            thread.join()
            listening.close()

    return running()


def test_qr_vouches_only_for_a_port_that_answers_the_token_as_our_server_does(
    referee: Runner, home: Path
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listening:  # something else took the port
        plant(state_root(home), {"pid": os.getpid(), "host": "127.0.0.1",
                                 "port": listening.getsockname()[1], "token": TOKEN})  # fmt: skip
        assert referee("qr").code == 1


def test_a_state_file_in_a_folder_others_may_write_is_ignored(referee: Runner, home: Path) -> None:
    with answering_200() as port:
        plant(
            state_root(home),
            {"pid": os.getpid(), "host": "127.0.0.1", "port": port, "token": TOKEN},
        )
        assert referee("qr").code == 0  # a live one, in our own folder: shown
        state_root(home).chmod(0o777)
        assert referee("qr").code == 1


def test_serve_forgets_its_state_when_stopped(served: tuple[Path, Served]) -> None:
    import signal

    home, server = served
    assert serving.read(state_root(home)) is not None
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=GUARD) == 0
    assert not list(state_root(home).glob("serving*.json"))
    assert one_off(home, "qr").returncode == 1


# ---------------------------------------------------------------------------- the shell


def test_shell_port_or_host_without_serve_is_a_usage_error(referee: Runner) -> None:
    assert referee("new", "liars", "Ann", "Bob", "--name", "bar").code == 0
    for option in (["--port", "9000"], ["--host", "127.0.0.1"]):
        found = referee("shell", *option)
        assert found.code == 2 and found.err.count("\n") == 1 and "--serve" in found.err


def test_qr_in_the_shell_draws_its_own_server_again(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    home = tmp_path / "home"
    assert one_off(home, "new", "liars", "Ann", "Bob", "--name", "bar").returncode == 0
    port = a_free_port()
    env = {**env_for(home), "LINES": "24"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "referee", "shell", "--serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        encoding="utf-8",
        timeout=GUARD,
        dimensions=(24, 40),
    )
    child.expect(rf"http://127\.0\.0\.1:{port}/\s+([A-Z2-7]{{26}})/")
    token = child.match[1]
    child.expect_exact("qr shows this again.")
    child.expect_exact("> ")
    assert one_off(home, "qr").returncode == 0  # another terminal sees it too
    child.send("bid 5x3\r")
    child.expect_exact("> ")
    child.send("qr\r")
    child.expect_exact("the live card, on this device only:")
    child.expect_exact("████")
    child.expect_exact(f"  {token}/")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert one_off(home, "qr").returncode == 1  # gone with the shell


def test_qr_in_a_shell_without_a_server(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from referee.cli.shell import Shell

    assert referee("new", "liars", "Ann", "Bob", "--name", "bar").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("qr\nqr now\n"))
    assert Shell(None).loop() == 2
    found = referee("show")  # the shell read both lines and refused the second
    assert found.code == 0


def test_a_piped_shell_qr_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert one_off(home, "new", "liars", "Ann", "Bob", "--name", "bar").returncode == 0
    env = env_for(home)
    found = subprocess.run(
        [sys.executable, "-m", "referee", "shell", "--serve", "--host", "127.0.0.1", "--port", "0"],
        input="qr\n",
        env=env,
        text=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    tokens = re.findall(r"^  ([A-Z2-7]{26})/$", found.stdout, re.M)
    assert len(tokens) == 2 and tokens[0] == tokens[1]  # at the start, and for the qr line


# ---------------------------------------------------------------------------- which address


class Machine:
    """A simulated machine: its default routes, interfaces and name, as socket sees them."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path,
        *,
        routes: dict[int, str] | None = None,
        interfaces: list[tuple[str, str]] | None = None,
        ipv6: list[tuple[str, str, int]] | None = None,
        resolved: list[str] | None = None,
        nameindex: bool = True,
        fcntl: bool = True,
        dualstack: bool = False,
    ) -> None:
        routed: dict[int, str] = routes or {}
        by_name = dict(interfaces or [])
        real_socket = socket.socket

        class Fake:
            def __init__(self, family: int = socket.AF_INET, kind: int = 0, *_: Any) -> None:
                self.family = family
                self.where: str | None = None

            def __enter__(self) -> Fake:
                return self

            def __exit__(self, *_: object) -> None:
                return None

            def connect(self, target: Any) -> None:
                if self.family not in routed:
                    raise OSError(errno.ENETUNREACH, "Network is unreachable")
                self.where = routed[self.family]

            def getsockname(self) -> tuple[str, int]:
                if self.where is None:
                    raise OSError(errno.ENOTCONN, "not connected")
                return (self.where, 40000)

            def fileno(self) -> int:
                return 99

            def close(self) -> None:
                return None

        def ioctl(fd: int, request: int, packed: bytes) -> bytes:
            name = packed[:16].rstrip(b"\0").decode()
            if name not in by_name:
                raise OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")
            return packed[:20] + socket.inet_aton(by_name[name]) + packed[24:]

        def getaddrinfo(host: str, *_: Any, **__: Any) -> list[Any]:
            if resolved is None:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            return [
                (socket.AF_INET6 if ":" in a else socket.AF_INET, 1, 6, "", (a, 0))
                for a in resolved
            ]

        monkeypatch.setattr(socket, "socket", Fake)
        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
        monkeypatch.setattr(socket, "gethostname", lambda: "table-phone")
        monkeypatch.setattr(socket, "has_dualstack_ipv6", lambda: dualstack)
        if nameindex:
            names = [*by_name, *(n for n, _, _ in ipv6 or [])]
            listed = [(i + 1, n) for i, n in enumerate(dict.fromkeys(names))]
            monkeypatch.setattr(socket, "if_nameindex", lambda: listed)
        else:
            monkeypatch.delattr(socket, "if_nameindex", raising=False)
        if fcntl:
            import fcntl as real

            monkeypatch.setattr(real, "ioctl", ioctl)
        else:
            monkeypatch.setitem(sys.modules, "fcntl", None)  # Windows: no such module
        proc = tmp_path / "if_inet6"
        if ipv6 is not None:
            hexes = [(ipaddress.IPv6Address(a).exploded.replace(":", ""), n, f) for n, a, f in ipv6]
            proc.write_text("".join(f"{h} 02 40 00 {f:02x} {n}\n" for h, n, f in hexes))
        monkeypatch.setattr(lan, "IF_INET6", proc)
        self.real_socket = real_socket

    @staticmethod
    def hosts() -> list[str]:
        return [a.host for a in lan.addresses()]


def test_no_network_at_all(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    Machine(monkeypatch, tmp_path, interfaces=[("lo", "127.0.0.1")], resolved=["127.0.1.1"])
    assert Machine.hosts() == []
    assert lan.lan_address() == "127.0.0.1"
    found, _, local = urls("0.0.0.0", 8765, TOKEN)
    assert found == [f"http://127.0.0.1:8765/{TOKEN}/"] and local


def test_every_way_failing_never_raises(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    Machine(monkeypatch, tmp_path, nameindex=False, fcntl=False)
    monkeypatch.setattr(socket, "gethostname", lambda: (_ for _ in ()).throw(OSError("denied")))
    assert Machine.hosts() == [] and lan.lan_address() == "127.0.0.1"


def test_an_android_phone_that_is_the_hotspot(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Mobile data carries the default route; the table is on the phone's own hotspot.
    Machine(
        monkeypatch,
        tmp_path,
        routes={socket.AF_INET: "10.121.4.77"},
        interfaces=[("lo", "127.0.0.1"), ("rmnet_data0", "10.121.4.77"), ("ap0", "192.168.157.1")],
        ipv6=[("rmnet_data0", "2a02:3030:1:2::77", 0), ("ap0", "fe80::1", 0)],
    )
    assert Machine.hosts() == ["192.168.157.1", "10.121.4.77", "[2a02:3030:1:2::77]"]
    assert lan.lan_address() == "192.168.157.1"
    found, _, _ = urls("0.0.0.0", 8765, TOKEN)
    assert found[0] == f"http://192.168.157.1:8765/{TOKEN}/"


@pytest.mark.parametrize(
    ("name", "address"),
    [
        pytest.param("swlan0", "192.168.43.1", id="swlan0"),
        pytest.param("wlan1", "192.168.201.1", id="second-wlan-as-router"),
        pytest.param("softap0", "10.0.0.1", id="softap0"),
    ],
)
def test_other_hotspot_interfaces(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, address: str
) -> None:
    Machine(
        monkeypatch,
        tmp_path,
        routes={socket.AF_INET: "100.72.1.9"},
        interfaces=[("ccmni0", "100.72.1.9"), (name, address)],
    )
    assert Machine.hosts()[0] == address and lan.lan_address() == address


def test_a_laptop_on_wifi_with_a_vpn_and_docker(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    Machine(
        monkeypatch,
        tmp_path,
        routes={socket.AF_INET: "10.8.0.2"},
        interfaces=[
            ("lo", "127.0.0.1"),
            ("tun0", "10.8.0.2"),
            ("docker0", "172.17.0.1"),
            ("wlp2s0", "192.168.1.23"),
        ],
    )
    assert Machine.hosts() == ["192.168.1.23", "10.8.0.2", "172.17.0.1"]
    assert lan.lan_address() == "192.168.1.23"
    lines = address_lines("192.168.1.23", 8765, TOKEN, 40)
    assert lines[:2] == ["http://192.168.1.23:8765/", f"  {TOKEN}/"]
    assert "(--host): 10.8.0.2, 172.17.0.1" in " ".join(" ".join(lines).split())
    assert max(len(line) for line in lines) <= 40


def test_ipv6_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    Machine(
        monkeypatch,
        tmp_path,
        routes={socket.AF_INET6: "2a01:4f8:1:2::5"},
        interfaces=[("lo", "127.0.0.1")],
        ipv6=[
            ("lo", "::1", 0),
            ("wlan0", "fe80::5", 0),
            ("wlan0", "2a01:4f8:1:2::5", 0),
            ("wlan0", "fd12:3456:789a:1::5", 0),
            ("wlan0", "2a01:4f8:1:2::dead", 0x20),
        ],
    )
    assert Machine.hosts() == ["[2a01:4f8:1:2::5]", "[fd12:3456:789a:1::5]"]  # no link-local
    assert lan.lan_address() == "fd12:3456:789a:1::5"  # the private one, by default
    found, _, local = urls("::", 8765, TOKEN)
    assert (
        found
        == [
            f"http://[2a01:4f8:1:2::5]:8765/{TOKEN}/",
            f"http://[fd12:3456:789a:1::5]:8765/{TOKEN}/",
        ]
        and not local
    )
    assert urls("0.0.0.0", 8765, TOKEN)[2]  # IPv4 everywhere: nothing but this device
    lines = address_lines("::", 8765, TOKEN, 40)
    assert lines[:2] == ["http://[2a01:4f8:1:2::5]:8765/", f"  {TOKEN}/"]
    assert lines[2:] == ["same page at: http://[fd12:3456:789a:1::5]:8765/"] or all(
        len(line) <= 40 for line in lines
    )


def test_every_address_of_both_families_on_a_dual_stack_machine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by a play-test: `--host ::` listened on IPv6 alone, and the QR code offered no
    IPv4 address though most phones reach the table by one."""
    Machine(monkeypatch, tmp_path, routes={socket.AF_INET: "192.168.1.23"},
            interfaces=[("lo", "127.0.0.1"), ("wlan0", "192.168.1.23")],
            ipv6=[("wlan0", "fd12:3456:789a:1::5", 0)], dualstack=True)  # fmt: skip
    found, _, local = urls("::", 8765, TOKEN)
    assert f"http://192.168.1.23:8765/{TOKEN}/" in found and not local


def test_windows_like_without_if_nameindex(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    Machine(
        monkeypatch,
        tmp_path,
        routes={socket.AF_INET: "192.168.0.17"},
        nameindex=False,
        fcntl=False,
        resolved=["169.254.3.3", "192.168.56.1", "192.168.0.17", "fe80::9"],
    )
    assert Machine.hosts() == ["192.168.0.17", "192.168.56.1"]
    assert lan.lan_address() == "192.168.0.17"


def test_a_slow_resolver_costs_a_second_at_most(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    Machine(monkeypatch, tmp_path, routes={socket.AF_INET: "192.168.0.17"})

    def slow(*_: Any, **__: Any) -> list[Any]:
        time.sleep(5)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", slow)
    began = time.monotonic()
    assert Machine.hosts() == ["192.168.0.17"]
    assert time.monotonic() - began < lan.HOSTNAME_WAIT + 1


@pytest.mark.parametrize(
    ("bound", "first", "local"),
    [
        pytest.param("127.0.0.1", "http://127.0.0.1:8765/", True, id="loopback"),
        pytest.param("::1", "http://[::1]:8765/", True, id="ipv6-loopback"),
        pytest.param("0.0.0.0", "http://192.168.1.23:8765/", False, id="wildcard-v4"),
        pytest.param("", "http://192.168.1.23:8765/", False, id="every-address"),
        pytest.param("10.8.0.2", "http://10.8.0.2:8765/", False, id="named-by-host"),
        pytest.param("fe80::5%wlan0", "http://[fe80::5%25wlan0]:8765/", False, id="link-local"),
    ],
)
def test_the_address_shown_for_each_host(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bound: str, first: str, local: bool
) -> None:
    Machine(
        monkeypatch,
        tmp_path,
        routes={socket.AF_INET: "192.168.1.23"},
        interfaces=[("wlan0", "192.168.1.23"), ("tun0", "10.8.0.2")],
    )
    found, _, is_local = urls(bound, 8765, TOKEN)
    assert found[0] == first + TOKEN + "/" and is_local is local
    assert all("0.0.0.0" not in u and "[::]" not in u for u in found)


def test_two_servers_at_once_and_one_stopping_lose_neither(referee: Runner, home: Path) -> None:
    """Found by a play-test: each server overwrote the one state file and the one that stopped
    removed it, so `qr` said "not serving" with another still running."""
    root = state_root(home)
    plant(root, "{}")  # the folder, private; an old single file that reads as nothing
    with answering_200() as first, answering_200() as second:
        older = serving.Serving(os.getppid(), "127.0.0.1", first, TOKEN)
        newer = serving.Serving(os.getpid(), "127.0.0.1", second, TOKEN)
        serving.record(root, older)
        time.sleep(0.02)  # the newer file is newer
        serving.record(root, newer)
        assert serving.running(root) == newer
        serving.forget(root, newer)  # the newer one stops
        assert serving.running(root) == older
        assert f":{first}/" in referee("qr").out.replace("\n", "")


@pytest.mark.parametrize("command", [["serve"], ["shell", "--serve"]])
def test_a_port_taken_is_one_line_that_says_what_to_do(
    referee: Runner, home: Path, command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    assert referee("new", "mia", "Ann", "Bob", "--name", "friday").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        result = referee(*command, "--host", "127.0.0.1", "--port", port)
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert f"port {port} is taken on 127.0.0.1: pick another --port" in result.err
