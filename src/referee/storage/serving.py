"""Which live card this machine serves: a small file `serve` keeps while it runs, so `referee
qr` in another terminal can show its address again.

It lives in the private cache folder, not the data folder: it is about this machine's
processes, and a data folder synced from a phone must never tell a laptop what it serves. It
is read as untrusted: only a small regular file of ours (never through a link or a pipe), only
the fields expected, each checked (a port number, an address, a token of the server's own
alphabet); anything else, or a server that is gone (its process, or nothing listening where it
says), reads as "not serving". Asking costs at most a moment.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path

from referee.errors import RefereeError
from referee.storage.atomic import atomic_write
from referee.storage.files import read_bytes

NAME = "serving.json"
MAX_BYTES = 4096
TOKEN = re.compile(r"[A-Z2-7]{26}")
PROBE_WAIT = 0.5  # seconds to reach the server's port


@dataclass(frozen=True, slots=True)
class Serving:
    """A running server: its process, the address it listens on, its port and token."""

    pid: int
    host: str
    port: int
    token: str

    def __post_init__(self) -> None:
        if not 0 < self.pid < 1 << 31 or not 0 < self.port < 65536:
            raise ValueError("pid or port out of range")
        if not TOKEN.fullmatch(self.token):
            raise ValueError("not a token")
        if self.host:  # empty: every address
            ipaddress.ip_address(self.host.split("%", 1)[0])  # a literal address, nothing else
            if len(self.host) > 64 or not self.host.isprintable():
                raise ValueError("not an address")


OWN = "serving-{pid}.json"  # one file a server: two at once, and one stopping, lose neither
KEPT = 8  # files looked at, newest first: a folder full of stale ones costs a moment at most


def path_in(root: Path, pid: int | None = None) -> Path:
    """Where the server `pid` keeps its file in the cache folder `root` (None: the one file
    older versions kept, still read)."""
    return root / (NAME if pid is None else OWN.format(pid=pid))


def _files(root: Path) -> list[Path]:
    """The state files in `root`, newest first (at most `KEPT`)."""
    found = []
    with contextlib.suppress(OSError):
        for path in [path_in(root), *root.glob("serving-*.json")]:
            with contextlib.suppress(OSError):
                found.append((os.lstat(path).st_mtime, path.name, path))
    return [path for _, _, path in sorted(found, reverse=True)[:KEPT]]


def record(root: Path, serving: Serving) -> None:
    """Say this process serves (best effort: a cache that cannot be written costs only
    `referee qr`)."""
    from referee.storage.home import private_folder

    document = {"pid": serving.pid, "host": serving.host, "port": serving.port,
                "token": serving.token}  # fmt: skip
    with contextlib.suppress(OSError, RefereeError):
        private_folder(root)
        atomic_write(path_in(root, serving.pid), json.dumps(document) + "\n", durable=False)


def forget(root: Path, serving: Serving) -> None:
    """Remove the file if it still says what this process recorded (another server may have
    started since and written its own)."""
    if read_one(root, path_in(root, serving.pid)) == serving:
        with contextlib.suppress(OSError):
            path_in(root, serving.pid).unlink()


def read(root: Path) -> Serving | None:
    """The newest state file's record that reads as one (not asking if it still runs)."""
    return next(iter(every(root)), None)


def every(root: Path) -> list[Serving]:
    """Every state file's record that reads as one, newest first."""
    found = (read_one(root, path) for path in _files(root))
    return [s for s in found if s is not None]


def read_one(root: Path, path: Path) -> Serving | None:
    """What one file says, checked field by field; None for a missing or odd one."""
    from referee.places import is_private_folder

    if not is_private_folder(str(root)):
        return None  # a folder others can write to may hold anything
    try:
        raw = read_bytes(path, "state file", follow=False)
        if len(raw) > MAX_BYTES:
            return None
        found = json.loads(raw.decode("utf-8"))
        if not isinstance(found, dict) or set(found) != {"pid", "host", "port", "token"}:
            return None
        fields = [found["pid"], found["port"]]
        if not all(type(n) is int for n in fields) or not all(
            type(found[key]) is str for key in ("host", "token")
        ):
            return None
        return Serving(found["pid"], found["host"], found["port"], found["token"])
    except (RefereeError, ValueError, UnicodeError, RecursionError):
        return None


def running(root: Path) -> Serving | None:
    """The newest server a file names that still runs: its process lives and its port answers
    its token's page."""
    return next((s for s in every(root) if is_alive(s.pid) and answers(s)), None)


def is_alive(pid: int) -> bool:
    """Whether process `pid` exists (on Windows, where signal 0 would end it, the port's
    answer alone tells)."""
    if os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, as another user's: the port tells if it is ours
    return True


def answers(serving: Serving) -> bool:
    """Whether the server answers its page at its port on an address of this machine (never
    an address elsewhere: a planted file must not make `qr` reach out): a `HEAD` of the
    token's page must come back 200, so a port taken by anything else (or by another server
    since) is not vouched for."""
    host = serving.host.split("%", 1)[0]
    ip = ipaddress.ip_address(host) if host else None
    if ip is None or ip.is_unspecified:
        ip = ipaddress.ip_address("::1" if ip is not None and ip.version == 6 else "127.0.0.1")
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    target = serving.host if ip.version == 6 and "%" in serving.host else str(ip)
    try:
        with socket.socket(family, socket.SOCK_STREAM) as own:
            own.bind((target, 0))  # only an address of this machine can be bound
        with socket.create_connection((target, serving.port), timeout=PROBE_WAIT) as peer:
            peer.sendall(f"HEAD /{serving.token}/ HTTP/1.1\r\nHost: referee\r\n"
                         "Connection: close\r\n\r\n".encode("ascii"))  # fmt: skip
            status = peer.recv(16)
    except (OSError, ValueError):
        return False
    return status.startswith((b"HTTP/1.1 200", b"HTTP/1.0 200"))
