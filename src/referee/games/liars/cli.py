"""`referee new liars`, the odds, and the shell's prompt and words (the actions, bid, call and
exact, are declared on their events, `games.liars.engine`)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee import games, storage
from referee.cli import output
from referee.cli.common import (
    RulesetOpt,
    SessionOpt,
    ShellPlugin,
    session_state,
)
from referee.errors import UsageError, quote
from referee.games.liars import engine as liars
from referee.games.liars.bids import Bid, count_dice, parse_count, parse_dice
from referee.games.liars.words import odds_lines
from referee.session import Session
from referee.text import printable

app = typer.Typer(
    help="Liar's dice actions (alias: ld). The player on turn acts unless --by says who.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@app.command()
def odds(
    ctx: typer.Context,
    bid: Annotated[
        list[str] | None,
        typer.Argument(metavar="BID", help="The bid (in a game: the standing one)."),
    ] = None,
    dice: Annotated[
        str | None,
        typer.Option(
            "--dice", metavar="N", help="Dice in play (in a game: counted).", show_default=False
        ),
    ] = None,
    mine: Annotated[
        str | None,
        typer.Option(metavar="3,3,1", help="Your own dice, known to you.", show_default=False),
    ] = None,
    ruleset: RulesetOpt = None,
    session: SessionOpt = None,
) -> None:
    """The chance a bid is true, and that it is exact.

    With the odds of each smallest raise. In a game, its ruleset and round (wild ones,
    palifico) always count, with its dice in play unless --dice gives them; --ruleset uses
    another ruleset's wild ones instead. Your own dice (--mine) count as known.
    """
    state: liars.State | None = session_state(ctx, session, "liars")
    rules, palifico, free_face = liars.Rules(), False, False
    if ruleset is not None:
        table = storage.load_ruleset(ruleset)
        if table.get("game") != "liars":
            raise UsageError(f"ruleset {quote(ruleset)} is not a Liar's dice ruleset")
        rules = liars.Rules.from_table(table, f"ruleset {ruleset}")
        source = f"{rules.name} (--ruleset)"
    elif state is not None:
        rules, palifico = state.rules, state.palifico
        free_face = state.may_change_face(state.turn)
        source = f"{rules.name}, round {state.round} of this game"
    else:
        source = f"{rules.name} (no game in use)"
    if bid:
        wanted = Bid.parse(" ".join(bid))
    elif state is not None and state.bid is not None:
        wanted = state.bid
    else:
        raise UsageError("which bid? give one, like 5x3 (no bid stands in a game now)")
    if dice is not None:
        total = parse_count(dice, "number of dice")
    elif state is not None:
        total = state.dice_in_play
    else:
        raise UsageError("how many dice are in play? give --dice N")
    known = parse_dice(mine) if mine else ()
    most = liars.MAX_DICE * games.info("liars").max_players
    if not 0 < total <= most:
        raise UsageError(f"dice in play are 1 to {most}, not {total}")
    if len(known) > total:
        raise UsageError(f"your own dice are more than the {count_dice(total)} in play")
    rows = liars.odds_table(wanted, rules, total, known, palifico, free_face)
    among = count_dice(total) + (f", yours {','.join(map(str, known))}" if known else "")
    if palifico:
        source += ": palifico, ones not wild" if rules.ones_wild else ": palifico"
    elif rules.ones_wild:
        source += ": ones wild"
    output.print_text("\n".join(odds_lines(rows, among, printable(source), output.width())))


# ---------------------------------------------------------------------------- the shell


def shell_prompt(state: liars.State) -> str:
    """Who bids and over what: `Cy over 5x3`, `Ann opens`."""
    if state.is_over:
        return f"{state.winner} won"
    who = state.name(state.turn)
    if state.bid is None:
        return f"{who} opens" + (" (palifico)" if state.palifico else "")
    return f"{who} over {state.bid}"


def _names(session: Session, state: liars.State) -> list[str]:
    return [n for c in state.cups if c.dice for n in (c.name, c.nickname) if n]


SHELL = ShellPlugin(
    prompt=shell_prompt,
    bare="bid",  # a value alone at the prompt that asks for one is the bid
    complete={
        "bid.bid": lambda session, state: [str(b) for b in liars.smallest_raises(state)],
        "odds.bid": lambda session, state: [str(state.bid)] if state.bid else [],
        "call.hands": lambda session, state: [f"{c.name}=" for c in state.cups if c.dice],
        "exact.hands": lambda session, state: [f"{c.name}=" for c in state.cups if c.dice],
        "by": _names,
    },
    tools=("odds",),
)
