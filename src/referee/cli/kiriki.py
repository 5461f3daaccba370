"""`referee kiriki ...` (alias `kr`), `referee new kiriki` and `referee ratings`: two-player
matches, typed as they happen."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli import output
from referee.cli.common import (
    ByOpt,
    JsonOpt,
    NameOpt,
    NickOpt,
    PlayersArg,
    RulesetOpt,
    SessionOpt,
    ShellPlugin,
    act,
    actor,
    every_session,
    session_state,
    start_session,
)
from referee.errors import UsageError
from referee.games import kiriki
from referee.notation.dice import ALL_ROLLS, Rank, Roll, chance_words, parse_face, parse_rank
from referee.notation.dice import KIRIKI as LADDER
from referee.session import Session, resolve_player

app = typer.Typer(
    help="Kiriki actions (alias: kr). The player on turn acts unless --by says who.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
RankArg = Annotated[
    list[str], typer.Argument(metavar="RANK", help="4 .. 11, tabique, pair of kings, 5-5 ...")
]
DiceArg = Annotated[list[str], typer.Argument(metavar="DICE", help="The two dice: 4-5, 45, 4 5.")]


def _roll(dice: list[str]) -> Roll:
    if len(dice) > 2:
        raise UsageError(f"two dice, like 4-5, not {len(dice)} words")
    return Roll.parse(" ".join(dice))


def new(
    ctx: typer.Context,
    players: PlayersArg,
    name: NameOpt = None,
    ruleset: RulesetOpt = None,
    nick: NickOpt = None,
    format: Annotated[
        str | None,
        typer.Option(
            metavar="FORMAT",
            help="bullet, revolver, standard or classical [default: standard].",
            show_default=False,
        ),
    ] = None,
    ranked: Annotated[bool, typer.Option("--ranked", help="Rate the match (KR).")] = False,
    first: Annotated[
        str | None,
        typer.Option(metavar="PLAYER", help="Who rolls first (else: rolloff).", show_default=False),
    ] = None,
) -> None:
    """A Kiriki match.

    Exactly two players. The roll-off is typed as 'referee kiriki rolloff 5 3' (one die each,
    in the order named), or skipped with --first.
    """
    start_session(
        ctx,
        "kiriki",
        players,
        nick=nick,
        name=name,
        ruleset=ruleset,
        options={"format": format, "ranked": ranked or None, "first": first},
        player_options=("first",),
    )


@app.command()
def rolloff(
    ctx: typer.Context,
    first: Annotated[int, typer.Argument(metavar="DIE", help="The first-named player's die.")],
    second: Annotated[int, typer.Argument(metavar="DIE", help="The other player's die.")],
    session: SessionOpt = None,
) -> None:
    """Roll off for the start.

    One die each, in the order the players were named: higher rolls first; a tie rolls again.
    """
    for die in (first, second):
        if not 1 <= die <= 6:
            raise UsageError(f"a die shows 1 to 6, not {die}")
    act(ctx, session, lambda s, state: kiriki.RollOff(first, second))


@app.command()
def claim(
    ctx: typer.Context,
    rank: RankArg,
    show: Annotated[
        str | None,
        typer.Option(
            metavar="DIE", help="Show one of your dice: 1-6 or Black .. Ace.", show_default=False
        ),
    ] = None,
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """Claim a rank.

    4 to Pair of Aces (a Kiriki is shown, never claimed). --show reveals one of your two dice,
    on the first claim from a fresh roll only.
    """
    parsed = parse_rank(" ".join(rank))
    shown = parse_face(show) if show is not None else None
    act(ctx, session, lambda s, state: kiriki.Claim(actor(s, state, by), parsed, shown))


@app.command("kiriki")
def show_kiriki(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Show a rolled Kiriki.

    Black and Red: the roller takes the point at once.
    """
    act(ctx, session, lambda s, state: kiriki.ShowKiriki(actor(s, state, by)))


@app.command()
def lift(ctx: typer.Context, dice: DiceArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Lift the cup.

    Dice that meet the claim (truth or downplay) win the point for the claimer; below it, for
    the one who lifted.
    """
    rolled = _roll(dice)
    act(ctx, session, lambda s, state: kiriki.Lift(actor(s, state, by), rolled))


@app.command()
def believe(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Believe the claim.

    A lie wins the point for the claimer (he reveals it); a truth leaves him in control.
    """
    act(ctx, session, lambda s, state: kiriki.Believe(actor(s, state, by)))


@app.command()
def reveal(ctx: typer.Context, dice: DiceArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Show a believed bluff.

    The dice must be below the claim: the bluff worked, and the point is the claimer's.
    """
    rolled = _roll(dice)
    act(ctx, session, lambda s, state: kiriki.Reveal(actor(s, state, by), rolled))


@app.command("raise")
def raise_(ctx: typer.Context, rank: RankArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Keep the dice and raise.

    After a believed truth: a strictly higher claim, no new die shown.
    """
    parsed = parse_rank(" ".join(rank))
    act(ctx, session, lambda s, state: kiriki.Raise(actor(s, state, by), parsed))


@app.command()
def reroll(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Reroll after a believed truth.

    Roll fresh, then claim equal or higher (or show a Kiriki); forced at Pair of Aces.
    """
    act(ctx, session, lambda s, state: kiriki.Reroll(actor(s, state, by)))


@app.command()
def roll(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Take the mug and roll.

    Roll fresh, then claim equal or higher than the standing claim (or show a Kiriki).
    """
    act(ctx, session, lambda s, state: kiriki.Roll_(actor(s, state, by)))


@app.command()
def resign(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="Who resigns.")],
    session: SessionOpt = None,
) -> None:
    """Resign the match.

    The match ends as a loss for PLAYER (and counts for KR when ranked).
    """
    act(ctx, session, lambda s, state: kiriki.Resign(resolve_player(s, player)))


@app.command()
def odds(
    ctx: typer.Context,
    rank: Annotated[
        list[str] | None,
        typer.Argument(metavar="RANK", help="The claim (in a session: the standing one)."),
    ] = None,
    session: SessionOpt = None,
) -> None:
    """The chance to meet a claim.

    The chance that a fresh roll of two dice meets RANK or better, of 36.
    """
    if rank:
        wanted = parse_rank(" ".join(rank))
    else:
        state = session_state(ctx, session, "kiriki")
        if state is None or state.claim is None:
            raise UsageError("which claim? give one, like 'pair of kings'")
        wanted = state.claim
    output.print_wrapped(chance_words(wanted, LADDER))


# ---------------------------------------------------------------------------- KR ratings


def ratings(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Kiriki KR ratings.

    Every player's KR (Elo), matches, wins and losses, from the ranked matches saved in the
    data folder, in the order they finished; derived afresh every time, never stored.
    """
    matches = [
        kiriki.rated_match(loaded.state, loaded.session.updated)
        for loaded in every_session(ctx)
        if loaded.session.game == "kiriki" and loaded.state.ranked and loaded.state.is_over
    ]
    table = kiriki.ratings(sorted(matches))
    rows = sorted(table.items(), key=lambda kv: -kv[1]["kr"])
    if json_out:
        output.print_json([{"name": n, **row} for n, row in rows])
        return
    if not rows:
        output.print_text("no ranked Kiriki matches yet: referee new kiriki A B --ranked")
        return
    lines = ["player              KR  won lost"]
    lines += [f"{n[:16]:<16} {r['kr']:>5} {r['wins']:>4} {r['losses']:>4}" for n, r in rows]
    output.print_text("\n".join(lines))


# ---------------------------------------------------------------------------- the shell


def shell_prompt(state: kiriki.State) -> str:
    """Who acts and what stands: `Bob vs Pair of Kings`, `Ann rolls`."""
    if state.is_over:
        return f"{state.name(state.winner or 0)} won"
    who = state.name(state.turn)
    match state.phase:
        case kiriki.Phase.ROLLOFF:
            return "rolloff"
        case kiriki.Phase.CLAIM:
            return f"{who} rolls" + (f" {LADDER.name(state.need)}+" if state.need else "")
        case kiriki.Phase.ANSWER:
            return f"{who} vs {LADDER.name(state.claim or Rank.FOUR)}"
        case kiriki.Phase.BELIEVED:
            return f"{who} believed"
    return who


def _ranks(session: Session, state: kiriki.State) -> list[str]:
    low = state.need if state.phase is kiriki.Phase.CLAIM and state.need else Rank.FOUR
    if state.phase is kiriki.Phase.BELIEVED and state.claim is not None:
        low = Rank(min(state.claim + 1, kiriki.TOP_CLAIM))
    found = []
    for rank in Rank:
        if low <= rank <= kiriki.TOP_CLAIM:
            roll = next(r for r in ALL_ROLLS if r.rank is rank)
            found.append(str(roll) if roll.low == roll.high else str(rank + 3))
    return found


SHELL = ShellPlugin(
    prompt=shell_prompt,
    complete={
        "rank": _ranks,
        "dice": lambda session, state: [str(r) for r in ALL_ROLLS],
        "show": lambda session, state: ["Black", "Red", "Jack", "Queen", "King", "Ace"],
        "player": lambda session, state: [s.name for s in state.sides],
        "by": lambda session, state: [s.name for s in state.sides],
    },
    tools=("odds", "resign"),
)
