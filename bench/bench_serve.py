"""`referee serve` at a table: how fast a save reaches the phones, what 30 phones cost the
scorekeeper's shell, and whether 200 stalled clients keep the 201st from the page.

    python bench/bench_serve.py [ROUNDS]

Everything runs in private data and cache folders on loopback. Each measure is printed as
min and median of its runs; the shell's cost is a ratio of interleaved pairs (with, without).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

GUARD = 30.0


def env_for(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(REFEREE_HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), COLUMNS="40",
               NO_COLOR="1", PYTHONUNBUFFERED="1")  # fmt: skip
    env.pop("REFEREE_SESSION", None)
    return env


def referee(home: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "referee", *args], env=env_for(home), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip


def start(home: Path, *args: str, stdin: int | None = None) -> tuple[subprocess.Popen[str], str,
                                                                        int, str]:  # fmt: skip
    """A server process and the host, port and token it printed."""
    process = subprocess.Popen([sys.executable, "-m", "referee", *args], env=env_for(home),
                               stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)  # fmt: skip
    assert process.stdout is not None
    text = ""
    while not (found := re.search(r"http://([\d.]+):(\d+)/\s*([A-Z2-7]{26})/", text)):
        line = process.stdout.readline()
        if not line:
            raise SystemExit("the server did not start")
        text += line
    threading.Thread(target=process.stdout.read, daemon=True).start()  # drain the QR code
    return process, found[1], int(found[2]), found[3]


class Stream:
    """An event stream; `wait()` returns when the next card event arrives."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.sock = socket.create_connection((host, port), timeout=GUARD)
        self.sock.sendall(f"GET /{token}/events HTTP/1.1\r\nHost: b\r\n\r\n".encode())
        self.buffer = b""
        self.wait()  # the card as it is now

    def wait(self) -> None:
        while True:
            while b"\n\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise SystemExit("stream closed")
                self.buffer += chunk
            block, _, self.buffer = self.buffer.partition(b"\n\n")
            if b"event: card" in block:
                return


def save_to_event(home: Path, rounds: int) -> list[float]:
    """Seconds from a save (the session file replaced, by its time stamp) to the event."""
    process, host, port, token = start(home, "serve", "--host", "127.0.0.1", "--port", "0")
    stream = Stream(host, port, token)
    found = []
    from referee.cli import run  # the save happens here: the clock stops when it returned

    os.environ.update(env_for(home))
    for i in range(rounds):
        with contextlib.redirect_stdout(io.StringIO()):
            run(["kariki", "claim", "9"] if i % 2 == 0 else ["undo"])
        stream.wait()
        arrived = time.time()
        saved = (home / "sessions" / "bench.toml").stat().st_mtime
        found.append(arrived - saved)
        time.sleep(0.3)  # a table's pace: saves seconds apart, never a burst
    process.terminate()
    process.wait()
    return found


def shell_run(home: Path, lines: list[str], serve: bool, phones: int) -> float:
    """Seconds a shell takes over `lines`, timed from its first card (its start is not an
    action), with its server and `phones` streams when `serve`."""
    import queue

    args = ["shell", "--serve"] if serve else ["shell"]
    process = subprocess.Popen([sys.executable, "-m", "referee", *args], env=env_for(home),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [out.put(x) for x in process.stdout], daemon=True).start()
    text = ""
    process.stdin.write("show\n")
    process.stdin.flush()
    while "KARIKI" not in text:
        text += out.get(timeout=GUARD)
    streams = []
    if serve:
        found = re.search(r"http://([\d.]+):(\d+)/\s*([A-Z2-7]{26})/", text)
        assert found, text
        streams = [Stream(found[1], int(found[2]), found[3]) for _ in range(phones)]
        for stream in streams:
            threading.Thread(target=_drain, args=(stream,), daemon=True).start()
    began = time.perf_counter()
    process.stdin.write("".join(f"{line}\n" for line in lines))
    process.stdin.close()
    process.wait()
    return time.perf_counter() - began


def _drain(stream: Stream) -> None:
    try:
        while True:
            stream.wait()
    except (OSError, SystemExit):
        pass


def stalled_then_page(home: Path, stalled: int) -> float:
    """Seconds the next client takes to get the page while `stalled` clients send nothing."""
    process, host, port, token = start(home, "serve", "--host", "127.0.0.1", "--port", "0")
    idle = [socket.create_connection((host, port), timeout=GUARD) for _ in range(stalled)]
    began = time.perf_counter()
    with socket.create_connection((host, port), timeout=GUARD) as sock:
        sock.sendall(f"GET /{token}/ HTTP/1.1\r\nHost: b\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    took = time.perf_counter() - began
    assert data.startswith(b"HTTP/1.1 200"), data[:40]
    for sock in idle:
        sock.close()
    process.terminate()
    process.wait()
    return took


def line(name: str, values: list[float], unit: str = "s") -> None:
    print(f"{name:<44} min {min(values):.3f}{unit}  median {statistics.median(values):.3f}{unit}"
          f"  max {max(values):.3f}{unit}  (n={len(values)})")  # fmt: skip


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        referee(home, "new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "bench")
        latency = save_to_event(home, rounds * 4)
        line("save -> update event (warm server)", latency)

        actions = ["claim 9", "pass", "pull 4-5", "undo", "undo", "undo"] * 4
        referee(home, "new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "shell")
        ratios = []
        with_server: list[float] = []
        without: list[float] = []
        for _ in range(rounds):  # interleaved pairs: the machine's noise hits both alike
            without.append(shell_run(home, actions, serve=False, phones=0))
            with_server.append(shell_run(home, actions, serve=True, phones=30))
            ratios.append(with_server[-1] / without[-1])
        line(f"shell, {len(actions)} actions, no server", without)
        line(f"shell --serve, {len(actions)} actions, 30 phones", with_server)
        line("  ratio (with / without), per pair", ratios, "x")

        alone = [stalled_then_page(home, 0) for _ in range(rounds)]
        crowded = [stalled_then_page(home, 200) for _ in range(rounds)]
        line("page, no other client", alone)
        line("page, 200 stalled clients", crowded)


if __name__ == "__main__":
    main()
