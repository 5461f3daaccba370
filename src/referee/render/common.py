"""Rich renderables shared by every game. Nothing here prints: the CLI owns the console."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from referee.render.cells import cut, width_of
from referee.text import printable


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


def house_line(phrases: list[str], width: int) -> Text | None:
    """A session's house rules under its card, one line of `width` cells at most (cut with
    …); None when it plays the bundled rules."""
    if not phrases:
        return None
    return literal(cut("house: " + ", ".join(phrases), width, "…"))
