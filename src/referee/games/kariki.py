"""Kariki: the Mia-family bluffing game of RULES.md section 2, as a pure rules engine.

`start()` seats the table, `apply(state, event)` returns the next state or raises
`RuleViolation`; a session's state is always the replay of its events. Nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import assert_never

from referee.errors import NotationError, RuleViolation, UsageError, quote, quote_number
from referee.games.base import Game, PlayerInfo, int_field, str_field
from referee.notation.dice import KARIKI as LADDER
from referee.notation.dice import Rank, Roll, parse_rank
from referee.ruleset import LIST_MAX, TableReader

# Bounds no real table reaches, so that no typed or hand-edited number can stall a command.
MAX_BUY_IN = 1_000_000
MAX_SLASHES = 99  # slashes in one event
MAX_SECONDS = 3600  # a die an hour on the ground

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
    """Every Kariki ruleset key, with RULES.md's defaults."""

    buy_in: int = 1
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

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        """Build rules from a ruleset table, reporting every problem at once."""
        r = TableReader(table, source)
        d = cls()
        rules = cls(
            buy_in=r.integer("buy_in", d.buy_in, maximum=MAX_BUY_IN),
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
        )
        r.finish()
        return rules

    def slash_rule(self, text: str) -> SlashRule:
        """The slash rule named `text` (a unique prefix is enough)."""
        wanted = text.strip().lower()
        exact = [s for s in self.slash_rules if s.name == wanted]
        found = exact or [s for s in self.slash_rules if s.name.startswith(wanted)]
        if len(found) != 1 or not wanted:
            names = ", ".join(s.name for s in self.slash_rules) or "none"
            raise UsageError(f"unknown slash rule {quote(text)}: this table has {names}")
        return found[0]


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
        seconds = sub.integer("seconds_per_slash", 0, maximum=MAX_SECONDS)
        if not isinstance(body, Mapping) or not text:
            sub.problems.append('it needs text = "..."')
        r.problems += [f"slash_rules.{name}: {p}" for p in sub.all_problems()]
        rules.append(SlashRule(name, text, seconds or None))
    return tuple(rules)


# ---------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Claim:
    """The roller claims a rank (typed by the responder, it also means he rolled)."""

    by: str
    rank: Rank


@dataclass(frozen=True, slots=True)
class ShowKariki:
    """The roller lifts the mug on a 1-2."""

    by: str


@dataclass(frozen=True, slots=True)
class TakeMug:
    """The responder takes the mug without looking and becomes the roller."""

    by: str


@dataclass(frozen=True, slots=True)
class Pull:
    """The responder lifts the mug; `dice` are what it showed."""

    by: str
    dice: Roll


@dataclass(frozen=True, slots=True)
class Pass:
    """The responder accepts the claim as his own and hands the choice on."""

    by: str


@dataclass(frozen=True, slots=True)
class Slash:
    """A table rule was broken: `count` slashes, or one per started period of `seconds`."""

    player: str
    rule: str | None = None
    seconds: int | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class BuyBack:
    """A player who just went out pays the pot to come back with one berry less."""

    player: str


Event = Claim | ShowKariki | TakeMug | Pull | Pass | Slash | BuyBack

# ---------------------------------------------------------------------------- state


class Cause(Enum):
    """Why a berry was hung: the card draws each cause differently."""

    LIE = "lie"
    FALSE_ACCUSATION = "false accusation"
    SLASHES = "slashes"
    KARIKI = "kariki"
    CROWNS = "crowns"
    ILLEGAL_CLAIM = "illegal claim"


class Phase(Enum):
    """What the player on turn must do."""

    ROLL = "roll"  # claim a rank, or show a Kariki
    RESPOND = "respond"  # roll, pull or pass
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table."""

    name: str
    nickname: str | None = None
    berries: tuple[Cause, ...] = ()
    slashes: int = 0
    crowns: int = 0
    out: bool = False
    buyback_used: bool = False


@dataclass(frozen=True, slots=True)
class State:
    """The table after some events: `claim` is the claim to beat (ROLL) or the live one."""

    rules: Rules
    seats: tuple[Seat, ...]
    step: int  # +1 plays to the left (seat order), -1 to the right
    pot: int
    turn: int
    phase: Phase
    claim: Rank | None = None
    roller: int | None = None  # who rolled the dice under the mug
    responsible: int | None = None  # who answers for the claim if it is pulled
    passers: tuple[int, ...] = ()
    final_pass: bool = False
    out_order: tuple[int, ...] = ()
    just_out: tuple[int, ...] = ()
    ruling: str = ""
    events: int = 0

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
    def bartender(self) -> str | None:
        """The first player out pours the drinks and picks the music."""
        return self.seats[self.out_order[0]].name if self.out_order else None

    @property
    def shown_phase(self) -> Phase:
        """The phase as a user sees it: OVER once somebody has won."""
        return Phase.OVER if self.is_over else self.phase

    def in_poo(self, seat: Seat) -> bool:
        """One berry from going out."""
        return not seat.out and len(seat.berries) == self.rules.berry_limit - 1

    def index(self, name: str) -> int:
        """The seat of the player called `name`."""
        for i, seat in enumerate(self.seats):
            if seat.name == name:
                return i
        raise UsageError(f"unknown player {quote(name)}")

    def next_active(self, i: int) -> int:
        """The next player still in, from seat `i` in the direction of play."""
        n = len(self.seats)
        for k in range(1, n + 1):
            j = (i + self.step * k) % n
            if not self.seats[j].out:
                return j
        return i

    @property
    def chain_is_back(self) -> bool:
        """The pass chain came back round to the player who rolled."""
        return self.phase is Phase.RESPOND and self.turn == self.roller and bool(self.passers)


def _name(state: State, i: int | None) -> str:
    return state.seats[i].name if i is not None else "nobody"


# ---------------------------------------------------------------------------- the game


def start(rules: Rules, players: Sequence[PlayerInfo], options: Mapping[str, object]) -> State:
    """Seat the table: `first` won the roll-off, `direction` is left or right."""
    seats = tuple(Seat(p.name, p.nickname) for p in players)
    first = options.get("first", players[0].name)
    names = [p.name for p in players]
    if first not in names:
        raise UsageError(
            f"unknown first roller {quote(str(first))}: players are {', '.join(names)}"
        )
    direction = options.get("direction", "left")
    if direction not in ("left", "right"):
        raise UsageError(f"unknown direction {quote(str(direction))}: use left or right")
    buy_in = options.get("buy_in", rules.buy_in)
    if isinstance(buy_in, bool) or not isinstance(buy_in, int) or not 0 <= buy_in <= MAX_BUY_IN:
        raise UsageError(f"the buy-in must be a whole number from 0 to {MAX_BUY_IN}")
    return State(
        rules=rules,
        seats=seats,
        step=1 if direction == "left" else -1,
        pot=buy_in * len(seats),
        turn=names.index(str(first)),
        phase=Phase.ROLL,
        ruling=f"{first} rolls first; play goes {direction}",
    )


def apply(state: State, event: Event) -> State:
    """The state after `event`, or `RuleViolation` naming the rule it breaks."""
    if state.is_over and not isinstance(event, BuyBack):
        raise RuleViolation(f"the game is over: {state.winner or 'nobody'} won")
    before = state
    match event:
        case Claim(by=by, rank=rank):
            state = _claim(state, _actor(state, by), rank)
        case ShowKariki(by=by):
            state = _kariki(state, _actor(state, by))
        case TakeMug(by=by):
            state = _take_mug(state, _actor(state, by))
        case Pull(by=by, dice=dice):
            state = _pull(state, _actor(state, by), dice)
        case Pass(by=by):
            state = _pass(state, _actor(state, by))
        case Slash():
            state = _slash(state, event)
        case BuyBack(player=player):
            state = _buyback(state, state.index(player))
        case _:
            assert_never(event)
    return _settle(before, state)


def _actor(state: State, by: str) -> int:
    i = state.index(by)
    if state.seats[i].out:
        raise RuleViolation(f"{by} is out of the game")
    if i != state.turn:
        raise RuleViolation(f"it is {_name(state, state.turn)}'s turn, not {by}'s")
    return i


def _claim(state: State, i: int, rank: Rank) -> State:
    prefix = ""
    if state.phase is Phase.RESPOND:
        state = _take_mug(state, i)
        prefix = f"{state.ruling}; "
    name = LADDER.name(rank)
    if rank is Rank.ONE_TWO:
        return _illegal_claim(state, i, "a Kariki is never claimed: show it with 'kariki'")
    if state.claim is not None and not is_raise(state.claim, rank, state.rules):
        need = "beat" if state.rules.raise_rule is Raise.STRICT else "match or beat"
        return _illegal_claim(
            state, i, f"illegal claim '{name}': it must {need} '{LADDER.name(state.claim)}'"
        )
    return replace(
        state,
        phase=Phase.RESPOND,
        claim=rank,
        roller=i,
        responsible=i,
        passers=(),
        final_pass=False,
        turn=state.next_active(i),
        ruling=f"{prefix}{_name(state, i)} claims {name}",
    )


def is_raise(standing: Rank, claim: Rank, rules: Rules) -> bool:
    """Whether `claim` may follow `standing` after the mug was taken over."""
    return claim > standing if rules.raise_rule is Raise.STRICT else claim >= standing


def is_true(dice: Roll, claim: Rank, rules: Rules) -> bool:
    """Whether the dice under the mug make the claim true."""
    return dice.rank == claim if rules.truth is Truth.EXACT else dice.rank >= claim


def _illegal_claim(state: State, i: int, reason: str) -> State:
    if state.rules.illegal_claim is IllegalClaim.REJECT:
        raise RuleViolation(reason)
    state = _berry(state, i, Cause.ILLEGAL_CLAIM)
    again = "" if state.seats[i].out else " and claims again"
    return replace(state, ruling=f"{reason}; {_name(state, i)} gets a berry{again}")


def _kariki(state: State, i: int) -> State:
    if state.phase is Phase.RESPOND:
        state = _take_mug(state, i)
    roller = state.seats[i]
    seats = list(state.seats)
    seats[i] = replace(roller, crowns=roller.crowns + 1)
    state = replace(state, seats=tuple(seats))
    victim = state.next_active(i)
    state = _berry(state, victim, Cause.KARIKI)
    notes = [f"{roller.name} shows KARIKI: a crown; {_name(state, victim)} gets a berry"]
    if state.seats[i].crowns % state.rules.crown_threshold == 0:
        hit = [j for j in state.active if j != i or state.rules.crown_hits_roller]
        for j in hit:
            state = _berry(state, j, Cause.CROWNS)
        notes.append(f"crown {state.seats[i].crowns}: a berry for {_names(state, hit)}")
    starter = i if state.rules.after_kariki_starter is Starter.ROLLER else victim
    if state.seats[starter].out:
        starter = state.next_active(starter)
    state = _fresh_roll(state, starter)
    return replace(state, ruling="; ".join(notes))


def _take_mug(state: State, i: int) -> State:
    if state.phase is not Phase.RESPOND:
        raise RuleViolation(f"{_name(state, i)} already has the mug: claim a rank or show a Kariki")
    if state.chain_is_back:
        first = _name(state, _first_passer(state))
        raise RuleViolation(
            f"the chain came back to {_name(state, i)}: pull, or pass it back to {first}"
        )
    return replace(
        state,
        phase=Phase.ROLL,
        roller=i,
        responsible=None,
        passers=(),
        final_pass=False,
        ruling=f"{_name(state, i)} takes the mug",
    )


def _pull(state: State, i: int, dice: Roll) -> State:
    if state.phase is not Phase.RESPOND or state.claim is None:
        raise RuleViolation("there is no claim to pull on: the roller must claim first")
    claim, responsible = state.claim, state.responsible
    assert responsible is not None  # a live claim always has someone answering for it
    shown = f"{_name(state, i)} pulls {dice} ({LADDER.name(dice.rank)}) on {LADDER.name(claim)}"
    if is_true(dice, claim, state.rules):
        state = _berry(state, i, Cause.FALSE_ACCUSATION)
        verdict = f"true, a berry for {_name(state, i)}"
        starter = responsible
    else:
        state = _berry(state, responsible, Cause.LIE)
        verdict = f"a lie, a berry for {_name(state, responsible)}"
        starter = i
    state = _fresh_roll(state, starter)
    return replace(state, ruling=f"{shown}: {verdict}")


def _pass(state: State, i: int) -> State:
    if state.phase is not Phase.RESPOND or state.claim is None:
        raise RuleViolation("there is no claim to pass: the roller must claim first")
    name = _name(state, i)
    if state.chain_is_back:
        first = _first_passer(state)
        return replace(
            state,
            final_pass=True,
            responsible=i,
            turn=first,
            ruling=f"{name} makes the final pass back to {_name(state, first)}",
        )
    if i in state.passers:
        raise RuleViolation(f"nobody passes twice: {name} passed already; roll or pull")
    return replace(
        state,
        passers=(*state.passers, i),
        responsible=i,
        turn=state.next_active(i),
        ruling=f"{name} passes and answers for {LADDER.name(state.claim)}",
    )


def _first_passer(state: State) -> int:
    """The first passer still in. One always is: the last passer answers for the claim, and
    his going out voids it (see `_berry`)."""
    return next(p for p in state.passers if not state.seats[p].out)


def slash_count(event: Slash, rules: Rules) -> int:
    """How many slashes an event is worth (dropped dice: one per started period)."""
    if event.count is not None and event.seconds is not None:
        raise UsageError("give --count or --seconds, not both")
    if event.count is not None:
        if not 1 <= event.count <= MAX_SLASHES:
            raise UsageError(
                f"a slash count is 1 to {MAX_SLASHES}, not {quote_number(event.count)}"
            )
        return event.count
    if event.seconds is not None:
        rule = rules.slash_rule(event.rule) if event.rule else None
        if rule is None or rule.seconds_per_slash is None:
            raise UsageError("--seconds goes with a timed rule such as 'drop'")
        if not 0 <= event.seconds <= MAX_SECONDS:
            raise UsageError(f"seconds are 0 to {MAX_SECONDS}, not {quote_number(event.seconds)}")
        return event.seconds // rule.seconds_per_slash + 1
    return 1


def _slash(state: State, event: Slash) -> State:
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
    hung = 0
    while hung < due and not state.seats[i].out:
        state = _berry(state, i, Cause.SLASHES)
        hung += 1
    why = f" ({rule.name})" if rule else ""
    plural = "es" if n > 1 else ""
    ruling = f"{seat.name}: {n} slash{plural}{why}"
    if hung:
        ruling += f", {hung} berr{'ies' if hung > 1 else 'y'}"
    return replace(state, ruling=ruling)


def _buyback(state: State, i: int) -> State:
    seat = state.seats[i]
    if not state.rules.buyback:
        raise RuleViolation("buy-backs are off in this ruleset")
    if not seat.out:
        raise RuleViolation(f"{seat.name} is not out: only a player who just went out buys back")
    if seat.buyback_used:
        raise RuleViolation(f"{seat.name} bought back once already: once per game")
    if i not in state.just_out:
        raise RuleViolation(f"{seat.name} went out earlier: a buy-back comes right after going out")
    seats = list(state.seats)
    keep = state.rules.berry_limit - 1
    seats[i] = replace(seat, berries=seat.berries[:keep], out=False, buyback_used=True)
    return replace(
        state,
        seats=tuple(seats),
        pot=state.pot * 2,
        ruling=f"{seat.name} buys back for {state.pot}: the pot is {state.pot * 2}",
    )


def _berry(state: State, i: int, cause: Cause) -> State:
    """Hang a berry on `i`'s cross; at the limit he is out, and a round he was in is void."""
    seat = state.seats[i]
    if seat.out:
        return state
    berries = (*seat.berries, cause)
    out = len(berries) >= state.rules.berry_limit
    seats = list(state.seats)
    seats[i] = replace(seat, berries=berries, out=out)
    state = replace(state, seats=tuple(seats))
    if not out:
        return state
    state = replace(state, out_order=(*state.out_order, i))
    if i in (state.turn, state.roller, state.responsible):
        # The player on turn, or the one the claim hangs on, is gone: nobody can answer for the
        # claim, so the mug goes to the next player for a fresh roll.
        state = _fresh_roll(state, state.next_active(i))
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


def _settle(before: State, after: State) -> State:
    """Note who went out with this event, and who won."""
    newly_out = tuple(i for i in after.out_order if not before.seats[i].out and after.seats[i].out)
    notes = [after.ruling] if after.ruling else []
    for i in newly_out:
        role = " (bartender/DJ)" if after.out_order and after.out_order[0] == i else ""
        notes.append(f"{_name(after, i)} is OUT{role}")
    for i in after.active:
        if after.in_poo(after.seats[i]) and not before.in_poo(before.seats[i]):
            notes.append(f"{_name(after, i)} is in the poo")
    if after.is_over and not before.is_over:
        notes.append(f"{after.winner} wins the pot of {after.pot}" if after.winner else "no winner")
    return replace(after, just_out=newly_out, ruling="; ".join(notes), events=before.events + 1)


def _names(state: State, seats: Iterable[int]) -> str:
    return ", ".join(_name(state, j) for j in seats) or "nobody"


def choices(state: State) -> tuple[str, ...]:
    """What the player on turn may do now, in the words of the actions."""
    if state.is_over:
        return ("buyback",) if _buyback_open(state) else ()
    if state.phase is Phase.ROLL:
        return ("claim", "kariki")
    if state.chain_is_back:
        return ("pull", "pass")
    if state.turn in state.passers:
        return ("roll", "pull")
    return ("roll", "pull", "pass")


def _buyback_open(state: State) -> bool:
    return state.rules.buyback and any(not state.seats[i].buyback_used for i in state.just_out)


# ---------------------------------------------------------------------------- notation of events


def event_from_dict(data: Mapping[str, object]) -> Event:
    """Read an event as stored in a session file."""
    kind = str_field(data, "type")
    match kind:
        case "claim":
            return Claim(str_field(data, "by"), parse_rank(str_field(data, "rank")))
        case "kariki":
            return ShowKariki(str_field(data, "by"))
        case "roll":
            return TakeMug(str_field(data, "by"))
        case "pull":
            return Pull(str_field(data, "by"), Roll.parse(str_field(data, "dice")))
        case "pass":
            return Pass(str_field(data, "by"))
        case "slash":
            rule = data.get("rule")
            return Slash(
                str_field(data, "player"),
                rule=str(rule) if rule is not None else None,
                seconds=int_field(data, "seconds"),
                count=int_field(data, "count"),
            )
        case "buyback":
            return BuyBack(str_field(data, "player"))
    raise NotationError(f"unknown Kariki event type {quote(kind)}")


def event_to_dict(event: Event) -> dict[str, str | int]:
    """An event as stored in a session file: short keys, canonical values."""
    match event:
        case Claim(by=by, rank=rank):
            return {"type": "claim", "by": by, "rank": LADDER.name(rank)}
        case ShowKariki(by=by):
            return {"type": "kariki", "by": by}
        case TakeMug(by=by):
            return {"type": "roll", "by": by}
        case Pull(by=by, dice=dice):
            return {"type": "pull", "by": by, "dice": str(dice)}
        case Pass(by=by):
            return {"type": "pass", "by": by}
        case Slash(player=player, rule=rule, seconds=seconds, count=count):
            out: dict[str, str | int] = {"type": "slash", "player": player}
            if rule is not None:
                out["rule"] = rule
            if seconds is not None:
                out["seconds"] = seconds
            if count is not None:
                out["count"] = count
            return out
        case BuyBack(player=player):
            return {"type": "buyback", "player": player}
        case _:
            assert_never(event)


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
            }
            for s in state.seats
        ],
        "turn": None if state.is_over else _name(state, state.turn),
        "phase": state.shown_phase.value,
        "claim": LADDER.name(state.claim) if state.claim is not None else None,
        "responsible": (
            _name(state, state.responsible)
            if state.responsible is not None and not state.is_over
            else None
        ),
        "passers": [_name(state, p) for p in state.passers],
        "direction": "left" if state.step == 1 else "right",
        "pot": state.pot,
        "winner": state.winner,
        "bartender": state.bartender,
        "events": state.events,
    }


class Kariki(Game[Rules, State, Event]):
    """Kariki plugged into sessions."""

    name = "kariki"
    title = "Kariki"
    min_players = 2
    max_players = 20
    state_type = State

    def rules_from_table(self, table: Mapping[str, object], source: str) -> Rules:
        return Rules.from_table(table, source)

    def start(
        self, rules: Rules, players: Sequence[PlayerInfo], options: Mapping[str, object]
    ) -> State:
        return start(rules, players, options)

    def apply(self, state: State, event: Event) -> State:
        return apply(state, event)

    def event_from_dict(self, data: Mapping[str, object]) -> Event:
        return event_from_dict(data)

    def event_to_dict(self, event: Event) -> dict[str, str | int]:
        return event_to_dict(event)

    def summary(self, state: State) -> dict[str, object]:
        return summary(state)

    def ruling(self, state: State) -> str:
        return state.ruling


GAME = Kariki()
