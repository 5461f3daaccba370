"""`referee new kariki`, the odds, and the shell's prompt and words (the actions are declared
on their events, `games.kariki.engine`)."""

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
from referee.games.kariki import engine as kariki
from referee.notation.dice import ALL_ROLLS, KARIKI, Rank, chance_words, parse_rank
from referee.session import Session

app = typer.Typer(
    help="Kariki actions (alias: k). The player on turn acts unless --by says who.",
    rich_markup_mode=None,
    no_args_is_help=True,
)


@app.command()
def odds(
    ctx: typer.Context,
    rank: Annotated[
        list[str] | None,
        typer.Argument(metavar="RANK", help="The claim (in a session: the standing one)."),
    ] = None,
    ruleset: RulesetOpt = None,
    session: SessionOpt = None,
) -> None:
    """The chance to meet a claim.

    The chance that a fresh roll of two dice meets RANK (or better; exactly, when the table
    plays truth = exact), of 36. In a session it is the standing claim and the table's rules.
    """
    state = session_state(ctx, session, "kariki") if ruleset is None else None
    rules = (
        state.rules
        if state is not None
        else kariki.Rules.from_table(storage.load_ruleset(ruleset or "kariki"), "ruleset")
    )
    if rank:
        wanted = parse_rank(" ".join(rank))
    elif state is not None and state.claim is not None:
        wanted = state.claim
    else:
        raise UsageError("which claim? give one, like 9 or boxcars")
    exact = rules.truth is kariki.Truth.EXACT
    output.print_wrapped(chance_words(wanted, KARIKI, exact))


# ---------------------------------------------------------------------------- the shell


def shell_prompt(state: kariki.State) -> str:
    """Who acts and what they face, short enough for a phone: `Bob vs Nine`."""
    if state.is_over:
        winner = state.winner or "nobody"
        return f"{winner} won" if state.is_finished else f"{winner} leads"
    who = state.name(state.turn)
    if state.claim is None:
        return f"{who} claims"
    claim = KARIKI.name(state.claim)
    if state.phase is kariki.Phase.RESPOND:
        return f"{who} vs {claim}"
    strict = state.rules.raise_rule is kariki.Raise.STRICT
    return f"{who} claims >{claim}" if strict else f"{who} claims {claim}+"


def rank_words(session: Session, state: kariki.State) -> list[str]:
    """Claims in ladder order, short and unambiguous: 4 .. 11, then 1-1 .. 6-6."""
    found = []
    for rank in Rank:
        if rank is Rank.ONE_TWO:
            continue
        roll = next(r for r in ALL_ROLLS if r.rank is rank)
        found.append(str(roll) if roll.low == roll.high else str(rank + 3))
    return found


def player_words(session: Session, state: kariki.State) -> list[str]:
    """Players still in, by name and nickname."""
    seats = [s for s in state.seats if not s.out] or list(state.seats)
    return [n for s in seats for n in (s.name, s.nickname) if n]


SHELL = ShellPlugin(
    prompt=shell_prompt,
    complete={
        "rank": rank_words,
        "dice": lambda session, state: [str(r) for r in ALL_ROLLS],
        "player": player_words,
        "buyback.player": lambda session, state: [state.name(i) for i in state.buyback_open],
        "by": player_words,
        "rule": lambda session, state: [r.name for r in state.rules.slash_rules],
    },
    tools=("odds",),
    bare="claim",  # the prompt says `Dan claims>`: a rank alone is the claim
)
