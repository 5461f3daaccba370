"""Stakes and the pot, written once for every game (RULES 7): what each player has put in, and
who takes what when the game is over.

Money is whole cents, never a float. A ruleset sets the stakes (`stake`, `loss_value`, `payout`,
`payout_split`, `point_value`, `loser_buys`; Kariki calls its stake `buy_in`), which every
game reads with `Stakes.read`. An engine keeps a `Purse` in its state and tells it what
happens: everyone seated pays the stake (`Purse.start`), a newcomer pays it (`join`), a player
pays `loss_value` for each berry, die, life or point he loses (`lose`), Kariki's buy-back pays
its own price (`pay`), and a player who takes over a seat pays its holder what he had put in
(`take_over`). Who takes what is not kept: it follows from the purse and the game's outcome
(`result`), so an undo never leaves a payout behind.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from referee.errors import UsageError, quote
from referee.ruleset import TableReader

MAX_CENTS = 100_000_00  # 100,000: no stake at a bar is more, and no sum of them overflows a page


class Payout(enum.Enum):
    """Who takes the pot: the winner, the places by `payout_split`, or (Kalooki) per point."""

    WINNER = "winner"
    PLACES = "places"
    PER_POINT = "per_point"


def cents(value: object, what: str = "amount") -> int:
    """An amount of money as typed or stored (`3`, `3.5`, `"3.50"`) in whole cents; at most two
    decimals, from 0 to 100,000. `UsageError` otherwise.

    >>> cents("3.50"), cents(2), cents(0.1)
    (350, 200, 10)
    """
    from decimal import Decimal, InvalidOperation  # only where an amount is read

    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise UsageError(f"{what} must be an amount like 3 or 3.50, not {value!r:.20}")
    text = repr(value) if isinstance(value, float) else str(value).strip()
    try:
        found = Decimal(text)
    except InvalidOperation:
        raise UsageError(f"{what} must be an amount like 3 or 3.50, not {quote(text)}") from None
    if not found.is_finite() or not 0 <= found <= MAX_CENTS // 100:
        raise UsageError(f"{what} is 0 to {show(MAX_CENTS)}, not {quote(text)}")
    if found != found.quantize(Decimal("0.01")):
        raise UsageError(f"{what} has at most two decimals, like 3.50, not {quote(text)}")
    return int(found * 100)


def show(amount: int) -> str:
    """Cents as a table says them: whole amounts plain, others with two decimals.

    >>> show(350), show(400), show(-5)
    ('3.50', '4', '-0.05')
    """
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 100)
    return f"{sign}{whole}" if part == 0 else f"{sign}{whole}.{part:02d}"


@dataclass(frozen=True, slots=True)
class Stakes:
    """A game's stakes, as its ruleset sets them (all 0 / off: a game without money)."""

    stake: int = 0  # cents each pays in at the start (and on joining)
    loss_value: int = 0  # cents paid into the pot for each berry, die, life or point lost
    payout: Payout = Payout.WINNER
    split: tuple[int, ...] = (100,)  # percent by place, for payout = places
    point_value: int = 0  # cents per point, for payout = per_point (Kalooki)
    loser_buys: bool = False  # the last place owes the table a round

    def doc(self) -> dict[str, object]:
        """The stakes as JSON data (`show --json`'s `money`, `night --json`): amounts in cents."""
        return {
            "stake": self.stake,
            "loss_value": self.loss_value,
            "payout": self.payout.value,
            "payout_split": list(self.split),
            "point_value": self.point_value,
            "loser_buys": self.loser_buys,
        }

    @property
    def has_money(self) -> bool:
        """Whether money changes hands at all in this game."""
        return bool(self.stake or self.loss_value or self.point_value)

    @classmethod
    def read(cls, r: TableReader, *, stake_key: str = "stake", per_point: bool = False) -> Stakes:
        """The stake keys of a ruleset, each problem added to the reader's (Kariki reads its
        stake as `buy_in`; only a game with `per_point` may pay per point)."""
        d = cls()
        stake = r.amount(stake_key, d.stake)
        loss_value = r.amount("loss_value", d.loss_value)
        payout = r.choice("payout", Payout, d.payout)
        split = r.int_list("payout_split", d.split, maximum=100)
        point_value = r.amount("point_value", d.point_value)
        loser_buys = r.flag("loser_buys", d.loser_buys)
        if payout is Payout.PER_POINT and not per_point:
            r.problems.append("payout = per_point is Kalooki's only: use winner or places")
        elif payout is Payout.PER_POINT and (stake or loss_value):
            r.problems.append(
                f"payout = per_point has no pot: {stake_key} and loss_value must be 0"
            )
        if payout is Payout.PLACES and (not split or sum(split) != 100):
            r.problems.append(f"payout_split must add up to 100, not {sum(split)}")
        return cls(stake, loss_value, payout, split, point_value, loser_buys)


class Transfer(NamedTuple):
    """Money one player pays another directly (a seat taken over, a Kalooki point debt)."""

    payer: str
    payee: str
    cents: int


@dataclass(frozen=True, slots=True)
class Purse:
    """The money of one game so far: what each has put in the pot, and direct payments."""

    stakes: Stakes = Stakes()
    paid: tuple[tuple[str, int], ...] = ()  # into the pot, by name, in the order first paid
    moved: tuple[Transfer, ...] = ()  # between players (a seat taken over)

    @classmethod
    def start(cls, stakes: Stakes, names: Sequence[str]) -> Purse:
        """Everyone seated pays the stake."""
        purse = cls(stakes)
        for name in names:
            purse = purse.pay(name, stakes.stake)
        return purse

    @property
    def pot(self) -> int:
        """Everything put in the pot."""
        return sum(amount for _, amount in self.paid)

    def put_in(self, name: str) -> int:
        """What `name` has put in the pot himself."""
        return sum(amount for who, amount in self.paid if who == name)

    def seat_paid(self, name: str) -> int:
        """What the holder of a seat has paid for this game: into the pot, and to whoever held
        his seat before him (the card's "paid")."""
        return self.put_in(name) + sum(t.cents for t in self.moved if t.payer == name)

    def pay(self, name: str, amount: int) -> Purse:
        """`name` puts `amount` in the pot (nothing for 0)."""
        if amount <= 0:
            return self
        return replace(self, paid=(*self.paid, (name, amount)))

    def join(self, name: str) -> Purse:
        """A newcomer pays the stake."""
        return self.pay(name, self.stakes.stake)

    def lose(self, name: str, units: int = 1) -> Purse:
        """`name` lost `units` berries, dice, lives or points: each pays `loss_value`."""
        return self.pay(name, units * self.stakes.loss_value)

    def take_over(self, old: str, new: str) -> Purse:
        """`new` takes `old`'s seat: he pays `old` what `old` had paid for it."""
        owed = self.seat_paid(old)
        if owed <= 0:
            return self
        return replace(self, moved=(*self.moved, Transfer(new, old, owed)))


@dataclass(frozen=True, slots=True)
class Result:
    """Who takes what from a finished game, each one's net, and the rounds owed."""

    takes: Mapping[str, int]  # from the pot
    transfers: tuple[Transfer, ...]  # direct: seats taken over, points paid (Kalooki)
    nets: Mapping[str, int]  # what each ends with, in cents: + won, - lost; they sum to 0
    rounds: tuple[str, ...]  # who owes the table a round (`loser_buys`)


class Standing(NamedTuple):
    """What `result` needs of a finished game: the standings (best first), each one's place
    (shared places repeat: 1, 2, 2, 4) and, for per_point, each one's score."""

    standings: tuple[str, ...]
    places: tuple[int, ...]
    scores: Mapping[str, int]


def result(purse: Purse, standing: Standing) -> Result:
    """The money of a finished game: the pot shared out by the payout, and the nets.

    The pot goes to the winner, or by `payout_split` percent by place (a place shared by
    several shares its parts evenly; an odd cent goes to the better place, then to the earlier
    in the standings; the parts of places beyond the table go evenly to the places paid);
    per point, each player pays every winner his score minus the winning
    score times `point_value`, divided among the winners.
    """
    stakes = purse.stakes
    names, places = (
        standing.standings,
        standing.places or tuple(range(1, len(standing.standings) + 1)),
    )
    takes: dict[str, int] = {}
    moved = list(purse.moved)
    if stakes.payout is Payout.PER_POINT:
        moved += _per_point(standing, stakes.point_value)
    else:
        split = (100,) if stakes.payout is Payout.WINNER else stakes.split
        takes = _shares(purse.pot, names, places, split)
    nets: dict[str, int] = {}
    for name, amount in purse.paid:
        nets[name] = nets.get(name, 0) - amount
    for name, amount in takes.items():
        nets[name] = nets.get(name, 0) + amount
    for t in moved:
        nets[t.payer] = nets.get(t.payer, 0) - t.cents
        nets[t.payee] = nets.get(t.payee, 0) + t.cents
    last = max(places) if places else 0
    rounds = tuple(n for n, p in zip(names, places, strict=True) if p == last and len(names) > 1)
    return Result(
        {n: a for n, a in takes.items() if a},
        tuple(moved),
        nets,
        rounds if stakes.loser_buys else (),
    )


def _shares(
    pot: int, names: Sequence[str], places: Sequence[int], split: Sequence[int]
) -> dict[str, int]:
    """The pot by percent per place: each place's part rounded down, the cents left over one
    each to the better places, then a shared place's parts split evenly in standings order."""
    parts = [pot * split[k] // 100 if k < len(split) else 0 for k in range(len(names))]
    left = pot - sum(parts)  # the cents rounded off, and the parts of places nobody holds
    paid_places = [k for k in range(len(names)) if k < len(split) and split[k]] or [0]
    each, odd = divmod(left, len(paid_places))
    for n, k in enumerate(paid_places):
        parts[k] += each + (1 if n < odd else 0)
    takes: dict[str, int] = {}
    k = 0
    while k < len(names):
        tied = [j for j in range(k, len(names)) if places[j] == places[k]]
        total = sum(parts[j] for j in tied)
        each, odd = divmod(total, len(tied))
        for n, j in enumerate(tied):
            takes[names[j]] = each + (1 if n < odd else 0)
        k = tied[-1] + 1
    return takes


def _per_point(standing: Standing, point_value: int) -> list[Transfer]:
    """Kalooki's per-point payout: each loser pays the winners his score minus theirs; a player
    ranked below another (one who left ranks below all who played to the end) pays at least
    what that one pays, so leaving early with a low total never pays less."""
    if not standing.standings or not point_value:
        return []
    best = standing.places[0] if standing.places else 1
    places = standing.places or tuple(range(1, len(standing.standings) + 1))
    winners = [n for n, p in zip(standing.standings, places, strict=True) if p == best]
    low = standing.scores.get(winners[0], 0)
    found: list[Transfer] = []
    highest = low  # one ranked below another never pays less (a leaver with a low total)
    for name in standing.standings:
        if name in winners:
            continue
        highest = max(highest, standing.scores.get(name, 0))
        owed = (highest - low) * point_value
        each, odd = divmod(owed, len(winners))
        for n, winner in enumerate(winners):
            amount = each + (1 if n < odd else 0)
            if amount:
                found.append(Transfer(name, winner, amount))
    return found


# ---------------------------------------------------------------------------- in words


def said(value: object) -> str:
    """A ruleset's amount as a table says it (`1.5` is 1.50); a bad one as it was given."""
    try:
        return show(cents(value))
    except UsageError:
        return str(value)[:12]


def _split(value: object) -> str:
    """`payout_split` in a few words: `split 70/30`, or how many places share the pot when that
    is too long to say."""
    parts = [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
    if parts == ["100"]:
        return "all to the first place"
    words = "split " + "/".join(parts)
    return words if len(words) <= 24 else f"pot split {len(parts)} ways"


_PAYOUTS = {
    "winner": "the winner takes the pot",
    "places": "the pot split by place",
    "per_point": "paid point by point",
}


def house_words(loss: str, *, stake_key: str = "stake") -> dict[str, Callable[[object], str]]:
    """What a card says for each stake key a session sets otherwise than its bundled ruleset,
    the same in every game but for what one loss is (`a berry`, `a die lost`) and the stake's
    key (Kariki's `buy_in`): each at most 24 characters, for the house line."""
    stake = "buy-in" if stake_key == "buy_in" else "stake"
    return {
        stake_key: lambda v: f"{stake} {said(v)}" if said(v) != "0" else f"no {stake}",
        "loss_value": lambda v: f"{said(v)} {loss}" if said(v) != "0" else "losses pay nothing",
        "payout": lambda v: _PAYOUTS.get(str(v), f"payout {str(v)[:16]}"),
        "payout_split": _split,
        "point_value": lambda v: f"{said(v)} a point",
        "loser_buys": lambda v: "the loser buys a round" if v is True else "no round owed",
        "late_join": lambda v: "no late joins" if v == "never" else "join till one is out",
    }
