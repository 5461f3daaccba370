"""What each game's action words make, without Typer: one `Move` a command.

A `Move` holds the function that turns a command's values into the event it makes (its
`make`, called with the Typer command's parameter names) and the shape of its line: the
positional words and the options it takes. The Typer command (`referee.cli.GAME`) calls the
same `make`, so an action means the same whichever path read its line; `cli.quick` reads a
line by the shape, and `tests/test_quick.py` checks every shape against its Typer command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple, TypeVar

from referee.errors import UsageError

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


BY = Option("--by", "by", "text")  # who acts, checked against the turn


class Move(NamedTuple):
    """One action command: what it makes of its values, and the shape of its line."""

    make: Callable[..., MakeEvent]
    words: tuple[Word, ...] = ()
    options: tuple[Option, ...] = (BY,)
    after: Callable[[Any], None] | None = None  # given the workspace, once the card is drawn


Moves = Mapping[str, Move]  # a game's action commands, by the name typed


T = TypeVar("T")


def needed(value: T | None, command: str, what: str) -> T:
    """An argument the command cannot do without, else a one-line usage error saying what."""
    if value is None or value == []:
        raise UsageError(f"{command} needs {what}")
    return value


def after_redo(game: Any) -> Callable[[Any], None] | None:
    """What a game says under the card when a redo puts an event back (its moves module's
    `AFTER_REDO`, given the workspace), as the action that made the event said it."""
    if game.moves is None:
        return None
    import importlib

    found: Callable[[Any], None] | None = getattr(
        importlib.import_module(game.moves), "AFTER_REDO", None
    )
    return found


def moves_of(game: Any) -> Moves:
    """A game's action commands (`game` is its `GameInfo`): none for a game without sessions."""
    if game.moves is None:
        return {}
    import importlib

    found: Moves = importlib.import_module(game.moves).MOVES
    return found


def owners_of(word: str, but: str | None = None) -> list[Any]:
    """The games (their `GameInfo`) other than `but` with an action named `word`: what a slip
    of another game's word (`lift` at a Kalooki table) is told. Only on that error's path, as
    it reads every game's moves."""
    from referee import games

    wanted = word.casefold()
    return [g for g in games.GAMES if g.name != but and wanted in moves_of(g)]
