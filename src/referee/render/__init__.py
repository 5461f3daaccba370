"""Rich renderables for the score cards. Nothing here prints: the CLI owns the console."""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from referee.text import printable

# Game -> module with `card(state, title, width) -> RenderableType`.
CARDS = {"kariki": "referee.render.kariki"}


def card(game: str, state: Any, title: str, width: int) -> RenderableType:
    """The score card of any game with sessions."""
    module = importlib.import_module(CARDS[game])
    renderable: RenderableType = module.card(state, title, width)
    return renderable


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
