"""Rich renderables for the score cards. Nothing here prints: the CLI owns the console."""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import RenderableType

# Game -> module with `card(state, title, width) -> RenderableType`.
CARDS = {"kariki": "referee.render.kariki"}


def card(game: str, state: Any, title: str, width: int) -> RenderableType:
    """The score card of any game with sessions."""
    module = importlib.import_module(CARDS[game])
    renderable: RenderableType = module.card(state, title, width)
    return renderable
