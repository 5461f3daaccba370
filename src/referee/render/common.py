"""Rich renderables shared by every game. Nothing here prints: the CLI owns the console."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text

from referee.render.cells import cut, listed, width_of
from referee.text import printable

if TYPE_CHECKING:
    from referee.session import Money


def history(rows: list[tuple[int, str, str]]) -> RenderableType:
    """The numbered log (number, time, ruling), the ruling wrapped under a hanging indent so
    narrow screens stay readable."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    timed = any(at for _, at, _ in rows)
    if timed:
        grid.add_column(no_wrap=True, style="dim")
    grid.add_column(overflow="fold")
    for number, at, ruling in rows:
        cells = [str(number), at] if timed else [str(number)]
        grid.add_row(*cells, literal(ruling))
    return grid


def header(game: str, title: str, width: int, right: str = "") -> Text:
    """A card's first line: the game in bold, the session's title, and `right` (the round, the
    pot, the match's format) at the right edge of `width`, a space at least before it."""
    line = Text()
    line.append(game, style="bold")
    line.append(f" {printable(title)}")
    if right:
        line.append(" " * max(1, width - width_of(line.plain) - len(right)) + right)
    return line


def mark_winner(line: Text, width: int) -> None:
    """End a winner's line with ` WINNER`, or ` WIN` where only that fits in `width` cells
    (nothing where neither does: the result line under the card says it)."""
    room = width - width_of(line.plain)
    line.append(next((m for m in (" WINNER", " WIN") if len(m) <= room), ""), "bold green")


def literal(text: str, style: str = "") -> Text:
    """Text from a user or a file, shown as typed: no markup, no raw control characters."""
    return Text(printable(text), style=style)


def wrapped_lines(text: str, columns: int) -> int:
    """How many lines `text` takes on a screen of `columns`, wrapped at words (as Rich wraps a
    ruling or a card's line): what a screen's layout counts to fit it."""
    lines = text.splitlines()
    if all(len(line) <= columns and line.isascii() and "\t" not in line for line in lines):
        return len(lines)  # each fits as it is: one cell a character
    # Counted in cells, as Rich wraps (a wide character, CJK say, takes two).
    from rich.console import Console

    console = Console(width=columns, no_color=True, legacy_windows=False)
    return sum(len(Text(line, tab_size=8).wrap(console, columns)) for line in lines)


def out_lines(names: Sequence[str], width: int, whole: bool = False) -> list[Text]:
    """Who is out, first out first: on one line while play goes on (`out: Ann, Cy`; too many
    to name, how many and those that fit: `out (12): Ann, Cy, …`); `whole` (the game is over,
    the card is short) every name, wrapped between names, so the places can be read."""
    if not names:
        return []
    shown = [printable(name) for name in names]
    said = "out: " + listed(shown)
    if whole:
        return [Text(line, style="red") for line in wrap_list([said], width)]
    if width_of(said) > width:
        head = f"out ({len(names)}): "
        said = head + listed(shown, width - len(head))
    return [Text(said, style="red")]


def house_line(phrases: list[str], width: int) -> Text | None:
    """A session's house rules under its card, one line of `width` cells at most (cut with
    …); None when it plays the bundled rules."""
    if not phrases:
        return None
    return literal(cut("house: " + ", ".join(phrases), width, "…"))


def _paid(paid: dict[str, int]) -> str:
    """What each paid when it differs: by name (`paid Ann 2, Bob 12`), or at a big table where
    most paid alike, the amount most paid and the others by name (`each paid 1, but Fay 21`),
    so a buy-back at twenty players is one line, not six. Who paid nothing yet goes unsaid."""
    from referee.games.money import show

    given = {name: amount for name, amount in paid.items() if amount}
    counts: dict[int, int] = {}
    for amount in given.values():
        counts[amount] = counts.get(amount, 0) + 1
    usual = max(counts, key=lambda a: (counts[a], -a))
    others = {n: a for n, a in given.items() if a != usual}
    if len(given) < 6 or counts[usual] <= len(others):
        return "paid " + ", ".join(f"{printable(n)} {show(a)}" for n, a in given.items())
    but = ", ".join(f"{printable(n)} {show(a)}" for n, a in others.items())
    return f"each paid {show(usual)}, but {but}"


def money_lines(money: Money, names: Sequence[str], width: int) -> list[Text]:
    """A game's money under its card, every line at most `width` cells: the pot and what each
    has paid (`pot 8 · each paid 2`, or each one's own when they differ); once the game is
    over, who takes what, who pays whom directly, and who owes a round. `names`: who sits at
    the table now (one who gave up his seat has been paid back)."""
    from referee.games.money import Payout, show

    purse, result = money.purse, money.result
    lines: list[str] = []
    if purse.stakes.has_money:
        paid = {name: purse.seat_paid(name) for name in names}
        amounts = set(paid.values())
        if purse.stakes.payout is Payout.PER_POINT and not purse.pot:  # no pot: points pay
            lines.append(f"{show(purse.stakes.point_value)} a point to the winner")
        elif not any(paid.values()):
            lines.append(f"pot {show(purse.pot)}")
        elif len(amounts) == 1:
            lines.append(f"pot {show(purse.pot)} · each paid {show(amounts.pop())}")
        else:
            lines.append(f"pot {show(purse.pot)} · {_paid(paid)}")
    if result is not None:
        if result.takes:
            said = ", ".join(f"{printable(n)} {show(a)}" for n, a in result.takes.items())
            lines.append(f"takes: {said}")
        payments = [t for t in result.transfers if t not in purse.moved]
        if payments:
            lines.append(
                "pays: "
                + ", ".join(
                    f"{printable(t.payer)} to {printable(t.payee)} {show(t.cents)}"
                    for t in payments
                )
            )
        if result.rounds:
            lines.append(f"owes a round: {', '.join(printable(n) for n in result.rounds)}")
    return [Text(line) for line in wrap_list(lines, width)]


def wrap_list(lines: list[str], width: int) -> list[str]:
    """Each line wrapped at ", " to `width` cells, the follow-on lines indented by two: a
    list of names never parts a name (`OUT: Jo, Alexander` / `Brandt` did)."""
    found: list[str] = []
    for line in lines:
        current = ""
        parts = line.split(", ")
        for k, part in enumerate(parts):
            piece = part if not current else f"{current}, {part}"
            comma = 1 if k < len(parts) - 1 else 0  # a line broken after it keeps its comma
            if current and width_of(piece) + comma > width:
                found.append(cut(current + ",", width, "…"))
                current = "  " + part
            else:
                current = piece
        found.append(cut(current, width, "…"))
    return found
