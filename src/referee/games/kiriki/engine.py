"""Kiriki (RULES.md sections 1 and 3): a two-player match of rounds on the shared dice ladder.

A round: the roller claims (he may show one die on the first claim from a fresh roll); the
opponent lifts the cup, believes, or takes the mug and rolls. A believed lie wins the point
for the bluffer; a believed truth leaves the claimer in control (keep and raise, or reroll).
A shown Kiriki wins the point at once. The loser of a round rolls fresh to start the next;
the match goes to the first to the format's target who leads by two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple, assert_never

from referee.errors import NotationError, RuleViolation, UsageError, quote
from referee.games.actions import BY, FIRST, Actions, New, Param, Table, action
from referee.games.base import (
    Game,
    Outcome,
    PlayerInfo,
    Tallies,
    on_turn,
    player_option,
    seat_of,
)
from referee.games.money import Purse, Stakes
from referee.games.roster import (
    ROSTER,
    Join,
    Leave,
    Left,
    Replace,
    Replaced,
    check_newcomer,
    refuse_join,
)
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.notation.dice import Rank, Roll
from referee.ruleset import TableReader

TOP_CLAIM = Rank.DOUBLE_SIXES  # Pair of Aces: Kiriki is higher, but never claimed
REMATCH_FIRST = ("loser", "winner", "rolloff")

# ---------------------------------------------------------------------------- rules


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Kiriki ruleset key: the match formats (as data), the lead to win, the rating."""

    formats: tuple[tuple[str, int], ...] = (
        ("bullet", 3),
        ("revolver", 6),
        ("standard", 11),
        ("classical", 21),
    )
    default_format: str = "standard"
    win_by: int = 2
    rating_k: int = 32
    rating_start: int = 1500
    rematch_first: str = "loser"  # who rolls first in a rematch: loser, winner or rolloff
    # RULES 7: the stake each puts in, `loss_value` a round lost (a point to the other);
    # there is no `late_join`: two play Kiriki, nobody joins
    stakes: Stakes = field(default_factory=Stakes)

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        """Build rules from a ruleset table, reporting every problem at once."""
        r = TableReader(table, source)
        d = cls()
        formats = []
        for name, target in r.subtable("formats").items():
            if not name.isidentifier() or not name.islower() or len(name) > 16:
                r.problems.append(f"format {name!r:.20} needs a short lower-case name")
            elif isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 99:
                r.problems.append(f"formats.{name} must be a target from 1 to 99 points")
            else:
                formats.append((name, target))
        rules = cls(
            formats=tuple(formats) or d.formats,
            default_format=r.text("default_format", d.default_format, limit=16),
            win_by=r.integer("win_by", d.win_by, minimum=1, maximum=9),
            rating_k=r.integer("rating_k", d.rating_k, minimum=1, maximum=99),
            rating_start=r.integer("rating_start", d.rating_start, minimum=0, maximum=9999),
            rematch_first=r.text("rematch_first", d.rematch_first, limit=16),
            stakes=Stakes.read(r),
        )
        if rules.rematch_first not in REMATCH_FIRST:
            r.problems.append(
                f"rematch_first {rules.rematch_first!r} must be one of {', '.join(REMATCH_FIRST)}"
            )
        if rules.default_format not in dict(rules.formats):
            r.problems.append(f"default_format {rules.default_format!r} is not in formats")
        r.finish()
        return rules

    def target(self, format_name: str) -> int:
        """Points to win in `format_name`."""
        targets = dict(self.formats)
        if format_name not in targets:
            raise UsageError(
                f"unknown format {quote(format_name)}: {', '.join(targets)} in this ruleset"
            )
        return targets[format_name]


@dataclass(frozen=True, slots=True)
class Options:
    """What `referee new kiriki` sets: the format, ranked or not, who starts (else a roll-off)."""

    format: str
    ranked: bool
    first: str | None


def options_from_table(
    table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Rules
) -> Options:
    """The options as stored, checked as strictly as typed ones."""
    names = [p.name for p in players]
    extra = sorted(set(table) - {"format", "ranked", "first"})
    if extra:
        raise UsageError(f"unknown Kiriki options: {', '.join(extra)[:60]}")
    format_name = table.get("format", rules.default_format)
    if not isinstance(format_name, str):
        raise UsageError("the format must be a name, like bullet")
    rules.target(format_name)
    ranked = table.get("ranked", False)
    if not isinstance(ranked, bool):
        raise UsageError("ranked must be true or false")
    first = player_option(table, "first", names, "first roller")
    return Options(format_name, ranked, first)


# ---------------------------------------------------------------------------- events


def _two_dice(text: str) -> tuple[int, int]:
    """A roll-off's two dice, one each in the order the players were named: `5 3`, `5-3` (as
    its ruling says it), `A K`, `ace king`."""
    parts = text.replace("-", " ").split()
    if len(parts) != 2:
        raise NotationError(f"a roll-off is two dice, like 5 3, 5-3 or A K, not {quote(text)}")
    for part in parts:
        if part.isascii() and part.isdigit() and not 1 <= int(part) <= 6:
            raise NotationError(f"a die shows 1 to 6, not {part[:12]}")
    first, second = (WORDS.parse_face(p) for p in parts)
    return first, second


def _roll(dice: list[str]) -> Roll:
    if len(dice) > 2:
        raise UsageError(f"two dice, like 4-5 or K-K, not {len(dice)} words")
    return WORDS.parse_dice(" ".join(dice))


def _acting(by: str | None, state: State, table: Table) -> str:
    """Who acts (`--by`, else whoever is on turn); a finished match says so in its own words."""
    if state.is_over and not by:
        raise RuleViolation(over_words(state))
    return table.actor(by)


ACTOR = BY._replace(resolve=_acting)
RANK = Param(
    "rank", "words", metavar="RANK", help="4 .. 11, tabique, pair of kings, KK, 5-5, q-k ...",
    parse=WORDS.parse_rank, show=LADDER.name, required=True,
)  # fmt: skip
DICE = Param(
    "dice", "words", metavar="DICE", help="The two dice: 4-5, 45, J-Q, KK, king king.",
    parse=WORDS.parse_dice, typed_by=_roll, required=True,
)  # fmt: skip
SHOW = Param(
    "shown", option="--show", metavar="DIE",
    help="Show one of your dice: 1-6, Black .. Ace, or B R J Q K A.",
    parse=WORDS.parse_face, show=WORDS.face, key="show", stored="number",
)  # fmt: skip


ROLLOFF_DICE = Param(
    "dice", "words", metavar="DIE DIE", help="One die each, in the order named: 5 3, 5-3, A K.",
    parse=_two_dice, show=lambda d: f"{d[0]}-{d[1]}", required=True,
)  # fmt: skip


@action(
    "rolloff",
    ROLLOFF_DICE,
    help="""Roll off for the start.

    One die each, in the order the players were named: higher rolls first; a tie rolls again.
    """,
)
@dataclass(frozen=True, slots=True)
class RollOff:
    """One die each, in the order the players were named; higher starts (`rolloff 5-3`, stored
    as `dice = "5-3"`)."""

    dice: tuple[int, int]

    @property
    def first(self) -> int:
        """The first-named player's die."""
        return self.dice[0]

    @property
    def second(self) -> int:
        """The other player's die."""
        return self.dice[1]


@action(
    "claim",
    RANK,
    SHOW,
    ACTOR,
    help="""Claim a rank.

    4 to Pair of Aces (a Kiriki is shown, never claimed). --show reveals one of your two dice,
    on the first claim from a fresh roll only.
    """,
)
@dataclass(frozen=True, slots=True)
class Claim:
    """The roller claims a rank, perhaps showing one of his dice (`shown`, a face)."""

    by: str
    rank: Rank
    shown: int | None = None


@action(
    "kiriki",
    ACTOR,
    help="""Show a rolled Kiriki.

    Black and Red: the roller takes the point at once.
    """,
    whole="the round",
)
@dataclass(frozen=True, slots=True)
class ShowKiriki:
    """The roller shows a rolled Kiriki (Black and Red): the point is his."""

    by: str


@action(
    "lift",
    DICE,
    ACTOR,
    whole="the round",  # a point scored: never `l 53` by a slip
    help="""Lift the cup.

    Dice that meet the claim (truth or downplay) win the point for the claimer; below it, for
    the one who lifted.
    """,
)
@dataclass(frozen=True, slots=True)
class Lift:
    """The opponent lifts the cup; `dice` are what it shows."""

    by: str
    dice: Roll


@action(
    "believe",
    ACTOR,
    help="""Believe the claim.

    A lie wins the point for the claimer (who reveals it); a truth leaves the claimer in
    control.
    """,
)
@dataclass(frozen=True, slots=True)
class Believe:
    """The opponent believes the claim and hands control back to the claimer."""

    by: str


@action(
    "reveal",
    DICE,
    ACTOR,
    help="""Show a believed bluff.

    The dice must be below the claim: the bluff worked, and the point is the claimer's.
    """,
)
@dataclass(frozen=True, slots=True)
class Reveal:
    """The believed claimer shows his dice: they are below the claim, the bluff worked."""

    by: str
    dice: Roll


@action(
    "raise",
    RANK,
    ACTOR,
    help="""Keep the dice and raise.

    After a believed truth: a strictly higher claim, no new die shown.
    """,
)
@dataclass(frozen=True, slots=True)
class Raise:
    """Keep Dice & Raise: the believed claimer keeps his dice and claims strictly higher."""

    by: str
    rank: Rank


@action(
    "reroll",
    ACTOR,
    help="""Reroll after a believed truth.

    Roll fresh, then claim equal or higher (or show a Kiriki); forced at Pair of Aces.
    """,
)
@dataclass(frozen=True, slots=True)
class Reroll:
    """The believed claimer rolls fresh, to claim equal or higher (or show a Kiriki)."""

    by: str


@action(
    "roll",
    ACTOR,
    help="""Take the mug and roll.

    Roll fresh, then claim equal or higher than the standing claim (or show a Kiriki).
    """,
)
@dataclass(frozen=True, slots=True)
class Roll_:
    """The opponent takes the mug and rolls fresh, to claim equal or higher."""

    by: str


@action(
    "resign",
    Param("player", metavar="PLAYER", help="Who resigns.", player=True, required=True),
    help="""Resign the match.

    The match ends as a loss for PLAYER (and counts for KR when ranked).
    """,
    whole="the match",
)
@dataclass(frozen=True, slots=True)
class Resign:
    """The match ends as a loss for `player`."""

    player: str


Event = (
    RollOff | Claim | ShowKiriki | Lift | Believe | Reveal | Raise | Reroll | Roll_ | Resign
    | Join | Leave | Replace
)  # fmt: skip
ACTIONS = Actions(
    "Kiriki", RollOff, Claim, ShowKiriki, Lift, Believe, Reveal, Raise, Reroll, Roll_, Resign,
    *ROSTER,
)  # fmt: skip

# ---------------------------------------------------------------------------- rulings


class Started(NamedTuple):
    """The match: its format and target; who starts, if the roll-off was skipped."""

    format: str
    target: int
    first: str | None


class RolledOff(NamedTuple):
    """The roll-off: the dice and who starts (None: a tie, roll again)."""

    dice: tuple[int, int]
    starter: str | None


class Claimed(NamedTuple):
    """A claim stands (`shown`: the face of a die shown with it)."""

    by: str
    rank: Rank
    shown: int | None
    raised: bool  # Keep Dice & Raise


class Lifted(NamedTuple):
    """The cup was lifted on `claim`: did the dice meet it (truth or downplay)?"""

    by: str
    dice: Roll
    claim: Rank
    met: bool


class Believed(NamedTuple):
    """The opponent believed; the claimer is in control (`claimer`; forced to reroll, or show
    a bluff, at a Pair of Aces)."""

    by: str
    claim: Rank
    claimer: str


class Revealed(NamedTuple):
    """A believed claim was a bluff: the dice, below the claim."""

    by: str
    dice: Roll
    claim: Rank


class BluffHeld(NamedTuple):
    """A lift after Keep & Raise showed dice below a claim that had been believed: that lie
    was believed, so the bluff had already won the point (RULES 3)."""

    by: str
    believed: Rank


class Rerolled(NamedTuple):
    """The believed claimer rerolls (`forced` at a true Pair of Aces)."""

    by: str


class TookMug(NamedTuple):
    """The opponent takes the mug to roll fresh; he must claim at least `need`."""

    by: str
    need: Rank


class KirikiShown(NamedTuple):
    """A rolled Kiriki: the point, at once."""

    by: str


class Point(NamedTuple):
    """A point, and the score after it (in the order the players were named)."""

    player: str
    score: tuple[int, int]


class Resigned(NamedTuple):
    """A resignation: the match is lost."""

    player: str


class MatchWon(NamedTuple):
    """The match: the winner and the final score, the winner's points first."""

    player: str
    score: tuple[int, int]


Fact = (
    Started | RolledOff | Claimed | Lifted | Believed | BluffHeld | Revealed | Rerolled | TookMug
    | KirikiShown | Point | Resigned | MatchWon | Left | Replaced
)  # fmt: skip

# ---------------------------------------------------------------------------- state


class Phase(Enum):
    """What the player on turn must do."""

    ROLLOFF = "rolloff"  # one die each decides who starts
    CLAIM = "claim"  # the roller, with fresh dice: claim or show a Kiriki
    ANSWER = "answer"  # the opponent: lift, believe, or roll
    BELIEVED = "believed"  # the claimer: reveal a bluff, raise, or reroll
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Side:
    """A player and his points."""

    name: str
    nickname: str | None = None
    points: int = 0


@dataclass(frozen=True, slots=True)
class State:
    """The match after some events."""

    rules: Rules
    sides: tuple[Side, ...]
    format: str
    target: int
    ranked: bool
    phase: Phase
    turn: int = 0
    claim: Rank | None = None  # the standing claim
    claimer: int | None = None
    need: Rank | None = None  # what a fresh roll must claim at least (after a roll or reroll)
    shown: int | None = None  # the face of the die shown with the claim, while it stands
    aces_locked: bool = False  # Pair of Aces over Pair of Aces: believe is closed
    believed: Rank | None = None  # the highest claim believed on the dice still under the mug
    winner: int | None = None
    resigned: int | None = None
    round: int = 1
    purse: Purse = field(default_factory=Purse)
    ruling: tuple[Fact, ...] = ()
    events: int = 0

    def name(self, i: int) -> str:
        """The name of player `i` (0 or 1)."""
        return self.sides[i].name

    def index(self, name: str) -> int:
        """The player called `name`."""
        return seat_of(self.sides, name)

    @property
    def score(self) -> tuple[int, int]:
        """The points, in the order the players were named."""
        return (self.sides[0].points, self.sides[1].points)

    @property
    def is_over(self) -> bool:
        """True once the match is won (or resigned)."""
        return self.winner is not None


def article(word: str) -> str:
    """`a King`, `an Ace`."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def over_words(state: State, sep: str = ", ") -> str:
    """The one way the end is said: `the match is over: Ann won 3-1` (`, Bob resigned`)."""
    w = state.winner or 0
    a, b = _winner_first(state, w)
    said = f"the match is over: {state.name(w)} won {a}-{b}"
    if state.resigned is not None:
        said += f"{sep}{state.name(state.resigned)} resigned"
    return said


def _winner_first(state: State, winner: int) -> tuple[int, int]:
    return (state.sides[winner].points, state.sides[1 - winner].points)


def is_match_won(points: int, other: int, target: int, win_by: int) -> bool:
    """The target reached and a lead of `win_by`: there is no cap (3-2 plays on, 4-2 wins)."""
    return points >= target and points - other >= win_by


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    """Seat the two players: the roller is `first`, else a roll-off decides."""
    sides = tuple(Side(p.name, p.nickname) for p in players)
    target = rules.target(options.format)
    facts = (Started(options.format, target, options.first),)
    purse = Purse.start(rules.stakes, [p.name for p in players])
    base = State(
        rules, sides, options.format, target, options.ranked, Phase.ROLLOFF, purse=purse,
        ruling=facts,
    )  # fmt: skip
    if options.first is None:
        return base
    return _fresh_round(base, [p.name for p in players].index(options.first))


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if isinstance(event, Join):  # whenever it is asked, the answer is the same
        raise refuse_join(event.name, "Kiriki is played by exactly two")
    if state.is_over:
        raise RuleViolation(over_words(state))
    facts: list[Fact] = []
    match event:
        case Resign(player=player):
            state = _resign(state, state.index(player), facts)
        case Leave(player=player):  # leaving a match is resigning it (RULES 7)
            i = state.index(player)
            state = _resign(state, i, facts)
            facts[0] = Left(state.name(i))
        case Replace():
            state = _replace(state, event, facts)
        case Join():  # refused above: it never gets here
            raise refuse_join(event.name, "Kiriki is played by exactly two")
        case RollOff(first=a, second=b):
            state = _rolloff(state, a, b, facts)
        case Claim(by=by, rank=rank, shown=shown):
            state = _claim(state, _actor(state, by, Phase.CLAIM), rank, shown, facts)
        case ShowKiriki(by=by):
            i = _actor(state, by, Phase.CLAIM)
            facts.append(KirikiShown(by))
            state = _point(state, i, facts)
        case Lift(by=by, dice=dice):
            state = _lift(state, _actor(state, by, Phase.ANSWER), dice, facts)
        case Believe(by=by):
            state = _believe(state, _actor(state, by, Phase.ANSWER), facts)
        case Roll_(by=by):
            state = _take_mug(state, _actor(state, by, Phase.ANSWER), facts)
        case Reveal(by=by, dice=dice):
            state = _reveal(state, _actor(state, by, Phase.BELIEVED), dice, facts)
        case Raise(by=by, rank=rank):
            state = _raise(state, _actor(state, by, Phase.BELIEVED), rank, facts)
        case Reroll(by=by):
            state = _reroll(state, _actor(state, by, Phase.BELIEVED), facts)
        case _:
            assert_never(event)
    return replace(state, ruling=tuple(facts), events=state.events + 1)


def what_now(state: State) -> str:
    """What the match waits for, in words: `Bob must lift, believe or roll`."""
    who = state.name(state.turn)
    match state.phase:
        case Phase.OVER:
            return over_words(state)
        case Phase.ROLLOFF:
            return "the match starts with a roll-off: rolloff 5 3"
        case Phase.CLAIM:
            return f"{who} must claim (or show a Kiriki)"
        case Phase.ANSWER:
            return f"{who} must {_or(legal_actions(state))} {LADDER.name(state.claim or TOP_CLAIM)}"
        case Phase.BELIEVED if state.claim is TOP_CLAIM:
            return f"{who} must reroll (or reveal a bluff)"
        case Phase.BELIEVED:
            return f"{who} was believed and must reveal, raise or reroll"
    assert_never(state.phase)


def _or(moves: Sequence[str]) -> str:
    return ", ".join(moves[:-1]) + " or " + moves[-1] if len(moves) > 1 else "".join(moves)


def _actor(state: State, by: str, phase: Phase) -> int:
    state.index(by)  # an unknown player is refused first
    if state.phase is not phase:
        raise RuleViolation(f"not now: {what_now(state)}")
    return on_turn(state.sides, state.turn, by)


def _resign(state: State, i: int, facts: list[Fact]) -> State:
    facts.append(Resigned(state.name(i)))
    winner = 1 - i
    facts.append(MatchWon(state.name(winner), _winner_first(state, winner)))
    return replace(_cleared(state), phase=Phase.OVER, winner=winner, resigned=i)


def _replace(state: State, event: Replace, facts: list[Fact]) -> State:
    """NEW takes OLD's side of the match (his points, his turn, his claim standing) and pays
    OLD what OLD had put in; the match's result, and its KR when ranked, are NEW's."""
    i = state.index(event.old)
    old = state.sides[i]
    nicknames = [s.nickname for s in state.sides if s.nickname]
    new = check_newcomer(state.sides, event.new, nicknames, [t.payee for t in state.purse.moved])
    sides = list(state.sides)
    sides[i] = replace(old, name=new, nickname=None)
    facts.append(Replaced(old.name, new, state.purse.seat_paid(old.name)))
    return replace(state, sides=tuple(sides), purse=state.purse.take_over(old.name, new))


def _rolloff(state: State, a: int, b: int, facts: list[Fact]) -> State:
    if state.phase is not Phase.ROLLOFF:
        raise RuleViolation("the roll-off was settled: the match is on")
    for die in (a, b):
        if not 1 <= die <= 6:
            raise UsageError(f"a die shows 1 to 6, not {die}")
    if a == b:  # a tie is part of the roll-off: recorded, and they roll again
        facts.append(RolledOff((a, b), None))
        return state
    starter = 0 if a > b else 1
    facts.append(RolledOff((a, b), state.name(starter)))
    return _fresh_round(state, starter)


def _fresh_round(state: State, roller: int) -> State:
    """A new round: `roller` rolls fresh with nothing to beat; the shown die and lock clear."""
    return replace(_cleared(state), phase=Phase.CLAIM, turn=roller)


def _cleared(state: State) -> State:
    """No round in play: no claim, no shown die, nothing to beat, no lock."""
    return replace(
        state, claim=None, claimer=None, need=None, shown=None, aces_locked=False, believed=None
    )


def _claim(state: State, i: int, rank: Rank, shown: int | None, facts: list[Fact]) -> State:
    name = LADDER.name(rank)
    if rank is Rank.ONE_TWO:
        raise RuleViolation("a Kiriki is never claimed: show it with 'kiriki'")
    if state.need is not None and rank < state.need:
        raise RuleViolation(
            f"illegal claim '{name}': it must be '{LADDER.name(state.need)}' or higher"
        )
    # Every claim is the first from a fresh roll (a raise is its own event, which shows no
    # new die), so a die may be shown with any claim.
    if shown is not None and not 1 <= shown <= 6:
        raise UsageError(f"a die shows 1 to 6, not {shown}")
    locked = rank is TOP_CLAIM and state.need is TOP_CLAIM
    facts.append(Claimed(state.name(i), rank, shown, raised=False))
    return replace(
        state,
        phase=Phase.ANSWER,
        turn=1 - i,
        claim=rank,
        claimer=i,
        shown=shown,
        aces_locked=locked,
        believed=None,
    )


def _lift(state: State, i: int, dice: Roll, facts: list[Fact]) -> State:
    claim, claimer = _standing(state)
    _check_shown(state, dice)
    met = dice.rank >= claim
    facts.append(Lifted(state.name(i), dice, claim, met))
    if state.believed is not None and dice.rank < state.believed:
        # The kept dice were below a claim the lifter had believed: that bluff won the point
        # when it was believed, whatever was raised on it since.
        facts.append(BluffHeld(state.name(claimer), state.believed))
        return _point(state, claimer, facts)
    return _point(state, claimer if met else i, facts)


def _believe(state: State, i: int, facts: list[Fact]) -> State:
    claim, claimer = _standing(state)
    if state.aces_locked:
        raise RuleViolation("Pair of Aces over Pair of Aces cannot be believed: lift or roll")
    facts.append(Believed(state.name(i), claim, state.name(claimer)))
    return replace(state, phase=Phase.BELIEVED, turn=claimer, believed=claim)


def _take_mug(state: State, i: int, facts: list[Fact]) -> State:
    claim, _ = _standing(state)
    facts.append(TookMug(state.name(i), claim))
    return replace(_cleared(state), phase=Phase.CLAIM, turn=i, need=claim)


def _reveal(state: State, i: int, dice: Roll, facts: list[Fact]) -> State:
    claim, _ = _standing(state)
    _check_shown(state, dice)
    if dice.rank >= claim:
        then = "reroll (forced at Pair of Aces)" if claim is TOP_CLAIM else "raise or reroll"
        raise RuleViolation(
            f"{WORDS.said(dice)} meets '{LADDER.name(claim)}': no bluff to reveal; {then}"
        )
    facts.append(Revealed(state.name(i), dice, claim))
    return _point(state, i, facts)


def _raise(state: State, i: int, rank: Rank, facts: list[Fact]) -> State:
    claim, _ = _standing(state)
    if claim is TOP_CLAIM:
        raise RuleViolation("nothing is higher than Pair of Aces: the reroll is forced")
    if rank is Rank.ONE_TWO:
        raise RuleViolation("a Kiriki is never claimed: keep and raise to Pair of Aces at most")
    if rank <= claim:
        raise RuleViolation(
            f"illegal raise '{LADDER.name(rank)}': keeping the dice, it must beat"
            f" '{LADDER.name(claim)}'"
        )
    facts.append(Claimed(state.name(i), rank, state.shown, raised=True))
    return replace(state, phase=Phase.ANSWER, turn=1 - i, claim=rank, need=None)


def _reroll(state: State, i: int, facts: list[Fact]) -> State:
    claim, _ = _standing(state)
    facts.append(Rerolled(state.name(i)))
    return replace(_cleared(state), phase=Phase.CLAIM, need=claim)


def _standing(state: State) -> tuple[Rank, int]:
    if state.claim is None or state.claimer is None:  # pragma: no cover - the phases ensure it
        raise RuleViolation("there is no claim")
    return state.claim, state.claimer


def _check_shown(state: State, dice: Roll) -> None:
    if state.shown is not None and state.shown not in (dice.low, dice.high):
        face = WORDS.face(state.shown)
        raise RuleViolation(
            f"the shown die was {article(face)} ({state.shown}): it is not in {WORDS.dice(dice)}"
        )


def _point(state: State, i: int, facts: list[Fact]) -> State:
    sides = list(state.sides)
    sides[i] = replace(sides[i], points=sides[i].points + 1)
    # the other lost the round: it pays `loss_value` into the pot (RULES 7)
    state = replace(state, sides=tuple(sides), purse=state.purse.lose(sides[1 - i].name))
    facts.append(Point(state.name(i), state.score))
    if is_match_won(sides[i].points, sides[1 - i].points, state.target, state.rules.win_by):
        facts.append(MatchWon(state.name(i), _winner_first(state, i)))
        return replace(_cleared(state), phase=Phase.OVER, winner=i)
    return replace(_fresh_round(state, 1 - i), round=state.round + 1)  # the loser starts


# ---------------------------------------------------------------------------- the contract


def legal_actions(state: State) -> tuple[str, ...]:
    """The moves open now. Resign, leave (which is resigning) and replace are open all match
    and not listed: at a Kiriki table `l` is lift and `r` is roll, never leave or replace;
    join never is (two play Kiriki)."""
    match state.phase:
        case Phase.OVER:
            return ()
        case Phase.ROLLOFF:
            return ("rolloff",)
        case Phase.CLAIM:
            return ("claim", "kiriki")
        case Phase.ANSWER:
            return ("lift", "roll") if state.aces_locked else ("lift", "believe", "roll")
        case Phase.BELIEVED:
            moves = ["reveal", "raise", "reroll"]
            if state.claim is TOP_CLAIM:
                moves.remove("raise")
            return tuple(moves)
    assert_never(state.phase)


def outcome(state: State) -> Outcome:
    """Finished when a player reaches the target with a lead of two, or the other resigns."""
    order = (0, 1) if state.sides[0].points >= state.sides[1].points else (1, 0)
    if state.winner is not None:
        order = (state.winner, 1 - state.winner)
    standings = tuple(state.name(i) for i in order)
    if state.winner is None:
        return Outcome(False, (), standings)
    return Outcome(True, (state.name(state.winner),), standings)


class RatedMatch(NamedTuple):
    """A finished ranked match as KR counts it. Matches are rated in the order they ended:
    `finished` (the time of the event that ended it), then the session's `created`, then its
    `id`; one `id` counts once, however many copies of the session the data folder holds."""

    finished: str
    created: str
    id: str
    session: str
    winner: str
    loser: str
    score: tuple[int, int]  # the winner's points, then the loser's
    k: int
    start: int
    resigned: bool = False  # the loser resigned

    @property
    def order(self) -> tuple[str, str, str]:
        """Where the match stands in KR's order."""
        return (self.finished, self.created, self.id)


def rated_match(
    state: State, finished: str, created: str, match_id: str, session: str
) -> RatedMatch:
    """The match `state` ended (a resignation is a loss) as KR counts it."""
    if state.winner is None:
        raise UsageError("the match is not over")
    w = state.winner
    winner, loser = state.name(w), state.name(1 - w)
    score = (state.sides[w].points, state.sides[1 - w].points)
    rules = state.rules
    return RatedMatch(
        finished,
        created,
        match_id,
        session,
        winner,
        loser,
        score,
        rules.rating_k,
        rules.rating_start,
        resigned=state.resigned is not None,
    )


def rematch_first(state: State) -> str | None:
    """Who rolls first in a rematch of the finished match (None: a roll-off)."""
    if state.winner is None:
        raise RuleViolation(f"the match is not over: {needs(state)}; play on or resign")
    who = {"loser": 1 - state.winner, "winner": state.winner}.get(state.rules.rematch_first)
    return None if who is None else state.name(who)


def player_key(name: str) -> str:
    """One player however his name is capitalised, as a session compares names."""
    return name.casefold()


class Rated(NamedTuple):
    """One match's effect on KR: each player's KR after it, and the change it made."""

    match: RatedMatch
    winner_kr: int
    loser_kr: int
    winner_change: int
    loser_change: int


class Record(NamedTuple):
    """A player's KR and record after every rated match."""

    name: str
    kr: int
    matches: int
    wins: int
    losses: int


class HeadToHead(NamedTuple):
    """Two players' ranked matches against each other (the names in alphabetical order)."""

    players: tuple[str, str]
    wins: tuple[int, int]


def rated_in_order(matches: Sequence[RatedMatch]) -> list[RatedMatch]:
    """The matches KR counts, in KR's order, each match id once."""
    seen: set[str] = set()
    kept = []
    for match in sorted(matches, key=lambda m: m.order):
        if match.id not in seen:
            seen.add(match.id)
            kept.append(match)
    return kept


def kr_history(matches: Sequence[RatedMatch]) -> list[Rated]:
    """Elo (RULES.md 3: K and the start from each match's ruleset) replayed over the matches in
    KR's order: what each one changed.

    >>> m = RatedMatch("t1", "t0", "x", "duel", "Ann", "Bob", (3, 1), 32, 1500)
    >>> kr_history([m])[0][1:]
    (1516, 1484, 16, -16)
    """
    rating: dict[str, int] = {}
    found = []
    for match in rated_in_order(matches):
        w, lo = player_key(match.winner), player_key(match.loser)
        before = {p: rating.setdefault(p, match.start) for p in (w, lo)}
        # Whole points, as FIDE keeps Elo: what one wins the other loses (+15 and -16, each
        # rounded apart, read as a table's points lost between them).
        gain = round(match.k * (1 - 1 / (1 + 10 ** ((before[lo] - before[w]) / 400))))
        rating[w] += gain
        rating[lo] -= gain
        found.append(Rated(match, rating[w], rating[lo], gain, -gain))
    return found


def ratings(history: Sequence[Rated]) -> list[Record]:
    """Every player's KR and record after `history`, highest KR first (then by name); a
    player goes by the spelling of his latest match.

    >>> m = RatedMatch("t1", "t0", "x", "duel", "Ann", "Bob", (3, 1), 32, 1500)
    >>> ratings(kr_history([m]))[0]
    Record(name='Ann', kr=1516, matches=1, wins=1, losses=0)
    """
    table: dict[str, Record] = {}
    for rated in history:
        m = rated.match
        for name, kr, won in ((m.winner, rated.winner_kr, 1), (m.loser, rated.loser_kr, 0)):
            old = table.get(player_key(name), Record(name, kr, 0, 0, 0))
            table[player_key(name)] = Record(
                name, kr, old.matches + 1, old.wins + won, old.losses + 1 - won
            )
    return sorted(table.values(), key=lambda r: (-r.kr, player_key(r.name), r.name))


def head_to_head(history: Sequence[Rated]) -> list[HeadToHead]:
    """Each pair's wins against each other, the pairs that met most first.

    >>> m = RatedMatch("t1", "t0", "x", "duel", "Bob", "ann", (3, 1), 32, 1500)
    >>> head_to_head(kr_history([m, m._replace(id="y", winner="Ann", loser="Bob")]))
    [HeadToHead(players=('Ann', 'Bob'), wins=(1, 1))]
    """
    names: dict[str, str] = {}
    wins: dict[tuple[str, str], list[int]] = {}
    for rated in history:
        m = rated.match
        names[player_key(m.winner)], names[player_key(m.loser)] = m.winner, m.loser
        pair = sorted((player_key(m.winner), player_key(m.loser)))
        counts = wins.setdefault((pair[0], pair[1]), [0, 0])
        counts[pair.index(player_key(m.winner))] += 1
    rows = [HeadToHead((names[a], names[b]), (x, y)) for (a, b), (x, y) in wins.items()]
    return sorted(rows, key=lambda h: (-sum(h.wins), [player_key(p) for p in h.players]))


def needs(state: State) -> str:
    """The target and the score: `first to 3, win by 2: 2-1`."""
    a, b = state.score
    return f"first to {state.target}, win by {state.rules.win_by}: {a}-{b}"


def match_point(state: State) -> tuple[str, ...]:
    """Who wins the match with his next point (both, when a lead of one wins)."""
    if state.is_over:
        return ()
    a, b = state.score
    rules = state.rules
    return tuple(
        state.name(i)
        for i, (mine, theirs) in enumerate(((a, b), (b, a)))
        if is_match_won(mine + 1, theirs, state.target, rules.win_by)
    )


def stakes(state: State) -> str | None:
    """What the next point means, when it means something: `match point: Ann`, or `play on`
    when the players are level at the target's door and only a clear lead wins."""
    if state.is_over:
        return over_words(state)
    players = match_point(state)
    if players:
        return "match point: " + " and ".join(players)
    a, b = state.score
    if a == b and a >= state.target - 1:
        return f"play on: a lead of {state.rules.win_by} wins"
    return None


def json_value(value: object) -> object | None:
    """This game's own values in rulings, as JSON (None: not one of them)."""
    if isinstance(value, Rank):
        return LADDER.name(value)
    if isinstance(value, Roll):
        return str(value)
    return None


def summary(state: State) -> dict[str, object]:
    """The documented `show --json` document for a Kiriki match."""
    return {
        "game": "kiriki",
        "format": state.format,
        "target": state.target,
        "players": [{"name": s.name, "points": s.points} for s in state.sides],
        "turn": None if state.is_over else state.name(state.turn),
        "phase": state.phase.value,
        "claim": LADDER.name(state.claim) if state.claim is not None else None,
        "claim_at_least": LADDER.name(state.need) if state.need else None,  # after a roll
        "shown_die": WORDS.face(state.shown) if state.shown else None,
        "allowed": list(legal_actions(state)),
        "aces_locked": state.aces_locked,
        "winner": state.name(state.winner) if state.winner is not None else None,
        "ranked": state.ranked,
        "events": state.events,
    }


def turn(state: State) -> str | None:
    """Who acts next, or None."""
    return None if state.is_over else state.name(state.turn)


def scores(state: State) -> dict[str, int]:
    """Each player's score as the sheet counts it."""
    return {s.name: s.points for s in state.sides}


def tally(states: Sequence[State]) -> dict[str, dict[str, int]]:
    """Points won and lost, bluffs that worked, Kirikis shown, finished ranked matches."""
    found = Tallies()
    add = found.add

    for state in states:
        for fact in state.ruling:
            match fact:
                case Point(player=player):
                    add(player, "points won")
                    add(next(s.name for s in state.sides if s.name != player), "points lost")
                case Revealed(by=by) | BluffHeld(by=by):
                    add(by, "bluffs that worked")
                case KirikiShown(by=by):
                    add(by, "kirikis")
    if states and states[-1].ranked and states[-1].is_over:
        for side in states[-1].sides:
            add(side.name, "ranked matches")
    return found.counts


NEW = New(
    help="""A Kiriki match.

    Exactly two players. The roll-off is typed as 'referee kiriki rolloff 5 3' (one die each,
    in the order named), or skipped with --first.
    """,
    options=(
        Param(
            "format",
            option="--format",
            metavar="FORMAT",
            help="bullet, revolver, standard or classical [default: standard].",
        ),
        Param("ranked", "flag", option="--ranked", help="Rate the match (KR)."),
        FIRST._replace(help="Who rolls first (else: rolloff)."),
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
    seats=lambda state: tuple(PlayerInfo(s.name, s.nickname) for s in state.sides),
    purse=lambda state: state.purse,
)
