"""The Kalooki score sheet: the nine rounds as rows, a short column a player, the totals,
and this round's situation (calls, who is down, the melds on the table, numbered)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.kalooki_game import Phase, State
from referee.notation.cards import show
from referee.text import printable

PREFIX = 11  # "12> 4444 16"


def short_names(state: State, width: int) -> list[str]:
    """Column heads: the names cut to the column, made unique with a digit where they clash."""
    found: list[str] = []
    for k, seat in enumerate(state.seats):
        name = printable(seat.name)[:width]
        if name in found:
            name = name[: width - 1] + str(k + 1)
        found.append(name)
    return found


def sheet(state: State, width: int, current_only: bool = False) -> list[Text]:
    """The round rows: number (> marks the current), contract, cards dealt, each score; with
    `current_only`, the current round's row alone above the totals."""
    n = len(state.seats)
    col = max(4, min(8, (width - PREFIX) // n))
    head = Text(f"{'rnd code dl':<{PREFIX}}", style="bold")
    head.append("".join(f"{name:>{col}}" for name in short_names(state, col - 1)), style="bold")
    rows = [head]
    voids = list(state.void_rounds)
    for number in range(1, state.rounds + 1):
        current = number == state.round and not state.is_over
        if current_only and not current:
            continue
        code = state.rules.contract(number).code
        dealt = state.rules.deal_sizes[number - 1]
        while number in voids:  # a void round shows where it was played, then again
            voids.remove(number)
            rows.append(Text(f"{number:>2}v {code:<4} {dealt:>2}  void, dealt again", style="dim"))
        line = Text(f"{number:>2}{'>' if current else ' '} {code:<4} {dealt:>2}")
        if current:
            line.stylize("bold")
        cells = []
        for seat in state.seats:
            if number <= len(seat.scores):
                cells.append(str(seat.scores[number - 1]))
            elif current and seat.hand is not None:
                cells.append(f"{seat.hand}")
            else:
                cells.append(".")
        line.append("".join(f"{c:>{col}}" for c in cells))
        rows.append(line)
    total = Text(f"{'total':<{PREFIX}}", style="bold")
    total.append("".join(f"{s.total:>{col}}" for s in state.seats), style="bold")
    rows.append(total)
    shortened = [
        f"{short}={printable(seat.name)}"
        for short, seat in zip(short_names(state, col - 1), state.seats, strict=True)
        if short != printable(seat.name)
    ]
    if shortened:
        rows.append(Text(" ".join(shortened), style="dim"))
    return rows


def situation(state: State) -> list[Text]:
    """This round: calls used, who is down, the table's melds, what to enter next."""
    lines: list[Text] = []
    if state.is_over:
        winners = state.winners
        low = min(s.total for s in state.seats)
        said = " and ".join(map(printable, winners)) + (" tie" if len(winners) > 1 else " wins")
        lines.append(Text(f"{said} with {low}", style="bold green"))
        return lines
    limit = state.rules.call_limit
    calls = ", ".join(f"{printable(s.name)} {state.calls_used(s)}" for s in state.seats)
    lines.append(Text(f"calls (of {limit}): {calls}", style="dim"))
    for number, meld in enumerate(state.table, start=1):
        lines.append(Text(f"{number}) {show(list(meld.cards))} ({printable(meld.owner)})"))
    down = [printable(s.name) for s in state.seats if s.down]
    if state.stockouts:
        lines.append(Text("the stock ran out once: a second time voids the round"))
    code = state.rules.contract(state.round).code
    dealer = printable(state.name(state.dealer))
    status = Text(f"R{state.round} {code}, {dealer} deals", style="bold")
    if down:
        status.append(f"; down: {', '.join(down)}")
    if state.phase is Phase.SCORING:
        missing = [printable(s.name) for s in state.seats if s.hand is None]
        out = printable(state.name(state.out)) if state.out is not None else ""
        status.append(f"\n{out} went out; hands to enter: {', '.join(missing)}")
    lines.append(status)
    return lines


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The score sheet, or (compact) the current round and the totals only."""
    header = Text()
    header.append("KALOOKI", style="bold")
    header.append(f" {printable(title)}")
    return Group(header, *sheet(state, width, current_only=compact), *situation(state))


def card_lines(state: State, width: int) -> int:
    """How many lines the full sheet takes."""
    return 1 + len(sheet(state, width)) + len(situation(state))
