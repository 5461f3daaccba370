"""`referee show` on a 1,000-event Kariki session, as ratios to a minimal Typer + Rich app.

Run: python bench/bench_show.py [runs]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from common import baseline_command, compile_package, medians
from referee import storage
from referee.games import kariki
from referee.games.base import PlayerInfo
from referee.notation.dice import Rank, Roll
from referee.session import Session, append, replay


def build(path: Path, events: int) -> None:
    """A real session of `events` claims, rolls and pulls (a berry limit nobody reaches)."""
    table = storage.load_ruleset("kariki")
    table["berry_limit"] = 99
    players = tuple(PlayerInfo(n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve"))
    session = Session(path.stem, "kariki", table, players, {"first": "Ann", "direction": "left"})
    state = replay(session)
    for i in range(events):
        who = state.seats[state.turn].name
        event: kariki.Event = (
            kariki.Claim(who, Rank.NINE)
            if i % 2 == 0
            else kariki.Pull(who, Roll(4, 5))
            if i % 10 == 1
            else kariki.TakeMug(who)
        )
        session, state = append(session, state, event)
    storage.save(path, session)


def main() -> None:
    compile_package()
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as folder:
        big, small = Path(folder) / "big.toml", Path(folder) / "small.toml"
        build(big, 1000)
        build(small, 10)
        referee = [sys.executable, "-m", "referee"]
        env = {**os.environ, "REFEREE_HOME": folder, "COLUMNS": "40"}
        got = medians(
            {
                "floor": baseline_command(),
                "show-1000": [*referee, "show", "-s", str(big)],
                "json-1000": [*referee, "show", "--json", "-s", str(big)],
                "show-10": [*referee, "show", "-s", str(small)],
            },
            runs,
            env,
        )
    floor = got["floor"]
    print(f"floor (Typer + one Rich table): {floor * 1000:.0f} ms, median of {runs}")
    for name in ("show-1000", "json-1000", "show-10"):
        print(f"{name:<10} {got[name] * 1000:6.0f} ms  {got[name] / floor:.2f}x floor")
    print(f"show 1000 vs 10 events: {got['show-1000'] / got['show-10']:.2f}x")


if __name__ == "__main__":
    main()
