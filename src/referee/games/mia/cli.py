"""`referee new mia`, the odds, and the shell's prompt and words (the actions are declared
on their events, `games.mia.engine`)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee import storage
from referee.cli import output
from referee.cli.common import (
    RulesetOpt,
    SessionOpt,
    ShellPlugin,
    session_state,
)
from referee.errors import UsageError
from referee.games.mia import engine as mia
from referee.games.mia.values import ALL_VALUES, MiaValue, chance_at_least
from referee.session import Session

app = typer.Typer(
    help="Mia actions. The player on turn acts unless --by says who.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

ValueArg = Annotated[
    list[str], typer.Argument(metavar="VALUE", help="High die first: 31 .. 65, 11 .. 66, mia.")
]


@app.command()
def odds(
    ctx: typer.Context,
    value: Annotated[
        list[str] | None,
        typer.Argument(metavar="VALUE", help="The announcement (in a session: the standing one)."),
    ] = None,
    ruleset: RulesetOpt = None,
    session: SessionOpt = None,
) -> None:
    """The chance of a value.

    How often a fresh roll is at least VALUE, of 36; a session gives its standing value and rules.
    """
    state = session_state(ctx, session, "mia") if ruleset is None else None
    rules = (
        state.rules
        if state is not None
        else mia.Rules.from_table(storage.load_ruleset(ruleset or "mia"), "ruleset")
    )
    if value:
        wanted = MiaValue.parse(" ".join(value))
    elif state is not None and state.standing is not None:
        wanted = state.standing
    else:
        raise UsageError("which value? give one, like 54, 33 or mia")
    chance = chance_at_least(wanted, rules.doubles_order)
    better = "" if wanted.is_mia else " or better"
    output.print_wrapped(f"fresh roll {wanted}{better}: {chance * 36}/36 ({float(chance):.1%})")


# ---------------------------------------------------------------------------- the shell


def shell_prompt(state: mia.State) -> str:
    """Who acts and what they face, short enough for a phone: `Bob vs 54`, `Ann rolls`."""
    if state.is_over:
        return f"{state.winner} won"
    who = state.name(state.turn)
    if state.phase is mia.Phase.ANSWER:
        return f"{who} vs {state.standing}"
    if state.phase is mia.Phase.ROLL:
        return f"{who} over {state.standing}"
    return f"{who} rolls"


def _names(session: Session, state: mia.State) -> list[str]:
    return [n for s in state.seats if s.lives for n in (s.name, s.nickname) if n]


def _seated(session: Session, state: mia.State) -> list[str]:
    return [n for s in state.seats for n in (s.name, s.nickname) if n]


SHELL = ShellPlugin(
    prompt=shell_prompt,
    bare="announce",  # a value alone at the prompt that asks for one is the announce
    complete={
        "announce.value": lambda session, state: [str(v) for v in mia.announceable(state)],
        "lift.dice": lambda session, state: [str(v) for v in ALL_VALUES],
        "announce.shown": lambda session, state: [str(v) for v in ALL_VALUES],
        "odds.value": lambda session, state: [str(state.standing)] if state.standing else [],
        "by": _names,
        "join.after": _seated,
        "leave.player": _names,
        "replace.old": _names,
    },
    tools=("odds",),
)
