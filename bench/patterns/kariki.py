"""Kariki that never ends, for the benchmarks (`bench/sessions.py`).

Claims and rolls the mug on: nobody ever loses a berry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve")
OPTIONS: dict[str, object] = {"first": "Ann", "direction": "left"}
RULESET: dict[str, object] = {"berry_limit": 99}  # changes to the bundled ruleset


def events(turn: Callable[[], str], names: list[str]) -> Iterator[dict[str, str | int]]:
    """The events as a session file stores them, one after another."""
    while True:
        yield {"type": "claim", "by": turn(), "rank": "Nine"}
        yield {"type": "roll", "by": turn()}
