"""High roll: a sixth game defined wholly in this test module, to prove that a game is one
registration (issue 34). Nothing of the product names it: `tests/conftest.py` registers it
(`registered`) for the tests that ask for it, every "every game" test among them.

Each round every player in turn rolls two dice and says the total (`roll 9`); when all have
rolled, the one highest total scores a point (a shared highest scores nothing). The first to
the ruleset's `target` points wins. It may be played for money (RULES 7, `stake`, `loss_value`,
`payout`, `loser_buys` by `--set`): each round the lowest total pays `loss_value` (all who
share it), and the pot goes as `payout` says by the standings (points, most first).

One module holds every role: the engine (`GAME`, its one
action declared on its event), the card (`card`, `card_lines`), the words (`words`) and the
commands (`app`, `new`, `SHELL`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

import typer
from rich.console import Group, RenderableType
from rich.text import Text

from referee.cli.common import ShellPlugin
from referee.errors import RuleViolation, UsageError
from referee.games import GameInfo
from referee.games.actions import BY, DIRECTION, FIRST, Actions, New, Param, action
from referee.games.base import (
    Direction,
    Game,
    Outcome,
    PlayerInfo,
    Tallies,
    direction_option,
    next_seat,
    player_option,
    seat_of,
)
from referee.games.money import Purse, Stakes
from referee.render.cells import ljust
from referee.render.common import header, wrapped_lines
from referee.ruleset import TableReader
from referee.storage import rulesets

NAME = "highroll"
RULESET = (
    'game = "highroll"\nname = "highroll"\ndescription = "High roll"\ntarget = 3\n'
    # the stakes (RULES 7), each at its default: `--set` changes only a key the ruleset has
    'stake = 0\nloss_value = 0\npayout = "winner"\npayout_split = [100]\npoint_value = 0\n'
    "loser_buys = false\n"
)
# Its example, as the bundled ones are read: `new` and a whole game's lines.
EXAMPLE_NEW = ("new", "highroll", "Ann", "Bob", "Cy")
LINES = tuple(
    f"roll {total} --by {by}"
    for total, by in [(8, "Ann"), (5, "Bob"), (4, "Cy"), (9, "Ann"), (9, "Bob"), (3, "Cy"),
                      (12, "Ann"), (2, "Bob"), (6, "Cy"), (11, "Ann"), (7, "Bob"), (5, "Cy")]
)  # fmt: skip


def register(folder: Path) -> None:
    """Register High roll in this process: its registry entry, and a folder of bundled
    rulesets (`folder`: a copy of the real ones, and its own) in place of the package's."""
    from referee import games

    for bundled in rulesets.bundled_rulesets().glob("*.toml"):
        (folder / bundled.name).write_bytes(bundled.read_bytes())
    (folder / "highroll.toml").write_text(RULESET, encoding="utf-8")
    rulesets.bundled_rulesets = lambda: folder
    entry = info("plugin_game")
    if entry not in games.GAMES:
        games.GAMES = (*games.GAMES, entry)
        games.BY_NAME = {**games.BY_NAME, entry.name: entry} | dict.fromkeys(entry.aliases, entry)


def info(module: str) -> GameInfo:
    """The registry entry, with every role in the module `module` (this one)."""
    return GameInfo(
        name="highroll",
        title="High roll",
        aliases=("hr",),
        about="High roll (alias hr).",
        min_players=2,
        max_players=6,
        rulesets=("highroll",),
        rules=module,
        engine=module,
        cli=module,
        render=module,
        words=module,
    )


# ---------------------------------------------------------------------------- the engine


@dataclass(frozen=True, slots=True)
class Rules:
    """The points a player needs to win, and the stakes."""

    target: int
    stakes: Stakes = field(default_factory=Stakes)

    @classmethod
    def from_table(cls, table: Mapping[str, object], source: str = "ruleset") -> Rules:
        reader = TableReader(table, source)
        target = reader.integer("target", 3, minimum=1, maximum=20)
        stakes = Stakes.read(reader)
        reader.text("game", "highroll")
        reader.finish()
        return cls(target, stakes)


@dataclass(frozen=True, slots=True)
class Options:
    """Who rolls first, and which way play goes."""

    first: str | None
    direction: Direction


def options_from_table(
    table: Mapping[str, object], players: Sequence[PlayerInfo], rules: Rules
) -> Options:
    unknown = sorted(set(table) - {"first", "direction"})
    if unknown:
        raise UsageError(f"unknown option {unknown[0]}")
    names = [p.name for p in players]
    return Options(
        player_option(table, "first", names, "player"), direction_option(table, Direction.LEFT)
    )


TOTAL = Param(
    "total", "number", metavar="TOTAL", help="The two dice's total, 2 to 12.", required=True
)


@action(
    "roll", TOTAL, BY, help="Roll two dice: say their total.\n\nThe round's one highest scores."
)
@dataclass(frozen=True, slots=True)
class Roll:
    """A player rolled two dice showing `total`."""

    by: str
    total: int


Event = Roll
ACTIONS = Actions("High roll", Roll)


class Rolled(NamedTuple):
    by: str
    total: int


class Scored(NamedTuple):
    player: str | None  # None: a shared highest, nobody scores
    total: int


class Won(NamedTuple):
    player: str


Fact = Rolled | Scored | Won


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    nickname: str | None
    points: int = 0
    rolled: int | None = None  # this round's total, once said


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    seats: tuple[Seat, ...]
    direction: Direction
    turn: int
    winner: str | None = None
    ruling: tuple[Fact, ...] = ()
    purse: Purse = field(default_factory=Purse)


def start(rules: Rules, players: Sequence[PlayerInfo], options: Options) -> State:
    seats = tuple(Seat(p.name, p.nickname) for p in players)
    first = seat_of(seats, options.first) if options.first else 0
    purse = Purse.start(rules.stakes, [p.name for p in players])
    return State(rules, seats, options.direction, first, purse=purse)


def apply(state: State, event: Event) -> State:
    if state.winner is not None:
        raise RuleViolation(f"the game is over: {state.winner} won")
    if event.by != state.seats[state.turn].name:
        raise RuleViolation(f"it is {state.seats[state.turn].name}'s turn, not {event.by}'s")
    if not 2 <= event.total <= 12:
        raise RuleViolation(f"two dice show 2 to 12, not {event.total}")
    seats = list(state.seats)
    seats[state.turn] = replace(seats[state.turn], rolled=event.total)
    facts: list[Fact] = [Rolled(event.by, event.total)]
    turn = next_seat(state.turn, len(seats), state.direction, lambda _: True)
    winner = None
    purse = state.purse
    if all(s.rolled is not None for s in seats):
        low = min(s.rolled or 0 for s in seats)
        for seat in seats:
            if seat.rolled == low:
                purse = purse.lose(seat.name)
        best = max(s.rolled or 0 for s in seats)
        top = [i for i, s in enumerate(seats) if s.rolled == best]
        scorer = seats[top[0]].name if len(top) == 1 else None
        facts.append(Scored(scorer, best))
        if len(top) == 1:
            seats[top[0]] = replace(seats[top[0]], points=seats[top[0]].points + 1)
            if seats[top[0]].points >= state.rules.target:
                winner = seats[top[0]].name
                facts.append(Won(winner))
        seats = [replace(s, rolled=None) for s in seats]
    return replace(
        state, seats=tuple(seats), turn=turn, winner=winner, ruling=tuple(facts), purse=purse
    )


def turn(state: State) -> str | None:
    return None if state.winner else state.seats[state.turn].name


def legal_actions(state: State) -> tuple[str, ...]:
    return () if state.winner else ("roll",)


def outcome(state: State) -> Outcome:
    ranked = sorted(state.seats, key=lambda s: -s.points)
    standings = tuple(s.name for s in ranked)
    if state.winner is None:
        return Outcome(False, standings=standings)
    return Outcome(True, (state.winner,), standings)


def summary(state: State) -> dict[str, object]:
    return {
        "game": "highroll",
        "players": [{"name": s.name, "points": s.points, "rolled": s.rolled} for s in state.seats],
        "turn": turn(state),
        "winner": state.winner,
    }


def scores(state: State) -> dict[str, int]:
    return {s.name: s.points for s in state.seats}


def tally(states: Sequence[State]) -> dict[str, dict[str, int]]:
    found = Tallies()
    for state in states[1:]:
        for fact in state.ruling:
            match fact:
                case Rolled(by=by):
                    found.add(by, "rolls")
                case Scored(player=player):
                    found.add(player, "points")
    return found.counts


NEW = New(help="A High roll table.", options=(FIRST, DIRECTION))
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
    json_value=lambda value: None,
    summary=summary,
    scores=scores,
    tally=tally,
    purse=lambda state: state.purse,
)

# ---------------------------------------------------------------------------- the words


def words(facts: Sequence[Fact]) -> str:
    said = []
    for fact in facts:
        match fact:
            case Rolled(by=by, total=total):
                said.append(f"{by} rolls {total}")
            case Scored(player=None, total=total):
                said.append(f"{total} is shared: nobody scores")
            case Scored(player=player, total=total):
                said.append(f"{player} scores with {total}")
            case Won(player=player):
                said.append(f"{player} wins")
    return "; ".join(said)


# ---------------------------------------------------------------------------- the card


def _rows(state: State) -> list[Text]:
    on = None if state.winner else state.turn
    rows = []
    for i, seat in enumerate(state.seats):
        line = Text("> " if i == on else "  ")
        rolled = "-" if seat.rolled is None else str(seat.rolled)
        line.append(f"{ljust(seat.name, 16)} {seat.points} pts  rolled {rolled}")
        rows.append(line)
    return rows


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    lines: list[RenderableType] = [
        header("HIGH ROLL", title, min(width, 40), f"to {state.rules.target}")
    ]
    lines += _rows(state)
    lines.append(Text(f"WINNER {state.winner}" if state.winner else f"{turn(state)} rolls"))
    return Group(*lines)


def card_lines(state: State, width: int, title: str = "") -> int:
    head = wrapped_lines(header("HIGH ROLL", title, min(width, 40)).plain, width)
    return head + sum(wrapped_lines(r.plain, width) for r in _rows(state)) + 1


# ---------------------------------------------------------------------------- the commands

app = typer.Typer(help="High roll actions.", no_args_is_help=True, rich_markup_mode=None)


SHELL = ShellPlugin(
    prompt=lambda state: f"{turn(state)} rolls" if turn(state) else f"{state.winner} won",
    complete={
        "roll.total": lambda session, state: [str(n) for n in range(2, 13)],
        "by": lambda session, state: [s.name for s in state.seats],
    },
)
