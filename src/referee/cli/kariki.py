"""`referee kariki ...` (alias `k`): the Kariki actions, typed as they happen at the table."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import ByOpt, SessionOpt, ShellPlugin, act, actor
from referee.games import kariki as rules
from referee.notation.dice import ALL_ROLLS, KARIKI, Roll, parse_rank
from referee.session import Session, resolve_player

app = typer.Typer(
    help="Kariki actions (alias: k). The player on turn acts unless --by says who.",
    no_args_is_help=True,
)


@app.command()
def claim(
    ctx: typer.Context,
    rank: Annotated[str, typer.Argument(help="9, nine, 4-5, 66, boxcars, pair of kings ...")],
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """Claim a rank (the responder typing a claim also takes the mug)."""
    parsed = parse_rank(rank)
    act(ctx, session, lambda s, state: rules.Claim(actor(s, state, by), parsed))


@app.command("kariki")
def show_kariki(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """The roller shows a 1-2: a crown for him, a berry for the next player."""
    act(ctx, session, lambda s, state: rules.ShowKariki(actor(s, state, by)))


@app.command()
def roll(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """The responder takes the mug without looking and rolls."""
    act(ctx, session, lambda s, state: rules.TakeMug(actor(s, state, by)))


@app.command()
def pull(
    ctx: typer.Context,
    dice: Annotated[str, typer.Argument(help="The dice under the mug: 4-5 or 45.")],
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """The responder lifts the mug; type the dice it shows."""
    parsed = Roll.parse(dice)
    act(ctx, session, lambda s, state: rules.Pull(actor(s, state, by), parsed))


@app.command("pass")
def pass_(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Accept the claim as your own and hand the choice on."""
    act(ctx, session, lambda s, state: rules.Pass(actor(s, state, by)))


@app.command()
def slash(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Who broke a table rule.")],
    rule: Annotated[
        str | None, typer.Argument(help="drop, mug, seat, language, alcohol ...")
    ] = None,
    seconds: Annotated[
        int | None, typer.Option(help="Dropped dice: seconds the die lay on the ground.")
    ] = None,
    count: Annotated[int | None, typer.Option(help="How many slashes.")] = None,
    session: SessionOpt = None,
) -> None:
    """Slashes for breaking a table rule; every 3 make a berry."""
    act(
        ctx,
        session,
        lambda s, state: rules.Slash(resolve_player(s, player), rule, seconds, count),
    )


@app.command()
def buyback(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player who just went out.")],
    session: SessionOpt = None,
) -> None:
    """Buy one berry back for the price of the pot (the pot doubles)."""
    act(ctx, session, lambda s, state: rules.BuyBack(resolve_player(s, player)))


# ---------------------------------------------------------------------------- the shell

RANK_WORDS = [str(n) for n in range(4, 12)] + ["11", "22", "33", "44", "55", "66"]
RANK_WORDS += ["four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "boxcars"]
ACTING = ("claim", "kariki", "roll", "pull", "pass")


def shell_prompt(state: rules.State) -> str:
    """Who acts and what they face, short enough for a phone: `Bob vs Nine`."""
    if state.is_over:
        return f"{state.winner or 'nobody'} won"
    who = state.seats[state.turn].name
    claim = KARIKI.name(state.claim) if state.claim is not None else None
    if state.phase is rules.Phase.RESPOND:
        return f"{who} vs {claim}"
    return f"{who} claims {claim}+" if claim else f"{who} claims"


def shell_words(session: Session, state: rules.State, words: list[str]) -> list[str]:
    """What may come next on a line that starts with `words` (the command first)."""
    command, args = words[0], words[1:]
    names = [p.name for p in session.players]
    if args and args[-1] == "--by":
        return names
    if command == "claim" and not args:
        return RANK_WORDS
    if command == "pull" and not args:
        return [str(r) for r in ALL_ROLLS]
    if command == "slash":
        if not args:
            return [s.name for s in state.seats if not s.out]
        if len(args) == 1:
            return [r.name for r in state.rules.slash_rules]
        return ["--seconds", "--count"]
    if command == "buyback" and not args:
        return [s.name for s in state.seats if s.out]
    return ["--by"] if command in ACTING else []


SHELL = ShellPlugin(shell_prompt, shell_words)
