"""The Liar's dice table: the players and their dice, the way play goes, the bid, whose turn.

The full card gives each player with dice a line (a row of cups), says the dice in play and
lists the raises open to the player on turn. The compact card folds the roster into columns,
so that even twenty players leave room for the ruling above it: the roster folds, never the
ruling. On a wide screen every player stays listed with the dice he lost.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.liars.bids import count_dice
from referee.games.liars.engine import (
    CallBy,
    Direction,
    State,
    calza_barred,
    has_calza,
    smallest_raises,
)
from referee.games.liars.words import play_goes
from referee.render.cells import cut_apart, ljust, width_of, wrap_words
from referee.render.common import header, out_lines, wrapped_lines
from referee.text import printable

WIDE = 60  # columns from which each player's lost dice are drawn beside those left
NAME = 16  # columns for a name on the full card
ROWS = 10  # players with dice who each get a line on the full card; more are folded


def dice_row(dice: int) -> str:
    """Hidden dice as a row: `[?][?][?]`, or `oooooooo` past six so a row fits a phone.

    >>> dice_row(3), dice_row(8)
    ('[?][?][?]', 'oooooooo')
    """
    return "[?]" * dice if dice <= 6 else "o" * dice


def _join(words: list[str]) -> str:
    """`raise, call or exact`."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def status_lines(state: State, width: int = 40, full: bool = True) -> list[Text]:
    """The bid and who made it, who may do what now, the raises open; last on the card."""
    if state.is_over:
        return [Text(f"{printable(state.winner or '')} wins", style="bold green")]
    who = printable(state.name(state.turn))
    lines: list[Text] = []
    if state.bid is None or state.bidder is None:
        line = Text(who, style="bold")
        line.append(f" opens round {state.round}")
        lines.append(line)
    else:
        bidder = printable(state.name(state.bidder))
        lines += _wrap(f"bid: {state.bid.words()} ({state.bid}) by {bidder}", width)
        raises = smallest_raises(state)
        rules = state.rules
        calza = has_calza(state)
        # A house rule (one calza each, only after a lost die) may leave some out: name who may.
        callers = [
            printable(state.name(i))
            for i in state.active
            if i != state.bidder and calza_barred(state, i) is None
        ]
        named = calza and rules.exact_call_by is CallBy.ANY and len(callers) < len(state.active) - 1
        mine = ["raise"] if raises else []
        anyone: list[str] = []
        for verb, by, open_now in (
            ("call", rules.call_by, True),
            ("exact", rules.exact_call_by, calza and not named),
        ):
            if open_now:
                (mine if by is CallBy.TURN else anyone).append(verb)
        if mine:
            wrapped = _wrap(f"{who}: {_join(mine)}", width)
            wrapped[0].stylize("bold", 0, min(len(who), len(wrapped[0])))
            lines += wrapped
        if anyone:
            lines += _wrap(f"{_join(anyone)}: anyone but {bidder}", width)
        if named:
            lines += _wrap(f"exact: {_join(callers)}", width)
        if full and raises:
            lines += _wrap("raises: " + " ".join(str(b) for b in raises), width)
    if state.palifico:
        said = "palifico: no wild ones, the face stays"
        if state.rules.palifico_one_die_free_face:
            said = "palifico: no wild ones; the face stays but for a player on one die"
        lines += _wrap(said, width, "bold")
    return lines


def _wrap(text: str, width: int, style: str = "") -> list[Text]:
    """A line wrapped at words to `width`, as styled lines (so they can be counted)."""
    return [Text(line, style=style) for line in wrap_words(text, width, "  ")]


def status(state: State, full: bool = True) -> Text:
    """The status lines as one text (40 columns)."""
    return Text("\n").join(status_lines(state, 40, full))


def _header(state: State, title: str, width: int) -> Text:
    """`LIAR'S DICE friday   round 3`, or `PERUDO` under the Perudo ruleset (its own game at
    the table, in ratings and in stats)."""
    game = "PERUDO" if state.rules.name == "perudo" else "LIAR'S DICE"
    return header(game, title, width, f"round {state.round}")


def _who(state: State, i: int, room: int) -> str:
    """Seat `i`'s name (and nickname) in `room` cells, cut apart from every other's."""
    whos = [printable(c.name) + (f" ({printable(c.nickname)})" if c.nickname else "")
            for c in state.cups]  # fmt: skip
    return cut_apart(whos, room)[i]


def _rows(state: State, wide: bool) -> list[Text]:
    """A line a player: who, his dice; on a wide screen the dice he lost too."""
    lines = []
    for i, cup in enumerate(state.cups):
        if cup.dice == 0 and not wide:
            continue
        on_turn = i == state.turn and not state.is_over
        line = Text("> " if on_turn else "  ", style="bold")
        line.append(ljust(_who(state, i, NAME), NAME), style="bold" if on_turn else "")
        line.append(f" {dice_row(cup.dice)}")
        if wide:
            lost = max(0, state.rules.dice_per_player - cup.dice)
            line.append("[x]" * lost if lost <= 6 else "x" * lost, style="dim")
            line.append(f"  {cup.dice} left" if cup.dice else "  out", style="dim")
        lines.append(line)
    return lines


def _folded(state: State, width: int) -> list[Text]:
    """Players with dice in columns, `>Ann 5`, as many to a line as fit."""
    seats = state.active
    longest = max(width_of(_who(state, i, NAME)) for i in seats)
    cell = longest + 4  # the turn mark, the name, a space, up to two digits
    columns = max(1, (width + 1) // (cell + 1))
    if columns == 1 and len(seats) > 1:
        columns, cell = 2, (width - 1) // 2  # two columns always: cut the longest names
    room = cell - 4
    lines = []
    for start in range(0, len(seats), columns):
        line = Text()
        for k, i in enumerate(seats[start : start + columns]):
            on_turn = i == state.turn and not state.is_over
            if k:
                line.append(" ")
            line.append(">" if on_turn else " ", style="bold")
            name = ljust(_who(state, i, room), room)
            line.append(name, style="bold" if on_turn else "")
            line.append(f" {state.cups[i].dice:>2}")
        lines.append(line)
    return lines


def _out(state: State, width: int) -> list[Text]:
    """Who is out, first out first: one line in play, all of them once the game is over."""
    return out_lines([state.name(i) for i in state.out_in_order], width, whole=state.is_over)


def _play_goes(state: State, width: int) -> str:
    """`play goes: Ann, Dee, Cy, Bob` from the player on turn; when the names do not fit, which
    way through the list, and as many names as fit."""
    order = [state.name(i) for i in state.play_order(state.turn)]
    said = "play goes: " + play_goes(order)
    if width_of(said) <= width:
        return said
    way = "down" if state.direction is Direction.LEFT else "up"
    # "up the list" while it names two players at least (`up the list: Cy, …` named one where
    # `up: Cy, Dee, …` names two); then the words that name more
    long, short = (
        head + play_goes(order, width - len(head))
        for head in (f"play goes {way} the list: ", f"play goes {way}: ")
    )

    def named(line: str) -> tuple[int, bool]:  # `Cy, Dee, …`: two names, whole
        return line.count(", "), "…," not in line

    return long if named(long) >= min((2, True), named(short)) else short


def card_text(state: State, title: str, width: int = 40, compact: bool = False) -> list[Text]:
    """The card's lines, each at most `width` columns (wide screens keep 60)."""
    wide = width >= WIDE and not compact
    width = min(width, 60 if wide else 40) if width >= 40 else width
    lines = [_header(state, title, width)]
    folded = compact or (not wide and len(state.active) > ROWS)
    lines += _folded(state, width) if folded else _rows(state, wide)
    if not wide:
        lines += _out(state, width)
    if not state.is_over and not compact:
        wild = ", ones wild" if state.wild else ""
        lines.append(Text(f"{count_dice(state.dice_in_play)} in play{wild}", style="dim"))
        lines.append(Text(_play_goes(state, width), style="dim"))
    lines += status_lines(state, width, full=not compact)
    return lines


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The table, then the status: full (a line a player, up to ROWS of them, and the raises
    open) or compact (the roster folded, no raises)."""
    return Group(*card_text(state, title, width, compact))


def card_lines(state: State, width: int, title: str = "") -> int:
    """How many lines the full card titled `title` takes (so the CLI can choose a layout): a
    line a player is wider than a narrow screen, or than 40 columns with names of wide
    characters, and a long title wraps the header."""
    return sum(wrapped_lines(line.plain, width) for line in card_text(state, title, width))


def columns(state: State, width: int) -> list[list[Text]]:
    """The card's lines that are columns, in groups whose rows line up: a cup a row, whole
    and folded for a big table."""
    return [_rows(state, False), _folded(state, width)]
