"""Rich renderables shared by every game. Nothing here prints: the CLI owns the console."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from referee.text import printable


def history(rulings: list[str]) -> RenderableType:
    """The numbered log, wrapped under a hanging indent so narrow screens stay readable."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(overflow="fold")
    for number, ruling in enumerate(rulings, start=1):
        grid.add_row(str(number), literal(ruling))
    return grid


def literal(text: str, style: str = "") -> Text:
    """Text from a user or a file, shown as typed: no markup, no raw control characters."""
    return Text(printable(text), style=style)
