"""Kariki: the Mia-family bluffing game of RULES.md section 2, as a pure rules engine.

`start()` seats the table, `apply(state, event)` returns the next state or raises
`RuleViolation`; a session's state is always the replay of its events. Each state carries its
ruling as typed facts (`Fact`), which `referee.games.kariki.card.words` puts into words. No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, NamedTuple, TypeGuard, assert_never

from referee.errors import RuleViolation, UsageError, quote
from referee.games.actions import BY, DIRECTION, FIRST, Actions, New, Param, Table, action
from referee.games.base import (
    Direction as Direction,  # re-exported: the game's options and states use it
)
from referee.games.base import (
    Game,
    Outcome,
    PlayerInfo,
    Tallies,
    checked_number,
    next_seat,
    on_turn,
    seat_of,
    seating,
    turn_order,
)
from referee.games.money import Purse, Stakes, Standing, cents, result
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
from referee.notation.dice import KARIKI as LADDER
from referee.notation.dice import Rank, Roll, parse_rank
from referee.ruleset import LIST_MAX, TableReader
from referee.text import pick

# Bounds no real table reaches, so that no typed or hand-edited number can stall a command.
MAX_SLASHES = 99  # slashes in one event
MAX_SECONDS = 3600  # a die an hour on the ground
DEFAULT_STAKES = Stakes(stake=100)  # RULES 2: a buy-in of 1

# ---------------------------------------------------------------------------- rules


class Starter(Enum):
    """Who rolls fresh after a Kariki is shown (`after_kariki_starter`)."""

    ROLLER = "roller"
    VICTIM = "victim"


class Raise(Enum):
    """How a claim after taking over the mug must compare with the standing one (`raise`)."""

    MATCH_OR_BEAT = "match_or_beat"
    STRICT = "strict"


class Truth(Enum):
    """When a pulled claim counts as true (`truth`)."""

    AT_LEAST = "at_least"
    EXACT = "exact"


class IllegalClaim(Enum):
    """What an illegal claim costs (`illegal_claim`): refused, or refused plus a berry."""

    REJECT = "reject"
    BERRY = "berry"


@dataclass(frozen=True, slots=True)
class SlashRule:
    """A named table rule whose breaking earns slashes."""

    name: str
    text: str
    seconds_per_slash: int | None = None  # e.g. dropped dice: a slash per started 10 seconds


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Kariki ruleset key, with RULES.md's defaults (the stake is `buy_in`, 1)."""

    stakes: Stakes = DEFAULT_STAKES
    after_kariki_starter: Starter = Starter.ROLLER
    raise_rule: Raise = Raise.MATCH_OR_BEAT
    truth: Truth = Truth.AT_LEAST
    slashes_per_berry: int = 3
    crown_threshold: int = 3
    crown_hits_roller: bool = False
    berry_limit: int = 5
    buyback: bool = True
    illegal_claim: IllegalClaim = IllegalClaim.REJECT
    slash_rules: tuple[SlashRule, ...] = ()
    late_join: LateJoin = LateJoin.UNTIL_FIRST_OUT

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        """Build rules from a ruleset table, reporting every problem at once."""
        # A ruleset that leaves the buy-in out plays for RULES' 1, not for nothing.
        r = TableReader({"buy_in": 1, **table}, source)
        d = cls()
        rules = cls(
            stakes=Stakes.read(r, stake_key="buy_in"),
            after_kariki_starter=r.choice("after_kariki_starter", Starter, d.after_kariki_starter),
            raise_rule=r.choice("raise", Raise, d.raise_rule),
            truth=r.choice("truth", Truth, d.truth),
            slashes_per_berry=r.integer("slashes_per_berry", d.slashes_per_berry, minimum=1),
            crown_threshold=r.integer("crown_threshold", d.crown_threshold, minimum=1),
            crown_hits_roller=r.flag("crown_hits_roller", d.crown_hits_roller),
            berry_limit=r.integer("berry_limit", d.berry_limit, minimum=1),
            buyback=r.flag("buyback", d.buyback),
            illegal_claim=r.choice("illegal_claim", IllegalClaim, d.illegal_claim),
            slash_rules=_slash_rules(r),
            late_join=LateJoin.read(r),
        )
        r.finish()
        return rules

    def slash_rule(self, text: str) -> SlashRule:
        """The slash rule named `text` (a unique prefix is enough)."""
        return pick(text, [(s.name, s) for s in self.slash_rules], "slash rule")


_SLASH_RULE_RE = re.compile(r"[a-z][a-z0-9_-]{0,15}", re.ASCII)


def _slash_rules(r: TableReader) -> tuple[SlashRule, ...]:
    rules = []
    table = r.subtable("slash_rules")
    if len(table) > LIST_MAX:
        r.problems.append(f"slash_rules may name at most {LIST_MAX} rules")
        return ()
    for name, body in table.items():
        if not _SLASH_RULE_RE.fullmatch(name):
            r.problems.append(
                f"slash rule {name!r:.24} needs a short lower-case name, like drop or seat"
            )
            continue
        sub = TableReader(body if isinstance(body, Mapping) else {}, f"slash_rules.{name}")
        text = sub.text("text", "")
        # At least 1 when given (0 would make every second a slash); left out: counted rule.
        timed = isinstance(body, Mapping) and "seconds_per_slash" in body
        seconds = sub.integer("seconds_per_slash", 1 if timed else 0, minimum=int(timed),
                              maximum=MAX_SECONDS)  # fmt: skip
        if not isinstance(body, Mapping) or not text:
            sub.problems.append('it needs text = "..."')
        r.problems += [f"slash_rules.{name}: {p}" for p in sub.all_problems()]
        rules.append(SlashRule(name, text, seconds or None))
    return tuple(rules)


# ---------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options:
    """What `referee new kariki` sets: who won the roll-off, the direction, the buy-in (cents)."""

    first: str
    direction: Direction = Direction.LEFT
    buy_in: int = 100


def options_from_table(
    table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Rules
) -> Options:
    """The options as stored, checked as strictly as typed ones."""
    seated = seating(table, players, "Kariki", "first roller", Direction.LEFT, also=("buy_in",))
    value = table.get("buy_in")
    buy_in = rules.stakes.stake if value is None else buy_in_cents(value)
    return Options(seated.first, seated.direction, buy_in)


def buy_in_cents(value: object) -> int:
    """`--buy-in` as stored, in cents: an amount as typed (`"1.50"`), or a whole number of
    units as files before cents kept it (`buy_in = 2` is 2, not 2 cents).

    >>> buy_in_cents(2), buy_in_cents("1.50"), buy_in_cents("0")
    (200, 150, 0)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return cents(str(value), "the buy-in")
    return cents(value, "the buy-in")


# ---------------------------------------------------------------------------- events


RANK = Param(
    "rank", "words", metavar="RANK", help="9, nine, 4-5, 66, boxcars, pair of kings ...",
    parse=parse_rank, show=LADDER.name, needs="a rank, like claim 9 or claim 1-1",
)  # fmt: skip
DICE = Param(
    "dice", "words", metavar="DICE", help="The dice under the mug: 4-5, 45 or 4 5.",
    parse=Roll.parse, needs="the dice under the mug, like pull 4-5",
    takes=(2, "two dice, like 4-5"),
)  # fmt: skip


@action(
    "claim",
    RANK,
    BY,
    help="""Claim a rank.

    Typed by the player facing a claim, it also means that player took the mug and rolled.
    """,
)
@dataclass(frozen=True, slots=True)
class Claim:
    """The roller claims a rank (typed by the responder, it also means he took the mug)."""

    by: str
    rank: Rank


@action(
    "kariki",
    BY,
    help="""Show a rolled 1-2.

    A crown for the roller and a berry for the next player (typed by the player facing a
    claim: that player took the mug first).
    """,
)
@dataclass(frozen=True, slots=True)
class ShowKariki:
    """The roller lifts the mug on a 1-2 (typed by the responder: he took the mug first)."""

    by: str


@action(
    "roll",
    BY,
    help="""Take the mug and roll.

    Without looking under it: the new claim must match or beat the one standing.
    """,
)
@dataclass(frozen=True, slots=True)
class TakeMug:
    """The responder takes the mug without looking and becomes the roller."""

    by: str


@action(
    "pull",
    DICE,
    BY,
    help="""Lift the mug on a claim.

    Type the dice it shows: a lie is a berry for whoever answers for the claim, the truth a
    berry for the puller.
    """,
)
@dataclass(frozen=True, slots=True)
class Pull:
    """The responder lifts the mug; `dice` are what it showed."""

    by: str
    dice: Roll


@action(
    "pass",
    BY,
    help="""Pass the claim on.

    Accept it as your own roll: you answer for it, and the next player chooses.
    """,
)
@dataclass(frozen=True, slots=True)
class Pass:
    """The responder accepts the claim as his own and hands the choice on."""

    by: str


def _count_word(rule: str | None) -> TypeGuard[str]:
    """Whether slash's second word is a count (`slash bob 3`: three slashes), not a rule."""
    return rule is not None and rule.isascii() and rule.isdigit()


def _check_slash(typed: Mapping[str, Any]) -> None:
    """`slash bob 3 4`: a count where the rule goes leaves no place for an amount."""
    who, rule, amount = typed["player"], typed["rule"], typed["amount"]
    if _count_word(rule) and amount is not None:
        said = quote(f"slash {who} {rule} {amount}", 40)
        like = "like slash bob drop 25 or slash bob 3"
        raise UsageError(f"{said}: {rule[:12]} is a count, not a rule; {like}")


def _build_slash(typed: Mapping[str, Any], state: State, table: Table) -> Slash:
    """The amount typed as a word is seconds for a timed rule (drop), else a count."""
    rule: str | None = typed["rule"]
    amount: int | None = typed["amount"]
    if _count_word(rule):  # more digits than any table needs: not parsed
        amount = int(rule) if len(rule) <= 12 else 10**12
        rule = None
    found = state.rules.slash_rule(rule) if rule else None
    seconds, count = typed["seconds"], typed["count"]
    if amount is not None:
        if seconds is not None or count is not None:
            option = "--seconds" if seconds is not None else "--count"
            given = f"{amount} and {option} {seconds if seconds is not None else count}"
            raise UsageError(f"two amounts ({given}): give one")
        if found is not None and found.seconds_per_slash is not None:
            seconds = amount
        else:
            count = amount
    rule_name = found.name if found else None
    return Slash(table.player(typed["player"]), rule_name, seconds, count)


@action(
    "slash",
    Param(
        "player", metavar="PLAYER", help="Who broke a table rule.", player=True,
        needs="who broke a rule, like slash bob drop 25 or slash bob 3",
    ),
    Param(
        "rule", metavar="RULE",
        help="drop, mug, seat, language, alcohol ... (or a count: slash bob 3)",
    ),
    Param(
        "amount", "number", metavar="N", help="Seconds on the ground for drop, else a count."
    ),  # typed only: seconds or a count, by the rule
    Param(
        "seconds", "number", "--seconds", metavar="S", help="Dropped dice: seconds on the ground."
    ),
    Param("count", "number", "--count", metavar="N", help="How many slashes."),
    help="""Slashes for a broken rule.

    For breaking a table rule (the ruleset names them); every 3 slashes make a berry.
    """,
    check=_check_slash,
    build=_build_slash,
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class Slash:
    """A table rule was broken: `count` slashes, or one per started period of `seconds`."""

    player: str
    rule: str | None = None
    seconds: int | None = None
    count: int | None = None


def _build_buyback(typed: Mapping[str, Any], state: State, table: Table) -> BuyBack:
    """`buyback` alone: the one player on offer."""
    if typed["player"] is not None:
        return BuyBack(table.player(typed["player"]))
    offered = [state.name(i) for i in state.buyback_open]
    if len(offered) == 1:
        return BuyBack(offered[0])
    if not offered:
        raise RuleViolation("no buy-back is on offer: only a player who just went out buys back")
    raise UsageError(f"buyback needs the player: {' or '.join(offered)}")


@action(
    "buyback",
    Param(
        "player", metavar="PLAYER", player=True,
        help="A player who just went out (the only one on offer if not given).",
    ),
    help="""Buy back in for the pot.

    A player who just went out pays the pot (so it doubles) and returns with one berry less.
    """,
    build=_build_buyback,
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class BuyBack:
    """A player who just went out pays the pot to come back with one berry less."""

    player: str


def _way(text: str) -> str:
    """`--direction` as typed: left or right (as `new` takes it), else `UsageError`."""
    way = text.strip().lower()
    if way not in ("left", "right"):
        raise UsageError(f"unknown direction {quote(text)}: use left or right")
    return way


@action(
    "seat",
    FIRST._replace(help="Who rolls first instead."),
    DIRECTION._replace(help="Which way play goes instead: left or right.", parse=_way),
    help="""Fix the seating.

    Who rolls first (--first) and which way play goes (--direction), as new set them, put
    right while no claim has been made yet.
    """,
)
@dataclass(frozen=True, slots=True)
class Reseat:
    """The seating as `new` set it, corrected before the first claim."""

    first: str | None = None
    direction: str | None = None


@action(
    "settle",
    help="""End the night.

    When one player stands and a buy-back is still on offer: nobody else buys back, the
    offers close, and the last player standing takes the pot.
    """,
    whole="the night",
)
@dataclass(frozen=True, slots=True)
class Settle:
    """The night ends: nobody else buys back, and the last player standing takes the pot."""


Event = (
    Claim | ShowKariki | TakeMug | Pull | Pass | Slash | BuyBack | Reseat | Settle | Join | Leave
    | Replace
)  # fmt: skip
ACTIONS = Actions(
    "Kariki", Claim, ShowKariki, TakeMug, Pull, Pass, Slash, BuyBack, Reseat, Settle, *ROSTER
)

# ---------------------------------------------------------------------------- rulings
# What an event did, as data. `referee.games.kariki.words` words these; `log --json`, exports
# and stats read them as they are. Facts are NamedTuples rather than dataclasses because a
# dataclass costs half a millisecond to create at import, and every Kariki command imports this.


class Cause(Enum):
    """Why a berry was hung: the card draws each cause differently."""

    LIE = "lie"
    FALSE_ACCUSATION = "false accusation"
    SLASHES = "slashes"
    KARIKI = "kariki"
    CROWNS = "crowns"
    ILLEGAL_CLAIM = "illegal claim"
    JOINED = "joined"  # a newcomer starts with as many berries as the player with the most


class Started(NamedTuple):
    """The table is seated: who rolls first, which way play goes."""

    first: str
    direction: Direction


class Claimed(NamedTuple):
    """A claim stands (`took_mug`: the responder took the mug to make it)."""

    by: str
    rank: Rank
    took_mug: bool = False


class ClaimRefused(NamedTuple):
    """An illegal claim under `illegal_claim = berry`: refused, and a berry for it.

    `standing` is the claim it had to match or beat; None means a Kariki was claimed.
    """

    by: str
    rank: Rank
    standing: Rank | None
    strict: bool
    took_mug: bool = False


class TookMug(NamedTuple):
    """The responder took the mug without looking."""

    by: str


class ShowedKariki(NamedTuple):
    """A Kariki shown: a crown for `by`, a berry for `victim` (None: nobody was left)."""

    by: str
    victim: str | None
    took_mug: bool = False


class Crowned(NamedTuple):
    """Every third crown: a berry for each player in `hit`, in turn order."""

    by: str
    crowns: int
    hit: tuple[str, ...]


class Pulled(NamedTuple):
    """The mug was lifted on `claim`: the dice, whether they made it, who got the berry."""

    by: str
    dice: Roll
    claim: Rank
    true: bool
    berry_to: str


class Passed(NamedTuple):
    """`by` accepted the claim and answers for it now."""

    by: str
    claim: Rank


class FinalPass(NamedTuple):
    """The roller passed the chain back to the first passer, who must roll or pull."""

    by: str
    to: str


class Slashed(NamedTuple):
    """Slashes for a broken table rule, and the berries they actually hung.

    `tally` is where the count got to (`tally - slashes + 1` .. `tally`), before every
    `slashes_per_berry` of it turned into a berry: the 3rd slash is a berry.
    """

    player: str
    slashes: int
    rule: str | None
    berries: int
    tally: int = 0


class BoughtBack(NamedTuple):
    """A buy-back: `price` went into the pot, which is now `pot` (cents)."""

    player: str
    price: int
    pot: int


class WentOut(NamedTuple):
    """A player is out; `price` is what a buy-back costs now, in cents (None: not on offer)."""

    player: str
    bartender: bool
    price: int | None = None


class InPoo(NamedTuple):
    """One berry from going out."""

    player: str


class MugHolderOut(NamedTuple):
    """The player holding the mug went out: the claim to beat (if any) is dropped and
    `roller` rolls fresh."""

    out: str
    roller: str
    claim: Rank | None


class ClaimVoid(NamedTuple):
    """The player answering for the claim went out: `roller` rolls fresh."""

    out: str
    roller: str


class ChainMoved(NamedTuple):
    """The player facing the claim went out: `player` faces it now, `answers` still answers."""

    player: str
    claim: Rank
    answers: str


class PriceDoubles(NamedTuple):
    """Several went out in one event: each may buy back for `price` today, and every buy-back
    doubles the price of the next."""

    price: int


class Won(NamedTuple):
    """The last player standing takes the pot (unless someone in `open` buys back for
    `price`); amounts in cents, `pot` 0 on a night without money."""

    player: str
    pot: int
    open: tuple[str, ...] = ()
    price: int = 0


class Settled(NamedTuple):
    """The night ends: `closed` did not buy back, and `player` takes the pot (cents)."""

    player: str
    pot: int
    closed: tuple[str, ...]


Fact = (
    Started | Claimed | ClaimRefused | TookMug | ShowedKariki | Crowned | Pulled | Passed
    | FinalPass | Slashed | BoughtBack | WentOut | InPoo | MugHolderOut | ClaimVoid
    | ChainMoved | PriceDoubles | Won | Settled | Joined | Left | Replaced
)  # fmt: skip

# ---------------------------------------------------------------------------- state


class Phase(Enum):
    """What the player on turn must do."""

    ROLL = "roll"  # claim a rank, or show a Kariki
    RESPOND = "respond"  # roll, pull or pass
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table; `out_at` is the number of the event that put him out last
    (0: never out), which his place follows; `left`: he left the game (out for good)."""

    name: str
    nickname: str | None = None
    berries: tuple[Cause, ...] = ()
    slashes: int = 0
    crowns: int = 0
    out: bool = False
    buyback_used: bool = False
    out_at: int = 0
    left: bool = False
    out_seq: int = 0  # the how-manieth going out at the table this was: the order within one event


@dataclass(frozen=True, slots=True)
class State:
    """The table after some events: `claim` is the claim to beat (ROLL) or the live one."""

    rules: Rules
    seats: tuple[Seat, ...]
    direction: Direction
    purse: Purse  # the buy-ins, berries at `loss_value`, buy-backs, seats taken over
    turn: int
    phase: Phase
    claim: Rank | None = None
    roller: int | None = None  # who rolled the dice under the mug
    responsible: int | None = None  # who answers for the claim if it is pulled
    passers: tuple[int, ...] = ()
    final_pass: bool = False  # the first passer must roll or pull
    out_order: tuple[int, ...] = ()  # each player once, in the order they first went out
    buyback_open: tuple[int, ...] = ()  # out in the last event, and may still buy back
    ruling: tuple[Fact, ...] = ()
    events: int = 0

    @property
    def pot(self) -> int:
        """Everything in the pot, in cents."""
        return self.purse.pot

    def paid(self, seat: Seat) -> int:
        """What the holder of `seat` has paid for this game, in cents."""
        return self.purse.seat_paid(seat.name)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(i for i, s in enumerate(self.seats) if not s.out)

    @property
    def is_over(self) -> bool:
        """True once at most one player is left."""
        return len(self.active) <= 1

    @property
    def winner(self) -> str | None:
        """The last player standing, once the game is over."""
        active = self.active
        return self.seats[active[0]].name if self.is_over and active else None

    @property
    def is_finished(self) -> bool:
        """Over, and no buy-back can change the result any more: the winner takes the pot."""
        return self.is_over and not self.buyback_open

    @property
    def pot_to(self) -> str | None:
        """Who takes the pot: the winner once the night is finished (None before)."""
        return self.winner if self.is_finished else None

    @property
    def has_money(self) -> bool:
        """Whether the night is played for money (`--buy-in 0` without a `loss_value` is not)."""
        return self.purse.stakes.has_money

    @property
    def offers_buyback(self) -> bool:
        """Whether a player going out may buy back: the key is on and there is a pot to pay."""
        return self.rules.buyback and self.has_money

    @property
    def next_out(self) -> int:
        """The `Seat.out_seq` of the next player to go out: one past the latest."""
        return max((s.out_seq for s in self.seats), default=0) + 1

    def out_in_order(self) -> tuple[int, ...]:
        """The players out now, in the order they went out for the last time."""
        out = [i for i in range(len(self.seats)) if self.seats[i].out]
        # out in one event: in the order the event put them out, not by seat, and not by who
        # went out first before (one who bought back and went out again)
        return tuple(sorted(out, key=lambda i: (self.seats[i].out_at, self.seats[i].out_seq)))

    @property
    def bartender_seat(self) -> int | None:
        """The first player out pours the drinks and picks the music (one who left is gone)."""
        return next((i for i in self.out_order if not self.seats[i].left), None)

    @property
    def bartender(self) -> str | None:
        """The bartender/DJ's name (see `bartender_seat`)."""
        i = self.bartender_seat
        return None if i is None else self.name(i)

    @property
    def shown_phase(self) -> Phase:
        """The phase as a user sees it: OVER once somebody has won."""
        return Phase.OVER if self.is_over else self.phase

    @property
    def buyback_price(self) -> int:
        """A buy-back pays the current pot (and so doubles it)."""
        return self.pot

    def in_poo(self, seat: Seat) -> bool:
        """One berry from going out."""
        return not seat.out and len(seat.berries) == self.rules.berry_limit - 1

    def index(self, name: str) -> int:
        """The seat of the player called `name`."""
        return seat_of(self.seats, name)

    def next_active(self, i: int) -> int:
        """The next player still in, from seat `i` in the direction of play."""
        return next_seat(i, len(self.seats), self.direction, lambda j: not self.seats[j].out)

    def in_turn_order(self, after: int) -> tuple[int, ...]:
        """Every player still in, in turn order starting after seat `after` (ending with him)."""
        return turn_order(after, len(self.seats), self.direction, lambda j: not self.seats[j].out)

    @property
    def chain_is_back(self) -> bool:
        """The pass chain came back round to the player who rolled."""
        return (
            self.phase is Phase.RESPOND
            and self.turn == self.roller
            and bool(self.passers)
            and not self.final_pass
        )

    @property
    def must_roll_or_pull(self) -> bool:
        """The player facing the claim passed already (after a final pass): no passing again."""
        return self.phase is Phase.RESPOND and self.turn in self.passers

    def name(self, i: int) -> str:
        """The name of the player in seat `i`."""
        return self.seats[i].name


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    """Seat the table: `first` won the roll-off and chose the direction; each pays the buy-in."""
    seats = tuple(Seat(p.name, p.nickname) for p in players)
    stakes = replace(rules.stakes, stake=options.buy_in)
    return State(
        rules=rules,
        seats=seats,
        direction=options.direction,
        purse=Purse.start(stakes, [p.name for p in players]),
        turn=[p.name for p in players].index(options.first),
        phase=Phase.ROLL,
        ruling=(Started(options.first, options.direction),),
    )


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if state.is_finished:
        raise RuleViolation(f"the game is over: {state.winner or 'nobody'} won")
    if state.is_over and not isinstance(event, BuyBack | Settle):
        raise RuleViolation(
            f"the game is over: {state.winner or 'nobody'} leads; 'buyback' or 'settle' first"
        )
    facts: list[Fact] = []
    before = state
    match event:
        case Claim(by=by, rank=rank):
            state = _claim(state, _actor(state, by), rank, facts)
        case ShowKariki(by=by):
            state = _kariki(state, _actor(state, by), facts)
        case TakeMug(by=by):
            state = _take_mug(state, _actor(state, by))
            facts.append(TookMug(by))
        case Pull(by=by, dice=dice):
            state = _pull(state, _actor(state, by), dice, facts)
        case Pass(by=by):
            state = _pass(state, _actor(state, by), facts)
        case Slash():
            state = _slash(state, event, facts)
        case BuyBack(player=player):
            state = _buyback(state, state.index(player), facts)
        case Settle():
            return _end_night(state)
        case Reseat():
            return _reseat(state, event)
        case Join():
            return _join(state, event)
        case Leave(player=player):
            state = _leave(state, state.index(player), facts)
        case Replace(old=old, new=new):
            state = _replace(state, state.index(old), new, facts)
        case _:
            assert_never(event)
    return _settle(before, state, facts, isinstance(event, BuyBack))


def _reseat(state: State, event: Reseat) -> State:
    """`seat`: the first roller and the direction corrected while no claim has been made (no
    claim standing, no berry hung, no slash on a tally: only roster changes so far)."""
    if event.first is None and event.direction is None:
        raise UsageError("seat needs --first PLAYER or --direction left|right (or both)")
    if not can_reseat(state):
        raise RuleViolation(
            "play has begun: the first roller and the direction are set before the first"
            " claim (undo back to it to change them)"
        )
    if event.direction not in (None, "left", "right"):
        raise UsageError(f"unknown direction {quote(event.direction)}: use left or right")
    turn = state.turn if event.first is None else state.index(event.first)
    direction = state.direction if event.direction is None else Direction(event.direction)
    fact = Started(state.name(turn), direction)
    return replace(state, turn=turn, direction=direction, ruling=(fact,), events=state.events + 1)


def _end_night(state: State) -> State:
    """`settle`: the open buy-back offers close, and the last player standing takes the pot."""
    if not state.buyback_open:
        raise RuleViolation("nothing to settle: no buy-back is on offer")
    closed = ", ".join(state.name(i) for i in state.buyback_open)
    if not state.is_over:
        raise RuleViolation(
            f"nothing to settle: {len(state.active)} players still stand; the offer to"
            f" {closed} closes with the next action"
        )
    winner = state.winner or ""
    fact = Settled(winner, state.pot, tuple(state.name(i) for i in state.buyback_open))
    return replace(state, buyback_open=(), ruling=(fact,), events=state.events + 1)


def _actor(state: State, by: str) -> int:
    out = "is out of the game"
    return on_turn(state.seats, state.turn, by, lambda i: out if state.seats[i].out else None)


def is_raise(standing: Rank, claim: Rank, rules: Rules) -> bool:
    """Whether `claim` may follow `standing` after the mug was taken over."""
    return claim > standing if rules.raise_rule is Raise.STRICT else claim >= standing


def can_be_raised(standing: Rank, rules: Rules) -> bool:
    """Whether any claim can follow `standing` (under strict, nothing beats Double Sixes)."""
    return any(is_raise(standing, r, rules) for r in Rank if r is not Rank.ONE_TWO)


def is_true(dice: Roll, claim: Rank, rules: Rules) -> bool:
    """Whether the dice under the mug make the claim true."""
    return dice.rank == claim if rules.truth is Truth.EXACT else dice.rank >= claim


def _claim(state: State, i: int, rank: Rank, facts: list[Fact]) -> State:
    took_mug = state.phase is Phase.RESPOND
    if took_mug:
        state = _take_mug(state, i, "claims nothing")
    legal = rank is not Rank.ONE_TWO and (
        state.claim is None or is_raise(state.claim, rank, state.rules)
    )
    if not legal:
        strict = state.rules.raise_rule is Raise.STRICT
        standing = None if rank is Rank.ONE_TWO else state.claim
        if state.rules.illegal_claim is IllegalClaim.REJECT:
            raise RuleViolation(illegal_reason(rank, standing, strict))
        facts.append(ClaimRefused(state.name(i), rank, standing, strict, took_mug))
        return _hang(state, i, Cause.ILLEGAL_CLAIM, facts)
    facts.append(Claimed(state.name(i), rank, took_mug))
    return replace(
        state,
        phase=Phase.RESPOND,
        claim=rank,
        roller=i,
        responsible=i,
        passers=(),
        final_pass=False,
        turn=state.next_active(i),
    )


def illegal_reason(rank: Rank, standing: Rank | None, strict: bool) -> str:
    if standing is None:
        return "a Kariki is never claimed: show it with 'kariki'"
    need = "beat" if strict else "match or beat"
    return f"illegal claim '{LADDER.name(rank)}': it must {need} '{LADDER.name(standing)}'"


def _kariki(state: State, i: int, facts: list[Fact]) -> State:
    took_mug = state.phase is Phase.RESPOND
    if took_mug:
        state = _take_mug(state, i, "shows no Kariki")
    roller = state.seats[i]
    seats = list(state.seats)
    seats[i] = replace(roller, crowns=roller.crowns + 1)
    state = replace(state, seats=tuple(seats))
    victim = state.next_active(i)
    facts.append(ShowedKariki(roller.name, state.name(victim), took_mug))
    # Berries of one event hang in turn order after the roller, while two players stand.
    state = _hang(state, victim, Cause.KARIKI, facts)
    crowns = state.seats[i].crowns
    if crowns % state.rules.crown_threshold == 0:
        hit = [j for j in state.in_turn_order(i) if j != i or state.rules.crown_hits_roller]
        hung = []
        fact_at = len(facts)  # the crown is said before whoever it puts out
        for j in hit:
            if len(state.active) <= 1:
                break
            state = _hang(state, j, Cause.CROWNS, facts)
            hung.append(state.name(j))
        facts.insert(fact_at, Crowned(roller.name, crowns, tuple(hung)))
    # The shown Kariki lifted the mug: the starter below rolls fresh, whoever went out.
    facts[:] = [f for f in facts if not isinstance(f, MugHolderOut)]
    starter = i if state.rules.after_kariki_starter is Starter.ROLLER else victim
    if state.seats[starter].out:
        starter = state.next_active(starter)
    return _fresh_roll(state, starter)


def _take_mug(state: State, i: int, doing: str | None = None) -> State:
    if state.phase is not Phase.RESPOND or state.claim is None:
        raise RuleViolation(f"{state.name(i)} already has the mug: claim a rank or show a Kariki")
    if state.chain_is_back:
        first = state.name(_first_passer(state))
        raise RuleViolation(
            f"the chain came back to {state.name(i)}: pull, or pass it back to {first}"
        )
    if not can_be_raised(state.claim, state.rules):
        standing = LADDER.name(state.claim)
        if doing is None:  # `roll`: RULES' own words
            raise RuleViolation(
                f"nothing but a shown Kariki beats '{standing}' under strict raises: pull or pass"
            )
        # A claim or a Kariki over it needs the mug first, which strict raises keep there.
        raise RuleViolation(
            f"{state.name(i)} cannot take the mug over '{standing}' under strict raises,"
            f" so {doing}: pull or pass"
        )
    return replace(
        state,
        phase=Phase.ROLL,
        roller=i,
        responsible=None,
        passers=(),
        final_pass=False,
    )


def _pull(state: State, i: int, dice: Roll, facts: list[Fact]) -> State:
    if state.phase is not Phase.RESPOND or state.claim is None:
        raise RuleViolation("there is no claim to pull on: the roller must claim first")
    claim, responsible = state.claim, state.responsible
    if responsible is None:  # pragma: no cover - a live claim always has someone answering
        raise RuleViolation("nobody answers for this claim")
    true = is_true(dice, claim, state.rules)
    loser, starter = (i, responsible) if true else (responsible, i)
    facts.append(Pulled(state.name(i), dice, claim, true, state.name(loser)))
    # The fresh roll comes first: the berry it hangs then ends no chain.
    state = _fresh_roll(state, starter)
    return _hang(state, loser, Cause.FALSE_ACCUSATION if true else Cause.LIE, facts)


def _pass(state: State, i: int, facts: list[Fact]) -> State:
    if state.phase is not Phase.RESPOND or state.claim is None:
        raise RuleViolation("there is no claim to pass: the roller must claim first")
    name = state.name(i)
    if state.chain_is_back:
        first = _first_passer(state)
        facts.append(FinalPass(name, state.name(first)))
        return replace(state, final_pass=True, responsible=i, turn=first)
    if i in state.passers:
        raise RuleViolation(f"nobody passes twice: {name} passed already; roll or pull")
    facts.append(Passed(name, state.claim))
    state = replace(state, passers=(*state.passers, i), responsible=i)
    return _hand_on(state, i)


def _hand_on(state: State, i: int) -> State:
    """The choice goes to the next player in line after `i`, who went out facing it.

    After a final pass that is the first passer still in (a passer who bought back counts
    again), never the player answering for the claim. Otherwise it is the next player round
    the table; if that is a passer, the roller is out and it came back round: as after a
    final pass, the first passer still in must roll or pull, and the last passer answers.
    """
    if state.final_pass:
        waiting = [p for p in state.passers if not state.seats[p].out and p != state.responsible]
        if waiting:
            return replace(state, turn=waiting[0])
    nxt = state.next_active(i)
    return replace(state, turn=nxt, final_pass=state.final_pass or nxt in state.passers)


def _first_passer(state: State) -> int:
    """The first passer still in (one always is while the chain is back at the roller)."""
    return next(p for p in state.passers if not state.seats[p].out)


def slash_count(event: Slash, rules: Rules) -> int:
    """How many slashes an event is worth (dropped dice: one per started period).

    >>> rules = Rules(slash_rules=(SlashRule("drop", "dropped dice", 10),))
    >>> [slash_count(Slash("Ann", "drop", seconds=s), rules) for s in (1, 10, 11, 20, 25)]
    [1, 1, 2, 2, 3]
    """
    if event.count is not None and event.seconds is not None:
        raise UsageError("give --count or --seconds, not both")
    if event.count is not None:
        return checked_number(event.count, "a slash count", 1, MAX_SLASHES)
    if event.seconds is not None:
        rule = rules.slash_rule(event.rule) if event.rule else None
        if rule is None or rule.seconds_per_slash is None:
            raise UsageError("--seconds goes with a timed rule such as 'drop'")
        # RULES: 1-10 s is one slash; a die that lay no second on the ground started no period
        seconds = checked_number(event.seconds, "seconds", 1, MAX_SECONDS)
        return -(-seconds // rule.seconds_per_slash)
    return 1


def _slash(state: State, event: Slash, facts: list[Fact]) -> State:
    i = state.index(event.player)
    seat = state.seats[i]
    if seat.out:
        raise RuleViolation(f"{seat.name} is out of the game")
    rule = state.rules.slash_rule(event.rule) if event.rule else None
    n = slash_count(event, state.rules)
    due, rest = divmod(seat.slashes + n, state.rules.slashes_per_berry)
    seats = list(state.seats)
    seats[i] = replace(seat, slashes=rest)
    state = replace(state, seats=tuple(seats))
    fact_at = len(facts)
    hung = 0
    while hung < due and not state.seats[i].out and len(state.active) > 1:
        state = _hang(state, i, Cause.SLASHES, facts)
        hung += 1
    tally = seat.slashes + n
    facts.insert(fact_at, Slashed(seat.name, n, rule.name if rule else None, hung, tally))
    return state


def _buyback(state: State, i: int, facts: list[Fact]) -> State:
    seat = state.seats[i]
    if not state.rules.buyback:
        raise RuleViolation("buy-backs are off in this ruleset")
    if not state.has_money:
        raise RuleViolation("a night without money (buy-in 0) has no buy-back")
    if not seat.out:
        raise RuleViolation(f"{seat.name} is not out: only a player who just went out buys back")
    if seat.buyback_used:
        raise RuleViolation(f"{seat.name} bought back once already: once per game")
    if i not in state.buyback_open:
        raise RuleViolation(f"{seat.name} went out earlier: a buy-back comes right after going out")
    price = state.buyback_price
    seats = list(state.seats)
    keep = state.rules.berry_limit - 1
    seats[i] = replace(seat, berries=seat.berries[:keep], out=False, buyback_used=True)
    facts.append(BoughtBack(seat.name, price, state.pot + price))
    if len(seats[i].berries) == keep:
        facts.append(InPoo(seat.name))
    return replace(
        state,
        seats=tuple(seats),
        purse=state.purse.pay(seat.name, price),
        buyback_open=tuple(j for j in state.buyback_open if j != i),
    )


# ---------------------------------------------------------------------------- come and go
# RULES 7: a newcomer sits down between challenges while nobody has gone out; a player who
# leaves goes out as a player does mid-chain (RULES 2.6); a newcomer may take over a seat.


def can_join(state: State) -> bool:
    """Whether a newcomer may sit down now (see `join_refusal`)."""
    return join_refusal(state, "") is None


def join_refusal(state: State, name: str) -> RuleViolation | None:
    """Why `name` may not sit down now, if he may not: under late_join = never, once anybody
    went out (even one who bought back), or while a claim stands (a newcomer sits down
    between challenges: before the next fresh roll)."""
    late = state.rules.late_join
    if late is LateJoin.NEVER:
        return refuse_join(name, "nobody joins a game under way", late)
    if state.out_order:
        first = state.seats[state.out_order[0]]
        why = "is already out" if first.out else "went out already"
        return refuse_join(name, f"{first.name} {why}", late)
    if state.phase is not Phase.ROLL or state.claim is not None:
        claim = f" ({LADDER.name(state.claim)})" if state.claim is not None else ""
        return refuse_join(name, f"a claim stands{claim}; join between challenges")
    full = table_full("kariki", len(state.seats))
    return None if full is None else refuse_join(name, full)


def _join(state: State, event: Join) -> State:
    """A newcomer sits after `event.after` with as many berries as the player with the most
    (never so many that he is out), and pays the buy-in."""
    nicknames = [s.nickname for s in state.seats if s.nickname]
    gone = [t.payee for t in state.purse.moved]  # replaced: paid back, not to sit again
    name = check_newcomer(state.seats, event.name, nicknames, gone)
    at = seat_after(state.seats, event.after)
    refused = join_refusal(state, name)
    if refused is not None:
        raise refused
    most = max(len(s.berries) for s in state.seats)
    start = min(most, state.rules.berry_limit - 1)
    seat = Seat(name, berries=(Cause.JOINED,) * start)
    purse = state.purse.join(name)
    facts: list[Fact] = [Joined(name, state.name(at - 1), start, purse.put_in(name))]
    if start == state.rules.berry_limit - 1:
        facts.append(InPoo(name))

    def moved(i: int) -> int:
        return moved_turn(i, at)

    return replace(
        state,
        seats=(*state.seats[:at], seat, *state.seats[at:]),
        purse=purse,
        turn=moved(state.turn),
        roller=None if state.roller is None else moved(state.roller),
        responsible=None if state.responsible is None else moved(state.responsible),
        passers=tuple(map(moved, state.passers)),
        out_order=tuple(map(moved, state.out_order)),
        buyback_open=tuple(map(moved, state.buyback_open)),
        ruling=tuple(facts),
        events=state.events + 1,
    )


def _leave(state: State, i: int, facts: list[Fact]) -> State:
    """`leave`: he is out at this event, for good (no buy-back); his money stays in the pot.
    Going out mid-chain, the chain goes on as RULES 2.6 says (the claim is void only if he
    answered for it); the last but one leaving ends the game."""
    seat = state.seats[i]
    if seat.out:
        raise RuleViolation(f"{seat.name} is out of the game already: nothing to leave")
    seats = list(state.seats)
    seats[i] = replace(
        seat, out=True, left=True, slashes=0, out_at=state.events + 1, out_seq=state.next_out
    )
    # out_order keeps who went out first (the bartender); the place follows `out_at`.
    out_order = state.out_order if i in state.out_order else (*state.out_order, i)
    state = replace(state, seats=tuple(seats), out_order=out_order)
    facts.append(Left(seat.name))
    return _after_out(state, i, facts)


def _replace(state: State, i: int, new: str, facts: list[Fact]) -> State:
    """`replace`: `new` takes seat `i` and everything on it, paying its holder what he put in."""
    seat = state.seats[i]
    nicknames = [s.nickname for s in state.seats if s.nickname]
    name = check_newcomer(state.seats, new, nicknames, [t.payee for t in state.purse.moved])
    if seat.out:
        raise RuleViolation(
            f"{name} cannot take {seat.name}'s seat: {seat.name} is out, nothing to take over"
        )
    facts.append(Replaced(seat.name, name, state.paid(seat)))
    purse = state.purse.take_over(seat.name, name)
    seats = list(state.seats)
    seats[i] = replace(seat, name=name, nickname=None)
    return replace(state, seats=tuple(seats), purse=purse)


def _hang(state: State, i: int, cause: Cause, facts: list[Fact]) -> State:
    """Hang a berry on `i`'s cross; at the limit he is out, and the chain adjusts to that."""
    seat = state.seats[i]
    if seat.out or state.is_over:
        return state
    berries = (*seat.berries, cause)
    out = len(berries) >= state.rules.berry_limit
    seats = list(state.seats)
    # Slashes never outlive the player: an out player keeps none.
    seats[i] = replace(
        seat,
        berries=berries,
        out=out,
        slashes=0 if out else seat.slashes,
        out_at=state.events + 1 if out else seat.out_at,
        out_seq=state.next_out if out else seat.out_seq,
    )
    # Every berry hung is a loss, and pays `loss_value` as it is hung.
    state = replace(state, seats=tuple(seats), purse=state.purse.lose(seat.name))
    if not out:
        return state
    first_out = state.bartender is None
    if i not in state.out_order:
        state = replace(state, out_order=(*state.out_order, i))
    may_buy = state.offers_buyback and not seat.buyback_used
    # Said when it happens, so the ruling reads in the order of events ("Bob is OUT" first,
    # then who faces the claim now).
    facts.append(WentOut(seat.name, first_out, state.buyback_price if may_buy else None))
    return _after_out(state, i, facts)


def _after_out(state: State, i: int, facts: list[Fact]) -> State:
    """RULES.md 2.6: a player going out mid-chain ends the chain only if he answered for it.

    A claim voided by the event that ends the game stays void: if a buy-back reopens the game,
    play goes on with a fresh roll, never with the dead claim. Only the words wait for a game
    that goes on.
    """
    goes_on = not state.is_over
    if state.phase is Phase.ROLL:
        if i != state.turn:
            return state
        nxt = state.next_active(i)  # he held the mug: the next player rolls fresh
        if goes_on:
            facts.append(MugHolderOut(state.name(i), state.name(nxt), state.claim))
        return _fresh_roll(state, nxt)
    if i == state.responsible:
        roller = state.turn if state.turn != i else state.next_active(i)
        if goes_on:
            facts.append(ClaimVoid(state.name(i), state.name(roller)))
        return _fresh_roll(state, roller)
    if i == state.turn and goes_on:  # over: after a buy-back he is next in line again
        state = _hand_on(state, i)
        assert state.claim is not None and state.responsible is not None  # a live claim
        facts.append(ChainMoved(state.name(state.turn), state.claim, state.name(state.responsible)))
    return state


def _fresh_roll(state: State, i: int) -> State:
    return replace(
        state,
        phase=Phase.ROLL,
        turn=i,
        claim=None,
        roller=i,
        responsible=None,
        passers=(),
        final_pass=False,
    )


def _settle(before: State, after: State, facts: list[Fact], buyback: bool) -> State:
    """Note who is in the poo, which buy-backs are open, and who won (or leads)."""
    newly_out = tuple(
        i for i in range(len(after.seats)) if after.seats[i].out and not before.seats[i].out
    )
    if not buyback:
        for i in after.active:
            if after.in_poo(after.seats[i]) and not before.in_poo(before.seats[i]):
                facts.append(InPoo(after.name(i)))
    if buyback:
        still_open = after.buyback_open
    else:
        still_open = tuple(
            i
            for i in newly_out
            if after.offers_buyback and not after.seats[i].buyback_used and not after.seats[i].left
        )
        if len(still_open) > 1:
            facts.append(PriceDoubles(after.buyback_price))
    if after.is_over and (not before.is_over or buyback) and after.winner:
        names = tuple(after.name(i) for i in still_open)
        facts.append(Won(after.winner, after.pot, names, after.buyback_price if names else 0))
    return replace(after, buyback_open=still_open, ruling=tuple(facts), events=before.events + 1)


def choices(state: State) -> tuple[str, ...]:
    """What the player on turn may do now, in the words of the actions (slash aside)."""
    open_buyback = ("buyback",) if state.buyback_open else ()
    if state.is_over:
        return (*open_buyback, "settle") if open_buyback else ()
    if state.phase is Phase.ROLL:
        return ("claim", "kariki", *open_buyback)
    if state.chain_is_back:
        return ("pull", "pass", *open_buyback)
    assert state.claim is not None  # RESPOND always has a live claim
    roll = ("roll",) if can_be_raised(state.claim, state.rules) else ()
    pass_ = () if state.must_roll_or_pull else ("pass",)
    return (*roll, "pull", *pass_, *open_buyback)


def can_reseat(state: State) -> bool:
    """Whether `seat` may still correct the first roller and the direction: no claim made, no
    berry hung, no slash on a tally (only roster changes so far)."""
    return state.claim is None and not any(s.berries or s.slashes or s.out for s in state.seats)


def legal_actions(state: State) -> tuple[str, ...]:
    """Every action that works now: the choices on turn, a claim or a shown Kariki typed by a
    responder who may take the mug (he rolled), and slashes while the game is on."""
    found = choices(state)
    if state.is_over:
        return found
    if state.phase is Phase.RESPOND and "roll" in found:
        found = (*found[:1], "claim", "kariki", *found[1:])
    join = ("join",) if can_join(state) else ()
    seat = ("seat",) if can_reseat(state) else ()
    return (*found, "slash", *seat, *join, "leave", "replace")


def outcome(state: State) -> Outcome:
    """The winner once one player is left; the others by when they went out for the last time
    (provisional while a buy-back is on offer)."""
    if not state.is_over:
        return Outcome(False)
    winners = (state.winner,) if state.winner else ()
    order = list(reversed(state.out_in_order()))
    ranked = [1] * len(winners)
    for n, i in enumerate(order):  # players out in the same event share a place (1, 2, 2, 4)
        same = n and state.seats[order[n - 1]].out_at == state.seats[i].out_at
        ranked.append(ranked[-1] if same else len(ranked) + 1)
    last_out = tuple(state.name(i) for i in order)
    return Outcome(
        True,
        winners,
        (*winners, *last_out),
        provisional=bool(state.buyback_open),
        places=tuple(ranked),
    )


def json_value(value: object) -> object | None:
    """This game's own values in rulings, as JSON (None: not one of them)."""
    if isinstance(value, Rank):
        return LADDER.name(value)
    if isinstance(value, Roll):
        return str(value)
    return None


def summary(state: State) -> dict[str, object]:
    """The documented `show --json` document for a Kariki table."""
    return {
        "game": "kariki",
        "players": [
            {
                "name": s.name,
                "nickname": s.nickname,
                "berries": len(s.berries),
                "berry_causes": [c.value for c in s.berries],
                "slashes": s.slashes,
                "crowns": s.crowns,
                "out": s.out,
                "in_poo": state.in_poo(s),
                "buyback_used": s.buyback_used,
                "left": s.left,
                "paid": state.paid(s),
            }
            for s in state.seats
        ],
        "final_pass": state.final_pass and not state.is_over,
        "turn": None if state.is_over else state.name(state.turn),
        "phase": state.shown_phase.value,
        "claim": LADDER.name(state.claim) if state.claim is not None else None,
        "responsible": (
            state.name(state.responsible)
            if state.responsible is not None and not state.is_over
            else None
        ),
        "passers": [state.name(p) for p in state.passers],
        "direction": state.direction.value,
        "pot": state.pot,
        "winner": state.winner,
        "pot_to": state.pot_to if state.has_money else None,
        "buyback_open": [state.name(i) for i in state.buyback_open],
        "bartender": state.bartender,
        "events": state.events,
    }


def turn(state: State) -> str | None:
    """Who acts next, or None."""
    return None if state.is_over else state.name(state.turn)


def scores(state: State) -> dict[str, int]:
    """Each player's score as the sheet counts it."""
    return {s.name: len(s.berries) for s in state.seats}


def tally(states: Sequence[State]) -> dict[str, dict[str, int]]:
    """Berries by cause, crowns, slashes, buy-backs, who poured the drinks, and money in
    cents: `paid` (what each seat's holder paid: the buy-in, berries at `loss_value`,
    buy-backs, a seat taken over) and `won` (what he takes, once the night is finished)."""
    found = Tallies()
    add = found.add

    for state in states:
        for fact in state.ruling:
            match fact:
                case Pulled(berry_to=loser, true=true):
                    add(loser, "berries: bad pull" if true else "berries: lie")
                case ShowedKariki(by=by, victim=victim):
                    add(by, "crowns")
                    add(victim, "berries: kariki")
                case Crowned(hit=hit):
                    for player in hit:
                        add(player, "berries: crowns")
                case Slashed(player=player, slashes=slashes, berries=berries):
                    add(player, "slashes", slashes)
                    if berries:  # stats never list a cause with no berry
                        add(player, "berries: slashes", berries)
                case ClaimRefused(by=by):
                    add(by, "berries: illegal claim")
                case BoughtBack(player=player):
                    add(player, "buy-backs")
    if states and states[-1].bartender:
        add(states[-1].bartender, "bartender")
    if states and states[-1].has_money:
        final = states[-1]
        for seat in final.seats:
            add(seat.name, "paid", final.paid(seat))
        if final.is_finished:
            ended = outcome(final)
            standing = Standing(ended.standings, ended.places, scores(final))
            for name, amount in result(final.purse, standing).takes.items():
                add(name, "won", amount)
    return found.counts


NEW = New(
    help="""A Kariki table.

    2 to 20 players in seat order.
    """,
    options=(
        FIRST._replace(help="Who won the roll-off."),
        DIRECTION._replace(help="Which way play goes [default: left]."),
        Param(
            "buy_in",
            option="--buy-in",
            metavar="AMOUNT",
            help="Money each pays in: 1, 1.50 [default: the ruleset's].",
        ),
    ),
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
