"""`referee new kiriki`, the odds, the rematch, KR in `referee ratings`, and the shell's prompt and
words: two-player matches, typed as they happen (the actions are declared on their events,
`games.kiriki.engine`)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli import output
from referee.cli.common import (
    NameOpt,
    SessionOpt,
    ShellPlugin,
    every_session,
    open_session,
    session_state,
    start_session,
)
from referee.errors import UsageError
from referee.games.kiriki import engine as kiriki
from referee.games.kiriki.kr import matches, signed
from referee.notation.dice import ALL_ROLLS, Rank, chance_words
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.session import Session, seated_players
from referee.text import printable

app = typer.Typer(
    help="Kiriki actions (alias: kr). The player on turn acts unless --by says who.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


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
    players = seated_players(before, state)  # who finished it: a taker-over, not whom he replaced
    start_session(
        ctx,
        "kiriki",
        [p.name for p in players],
        nick=[f"{p.name}={p.nickname}" for p in players if p.nickname],
        name=name,
        ruleset=None,
        table=before.ruleset,
        options={"format": state.format, "ranked": state.ranked or None, "first": first},
        player_options=("first",),
    )


# ---------------------------------------------------------------------------- KR ratings


def kr_ratings(
    ctx: typer.Context, *, history: bool, top: int | None
) -> tuple[str, dict[str, object]]:
    """KR's part of `referee ratings` (RULES 3): its text at 40 columns ('' when no ranked
    match is finished; `top` players at most, else every one and each pair's head to head;
    with `history` each match and what it changed) and its JSON document.

    Every player's KR (Elo), matches, wins and losses, from the finished ranked matches in the
    data folder (each counted once; Ann and ann are one player), derived afresh every time and
    replayed in the order the matches ended: the time of the event that ended each, then the
    session's creation, then its id."""
    # a file that does not load is skipped: `referee ratings` has said so once already
    found = kiriki.kr_history(list(matches(every_session(ctx, warn=False))))
    table = kiriki.ratings(found)
    pairs = kiriki.head_to_head(found)
    document = ratings_document(found, table, pairs)
    if not table:
        return "", document
    if history:
        return "\n".join(["Kiriki (KR)", *_history_lines(found)]), document
    from referee.render.cells import cut, ljust

    lines = [f"{'Kiriki (KR)':<20} {'KR':>5} {'won':>5} lost"]
    shown = table if top is None else table[:top]
    lines += [
        f"{ljust(cut(printable(r.name), 20), 20)} {r.kr:>5} {r.wins:>5} {r.losses:>4}"
        for r in shown
    ]
    if len(shown) < len(table):
        lines.append(f"  +{len(table) - len(shown)} more: ratings --game kiriki")
    if top is None and pairs:
        lines += ["", "head to head"]
        lines += [_pair_line(p) for p in pairs]
    return "\n".join(lines), document


def _pair_line(pair: kiriki.HeadToHead) -> str:
    from referee.render.cells import cut, rjust

    (a, b), (x, y) = pair.players, pair.wins
    # 16 + " 10 - 0  " + 15: two names at the 16-character limit still fit 40 columns
    return f"{rjust(cut(printable(a), 16), 16)} {x:>2} - {y:<2} {cut(printable(b), 15)}"


def _history_lines(found: list[kiriki.Rated]) -> list[str]:
    from referee.render.cells import cut

    lines = []
    for r in found:
        m = r.match
        w, lo = cut(printable(m.winner), 12), cut(printable(m.loser), 12)  # in cells
        lines.append(f"{m.finished[:10]} {cut(printable(m.session), 28)}")
        resigned = f", {lo} resigned" if m.resigned else ""
        lines.append(f"  {w} beat {lo} {m.score[0]}-{m.score[1]}{resigned}")
        lines.append(
            f"  {w} {r.winner_kr} ({signed(r.winner_change)}),"
            f" {lo} {r.loser_kr} ({signed(r.loser_change)})"
        )
    return lines


def ratings_document(
    found: list[kiriki.Rated], table: list[kiriki.Record], pairs: list[kiriki.HeadToHead]
) -> dict[str, object]:
    """KR's documented part of `ratings --json` (README: "referee ratings --json")."""
    return {
        "rating": "KR",
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
            return f"{who}: reveal/raise/reroll"  # short: a name and room to type fit
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
    bare="claim",  # a value alone at the prompt that asks for one is the claim
    complete={
        "rank": _ranks,
        "dice": lambda session, state: [str(r) for r in ALL_ROLLS],
        "shown": lambda session, state: list(WORDS.faces),
        "player": lambda session, state: [s.name for s in state.sides],
        "by": lambda session, state: [s.name for s in state.sides],
    },
    tools=("odds", "resign", "leave", "replace", "rematch"),  # open all match, not moves
    after=("rematch",),
)
