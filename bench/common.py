"""Timing helpers: medians of interleaved runs, so a noisy machine hits every command alike."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

BASELINE = """
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


def timed(argv: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Seconds one process takes, start to exit."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def medians(
    commands: dict[str, list[str]], runs: int, env: dict[str, str] | None = None
) -> dict[str, float]:
    """Median wall time of each command, the runs interleaved round-robin."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(timed(argv, env))
    return {name: statistics.median(t) for name, t in times.items()}


def compile_package() -> None:
    """Byte-compile referee as `pip install` does for a wheel: an editable checkout run with
    PYTHONDONTWRITEBYTECODE (as on this machine) would otherwise recompile on every start."""
    import compileall
    from pathlib import Path

    import referee

    compileall.compile_dir(Path(referee.__file__).parent, quiet=1)


def baseline_command() -> list[str]:
    """The floor: a minimal Typer app printing one small Rich table."""
    return [sys.executable, "-c", BASELINE]
