"""The Mia table: every player's lives, the value standing and who said it, who acts with what.

The full card gives each player a line with his lives as a row (`oooo..`); the compact one,
for a big table on a small screen, packs the players still in onto as few lines as fit and
folds those who are out into one line.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.mia.engine import Phase, State, announceable, may_pass
from referee.games.mia.values import chance_at_least
from referee.render.cells import cut_apart, ljust, width_of
from referee.render.common import header, mark_winner, out_lines, wrapped_lines
from referee.text import printable

BAR_MAX = 12  # lives from which a row of them would crowd the line: the number only


def lives_row(lives: int, start: int) -> str:
    """Lives left as `o`, lost as `.`, then the number; just the number past `BAR_MAX`.

    >>> lives_row(4, 6), lives_row(0, 6), lives_row(15, 20)
    ('oooo..  4', 'out', '15 lives')
    """
    if lives == 0:
        return "out"
    if start > BAR_MAX:
        return f"{lives} lives"
    return "o" * lives + "." * (start - lives) + f"  {lives}"


def _who(state: State, i: int, limit: int = 16) -> str:
    """Seat `i`'s name (and nickname) in `limit` cells, cut apart from every other's."""
    whos = [printable(s.name) + (f" ({printable(s.nickname)})" if s.nickname else "")
            for s in state.seats]  # fmt: skip
    return cut_apart(whos, limit)[i]


def status(state: State, full: bool = True) -> Text:
    """The value standing, who acts and what is open to him; the card's last lines."""
    if state.is_over:
        return Text(f"{printable(state.winner or '')} wins", style="bold green")
    who = printable(state.name(state.turn))
    text = Text()
    if state.standing is None or state.announcer is None:
        text.append(who, style="bold")
        text.append(f" rolls round {state.round}: announce any value")
        return text
    value, by = state.standing, printable(state.name(state.announcer))
    over = f"{value} or more" if state.rules.equal_allowed else f"over {value}"
    if state.phase is Phase.ROLL:
        text.append(f"{value} by {by}, believed\n")
        text.append(who, style="bold")
        text.append(f" rolls and announces {over}")
    elif value.is_mia:
        if state.mia_from is not None:  # passed on: who first said it, who answers for it now
            text.append(f"Mia by {printable(state.name(state.mia_from))}, passed by {by}!\n",
                        style="bold")  # fmt: skip
        else:
            text.append(f"Mia by {by}!\n", style="bold")
        text.append(who, style="bold")
        costs = f"lift (costs {state.rules.mia_costs} if true)"
        text.append(f": {costs}, giveup or pass" if may_pass(state) else f": {costs} or giveup")
    else:
        text.append(f"{value} by {by}\n")
        text.append(who, style="bold")
        text.append(f": lift or believe ({over})")
    open_now = announceable(state)
    if full and open_now:
        chance = chance_at_least(open_now[0], state.rules.doubles_order)
        verb = "reaches" if state.rules.equal_allowed else "beats"
        text.append(
            f"\na fresh roll {verb} it: {chance * 36}/36 ({float(chance):.1%})", style="dim"
        )
    return text


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The table: a line per player with his lives (compact: the players still in, packed),
    then the status."""
    width = min(width, 40)  # the card is a phone's: wider screens just have room around it
    lines: list[RenderableType] = [_header(state, title, width)]
    on_turn = None if state.is_over else state.turn
    if compact:
        lines += _packed(state, width, on_turn)
        lines += out_lines(state.out, width, whole=state.is_over)  # first out first
    else:
        lines += _rows(state)
    lines.append(status(state, full=not compact))
    return Group(*lines)


def _header(state: State, title: str, width: int) -> Text:
    """`MIA title    goes left, round 3`: which way play goes and the round at the right of
    `width`, the round alone where a long title leaves no room."""
    used = width_of(f"MIA {printable(title)}")
    said = f"goes {state.direction.value}, round {state.round}"
    right = said if used + 1 + len(said) <= width else f"round {state.round}"
    return header("MIA", title, width, right)


def _won(state: State, i: int, line: Text, width: int) -> None:
    """The winner's mark after the lives, as Kariki's card has it: WINNER, else WIN."""
    if state.is_over and state.winner == state.seats[i].name:
        mark_winner(line, width)


def _rows(state: State) -> list[Text]:
    """The full card's line a player: who, his lives."""
    on_turn = None if state.is_over else state.turn
    lines = []
    for i, seat in enumerate(state.seats):
        mark = i == on_turn
        line = Text("> " if mark else "  ", style="bold")
        line.append(ljust(_who(state, i), 16), style="bold" if mark else "")
        line.append(f" {lives_row(seat.lives, state.rules.lives)}",
                    style="dim" if seat.lives == 0 else "")  # fmt: skip
        _won(state, i, line, 40)
        lines.append(line)
    return lines


def _packed(state: State, width: int, on_turn: int | None) -> list[Text]:
    """The players still in as `Ann 6` pieces, as many to a line as fit."""
    rows: list[Text] = []
    row = Text()
    for i in state.active:
        piece = (">" if i == on_turn else "") + f"{_who(state, i, 12)} {state.seats[i].lives}"
        if row.plain and width_of(row.plain) + 2 + width_of(piece) > width:
            rows.append(row)
            row = Text()
        if row.plain:
            row.append("  ")
        row.append(piece, style="bold" if i == on_turn else "")
    if state.active:  # once the game is over, the winner alone
        _won(state, state.active[-1], row, width)
    rows.append(row)
    return rows


def card_lines(state: State, width: int, title: str = "") -> int:
    """How many lines the full card titled `title` takes (so the CLI can choose a layout)."""
    # a long title, a player's line and the status wrap at words on a narrow screen
    header = wrapped_lines(_header(state, title, min(width, 40)).plain, width)
    rows = sum(wrapped_lines(line.plain, width) for line in _rows(state))
    return header + rows + wrapped_lines(status(state).plain, width)


def columns(state: State, width: int) -> list[list[Text]]:
    """The card's lines that are columns, in groups whose rows line up: a player a row, whole
    and packed for a big table."""
    return [_rows(state), _packed(state, width, None)]
