"""The registry of games: names and aliases to modules, imported only when a game is used."""

from __future__ import annotations

import importlib
from typing import Any

from referee.errors import UsageError, quote
from referee.games.base import Game

# Canonical name -> module holding GAME. Kalooki's referee tools need no session (yet).
MODULES = {
    "kariki": "referee.games.kariki",
}
ALIASES = {"k": "kariki"}


def canonical(name: str) -> str:
    """The canonical name of a game, from its name or an alias."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in MODULES:
        raise UsageError(f"unknown game {quote(name)}: try {', '.join(sorted(MODULES))}")
    return key


def load(name: str) -> Game[Any, Any, Any]:
    """The game's engine; only that game's module is imported."""
    module = importlib.import_module(MODULES[canonical(name)])
    game: Game[Any, Any, Any] = module.GAME
    return game
