"""Mia (Mäxchen), RULES.md section 6: announce higher or be lifted, lose lives, last one wins.

The referee never sees a roll: it follows what is said (each announcement must beat the
standing one), and what is shown when the mug is lifted. Every rule that tables vary is a
ruleset key (`lives`, `mia_costs`, `equal_allowed`, `doubles_order`, `next_starter`,
`direction`), and so are the house rules of section 6 (`mia_announced`, `pass_mia`), the stakes
and who may sit down late (section 7: every life lost pays `loss_value` as it is lost).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple, assert_never

from referee.errors import RuleViolation, UsageError, quote
from referee.games.actions import BY, DIRECTION, FIRST, Actions, New, Param, action
from referee.games.base import (
    Direction,
    Game,
    Outcome,
    PlayerInfo,
    Seating,
    Tallies,
    next_seat,
    on_turn,
    seat_of,
    seating,
)
from referee.games.mia.values import MIA, DoublesOrder, MiaValue, ladder
from referee.games.money import Purse, Stakes
from referee.games.roster import (
    ROSTER,
    Join,
    Joined,
    LateJoin,
    Leave,
    Left,
    Replace,
    Replaced,
    check_newcomer,
    moved_turn,
    refuse_join,
    seat_after,
    table_full,
)
from referee.ruleset import TableReader

MAX_LIVES = 20  # per player, in any ruleset: a night, not a season

# ---------------------------------------------------------------------------- rules


class NextStarter(Enum):
    """Who rolls first in the round after a challenge (`next_starter`)."""

    WINNER = "winner"
    LOSER = "loser"


class MiaAnnounced(Enum):
    """What announcing Mia does (`mia_announced`): the next player lifts it (or gives up), or
    the dice are shown at once and the round ends."""

    LIFT = "lift"
    ENDS_ROUND = "ends_round"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Mia ruleset key, with RULES.md's defaults."""

    lives: int = 6
    mia_costs: int = 2  # what a true Mia costs the player who lifted it
    equal_allowed: bool = False  # may an announcement equal the standing one?
    doubles_order: DoublesOrder = DoublesOrder.ASCENDING
    next_starter: NextStarter = NextStarter.WINNER
    direction: Direction = Direction.LEFT
    mia_announced: MiaAnnounced = MiaAnnounced.LIFT  # ends_round: a Mia is shown at once
    pass_mia: bool = False  # may the player facing a Mia pass it on unseen?
    stakes: Stakes = field(default_factory=Stakes)  # a life lost pays loss_value (RULES 7)
    late_join: LateJoin = LateJoin.UNTIL_FIRST_OUT

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        """Build rules from a ruleset table, reporting every problem at once."""
        r = TableReader(table, source)
        d = cls()
        rules = cls(
            lives=r.integer("lives", d.lives, minimum=1, maximum=MAX_LIVES),
            mia_costs=r.integer("mia_costs", d.mia_costs, minimum=1, maximum=MAX_LIVES),
            equal_allowed=r.flag("equal_allowed", d.equal_allowed),
            doubles_order=r.choice("doubles_order", DoublesOrder, d.doubles_order),
            next_starter=r.choice("next_starter", NextStarter, d.next_starter),
            direction=r.choice("direction", Direction, d.direction),
            mia_announced=r.choice("mia_announced", MiaAnnounced, d.mia_announced),
            pass_mia=r.flag("pass_mia", d.pass_mia),
            stakes=Stakes.read(r),
            late_join=LateJoin.read(r),
        )
        if rules.stakes.point_value:
            r.problems.append("point_value is for payout = per_point, Kalooki's only: leave it 0")
        r.finish()
        return rules


Options = Seating  # who acts first, and which way play goes


def options_from_table(
    table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Rules
) -> Options:
    """The options as stored, checked as strictly as typed ones."""
    return seating(table, players, "Mia", "first roller", rules.direction)


# ---------------------------------------------------------------------------- events


VALUE = Param(
    "value", "words", metavar="VALUE", help="High die first: 31 .. 65, 11 .. 66, mia.",
    parse=MiaValue.parse, required=True,
)  # fmt: skip
DICE = Param(
    "dice", "words", metavar="DICE", help="What the mug shows: 6-1, 61, 3 3, mia.",
    parse=MiaValue.parse, required=True,
)  # fmt: skip
SHOWN = Param(
    "shown", option="--shown", metavar="DICE", parse=MiaValue.parse,
    help="The dice shown with Mia (mia_announced = ends_round).",
)  # fmt: skip


@action(
    "announce",
    VALUE,
    BY,
    SHOWN,
    help="""Say what is under the mug.

    True or not, it must beat the standing value; said over a value, it also means you believed it.
    Where announcing Mia ends the round, the dice are shown at once: announce mia --shown 43.
    """,
)
@dataclass(frozen=True, slots=True)
class Announce:
    """The roller says a value. Typed by the player facing an announcement, it also means he
    believed it and rolled. `shown`: the dice shown with a Mia, when that ends the round."""

    by: str
    value: MiaValue
    shown: MiaValue | None = None


@action(
    "believe",
    BY,
    help="""Take the mug, roll higher.

    Take the mug without lifting it, roll, look, and announce higher (or just announce at once).
    """,
)
@dataclass(frozen=True, slots=True)
class Believe:
    """The player facing an announcement takes the mug without lifting it, to roll higher."""

    by: str


@action(
    "lift",
    DICE,
    BY,
    whole="the round",  # a life lost: never `l 43` by a slip
    help="""Lift the mug: dice shown.

    Below the announcement, the announcer loses a life; at least it, the lifter does (2 for Mia).
    """,
)
@dataclass(frozen=True, slots=True)
class Lift:
    """The player facing an announcement lifts the mug: `dice` are what it shows."""

    by: str
    dice: MiaValue


@action(
    "giveup",
    BY,
    help="""Give up to Mia: 1 life.

    Facing Mia, give up without looking: one life, where lifting a true Mia costs two.
    """,
    whole="the round",
)
@dataclass(frozen=True, slots=True)
class GiveUp:
    """Facing Mia, the player gives up without looking and loses one life."""

    by: str


@action(
    "pass",
    BY,
    help="""Pass the Mia on unseen.

    Facing Mia (pass_mia), pass it on without looking: yours now, the next player faces it.
    """,
)
@dataclass(frozen=True, slots=True)
class Pass:
    """Facing Mia, the player passes it on unseen (as his own Mia) to the next player."""

    by: str


Event = Announce | Believe | Lift | GiveUp | Pass | Join | Leave | Replace
ACTIONS = Actions("Mia", Announce, Believe, Lift, GiveUp, Pass, *ROSTER)

# ---------------------------------------------------------------------------- rulings


class Started(NamedTuple):
    """The table is seated: who rolls first, which way play goes, the lives each."""

    first: str
    direction: Direction
    lives: int


class Announced(NamedTuple):
    """A value is said; `over` is the value it had to beat (None: a round's first)."""

    by: str
    value: MiaValue
    over: MiaValue | None


class Believed(NamedTuple):
    """A player takes the mug over `announcer`'s `value`, to roll and announce higher."""

    by: str
    announcer: str
    value: MiaValue


class Lifted(NamedTuple):
    """The mug is lifted: `dice` shown against the announcement; `true` if they reach it."""

    by: str
    announcer: str
    value: MiaValue
    dice: MiaValue
    true: bool


class GaveUp(NamedTuple):
    """A player gave up against a Mia without looking."""

    by: str
    announcer: str


class MiaShown(NamedTuple):
    """A Mia announced with the dice shown at once (`mia_announced = ends_round`)."""

    by: str
    dice: MiaValue
    true: bool


class Passed(NamedTuple):
    """A player facing Mia passed it on unseen: `to` faces it now; `last`: he may not pass."""

    by: str
    to: str
    last: bool


class LostLives(NamedTuple):
    """A player loses `lost` lives (`left` remain)."""

    player: str
    lost: int
    left: int


class WentOut(NamedTuple):
    """A player has no lives left."""

    player: str


class RoundStarts(NamedTuple):
    """A new round: `starter` rolls fresh and may announce anything."""

    number: int
    starter: str


class Won(NamedTuple):
    """The last player with lives."""

    player: str


class RoundVoid(NamedTuple):
    """A round ended by a player leaving while a value stood: nobody loses a life."""

    number: int


Fact = (
    Started
    | Announced
    | Believed
    | Lifted
    | GaveUp
    | MiaShown
    | Passed
    | LostLives
    | WentOut
    | RoundStarts
    | Won
    | RoundVoid
    | Joined
    | Left
    | Replaced
)

# ---------------------------------------------------------------------------- state


class Phase(Enum):
    """What the player on turn does now."""

    OPEN = "open"  # rolls fresh and announces any value
    ANSWER = "answer"  # believes (announcing higher), lifts, or gives up against Mia
    ROLL = "roll"  # believed: rolls and announces higher than the standing value
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Seat:
    """One player and the lives he has left."""

    name: str
    nickname: str | None = None
    lives: int = 0


@dataclass(frozen=True, slots=True)
class State:
    """The table after some events."""

    rules: Rules
    seats: tuple[Seat, ...]
    direction: Direction
    turn: int
    phase: Phase = Phase.OPEN
    round: int = 1
    standing: MiaValue | None = None  # the value to beat
    announcer: int | None = None  # who said it
    out: tuple[str, ...] = ()  # who went out, first out first
    out_at: tuple[int, ...] = ()  # the event each of `out` went out at (one event: one place)
    mia_from: int | None = None  # who first announced a Mia that was passed on (`pass_mia`)
    purse: Purse = field(default_factory=Purse)  # what each has paid in: stakes, lives lost
    gone: tuple[str, ...] = ()  # who gave his seat to a taker-over: his money here is settled
    ruling: tuple[Fact, ...] = ()
    events: int = 0

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still holding lives."""
        return tuple(i for i, s in enumerate(self.seats) if s.lives > 0)

    @property
    def is_over(self) -> bool:
        """True once one player is left with lives."""
        return len(self.active) <= 1

    @property
    def winner(self) -> str | None:
        """The last player with lives."""
        return self.seats[self.active[0]].name if self.is_over and self.active else None

    def name(self, i: int) -> str:
        """The name of the player in seat `i`."""
        return self.seats[i].name

    def next_active(self, i: int) -> int:
        """The next player with lives after seat `i`, in the direction of play."""
        return next_seat(i, len(self.seats), self.direction, lambda j: self.seats[j].lives > 0)


# ---------------------------------------------------------------------------- values


def beats(value: MiaValue, standing: MiaValue | None, rules: Rules) -> bool:
    """Whether `value` may be announced over `standing` (anything opens a round)."""
    if standing is None:
        return True
    mine, theirs = value.rank(rules.doubles_order), standing.rank(rules.doubles_order)
    return mine > theirs or (rules.equal_allowed and mine == theirs)


def announceable(state: State) -> tuple[MiaValue, ...]:
    """The values the player on turn may announce now, lowest first."""
    if state.phase is Phase.OVER or (state.phase is Phase.ANSWER and _facing_mia(state)):
        return ()
    return tuple(v for v in ladder(state.rules.doubles_order)
                 if beats(v, state.standing, state.rules))  # fmt: skip


def _facing_mia(state: State) -> bool:
    return state.standing is not None and state.standing.is_mia


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    """Everyone has `lives`; `first` rolls first."""
    seats = tuple(Seat(p.name, p.nickname, rules.lives) for p in players)
    first = [p.name for p in players].index(options.first)
    facts = (Started(options.first, options.direction, rules.lives),)
    purse = Purse.start(rules.stakes, [p.name for p in players])
    return State(rules, seats, options.direction, turn=first, purse=purse, ruling=facts)


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if state.is_over:
        raise RuleViolation(f"the game is over: {state.winner} won")
    match event:
        case Announce(by=by, value=value, shown=shown):
            return _announce(state, _actor(state, by), value, shown)
        case Believe(by=by):
            return _believe(state, _actor(state, by))
        case Lift(by=by, dice=dice):
            return _lift(state, _answerer(state, by, "lift"), dice)
        case GiveUp(by=by):
            return _give_up(state, _answerer(state, by, "give up"))
        case Pass(by=by):
            return _pass(state, _actor(state, by))
        case Join(name=name, after=after):
            return _join(state, name, after)
        case Leave(player=player):
            return _leave(state, player)
        case Replace(old=old, new=new):
            return _replace(state, old, new)
        case _:
            assert_never(event)


def _actor(state: State, by: str) -> int:
    out = "has no lives left: out of the game"
    return on_turn(
        state.seats, state.turn, by, lambda i: out if state.seats[i].lives == 0 else None
    )


def _answerer(state: State, by: str, verb: str) -> int:
    """The player facing an announcement, who may lift it (or give up against Mia)."""
    i = _actor(state, by)
    if state.phase is Phase.OPEN:
        raise RuleViolation(f"there is nothing to {verb}: {by} rolls and announces first")
    if state.phase is Phase.ROLL:
        raise RuleViolation(f"{by} believed {state.standing}: {by} rolls and announces higher")
    return i


def _believed(state: State, i: int) -> Believed:
    if _facing_mia(state):
        also = ", give up (1 life) or pass it on" if may_pass(state) else ", or give up (1 life)"
        raise RuleViolation(f"nothing beats Mia: lift the mug{also}")
    assert state.standing is not None and state.announcer is not None  # the ANSWER phase
    return Believed(state.name(i), state.name(state.announcer), state.standing)


def _announce(state: State, i: int, value: MiaValue, shown: MiaValue | None) -> State:
    facts: list[Fact] = []
    if state.phase is Phase.ANSWER:  # announcing over a value means he believed it
        facts.append(_believed(state, i))
    if not beats(value, state.standing, state.rules):
        lowest = announceable(state)[0]
        need = f"be {lowest}" if state.rules.equal_allowed else f"beat {state.standing}: {lowest}"
        raise RuleViolation(f"announcement {quote(str(value))} must {need} or more")
    facts.append(Announced(state.name(i), value, state.standing))
    by, ends = state.name(i), state.rules.mia_announced is MiaAnnounced.ENDS_ROUND
    if shown is not None and not ends:
        raise RuleViolation(
            f"{by} cannot show the dice: the next player lifts a Mia or gives up"
            " (mia_announced = lift)"
        )
    if shown is not None and not value.is_mia:
        raise RuleViolation(
            f"{by} cannot show the dice of {value}: only a Mia is shown at once"
            " (mia_announced = ends_round)"
        )
    if ends and value.is_mia:
        if shown is None:
            raise RuleViolation(
                f"{by} cannot announce Mia unseen: announcing Mia shows the dice, give them"
                " with --shown (mia_announced = ends_round)"
            )
        return _mia_shown(state, i, shown, facts)
    return replace(
        state,
        phase=Phase.ANSWER,
        standing=value,
        announcer=i,
        turn=state.next_active(i),
        ruling=tuple(facts),
        events=state.events + 1,
    )


def _believe(state: State, i: int) -> State:
    if state.phase is not Phase.ANSWER:
        raise RuleViolation(f"there is nothing to believe: {state.name(i)} rolls and announces")
    return replace(state, phase=Phase.ROLL, ruling=(_believed(state, i),), events=state.events + 1)


def _mia_shown(state: State, i: int, dice: MiaValue, facts: list[Fact]) -> State:
    """`mia_announced = ends_round`: the Mia is shown at once. A true one costs every other
    player still in a life; a false one costs the announcer `mia_costs`. The player who would
    have faced it counts as the other side of the challenge (the loser of a true Mia, the winner
    of a false one) for `next_starter`."""
    true = dice.is_mia
    facts.append(MiaShown(state.name(i), dice, true))
    facing = state.next_active(i)
    if true:
        others = [j for j in _round_from(state, facing) if j != i]
        return _settle(state, facts, [(j, 1) for j in others], winner=i, loser=facing)
    return _settle(state, facts, [(i, state.rules.mia_costs)], winner=facing, loser=i)


def _round_from(state: State, first: int) -> list[int]:
    """The players still in, in the direction of play, starting with `first`."""
    seats = [first]
    while (j := state.next_active(seats[-1])) != first:
        seats.append(j)
    return seats


def _pass(state: State, i: int) -> State:
    """`pass_mia`: the Mia goes on unseen, as the passer's own; round the table once, so the
    player who first announced it, when it comes back to him, must lift or give up."""
    by = state.name(i)
    if not state.rules.pass_mia:
        raise RuleViolation(f"{by} cannot pass: this table does not pass a Mia (pass_mia = false)")
    if state.phase is not Phase.ANSWER or not _facing_mia(state):
        facing = "rolls and announces" if state.standing is None else f"faces {state.standing}"
        if state.phase is Phase.ROLL:
            facing = f"believed {state.standing}"
        raise RuleViolation(f"{by} cannot pass: only a Mia is passed on, and {by} {facing}")
    assert state.announcer is not None  # the ANSWER phase
    origin = state.announcer if state.mia_from is None else state.mia_from
    if i == origin:
        raise RuleViolation(
            f"{by} cannot pass: the Mia has gone round once (pass_mia), lift or give up"
        )
    to = state.next_active(i)
    return replace(
        state,
        announcer=i,
        mia_from=origin,
        turn=to,
        ruling=(Passed(by, state.name(to), to == origin),),
        events=state.events + 1,
    )


def _lift(state: State, i: int, dice: MiaValue) -> State:
    assert state.standing is not None and state.announcer is not None  # the ANSWER phase
    value, announcer = state.standing, state.announcer
    true = dice.rank(state.rules.doubles_order) >= value.rank(state.rules.doubles_order)
    lifted = Lifted(state.name(i), state.name(announcer), value, dice, true)
    if true:  # the lifter pays, and a true Mia costs him more
        cost = state.rules.mia_costs if value.is_mia else 1
        return _settle(state, [lifted], [(i, cost)], winner=announcer)
    return _settle(state, [lifted], [(announcer, 1)], winner=i)


def _give_up(state: State, i: int) -> State:
    assert state.announcer is not None  # the ANSWER phase
    if not _facing_mia(state):
        raise RuleViolation(
            f"give up only against Mia: believe {state.standing} (announce higher) or lift"
        )
    facts: list[Fact] = [GaveUp(state.name(i), state.name(state.announcer))]
    return _settle(state, facts, [(i, 1)], winner=state.announcer)


def _settle(
    state: State,
    facts: list[Fact],
    losses: Sequence[tuple[int, int]],
    winner: int,
    loser: int | None = None,
) -> State:
    """The challenge is decided: each loser pays what he lost (in turn order; players out at
    this one event share a place), and the next round starts (or the game ends). `loser`, for
    `next_starter`, is the first of them unless said."""
    seats = list(state.seats)
    out, out_at, purse = state.out, state.out_at, state.purse
    for seat, lost in losses:
        left = max(0, seats[seat].lives - lost)
        taken = seats[seat].lives - left
        seats[seat] = replace(seats[seat], lives=left)
        purse = purse.lose(state.name(seat), taken)  # each life pays as it is lost
        facts.append(LostLives(state.name(seat), taken, left))
        if left == 0:
            facts.append(WentOut(state.name(seat)))
            out, out_at = (*out, state.name(seat)), (*out_at, state.events + 1)
    loser = losses[0][0] if loser is None else loser
    after = replace(
        state,
        seats=tuple(seats),
        standing=None,
        announcer=None,
        mia_from=None,
        out=out,
        out_at=out_at,
        purse=purse,
        events=state.events + 1,
    )
    if after.is_over:
        facts.append(Won(after.winner or ""))
        return replace(after, phase=Phase.OVER, ruling=tuple(facts))
    starter = winner if state.rules.next_starter is NextStarter.WINNER else loser
    if after.seats[starter].lives == 0:  # an out player is skipped
        starter = after.next_active(starter)
    facts.append(RoundStarts(state.round + 1, after.name(starter)))
    return replace(
        after, phase=Phase.OPEN, turn=starter, round=state.round + 1, ruling=tuple(facts)
    )


# ---------------------------------------------------------------------------- who comes and goes
# RULES.md section 7: a newcomer sits down between rounds, while nobody is out, with the lives
# of the player still in with the fewest; a leaver is out at once (a value standing makes the
# round void); a taker-over plays on in the seat he took, lives and all.


def join_refusal(state: State, who: str) -> RuleViolation | None:
    """Why `who` may not sit down now, or None: only between rounds (nobody has announced,
    nobody has believed and rolls), and only while nobody is out (`late_join`)."""
    late_join = state.rules.late_join
    if late_join is LateJoin.NEVER:
        return refuse_join(who, "this table takes nobody once it has begun", late_join)
    if state.out:
        return refuse_join(who, f"{state.out[0]} is already out", late_join)
    if state.phase is Phase.ROLL:
        why = f"{state.name(state.turn)} believed {state.standing} and rolls"
        return refuse_join(who, f"{why}: join between rounds")
    if state.standing is not None and state.announcer is not None:
        why = f"{state.name(state.announcer)}'s {state.standing} stands"
        return refuse_join(who, f"{why}: join between rounds")
    full = table_full("mia", len(state.seats))
    return None if full is None else refuse_join(who, full)


def _newcomer(state: State, name: str) -> str:
    """A newcomer's name: nobody's at the table (name or nickname, in any case), nor that of
    someone who gave his seat up in this game (his money for it is settled)."""
    nicknames = [s.nickname for s in state.seats if s.nickname]
    name = check_newcomer(state.seats, name, nicknames)
    if name.casefold() in {gone.casefold() for gone in state.gone}:
        raise UsageError(f"{quote(name)} gave up a seat in this game: no sitting again")
    return name


def _join(state: State, name: str, after: str | None) -> State:
    """`name` sits after `after` (the last seat when None) with the fewest lives of anyone
    still in, and pays the stake; seated where the turn has not reached, he plays this round."""
    refused = join_refusal(state, name)
    if refused is not None:
        raise refused
    name = _newcomer(state, name)
    at = seat_after(state.seats, after)
    lives = min(state.seats[i].lives for i in state.active)
    purse = state.purse.join(name)
    joined = Joined(name, state.name(at - 1), lives, purse.pot - state.purse.pot)
    return replace(
        state,
        seats=(*state.seats[:at], Seat(name, None, lives), *state.seats[at:]),
        turn=moved_turn(state.turn, at),  # between rounds: no announcer, no Mia passed on
        purse=purse,
        ruling=(joined,),
        events=state.events + 1,
    )


def _leave(state: State, player: str) -> State:
    """`player` is out at this event, his money left in the pot. A value standing (announced,
    or believed and being rolled over) makes the round void: nobody loses a life, and the
    player who was to act starts a fresh round (the next still in, if that was the leaver).
    On turn between rounds, the leaver hands the roll on; one player left wins."""
    i = seat_of(state.seats, player)
    if state.seats[i].lives == 0:
        raise RuleViolation(f"{player} cannot leave: {player} is out already")
    seats = list(state.seats)
    seats[i] = replace(seats[i], lives=0)
    after = replace(
        state,
        seats=tuple(seats),
        out=(*state.out, player),
        out_at=(*state.out_at, state.events + 1),
        events=state.events + 1,
    )
    facts: list[Fact] = [Left(player)]
    if after.is_over:
        facts.append(Won(after.winner or ""))
        return replace(
            after,
            phase=Phase.OVER,
            standing=None,
            announcer=None,
            mia_from=None,
            ruling=tuple(facts),
        )
    starter = state.turn if state.turn != i else after.next_active(i)
    if state.standing is None:  # between rounds: only a leaver on turn moves it
        if starter != state.turn:
            facts.append(RoundStarts(state.round, after.name(starter)))
        return replace(after, turn=starter, ruling=tuple(facts))
    facts += [RoundVoid(state.round), RoundStarts(state.round + 1, after.name(starter))]
    return replace(
        after,
        phase=Phase.OPEN,
        turn=starter,
        round=state.round + 1,
        standing=None,
        announcer=None,
        mia_from=None,
        ruling=tuple(facts),
    )


def _replace(state: State, old: str, new: str) -> State:
    """`new` takes `old`'s seat as it stands (lives, turn, a value he said or faces) and pays
    him what he had paid for it; `old` is no longer at the table. Refused for a player out:
    there is nothing to take over."""
    i = seat_of(state.seats, old)
    if state.seats[i].lives == 0:
        raise RuleViolation(f"{new} cannot take {old}'s seat: {old} is out, nothing to take over")
    new = _newcomer(state, new)
    seats = list(state.seats)
    seats[i] = Seat(new, None, seats[i].lives)
    return replace(
        state,
        seats=tuple(seats),
        purse=state.purse.take_over(old, new),
        gone=(*state.gone, old),
        ruling=(Replaced(old, new, state.purse.seat_paid(old)),),
        events=state.events + 1,
    )


# ---------------------------------------------------------------------------- the contract


def legal_actions(state: State) -> tuple[str, ...]:
    """Announce when rolling; believe (or announce over it), lift, or give up against Mia;
    join between rounds while nobody is out; leave and replace while the game is on."""
    if state.phase is Phase.OVER:
        return ()
    joining = ("join",) if join_refusal(state, "") is None else ()
    return (*_moves(state), *joining, "leave", "replace")


def _moves(state: State) -> tuple[str, ...]:
    """The game's own actions open now."""
    match state.phase:
        case Phase.OVER:
            return ()
        case Phase.OPEN | Phase.ROLL:
            return ("announce",)
        case Phase.ANSWER:
            if not _facing_mia(state):
                return ("believe", "lift", "announce")
            return ("lift", "giveup", "pass") if may_pass(state) else ("lift", "giveup")
        case _:
            assert_never(state.phase)


def may_pass(state: State) -> bool:
    """Whether the player on turn may pass the Mia he faces on (`pass_mia`): not once it has
    gone round the table back to the player who first announced it."""
    if not (state.rules.pass_mia and state.phase is Phase.ANSWER and _facing_mia(state)):
        return False
    return state.mia_from is None or state.turn != state.mia_from


def outcome(state: State) -> Outcome:
    """Finished when one player has lives; standings by lives, then the last out first (players
    out at one event share a place)."""
    playing = sorted(state.active, key=lambda i: -state.seats[i].lives)
    standings = (*(state.name(i) for i in playing), *reversed(state.out))
    if not state.is_over:
        return Outcome(False, (), standings)
    at = tuple(reversed(state.out_at))
    places: tuple[int, ...] = ()
    if len(set(at)) < len(at):  # some share one: 1, 2, 2, 4
        ranked = [1]
        for n in range(len(at)):
            ranked.append(ranked[-1] if n and at[n] == at[n - 1] else len(ranked) + 1)
        places = tuple(ranked)
    return Outcome(True, (state.winner or "",), standings, places=places)


def turn(state: State) -> str | None:
    """Who acts next, or None."""
    return None if state.is_over else state.name(state.turn)


def json_value(value: object) -> object | None:
    """This game's own values in rulings, as JSON (None: not one of them)."""
    return str(value) if isinstance(value, MiaValue) else None


def summary(state: State) -> dict[str, object]:
    """The documented `show --json` document for a Mia table."""
    announcer = state.name(state.announcer) if state.announcer is not None else None
    return {
        "game": "mia",
        "players": [
            {"name": s.name, "nickname": s.nickname, "lives": s.lives, "out": s.lives == 0}
            for s in state.seats
        ],
        "turn": turn(state),
        "phase": state.phase.value,
        "standing": (
            {"value": str(state.standing), "announcer": announcer}
            if state.standing is not None
            else None
        ),
        "direction": state.direction.value,
        "round": state.round,
        "winner": state.winner,
        "events": state.events,
    }


def scores(state: State) -> dict[str, int]:
    """Each player's lives left."""
    return {s.name: s.lives for s in state.seats}


def tally(states: Sequence[State]) -> dict[str, dict[str, int]]:
    """Announcements, Mias said, beliefs, lifts won and lost, lies caught, give-ups, lives lost."""
    found = Tallies()
    add = found.add
    for state in states:
        for fact in state.ruling:
            match fact:
                case Announced(by=by, value=value):
                    add(by, "announcements")
                    if value == MIA:
                        add(by, "announced Mia")
                case Believed(by=by):
                    add(by, "believed")
                case Lifted(by=by, announcer=announcer, true=true):
                    add(by, "lifts lost" if true else "lifts won")
                    if not true:
                        add(announcer, "lies caught")
                case GaveUp(by=by):
                    add(by, "gave up")
                case MiaShown(by=by, true=true):
                    if not true:
                        add(by, "lies caught")
                case Passed(by=by):
                    add(by, "passed Mia")
                case LostLives(player=player, lost=lost):
                    add(player, "lives lost", lost)
    return found.counts


NEW = New(
    help="""A Mia (Mäxchen) table.

    2 to 20 players in seat order, 6 lives each (the ruleset's `lives`).
    """,
    options=(FIRST, DIRECTION),
)


GAME: Game[Rules, Options, State, Event] = Game(
    state_type=State,
    events=Event,
    rules_from_table=Rules.from_table,
    options_from_table=options_from_table,
    start=start,
    apply=apply,
    turn=turn,
    legal_actions=legal_actions,
    outcome=outcome,
    actions=ACTIONS,
    new=NEW,
    ruling=lambda state: state.ruling,
    json_value=json_value,
    summary=summary,
    scores=scores,
    tally=tally,
    seats=lambda state: tuple(PlayerInfo(s.name, s.nickname) for s in state.seats),
    purse=lambda state: state.purse,
)
