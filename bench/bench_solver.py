"""The Kalooki solver on adversarial and random hands; `solve` versus `score` as commands.

Run: python bench/bench_solver.py [random-hands]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from common import compile_package, medians
from referee.games.kalooki import melds as k
from referee.games.kalooki.cards import JOKER, Card, Suit, parse_cards, show

ADVERSARIAL = {
    "13 hearts + 4 jokers, round 9": (9, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK JK JK JK"),
    "13 hearts + 4 jokers, round 2": (2, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK JK JK JK"),
    "13 hearts + 4 jokers, round 3": (3, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK JK JK JK"),
    "many pairs + 3 jokers, round 7": (7, "2H 2S 3H 3S 4D 4C 5D 5C 6H 6S 7D 7C 8H 8S JK JK JK"),
    "two long suits + 2 jokers, round 7": (7, "2H 3H 4H 5H 6H 7H 8H 9H 2S 3S 4S 5S 6S 7S 8S JK JK"),
    "17 cards no solution, round 9": (9, "2H 4H 6H 8H 10H QH 2S 4S 6S 8S 10S QS 2D 4D 6D 8D JK"),
    "four short suits + 3 jokers, round 9": (
        9,
        "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 5D 6C 7C JK JK JK",
    ),
}


def time_solve(number: int, hand: tuple[Card, ...]) -> float:
    start = time.perf_counter()
    k.solve(number, hand)
    return time.perf_counter() - start


def main() -> None:
    compile_package()
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    worst_name, worst = "", 0.0
    for name, (number, text) in ADVERSARIAL.items():
        spent = min(time_solve(number, parse_cards(text)) for _ in range(3))
        print(f"{spent * 1000:7.1f} ms  {name}")
        if spent > worst:
            worst_name, worst = name, spent
    rng = random.Random(1)
    pack = [Card(r, s) for r in range(1, 14) for s in Suit] * 2 + [JOKER] * 4
    spent_all = []
    for _ in range(count):
        number = rng.randint(1, 9)
        hand = tuple(rng.sample(pack, k.Rules().deal_sizes[number - 1] + 1))
        spent_all.append(time_solve(number, hand))
    print(
        f"random hands: {count}, median {statistics.median(spent_all) * 1000:.2f} ms,"
        f" worst {max(spent_all) * 1000:.1f} ms"
    )
    # Dense hands are the hard ones: 17 cards crowded into 2-4 suits, with 0-4 jokers.
    dense = []
    for _ in range(count):
        suits = rng.sample(list(Suit), rng.randint(2, 4))
        jokers = rng.randint(0, 4)
        cards: list[Card] = []
        while len(cards) < 17 - jokers:
            card = Card(rng.randint(1, 13), rng.choice(suits))
            if cards.count(card) < 2:
                cards.append(card)
        number = rng.randint(1, 9)
        hand = (*cards, *[JOKER] * jokers)
        dense.append((time_solve(number, hand), number, show(hand)))
    spent, number, text = max(dense)
    print(
        f"dense 17-card hands: {count}, median {statistics.median(d[0] for d in dense) * 1000:.2f}"
        f" ms, worst {spent * 1000:.1f} ms (round {number}: {text})"
    )
    ADVERSARIAL["worst dense hand"] = (number, text)
    if spent > worst:
        worst_name, worst = "worst dense hand", spent
    number, text = ADVERSARIAL[worst_name]
    cards = show(parse_cards(text)).split()
    referee = [sys.executable, "-m", "referee", "kalooki"]
    got = medians(
        {"solve": [*referee, "solve", str(number), *cards], "score": [*referee, "score", *cards]}, 9
    )
    print(
        f"worst hand ({worst_name}): solve {got['solve'] * 1000:.0f} ms as a command,"
        f" score {got['score'] * 1000:.0f} ms: {got['solve'] / got['score']:.2f}x"
    )


if __name__ == "__main__":
    main()
