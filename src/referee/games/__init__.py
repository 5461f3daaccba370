"""The registry of games: names and aliases to modules, imported only when a game is used.

Every game has typed rules (`rules_from_table`); games with sessions also have a `GAME` engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from referee.errors import UsageError, quote
from referee.games.base import Game

# Canonical name -> module. Each module has `Rules.from_table`; session games also `GAME`.
MODULES = {
    "kariki": "referee.games.kariki",
    "kalooki": "referee.games.kalooki",
}
SESSIONS = frozenset({"kariki"})
ALIASES = {"k": "kariki", "kal": "kalooki"}


def canonical(name: str) -> str:
    """The canonical name of a game, from its name or an alias."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in MODULES:
        raise UsageError(f"unknown game {quote(name)}: try {', '.join(sorted(MODULES))}")
    return key


def rules_from_table(game: str, table: Mapping[str, object], source: str) -> object:
    """Any game's typed rules from a ruleset table; `RulesetError` lists every problem."""
    module = importlib.import_module(MODULES[canonical(game)])
    rules: object = module.Rules.from_table(table, source)
    return rules


def load(name: str) -> Game[Any, Any, Any]:
    """The engine of a game with sessions; only that game's module is imported."""
    game = canonical(name)
    if game not in SESSIONS:
        raise UsageError(f"{game} has no sessions yet: try 'referee {game} --help' for its tools")
    module = importlib.import_module(MODULES[game])
    engine: Game[Any, Any, Any] = module.GAME
    return engine
