"""Who pays whom to settle a night: STAND-IN, replaced on merge by the sibling's module.

This greedy stand-in has the agreed API (`settle`, `is_exact`) so the night can be written and
tested against it; it is not the fewest transfers in general (the real module finds the exact
minimum for up to 15 players with a balance).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.games.money import Transfer

EXACT_LIMIT = 15  # players with a balance the real module settles with the proven minimum


def settle(balances: Mapping[str, int]) -> tuple[Transfer, ...]:
    """Transfers that settle `balances` (cents: + is owed money, - owes it; they sum to 0):
    the largest debt paid to the largest credit, again and again (stand-in)."""
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    owed = {n: c for n, c in balances.items() if c > 0}
    owing = {n: -c for n, c in balances.items() if c < 0}
    found: list[Transfer] = []
    while owing:
        payer = max(owing, key=lambda n: (owing[n], n))
        payee = max(owed, key=lambda n: (owed[n], n))
        amount = min(owing[payer], owed[payee])
        found.append(Transfer(payer, payee, amount))
        for side, name in ((owing, payer), (owed, payee)):
            side[name] -= amount
            if not side[name]:
                del side[name]
    return tuple(found)


def is_exact(balances: Mapping[str, int]) -> bool:
    """Whether `settle` gives the proven fewest transfers for these balances (up to
    `EXACT_LIMIT` players with a balance)."""
    return sum(1 for c in balances.values() if c) <= EXACT_LIMIT
