"""Rich renderables shared by every game. Nothing here prints: the CLI owns the console."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

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


def literal(text: str, style: str = "") -> Text:
    """Text from a user or a file, shown as typed: no markup, no raw control characters."""
    return Text(printable(text), style=style)
