"""`referee shell` opening a session (and quitting at once), for every game, against the floor.

    python bench/bench_shell_open.py [RUNS] [EVENTS]     e.g.  python bench/bench_shell_open.py 5

The measure `bench_commands.py` prints last for its largest size (issue 25: at 10,000 events,
at most 2.0 floors), alone: it builds one session per game (default 10,000 events), keeps its
replay with one `show` (as the command before a shell leaves it), then opens `referee shell -s
FILE` with `quit` on its stdin, interleaved with the floor. Each line prints the min and median
of the per-pair ratios and the median CPU time.
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import REFEREE, Folders, compile_package, cpu_seconds, floor_command, pairs, report
from sessions import build, games_benchmarked


def shell_opening(folders: Folders, game: str, path: Path, runs: int, events: int) -> float:
    """Report `referee shell -s PATH` opening (its replay kept) and quitting; returns the
    median ratio to the floor."""
    env = folders.env()
    cpu_seconds([*REFEREE, "show", "-s", str(path)], env)  # keep the replay

    def floor() -> float:
        return cpu_seconds(floor_command(), env)

    def opened() -> float:
        return cpu_seconds([*REFEREE, "shell", "-s", str(path)], env, "quit\n")

    return report(f"shell opening {game}, {events} events", *pairs(opened, floor, runs))


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    events = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    compile_package()
    folders = Folders()
    try:
        files = folders.root / "sessions"
        files.mkdir()
        for game in games_benchmarked():
            path = files / f"{game}-{events}.toml"
            build(game, path, events)
            shell_opening(folders, game, path, runs, events)
    finally:
        folders.close()


if __name__ == "__main__":
    main()
