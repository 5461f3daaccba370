"""House rules: what a session's ruleset says otherwise than the bundled ruleset it started
from, in the game's own words (`house: calza once each`), for the card, the pages, `show
--json` and the line of `log --script` that starts the same table again.

A session keeps a copy of its whole ruleset. Its base is the bundled ruleset it is named after
(`--set` keeps the name), else, for a table's own file, the game's bundled ruleset closest to
it. A key a ruleset leaves out has the game's default, which its first bundled ruleset holds.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from referee import games, storage

NOT_RULES = ("game", "name", "description")  # what a ruleset says about itself


@functools.cache
def bundled(name: str) -> Mapping[str, object]:
    """A bundled ruleset, read once a process (they ship with the code and never change)."""
    return storage.load_ruleset(name)


def effective(game: games.GameInfo, table: Mapping[str, object]) -> dict[str, object]:
    """Every rule of `table`, those it leaves out at the game's default."""
    defaults = bundled(game.rulesets[0])
    found = {**defaults, **table}
    return {k: v for k, v in found.items() if k not in NOT_RULES}


def differences(
    game: games.GameInfo, table: Mapping[str, object], base: Mapping[str, object]
) -> dict[str, object]:
    """The rules `table` sets otherwise than `base`, in the order `table` (then `base`) has
    them."""
    ours, theirs = effective(game, table), effective(game, base)
    return {k: v for k, v in ours.items() if theirs.get(k) != v}


def base_of(game: games.GameInfo, table: Mapping[str, object]) -> str:
    """The bundled ruleset `table` started from: the one it is named after, else the closest."""
    name = table.get("name")
    if isinstance(name, str) and name in game.rulesets:
        return name
    return min(
        game.rulesets,
        key=lambda r: len(differences(game, table, bundled(r))),
    )


def house_rules(game_name: str, table: Mapping[str, object]) -> tuple[str, dict[str, object]]:
    """The base of a session's ruleset `table`, and what it sets otherwise."""
    from referee.errors import RefereeError

    game = games.info(game_name)
    try:
        base = base_of(game, table)
        return base, differences(game, table, bundled(base))
    except RefereeError:  # a bundled ruleset unreadable (a broken install): nothing to compare
        return game.rulesets[0], {}


def value_text(value: object) -> str:
    """A rule's value as a table reads it: `on`, `off`, `70,30`, `once_per_game`."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ",".join(value_text(v) for v in value)
    return str(value)


def phrases(game_name: str, table: Mapping[str, object]) -> list[str]:
    """Each house rule in the game's words (its words module's `HOUSE_WORDS`), else as
    `key value`."""
    said: Mapping[str, Any] = getattr(games.module(game_name, "words"), "HOUSE_WORDS", {})
    _, found = house_rules(game_name, table)
    return [said[k](v) if k in said else f"{k} {value_text(v)}" for k, v in found.items()]


def summary(game_name: str, table: Mapping[str, object]) -> list[dict[str, object]]:
    """The house rules for `show --json`: each key, its value and its words."""
    said: Mapping[str, Any] = getattr(games.module(game_name, "words"), "HOUSE_WORDS", {})
    _, found = house_rules(game_name, table)
    return [
        {"key": k, "value": v, "words": said[k](v) if k in said else f"{k} {value_text(v)}"}
        for k, v in found.items()
    ]


def with_sets(game_name: str, table: Mapping[str, object], sets: list[str]) -> dict[str, object]:
    """`table` with each `--set KEY=VALUE` applied, checked exactly as a ruleset file is: every
    problem in one `UsageError` (an unknown key gets a "did you mean" from the game's keys)."""
    from referee.errors import RulesetError, UsageError, quote

    game = games.info(game_name)
    known = list(effective(game, table))
    changed = dict(table)
    problems: list[str] = []
    for given in sets:
        key, has_value, text = given.partition("=")
        key = key.strip()
        if not has_value or not key:
            problems.append(f"--set {quote(given)} needs KEY=VALUE, like dice_per_player=4")
        elif key not in known:
            import difflib

            close = difflib.get_close_matches(key, known, n=1)
            if key == "stake" and game.stake_key in known:  # Kariki's stake is its buy-in
                close = [game.stake_key]
            hint = f" (did you mean {close[0]}?)" if close else ""
            problems.append(f"{quote(key)} is no {game.title} ruleset key{hint}")
        else:
            try:
                changed[key] = storage.toml_value(text.strip())
            except UsageError as error:
                problems.append(f"{key}: {error}")
    try:  # the keys that could be read, checked together as a file's are
        games.rules_from_table(game.name, changed, "--set")
    except RulesetError as error:
        problems.append(str(error).removeprefix("--set: "))
    if problems:
        raise UsageError("--set: " + "; ".join(problems))
    return changed
