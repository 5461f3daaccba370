"""Kiriki (RULES.md sections 1 and 3): a two-player match of rounds on the shared dice ladder.

A round: the roller claims (he may show one die on the first claim from a fresh roll); the
opponent lifts the cup, believes, or takes the mug and rolls. A believed lie wins the point
for the bluffer; a believed truth leaves the claimer in control (keep and raise, or reroll).
A shown Kiriki wins the point at once. The loser of a round rolls fresh to start the next;
the match goes to the first to the format's target who leads by two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import NamedTuple, assert_never

from referee.errors import NotationError, RuleViolation, UsageError, quote
from referee.games.base import (
    EventDict,
    Game,
    Outcome,
    PlayerInfo,
    Tallies,
    int_field,
    only_fields,
    player_option,
    seat_of,
    str_field,
    words,
)
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_FACES, Rank, Roll, parse_rank
from referee.ruleset import TableReader

TOP_CLAIM = Rank.DOUBLE_SIXES  # Pair of Aces: Kiriki is higher, but never claimed

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


@dataclass(frozen=True, slots=True)
class RollOff:
    """One die each, in the order the players were named; higher starts."""

    first: int
    second: int

    def __str__(self) -> str:
        return words("rolloff", self.first, self.second)


@dataclass(frozen=True, slots=True)
class Claim:
    """The roller claims a rank, perhaps showing one of his dice (`shown`, a face)."""

    by: str
    rank: Rank
    shown: int | None = None

    def __str__(self) -> str:
        shown = KIRIKI_FACES[self.shown - 1] if self.shown else None
        return words("claim", LADDER.name(self.rank), show=shown, by=self.by)


@dataclass(frozen=True, slots=True)
class ShowKiriki:
    """The roller shows a rolled Kiriki (Black and Red): the point is his."""

    by: str

    def __str__(self) -> str:
        return words("kiriki", by=self.by)


@dataclass(frozen=True, slots=True)
class Lift:
    """The opponent lifts the cup; `dice` are what it shows."""

    by: str
    dice: Roll

    def __str__(self) -> str:
        return words("lift", str(self.dice), by=self.by)


@dataclass(frozen=True, slots=True)
class Believe:
    """The opponent believes the claim and hands control back to the claimer."""

    by: str

    def __str__(self) -> str:
        return words("believe", by=self.by)


@dataclass(frozen=True, slots=True)
class Reveal:
    """The believed claimer shows his dice: they are below the claim, the bluff worked."""

    by: str
    dice: Roll

    def __str__(self) -> str:
        return words("reveal", str(self.dice), by=self.by)


@dataclass(frozen=True, slots=True)
class Raise:
    """Keep Dice & Raise: the believed claimer keeps his dice and claims strictly higher."""

    by: str
    rank: Rank

    def __str__(self) -> str:
        return words("raise", LADDER.name(self.rank), by=self.by)


@dataclass(frozen=True, slots=True)
class Reroll:
    """The believed claimer rolls fresh, to claim equal or higher (or show a Kiriki)."""

    by: str

    def __str__(self) -> str:
        return words("reroll", by=self.by)


@dataclass(frozen=True, slots=True)
class Roll_:
    """The opponent takes the mug and rolls fresh, to claim equal or higher."""

    by: str

    def __str__(self) -> str:
        return words("roll", by=self.by)


@dataclass(frozen=True, slots=True)
class Resign:
    """The match ends as a loss for `player`."""

    player: str

    def __str__(self) -> str:
        return words("resign", self.player)


Event = RollOff | Claim | ShowKiriki | Lift | Believe | Reveal | Raise | Reroll | Roll_ | Resign

# ---------------------------------------------------------------------------- rulings


class Started(NamedTuple):
    """The match: its format and target; who starts, if the roll-off was skipped."""

    format: str
    target: int
    first: str | None


class RolledOff(NamedTuple):
    """The roll-off: the dice and who starts."""

    dice: tuple[int, int]
    starter: str


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
    """The opponent believed; the claimer is in control."""

    by: str
    claim: Rank


class Revealed(NamedTuple):
    """A believed claim was a bluff: the dice, below the claim."""

    by: str
    dice: Roll
    claim: Rank


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
    """The match: the winner and the final score."""

    player: str
    score: tuple[int, int]


Fact = (
    Started | RolledOff | Claimed | Lifted | Believed | Revealed | Rerolled | TookMug
    | KirikiShown | Point | Resigned | MatchWon
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
    winner: int | None = None
    resigned: int | None = None
    round: int = 1
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


def is_match_won(points: int, other: int, target: int, win_by: int) -> bool:
    """The target reached and a lead of `win_by`: there is no cap (3-2 plays on, 4-2 wins)."""
    return points >= target and points - other >= win_by


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    """Seat the two players: the roller is `first`, else a roll-off decides."""
    sides = tuple(Side(p.name, p.nickname) for p in players)
    target = rules.target(options.format)
    facts = (Started(options.format, target, options.first),)
    base = State(rules, sides, options.format, target, options.ranked, Phase.ROLLOFF, ruling=facts)
    if options.first is None:
        return base
    return _fresh_round(base, [p.name for p in players].index(options.first))


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if state.is_over:
        raise RuleViolation(f"the match is over: {state.name(state.winner or 0)} won")
    facts: list[Fact] = []
    match event:
        case Resign(player=player):
            state = _resign(state, state.index(player), facts)
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


_WHAT = {
    Phase.ROLLOFF: "the match starts with a roll-off: rolloff 5 3",
    Phase.CLAIM: "the roller must claim (or show a Kiriki)",
    Phase.ANSWER: "the claim waits for a lift, believe or roll",
    Phase.BELIEVED: "the believed claimer must reveal, raise or reroll",
}


def _actor(state: State, by: str, phase: Phase) -> int:
    i = state.index(by)
    if state.phase is not phase:
        raise RuleViolation(f"not now: {_WHAT[state.phase]}")
    if i != state.turn:
        raise RuleViolation(f"it is {state.name(state.turn)}'s turn, not {by}'s")
    return i


def _resign(state: State, i: int, facts: list[Fact]) -> State:
    facts.append(Resigned(state.name(i)))
    winner = 1 - i
    facts.append(MatchWon(state.name(winner), state.score))
    return replace(state, phase=Phase.OVER, winner=winner, resigned=i)


def _rolloff(state: State, a: int, b: int, facts: list[Fact]) -> State:
    if state.phase is not Phase.ROLLOFF:
        raise RuleViolation("the roll-off was settled: the match is on")
    for die in (a, b):
        if not 1 <= die <= 6:
            raise UsageError(f"a die shows 1 to 6, not {die}")
    if a == b:
        raise RuleViolation(f"a tie ({a}-{b}): roll again")
    starter = 0 if a > b else 1
    facts.append(RolledOff((a, b), state.name(starter)))
    return _fresh_round(state, starter)


def _fresh_round(state: State, roller: int) -> State:
    """A new round: `roller` rolls fresh with nothing to beat; the shown die and lock clear."""
    return replace(
        state,
        phase=Phase.CLAIM,
        turn=roller,
        claim=None,
        claimer=None,
        need=None,
        shown=None,
        aces_locked=False,
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
    )


def _lift(state: State, i: int, dice: Roll, facts: list[Fact]) -> State:
    claim, claimer = _standing(state)
    _check_shown(state, dice)
    met = dice.rank >= claim
    facts.append(Lifted(state.name(i), dice, claim, met))
    return _point(state, claimer if met else i, facts)


def _believe(state: State, i: int, facts: list[Fact]) -> State:
    claim, claimer = _standing(state)
    if state.aces_locked:
        raise RuleViolation("Pair of Aces over Pair of Aces cannot be believed: lift or roll")
    facts.append(Believed(state.name(i), claim))
    return replace(state, phase=Phase.BELIEVED, turn=claimer)


def _take_mug(state: State, i: int, facts: list[Fact]) -> State:
    claim, _ = _standing(state)
    facts.append(TookMug(state.name(i), claim))
    return replace(state, phase=Phase.CLAIM, turn=i, need=claim, shown=None, claimer=None)


def _reveal(state: State, i: int, dice: Roll, facts: list[Fact]) -> State:
    claim, _ = _standing(state)
    _check_shown(state, dice)
    if dice.rank >= claim:
        raise RuleViolation(
            f"{dice} ({LADDER.name(dice.rank)}) meets '{LADDER.name(claim)}': no bluff to"
            " reveal; raise or reroll"
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
    return replace(state, phase=Phase.CLAIM, need=claim, shown=None)


def _standing(state: State) -> tuple[Rank, int]:
    if state.claim is None or state.claimer is None:  # pragma: no cover - the phases ensure it
        raise RuleViolation("there is no claim")
    return state.claim, state.claimer


def _check_shown(state: State, dice: Roll) -> None:
    if state.shown is not None and state.shown not in (dice.low, dice.high):
        face = KIRIKI_FACES[state.shown - 1]
        raise RuleViolation(f"the shown die was a {face} ({state.shown}): it is not in {dice}")


def _point(state: State, i: int, facts: list[Fact]) -> State:
    sides = list(state.sides)
    sides[i] = replace(sides[i], points=sides[i].points + 1)
    state = replace(state, sides=tuple(sides))
    facts.append(Point(state.name(i), state.score))
    if is_match_won(sides[i].points, sides[1 - i].points, state.target, state.rules.win_by):
        facts.append(MatchWon(state.name(i), state.score))
        return replace(
            state, phase=Phase.OVER, winner=i, claim=None, claimer=None, shown=None, need=None
        )
    return replace(_fresh_round(state, 1 - i), round=state.round + 1)  # the loser starts


# ---------------------------------------------------------------------------- the contract


def legal_actions(state: State) -> tuple[str, ...]:
    """The moves open now (resign is always open and not listed)."""
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
    """A finished ranked match, as KR counts it: when it finished, who won, who lost, the
    rating's K and start (from its ruleset)."""

    finished: str
    winner: str
    loser: str
    k: int
    start: int


def rated_match(state: State, finished: str) -> RatedMatch:
    """The match `state` ended (a resignation is a loss) as KR counts it."""
    if state.winner is None:
        raise UsageError("the match is not over")
    winner, loser = state.name(state.winner), state.name(1 - state.winner)
    return RatedMatch(finished, winner, loser, state.rules.rating_k, state.rules.rating_start)


def ratings(matches: Sequence[RatedMatch]) -> dict[str, dict[str, int]]:
    """KR after each match in turn (RULES.md 3: Elo, K and the start from the ruleset), with
    each player's matches, wins and losses.

    >>> ratings([RatedMatch("1", "Ann", "Bob", 32, 1500)])["Ann"]
    {'kr': 1516, 'matches': 1, 'wins': 1, 'losses': 0}
    """
    rating: dict[str, float] = {}
    record: dict[str, dict[str, int]] = {}
    for _, winner, loser, k, start in matches:
        for name in (winner, loser):
            rating.setdefault(name, float(start))
            record.setdefault(name, {"kr": start, "matches": 0, "wins": 0, "losses": 0})
        expected = 1 / (1 + 10 ** ((rating[loser] - rating[winner]) / 400))
        rating[winner] += k * (1 - expected)
        rating[loser] -= k * (1 - expected)
        record[winner]["wins"] += 1
        record[loser]["losses"] += 1
        for name in (winner, loser):
            record[name]["matches"] += 1
            record[name]["kr"] = round(rating[name])
    return record


def needs(state: State) -> str:
    """What each player needs, in words: `first to 3, win by 2: 3-2, play on`."""
    a, b = state.score
    head = f"first to {state.target}, win by {state.rules.win_by}: {a}-{b}"
    if state.is_over:
        return head + (", resigned" if state.resigned is not None else "")
    if max(a, b) >= state.target - 1 and abs(a - b) < state.rules.win_by and min(a, b) > 0:
        return head + ", play on" if max(a, b) >= state.target else head + ", match point"
    return head


def event_from_dict(data: Mapping[str, object]) -> Event:
    """Read an event as stored in a session file."""
    kind = str_field(data, "type")
    match kind:
        case "rolloff":
            only_fields(data, "dice")
            a, b = _two_dice(str_field(data, "dice"))
            return RollOff(a, b)
        case "claim":
            only_fields(data, "by", "rank", "show")
            show = data.get("show")
            shown = int_field(data, "show") if show is not None else None
            return Claim(str_field(data, "by"), parse_rank(str_field(data, "rank")), shown)
        case "kiriki" | "believe" | "reroll" | "roll":
            only_fields(data, "by")
            by = str_field(data, "by")
            simple: dict[str, type[ShowKiriki | Believe | Reroll | Roll_]] = {
                "kiriki": ShowKiriki, "believe": Believe, "reroll": Reroll, "roll": Roll_,
            }  # fmt: skip
            return simple[kind](by)
        case "lift" | "reveal":
            only_fields(data, "by", "dice")
            dice = Roll.parse(str_field(data, "dice"))
            return (Lift if kind == "lift" else Reveal)(str_field(data, "by"), dice)
        case "raise":
            only_fields(data, "by", "rank")
            return Raise(str_field(data, "by"), parse_rank(str_field(data, "rank")))
        case "resign":
            only_fields(data, "player")
            return Resign(str_field(data, "player"))
    raise NotationError(f"unknown Kiriki event type {quote(kind)}")


def _two_dice(text: str) -> tuple[int, int]:
    parts = text.replace("-", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise NotationError(f"a roll-off is two dice, like 5-3, not {quote(text)}")
    return int(parts[0]), int(parts[1])


def event_to_dict(event: Event) -> EventDict:
    """An event as stored in a session file."""
    match event:
        case RollOff(first=a, second=b):
            return {"type": "rolloff", "dice": f"{a}-{b}"}
        case Claim(by=by, rank=rank, shown=shown):
            out: EventDict = {"type": "claim", "by": by, "rank": LADDER.name(rank)}
            if shown is not None:
                out["show"] = shown
            return out
        case ShowKiriki(by=by):
            return {"type": "kiriki", "by": by}
        case Lift(by=by, dice=dice):
            return {"type": "lift", "by": by, "dice": str(dice)}
        case Believe(by=by):
            return {"type": "believe", "by": by}
        case Reveal(by=by, dice=dice):
            return {"type": "reveal", "by": by, "dice": str(dice)}
        case Raise(by=by, rank=rank):
            return {"type": "raise", "by": by, "rank": LADDER.name(rank)}
        case Reroll(by=by):
            return {"type": "reroll", "by": by}
        case Roll_(by=by):
            return {"type": "roll", "by": by}
        case Resign(player=player):
            return {"type": "resign", "player": player}
        case _:
            assert_never(event)


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
        "shown_die": KIRIKI_FACES[state.shown - 1] if state.shown else None,
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
    """Points won and lost, bluffs that worked, Kirikis shown, ranked matches."""
    found = Tallies()
    add = found.add

    for state in states:
        for fact in state.ruling:
            match fact:
                case Point(player=player):
                    add(player, "points won")
                    add(next(s.name for s in state.sides if s.name != player), "points lost")
                case Revealed(by=by):
                    add(by, "bluffs that worked")
                case KirikiShown(by=by):
                    add(by, "kirikis")
    if states and states[-1].ranked:
        for side in states[-1].sides:
            add(side.name, "ranked matches")
    return found.counts


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
    event_from_dict=event_from_dict,
    event_to_dict=event_to_dict,
    ruling=lambda state: state.ruling,
    json_value=json_value,
    summary=summary,
    scores=scores,
    tally=tally,
)
