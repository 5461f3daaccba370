"""The Kalooki score sheet: the nine rounds as rows, a column a player, the totals and the
calls; this round's situation under it (the melds on the table, numbered, and who is down).

A round's row names who dealt it, and each cell marks what a paper sheet marks beside the
score: `*` on the 0 of who went out, a tick `'` a call made that round (`"` two, where room
is short), `~` a hand corrected after the round closed. A void deal has its own row above the
round dealt again: its calls are ticked there (`-`, no score), not on the round's row.
A newcomer's column starts at the round he was first dealt (the rounds before are empty, and
the legend says the total he sat down with); a player who left has `x` in the first round he
was not dealt, and nothing after it.
When the screen is narrow the row's prefix gives way first (the contract in words, then the
cards dealt, then the contract code), never the space between two scores. When it is short
(six players late in the game on a phone, a ruling above), the compact sheet keeps what a
phone needs after an action: the last round played and this one, the totals and calls, and
this round in short: each player's melds on a line led by his column's head, and once
someone went out only the hands still to enter. `show --full` shows everything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import NamedTuple

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.kalooki.cards import show
from referee.games.kalooki.engine import Phase, Seat, State, VoidDeal, dealers_ahead
from referee.render.cells import cut, ljust, rjust, width_of
from referee.render.common import header, wrapped_lines
from referee.text import printable

WIDEST = 8  # a column is never wider than this, however wide the screen
RECENT = 2  # the rounds the compact sheet shows: the last one played and this one
STOCK_ONCE = "the stock ran out once: a second time voids the round"
SCORE = 3  # a cell's room before any score is in: a hand's three digits, so a fresh sheet
# is laid out as it will be once the scores come (names stay names, not initials)
TICKS = 3  # calls shown as ticks up to this many; more as a number and a tick (4')
LEGEND = {
    "*": "went out",
    "'": "a call",
    '"': "two calls",
    "~": "corrected",
    "-": "void deal",
    "x": "left",
}


class Ticks(Enum):
    """How a cell draws its calls, widest first: a tick each, in pairs, one for any, none
    (the last resort of a full table whose corrected cells would not fit otherwise: the calls
    row still counts them)."""

    EACH = "each"
    PAIRS = "pairs"
    ONE = "one"
    NONE = "none"


def short_names(state: State, width: int) -> list[str]:
    """Column heads: the names cut to the column, made unique with a digit where they clash."""
    found: list[str] = []
    for k, seat in enumerate(state.seats):
        # a wide first letter that does not fit the column leaves the seat's number, not nothing
        name = cut(printable(seat.name), max(1, width)) or str(k + 1)
        if name in found:
            name = cut(name, max(1, width - 1)) + str(k + 1)
        found.append(name)
    return found


def _ticks(calls: int, ticks: Ticks) -> str:
    """A cell's calls: a tick each, else in pairs (`"` two, `"'` three), else one tick."""
    if not calls or ticks is Ticks.NONE:
        return ""
    if ticks is Ticks.EACH:
        return "'" * calls if calls <= TICKS else f"{calls}'"
    if ticks is Ticks.PAIRS and calls <= 2 * TICKS:
        return '"' * (calls // 2) + "'" * (calls % 2)
    return "'"  # too narrow for more: the calls row still counts them


def _not_dealt(seat: Seat, number: int) -> str:
    """The cell of a round `seat` is not dealt: `x` the first after he left, else empty."""
    return "x" if seat.left == number else ""


def _cells(state: State, number: int, ticks: Ticks, fixes: bool = True) -> list[str]:
    """Round `number`'s cells: each score with its marks (`~` on a corrected one unless not
    `fixes`), `.` while it is not in."""
    cells = []
    if number <= len(state.played):
        played = state.played[number - 1]
        for k, seat in enumerate(state.seats):
            score = seat.scores[number - 1]
            if score is None:
                cells.append(_not_dealt(seat, number))
                continue
            fixed = fixes and played.corrected[k]
            mark = "*" if seat.name == played.out else "~" if fixed else ""
            cells.append(mark + _ticks(played.calls[k], ticks) + str(score))
        return cells
    current = number == state.round and not state.is_over
    for k, seat in enumerate(state.seats):
        if not seat.is_dealt(number):
            cells.append(_not_dealt(seat, number))
            continue
        if not current:
            cells.append(".")
            continue
        mark = "*" if k == state.out else ""
        hand = "." if seat.hand is None else str(seat.hand)
        cells.append(mark + _ticks(seat.calls_hand, ticks) + hand)
    return cells


def _void_cells(void: VoidDeal, ticks: Ticks) -> list[str]:
    """A void deal's cells: its calls, and `-` for the score nobody had."""
    return [_ticks(calls, ticks) + "-" for calls in void.calls]


def _has_calls(void: VoidDeal) -> bool:
    return any(void.calls)


class Part(NamedTuple):
    """A piece of a round row's prefix: its head, and its text for a round."""

    head: str
    write: Callable[[int], str]


class Layout(NamedTuple):
    """How the sheet is laid out on this screen."""

    parts: tuple[Part, ...]
    dealer: int  # the dealer's width; 0: no dealer column
    cell: int  # a player's column, the space before it included
    ticks: Ticks
    fixes: bool = True  # corrected cells marked `~` (the first mark to give way to the calls)

    @property
    def prefix(self) -> int:
        """The width of a row's prefix: `12>`, its parts, the dealer, a space."""
        used = (
            3 + sum(1 + len(p.head) for p in self.parts) + (1 + self.dealer if self.dealer else 0)
        )
        return max(5, used)  # room for "total" at least


def _parts(state: State) -> tuple[Part, Part, Part]:
    """The contract code, the cards dealt and the contract in words, each as wide as its head."""
    rules = state.rules
    words = max(len(rules.contract(r).words()) for r in range(1, state.rounds + 1))
    return (
        Part("code", lambda r: f"{rules.contract(r).code:<4}"),
        Part("dl", lambda r: f"{rules.deal_sizes[r - 1]:>2}"),
        Part(f"{'contract':<{words}}", lambda r: f"{rules.contract(r).words():<{words}}"),
    )


def _layout(state: State, width: int, numbers: Sequence[int]) -> Layout:
    """The richest layout that fits: the prefix gives way part by part, the dealer is cut,
    then ticks pair up, then any calls are one tick; a score never loses the space before it."""
    n = len(state.seats)
    code, dealt, spelled = _parts(state)
    longest = max(width_of(name) for name in short_names(state, 6))
    options = ((code, dealt, spelled), (code, dealt), (code,), ())
    # the calls' ticks outlast the marks of corrections: a full table of corrected 3-digit
    # cells keeps a tick for its calls and loses the `~` first
    choices: list[tuple[Ticks, bool]] = [(t, True) for t in Ticks if t is not Ticks.NONE]
    choices += [(Ticks.ONE, False), (Ticks.NONE, False)]
    for ticks, fixes in choices:
        cells = [c for r in numbers for c in _cells(state, r, ticks, fixes)]
        cells += [c for v in state.voids if v.round in numbers for c in _void_cells(v, ticks)]
        cells += [str(s.total) for s in state.seats] + [str(s.calls_game) for s in state.seats]
        cell = 1 + max(SCORE, *(len(c) for c in cells))
        for parts, least in [*((o, 3) for o in options), ((), 1)]:
            bare = Layout(parts, 0, cell, ticks, fixes).prefix
            dealer = min(longest, width - n * cell - bare - 1)
            if dealer >= least:
                return Layout(parts, dealer, cell, ticks, fixes)
    return Layout((), 0, cell, Ticks.NONE, False)  # narrower than any sheet: the screen cuts it


def _sheet(state: State, width: int, recent: bool) -> tuple[list[Text], list[str], str]:
    """The rows of the sheet (`recent`: only the last round played and this one), the column
    heads it used, and the marks its cells show."""
    n = len(state.seats)
    last = min(state.round, state.rounds)  # this round, or the last one once the game is over
    first, end = (max(1, last - RECENT + 1), last) if recent else (1, state.rounds)
    numbers = list(range(first, end + 1))
    layout = _layout(state, width, numbers)
    wide = layout.prefix
    cell = max(layout.cell, min(WIDEST, (width - wide) // n))
    heads = short_names(state, cell - 1)
    dealers = _dealers(state, heads, layout.dealer)

    def prefix(number: int, void: bool = False) -> str:
        current = number == state.round and not state.is_over and not void
        cur = ">" if current else " "
        text = f"{number:>2}{cur}" + "".join(f" {p.write(number)}" for p in layout.parts)
        if layout.dealer:
            text += " " + ljust(dealers.get(number, ""), layout.dealer)
        return ljust(text, wide)

    head = "rnd" + "".join(f" {p.head}" for p in layout.parts)
    if layout.dealer:
        head += " by"  # dealt by
    rows = [_line(f"{head:<{wide}}", heads, cell, "bold")]
    marks = ""  # what the cells show, for the legend (never a name's or a contract's letters)
    for number in numbers:
        for void in (v for v in state.voids if v.round == number):
            # a void deal shows where it was played, with the calls made in it; then the round
            if _has_calls(void):
                cells = _void_cells(void, layout.ticks)
                marks += "".join(cells)
                rows.append(_line(prefix(number, True), cells, cell, "dim"))
            else:
                rows.append(Text(prefix(number, True) + " void, dealt again", style="dim"))
        current = number == state.round and not state.is_over
        cells = _cells(state, number, layout.ticks, layout.fixes)
        marks += "".join(cells)
        rows.append(_line(prefix(number), cells, cell, "bold" if current else ""))
    rows.append(_line(f"{'total':<{wide}}", [str(s.total) for s in state.seats], cell, "bold"))
    label = f"calls/{state.rules.call_limit}" if wide >= 7 else "calls"
    calls = [str(s.calls_game) for s in state.seats]
    rows.append(_line(f"{label:<{wide}}", calls, cell, "dim"))
    return rows, heads, "".join(sorted(set(marks) & set(LEGEND)))


def _dealers(state: State, heads: Sequence[str], width: int) -> dict[int, str]:
    """Who dealt each round, by the column heads (cut to `width`), so the two always match."""
    by = {s.name: cut(head, width) for s, head in zip(state.seats, heads, strict=True)}
    found = {n: by[p.dealer] for n, p in enumerate(state.played, start=1)}
    # the deal passes left, so the rounds to come have their dealers
    found.update({n: by[name] for n, name in dealers_ahead(state).items()})
    return found


def sheet(state: State, width: int, recent: bool = False) -> list[Text]:
    """The round rows, the totals and the calls; `recent`: of the rounds, only the last one
    played and this one."""
    return _sheet(state, width, recent)[0]


def _line(prefix: str, cells: Sequence[str], cell: int, style: str) -> Text:
    line = Text(prefix, style=style)
    line.append("".join(rjust(c, cell) for c in cells), style=style)
    return line


def legend(
    state: State, rows: Sequence[Text], heads: Sequence[str], width: int, marks: str
) -> list[Text]:
    """What the marks on the sheet mean, who sat down later and at what total, and the
    names its heads cut short."""
    said = [f"{mark} {meaning}" for mark, meaning in LEGEND.items() if mark in marks]
    if state.rules.call_limit and "calls/" not in rows[-1].plain:
        said.append(f"calls of {state.rules.call_limit}")
    said += [
        f"{printable(s.name)} in from R{s.joined} at {s.carried}"
        for s in state.seats
        if s.joined is not None and s.joined > 1
    ]
    return [Text(line, style="dim") for line in _fill(said, width)] + key(state, heads, width)


def key(state: State, heads: Sequence[str], width: int) -> list[Text]:
    """Who each column head cut short is (`Al2=Alexander Braun`), a line broken between two
    names, never inside one; nothing when every head is a whole name."""
    shortened = [
        f"{short}={printable(seat.name)}"
        for short, seat in zip(heads, state.seats, strict=True)
        if short != printable(seat.name)
    ]
    return [Text(line, style="dim") for line in _fill(shortened, width, " ")]


def _fill(items: Sequence[str], width: int, between: str = ", ") -> list[str]:
    """Items joined by `between`, a new line where the next would not fit: never cut mid-item."""
    lines: list[str] = []
    for item in items:
        if lines and width_of(lines[-1]) + len(between) + width_of(item) <= width:
            lines[-1] += between + item
        else:
            lines.append(item)
    return lines


def situation(state: State, width: int = 40) -> list[Text]:
    """This round: the table's melds, who is down, what to enter next; or the winner."""
    if state.is_over:
        return [_winner(state)]
    melds = [
        f"{number}) {show(meld.cards)} ({printable(meld.owner)})"
        for number, meld in enumerate(state.table, start=1)
    ]
    # several melds a line, so the ruling stays on a short screen however many are down
    lines = [Text(line) for line in _fill(melds, width, "  ")]
    if state.stockouts:
        lines.append(Text(STOCK_ONCE))
    lines.append(_status(state, width))
    down = [printable(s.name) for s in state.seats if s.down]
    if down:
        lines.append(Text(f"down: {', '.join(down)}"))
    if state.phase is Phase.SCORING:
        lines.append(_to_enter(state))
    return lines


def compact_situation(state: State, heads: Sequence[str], width: int = 40) -> list[Text]:
    """This round in short, under the compact sheet: each player's melds on a line led by his
    column's head (which says who is down); once someone went out, only the hands to enter
    (the table has no more say in the round); or the winner."""
    if state.is_over:
        return [_winner(state)]
    if state.phase is Phase.SCORING:
        return [_status(state, width), _to_enter(state)]
    lines = [Text(line) for line in _melds_by_owner(state, heads, width)]
    if state.stockouts:
        lines.append(Text(STOCK_ONCE))
    return [*lines, _status(state, width)]


def _winner(state: State) -> Text:
    winners = state.winners
    said = " and ".join(map(printable, winners)) + (" tie" if len(winners) > 1 else " wins")
    return Text(f"{said} with {state.low}", style="bold green")


def _status(state: State, width: int) -> Text:
    """The round, its contract (in words where they fit) and the dealer."""
    contract = state.rules.contract(state.round)
    dealer = printable(state.name(state.dealer))
    status = f"R{state.round} {contract.code} ({contract.words()}), {dealer} deals"
    if width_of(status) > width:
        status = f"R{state.round} {contract.code}, {dealer} deals"
    return Text(status, style="bold")


def _to_enter(state: State) -> Text:
    """Who went out, and whose hands are still to enter."""
    missing = [printable(s.name) for s in state.seats if s.hand is None and s.is_dealt(state.round)]
    out = printable(state.name(state.out)) if state.out is not None else ""
    return Text(f"{out} went out; hands to enter: {', '.join(missing)}")


def _melds_by_owner(state: State, heads: Sequence[str], width: int) -> list[str]:
    """The table's melds, numbered, a player's on his own lines led by his column's head:
    `Ale: 1) 2H 3H 4H 5H  2) 9C 10C JC QC` (a tack needs the number, not the owner's name)."""
    head = {seat.name: short for seat, short in zip(state.seats, heads, strict=True)}
    owners = list(dict.fromkeys(meld.owner for meld in state.table))
    lead = max((width_of(head[owner]) for owner in owners), default=0) + 2
    lines = []
    for owner in owners:
        melds = [
            f"{number}) {show(meld.cards)}"
            for number, meld in enumerate(state.table, start=1)
            if meld.owner == owner
        ]
        first, *rest = _fill(melds, width - lead, "  ")
        lines += [ljust(f"{head[owner]}:", lead) + first, *(" " * lead + line for line in rest)]
    return lines


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The score sheet; `compact` (a short screen): what a phone needs after an action, the
    last round played and this one, the totals, and the round's situation in short."""
    return Group(*_card(state, title, width, compact))


def _card(state: State, title: str, width: int, compact: bool) -> list[Text]:
    top = header("KALOOKI", title, width)
    rows, heads, marks = _sheet(state, width, recent=compact)
    now = compact_situation(state, heads, width) if compact else situation(state, width)
    return [top, *rows, *legend(state, rows, heads, width, marks), *now]


def card_lines(state: State, width: int, title: str = "") -> int:
    """How many lines the full sheet titled `title` takes on the screen (a status line, or the
    header with a long title, may wrap)."""
    lines = _card(state, title, width, compact=False)
    return sum(wrapped_lines(line.plain, width) for line in lines)


def totals_card(state: State, title: str, width: int = 40) -> RenderableType:
    """The running totals: each round played, who dealt it, and every total after it, the
    one who went out marked `*` (and a corrected hand `~`); the sheet's key to names cut."""
    n = len(state.seats)
    cells: dict[int, list[str]] = {}
    running = [s.carried for s in state.seats]  # a newcomer from the total he sat down with
    for number, played in enumerate(state.played, start=1):
        row = []
        for k, seat in enumerate(state.seats):
            score = seat.scores[number - 1]
            if score is None:
                row.append(_not_dealt(seat, number))
                continue
            running[k] += score
            mark = "*" if seat.name == played.out else "~" if played.corrected[k] else ""
            row.append(mark + str(running[k]))
        cells[number] = row
    cell = 1 + max([len(c) for r in cells.values() for c in r] + [3])
    wide = min(6, max(2, width - 4 - n * cell))  # the dealer, cut to the room left
    cell = max(cell, min(WIDEST, (width - 4 - wide) // n))
    heads = short_names(state, cell - 1)
    dealers = _dealers(state, heads, wide)
    lines = [
        header("KALOOKI", f"{title}: totals", width),
        _line(f"rnd {'by':<{wide}}", heads, cell, "bold"),
    ]
    for number in range(1, len(state.played) + 1):
        dealer = dealers[number]
        lines.append(_line(f"{number:>3} {ljust(dealer, wide)}", cells[number], cell, ""))
    if not state.played:
        lines.append(Text("no round played yet", style="dim"))
    marks = " ".join(c for r in cells.values() for c in r)
    said = [f"{mark} {LEGEND[mark]}" for mark in "*~x" if mark in marks]
    if said:
        lines.append(Text(", ".join(said), style="dim"))
    lines += key(state, heads, width)
    if state.is_over:
        lines += situation(state, width)
    else:
        dealer = printable(state.name(state.dealer))
        lines.append(Text(f"next: R{state.round}, {dealer} deals", style="bold"))
    return Group(*lines)


def columns(state: State, width: int) -> list[list[Text]]:
    """The card's lines that are columns, in groups whose rows line up: the sheet."""
    return [sheet(state, width)]
