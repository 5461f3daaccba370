"""The Kariki score card: a cross per player, berries drawn by cause, the table's situation.

Each player's block is 24 columns wide, so a 40-column phone shows one per row and a wide
terminal several. Names are `Text`, never markup, so `[red]` in a name prints as typed.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.kariki import Cause, Phase, Raise, Seat, State, choices
from referee.notation.dice import KARIKI as LADDER
from referee.text import printable

GLYPHS: dict[Cause, str] = {
    Cause.LIE: "T",  # the seed's tear: a bluff caught
    Cause.FALSE_ACCUSATION: "P",
    Cause.SLASHES: "/",
    Cause.KARIKI: "K",
    Cause.CROWNS: "C",
    Cause.ILLEGAL_CLAIM: "!",
}
LEGEND: dict[Cause, str] = {
    Cause.LIE: "lie",
    Cause.FALSE_ACCUSATION: "bad pull",
    Cause.SLASHES: "slashes",
    Cause.KARIKI: "kariki",
    Cause.CROWNS: "crowns",
    Cause.ILLEGAL_CLAIM: "illegal",
}
BLOCK_WIDTH = 24


def cross(seat: Seat) -> list[str]:
    """Three lines of the cross: berries hang top, right, bottom, left, then the centre.

    >>> cross(Seat("Ann", berries=(Cause.LIE, Cause.SLASHES)))
    ['  T  ', '.-+-/', '  .  ']
    """
    points = [GLYPHS[c] for c in seat.berries[:5]]
    top, right, bottom, left, centre = (points + [".", ".", ".", ".", "+"][len(points) :])[:5]
    return [f"  {top}  ", f"{left}-{centre}-{right}", f"  {bottom}  "]


def player_block(state: State, index: int) -> Text:
    """One player's name line and cross with berries, slashes and crowns beside it."""
    seat = state.seats[index]
    on_turn = index == state.turn and not state.is_over
    head = Text("> " if on_turn else "  ", style="bold")
    head.append(printable(seat.name), style="bold" if on_turn else "")
    if seat.nickname:
        head.append(f" ({printable(seat.nickname)})", style="italic")
    status = _status(state, index)
    lines = cross(seat)
    limit = state.rules.berry_limit
    info = [
        f"berries {len(seat.berries)}/{limit}",
        f"slashes {'|' * seat.slashes}" if seat.slashes else "",
        f"crowns {seat.crowns}" + (" $" if seat.buyback_used else "")
        if seat.crowns
        else ("bought back $" if seat.buyback_used else ""),
    ]
    block = Text()
    block.append_text(head)
    if status:
        block.append("\n  ")
        block.append(status[0], style=status[1])
    for cross_line, extra in zip(lines, info, strict=True):
        block.append(f"\n  {cross_line}  {extra}".rstrip())
    return block


def _status(state: State, index: int) -> tuple[str, str] | None:
    seat = state.seats[index]
    if seat.out:
        role = " - bartender/DJ" if state.bartender == seat.name else ""
        return (f"OUT{role}", "bold red")
    if state.winner == seat.name:
        return (f"WINNER of the pot ({state.pot})", "bold green")
    if state.in_poo(seat):
        return ("IN THE POO", "bold reverse")
    return None


def situation(state: State) -> Text:
    """Whose turn it is and what they face, in one or two lines."""
    if state.is_over:
        text = Text(
            f"{printable(state.winner or '')} wins the pot of {state.pot}", style="bold green"
        )
        return text if state.winner else Text("nobody is left standing")
    who = printable(state.seats[state.turn].name)
    claim = LADDER.name(state.claim) if state.claim is not None else None
    text = Text()
    text.append(who, style="bold")
    if state.phase is Phase.ROLL:
        if claim is None:
            text.append(" rolls fresh")
        else:
            more = "above" if state.rules.raise_rule is Raise.STRICT else "or more"
            text.append(f" has the mug: claim {claim} {more}")
        return text
    assert claim is not None and state.roller is not None  # a live claim has a roller
    text.append(f" faces {claim}: {' / '.join(choices(state))}")
    answers = state.seats[state.responsible if state.responsible is not None else state.roller]
    roller = printable(state.seats[state.roller].name)
    text.append(f"\nclaimed by {roller}, {printable(answers.name)} answers")
    if state.passers:
        text.append("\npassed: " + ", ".join(printable(state.seats[p].name) for p in state.passers))
        if state.final_pass:
            text.append(" (final pass)")
    return text


def card(state: State, title: str, width: int = 40) -> RenderableType:
    """The whole score card, laid out for `width` columns."""
    header = Text()
    header.append("KARIKI", style="bold")
    header.append(f" {printable(title)}")
    pot = f"pot {state.pot}"
    pad = max(1, min(width, 2 * BLOCK_WIDTH + 2) - len(header) - len(pot))
    header.append(" " * pad + pot)
    blocks = [player_block(state, i) for i in range(len(state.seats))]
    parts: list[RenderableType] = [header, situation(state), Text("")]
    per_row = max(1, (width + 2) // (BLOCK_WIDTH + 2))
    if per_row == 1:
        for block in blocks:
            parts.append(block)
    else:
        from rich.table import Table

        grid = Table.grid(padding=(0, 2))
        for _ in range(per_row):
            grid.add_column(width=BLOCK_WIDTH, no_wrap=True)
        for start in range(0, len(blocks), per_row):
            row = blocks[start : start + per_row]
            grid.add_row(*row, *([""] * (per_row - len(row))))
        parts.append(grid)
    used = [c for c in Cause if any(c in s.berries for s in state.seats)]
    if used:
        parts.append(Text(""))
        parts.append(Text("  ".join(f"{GLYPHS[c]} {LEGEND[c]}" for c in used), style="dim"))
    if state.bartender:
        parts.append(Text(f"bartender/DJ: {printable(state.bartender)}", style="dim"))
    return Group(*parts)
