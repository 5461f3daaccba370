"""`referee serve` at a table: how fast a save reaches the phones, what 30 phones cost the
scorekeeper's shell, whether 200 stalled clients keep the 201st from the page, and what a
neighbour's flood costs the shell (issue 38).

    python bench/bench_serve.py [ROUNDS] [--flood-only]

Everything runs in private data and cache folders on loopback. Each measure is printed as
min and median of its runs; the shell's cost is a ratio of interleaved pairs (with, without).

The floods run against `referee shell --serve` started with a soft limit of 256 open files
(a Mac's default): 400 idle connections held and renewed (past the limit), and 60 event
streams that never read, renewed as the server closes them, for as long as the shell's actions
take (bounded: 400 + 60 sockets, a few seconds). The baseline beside each is the same shell,
served, with no flood. The shell must print no traceback and no "Too many open files".
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
from typing import NamedTuple

GUARD = 30.0


def env_for(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(REFEREE_HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), COLUMNS="40",
               NO_COLOR="1", PYTHONUNBUFFERED="1")  # fmt: skip
    # Every phone and every flood here comes from 127.0.0.1, which stands for a whole Wi-Fi's
    # addresses: no cap per address (one neighbour alone is held to 16 connections).
    env["REFEREE_SERVE_LIMITS"] = "max_per_address=100000"
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


FILES = 256  # the soft limit of open files the flooded shell runs under (a Mac's default)
BOUND = 0.25  # seconds: every action in a flooded shell stays under this
PACE = 0.2  # seconds between two actions: the flood runs its course (5 s timeouts) meanwhile


def _files(soft: int) -> None:
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, hard), hard))


class Flood:
    """A neighbour's flood of one served shell: idle connections past the file limit and
    event streams that never read, each renewed as the server closes it, until `stop`."""

    def __init__(self, host: str, port: int, token: str, idle: int = 400, deaf: int = 60):
        self.where, self.token, self.idle, self.deaf = (host, port), token, idle, deaf
        self.done = threading.Event()
        self.opened = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _open(self, deaf: bool) -> socket.socket | None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(0.5)
        try:
            sock.connect(self.where)
            if deaf:
                sock.sendall(f"GET /{self.token}/events HTTP/1.1\r\nHost: b\r\n\r\n".encode())
        except OSError:
            sock.close()
            return None
        sock.setblocking(False)
        self.opened += 1
        return sock

    def _run(self) -> None:
        held: list[tuple[socket.socket, bool]] = []
        while not self.done.is_set():
            alive = []
            for sock, deaf in held:  # a socket the server closed is renewed
                try:
                    gone = sock.recv(1, socket.MSG_PEEK) == b""
                except BlockingIOError:
                    gone = False
                except OSError:
                    gone = True
                if gone:
                    sock.close()
                else:
                    alive.append((sock, deaf))
            held = alive
            deaf_held = sum(1 for _, deaf in held if deaf)
            wanted = {True: self.deaf - deaf_held, False: self.idle - (len(held) - deaf_held)}
            for deaf, want in wanted.items():
                for _ in range(max(0, want)):
                    if self.done.is_set():
                        break
                    sock = self._open(deaf)
                    if sock is not None:
                        held.append((sock, deaf))
            self.done.wait(0.05)
        for sock, _ in held:
            sock.close()

    def stop(self) -> None:
        self.done.set()
        self.thread.join(GUARD)


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))  # noqa: PTH208 -- a count


def rss_mib(pid: int) -> float:
    found = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    return int(found[1]) / 1024 if found else 0.0


class Shelled(NamedTuple):
    seconds: list[float]  # each action
    peak_files: int
    peak_rss: float
    stderr: str
    opened: int


def flooded_shell(home: Path, lines: list[str], flood: bool) -> Shelled:
    """A served shell under a soft limit of `FILES` open files, over `lines`, with the flood
    running while they do (or none: the baseline)."""
    import queue

    process = subprocess.Popen([sys.executable, "-m", "referee", "shell", "--serve"],
                               env=env_for(home), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: _files(FILES))  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [out.put(x) for x in process.stdout], daemon=True).start()
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True).start()
    text = ""
    while not (found := re.search(r"http://([\d.]+):(\d+)/\s*([A-Z2-7]{26})/", text)):
        text += out.get(timeout=GUARD)
    process.stdin.write("show\n")
    process.stdin.flush()
    while "KARIKI" not in text:
        text += out.get(timeout=GUARD)
    flooding = Flood(found[1], int(found[2]), found[3]) if flood else None
    peak = [0, 0.0]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            with contextlib.suppress(OSError):
                peak[0] = max(peak[0], open_files(process.pid))
                peak[1] = max(peak[1], rss_mib(process.pid))
            sampling.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    time.sleep(1.0)  # the flood at its height before the first action
    seen, shown, took = "", 0, []
    for action in lines:  # at a table's pace: each action, then a pause
        began = time.perf_counter()
        process.stdin.write(f"{action}\nshow\n")
        process.stdin.flush()
        shown += 2 if action == "show" else 1  # the prompt echoes the `show` once it reads
        while seen.count("> show\n") < shown:  # it, after the action before is done
            seen += out.get(timeout=GUARD)
        took.append(time.perf_counter() - began)
        time.sleep(PACE)
    opened = 0
    if flooding is not None:
        flooding.stop()
        opened = flooding.opened
    sampling.set()
    sampler.join()
    process.stdin.close()
    process.wait(GUARD)
    return Shelled(took, int(peak[0]), float(peak[1]), "".join(errors) + seen, opened)


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
    if unit == "s" and max(values) < 0.1:  # an action in the shell: milliseconds
        values, unit = [v * 1000 for v in values], "ms"
    print(f"{name:<44} min {min(values):.3f}{unit}  median {statistics.median(values):.3f}{unit}"
          f"  max {max(values):.3f}{unit}  (n={len(values)})")  # fmt: skip


def floods(home: Path, rounds: int) -> None:
    """The shell's actions with and without a flood, in interleaved pairs."""
    actions = ["claim 9", "pull 4-5", "undo", "redo", "slash bob drop", "show", "undo",
               "undo"] * 3  # fmt: skip
    referee(home, "new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "flood")
    calm: list[Shelled] = []
    flooded: list[Shelled] = []
    for _ in range(rounds):
        calm.append(flooded_shell(home, actions, flood=False))
        flooded.append(flooded_shell(home, actions, flood=True))

    def median(runs: list[Shelled]) -> list[float]:
        return [statistics.median(r.seconds) for r in runs]

    line(f"shell --serve, {len(actions)} actions, no flood", median(calm))
    line(f"shell --serve, {len(actions)} actions, flooded", median(flooded))
    line("  ratio of medians (flooded / calm), per pair",
         [f / c for f, c in zip(median(flooded), median(calm), strict=True)], "x")  # fmt: skip
    slowest = [max(r.seconds) for r in flooded]
    line("  flooded, slowest action of each run", slowest)
    verdict = "under" if max(slowest) < BOUND else "OVER"
    print(f"  every flooded action {verdict} the bound of {BOUND:.2f}s")
    print(f"  open files, peak: calm {max(r.peak_files for r in calm)}, flooded "
          f"{max(r.peak_files for r in flooded)} (soft limit {FILES})")  # fmt: skip
    print(f"  memory (RSS), peak: calm {max(r.peak_rss for r in calm):.0f} MiB, flooded "
          f"{max(r.peak_rss for r in flooded):.0f} MiB")  # fmt: skip
    print(f"  flood sockets opened per run: median "
          f"{statistics.median(r.opened for r in flooded):.0f}")  # fmt: skip
    said = "".join(r.stderr for r in flooded)
    print(f"  tracebacks: {said.count('Traceback')}, shell errors: {said.count('error:')}, "
          f"'Too many open files': "
          f"{said.count('Too many open files')}, terminal lines from the server: "
          f"{said.count('live page:')}")  # fmt: skip


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(args[0]) if args else 5
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        if "--flood-only" in sys.argv:
            floods(home, rounds)
            return
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

        floods(home, rounds)


if __name__ == "__main__":
    main()
