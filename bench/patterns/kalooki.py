"""Kalooki that never ends, for the benchmarks (`bench/sessions.py`).

Calls refused round the table; the stock runs out every hundred events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
OPTIONS: dict[str, object] = {}
RULESET: dict[str, object] = {}  # changes to the bundled ruleset


def events(turn: Callable[[], str], names: list[str]) -> Iterator[dict[str, str | int]]:
    """The events as a session file stores them, one after another."""
    while True:  # calls refused round the table (never counted), and every hundredth event
        for n in range(99):  # the stock runs out: every second time the round is void
            yield {"type": "call", "caller": names[n % len(names)], "refused": 1}
        yield {"type": "stockout"}
