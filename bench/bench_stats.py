"""`referee stats` and `referee export --all` over many sessions, as ratios to one `show`.

    python bench/bench_stats.py [RUNS] [SESSIONS]      e.g.  python bench/bench_stats.py 3 5000

"One show" is `referee show` of one session with its replay kept but no kept answer (the
ordinary path, which is what the issue's table measured a show as); the ratio to a `show`
answered by the front door and to the floor are printed too. Measures, each from interleaved
pairs with that show (CPU time of the child and all it waited for, pool workers included):

- stats after a reinstall of the same code: the code's note is dropped before each run (a new
  install has a new stat signature), so the code's content is read again and every kept summary
  is served; and stats warm (nothing changed since the last run);
- stats cold: a cache folder nothing was ever kept in (the first run ever; wall time printed
  too, since the cores share the replays);
- export --all to SQLite, warm (every session's rows kept) and cold, with the peak memory of the
  child (`ru_maxrss`) at a fifth of the sessions and at all of them: flat means the same.

The sessions are copies of the bundled examples and of a few built sessions of every game, each
copy under its own name and start time (so no two files have the same bytes or identity: the
export's session count is printed to show it). Private folders throughout.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import (
    REFEREE,
    Folders,
    compile_package,
    cpu_seconds,
    floor_command,
    pairs,
    report,
    wall_seconds,
)
from sessions import build, games_benchmarked

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))
BUILT_EVENTS = (30, 200)  # besides the examples: built sessions of every game at these sizes
NAME = re.compile(r'^name = ".*"$', re.MULTILINE)
CREATED = re.compile(r'^created = ".*"$', re.MULTILINE)
START = datetime(2025, 1, 1, 19, 0, tzinfo=UTC)
PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def templates(folder: Path) -> list[tuple[str, str]]:
    """(stem, text) of every session copied: the examples and a few built ones."""
    found = [(p.stem, p.read_text(encoding="utf-8")) for p in EXAMPLES]
    for game in games_benchmarked():
        for events in BUILT_EVENTS:
            path = folder / f"{game}-{events}.toml"
            build(game, path, events)
            found.append((path.stem, path.read_text(encoding="utf-8")))
    return found


def fill(sessions: Path, count: int, made: list[tuple[str, str]]) -> None:
    """`count` session files, each a template under its own name and started at its own time:
    no two have the same bytes or the same identity (a night's identity leaves out its name, and
    stats and exports count a night once)."""
    sessions.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        stem, text = made[n % len(made)]
        name = f"{stem}-{n}"
        created = (START + timedelta(hours=n)).isoformat()
        copy = NAME.sub(lambda _, name=name: f'name = "{name}"', text, count=1)
        copy = CREATED.sub(lambda _, at=created: f'created = "{at}"', copy, count=1)
        (sessions / f"{name}.toml").write_text(copy, encoding="utf-8")


def peak_kib(argv: list[str], env: dict[str, str]) -> int:
    """The peak resident memory of one command, in KiB (Linux's unit for ru_maxrss)."""
    done = subprocess.run([sys.executable, "-c", PEAK, *argv], env=env, capture_output=True,
                          text=True, check=True)  # fmt: skip
    return int(done.stdout.strip())


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    compile_package()
    folders = Folders()
    try:
        bench(folders, runs, count)
    finally:
        folders.close()


def bench(folders: Folders, runs: int, count: int) -> None:
    built = folders.root / "built"
    built.mkdir()
    made = templates(built)
    fill(folders.home / "sessions", count, made)
    one = str(folders.home / "sessions" / f"{made[0][0]}-0.toml")
    env = folders.env()
    plain = folders.env(REFEREE_NO_ANSWERS="1")
    code_notes = folders.cache / "referee" / "code"

    def show() -> float:
        return cpu_seconds([*REFEREE, "show", "-s", one], plain)

    def stats(cache: Path | None = None) -> float:
        return cpu_seconds([*REFEREE, "stats"], folders.env(cache))

    def reinstalled() -> float:
        shutil.rmtree(code_notes, ignore_errors=True)  # what a new install's files look like
        return stats()

    database = folders.root / "all.db"

    def export(cache: Path | None = None) -> float:
        argv = [*REFEREE, "export", "-f", "sqlite", "--all", "-o", str(database), "--force"]
        return cpu_seconds(argv, folders.env(cache))

    print(f"{count} sessions ({len(made)} templates); the machine may be loaded by other work")
    show()
    cpu_seconds([*REFEREE, "show", "-s", one], env)  # kept answer for the front-door show
    print("one show, against the floor and the front door's show")
    report("show (kept replay, no kept answer)", *pairs(show, lambda: cpu_seconds(
        floor_command(), env), runs))  # fmt: skip
    report("show answered by the front door", *pairs(
        lambda: cpu_seconds([*REFEREE, "show", "-s", one], env), show, runs), "show")  # fmt: skip

    print(f"\nstats over {count} sessions (ratios to one show)")
    cold = pairs(lambda: stats(folders.cold_cache()), show, max(1, runs // 3))
    report("stats cold (first run ever)", *cold, "show")
    start = wall_seconds([*REFEREE, "stats"], folders.env(folders.cold_cache()))
    print(f"{'  wall time of one cold stats':<40} {start:6.1f} s")
    stats()  # everything kept
    report("stats after a reinstall of the same code", *pairs(reinstalled, show, runs), "show")
    report("stats warm (nothing changed)", *pairs(stats, show, runs), "show")
    # Those two are answered by the front door (every file's bytes as when the answer was
    # kept). Without it, every kept summary is served; after one night changed, that night's
    # summary is made again too.
    no_answer = folders.env(REFEREE_NO_ANSWERS="1")

    def summaries_served() -> float:
        return cpu_seconds([*REFEREE, "stats"], no_answer)

    report("stats, no kept answer (summaries served)", *pairs(summaries_served, show, runs), "show")
    changing = folders.home / "sessions" / f"{made[-1][0]}-{len(made) - 1}.toml"
    text = changing.read_text(encoding="utf-8")

    def one_changed() -> float:
        nonlocal text  # a new name in the file: its bytes change, the night does not
        text = NAME.sub(lambda m: m.group(0).replace('"', '"x', 1), text, count=1)
        changing.write_text(text, encoding="utf-8")
        return stats()

    report("stats after one night changed", *pairs(one_changed, show, runs), "show")

    print(f"\nexport --all to SQLite over {count} sessions (ratios to one show)")
    report("export cold (no rows kept)", *pairs(lambda: export(folders.cold_cache()), show, 1),
           "show")  # fmt: skip
    export()
    report("export warm (every session's rows kept)", *pairs(export, show, runs), "show")
    argv = [*REFEREE, "export", "-f", "sqlite", "--all", "-o", str(database), "--force"]
    big = peak_kib(argv, env)
    import sqlite3

    with sqlite3.connect(database) as db:
        exported = db.execute("SELECT count(*) FROM sessions").fetchone()[0]
    print(f"sessions in the exported database: {exported}")
    shutil.rmtree(folders.home / "sessions")
    fill(folders.home / "sessions", count // 5, made)
    export()
    small = peak_kib(argv, env)
    print(f"peak memory of export: {count // 5} sessions {small / 1024:.0f} MiB, {count} sessions"
          f" {big / 1024:.0f} MiB ({big / small:.2f}x for {5}x the sessions)")  # fmt: skip


if __name__ == "__main__":
    main()
