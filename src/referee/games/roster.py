"""People who come and go (RULES 7): `join`, `leave` and `replace`, declared once for every game.

Each is an event of the game's log like any other (undone by `undo`, said by `log`). The
declarations, the facts they are ruled with and the checks every game makes the same way live
here; what a join starts with, when it is allowed and what a leave means for the standings are
each game's own (its engine's `apply`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee.errors import RuleViolation, UsageError, quote
from referee.games.actions import Param, action
from referee.games.base import Named
from referee.ruleset import TableReader
from referee.text import check_name, name_key


class LateJoin(enum.Enum):
    """`late_join`: a newcomer may sit down until the first player is out, or never."""

    UNTIL_FIRST_OUT = "until_first_out"
    NEVER = "never"

    @classmethod
    def read(cls, r: TableReader) -> LateJoin:
        """The `late_join` key of a ruleset."""
        return r.choice("late_join", cls, cls.UNTIL_FIRST_OUT)


def _name(text: str) -> str:
    return check_name(text)


# a newcomer's name: checked as `new` checks one, spelled as the night's roster spells him
NEWCOMER = Param(
    "name",
    metavar="NAME",
    help="The newcomer's name.",
    parse=_name,
    required=True,
    resolve=lambda name, state, table: table.newcomer(name),
)


@action(
    "join",
    NEWCOMER,
    Param(
        "after",
        option="--after",
        metavar="PLAYER",
        help="Sit after this player [default: the last seat].",
        player=True,
    ),
    help="""A newcomer sits down.

    The newcomer sits after PLAYER (default: the last seat) and pays the stake. Allowed while
    nobody is out yet (late_join) and between challenges; the newcomer starts as the game's rules
    say.
    """,
)
@dataclass(frozen=True, slots=True)
class Join:
    """A newcomer sits down after `after` (None: the last seat)."""

    name: str
    after: str | None = None


@action(
    "leave",
    Param("player", metavar="PLAYER", help="Who leaves.", player=True, required=True),
    help="""A player leaves for good.

    PLAYER is out at this event, placed as anyone out at it; PLAYER's money stays in the pot.
    """,
    whole="a player's game for good (at two players, the match)",  # `le bob`: never a slip
)
@dataclass(frozen=True, slots=True)
class Leave:
    """`player` leaves the game for good."""

    player: str


@action(
    "replace",
    Param("old", metavar="OLD", help="Who gives up the seat.", player=True, required=True),
    NEWCOMER._replace(name="new", metavar="NEW", help="Who takes it."),
    help="""A seat changes hands.

    NEW takes everything on it, and pays OLD what OLD had put in for it. The seat's
    result is NEW's from then on; OLD keeps the games OLD finished.
    """,
)
@dataclass(frozen=True, slots=True)
class Replace:
    """`new` takes over `old`'s seat."""

    old: str
    new: str


ROSTER = (Join, Leave, Replace)  # every game's `Actions` lists these after its own


class Joined(NamedTuple):
    """A newcomer sat down after `after`, starting with `start` (berries, dice, lives, points)
    and paying `paid` into the pot."""

    player: str
    after: str
    start: int
    paid: int


class Left(NamedTuple):
    """A player left for good: out at this event."""

    player: str


class Replaced(NamedTuple):
    """`new` took over `old`'s seat, paying him `paid` (what `old` had put in)."""

    old: str
    new: str
    paid: int


def check_newcomer(
    people: Sequence[Named],
    name: str,
    nicknames: Sequence[str] = (),
    gone: Iterable[str] = (),
) -> str:
    """A newcomer's name: a name nobody at the table has (in any case), as `new` checks it, and
    not one who gave up his seat in this game (`gone`: his money would count twice)."""
    name = check_name(name)
    taken = {name_key(p.name) for p in people} | {name_key(n) for n in nicknames}
    if name_key(name) in taken:
        raise UsageError(f"{quote(name)} is already at the table: names must differ")
    if name_key(name) in {name_key(g) for g in gone}:
        raise RuleViolation(f"{quote(name)} gave up a seat in this game: no sitting again")
    return name


def seat_after(people: Sequence[Named], after: str | None) -> int:
    """Where a newcomer sits: the seat index after `after` (None: after the last seat)."""
    if after is None:
        return len(people)
    for i, person in enumerate(people):
        if person.name == after:
            return i + 1
    raise UsageError(f"unknown player {quote(after)}")


def table_full(game: str, seated: int) -> str | None:
    """Why a newcomer finds no seat: `the table is full (20 players)`, as `new` counts them
    (join took a 21st to a 45th player at Kariki and Mia); None while there is one."""
    from referee.games import info  # the registry says how many a game seats

    most = info(game).max_players
    return f"the table is full ({most} players)" if seated >= most else None


def refuse_join(who: str, why: str, late_join: LateJoin | None = None) -> RuleViolation:
    """A join refused, in the shape RULES 7 gives: `Dee cannot join: Bob is already out
    (late_join = until_first_out)`."""
    key = f" (late_join = {late_join.value})" if late_join is not None else ""
    return RuleViolation(f"{who} cannot join: {why}{key}")


def moved_turn(turn: int, inserted_at: int) -> int:
    """A seat index after a newcomer is seated at `inserted_at`: the seats from there move up."""
    return turn + 1 if turn >= inserted_at else turn
