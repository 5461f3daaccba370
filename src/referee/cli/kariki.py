"""`referee kariki ...` (alias `k`): the Kariki actions, typed as they happen at the table."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import ByOpt, SessionOpt, act, actor
from referee.games import kariki as rules
from referee.notation.dice import Roll, parse_rank
from referee.session import resolve_player

app = typer.Typer(
    help="Kariki actions (alias: k). The player on turn acts unless --by says who.",
    no_args_is_help=True,
)


@app.command()
def claim(
    rank: Annotated[str, typer.Argument(help="9, nine, 4-5, 66, boxcars, pair of kings ...")],
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """Claim a rank (the responder typing a claim also takes the mug)."""
    parsed = parse_rank(rank)
    act(session, lambda s, state: rules.Claim(actor(s, state, by), parsed))


@app.command("kariki")
def show_kariki(by: ByOpt = None, session: SessionOpt = None) -> None:
    """The roller shows a 1-2: a crown for him, a berry for the next player."""
    act(session, lambda s, state: rules.ShowKariki(actor(s, state, by)))


@app.command()
def roll(by: ByOpt = None, session: SessionOpt = None) -> None:
    """The responder takes the mug without looking and rolls."""
    act(session, lambda s, state: rules.TakeMug(actor(s, state, by)))


@app.command()
def pull(
    dice: Annotated[str, typer.Argument(help="The dice under the mug: 4-5 or 45.")],
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """The responder lifts the mug; type the dice it shows."""
    parsed = Roll.parse(dice)
    act(session, lambda s, state: rules.Pull(actor(s, state, by), parsed))


@app.command("pass")
def pass_(by: ByOpt = None, session: SessionOpt = None) -> None:
    """Accept the claim as your own and hand the choice on."""
    act(session, lambda s, state: rules.Pass(actor(s, state, by)))


@app.command()
def slash(
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
        session,
        lambda s, state: rules.Slash(resolve_player(s, player), rule, seconds, count),
    )


@app.command()
def buyback(
    player: Annotated[str, typer.Argument(help="The player who just went out.")],
    session: SessionOpt = None,
) -> None:
    """Buy one berry back for the price of the pot (the pot doubles)."""
    act(session, lambda s, state: rules.BuyBack(resolve_player(s, player)))
