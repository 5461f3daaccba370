"""`referee show` on 1,000-event Kariki and Liar's dice sessions, as ratios to a minimal app.

Run: python bench/bench_show.py [runs]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from common import baseline_command, compile_package, medians
from referee import storage
from referee.games import kariki, liars
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


def build_liars(path: Path, events: int) -> None:
    """A real Liar's dice session of `events`: long rounds of rising bids, each ended by a call."""
    table = storage.load_ruleset("liars-dice")
    table["dice_per_player"] = 10
    players = tuple(PlayerInfo(n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))
    session = Session(path.stem, "liars", table, players, {"first": "Ann"})
    state = replay(session)
    for i in range(events):
        who = state.name(state.turn)
        event: liars.Event
        if state.bid is not None and (i % 300 == 299 or state.bid.quantity >= state.dice_in_play):
            event = liars.Call(who, count=0)
        else:
            event = liars.BidEvent(who, liars.smallest_raises(state)[0])
        session, state = append(session, state, event)
    storage.save(path, session)


def build_kalooki(path: Path) -> None:
    """A finished 6-player Kalooki game: a lay-down and every hand in each of nine rounds."""
    from referee.games import kalooki_game as kg
    from referee.notation.cards import parse_cards

    table = storage.load_ruleset("kalooki")
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    session = Session(path.stem, "kalooki", table, tuple(PlayerInfo(n) for n in names), {})
    state = replay(session)
    for number in range(9):
        out = names[number % 6]
        session, state = append(session, state, kg.Call(names[(number + 1) % 6]))
        session, state = append(session, state, kg.Out(out))
        hands = iter(("5H 6H KD AS", "7C 8C", "QS JK", "2D 3D 4D", "9S 10S AH"))
        for name in names:
            if name != out:
                hand = kg.Hand(name, parse_cards(next(hands)))
                session, state = append(session, state, hand)
    storage.save(path, session)


def main() -> None:
    compile_package()
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as folder:
        big, small = Path(folder) / "big.toml", Path(folder) / "small.toml"
        dice = Path(folder) / "dice.toml"
        build(big, 1000)
        build(small, 10)
        build_liars(dice, 1000)
        cards = Path(folder) / "cards.toml"
        build_kalooki(cards)
        referee = [sys.executable, "-m", "referee"]
        env = {**os.environ, "REFEREE_HOME": folder, "COLUMNS": "40"}
        got = medians(
            {
                "floor": baseline_command(),
                "show-1000": [*referee, "show", "-s", str(big)],
                "json-1000": [*referee, "show", "--json", "-s", str(big)],
                "show-10": [*referee, "show", "-s", str(small)],
                "liars-show-1000": [*referee, "show", "-s", str(dice)],
                "liars-json-1000": [*referee, "show", "--json", "-s", str(dice)],
                "kalooki-show-6": [*referee, "show", "-s", str(cards)],
            },
            runs,
            env,
        )
    floor = got["floor"]
    print(f"floor (Typer + one Rich table): {floor * 1000:.0f} ms, median of {runs}")
    for name in (
        "show-1000",
        "json-1000",
        "show-10",
        "liars-show-1000",
        "liars-json-1000",
        "kalooki-show-6",
    ):
        print(f"{name:<16} {got[name] * 1000:6.0f} ms  {got[name] / floor:.2f}x floor")
    print(f"show 1000 vs 10 events: {got['show-1000'] / got['show-10']:.2f}x")


if __name__ == "__main__":
    main()
