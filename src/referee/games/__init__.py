"""The registry: one `GameInfo` per game, the only list of games in the code.

Everything a game gives the shared layers is named here once: its names, its player range, its
bundled rulesets, and the modules of its engine, its CLI commands (with its shell words) and
its renderer. The modules are imported only when a command needs them, so `--json` never loads
Rich and no command loads another game. `tests/test_registry.py` proves each entry complete.

Adding a game: an engine module (`GAME`, a `Game`), a CLI module (`app`, and for a game with
sessions `new` and `SHELL`), a renderer (`card`), its words (`words`), a ruleset, and one
entry below.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.errors import UsageError, quote
from referee.games.base import Game


class GameInfo(NamedTuple):
    """One game, as the shared layers know it (a NamedTuple: cheap to make at every start)."""

    name: str  # canonical, as typed: `referee new kariki`
    title: str  # as written in sentences
    aliases: tuple[str, ...]
    about: str  # one line for `--help`
    min_players: int
    max_players: int
    rulesets: tuple[str, ...]  # bundled, the default first
    rules: str  # module with `Rules.from_table` (every game has rules)
    engine: str | None  # module with `GAME`; None: tools only, no sessions yet
    cli: str  # module with `app`; with sessions also `new` and `SHELL`
    render: str | None  # module with `card` and `card_lines` (Rich)
    words: str | None  # module with `words(ruling)` (no Rich, for --json paths)
    after: str | None = None  # `module:function` saying a line under the card after an action
    stake_key: str = "stake"  # the ruleset key `new --stake` sets (Kariki's is `buy_in`)
    # `module:function` giving the game's own part of `referee ratings` (Kiriki's KR); None:
    # OpenSkill from its sessions' places (`referee.league`)
    rating: str | None = None

    @property
    def has_sessions(self) -> bool:
        """Whether sessions of this game can be started and played."""
        return self.engine is not None


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        name="kariki",
        title="Kariki",
        aliases=("k",),
        about="Kariki (alias k).",
        min_players=2,
        max_players=20,
        rulesets=("kariki",),
        rules="referee.games.kariki.engine",
        engine="referee.games.kariki.engine",
        cli="referee.games.kariki.cli",
        render="referee.games.kariki.card",
        words="referee.games.kariki.words",
        stake_key="buy_in",
    ),
    GameInfo(
        name="liars",
        title="Liar's dice",
        aliases=("ld",),
        about="Liar's dice (alias ld).",
        min_players=2,
        max_players=20,
        rulesets=("liars-dice", "perudo"),
        rules="referee.games.liars.engine",
        engine="referee.games.liars.engine",
        cli="referee.games.liars.cli",
        render="referee.games.liars.card",
        words="referee.games.liars.words",
    ),
    GameInfo(
        name="kiriki",
        title="Kiriki",
        aliases=("kr",),
        about="Kiriki (alias kr).",
        min_players=2,
        max_players=2,
        rulesets=("kiriki",),
        rules="referee.games.kiriki.engine",
        engine="referee.games.kiriki.engine",
        cli="referee.games.kiriki.cli",
        render="referee.games.kiriki.card",
        words="referee.games.kiriki.words",
        after="referee.games.kiriki.kr:after",
        rating="referee.games.kiriki.cli:kr_ratings",
    ),
    GameInfo(
        name="kalooki",
        title="Kalooki",
        aliases=("kal",),
        about="Kalooki (alias kal).",
        min_players=3,
        max_players=6,
        rulesets=("kalooki",),
        rules="referee.games.kalooki.melds",
        engine="referee.games.kalooki.engine",
        cli="referee.games.kalooki.cli",
        render="referee.games.kalooki.card",
        words="referee.games.kalooki.words",
    ),
    GameInfo(
        name="mia",
        title="Mia",
        aliases=(),
        about="Mia (Mäxchen).",
        min_players=2,
        max_players=20,
        rulesets=("mia",),
        rules="referee.games.mia.engine",
        engine="referee.games.mia.engine",
        cli="referee.games.mia.cli",
        render="referee.games.mia.card",
        words="referee.games.mia.words",
    ),
)
BY_NAME: Mapping[str, GameInfo] = {g.name: g for g in GAMES} | {
    alias: g for g in GAMES for alias in g.aliases
}


def info(name: str) -> GameInfo:
    """The game `name` (or an alias) names; `UsageError` listing the games if none."""
    found = BY_NAME.get(name.strip().lower())
    if found is None:
        names = ", ".join(g.name for g in GAMES)
        raise UsageError(f"unknown game {quote(name)}: try {names}")
    return found


def canonical(name: str) -> str:
    """The canonical name of a game, from its name or an alias."""
    return info(name).name


def rules_from_table(game: str, table: Mapping[str, object], source: str) -> object:
    """Any game's typed rules from a ruleset table; `RulesetError` lists every problem."""
    module = importlib.import_module(info(game).rules)
    rules: object = module.Rules.from_table(table, source)
    return rules


def load(name: str) -> Game[Any, Any, Any, Any]:
    """The engine of a game with sessions; only that game's module is imported."""
    game = info(name)
    if game.engine is None:
        raise UsageError(
            f"{game.name} has no sessions yet: try 'referee {game.name} --help' for its tools"
        )
    engine: Game[Any, Any, Any, Any] = importlib.import_module(game.engine).GAME
    return engine


def module(name: str, part: str) -> Any:
    """A game's `cli`, `render` or `words` module, imported now."""
    path = getattr(info(name), part)
    if path is None:
        raise UsageError(f"{name} has no {part} module")
    return importlib.import_module(path)
