"""Liar's dice that never ends, for the benchmarks (`bench/sessions.py`).

Rounds of eighty rising bids, each ended by a call: twenty players of ten dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

PLAYERS = tuple(f"P{i:02}" for i in range(1, 21))
OPTIONS: dict[str, object] = {"first": "P01"}
RULESET: dict[str, object] = {"dice_per_player": 10}  # changes to the bundled ruleset


def events(turn: Callable[[], str], names: list[str]) -> Iterator[dict[str, str | int]]:
    """The events as a session file stores them, one after another."""
    while True:  # rounds of eighty rising bids, each ended by a call
        for quantity in range(1, 17):
            for face in range(2, 7):
                yield {"type": "bid", "by": turn(), "bid": f"{quantity}x{face}"}
        yield {"type": "call", "by": turn(), "count": 0}
