"""Liar's dice (RULES.md section 4), and Perudo as a second ruleset of the same engine.

One shared bid on all the dice under all the cups; a call counts them; the loser loses a die,
and the last player with dice wins. Every difference between the seed's game and Perudo is a
ruleset key (wild ones, how bids move on and off ones, palifico, the exact call, who starts).

Played for money (RULES.md section 7), each die lost pays `loss_value` into the pot as it goes;
people come and go between rounds (`join`, while nobody is out), leave at any time (a bid left
standing is void) and take over a seat still in (`replace`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple, assert_never

from referee.errors import RuleViolation, UsageError, quote
from referee.games.actions import BY, DIRECTION, FIRST, Actions, New, Param, action
from referee.games.base import (
    Direction as Direction,  # re-exported: the game's options and states use it
)
from referee.games.base import (
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
from referee.games.liars.bids import Bid, Hands, count_dice, parse_count
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
from referee.text import pick

MAX_DICE = 10  # per player, in any ruleset
SUGGESTED_PLAYERS = (4, 8)  # the seed: "between 4 and 8 people" (more or fewer: a warning)

# ---------------------------------------------------------------------------- rules


class BiddingRule(Enum):
    """How a bid raises the one before (`bidding_rule`), as OpenSpiel and the research name them."""

    RESET_FACE = "reset-face"  # more dice of any face, or as many of a higher face
    RESET_QUANTITY = "reset-quantity"  # a higher face with any quantity, or more of the same face
    BOTH_NONDECREASING = "both-nondecreasing"  # neither goes down, one goes up
    PERUDO = "perudo"  # reset-face, and onto wild ones half the dice, off them double plus one


class CallBy(Enum):
    """Who may call (`call_by`) or call exact (`exact_call_by`): the player on turn, or anyone
    still in but the bidder."""

    TURN = "turn"
    ANY = "any"


class ExactCallLimit(Enum):
    """How often each player may calza (`exact_call_limit`)."""

    NONE = "none"
    ONCE_PER_GAME = "once_per_game"


class NextStarter(Enum):
    """Who opens the round after a call (`next_starter`)."""

    CALLER = "caller"
    LOSER = "loser"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Liar's dice ruleset key, with the seed's game as the default."""

    name: str = "liars-dice"
    dice_per_player: int = 6
    direction: Direction = Direction.RIGHT  # counter-clockwise: against the seat order
    bidding_rule: BiddingRule = BiddingRule.RESET_FACE
    ones_wild: bool = False
    open_on_ones: bool = True
    next_starter: NextStarter = NextStarter.CALLER
    call_by: CallBy = CallBy.TURN
    palifico: bool = False
    palifico_one_die_free_face: bool = False  # a player on one die may change the face
    two_player_palifico: bool = True  # False: no palifico round once two players are left
    exact_call: bool = False
    exact_call_by: CallBy = CallBy.ANY
    two_player_calza: bool = True  # False: no calza once two players are left
    exact_call_limit: ExactCallLimit = ExactCallLimit.NONE  # once_per_game: one calza each
    exact_call_after_loss: bool = False  # True: only a player who has lost a die may calza
    palifico_once: bool = False  # True: no second palifico after a die regained by calza
    stakes: Stakes = field(default_factory=Stakes)  # the stake, a die lost, who takes the pot
    late_join: LateJoin = LateJoin.UNTIL_FIRST_OUT

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        """Build rules from a ruleset table, reporting every problem at once."""
        r = TableReader(table, source)
        d = cls()
        bidding_rule = r.choice("bidding_rule", BiddingRule, d.bidding_rule)
        # Sessions saved before `bidding_rule = "perudo"` existed say it as this flag.
        if r.flag("wild_bids_halve", False):
            if bidding_rule not in (BiddingRule.RESET_FACE, BiddingRule.PERUDO):
                r.problems.append(
                    f"wild_bids_halve is bidding_rule = perudo: it cannot go with"
                    f" {bidding_rule.value}"
                )
            bidding_rule = BiddingRule.PERUDO
        rules = cls(
            name=r.text("name", d.name),
            dice_per_player=r.integer(
                "dice_per_player", d.dice_per_player, minimum=1, maximum=MAX_DICE
            ),
            direction=r.choice("direction", Direction, d.direction),
            bidding_rule=bidding_rule,
            ones_wild=r.flag("ones_wild", d.ones_wild),
            open_on_ones=r.flag("open_on_ones", d.open_on_ones),
            next_starter=r.choice("next_starter", NextStarter, d.next_starter),
            call_by=r.choice("call_by", CallBy, d.call_by),
            palifico=r.flag("palifico", d.palifico),
            palifico_one_die_free_face=r.flag(
                "palifico_one_die_free_face", d.palifico_one_die_free_face
            ),
            two_player_palifico=r.flag("two_player_palifico", d.two_player_palifico),
            exact_call=r.flag("exact_call", d.exact_call),
            exact_call_by=r.choice("exact_call_by", CallBy, d.exact_call_by),
            two_player_calza=r.flag("two_player_calza", d.two_player_calza),
            exact_call_limit=r.choice("exact_call_limit", ExactCallLimit, d.exact_call_limit),
            exact_call_after_loss=r.flag("exact_call_after_loss", d.exact_call_after_loss),
            palifico_once=r.flag("palifico_once", d.palifico_once),
            stakes=Stakes.read(r),
            late_join=LateJoin.read(r),
        )
        if rules.bidding_rule is BiddingRule.PERUDO and not rules.ones_wild:
            r.problems.append("bidding_rule = perudo needs ones_wild = true")
        if rules.stakes.point_value:
            r.problems.append(
                "point_value is Kalooki's (payout = per_point): a die lost pays loss_value"
            )
        r.finish()
        return rules


Options = Seating  # who acts first, and which way play goes


def options_from_table(
    table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Rules
) -> Options:
    """The options as stored, checked as strictly as typed ones."""
    return seating(table, players, "Liar's dice", "first bidder", rules.direction)


# ---------------------------------------------------------------------------- events


BID = Param(
    "bid", "words", metavar="BID", help="5x3, 5 3, five 3s, 5 threes.", parse=Bid.parse,
    required=True,
)  # fmt: skip


def _typed_count(text: str) -> int:
    """A call's count as typed. Click leaves a word starting with "-" to it (`call -1` is told
    it cannot be negative), so one that is no number is the unknown option it looks like."""
    if text.startswith("-") and not text[1:].isdecimal():
        raise UsageError(f"unknown option {quote(text)}: the options are --dice, --by, -s")
    return parse_count(text)


COUNT = Param(
    "count", metavar="COUNT", help="Dice that count for the bid, wilds included.",
    parse=_typed_count, stored="number", dashed=True,
)  # fmt: skip
HANDS = Param(
    "hands", option="--dice", metavar="HANDS", key="dice", parse=Hands.parse,
    help='Every player\'s dice for the referee to count: "Ann=3,3,1 Bob=6,2".',
)  # fmt: skip
# The dice are read before the count, as they always were: a line wrong in both says the dice.
CALLED = (HANDS, COUNT, BY)


@action(
    "bid",
    BID,
    BY,
    help="""Bid on all the dice.

    At least QUANTITY dice show FACE under all the cups: it must raise the standing bid.
    """,
)
@dataclass(frozen=True, slots=True)
class BidEvent:
    """The player on turn bids: at least `bid.quantity` dice show `bid.face`."""

    by: str
    bid: Bid


# Decorators apply from the class up: `call` is declared first, and listed first.
@action(
    "exact",
    *CALLED,
    fixed={"exact": True},
    whole="the round",  # a die won or lost: never `e 3` by a slip
    help="""Call the bid exactly right (calza).

    Where the ruleset has it, any player still in but the bidder may call it (exact_call_by):
    right, the caller regains a die; wrong, the caller loses one; either way the caller opens the
    next round.
    """,
)
@action(
    "call",
    *CALLED,
    fixed={"exact": False},
    whole="the round",  # a die lost: never `c 3` by a slip
    help="""Call the bid a lie.

    Give the count of dice that match it (wilds included), or every player's dice with --dice.
    At least the bid: the caller loses a die; fewer: the bidder does. The player on turn
    calls, or any player still in but the bidder where the ruleset says call_by = "any".
    """,
)
@dataclass(frozen=True, slots=True)
class Call:
    """The player on turn calls the standing bid (or, `exact`, calls it exactly right).

    The scorekeeper gives the count of matching dice (wilds included), or every player's dice
    (`hands`) for the referee to count.
    """

    by: str
    count: int | None = None
    hands: Hands | None = None
    exact: bool = False


Event = BidEvent | Call | Join | Leave | Replace
ACTIONS = Actions("Liar's dice", BidEvent, Call, *ROSTER)

# ---------------------------------------------------------------------------- rulings


class Started(NamedTuple):
    """The table is seated: who opens, the order of play from him, how many dice each."""

    first: str
    direction: Direction
    dice: int
    order: tuple[str, ...]  # every player in the order of play, from the first


class Bade(NamedTuple):
    """A bid stands."""

    by: str
    bid: Bid


class Counted(NamedTuple):
    """A call: the bid, who made it, the count, and whether the bid held."""

    by: str
    bid: Bid
    bidder: str
    counted: int
    exact: bool
    held: bool  # the bid was true (for an exact call: the count was exactly the bid)
    wild: bool  # ones were counted for the face
    right: bool = False  # the caller was right: the bid false, or (exact) exactly so


class LostDie(NamedTuple):
    """A player loses a die (`left` remain), paying `paid` into the pot (`loss_value`)."""

    player: str
    left: int
    paid: int = 0


class RegainedDie(NamedTuple):
    """An exact call that was right: the caller gets a die back (never above the start)."""

    player: str
    left: int


class KeptDice(NamedTuple):
    """An exact call that was right, by a player who still has every die: none comes back."""

    player: str
    left: int


class WentOut(NamedTuple):
    """A player has no dice left."""

    player: str


class RoundStarts(NamedTuple):
    """A new round: who opens it, and whether it is palifico (no wilds, the face is fixed)."""

    number: int
    starter: str
    palifico: bool


class PalificoSpent(NamedTuple):
    """A player drops to one die again, but has had his palifico round (`palifico_once`)."""

    player: str


class Won(NamedTuple):
    """The last player with dice."""

    player: str


class BidVoided(NamedTuple):
    """A player left while a bid stood: the round is void, nobody loses a die."""

    bidder: str
    bid: Bid


Fact = (
    Started
    | Bade
    | Counted
    | LostDie
    | RegainedDie
    | KeptDice
    | WentOut
    | PalificoSpent
    | RoundStarts
    | Won
    | Joined
    | Left
    | BidVoided
    | Replaced
)

# ---------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class Cup:
    """One player: the dice left under his cup, whether his palifico round was played, and
    what the house rules on calza ask of him (his calzas so far, whether he has lost a die)."""

    name: str
    nickname: str | None = None
    dice: int = 0
    had_palifico: bool = False
    out_at: int = 0  # the number of the event that took his last die (0: still in)
    calzas: int = 0  # exact calls made, right or wrong (`exact_call_limit`)
    lost_a_die: bool = False  # ever, even if a calza gave it back (`exact_call_after_loss`)


@dataclass(frozen=True, slots=True)
class State:
    """The table after some events."""

    rules: Rules
    cups: tuple[Cup, ...]
    direction: Direction
    turn: int
    round: int = 1
    bid: Bid | None = None
    bidder: int | None = None
    palifico: bool = False
    ruling: tuple[Fact, ...] = ()
    events: int = 0
    purse: Purse = field(default_factory=Purse)
    gone: tuple[str, ...] = ()  # who gave up his seat (replace): his name is not a newcomer's

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still holding dice."""
        return tuple(i for i, c in enumerate(self.cups) if c.dice > 0)

    @property
    def out_in_order(self) -> tuple[int, ...]:
        """Seats with no die left, first out first (the last of them is the runner-up)."""
        gone = [i for i, c in enumerate(self.cups) if c.dice == 0]
        return tuple(sorted(gone, key=lambda i: self.cups[i].out_at))

    @property
    def is_over(self) -> bool:
        """True once one player is left with dice."""
        return len(self.active) <= 1

    @property
    def winner(self) -> str | None:
        """The last player with dice."""
        return self.cups[self.active[0]].name if self.is_over and self.active else None

    @property
    def dice_in_play(self) -> int:
        """Every die under every cup."""
        return sum(c.dice for c in self.cups)

    @property
    def wild(self) -> bool:
        """Whether ones count for other faces now (never in a palifico round)."""
        return self.rules.ones_wild and not self.palifico

    def name(self, i: int) -> str:
        """The name of the player in seat `i`."""
        return self.cups[i].name

    def index(self, name: str) -> int:
        """The seat of the player called `name`."""
        return seat_of(self.cups, name)

    def play_order(self, first: int) -> tuple[int, ...]:
        """The seats still in, in the order of play from seat `first` (in or not)."""
        n = len(self.cups)
        seats = ((first + self.direction.step * k) % n for k in range(n))
        return tuple(i for i in seats if self.cups[i].dice > 0)

    def may_change_face(self, i: int) -> bool:
        """Whether seat `i` may bid another face in this round (always, but in palifico)."""
        return not self.palifico or (
            self.rules.palifico_one_die_free_face and self.cups[i].dice == 1
        )

    def next_active(self, i: int) -> int:
        """The next player with dice after seat `i`, in the direction of play."""
        return next_seat(i, len(self.cups), self.direction, lambda j: self.cups[j].dice > 0)


# ---------------------------------------------------------------------------- bids


# Why a bid breaks the bidding rule itself: the smallest raises listed with a refusal say it
# already, so a refusal names only the table's own reasons (ones, palifico, the opening bid).
PLAIN_REFUSALS = (
    "more dice, or as many of a higher face",  # reset-face, perudo
    "a higher face, or more of the same face",  # reset-quantity
    "neither the quantity nor the face may go down",  # both-nondecreasing
    "raise the quantity or the face",  # both-nondecreasing
)


def is_raise(
    standing: Bid | None,
    bid: Bid,
    rules: Rules,
    palifico: bool = False,
    free_face: bool = False,
) -> str | None:
    """None if `bid` may follow `standing`, else why not (in words).

    In a palifico round ones are not wild and the face stays, unless `free_face` (a player on
    one die, where `palifico_one_die_free_face` lets him change it).

    >>> is_raise(Bid(5, 3), Bid(5, 2), Rules())
    'more dice, or as many of a higher face'
    """
    wild = rules.ones_wild and not palifico
    if standing is None:
        if bid.face == 1 and wild and not rules.open_on_ones:
            return "the opening bid may not be on ones"
        return None
    if palifico and not free_face and bid.face != standing.face:
        return f"in palifico the face stays {standing.face}"
    rule = rules.bidding_rule
    if wild and rule is BiddingRule.PERUDO and (bid.face == 1) != (standing.face == 1):
        if bid.face == 1:  # onto the wild ones: half the dice, rounded up
            need = math.ceil(standing.quantity / 2)
            return None if bid.quantity >= need else f"a bid on ones needs {need} or more"
        need = standing.quantity * 2 + 1  # off the ones: double plus one
        return None if bid.quantity >= need else f"leaving ones needs {need} dice or more"
    more, same = bid.quantity > standing.quantity, bid.quantity == standing.quantity
    higher, same_face = bid.face > standing.face, bid.face == standing.face
    match rule:
        case BiddingRule.RESET_FACE | BiddingRule.PERUDO:
            if more or (same and higher):
                return None
            return PLAIN_REFUSALS[0]
        case BiddingRule.RESET_QUANTITY:
            if higher or (same_face and more):
                return None
            return PLAIN_REFUSALS[1]
        case BiddingRule.BOTH_NONDECREASING:
            if bid.quantity < standing.quantity or bid.face < standing.face:
                return PLAIN_REFUSALS[2]
            if same and same_face:
                return PLAIN_REFUSALS[3]
            return None
        case _:
            assert_never(rule)


def raises_over(
    standing: Bid | None,
    rules: Rules,
    dice_in_play: int,
    palifico: bool = False,
    free_face: bool = False,
) -> list[Bid]:
    """For each face, the smallest bid that may follow `standing`, smallest first."""
    found = []
    for face in range(1, 7):
        for quantity in range(1, dice_in_play + 1):
            bid = Bid(quantity, face)
            if is_raise(standing, bid, rules, palifico, free_face) is None:
                found.append(bid)
                break
    return sorted(found)


def smallest_raises(state: State) -> list[Bid]:
    """The smallest raises open to the player on turn, one a face, smallest first."""
    return raises_over(
        state.bid,
        state.rules,
        state.dice_in_play,
        state.palifico,
        state.may_change_face(state.turn),
    )


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    """Everyone rolls their dice under their cup; `first` opens."""
    cups = tuple(Cup(p.name, p.nickname, rules.dice_per_player) for p in players)
    first = [p.name for p in players].index(options.first)
    purse = Purse.start(rules.stakes, [p.name for p in players])
    state = State(rules, cups, options.direction, turn=first, purse=purse)
    order = tuple(state.name(i) for i in state.play_order(first))
    facts = (Started(options.first, options.direction, rules.dice_per_player, order),)
    return replace(state, ruling=facts)


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if state.is_over:
        raise RuleViolation(f"the game is over: {state.winner} won")
    match event:
        case BidEvent(by=by, bid=bid):
            return _bid(state, _actor(state, by), bid)
        case Call():
            return _call(state, event)
        case Join():
            return _join(state, event)
        case Leave(player=player):
            return _leave(state, player)
        case Replace(old=old, new=new):
            return _replace(state, old, new)
        case _:
            assert_never(event)


def _actor(state: State, by: str) -> int:
    out = "has no dice left: out of the game"
    return on_turn(state.cups, state.turn, by, lambda i: out if state.cups[i].dice == 0 else None)


def _bid(state: State, i: int, bid: Bid) -> State:
    if bid.quantity > state.dice_in_play:
        raise RuleViolation(
            f"bid {quote(str(bid))} names more dice than are in play ({state.dice_in_play})"
        )
    reason = is_raise(state.bid, bid, state.rules, state.palifico, state.may_change_face(i))
    if reason is not None:
        raises = " ".join(str(b) for b in smallest_raises(state))
        said = "" if reason in PLAIN_REFUSALS else f" {reason};"
        tail = f" try {raises}" if raises else " no bid raises it: call it"
        if state.bid is None:
            raise RuleViolation(f"bid {quote(str(bid))} cannot open the round:{said}{tail}")
        raise RuleViolation(
            f"{quote(str(bid))} does not raise {quote(str(state.bid))}:{said}{tail}"
        )
    return replace(
        state,
        bid=bid,
        bidder=i,
        turn=state.next_active(i),
        ruling=(Bade(state.name(i), bid),),
        events=state.events + 1,
    )


def _caller(state: State, event: Call) -> int:
    """The seat of the player calling, once the rules let him call now."""
    i = state.index(event.by)
    if state.bid is None or state.bidder is None:
        raise RuleViolation("there is no bid to call: the round opens with a bid")
    if state.cups[i].dice == 0:
        raise RuleViolation(f"{event.by} has no dice left: out of the game")
    if i == state.bidder:
        raise RuleViolation(f"{event.by} made that bid: another player must call it")
    rules = state.rules
    if event.exact and not _calza_at_table(state):
        if not rules.exact_call:
            raise RuleViolation("this ruleset has no exact call (calza): use call")
        raise RuleViolation("no exact call (calza) with two players left: use call")
    who_may = rules.exact_call_by if event.exact else rules.call_by
    if who_may is CallBy.TURN and i != state.turn:
        verb = "call exact" if event.exact else "call"
        raise RuleViolation(f"it is {state.name(state.turn)}'s turn to {verb}, not {event.by}'s")
    if event.exact:
        reason = calza_barred(state, i)
        if reason is not None:
            raise RuleViolation(f"{event.by} cannot calza: {reason}")
    return i


def _calza_at_table(state: State) -> bool:
    """Whether the ruleset has calza, with as many players as are still in."""
    rules = state.rules
    return rules.exact_call and (rules.two_player_calza or len(state.active) > 2)


def calza_barred(state: State, i: int) -> str | None:
    """Why the table's house rules keep seat `i` from calling exact, or None.

    >>> ann = State(Rules(exact_call_limit=ExactCallLimit.ONCE_PER_GAME),
    ...             (Cup("Ann", dice=5, calzas=1),), Direction.LEFT, turn=0)
    >>> calza_barred(ann, 0)
    'each player calzas once a game (exact_call_limit = once_per_game)'
    """
    rules, cup = state.rules, state.cups[i]
    if rules.exact_call_limit is ExactCallLimit.ONCE_PER_GAME and cup.calzas >= 1:
        return "each player calzas once a game (exact_call_limit = once_per_game)"
    if rules.exact_call_after_loss and not cup.lost_a_die:
        return "only a player who has lost a die calzas (exact_call_after_loss = true)"
    return None


def _call(state: State, event: Call) -> State:
    i = _caller(state, event)
    assert state.bid is not None and state.bidder is not None  # checked by _caller
    bid, bidder = state.bid, state.bidder
    count = _count(state, event, bid)
    held = count == bid.quantity if event.exact else count >= bid.quantity
    wild = state.wild and bid.face != 1
    right = held if event.exact else not held
    facts: list[Fact] = [
        Counted(event.by, bid, state.name(bidder), count, event.exact, held, wild, right)
    ]
    cups = list(state.cups)
    if event.exact:
        cups[i] = replace(cups[i], calzas=cups[i].calzas + 1)
        loser, winner = (None, i) if held else (i, None)
        if held and cups[i].dice < state.rules.dice_per_player:
            cups[i] = replace(cups[i], dice=cups[i].dice + 1)
            facts.append(RegainedDie(state.name(i), cups[i].dice))
        elif held:
            facts.append(KeptDice(state.name(i), cups[i].dice))
        starter = i  # the calza caller opens the next round, right or wrong
    else:
        loser, winner = (i, bidder) if held else (bidder, i)
        by_rule = {
            NextStarter.CALLER: i,
            NextStarter.LOSER: loser,
            NextStarter.WINNER: winner,
        }
        starter = by_rule[state.rules.next_starter]
    palifico = False
    purse = state.purse
    if loser is not None:
        cups[loser] = replace(cups[loser], dice=cups[loser].dice - 1, lost_a_die=True)
        purse = purse.lose(state.name(loser))
        paid = purse.pot - state.purse.pot
        facts.append(LostDie(state.name(loser), cups[loser].dice, paid))
        left_in = sum(1 for c in cups if c.dice > 0)
        rules = state.rules
        if cups[loser].dice == 0:
            cups[loser] = replace(cups[loser], out_at=state.events + 1)
            facts.append(WentOut(state.name(loser)))
        elif (
            cups[loser].dice == 1
            and rules.palifico
            and rules.dice_per_player > 1
            and (left_in > 2 or rules.two_player_palifico)
        ):
            # Only a die regained by calza brings a player down to one a second time.
            if rules.palifico_once and cups[loser].had_palifico:
                facts.append(PalificoSpent(state.name(loser)))
            else:
                cups[loser] = replace(cups[loser], had_palifico=True)
                palifico = True
    after = replace(state, cups=tuple(cups), bid=None, bidder=None, purse=purse)
    if after.is_over:
        facts.append(Won(after.winner or ""))
        return replace(after, palifico=False, ruling=tuple(facts), events=state.events + 1)
    if after.cups[starter].dice == 0:
        starter = after.next_active(starter)
    facts.append(RoundStarts(state.round + 1, after.name(starter), palifico))
    return replace(
        after,
        turn=starter,
        round=state.round + 1,
        palifico=palifico,
        ruling=tuple(facts),
        events=state.events + 1,
    )


def _count(state: State, event: Call, bid: Bid) -> int:
    """The dice that count for `bid`: as given, or counted from every player's dice."""
    if (event.count is None) == (event.hands is None):
        raise UsageError("give the count of matching dice, or every player's dice with --dice")
    if event.count is not None:
        if not 0 <= event.count <= state.dice_in_play:
            raise UsageError(
                f"a count is 0 to {state.dice_in_play} (the dice in play), not {event.count}"
            )
        return event.count
    assert event.hands is not None  # one of the two, checked above
    shown: dict[int, tuple[int, ...]] = {}
    labels = [(c.name, i) for i, c in enumerate(state.cups)]
    labels += [(c.nickname, i) for i, c in enumerate(state.cups) if c.nickname]
    for name, dice in event.hands.hands:
        seat = pick(name, labels, "player")
        if seat in shown:
            raise UsageError(f"{state.name(seat)}'s dice are given twice")
        if len(dice) != state.cups[seat].dice:
            held = count_dice(state.cups[seat].dice)
            shown_as = f"{name}={','.join(map(str, dice))}"
            raise UsageError(f"{state.name(seat)} holds {held}, not {len(dice)}: {quote(shown_as)}")
        shown[seat] = dice
    missing = [state.name(i) for i in state.active if i not in shown]
    if missing:
        raise UsageError(f"every player's dice are needed: missing {', '.join(missing)}")
    wild = state.wild and bid.face != 1
    return sum(1 for dice in shown.values() for d in dice if d == bid.face or (wild and d == 1))


# ---------------------------------------------------------------------------- who comes and goes


class Barred(NamedTuple):
    """Why nobody may join now, and the `late_join` value to name with it (None: not that key)."""

    why: str
    key: LateJoin | None = None


def join_barred(state: State) -> Barred | None:
    """Why a newcomer may not sit down now, or None (RULES 7: between rounds, while nobody is
    out). A palifico round nobody has bid in yet is between rounds too."""
    rules = state.rules
    if state.is_over:
        return Barred(f"the game is over: {state.winner} won")
    if rules.late_join is LateJoin.NEVER:
        return Barred("this table takes no newcomers", rules.late_join)
    if state.out_in_order:
        return Barred(f"{state.name(state.out_in_order[0])} is already out", rules.late_join)
    if state.bid is not None and state.bidder is not None:
        bidder = state.name(state.bidder)
        return Barred(f"{bidder}'s {state.bid} stands, and newcomers sit down between rounds")
    full = table_full("liars", len(state.cups))
    return None if full is None else Barred(full)


def _newcomer(state: State, name: str) -> str:
    """A newcomer's name: nobody's at the table, nor of anyone who gave up his seat here."""
    nicknames = [c.nickname for c in state.cups if c.nickname]
    name = check_newcomer(state.cups, name, nicknames)
    if name.casefold() in {n.casefold() for n in state.gone}:
        raise UsageError(f"{quote(name)} gave up a seat in this game: names must differ")
    return name


def _join(state: State, event: Join) -> State:
    """A newcomer sits after `event.after` with the dice of the player with the fewest, pays
    the stake, and plays in his seat's turn."""
    barred = join_barred(state)
    if barred is not None:
        raise refuse_join(event.name, barred.why, barred.key)
    name = _newcomer(state, event.name)
    at = seat_after(state.cups, event.after)
    dice = min(state.cups[i].dice for i in state.active)
    cups = (*state.cups[:at], Cup(name, dice=dice), *state.cups[at:])
    purse = state.purse.join(name)
    paid = purse.pot - state.purse.pot
    return replace(
        state,
        cups=cups,
        turn=moved_turn(state.turn, at),
        purse=purse,
        ruling=(Joined(name, state.name(at - 1), dice, paid),),
        events=state.events + 1,
    )


def _leave(state: State, player: str) -> State:
    """`player` is out at this event, his money left in the pot. A bid left standing is void:
    nobody loses a die, and the player on turn (the next still in, if the leaver was) opens
    a fresh round, palifico if the void one was; the last player with dice wins."""
    i = state.index(player)
    if state.cups[i].dice == 0:
        raise RuleViolation(f"{player} has no dice left: out of the game already")
    cups = list(state.cups)
    cups[i] = replace(cups[i], dice=0, out_at=state.events + 1)
    after = replace(state, cups=tuple(cups), events=state.events + 1)
    facts: list[Fact] = [Left(player)]
    if after.is_over:
        facts.append(Won(after.winner or ""))
        return replace(after, bid=None, bidder=None, palifico=False, ruling=tuple(facts))
    turn = after.next_active(i) if state.turn == i else state.turn
    if state.bid is None or state.bidder is None:
        return replace(after, turn=turn, ruling=tuple(facts))
    facts.append(BidVoided(state.name(state.bidder), state.bid))
    facts.append(RoundStarts(state.round + 1, after.name(turn), state.palifico))
    return replace(
        after, bid=None, bidder=None, turn=turn, round=state.round + 1, ruling=tuple(facts)
    )


def _replace(state: State, old: str, new: str) -> State:
    """`new` takes `old`'s cup and everything on it (dice, palifico had, calzas, a die lost)
    and pays `old` what he had put in; `old` is gone from the table."""
    i = state.index(old)
    if state.cups[i].dice == 0:
        raise RuleViolation(f"{new} cannot take {old}'s seat: {old} is out, nothing to take over")
    name = _newcomer(state, new)
    paid = state.purse.seat_paid(old)
    cups = list(state.cups)
    cups[i] = replace(cups[i], name=name, nickname=None)
    return replace(
        state,
        cups=tuple(cups),
        purse=state.purse.take_over(old, name),
        gone=(*state.gone, old),
        ruling=(Replaced(old, name, paid),),
        events=state.events + 1,
    )


# ---------------------------------------------------------------------------- odds


class Chances(NamedTuple):
    """The chance a bid is true (`at_least`), and that the count is exactly its quantity (what
    a calza needs)."""

    at_least: float
    exactly: float


def chances(bid: Bid, unknown: int, known: Sequence[int] = (), wild: bool = False) -> Chances:
    """The chances of at least and of exactly `bid.quantity` dice showing `bid.face`.

    `unknown` dice are hidden; `known` are one's own, counted as they are. With wild ones, a
    one counts for every other face (RULES.md section 4).

    >>> [round(p, 6) for p in chances(Bid(5, 3), 36)]
    [0.739323, 0.170199]
    """
    counts_for = {bid.face, 1} if wild and bid.face != 1 else {bid.face}
    need = bid.quantity - sum(1 for d in known if d in counts_for)
    p = len(counts_for) / 6

    def exactly(k: int) -> float:
        if not 0 <= k <= unknown:
            return 0.0
        return math.comb(unknown, k) * p**k * (1 - p) ** (unknown - k)

    at_least = 1.0 if need <= 0 else sum(exactly(k) for k in range(need, unknown + 1))
    return Chances(min(1.0, at_least), exactly(need))


def odds_table(
    bid: Bid,
    rules: Rules,
    dice_in_play: int,
    known: Sequence[int] = (),
    palifico: bool = False,
    free_face: bool = False,
) -> list[tuple[Bid, Chances]]:
    """The chances of `bid` and of each smallest raise over it, at a table playing `rules`
    (wild ones unless palifico), with `known` of the dice one's own."""
    wild = rules.ones_wild and not palifico
    unknown = dice_in_play - len(known)
    bids = [bid, *raises_over(bid, rules, dice_in_play, palifico, free_face)]
    return [(b, chances(b, unknown, known, wild)) for b in bids]


def odds(bid: Bid, unknown: int, known: Sequence[int] = (), wild: bool = False) -> float:
    """The chance that at least `bid.quantity` dice show `bid.face`.

    >>> round(odds(Bid(5, 3), 36), 6)
    0.739323
    """
    return chances(bid, unknown, known, wild).at_least


# ---------------------------------------------------------------------------- the contract


def legal_actions(state: State) -> tuple[str, ...]:
    """Bid always; call (and exact, where the ruleset has it) once a bid stands; join between
    rounds while the table takes newcomers; leave and replace while the game is on."""
    if state.is_over:
        return ()
    if state.bid is None:
        found: tuple[str, ...] = ("bid",)
    else:
        found = ("bid", "call", "exact") if has_calza(state) else ("bid", "call")
    joins = ("join",) if join_barred(state) is None else ()
    return (*found, *joins, "leave", "replace")


def has_calza(state: State) -> bool:
    """Whether an exact call (calza) may be made at this table now: the ruleset has it, and
    (once a bid stands) some player who may call exact is not barred by the house rules."""
    rules = state.rules
    if not _calza_at_table(state):
        return False
    if state.bidder is None:
        return True
    callers = (state.turn,) if rules.exact_call_by is CallBy.TURN else state.active
    return any(i != state.bidder and calza_barred(state, i) is None for i in callers)


def outcome(state: State) -> Outcome:
    """Finished when one player has dice; standings by dice left, then by when each went out
    (the last out is the runner-up)."""
    cups = state.cups
    playing = sorted(state.active, key=lambda i: -cups[i].dice)
    standings = tuple(state.name(i) for i in (*playing, *reversed(state.out_in_order)))
    if not state.is_over:
        return Outcome(False, (), standings)
    return Outcome(True, (state.winner or "",), standings)


def json_value(value: object) -> object | None:
    """This game's own values in rulings, as JSON (None: not one of them)."""
    return str(value) if isinstance(value, Bid) else None


def summary(state: State) -> dict[str, object]:
    """The documented `show --json` document for a Liar's dice table."""
    return {
        "game": "liars",
        "players": [
            {"name": c.name, "nickname": c.nickname, "dice": c.dice, "out": c.dice == 0}
            for c in state.cups
        ],
        "out_order": [state.name(i) for i in state.out_in_order],
        "turn": None if state.is_over else state.name(state.turn),
        "bid": (
            {
                "quantity": state.bid.quantity,
                "face": state.bid.face,
                "bidder": state.name(state.bidder),
            }
            if state.bid is not None and state.bidder is not None
            else None
        ),
        "round": state.round,
        "dice_in_play": state.dice_in_play,
        "palifico": state.palifico,
        "winner": state.winner,
        "events": state.events,
    }


def turn(state: State) -> str | None:
    """Who acts next, or None."""
    return None if state.is_over else state.name(state.turn)


def scores(state: State) -> dict[str, int]:
    """Each player's score as the sheet counts it."""
    return {c.name: c.dice for c in state.cups}


def tally(states: Sequence[State]) -> dict[str, dict[str, int]]:
    """Bids, calls won and lost, exact calls, dice lost."""
    found = Tallies()
    add = found.add

    for state in states:
        for fact in state.ruling:
            match fact:
                case Bade(by=by):
                    add(by, "bids")
                case Counted(by=by, exact=exact, right=right):
                    add(by, ("exact calls " if exact else "calls ") + ("won" if right else "lost"))
                case LostDie(player=player):
                    add(player, "dice lost")
    return found.counts


NEW = New(
    help="""A Liar's dice table.

    2 to 20 players in seat order (best 4 to 8); --ruleset perudo plays Perudo: wild ones,
    palifico and calza.
    """,
    options=(FIRST._replace(help="Who opens."), DIRECTION),
    warning=lambda n, title: (
        None
        if SUGGESTED_PLAYERS[0] <= n <= SUGGESTED_PLAYERS[1]
        else f"{title} plays best with {SUGGESTED_PLAYERS[0]} to {SUGGESTED_PLAYERS[1]} players"
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
    seats=lambda state: tuple(PlayerInfo(c.name, c.nickname) for c in state.cups),
    purse=lambda state: state.purse,
)
