"""One action inside `referee shell` versus the same action as a new process (1,000 events).

Run: python bench/bench_shell.py [runs]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_show import build

from common import compile_package

LINES = 60  # actions typed into one shell


def shell_seconds(path: Path, lines: int, env: dict[str, str]) -> float:
    script = "".join("claim 9\n" if i % 2 == 0 else "pull 4-5\n" for i in range(lines))
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "referee", "shell", "-s", str(path)],
        input=script, text=True, env=env, stdout=subprocess.DEVNULL, check=True,
    )  # fmt: skip
    return time.perf_counter() - start


def process_seconds(path: Path, action: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "referee", "kariki", *action, "-s", str(path)],
        env=env, stdout=subprocess.DEVNULL, check=True,
    )  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    compile_package()
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.toml"
        build(path, 1000)
        env = {**os.environ, "REFEREE_HOME": folder, "COLUMNS": "40"}
        process, inside = [], []
        for _ in range(runs):
            process.append(process_seconds(path, ["claim", "9"], env))
            process.append(process_seconds(path, ["pull", "4-5"], env))
            empty = shell_seconds(path, 0, env)
            full = shell_seconds(path, LINES, env)
            inside.append((full - empty) / LINES)
    one_process, one_inside = statistics.median(process), statistics.median(inside)
    print(f"an action as a new process: {one_process * 1000:.0f} ms (median)")
    print(f"an action inside the shell: {one_inside * 1000:.1f} ms (median of {runs} shells)")
    print(f"ratio: {one_inside / one_process:.3f}x")


if __name__ == "__main__":
    main()
