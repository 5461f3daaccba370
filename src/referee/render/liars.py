"""The Liar's dice table: each player's dice left as a row of cups, the bid, whose turn.

One line a player fits any phone, so the compact and the full card differ only in room: the
full card says the dice in play and lists the raises open to the player on turn.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.liars import State, smallest_raises
from referee.text import printable

WIDE = 60  # columns from which each player's lost dice are drawn beside those left


def dice_row(dice: int) -> str:
    """Hidden dice as a row: `[?][?][?]`, or `oooooooo` past six so a row fits a phone.

    >>> dice_row(3), dice_row(8)
    ('[?][?][?]', 'oooooooo')
    """
    return "[?]" * dice if dice <= 6 else "o" * dice


def status(state: State, full: bool = True) -> Text:
    """The bid and who made it, who is on turn and what raises are open; last on the card."""
    if state.is_over:
        return Text(f"{printable(state.winner or '')} wins", style="bold green")
    who = printable(state.name(state.turn))
    text = Text()
    if state.bid is None or state.bidder is None:
        text.append(who, style="bold")
        text.append(f" opens round {state.round}")
        if state.palifico:
            text.append("\npalifico: no wild ones, the face stays", style="bold")
        return text
    bidder = printable(state.name(state.bidder))
    text.append(f"bid: {state.bid.words()} ({state.bid}) by {bidder}\n")
    text.append(who, style="bold")
    verbs = "call or exact" if state.rules.exact_call else "call"
    if full:
        raises = " ".join(str(b) for b in smallest_raises(state))
        text.append(f" raises ({raises or 'none'}) or {verbs}")
    else:
        text.append(f" raises or {verbs}")
    if state.palifico:
        text.append("\npalifico: no wild ones, the face stays", style="bold")
    return text


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The table: a line per player with dice, out players folded, then the status; on a wide
    screen every player stays listed with the dice he lost."""
    wide = width >= WIDE and not compact
    header = Text()
    header.append("LIAR'S DICE", style="bold")
    header.append(f" {printable(title)}")
    right = f"round {state.round}"
    header.append(" " * max(1, min(width, 60 if wide else 40) - len(header) - len(right)) + right)
    lines: list[RenderableType] = [header]
    for i, cup in enumerate(state.cups):
        if cup.dice == 0 and not wide:
            continue
        on_turn = i == state.turn and not state.is_over
        who = printable(cup.name) + (f" ({printable(cup.nickname)})" if cup.nickname else "")
        if len(who) > 16:
            who = who[:15] + "…"
        line = Text("> " if on_turn else "  ", style="bold")
        line.append(f"{who:<16}", style="bold" if on_turn else "")
        line.append(f" {dice_row(cup.dice)}")
        if wide:
            lost = max(0, state.rules.dice_per_player - cup.dice)
            line.append("[x]" * lost if lost <= 6 else "x" * lost, style="dim")
            line.append(f"  {cup.dice} left" if cup.dice else "  out", style="dim")
        lines.append(line)
    out = [printable(c.name) for c in state.cups if c.dice == 0]
    if out and not wide:
        lines.append(Text("out: " + ", ".join(out), style="red"))
    if not compact:
        wild = ", ones wild" if state.wild else ""
        lines.append(Text(f"{state.dice_in_play} dice in play{wild}", style="dim"))
    lines.append(status(state, full=not compact))
    return Group(*lines)


def card_lines(state: State, width: int) -> int:
    """How many lines the full card takes (so the CLI can choose a layout)."""
    if width >= WIDE:
        players, out = len(state.cups), 0
    else:
        players = sum(1 for c in state.cups if c.dice)
        out = 1 if players < len(state.cups) else 0
    return 2 + players + out + len(status(state).plain.splitlines())
