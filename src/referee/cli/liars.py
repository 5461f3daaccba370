"""`referee liars ...` (alias `ld`) and `referee new liars`: bids, calls, exact calls, odds."""

from __future__ import annotations

from typing import Annotated

import typer

from referee import storage
from referee.cli import output
from referee.cli.common import (
    ByOpt,
    NameOpt,
    NickOpt,
    PlayersArg,
    RulesetOpt,
    SessionOpt,
    ShellPlugin,
    act,
    actor,
    session_state,
    start_session,
)
from referee.errors import UsageError
from referee.games import liars
from referee.notation.bids import Bid, Hands
from referee.session import Session

app = typer.Typer(
    help="Liar's dice actions (alias: ld). The player on turn acts unless --by says who.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

BidArg = Annotated[list[str], typer.Argument(metavar="BID", help="5x3, 5 3, five 3s, 5 threes.")]
CountArg = Annotated[
    int | None,
    typer.Argument(metavar="COUNT", help="Dice that count for the bid, wilds included."),
]
HandsOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        metavar="HANDS",
        help='Every player\'s dice for the referee to count: "Ann=3,3,1 Bob=6,2".',
        show_default=False,
    ),
]


def new(
    ctx: typer.Context,
    players: PlayersArg,
    name: NameOpt = None,
    ruleset: RulesetOpt = None,
    nick: NickOpt = None,
    first: Annotated[
        str | None, typer.Option(metavar="PLAYER", help="Who opens.", show_default=False)
    ] = None,
    direction: Annotated[
        str | None,
        typer.Option(
            metavar="left|right",
            help="Which way play goes [default: the ruleset's].",
            show_default=False,
        ),
    ] = None,
) -> None:
    """A Liar's dice table.

    2 to 20 players in seat order (best 4 to 8); --ruleset perudo plays Perudo: wild ones,
    palifico and calza.
    """
    low, high = liars.SUGGESTED_PLAYERS
    start_session(
        ctx,
        "liars",
        players,
        nick=nick,
        name=name,
        ruleset=ruleset,
        options={"first": first, "direction": direction},
        player_options=("first",),
    )
    if not low <= len(players) <= high:
        output.warning_line(f"Liar's dice plays best with {low} to {high} players")


@app.command()
def bid(ctx: typer.Context, bid: BidArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Bid on all the dice.

    At least QUANTITY dice show FACE under all the cups: it must raise the standing bid.
    """
    parsed = Bid.parse(" ".join(bid))
    act(ctx, session, lambda s, state: liars.BidEvent(actor(s, state, by), parsed))


def _call(
    ctx: typer.Context,
    count: int | None,
    dice: str | None,
    by: str | None,
    session: str | None,
    exact: bool,
) -> None:
    hands = Hands.parse(dice) if dice is not None else None
    if (count is None) == (hands is None):
        raise UsageError("give the count of matching dice, or every player's dice with --dice")
    act(ctx, session, lambda s, state: liars.Call(actor(s, state, by), count, hands, exact))


@app.command()
def call(
    ctx: typer.Context,
    count: CountArg = None,
    dice: HandsOpt = None,
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """Call the bid a lie.

    Give the count of dice that match it (wilds included), or every player's dice with --dice.
    At least the bid: the caller loses a die; fewer: the bidder does.
    """
    _call(ctx, count, dice, by, session, exact=False)


@app.command()
def exact(
    ctx: typer.Context,
    count: CountArg = None,
    dice: HandsOpt = None,
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """Call the bid exactly right.

    Calza, where the ruleset has it: right, the caller regains a die; wrong, he loses one.
    """
    _call(ctx, count, dice, by, session, exact=True)


@app.command()
def odds(
    ctx: typer.Context,
    bid: Annotated[
        list[str] | None,
        typer.Argument(metavar="BID", help="The bid (in a session: the standing one)."),
    ] = None,
    dice: Annotated[
        int | None,
        typer.Option(
            "--dice", metavar="N", help="Dice in play (in a session: counted).", show_default=False
        ),
    ] = None,
    mine: Annotated[
        str | None,
        typer.Option(metavar="3,3,1", help="Your own dice, known to you.", show_default=False),
    ] = None,
    ruleset: RulesetOpt = None,
    session: SessionOpt = None,
) -> None:
    """The chance a bid is true.

    Exact, counting your own dice as known. In a session the dice in play, the standing bid and
    wild ones come from it; outside one, from the options (and --ruleset for wild ones).
    """
    state = session_state(ctx, session, "liars") if dice is None and ruleset is None else None
    if bid:
        wanted = Bid.parse(" ".join(bid))
    elif state is not None and state.bid is not None:
        wanted = state.bid
    else:
        raise UsageError("which bid? give one, like 5x3 (no bid stands in a session now)")
    if state is not None:
        total, wild = state.dice_in_play, state.wild
    else:
        if dice is None:
            raise UsageError("how many dice are in play? give --dice N")
        rules = liars.Rules.from_table(storage.load_ruleset(ruleset or "liars-dice"), "ruleset")
        total, wild = dice, rules.ones_wild
    known = _mine(mine)
    if not 0 < total <= liars.MAX_DICE * 20 or len(known) > total:
        raise UsageError(f"dice in play must be 1 to {liars.MAX_DICE * 20}, and your own fewer")
    chance = liars.odds(wanted, total - len(known), known, wild)
    among = f"{total} dice" + (f", yours {','.join(map(str, known))}" if known else "")
    wilds = ", ones wild" if wild and wanted.face != 1 else ""
    output.print_wrapped(
        f"at least {wanted.words()} ({wanted}) among {among}{wilds}: {chance:.6f} ({chance:.1%})"
    )


def _mine(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    hands = Hands.parse(f"me={text}")
    return hands.hands[0][1]


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
    complete={
        "bid.bid": lambda session, state: [str(b) for b in liars.smallest_raises(state)],
        "odds.bid": lambda session, state: [str(state.bid)] if state.bid else [],
        "call.dice": lambda session, state: [f"{c.name}=" for c in state.cups if c.dice],
        "exact.dice": lambda session, state: [f"{c.name}=" for c in state.cups if c.dice],
        "by": _names,
    },
    tools=("odds",),
)
