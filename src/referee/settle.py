"""Who pays whom at the end of a night: the fewest transfers that settle every balance.

A balance is a player's net for the night in whole cents: positive when he is owed money,
negative when he owes. The balances sum to zero, and each player's transfers sum to exactly
his balance (RULES.md section 7). Players with a zero balance take no part.

How few transfers: every group of players whose balances sum to zero can be settled among
themselves with one transfer fewer than it has players, so the fewest transfers is the number
of players with a balance minus the largest number of disjoint zero-sum groups they split into.

- Up to `EXACT_LIMIT` (15) players with a balance, that largest split is found exactly, by a
  dynamic programme over the subsets of the players (2^15 subsets: well under a second).
- Beyond that, the count is not promised to be the minimum: the whole table is settled by the
  greedy rule alone (at most one transfer fewer than the players with a balance).

The greedy rule, used inside each group and for a table beyond the limit: the largest debtor
pays the largest creditor the smaller of the two amounts, until nobody owes; ties go to the
first name in name order (case-blind first, then exact, so 'Ann' comes before 'ann' and both
before 'Bob'). Every step settles at least one player in full, and the last settles two.

The result does not depend on the order of the mapping, and is sorted for reading: by payer,
then payee, in name order.

>>> for transfer in settle({"Ann": 300, "Bob": 400, "Cy": -300, "Dee": -200, "Eve": -200}):
...     print(transfer)
Transfer(payer='Cy', payee='Ann', cents=300)
Transfer(payer='Dee', payee='Bob', cents=200)
Transfer(payer='Eve', payee='Bob', cents=200)

The greedy rule alone takes four here: Cy, the largest debtor, would pay Bob, the largest
creditor, leaving 100 on Ann and on Bob that one of Dee and Eve must split.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

EXACT_LIMIT = 15


class Transfer(NamedTuple):
    """One payment: `payer` gives `payee` a positive number of `cents`."""

    payer: str
    payee: str
    cents: int


def _name_order(name: str) -> tuple[str, str]:
    """The sort key of a name: case-blind first, then exact, so equal inputs sort one way.

    >>> sorted(["bob", "ann", "Bob", "Ann"], key=_name_order)
    ['Ann', 'ann', 'Bob', 'bob']
    """
    return name.casefold(), name


def is_exact(balances: Mapping[str, int], transfers: Sequence[Transfer] = ()) -> bool:
    """Whether the count of `transfers` (what `settle` gave) is promised to be the minimum: at
    most `EXACT_LIMIT` players have a balance (found exactly), or no count could be lower:
    every debtor pays once at least and every creditor is paid once at least (twenty owing
    one winner take nineteen transfers, whatever the rule).

    >>> is_exact({"Ann": 5, "Bob": -5, "Cy": 0})
    True
    >>> many = {"Ann": 1900, **{f"P{k}": -100 for k in range(19)}}
    >>> is_exact(many), is_exact(many, settle(many))
    (False, True)
    """
    owing = sum(1 for cents in balances.values() if cents < 0)
    owed = sum(1 for cents in balances.values() if cents > 0)
    return owing + owed <= EXACT_LIMIT or 0 < len(transfers) == max(owing, owed)


def settle(balances: Mapping[str, int]) -> tuple[Transfer, ...]:
    """The transfers that settle `balances`, as few as possible (see the module's docstring).

    Raises TypeError if a balance is not a whole number of cents (an int), and ValueError if
    the balances do not sum to zero.

    >>> settle({"Ann": 500, "Bob": -500, "Cy": 0})
    (Transfer(payer='Bob', payee='Ann', cents=500),)
    >>> settle({"Ann": 500, "Bob": -499})
    Traceback (most recent call last):
    ...
    ValueError: the balances do not sum to zero: they sum to 1 cents
    """
    for name, cents in balances.items():
        # bool is an int to Python, but True cents is a mistake, not money.
        if not isinstance(cents, int) or isinstance(cents, bool):
            raise TypeError(f"the balance of {name!r} is not whole cents (an int): {cents!r}")
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"the balances do not sum to zero: they sum to {total} cents")

    players = sorted((name for name, cents in balances.items() if cents != 0), key=_name_order)
    amounts = [balances[name] for name in players]
    if len(players) <= EXACT_LIMIT:
        groups = _zero_sum_groups(amounts)
    else:
        groups = [list(range(len(players)))]

    transfers = [
        transfer
        for group in groups
        for transfer in _greedy({players[i]: amounts[i] for i in group})
    ]
    return tuple(sorted(transfers, key=lambda t: (_name_order(t.payer), _name_order(t.payee))))


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Positions of `amounts` (which sum to zero) in as many groups as can each sum to zero.

    Subset `mask` holds position i when bit i is set. `most[mask]` is the most disjoint zero-sum
    groups inside `mask`. Put its positions in a row, group after group and the rest last: a
    group ends wherever the running sum is back at zero. So `most[mask]` is the best, over the
    last position i of the row, of `most[mask without i]`, plus one if `mask` sums to zero.
    The walk back takes out the earliest position that keeps the best, so the groups depend on
    `amounts` alone.

    >>> _zero_sum_groups([3, 4, -3, -2, -2])
    [[0, 2], [1, 3, 4]]
    >>> _zero_sum_groups([])
    []
    """
    count = len(amounts)
    sums = [0]  # sums[mask]: the doubling adds the subsets that hold the next position
    for amount in amounts:
        sums += [total + amount for total in sums]
    bits = [1 << i for i in range(count)]

    most = [0] * len(sums)
    for mask in range(1, len(sums)):
        best = 0
        for bit in bits:
            if mask & bit and most[mask ^ bit] > best:
                best = most[mask ^ bit]
        most[mask] = best + int(sums[mask] == 0)

    # Walk back from everyone to nobody along a best path; each zero-sum subset on the path
    # closes a group, which holds the positions taken out since the previous one.
    groups: list[list[int]] = []
    mask = closed = len(sums) - 1
    while mask:
        wanted = most[mask] - int(sums[mask] == 0)
        bit = next(b for b in bits if mask & b and most[mask ^ b] == wanted)
        mask ^= bit
        if sums[mask] == 0:
            groups.append([i for i in range(count) if (closed ^ mask) & bits[i]])
            closed = mask
    return sorted(groups)


def _greedy(balances: Mapping[str, int]) -> Iterator[Transfer]:
    """Transfers settling zero-summing `balances`: largest debtor to largest creditor, by name."""
    left = dict(balances)
    while left:
        debtor = min(left, key=lambda name: (left[name], _name_order(name)))
        creditor = min(left, key=lambda name: (-left[name], _name_order(name)))
        cents = min(-left[debtor], left[creditor])
        left[debtor] += cents
        left[creditor] -= cents
        yield Transfer(debtor, creditor, cents)
        left = {name: rest for name, rest in left.items() if rest != 0}
