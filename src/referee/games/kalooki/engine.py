"""A Kalooki game kept end to end (RULES.md section 5): nine rounds, the score sheet.

The referee keeps what a score sheet keeps and checks what it is shown; it does not track
every draw and discard. Per round: calls (and refusals) against the call limit, lay-downs
checked against the round's contract, cards tacked onto table melds (and joker swaps), stock
exhaustion (twice before anyone is out voids the round), who went out (only after laying
down), and every other hand, scored card by card and checked against the cards that player
can hold. A closed round stays on the sheet with its dealer, who went out and the calls made,
and a hand of it can be corrected later (`fix`) without undoing what came after.
The meld and contract rules are `referee.games.kalooki.melds`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, NamedTuple, assert_never

from referee.errors import NotationError, RuleViolation, UsageError
from referee.games.actions import FIRST, Actions, New, Param, action
from referee.games.base import (
    Direction,
    Game,
    Outcome,
    PlayerInfo,
    Tallies,
    next_seat,
    player_option,
    seat_of,
)
from referee.games.kalooki.cards import JOKER, RANK_NAMES, Card, parse_cards, show
from referee.games.kalooki.melds import (
    CallScope,
    Kind,
    Meld,
    Rules,
    TackOrder,
    card_at,
    check_contract,
    check_meld,
    longest_run,
    parse_lay_down,
    penalty,
    reachable,
)
from referee.games.money import Purse
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
)

THIN_STOCK = 20  # fewer cards than this left for the stock after the last deal: a thin pack


def stock_after_last_deal(rules: Rules, players: int) -> tuple[int, int]:
    """The cards left for the stock after the biggest deal, and the whole pack.

    >>> stock_after_last_deal(Rules(), 6)
    (12, 108)
    """
    pack = 52 * rules.decks + rules.jokers
    return pack - players * max(rules.deal_sizes), pack


# ---------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options:
    """What `referee new kalooki` sets: who deals the first round."""

    dealer: str


def options_from_table(
    table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Rules
) -> Options:
    """The options as stored, checked as strictly as typed ones."""
    names = [p.name for p in players]
    extra = sorted(set(table) - {"dealer"})
    if extra:
        raise UsageError(f"unknown Kalooki options: {', '.join(extra)[:60]}")
    return Options(player_option(table, "dealer", names, "dealer") or names[0])


# ---------------------------------------------------------------------------- events


def _melds_text(melds: Sequence[Sequence[Card]]) -> str:
    return " / ".join(show(list(m)) for m in melds)


def _melds(text: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(m) for m in parse_lay_down([text]))


def _one_card(text: str) -> Card:
    cards = parse_cards(text)
    if len(cards) != 1:
        raise NotationError(f"one card at a time, not {len(cards)}")
    return cards[0]


def _cards_or_points(what: str) -> Callable[[Mapping[str, Any]], None]:
    """A hand is its cards or its points: the typed line must give one (`hand`, `fix`)."""

    def check(typed: Mapping[str, Any]) -> None:
        if typed["cards"] is None and typed["points"] is None:
            raise UsageError(f"give the cards {what}, or --points N")

    return check


PLAYER = Param(
    "player", metavar="PLAYER", help="Who (a prefix or nickname).", player=True, required=True
)
POINTS = Param(
    "points", "number", option="--points", metavar="N", help="The hand's points, if not its cards."
)


def _cards(help: str) -> Param:
    return Param("cards", "words", metavar="CARDS", help=help, parse=parse_cards, show=show,
                 split=True)  # fmt: skip


@action(
    "call",
    Param("caller", metavar="PLAYER", help="Who (a prefix or nickname).", player=True,
          required=True),
    Param("refused", "flag", option="--refused", help="The active player said no."),
    Param("by", option="--by", metavar="PLAYER", help="The active player (for a refusal).",
          player=True),  # a player named, not who acts: `--by ""` is refused as nobody
    help="""Call the top discard.

    Granted, it counts against the caller's call limit; --refused records a refusal, which
    does not count. Nobody who has laid down may call or refuse.
    """,
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class Call:
    """`caller` calls the top discard; `refused` by the active player (`by`, when named)."""

    caller: str
    refused: bool = False
    by: str | None = None


@action(
    "down",
    PLAYER,
    Param("melds", "words", metavar="MELDS", help="Melds between /: 7H 7S 7D / 8C 9C 10C JC",
          parse=_melds, show=_melds_text, split=True, required=True),
    help="""Lay down the contract.

    Checked against this round's contract; the melds go on the table, numbered.
    """,
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class Down:
    """`player` lays down melds (his contract, or new melds where the ruleset allows them)."""

    player: str
    melds: tuple[tuple[Card, ...], ...]


@action(
    "tack",
    PLAYER,
    Param("card", metavar="CARD", help="The card added, like 8S or JK.", parse=_one_card,
          required=True),
    Param("on", "number", option="--on", metavar="N", help="The table meld's number.",
          field="meld", required=True),
    Param("swap", "flag", option="--swap", help="The card a joker stands for: the joker moves."),
    help="""Tack a card on a meld.

    By the tack order and the joker rules: 'tack Cy 9S --on 3'. --swap puts in the card a
    joker stands for, and the joker moves to the end: 'tack Cy 5D --on 1 --swap'.
    """,
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class Tack:
    """`player` adds `card` to table meld `meld`; `swap`: it takes a joker's place there."""

    player: str
    card: Card
    meld: int
    swap: bool = False


@action(
    "stockout",
    help="""The stock ran out.

    The first time, the discards are reshuffled; the second before anyone is out voids the
    round, which is dealt again by the same dealer.
    """,
    whole="the stock, and may void the round",
)
@dataclass(frozen=True, slots=True)
class StockOut:
    """The stock ran out."""


@action(
    "out",
    PLAYER,
    Param("later", "flag", option="--later",
          help="The lay-down was on an earlier turn (where out_on_laydown is false)."),
    help="""A player went out.

    Then every other hand is entered with 'hand'.
    """,
    whole="the round",
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class Out:
    """`player` emptied his hand: the round ends. `later`: the scorekeeper says this is not
    the turn of that player's first lay-down, which the referee cannot see (it keeps no turns)."""

    player: str
    later: bool = False


@action(
    "hand",
    PLAYER,
    _cards("The cards left in hand."),
    POINTS,
    help="""Enter a hand left.

    Scored card by card (joker 50, black ace 15, K Q J 10 ten, red ace 1), or --points N.
    """,
    check=_cards_or_points("left in hand"),
)
@dataclass(frozen=True, slots=True)
class Hand:
    """What `player` holds when the round ends: the cards, or their points."""

    player: str
    cards: tuple[Card, ...] | None = None
    points: int | None = None


@action(
    "fix",
    Param("round", "number", metavar="ROUND", help="The round closed.", required=True),
    PLAYER,
    _cards("The cards that player really held."),
    POINTS,
    help="""Correct a past hand.

    Checked like any hand (its count of cards, its points); kept in the log as a correction
    and marked ~ on the sheet, so nothing after it is undone.
    """,
    check=_cards_or_points("that player held"),
)
@dataclass(frozen=True, slots=True)
class Fix:
    """A closed round's hand corrected: what `player` really held in round `round`."""

    round: int
    player: str
    cards: tuple[Card, ...] | None = None
    points: int | None = None


Event = Call | Down | Tack | StockOut | Out | Hand | Fix | Join | Leave | Replace
ACTIONS = Actions("Kalooki", Call, Down, Tack, StockOut, Out, Hand, Fix, *ROSTER)
PLAY = (Call, Down, Tack, StockOut, Out, Hand)  # what begins a deal: a newcomer waits for the next

# ---------------------------------------------------------------------------- rulings


class Started(NamedTuple):
    """The game: who deals the first round."""

    dealer: str


class Called(NamedTuple):
    """A call, granted (`used` calls now) or refused."""

    caller: str
    refused: bool
    used: int


class LaidDown(NamedTuple):
    """A lay-down: the melds as they stand on the table, numbered from `first`; `jokers`, each
    joker of a four as (its meld's number, the card it stands for), in table order."""

    player: str
    first: int
    melds: tuple[tuple[Card, ...], ...]
    contract: bool
    jokers: tuple[tuple[int, Card], ...] = ()


class Tacked(NamedTuple):
    """A card added to table meld `meld` (`swap`: it freed the joker, which moved); `joker`,
    the card a joker this tack put at an end of a four now stands for (the freed one, or a
    joker tacked), as a lay-down says it."""

    player: str
    card: Card
    meld: int
    swap: bool
    reading: tuple[Card, ...]
    joker: Card | None = None


class Reshuffled(NamedTuple):
    """The stock ran out the first time: the discards, but the top one, are the new stock."""


class Voided(NamedTuple):
    """The stock ran out again before anyone was out: the round is replayed."""

    round: int


class WentOut(NamedTuple):
    """A player went out."""

    player: str


class Scored(NamedTuple):
    """A hand scored: its cards when they were typed, else the points given."""

    player: str
    points: int
    cards: tuple[Card, ...] | None = None


class Fixed(NamedTuple):
    """A closed round's hand corrected, from `before` to `points`; the new total."""

    round: int
    player: str
    before: int
    points: int
    cards: tuple[Card, ...] | None
    total: int


class RoundClosed(NamedTuple):
    """Every hand is in: the round is on the sheet; the next round's dealer and contract."""

    round: int
    next_dealer: str | None
    next_contract: str | None


class Emptied(NamedTuple):
    """`player` has laid every card he holds between turns: `kept` is 1 while his last discard
    is still in his hand on this turn, 0 once he has laid that too. He is out; `out` says so."""

    player: str
    kept: int


class GameWon(NamedTuple):
    """After the last round: the lowest total among those who played to the end (several on a
    tie); or the one player left when everyone else has left."""

    players: tuple[str, ...]
    total: int


class DealPassed(NamedTuple):
    """The dealer of a deal not yet begun left: the next player in deals it."""

    dealer: str
    round: int


Fact = (
    Started | Called | LaidDown | Tacked | Emptied | Reshuffled | Voided | WentOut | Scored
    | RoundClosed | GameWon | Fixed | Joined | Left | Replaced | DealPassed
)  # fmt: skip

# ---------------------------------------------------------------------------- state


class Phase(Enum):
    """Where the round is."""

    PLAYING = "playing"
    SCORING = "scoring"  # someone went out: every other hand is entered
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Seat:
    """A player on the sheet: a score per round closed (None: a round he was not dealt, before
    he sat down or after he left), and this round's situation."""

    name: str
    nickname: str | None = None
    scores: tuple[int | None, ...] = ()
    calls_game: int = 0
    calls_hand: int = 0  # granted in this deal: two cards more in hand each, the sheet's ticks
    down: bool = False
    laid: int = 0  # cards laid down or tacked in this deal: that many fewer in hand
    hand: int | None = None  # this round's score, once entered
    carried: int = 0  # a newcomer starts at the highest total so far (RULES 7)
    joined: int | None = None  # the first round a newcomer was dealt (None: seated at `new`)
    left: int | None = None  # once he has left: the first round he was not dealt

    @property
    def total(self) -> int:
        """The running total (a newcomer's from the total he sat down with)."""
        return self.carried + sum(s for s in self.scores if s is not None)

    @property
    def is_in(self) -> bool:
        """Still in the game: he has not left."""
        return self.left is None

    def is_dealt(self, round_number: int) -> bool:
        """Whether he is (or was) dealt round `round_number`: seated by then, not left before."""
        joined = self.joined is None or self.joined <= round_number
        return joined and (self.left is None or round_number < self.left)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its owner, and its cards in order (jokers where they stand)."""

    owner: str
    kind: Kind
    cards: tuple[Card, ...]
    stands_for: tuple[Card, ...] = ()  # for a four: the card each place stands for


@dataclass(frozen=True, slots=True)
class Played:
    """A closed round as the sheet keeps it, seat by seat where a tuple.

    `calls` are the calls granted in the deal that was scored (a void deal keeps its own);
    they, `down`, `laid`, the table's cards and the typed `hands` are what a corrected hand is
    checked against, exactly as the live hand was.
    """

    dealer: str
    out: str
    calls: tuple[int, ...]
    down: tuple[bool, ...]
    corrected: tuple[bool, ...]
    laid: tuple[int, ...] = ()
    table: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...] | None, ...] = ()


@dataclass(frozen=True, slots=True)
class VoidDeal:
    """A deal voided by the stock running out twice: its round, dealer and calls, seat by seat.

    Its calls stay on it (the sheet's void row) and count against a per-game limit, but not
    for the replayed deal's hands.
    """

    round: int
    dealer: str
    calls: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    """The sheet after some events."""

    rules: Rules
    seats: tuple[Seat, ...]
    round: int  # 1 .. len(contracts)
    dealer: int
    phase: Phase = Phase.PLAYING
    table: tuple[TableMeld, ...] = ()
    stockouts: int = 0
    voids: tuple[VoidDeal, ...] = ()
    out: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] = ()  # this round's hands typed card by card
    # The seat that made its first lay-down of the round with no other player's event since:
    # still the turn of that lay-down, as far as the events tell (`out_on_laydown`).
    laying: int | None = None
    played: tuple[Played, ...] = ()  # the closed rounds, in order: round n is played[n - 1]
    purse: Purse = field(default_factory=Purse)
    begun: bool = False  # a play of this deal has been entered: a newcomer waits for the next
    gone: tuple[str, ...] = ()  # who left, in the order they left
    ruling: tuple[Fact, ...] = ()
    events: int = 0

    @property
    def void_rounds(self) -> tuple[int, ...]:
        """The rounds of the void deals, in order (a round voided twice is there twice)."""
        return tuple(v.round for v in self.voids)

    @property
    def rounds(self) -> int:
        """How many rounds the game has."""
        return len(self.rules.contracts)

    @property
    def is_over(self) -> bool:
        """True after the last round closed."""
        return self.phase is Phase.OVER

    def name(self, i: int) -> str:
        """The name of the player in seat `i`."""
        return self.seats[i].name

    def index(self, name: str) -> int:
        """The seat of the player called `name`."""
        return seat_of(self.seats, name)

    def calls_used(self, seat: Seat) -> int:
        """Calls that count against the limit, by `call_limit_scope`."""
        return seat.calls_game if self.rules.call_limit_scope is CallScope.GAME else seat.calls_hand

    @property
    def playing(self) -> tuple[Seat, ...]:
        """The seats still in the game (who left is not)."""
        return tuple(s for s in self.seats if s.is_in)

    @property
    def low(self) -> int:
        """The lowest total of those still in the game."""
        return min(s.total for s in self.playing)

    @property
    def winners(self) -> tuple[str, ...]:
        """The lowest total once the game is over (a tie has several); who left never wins."""
        if not self.is_over:
            return ()
        return tuple(s.name for s in self.playing if s.total == self.low)

    def dealt(self, name: str) -> int:
        """The seat of `name`, who plays this round: refused if he has left it."""
        i = self.index(name)
        if not self.seats[i].is_dealt(self.round):
            raise RuleViolation(f"{name} has left the game: {name} is dealt no more rounds")
        return i


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    """Seat the table; `dealer` deals round 1."""
    seats = tuple(Seat(p.name, p.nickname) for p in players)
    dealer = [p.name for p in players].index(options.dealer)
    hands = tuple(None for _ in seats)
    purse = Purse.start(rules.stakes, [p.name for p in players])
    return State(
        rules, seats, 1, dealer, hands=hands, purse=purse, ruling=(Started(options.dealer),)
    )


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if state.is_over and not isinstance(event, Fix):  # a slip on the sheet is fixed any time
        won = " and ".join(state.winners)
        raise RuleViolation(f"the game is over after round {state.rounds}: {won} won")
    facts: list[Fact] = []
    if state.laying is not None and not _same_turn(state, event):
        state = replace(state, laying=None)
    if isinstance(event, PLAY):
        state = replace(state, begun=True)
    match event:
        case Call():
            state = _call(state, event, facts)
        case Down(player=player, melds=melds):
            state = _down(state, state.dealt(player), melds, facts)
        case Tack():
            state = _tack(state, event, facts)
        case StockOut():
            state = _stockout(state, facts)
        case Out(player=player, later=later):
            state = _out(state, state.dealt(player), later, facts)
        case Hand():
            state = _hand(state, event, facts)
        case Fix():
            state = _fix(state, event, facts)
        case Join():
            state = _join(state, event, facts)
        case Leave(player=player):
            state = _leave(state, state.index(player), facts)
        case Replace():
            state = _replace(state, event, facts)
        case _:
            assert_never(event)
    return replace(state, ruling=tuple(facts), events=state.events + 1)


def _same_turn(state: State, event: Event) -> bool:
    """Whether `event` leaves it the turn of the first lay-down `state.laying` made.

    The referee keeps no turns, so the events tell: the player's own tacks, melds and going
    out are his turn going on, and a correction of a closed round (`fix`) is no play at all;
    anything else (another player's call, lay-down or tack, the stock running out, which needs
    a draw after his) means the turn has passed. Turns with nothing entered cannot be seen: the
    scorekeeper says so with `out PLAYER --later`.
    """
    match event:
        case Down(player=player) | Tack(player=player) | Out(player=player):
            return state.index(player) == state.laying
        case Fix() | Join() | Leave() | Replace():  # the sheet and the table, not a play
            return True
    return False


def _playing(state: State, what: str) -> None:
    if state.phase is not Phase.PLAYING:
        out = state.name(state.out) if state.out is not None else "someone"
        raise RuleViolation(f"{out} went out: {what} waits for the next round; enter the hands")


def _kept(state: State, seat: Seat) -> int:
    """The cards `seat` keeps between turns: the deal, two a granted call, less what he laid
    down or tacked (0 or below: he has laid them all, his drawn card too at -1)."""
    return _held(state.rules, state.round, seat.calls_hand)[0] - seat.laid


def cards_left(kept: int) -> str:
    """What a player who has laid every card he holds between turns has left (`Emptied.kept`),
    as his ruling and every refusal naming him say it: his discard (`one card`), or nothing."""
    return "one card" if kept > 0 else "no card"


def _left(state: State, seat: Seat) -> str:
    """`cards_left` for `seat`, who has laid every card he holds between turns."""
    return cards_left(_kept(state, seat) + 1)


def _emptied(state: State, but: int) -> Seat | None:
    """A player other than `but` who has laid every card he holds between turns, if any: he goes
    out with his last discard (or lay), so nobody else can empty his hand this round."""
    for k, seat in enumerate(state.seats):
        if k != but and seat.is_dealt(state.round) and _kept(state, seat) <= 0:
            return seat
    return None


def _set_seat(state: State, i: int, **changes: object) -> State:
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)  # type: ignore[arg-type]
    return replace(state, seats=tuple(seats))


def _call(state: State, event: Call, facts: list[Fact]) -> State:
    # A call is checked the same whether it is granted or refused: a refusal of a call the
    # caller may not make would record a call that never could have happened.
    _playing(state, "a call")
    i = state.dealt(event.caller)
    seat = state.seats[i]
    if seat.down:
        raise RuleViolation(f"{seat.name} has laid down: {seat.name} may not call any more")
    if state.calls_used(seat) >= state.rules.call_limit:
        scope = "this game" if state.rules.call_limit_scope is CallScope.GAME else "this round"
        raise RuleViolation(f"{seat.name} has made {state.rules.call_limit} calls {scope}: no more")
    if event.by is not None:
        active = state.dealt(event.by)
        if active == i:
            raise RuleViolation(
                f"{seat.name} is the active player: nobody calls the discard they just made"
            )
        if event.refused and state.seats[active].down:
            raise RuleViolation(f"{event.by} has laid down: {event.by} may not refuse a call")
    if event.refused:
        facts.append(Called(seat.name, True, state.calls_used(seat)))
        return state
    state = _set_seat(
        state,
        i,
        calls_game=seat.calls_game + 1,
        calls_hand=seat.calls_hand + 1,
    )
    facts.append(Called(seat.name, False, state.calls_used(state.seats[i])))
    return state


def _down(state: State, i: int, melds: tuple[tuple[Card, ...], ...], facts: list[Fact]) -> State:
    _playing(state, "a lay-down")
    seat = state.seats[i]
    if seat.down:
        if not state.rules.allow_new_melds_after_laydown:
            raise RuleViolation(
                f"{seat.name} has laid down: {seat.name} may only add cards to melds on the table"
            )
        checked = [check_meld(m, state.rules) for m in melds]
        for number, meld in enumerate(checked, start=1):
            if not meld.legal:
                raise RuleViolation(f"meld {number} ({show(list(meld.cards))}): {meld.reason}")
        _check_distinct(state, seat.name, checked)
        contract = False
    else:
        result = check_contract(state.round, melds, state.rules)
        if not result.legal:
            raise RuleViolation(f"no lay-down: {result.reason}")
        checked = list(result.melds)
        contract = True
    count = sum(len(m) for m in melds)
    _check_holds(state, i, count, f"a lay-down of {count} cards")
    _check_pack(state, [c for m in melds for c in m])
    laid = tuple(
        TableMeld(seat.name, m.kind, m.reading, m.stands_for) for m in checked if m.kind is not None
    )
    facts.append(
        LaidDown(
            seat.name,
            len(state.table) + 1,
            tuple(m.cards for m in laid),
            contract,
            tuple(
                (len(state.table) + 1 + k, place)
                for k, m in enumerate(laid)
                for card, place in zip(m.cards, m.stands_for, strict=False)  # a three: none
                if card.is_joker
            ),
        )
    )
    state = replace(state, table=state.table + laid, laying=i if contract else state.laying)
    state = _set_seat(state, i, down=True, laid=seat.laid + count)
    if contract and not state.rules.out_on_laydown and _kept(state, state.seats[i]) <= 0:
        raise RuleViolation(
            f"{seat.name} cannot lay down {count} cards: {seat.name} would have no card left"
            f" after the discard, and going out waits for {seat.name}'s next turn"
            " (out_on_laydown = false)"
        )
    return _laid(state, i, facts)


def _laid(state: State, i: int, facts: list[Fact]) -> State:
    """After player `i` lays cards: tell when that leaves him no card to keep (he is out)."""
    seat = state.seats[i]
    kept = _kept(state, seat)
    if kept <= 0:
        if (other := _emptied(state, i)) is not None:
            raise RuleViolation(
                f"{seat.name} would have {_left(state, seat)} left, but {other.name} has"
                f" {_left(state, other)} left already and goes out: out {other.name} ends the round"
            )
        facts.append(Emptied(seat.name, kept + 1))  # the drawn card, while it is in hand
    return state


def _held(rules: Rules, round_number: int, calls: int) -> tuple[int, str]:
    """The cards a player holds between turns before laying anything: the deal, two a call."""
    dealt = rules.deal_sizes[round_number - 1]
    why = f"{dealt} dealt"
    if calls:
        why += f" + 2 for {'1 call' if calls == 1 else f'each of {calls} calls'}"
    return dealt + 2 * calls, why


def _check_holds(state: State, i: int, count: int, what: str) -> None:
    """Refuse laying `count` cards more than player `i` can have in hand on his turn.

    On his turn he has drawn a card, so he holds one more than between turns, and he may lay
    all of it and go out without a final discard.
    """
    seat = state.seats[i]
    most, why = _held(state.rules, state.round, seat.calls_hand)
    left = most + 1 - seat.laid
    if count > left:
        laid = f", {seat.laid} laid already" if seat.laid else ""
        raise RuleViolation(
            f"{what}, but {seat.name} holds at most {left} cards on a turn ({why} + 1 drawn{laid})"
        )


def _check_distinct(state: State, player: str, new: Sequence[Meld]) -> None:
    """New melds keep the contract's rule: a player's threes each their own rank, fours each
    their own suit, counting the melds that player laid this round before."""
    seen: dict[str, str] = {}  # "a three of 9s" -> where that player has one
    for number, meld in enumerate(state.table, start=1):
        if meld.owner == player:
            seen[_meld_kind(meld.kind, meld.cards)] = f"meld {number} on the table"
    for number, checked in enumerate(new, start=1):
        assert checked.kind is not None  # illegal melds were refused before
        what = _meld_kind(checked.kind, checked.cards)
        if what in seen:
            rule = "its own rank" if checked.kind is Kind.THREE else "its own suit"
            raise RuleViolation(
                f"meld {number} ({show(list(checked.cards))}): {player} has {what} already"
                f" ({seen[what]}), and each {checked.kind.value} needs {rule}"
            )
        seen[what] = f"meld {number} here"


def _meld_kind(kind: Kind, cards: Sequence[Card]) -> str:
    """What must differ between one player's melds: `a three of 9s`, `a four in spades`."""
    natural = next(c for c in cards if not c.is_joker)
    if kind is Kind.THREE:
        return f"a three of {RANK_NAMES.get(natural.rank, str(natural.rank))}s"
    assert natural.suit is not None  # naturals have suits
    return f"a four in {natural.suit.name.lower()}"


def _check_pack(state: State, more: Sequence[Card], hands: Sequence[Card] = ()) -> None:
    """Refuse cards that, with the table's, need more copies than the pack holds."""
    seen = Counter(c for m in state.table for c in m.cards)
    seen.update(more)
    seen.update(hands)
    jokers, decks = state.rules.jokers, state.rules.decks
    over = [(card, n) for card, n in seen.items() if n > (jokers if card.is_joker else decks)]
    if over:  # the first in card order is named (sorting only these: replays check every hand)
        card, n = min(over)
        limit = jokers if card.is_joker else decks
        raise UsageError(f"{n} x {card} this round: the pack holds only {limit}")


def _tack(state: State, event: Tack, facts: list[Fact]) -> State:
    _playing(state, "a tack")
    i = state.dealt(event.player)
    if not state.seats[i].down:
        raise RuleViolation(
            f"{event.player} has not laid down: {event.player} lays down the contract first"
        )
    if not 1 <= event.meld <= len(state.table):
        raise UsageError(f"there is no table meld {event.meld}: the table has {len(state.table)}")
    meld = state.table[event.meld - 1]
    _check_holds(state, i, 1, f"{event.player} tacks {event.card}")
    _check_pack(state, [event.card])
    if event.swap and not any(c.is_joker for c in meld.cards):
        raise RuleViolation(
            f"meld {event.meld} has no joker ({show(list(meld.cards))}):"
            f" tack {event.card} without --swap"
        )
    if meld.kind is Kind.THREE:
        new = _tack_three(state, meld, event)
    else:
        new = _tack_four(state, meld, event)
    table = list(state.table)
    table[event.meld - 1] = new
    joker = _new_place(meld, new) if event.swap or event.card.is_joker else None
    facts.append(Tacked(event.player, event.card, event.meld, event.swap, new.cards, joker))
    state = replace(state, table=tuple(table))
    return _laid(_set_seat(state, i, laid=state.seats[i].laid + 1), i, facts)


def _new_place(before: TableMeld, after: TableMeld) -> Card | None:
    """The place a tack opened at an end of a four (None for a three, which has no places)."""
    return next((place for place in after.stands_for if place not in before.stands_for), None)


def _tack_three(state: State, meld: TableMeld, event: Tack) -> TableMeld:
    if event.swap:
        raise RuleViolation("a joker in a three never moves")
    rank = next(c.rank for c in meld.cards if not c.is_joker)
    card = event.card
    if not card.is_joker and card.rank != rank:
        raise RuleViolation(f"{card} does not fit a three of {show([meld.cards[0]])[:-1]}s")
    if (
        state.rules.three_distinct_suits
        and not card.is_joker
        and card.suit in {c.suit for c in meld.cards}
    ):
        raise RuleViolation(f"this three has a {card} already and its suits must differ")
    naturals = [c for c in meld.cards if not c.is_joker]
    jokers = [c for c in meld.cards if c.is_joker]
    cards = (*naturals, card, *jokers) if not card.is_joker else (*meld.cards, card)
    return replace(meld, cards=cards)


def _positions(meld: TableMeld) -> list[int]:
    """The run positions (1 = low ace .. 14 = high ace) of a four's places, in order.

    A four's places are consecutive, so its first place decides: an ace there is the low
    ace (A-2-3-...), anything else stands at its own rank.
    """
    first = meld.stands_for[0].rank
    return list(range(first, first + len(meld.stands_for)))


def _tack_four(state: State, meld: TableMeld, event: Tack) -> TableMeld:
    places = _positions(meld)
    suit = meld.stands_for[0].suit
    assert suit is not None  # a four's places all have its suit
    cards, stands = list(meld.cards), list(meld.stands_for)
    card = event.card
    held = [
        k for k, (c, s) in enumerate(zip(cards, stands, strict=True)) if c.is_joker and s == card
    ]
    if event.swap:
        if card.is_joker:
            raise RuleViolation("a swap puts in the natural card a joker stands for")
        if not held:
            raise RuleViolation(f"no joker in meld {event.meld} stands for {card}")
        cards[held[0]] = card
        return _extend(state, meld, cards, stands, places, JOKER, "the freed joker")
    if card.is_joker:
        return _extend(state, meld, cards, stands, places, JOKER, "a joker")
    if card.suit != suit:
        raise RuleViolation(
            f"{card} is not a {suit.name.lower()[:-1]} card: this four is {suit.name.lower()}"
        )
    if held:
        raise RuleViolation(
            f"a joker stands for {card} in meld {event.meld}: put it in with --swap,"
            " and the joker moves"
        )
    return _extend(state, meld, cards, stands, places, card, str(card))


def _extend(
    state: State,
    meld: TableMeld,
    cards: list[Card],
    stands: list[Card],
    places: list[int],
    card: Card,
    what: str,
) -> TableMeld:
    """Put `card` at an end of a four, by `tack_order`, keeping jokers apart.

    A refusal says why each end is closed: the card it takes there, the joker already standing
    at that end, or the ace the run has reached; never an open place as if it were taken.
    """
    suit = stands[0].suit
    assert suit is not None
    low, high = places[0], places[-1]
    top = 14 if (state.rules.ace_both_ends or low != 1) else 13
    bottom = 1 if (state.rules.ace_both_ends or high != 14) else 2
    if high - low + 2 > longest_run(state.rules):
        raise RuleViolation(f"meld is as long as a run can be: {what} does not fit")
    high_first = state.rules.tack_order is TackOrder.HIGH_FIRST
    closed: dict[str, str] = {}  # why an end takes nothing here, high end first
    ends: list[tuple[str, int]] = []
    if high < top:
        ends.append(("high", high + 1))
    else:
        closed["high"] = f"the high end is at the {'ace' if high == 14 else 'king'}"
    if low <= bottom:
        closed["low"] = "the low end is at the ace"
    elif high_first and high < top:
        closed["low"] = "the low end opens once the high end reaches the ace"
    else:
        ends.append(("low", low - 1))
    for side, position in ends:
        target = card_at(position, suit)
        neighbour = cards[-1] if side == "high" else cards[0]
        beside = stands[-1] if side == "high" else stands[0]
        if not card.is_joker and card != target:
            closed[side] = f"the {side} end takes {target}"
        elif card.is_joker and neighbour.is_joker:
            closed[side] = (
                f"the {side} end holds a joker already (for {beside}) and two jokers"
                " may never stand side by side"
            )
        elif side == "high":
            return replace(meld, cards=(*cards, card), stands_for=(*stands, target))
        else:
            return replace(meld, cards=(card, *cards), stands_for=(target, *stands))
    reasons = [closed[side] for side in ("high", "low") if side in closed]
    raise RuleViolation(f"{what} does not fit this four: {'; '.join(reasons)}")


def _stockout(state: State, facts: list[Fact]) -> State:
    _playing(state, "the stock")
    if state.stockouts == 0:
        facts.append(Reshuffled())
        return replace(state, stockouts=1)
    facts.append(Voided(state.round))
    void = VoidDeal(state.round, state.name(state.dealer), tuple(s.calls_hand for s in state.seats))
    return _new_round(replace(state, voids=(*state.voids, void)), state.dealer)


def _out(state: State, i: int, later: bool, facts: list[Fact]) -> State:
    _playing(state, "going out")
    name = state.name(i)
    if not state.seats[i].down:
        raise RuleViolation(
            f"{name} has not laid down this round: {name} lays down the contract before going out"
        )
    if state.laying == i and not state.rules.out_on_laydown and not later:
        raise RuleViolation(
            f"{name} cannot go out: {name} laid down this turn, and going out waits for"
            f" {name}'s next turn (out_on_laydown = false; if it came, out {name} --later)"
        )
    if (other := _emptied(state, i)) is not None:
        raise RuleViolation(
            f"{other.name} has {_left(state, other)} left, so {other.name} goes out, not {name}:"
            f" out {other.name} (or undo the lay that left {other.name} {_left(state, other)})"
        )
    facts.append(WentOut(name))
    state = _set_seat(state, i, hand=0)
    return replace(state, phase=Phase.SCORING, out=i)


def _hand(state: State, event: Hand, facts: list[Fact]) -> State:
    if state.phase is not Phase.SCORING:
        raise RuleViolation("no hand is scored before someone goes out: out PLAYER first")
    i = state.dealt(event.player)
    seat = state.seats[i]
    if i == state.out:
        raise RuleViolation(f"{seat.name} went out: {seat.name}'s hand is empty, 0 points")
    if seat.hand is not None:
        had = "1 point" if seat.hand == 1 else f"{seat.hand} points"
        raise RuleViolation(f"{seat.name}'s hand is in already ({had})")
    hands = [h for k, h in enumerate(state.hands) if k != i and h is not None]
    taken = [*(c for m in state.table for c in m.cards), *(c for h in hands for c in h)]
    held = _held(state.rules, state.round, seat.calls_hand)
    points = _hand_points(
        state.rules, seat.name, held, seat.laid if seat.down else None, taken, event
    )
    facts.append(Scored(seat.name, points, event.cards))
    state = _set_seat(state, i, hand=points)
    typed = [*state.hands]
    typed[i] = event.cards
    # each penalty point pays `loss_value` into the pot as the hand is scored (RULES 7)
    state = replace(state, hands=tuple(typed), purse=state.purse.lose(seat.name, points))
    if any(s.hand is None for s in state.seats if s.is_dealt(state.round)):
        return state
    return _close_round(state, facts)


def _hand_points(
    rules: Rules,
    player: str,
    held: tuple[int, str],
    laid: int | None,
    taken: Sequence[Card],
    event: Hand | Fix,
) -> int:
    """The points of a hand left at the end of a round, if that player could hold it.

    `held` is the cards held between turns before laying anything, and why; `laid` the cards
    he laid down or tacked (None: never down). Never down, a player holds exactly that many;
    down, 1 to that many less what he laid (an empty hand is going out). `taken` are the cards
    on the table and in the other hands typed: the hand cannot need more copies than the pack
    has beside them, and points given as a number must be a score the rest of the pack can
    make with that many cards.
    """
    cards, points = event.cards, event.points
    if (cards is None) == (points is None):
        raise UsageError("give the cards left in hand, or --points N")
    most, why = held
    if laid is not None:
        counts = range(1, most - laid + 1)
        many = "1 card" if most - laid == 1 else f"1 to {most - laid} cards"
        holds = f"{player} holds {many} ({why}, {laid} laid down or tacked)"
        if not counts:
            holds = (
                f"{player} holds no card ({why}, {laid} laid down or tacked): only who went out"
                f" empties a hand (if {player} went out, undo to before the other 'out')"
            )
            raise RuleViolation(f"a hand for {player}, but {holds}")
    else:
        counts = range(most, most + 1)
        holds = f"{player} holds {most} cards ({why}, never laid down)"
    if cards is not None:
        if len(cards) not in counts:
            typed = "1 card" if len(cards) == 1 else f"{len(cards)} cards"
            raise RuleViolation(f"{typed} typed, but {holds}")
        rules.check_cards(cards, limit=most)
        seen = Counter(taken) + Counter(cards)
        for card, n in sorted(seen.items()):
            limit = rules.jokers if card.is_joker else rules.decks
            if n > limit and card in cards:
                raise UsageError(
                    f"{n} x {card} this round with the table and the other hands:"
                    f" the pack holds only {limit}"
                )
        return sum(penalty(c) for c in cards)
    assert points is not None
    possible = frozenset[int]().union(*(reachable(rules, n, taken) for n in counts))
    if points not in possible:
        if not possible:
            raise RuleViolation(f"{points} points typed, but {holds}: the pack has no such hand")
        low, high = min(possible), max(possible)
        gap = "" if points < low or points > high else f", but never {points}"
        left = ", from what the table and the hands typed leave of the pack" if taken else ""
        raise RuleViolation(
            f"{points} points typed, but {holds}: they score {low} to {high}{gap}{left}"
        )
    return points


def _fix(state: State, event: Fix, facts: list[Fact]) -> State:
    """Correct a closed round's hand; the log keeps the slip and its correction."""
    if not 1 <= event.round <= len(state.played):
        if event.round == state.round and not state.is_over:
            raise RuleViolation(
                f"round {event.round} is still being played: take a hand of it back with undo"
            )
        if not state.played:
            raise RuleViolation("no round is on the sheet yet: enter this round's hands")
        raise RuleViolation(
            f"round {event.round} is not on the sheet: rounds 1 to {len(state.played)} are"
        )
    i = state.index(event.player)
    seat = state.seats[i]
    played = state.played[event.round - 1]
    if played.out == seat.name:
        raise RuleViolation(f"{seat.name} went out in round {event.round}: 0 points, no hand")
    before = seat.scores[event.round - 1]
    if before is None:
        raise RuleViolation(f"{seat.name} was not dealt round {event.round}: no hand to fix")
    held = _held(state.rules, event.round, played.calls[i])
    hands = [h for k, h in enumerate(played.hands) if k != i and h is not None]
    taken = [*played.table, *(c for h in hands for c in h)]
    laid = played.laid[i] if played.down[i] else None
    points = _hand_points(state.rules, seat.name, held, laid, taken, event)
    if points == before:
        raise RuleViolation(
            f"{seat.name}'s round {event.round} hand is {points} already: nothing to fix"
        )
    scores = list(seat.scores)
    scores[event.round - 1] = points
    state = _set_seat(state, i, scores=tuple(scores))
    corrected = tuple(c or k == i for k, c in enumerate(played.corrected))
    rounds = list(state.played)
    hands_now = list(played.hands)
    hands_now[i] = event.cards
    rounds[event.round - 1] = replace(played, corrected=corrected, hands=tuple(hands_now))
    # a hand corrected upwards pays for the points it adds; one corrected down gets nothing
    # back: what is in the pot stays there (RULES 7)
    purse = state.purse.lose(seat.name, max(points - before, 0))
    state = replace(state, played=tuple(rounds), purse=purse)
    facts.append(Fixed(event.round, seat.name, before, points, event.cards, state.seats[i].total))
    if state.is_over:
        facts.append(GameWon(state.winners, state.low))
    return state


def _close_round(state: State, facts: list[Fact]) -> State:
    seats = tuple(
        replace(s, scores=(*s.scores, (s.hand or 0) if s.is_dealt(state.round) else None))
        for s in state.seats
    )
    record = Played(
        dealer=state.name(state.dealer),
        out=state.name(state.out) if state.out is not None else "",
        calls=tuple(s.calls_hand for s in seats),
        down=tuple(s.down for s in seats),
        corrected=tuple(False for _ in seats),
        laid=tuple(s.laid for s in seats),
        table=tuple(c for m in state.table for c in m.cards),
        hands=state.hands,
    )
    state = replace(state, seats=seats, played=(*state.played, record))
    if state.round >= state.rounds:
        facts.append(RoundClosed(state.round, None, None))
        state = replace(state, phase=Phase.OVER, table=(), out=None)
        facts.append(GameWon(state.winners, state.low))
        return state
    dealer = _next_dealer(state, state.dealer)  # the deal passes to the left
    contract = state.rules.contract(state.round + 1).code
    facts.append(RoundClosed(state.round, state.name(dealer), contract))
    return _new_round(replace(state, round=state.round + 1), dealer)


def _new_round(state: State, dealer: int) -> State:
    """A fresh deal: nobody down, nothing laid, no table, no calls in it yet."""
    seats = tuple(replace(s, down=False, hand=None, calls_hand=0, laid=0) for s in state.seats)
    return replace(
        state,
        seats=seats,
        dealer=dealer,
        phase=Phase.PLAYING,
        table=(),
        stockouts=0,
        out=None,
        hands=tuple(None for _ in seats),
        laying=None,
        begun=False,
    )


def _next_dealer(state: State, after: int) -> int:
    """Who deals after seat `after`: the next player to the left still in the game."""
    seats = state.seats
    return next_seat(after, len(seats), Direction.LEFT, lambda k: seats[k].is_in)


def dealers_ahead(state: State) -> dict[int, str]:
    """Who deals each round from this one to the last, as the deal passes (the sheet's
    dealer for the rounds to come)."""
    found: dict[int, str] = {}
    if state.is_over:
        return found
    dealer = state.dealer
    for number in range(state.round, state.rounds + 1):
        found[number] = state.name(dealer)
        dealer = _next_dealer(state, dealer)
    return found


# ---------------------------------------------------------------------------- the roster (RULES 7)


def why_no_join(state: State) -> tuple[str, LateJoin | None] | None:
    """Why nobody may sit down now (and the rule that says so), or None: he may.

    A newcomer sits down before a round is dealt (no play of the deal entered yet), while
    nobody has left (`late_join`), and while the table has a seat for him.
    """
    from referee.games import info  # the registry says how many play Kalooki

    rule = state.rules.late_join
    most = info("kalooki").max_players
    if state.is_over:
        return f"the game is over after round {state.round}", None
    if rule is LateJoin.NEVER:
        return "this table takes no newcomers", rule
    if state.gone:
        return f"{state.gone[0]} has left", rule
    if len(state.seats) >= most:
        return f"Kalooki is played by at most {most}, and {len(state.seats)} sit here", None
    if state.phase is not Phase.PLAYING or state.begun:
        return (
            f"round {state.round} is under way: a newcomer sits down before a round is dealt",
            None,
        )
    return None


def _join(state: State, event: Join, facts: list[Fact]) -> State:
    """A newcomer sits down after `event.after`, at the highest total so far, paying the
    stake; he is dealt this round, and the deal passes through his seat."""
    nicknames = [s.nickname for s in state.seats if s.nickname]
    gone = [t.payee for t in state.purse.moved]  # replaced: paid back, not to sit again
    name = check_newcomer(state.seats, event.name, nicknames, gone)
    at = seat_after(state.seats, event.after)
    refused = why_no_join(state)
    if refused is not None:
        raise refuse_join(name, *refused)
    carried = max(s.total for s in state.seats)
    seat = Seat(name, scores=(None,) * len(state.played), carried=carried, joined=state.round)
    seats = (*state.seats[:at], seat, *state.seats[at:])

    def put(row: tuple[Any, ...], value: object) -> tuple[Any, ...]:
        return (*row[:at], value, *row[at:]) if len(row) == len(state.seats) else row

    played = tuple(
        replace(
            p,
            calls=put(p.calls, 0),
            down=put(p.down, False),
            corrected=put(p.corrected, False),
            laid=put(p.laid, 0),
            hands=put(p.hands, None),
        )
        for p in state.played
    )
    voids = tuple(replace(v, calls=put(v.calls, 0)) for v in state.voids)
    purse = state.purse.join(name)
    facts.append(Joined(name, state.seats[at - 1].name, carried, purse.put_in(name)))
    return replace(
        state,
        seats=seats,
        dealer=moved_turn(state.dealer, at),
        hands=put(state.hands, None),
        played=played,
        voids=voids,
        purse=purse,
    )


def _leave(state: State, i: int, facts: list[Fact]) -> State:
    """A player leaves for good: dealt no more rounds, ranked below everyone who plays to the
    end; his money stays in the pot. Mid-deal his hand is dead (no score for the round); once
    someone has gone out the round is over, so his hand is entered first and counts."""
    seat = state.seats[i]
    name = seat.name
    if not seat.is_in:
        raise RuleViolation(f"{name} has left already")
    scoring = state.phase is Phase.SCORING
    if scoring and seat.hand is None:
        raise RuleViolation(
            f"{name}'s hand is not in: round {state.round} is over, so it counts;"
            f" enter it (hand {name} ...), then {name} leaves"
        )
    state = _set_seat(state, i, left=state.round + 1 if scoring else state.round)
    state = replace(
        state,
        gone=(*state.gone, name),
        laying=None if state.laying == i else state.laying,
    )
    facts.append(Left(name))
    if len(state.playing) == 1:  # one player left in: the game is his
        state = replace(state, phase=Phase.OVER, table=(), out=None)
        facts.append(GameWon(state.winners, state.low))
        return state
    if i == state.dealer and not state.begun:  # he would have dealt: the next one in deals
        dealer = _next_dealer(state, i)
        facts.append(DealPassed(state.name(dealer), state.round))
        state = replace(state, dealer=dealer)
    return state


def _replace(state: State, event: Replace, facts: list[Fact]) -> State:
    """NEW takes OLD's seat with everything on it (his total, his calls, his melds on the
    table, his rounds on the sheet) and pays OLD what OLD had paid for it."""
    i = state.index(event.old)
    old = state.seats[i]
    if not old.is_in:
        raise RuleViolation(f"{old.name} has left: there is no seat to take over")
    nicknames = [s.nickname for s in state.seats if s.nickname]
    new = check_newcomer(state.seats, event.new, nicknames, [t.payee for t in state.purse.moved])

    def renamed(name: str) -> str:
        return new if name == old.name else name

    paid = state.purse.seat_paid(old.name)
    state = _set_seat(state, i, name=new, nickname=None)
    facts.append(Replaced(old.name, new, paid))
    return replace(
        state,
        table=tuple(replace(m, owner=renamed(m.owner)) for m in state.table),
        played=tuple(
            replace(p, dealer=renamed(p.dealer), out=renamed(p.out)) for p in state.played
        ),
        voids=tuple(replace(v, dealer=renamed(v.dealer)) for v in state.voids),
        purse=state.purse.take_over(old.name, new),
    )


# ---------------------------------------------------------------------------- the contract


def legal_actions(state: State) -> tuple[str, ...]:
    """What may be entered now: the round's play, or its hands; and a closed round's `fix`,
    which `apply` takes in any phase (after the last round too)."""
    fix = ("fix",) if state.played else ()
    join = ("join",) if why_no_join(state) is None else ()
    roster = (*join, "leave", "replace")
    match state.phase:
        case Phase.PLAYING:
            return ("call", "down", "tack", "stockout", "out", *fix, *roster)
        case Phase.SCORING:
            return ("hand", *fix, *roster)
        case Phase.OVER:
            return fix
    assert_never(state.phase)


def outcome(state: State) -> Outcome:
    """Finished after the last round (or when one player is left in): the lowest total wins,
    a tie shares the place; who left ranks below everyone still in, the last to leave first."""
    order = sorted(state.playing, key=lambda s: s.total)
    standings = [s.name for s in order]
    places = [1 + sum(1 for o in order if o.total < s.total) for s in order]
    for name in reversed(state.gone):
        standings.append(name)
        places.append(len(standings))
    return Outcome(state.is_over, state.winners, tuple(standings), places=tuple(places))


def json_value(value: object) -> object | None:
    """This game's own values in rulings, as JSON (None: not one of them)."""
    if isinstance(value, Card):
        return str(value)
    return None


def summary(state: State) -> dict[str, object]:
    """The documented `show --json` document for a Kalooki game."""
    rounds = state.rounds
    winners = state.winners
    done = len(state.played)
    contract = state.rules.contract(min(state.round, rounds))
    return {
        "game": "kalooki",
        "round": state.round,
        "contract": contract.code,
        "deal_size": state.rules.deal_sizes[min(state.round, rounds) - 1],
        "dealer": state.name(state.dealer),
        "phase": state.phase.value,
        "players": [
            {
                "name": s.name,
                "total": s.total,
                "rounds": [*s.scores, *[None] * (rounds - len(s.scores))],
                "calls_used": state.calls_used(s),
                "calls": [*(p.calls[k] for p in state.played), *[None] * (rounds - done)],
                "down": s.down,
                "joined": s.joined,
                "left": s.left,
            }
            for k, s in enumerate(state.seats)
        ],
        "rounds": [
            {
                "round": n,
                "dealer": p.dealer,
                "out": p.out,
                "corrected": [s.name for s, c in zip(state.seats, p.corrected, strict=True) if c],
            }
            for n, p in enumerate(state.played, start=1)
        ],
        "table": [
            {
                "number": n,
                "owner": m.owner,
                "kind": m.kind.value,
                "cards": [str(c) for c in m.cards],
            }
            for n, m in enumerate(state.table, start=1)
        ],
        "void_rounds": list(state.void_rounds),
        "void_deals": [
            {"round": v.round, "dealer": v.dealer, "calls": list(v.calls)} for v in state.voids
        ],
        "rounds_played": done,
        "winner": (winners[0] if len(winners) == 1 else list(winners)) if winners else None,
        "events": state.events,
    }


def turn(state: State) -> str | None:
    """Who acts next, or None."""
    return None  # the referee keeps the sheet, not the turns: every event names its player


def scores(state: State) -> dict[str, int]:
    """Each player's score as the sheet counts it."""
    return {s.name: s.total for s in state.seats}


def tally(states: Sequence[State]) -> dict[str, dict[str, int]]:
    """Rounds played and won (went out), round points, calls, and the game's total."""
    found = Tallies()
    add = found.add

    for state in states:
        for fact in state.ruling:
            match fact:
                case WentOut(player=player):
                    add(player, "rounds won")
                case Scored(player=player, points=points):
                    add(player, "round points", points)
                case Fixed(player=player, before=before, points=points):
                    add(player, "round points", points - before)
                case Called(caller=caller, refused=False):
                    add(caller, "calls")
    if states:
        last = states[-1]
        for seat in last.seats:
            add(seat.name, "rounds played", sum(1 for s in seat.scores if s is not None))
            if last.is_over:
                add(seat.name, "total", seat.total)
    return found.counts


def _thin_pack(rules: Rules, players: int) -> str | None:
    """A warning for a game whose last round leaves too few cards for the stock."""
    left, pack = stock_after_last_deal(rules, players)
    if left >= THIN_STOCK:
        return None
    return (
        f"a thin pack: {players} x {max(rules.deal_sizes)} cards in the last round"
        f" leave {left} of {pack} for the stock"
    )


NEW = New(
    help="""A Kalooki game.

    3 to 6 players, in the order they sit (the deal passes to the left each round).
    """,
    options=(
        FIRST._replace(
            name="dealer",
            option="--dealer",
            help="Who deals round 1 [default: the first named].",
        ),
    ),
    under=lambda state: _thin_pack(state.rules, len(state.seats)),
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
