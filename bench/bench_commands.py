"""Every game's everyday commands at 10, 1,000 and 10,000 events, as ratios to the floor.

    python bench/bench_commands.py [RUNS] [SIZES]     e.g.  python bench/bench_commands.py 5 10,1000

For each game and size: `show` and `show --json` warm (answered for exactly these bytes), `show`
with the kept replay but no kept answer, `show` cold (a cache nothing was ever kept in: the first
run ever), one action (the game's next event), `undo` right after it and `undo` after a `show`
that replayed the file (the replay keeps the state before the last event too), each warm, and
`show` and a bare `referee` right after an action (no kept answer for its bytes yet). Then
`referee --version`, a bare `referee`, and `referee shell` opening the largest session. Each
line prints the min and median of per-pair ratios (interleaved with the floor, CPU time) and the
median CPU time. Last, the growth exponent of a cold `show` from 10 to 10,000 events (1.0:
linear).
"""

from __future__ import annotations

import math
import shutil
import statistics
import sys
from pathlib import Path

from bench_shell_open import shell_opening
from common import (
    REFEREE,
    Folders,
    anchors,
    compile_package,
    cpu_seconds,
    floor_command,
    pairs,
    report,
)
from referee import games, storage
from referee.session import event_of, initial, notation
from sessions import build, games_benchmarked, pattern


def next_action(game: str, path: Path) -> list[str]:
    """The shell words of the event the session's pattern would enter next."""
    loaded = storage.load(path)
    recipe = pattern(game)
    assert recipe is not None
    engine = games.load(game)
    state = initial(loaded.session)
    made = recipe.events(lambda: engine.turn(state) or "", list(recipe.PLAYERS))
    for _ in loaded.session.events:  # replay the pattern to where the file stands
        state = engine.apply(state, event_of(engine, next(made)))
    import shlex

    return [game, *shlex.split(notation(loaded.session, next(made)))]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    sizes = [int(s) for s in sys.argv[2].split(",")] if len(sys.argv) > 2 else [10, 1000, 10000]
    compile_package()
    folders = Folders()
    try:
        bench(folders, runs, sizes)
    finally:
        folders.close()


def one_session(folders: Folders, game: str, path: Path, runs: int) -> tuple[float, float]:
    """Every measure of one session; returns the median CPU of a cold show and of a show
    with the kept replay but no kept answer (for the growth exponent)."""
    floor_env = folders.env()

    def floor() -> float:
        return cpu_seconds(floor_command(), floor_env)

    def run(*argv: str, cache: Path | None = None, **extra: str) -> float:
        return cpu_seconds([*REFEREE, *argv], folders.env(cache, **extra))

    where = ("-s", str(path))
    run("show", *where)  # warm every cache once
    run("show", "--json", *where)
    report("show", *pairs(lambda: run("show", *where), floor, runs))
    report("show --json", *pairs(lambda: run("show", "--json", *where), floor, runs))
    kept = pairs(lambda: run("show", *where, REFEREE_NO_ANSWERS="1"), floor, runs)
    report("show, kept replay but no kept answer", *kept)
    cold = pairs(lambda: run("show", *where, cache=folders.cold_cache()), floor, runs)
    report("show, cold (first run ever)", *cold)
    action = next_action(game, path)
    original = path.read_bytes()
    copy = path.with_name(f"{path.stem}-act.toml")

    def act(argv: list[str], after: list[str] | None = None) -> float:
        # The same bytes each time, and their replay kept (as the command before a real action
        # leaves it): the last measured action kept the replay of the bytes it saved instead.
        # With `after`, that line runs first (unmeasured), as the command before leaves it.
        copy.write_bytes(original)
        run("show", "-s", str(copy), REFEREE_NO_ANSWERS="1")
        if after is not None:
            run(*after, "-s", str(copy))
            # An action saves the same bytes each time (within its clock's minute): an answer
            # kept for them by the last pair must not answer this one, which is a first run.
            shutil.rmtree(folders.cache / "referee" / "answers", ignore_errors=True)
        return run(*argv, "-s", str(copy))

    report(f"action: {' '.join(action[1:3])}", *pairs(lambda: act(action), floor, runs))
    # Undo right after an action (taking back a slip): the action kept the state before it.
    report("undo after an action", *pairs(lambda: act(["undo"], action), floor, runs))
    # Undo after a show that replayed the file (a hand edit, a first run): the replay kept
    # the state before the last event as well.
    report("undo after a show", *pairs(lambda: act(["undo"]), floor, runs))
    # Right after a change (issue 34): the first `show` or bare `referee` after an action,
    # when the new bytes have their replay kept (the action kept it) but no kept answer yet.
    report("show right after a change", *pairs(lambda: act(["show"], action), floor, runs))
    report("bare referee right after a change", *pairs(lambda: act([], action), floor, runs))
    return statistics.median(cold[0]), statistics.median(kept[0])


def bench(folders: Folders, runs: int, sizes: list[int]) -> None:
    floor_env = folders.env()

    def floor() -> float:
        return cpu_seconds(floor_command(), floor_env)

    files = folders.root / "sessions"
    files.mkdir()
    built: dict[tuple[str, int], Path] = {}
    for game in games_benchmarked():
        for size in sizes:
            path = files / f"{game}-{size}.toml"
            build(game, path, size)
            built[game, size] = path
    anchors(folders, built[games_benchmarked()[0], max(sizes)], runs)

    def run(*argv: str, cache: Path | None = None, **extra: str) -> float:
        return cpu_seconds([*REFEREE, *argv], folders.env(cache, **extra))

    cold_show: dict[tuple[str, int], float] = {}
    kept_show: dict[tuple[str, int], float] = {}
    for (game, size), path in built.items():
        print(f"\n{game}, {size} events (warm unless it says cold)")
        cold_show[game, size], kept_show[game, size] = one_session(folders, game, path, runs)

    print("\nthe front door")
    got = pairs(lambda: run("--version"), floor, runs)
    report("referee --version", *got)
    largest = max(sizes)
    some = built[games_benchmarked()[0], largest]
    folders.home.mkdir(parents=True, exist_ok=True)
    (folders.home / "current").write_text(str(some) + "\n")
    run()
    got = pairs(lambda: run(), floor, runs)
    report(f"bare referee (a {largest}-event session)", *got)
    for game in games_benchmarked():  # alone: bench_shell_open.py
        shell_opening(folders, game, built[game, largest], runs, largest)

    if 10 in sizes and 10000 in sizes:
        print("\ngrowth from 10 to 10,000 events (exponent of cpu time; 1.0 is linear)")
        for game in games_benchmarked():
            cold = [cold_show[game, n] - kept_show[game, 10] for n in (10, 10000)]
            kept = [kept_show[game, n] for n in (10, 10000)]
            print(f"{game:<10} cold replay {_exponent(*cold):5.2f}   "
                  f"kept replay, whole command {_exponent(*kept):5.2f}")  # fmt: skip


def _exponent(small: float, big: float) -> float:
    """log(big / small) / log(1000): how the cost grows over a thousandfold size."""
    return math.log(max(big, 1e-6) / max(small, 1e-6)) / math.log(1000)


if __name__ == "__main__":
    main()
