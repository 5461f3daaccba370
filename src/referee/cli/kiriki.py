"""`referee kiriki ...` (alias `kr`), `referee new kiriki` and `referee ratings`: two-player
matches, typed as they happen."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any

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
    open_session,
    session_state,
    start_session,
    workspace,
)
from referee.errors import RuleViolation, UsageError
from referee.games import kiriki
from referee.notation.dice import ALL_ROLLS, Rank, Roll, chance_words
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.session import Session, resolve_player
from referee.text import printable

app = typer.Typer(
    help="Kiriki actions (alias: kr). The player on turn acts unless --by says who.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
RankArg = Annotated[
    list[str],
    typer.Argument(metavar="RANK", help="4 .. 11, tabique, pair of kings, KK, 5-5, q-k ..."),
]
DiceArg = Annotated[
    list[str], typer.Argument(metavar="DICE", help="The two dice: 4-5, 45, J-Q, KK, king king.")
]


def _roll(dice: list[str]) -> Roll:
    if len(dice) > 2:
        raise UsageError(f"two dice, like 4-5 or K-K, not {len(dice)} words")
    return WORDS.parse_dice(" ".join(dice))


def _actor(session: Session, state: kiriki.State, by: str | None) -> str:
    """Who acts (see `common.actor`); a finished match says so in its own words."""
    if state.is_over and not by:
        raise RuleViolation(kiriki.over_words(state))
    return actor(session, state, by)


def _act(ctx: typer.Context, ref: str | None, make: Callable[[Session, Any], Any]) -> None:
    """`common.act`, then, when the action ended a ranked match, what it did to KR."""
    act(ctx, ref, make)
    known = workspace(ctx).known
    if known is not None and known.state.is_over and known.state.ranked:
        said = kr_change(ctx, known.session)
        if said:
            output.print_wrapped(said)


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
    _act(ctx, session, lambda s, state: kiriki.RollOff(first, second))


@app.command()
def claim(
    ctx: typer.Context,
    rank: RankArg,
    show: Annotated[
        str | None,
        typer.Option(
            metavar="DIE",
            help="Show one of your dice: 1-6, Black .. Ace, or B R J Q K A.",
            show_default=False,
        ),
    ] = None,
    by: ByOpt = None,
    session: SessionOpt = None,
) -> None:
    """Claim a rank.

    4 to Pair of Aces (a Kiriki is shown, never claimed). --show reveals one of your two dice,
    on the first claim from a fresh roll only.
    """
    parsed = WORDS.parse_rank(" ".join(rank))
    shown = WORDS.parse_face(show) if show is not None else None
    _act(ctx, session, lambda s, state: kiriki.Claim(_actor(s, state, by), parsed, shown))


@app.command("kiriki")
def show_kiriki(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Show a rolled Kiriki.

    Black and Red: the roller takes the point at once.
    """
    _act(ctx, session, lambda s, state: kiriki.ShowKiriki(_actor(s, state, by)))


@app.command()
def lift(ctx: typer.Context, dice: DiceArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Lift the cup.

    Dice that meet the claim (truth or downplay) win the point for the claimer; below it, for
    the one who lifted.
    """
    rolled = _roll(dice)
    _act(ctx, session, lambda s, state: kiriki.Lift(_actor(s, state, by), rolled))


@app.command()
def believe(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Believe the claim.

    A lie wins the point for the claimer (he reveals it); a truth leaves him in control.
    """
    _act(ctx, session, lambda s, state: kiriki.Believe(_actor(s, state, by)))


@app.command()
def reveal(ctx: typer.Context, dice: DiceArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Show a believed bluff.

    The dice must be below the claim: the bluff worked, and the point is the claimer's.
    """
    rolled = _roll(dice)
    _act(ctx, session, lambda s, state: kiriki.Reveal(_actor(s, state, by), rolled))


@app.command("raise")
def raise_(ctx: typer.Context, rank: RankArg, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Keep the dice and raise.

    After a believed truth: a strictly higher claim, no new die shown.
    """
    parsed = WORDS.parse_rank(" ".join(rank))
    _act(ctx, session, lambda s, state: kiriki.Raise(_actor(s, state, by), parsed))


@app.command()
def reroll(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Reroll after a believed truth.

    Roll fresh, then claim equal or higher (or show a Kiriki); forced at Pair of Aces.
    """
    _act(ctx, session, lambda s, state: kiriki.Reroll(_actor(s, state, by)))


@app.command()
def roll(ctx: typer.Context, by: ByOpt = None, session: SessionOpt = None) -> None:
    """Take the mug and roll.

    Roll fresh, then claim equal or higher than the standing claim (or show a Kiriki).
    """
    _act(ctx, session, lambda s, state: kiriki.Roll_(_actor(s, state, by)))


@app.command()
def resign(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="Who resigns.")],
    session: SessionOpt = None,
) -> None:
    """Resign the match.

    The match ends as a loss for PLAYER (and counts for KR when ranked).
    """
    _act(ctx, session, lambda s, state: kiriki.Resign(resolve_player(s, player)))


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
        wanted = WORDS.parse_rank(" ".join(rank))
    else:
        state = session_state(ctx, session, "kiriki")
        standing = None if state is None else state.claim or state.need
        if standing is None:
            now = f" ({kiriki.over_words(state)})" if state is not None and state.is_over else ""
            raise UsageError(f"no claim stands{now}: give one, like 'pair of kings'")
        wanted = standing
    output.print_wrapped(chance_words(wanted, LADDER))


@app.command()
def rematch(ctx: typer.Context, name: NameOpt = None, session: SessionOpt = None) -> None:
    """Play again.

    A new match with the same players, format, ranking and house rules, made current; the
    loser of the finished match rolls first (the ruleset's rematch_first: loser, winner or
    rolloff).
    """
    loaded = open_session(ctx, session)
    before = loaded.session
    if before.game != "kiriki":
        raise UsageError(
            f"{before.name} is a {before.game} session: a rematch is of a Kiriki match"
        )
    state: kiriki.State = loaded.state
    first = kiriki.rematch_first(state)
    start_session(
        ctx,
        "kiriki",
        [p.name for p in before.players],
        nick=[f"{p.name}={p.nickname}" for p in before.players if p.nickname],
        name=name,
        ruleset=None,
        table=before.ruleset,
        options={"format": state.format, "ranked": state.ranked or None, "first": first},
        player_options=("first",),
    )


# ---------------------------------------------------------------------------- KR ratings


def match_id(session: Session) -> str:
    """The session's id: a match counts once, however many copies of it the folder holds
    (files from before session ids get one that rename, export and import keep)."""
    from referee.history import session_id

    return session_id(session)


def _utc(text: str) -> str:
    from datetime import UTC

    from referee.session import event_time

    found = event_time(text) if text else None
    return found.astimezone(UTC).isoformat() if found is not None else ""


def rated(session: Session, state: kiriki.State) -> kiriki.RatedMatch | None:
    """A session as KR counts it, if it is a finished ranked Kiriki match."""
    if session.game != "kiriki" or not state.ranked or not state.is_over:
        return None
    from referee.session import TIME_KEY

    at = session.events[-1].get(TIME_KEY) if session.events else None
    finished = _utc(at if isinstance(at, str) else "") or _utc(session.created)
    return kiriki.rated_match(
        state, finished, _utc(session.created), match_id(session), session.name
    )


def _matches(ctx: typer.Context, quiet: bool = False) -> Iterator[kiriki.RatedMatch]:
    if quiet:  # under a match-end screen, a broken file elsewhere is not this screen's news
        from referee import storage

        space = workspace(ctx)
        loaded_all: Iterable[Any] = (
            _quietly(storage.load, path, space.cache) for path in storage.session_files(space.home)
        )
    else:
        loaded_all = every_session(ctx)
    for loaded in loaded_all:
        if loaded is not None:
            found = rated(loaded.session, loaded.state)
            if found is not None:
                yield found


def _quietly(load: Callable[..., Any], *args: Any) -> Any:
    from referee.errors import RefereeError

    try:
        return load(*args)
    except RefereeError:
        return None


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "±0"


def kr_change(ctx: typer.Context, session: Session) -> str | None:
    """What a finished ranked match did to KR: `KR: Ann 1516 (+16), Bob 1484 (-16)`."""
    mine = match_id(session)
    for found in kiriki.kr_history(list(_matches(ctx, quiet=True))):
        if found.match.id == mine:
            m = found.match
            return (
                f"KR: {printable(m.winner)} {found.winner_kr} ({_signed(found.winner_change)}),"
                f" {printable(m.loser)} {found.loser_kr} ({_signed(found.loser_change)})"
            )
    return None


def ratings(
    ctx: typer.Context,
    history: Annotated[
        bool, typer.Option("--history", help="Every rated match and the KR it moved.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Kiriki KR ratings.

    Every player's KR (Elo), matches, wins and losses, and each pair's head-to-head, from the
    finished ranked matches in the data folder (each counted once; Ann and ann are one
    player); derived afresh every time, never stored. KR replays the matches in the order
    they ended: the time of the event that ended each, then the session's creation, then its
    id. --history lists each match and what it changed.
    """
    found = kiriki.kr_history(list(_matches(ctx)))
    table = kiriki.ratings(found)
    pairs = kiriki.head_to_head(found)
    if json_out:
        output.print_json(ratings_document(found, table, pairs))
        return
    if not table:
        output.print_text(
            "no ranked Kiriki matches yet; start one\nwith: referee new kiriki A B --ranked"
        )
        return
    if history:
        output.print_text("\n".join(_history_lines(found)))
        return
    lines = ["player              KR  won lost"]
    lines += [f"{printable(r.name)[:16]:<16} {r.kr:>5} {r.wins:>4} {r.losses:>4}" for r in table]
    lines += ["", "head to head"]
    lines += [_pair_line(p) for p in pairs]
    output.print_text("\n".join(lines))


def _pair_line(pair: kiriki.HeadToHead) -> str:
    (a, b), (x, y) = pair.players, pair.wins
    return f"{printable(a)[:16]:>16} {x:>2} - {y:<2} {printable(b)[:16]}"


def _history_lines(found: list[kiriki.Rated]) -> list[str]:
    lines = []
    for r in found:
        m = r.match
        w, lo = printable(m.winner)[:12], printable(m.loser)[:12]
        lines.append(f"{m.finished[:10]} {printable(m.session)[:28]}")
        resigned = f", {lo} resigned" if m.resigned else ""
        lines.append(f"  {w} beat {lo} {m.score[0]}-{m.score[1]}{resigned}")
        lines.append(
            f"  {w} {r.winner_kr} ({_signed(r.winner_change)}),"
            f" {lo} {r.loser_kr} ({_signed(r.loser_change)})"
        )
    return lines


def ratings_document(
    found: list[kiriki.Rated], table: list[kiriki.Record], pairs: list[kiriki.HeadToHead]
) -> dict[str, object]:
    """The documented `ratings --json` document (README: "referee ratings --json")."""
    return {
        "order": ["finished", "created", "id"],
        "players": [r._asdict() for r in table],
        "head_to_head": [{"players": list(p.players), "wins": list(p.wins)} for p in pairs],
        "matches": [
            {
                "session": r.match.session,
                "id": r.match.id,
                "finished": r.match.finished,
                "created": r.match.created,
                "winner": _side(r.match.winner, r.winner_kr, r.winner_change),
                "loser": _side(r.match.loser, r.loser_kr, r.loser_change),
                "score": list(r.match.score),
                "resigned": r.match.resigned,
            }
            for r in found
        ],
    }


def _side(name: str, kr: int, change: int) -> dict[str, object]:
    return {"name": name, "kr": kr, "change": change}


# ---------------------------------------------------------------------------- the shell


def shell_prompt(state: kiriki.State) -> str:
    """Who acts and what: `Bob answers Pair of Kings`, `Ann claims 9+`, `Ann must reroll`."""
    if state.is_over:
        return "the match is over"
    who = state.name(state.turn)
    match state.phase:
        case kiriki.Phase.ROLLOFF:
            return "rolloff, one die each"
        case kiriki.Phase.CLAIM:
            return f"{who} claims" + (f" {LADDER.name(state.need)}+" if state.need else "")
        case kiriki.Phase.ANSWER:
            return f"{who} answers {LADDER.name(state.claim or Rank.FOUR)}"
        case kiriki.Phase.BELIEVED if state.claim is kiriki.TOP_CLAIM:
            return f"{who} must reroll"
        case kiriki.Phase.BELIEVED:
            return f"{who} reveals, raises or rerolls"
    return who


def _ranks(session: Session, state: kiriki.State) -> list[str]:
    low = state.need if state.phase is kiriki.Phase.CLAIM and state.need else Rank.FOUR
    if state.phase is kiriki.Phase.BELIEVED and state.claim is not None:
        low = Rank(min(state.claim + 1, kiriki.TOP_CLAIM))
    found = []
    for rank in Rank:
        if low <= rank <= kiriki.TOP_CLAIM:
            roll = next(r for r in ALL_ROLLS if r.rank is rank)
            found.append(WORDS.letters(roll) if roll.low == roll.high else str(rank + 3))
    return found


SHELL = ShellPlugin(
    prompt=shell_prompt,
    complete={
        "rank": _ranks,
        "dice": lambda session, state: [str(r) for r in ALL_ROLLS],
        "show": lambda session, state: list(WORDS.faces),
        "player": lambda session, state: [s.name for s in state.sides],
        "by": lambda session, state: [s.name for s in state.sides],
    },
    tools=("odds", "resign", "rematch"),
)
