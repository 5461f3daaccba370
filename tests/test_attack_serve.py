"""What an attack on the live server found (issue 38): streams that sit there never lock a
phone out of the page, `referee qr` vouches only for our own server, and a session that was a
link and is gone is said to be gone."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from test_serve_flood import Running, running, until

__all__ = ["running"]  # the flood tests' fixture: a server on a thread, stopped after


def test_streams_alone_never_lock_new_phones_out_of_the_page(
    running: Callable[..., Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a low descriptor limit (ulimit -n 256: ceiling 192, but max_streams 256), event
    streams that just sit there filled the ceiling; a new phone then got no answer at all
    (not the page, not a 503 with Retry-After) for as long as they stayed."""
    served = running(max_per_address=10_000, max_clients=10_000)
    server = served.server
    monkeypatch.setattr("referee.server.open_files", lambda: 10 + len(server.clients))
    server.ceiling = 50  # as 256 is to 192: max_streams (256) is above the ceiling
    streams = []
    for _ in range(45):
        sock = served.connect()
        sock.sendall(f"GET /{'T' * 26}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        streams.append(sock)
    until(lambda: server.streams >= 25)  # half the ceiling: the rest get a 503
    assert server.streams == 25
    try:
        with socket.create_connection((served.host, served.port), timeout=3) as phone:
            phone.sendall(f"GET /{'T' * 26}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            first = phone.recv(64)
        assert first.startswith((b"HTTP/1.1 200", b"HTTP/1.1 503")), first
    finally:
        for sock in streams:
            sock.close()


def test_qr_does_not_vouch_for_a_port_that_is_not_our_server(tmp_path: Path) -> None:
    """A stale serving.json (serve killed -9, its pid and port reused by other programs)
    makes `referee qr` exit 0 and show a QR code for whatever listens there."""
    other = socket.create_server(("127.0.0.1", 0))
    port = other.getsockname()[1]
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        cache = tmp_path / "cache"
        root = cache / "referee"
        root.mkdir(parents=True, mode=0o700)
        cache.chmod(0o700)
        (root / "serving.json").write_text(
            json.dumps({"pid": sleeper.pid, "host": "127.0.0.1", "port": port, "token": "A" * 26})
        )
        env = {
            "REFEREE_HOME": str(tmp_path / "home"),
            "XDG_CACHE_HOME": str(cache),
            "PATH": "/usr/bin:/bin",
            "NO_COLOR": "1",
        }
        done = subprocess.run(
            [sys.executable, "-m", "referee", "qr"],
            env=env,
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert done.returncode == 1, done.stdout[-200:]
    finally:
        sleeper.kill()
        sleeper.wait()
        other.close()


def test_a_removed_link_shows_the_deleted_notice_not_the_session_it_pointed_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`serve -s a` while sessions/a.toml is a link to b.toml shows b; once the link is
    removed the page keeps showing b for good (it falls back to the link's target's name)."""
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    run = [sys.executable, "-m", "referee"]
    subprocess.run([*run, "new", "mia", "ann", "bob", "--name", "b"], check=True,
                   capture_output=True, timeout=30)  # fmt: skip
    sessions = tmp_path / "home" / "sessions"
    (sessions / "a.toml").symlink_to(sessions / "b.toml")
    from referee.cli.serve import SessionSource

    source = SessionSource("a", tell=lambda line: None)
    assert "Mia" in source.render(1).fragment
    (sessions / "a.toml").unlink()
    shown = source.render(2).fragment
    assert "deleted or renamed" in shown, shown[:200]
