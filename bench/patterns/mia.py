"""Mia that never ends, for the benchmarks (`bench/sessions.py`).

Equal announcements are allowed, so a round never ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve")
OPTIONS: dict[str, object] = {}
RULESET: dict[str, object] = {"equal_allowed": True}  # changes to the bundled ruleset


def events(turn: Callable[[], str], names: list[str]) -> Iterator[dict[str, str | int]]:
    """The events as a session file stores them, one after another."""
    while True:  # equal announcements are allowed: the round goes round and round
        yield {"type": "announce", "by": turn(), "value": "31"}
        yield {"type": "believe", "by": turn()}
