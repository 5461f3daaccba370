"""The shape of each action's line, for the fast path's reader (`cli.line`): derived from the
game's declarations (`referee.games.actions`), as its Typer command is (`cli.actions`), so an
action means the same whichever path read its line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple

MakeEvent = Callable[[Any, Any], Any]  # (session, state) -> the event, checked by the rules
Kind = Literal["text", "number", "words", "flag"]  # one word, a whole number, any words, a switch


class Word(NamedTuple):
    """A positional parameter: its name in the Typer command, and its kind."""

    name: str
    kind: Kind
    required: bool = False


class Option(NamedTuple):
    """An option (`--by PLAYER`): its flag, its parameter's name, its kind."""

    flag: str
    name: str
    kind: Kind
    required: bool = False


class Move(NamedTuple):
    """One action command: what it makes of its values, and the shape of its line."""

    make: Callable[..., MakeEvent]
    words: tuple[Word, ...] = ()
    options: tuple[Option, ...] = ()
    after: Callable[[Any], None] | None = None  # given the workspace, once the card is drawn


Moves = Mapping[str, Move]  # a game's action commands, by the name typed


def moves_of(game: Any) -> Moves:
    """A game's action commands (`game` is its `GameInfo`): none for a game without sessions."""
    if not game.has_sessions:
        return {}
    from referee import games
    from referee.cli import acting

    def move(action: Any) -> Move:
        return Move(
            lambda **values: acting.maker(action, values),
            tuple(Word(p.name, p.kind, p.required) for p in action.words),
            tuple(Option(p.option, p.name, p.kind, p.required) for p in action.options),
            lambda space: acting.after(game, space),
        )

    return {a.name: move(a) for a in games.load(game.name).actions}


def owners_of(word: str, but: str | None = None) -> list[Any]:
    """The games (their `GameInfo`) other than `but` with an action named `word`: what a slip
    of another game's word (`lift` at a Kalooki table) is told. Only on that error's path, as
    it reads every game's actions."""
    from referee import games

    wanted = word.casefold()
    return [g for g in games.GAMES if g.name != but and wanted in moves_of(g)]
