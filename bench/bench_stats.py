"""`referee stats` over 500 sessions of every game, as a ratio to `referee show` of one.

Stats replay a session only when its bytes (or referee's code) changed since the last run, and
keep the rest in the user's cache folder; what is left per session is reading its file and
hashing it. Run: python bench/bench_stats.py [runs] [sessions]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import compile_package, medians

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))


def main() -> None:
    compile_package()
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    with tempfile.TemporaryDirectory() as folder:
        sessions = Path(folder) / "home" / "sessions"
        sessions.mkdir(parents=True)
        for n in range(count):
            example = EXAMPLES[n % len(EXAMPLES)]
            shutil.copy(example, sessions / f"{example.stem}-{n}.toml")
        env = {**os.environ, "REFEREE_HOME": str(Path(folder) / "home"), "COLUMNS": "40",
               "XDG_CACHE_HOME": str(Path(folder) / "cache")}  # fmt: skip
        referee = [sys.executable, "-m", "referee"]
        one = str(sessions / f"{EXAMPLES[0].stem}-0.toml")
        subprocess.run([*referee, "stats"], env=env, capture_output=True, check=True)  # warm
        got = medians(
            {"show-one": [*referee, "show", "-s", one], "stats": [*referee, "stats"]}, runs, env
        )
    print(f"show one session: {got['show-one'] * 1000:.0f} ms, median of {runs}")
    print(
        f"stats over {count}: {got['stats'] * 1000:.0f} ms, {got['stats'] / got['show-one']:.2f}x"
    )


if __name__ == "__main__":
    main()
