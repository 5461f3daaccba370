"""Liar's dice odds in process: 40 dice with wild ones, against a baseline measured alongside.

The baseline is one binomial term (a `math.comb` and two powers), the unit the exact sum is
made of; the target is under a millisecond a call on any machine (RULES.md section 4).

Run: python bench/bench_odds.py [calls]
"""

from __future__ import annotations

import math
import sys
import timeit

from referee.games.liars.bids import Bid
from referee.games.liars.engine import odds


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    bid, known = Bid(15, 4), (4, 1, 2, 6, 4)

    def one_term() -> float:
        return math.comb(35, 12) * (1 / 3) ** 12 * (2 / 3) ** 23

    base = min(timeit.repeat(one_term, number=calls, repeat=5)) / calls
    exact = min(timeit.repeat(lambda: odds(bid, 35, known, wild=True), number=calls, repeat=5))
    exact /= calls
    print(f"one binomial term: {base * 1e6:.2f} us")
    print(f"odds(15x4, 35 unknown + 5 known, wild): {exact * 1e6:.1f} us ({exact / base:.0f}x)")
    print(f"under a millisecond: {'yes' if exact < 1e-3 else 'NO'}")


if __name__ == "__main__":
    main()
