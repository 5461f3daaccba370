"""Measuring commands honestly on a noisy machine.

- Every run uses private data and cache folders (never the user's), made by `Folders`.
- A cost is the CPU time (user + system) the child process used, which another job on the
  machine slows far less than the wall clock.
- A ratio comes from interleaved pairs (A, B, A, B, ...): each pair sees the same machine, and
  the ratio of each pair is kept; `report` prints the min and the median of them.
- Beside the floor (a minimal Typer app printing one Rich table) every report can show the two
  real anchors: `python -c pass` (the interpreter alone) and a minimal argparse + tomllib
  reader of the same file (the least any command reading a session could cost).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

FLOOR = """
import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer()

@app.command()
def main() -> None:
    table = Table("player", "berries")
    table.add_row("Ann", "2")
    Console().print(table)

app()
"""

READER = """
import argparse, tomllib
parser = argparse.ArgumentParser()
parser.add_argument("file")
args = parser.parse_args()
with open(args.file, "rb") as f:
    doc = tomllib.load(f)
print(doc.get("name"), len(doc.get("events", [])))
"""

REFEREE = [sys.executable, "-m", "referee"]


def cpu_seconds(argv: Sequence[str], env: dict[str, str], stdin: str | None = None) -> float:
    """CPU seconds (user + system) one child process takes, start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, input=stdin, text=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class Folders:
    """Private data and cache folders for one benchmark run, removed at the end."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        self.home = self.root / "home"
        self.cache = self.root / "cache"

    def env(self, cache: Path | None = None, **extra: str) -> dict[str, str]:
        """The environment of a command: these folders, 40 plain columns, no inherited session."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        env.update(REFEREE_HOME=str(self.home), XDG_CACHE_HOME=str(cache or self.cache),
                   COLUMNS="40", LINES="24", NO_COLOR="1", TZ="UTC")  # fmt: skip
        env.update(extra)
        return env

    def cold_cache(self) -> Path:
        """A cache folder nothing has ever been kept in (a first run ever)."""
        return Path(tempfile.mkdtemp(dir=self.root, prefix="cold-"))

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def pairs(
    first: Callable[[], float], second: Callable[[], float], runs: int
) -> tuple[list[float], list[float]]:
    """`runs` interleaved (first, second) measures; returns both lists, pair by pair."""
    a, b = [], []
    for _ in range(runs):
        a.append(first())
        b.append(second())
    return a, b


def report(name: str, measured: Sequence[float], base: Sequence[float], unit: str = "floor"
           ) -> float:  # fmt: skip
    """Print min and median of the per-pair ratios (and of the raw times); return the median."""
    ratios = [m / b for m, b in zip(measured, base, strict=True) if b > 0]
    median = statistics.median(ratios)
    print(f"{name:<40} {min(ratios):5.2f} {median:5.2f} x {unit:<6}"
          f" ({statistics.median(measured) * 1000:5.0f} ms cpu, n={len(ratios)})")  # fmt: skip
    return median


def floor_command() -> list[str]:
    """The floor: a minimal Typer app printing one small Rich table."""
    return [sys.executable, "-c", FLOOR]


def anchors(folders: Folders, session: Path, runs: int) -> None:
    """Print the two real anchors against the floor, so '1.0x floor' is read against them."""
    env = folders.env()

    def floor() -> float:
        return cpu_seconds(floor_command(), env)

    print("anchors (cpu time; min and median of per-pair ratios to the floor)")
    bare, base = pairs(lambda: cpu_seconds([sys.executable, "-c", "pass"], env), floor, runs)
    report("python -c pass", bare, base)
    reader, base = pairs(
        lambda: cpu_seconds([sys.executable, "-c", READER, str(session)], env), floor, runs
    )
    report("argparse + tomllib reader of a session", reader, base)


def compile_package() -> None:
    """Byte-compile referee as `pip install` does for a wheel: an editable checkout run with
    PYTHONDONTWRITEBYTECODE (as on this machine) would otherwise recompile on every start."""
    import compileall

    import referee

    compileall.compile_dir(Path(referee.__file__).parent, quiet=1)


def medians(
    commands: dict[str, list[str]], runs: int, env: dict[str, str] | None = None
) -> dict[str, float]:
    """Median CPU time of each command, the runs interleaved round-robin."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(cpu_seconds(argv, env or dict(os.environ)))
    return {name: statistics.median(t) for name, t in times.items()}


def wall_seconds(argv: Sequence[str], env: dict[str, str]) -> float:
    """Seconds one process takes, start to exit (for what CPU time cannot see: waiting)."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start
