"""Kiriki that never ends, for the benchmarks (`bench/sessions.py`).

A match kept level by alternating winners (win by 2, no cap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

PLAYERS = ("Rosa", "Tomas")
OPTIONS: dict[str, object] = {"format": "standard", "ranked": True}
RULESET: dict[str, object] = {}  # changes to the bundled ruleset


def events(turn: Callable[[], str], names: list[str]) -> Iterator[dict[str, str | int]]:
    """The events as a session file stores them, one after another."""
    yield {"type": "rolloff", "dice": "5-3"}
    winner = 0
    while True:  # the winner alternates, so nobody ever leads by 2
        claimer = turn()
        lifter = names[1 - names.index(claimer)]
        yield {"type": "claim", "by": claimer, "rank": "4"}
        true = names[winner] == claimer  # true dice: the claimer wins; below: the lifter
        yield {"type": "lift", "by": lifter, "dice": "1-3" if true else "1-1"}
        winner = 1 - winner
