"""The quick path: an action, `undo` or `redo`, read and run without Typer.

Typer and Click cost more to import than the rest of an action together, and an action is
what a scorekeeper types all night. A line this module reads with certainty, `[-s S] GAME
COMMAND WORDS... [OPTIONS]` for a command of `cli.moves` or `[-s S] undo|redo [-s S]`, runs
through `acting` with the same `make` the Typer command calls; anything else (help, an option
it does not know, a missing or extra argument, a number Click would have to convert, two
`-s`, completion) is left to the Typer app, which says what is wrong in Click's words.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, NamedTuple

from referee import games

if TYPE_CHECKING:
    from collections.abc import Sequence

    from referee.cli.acting import Workspace
    from referee.cli.moves import Kind, Move

SESSION_FLAGS = ("-s", "--session")
COMPLETION_ENV = "_REFEREE_COMPLETE"  # Click's shell completion: the Typer app's to answer
MAX_DIGITS = 18  # a longer number is Click's to convert (and refuse)


class Line(NamedTuple):
    """A command line as the quick path read it."""

    game: games.GameInfo | None  # None: undo or redo
    command: str  # as typed: the name Click would invoke
    move: Move | None
    values: dict[str, Any]  # the Typer command's parameters, by name
    ref: str | None  # -s/--session, before or after the command


def run(argv: Sequence[str], space: Workspace | None = None) -> int | None:
    """Run `argv` if this module reads it with certainty: its exit code; else None (nothing
    was done, nothing printed: the Typer app's to run)."""
    line = read(argv)
    if line is None:
        return None
    from referee.cli import acting

    space = space if space is not None else acting.Workspace()
    try:
        if line.move is None:
            acting.undo_or_redo(space, line.ref, line.command)
        else:
            make = line.move.make(**line.values)
            acting.act(space, line.game, line.command, line.ref, make)
            if line.move.after is not None:
                line.move.after(space)
    except KeyboardInterrupt:
        return 130  # as the Typer app ends a command Ctrl-C stopped: silently, the ^C says it
    except Exception as error:
        code = acting.failed(error)
        if code is None:
            raise
        return code
    return 0


def read(argv: Sequence[str]) -> Line | None:
    """The line, if it is one this module reads with certainty; else None."""
    if COMPLETION_ENV in os.environ:
        return None
    args = list(argv)
    ref: str | None = None
    i = 0
    while i < len(args) and _is_session_flag(args[i]):  # the root's -s, before the command
        found = _session(args, i, ref)
        if found is None:
            return None
        ref, i = found
    if i >= len(args):
        return None
    first, i = args[i], i + 1
    game: games.GameInfo | None = None
    move: Move | None = None
    if first in ("undo", "redo"):
        command = first
    else:
        game = games.BY_NAME.get(first)
        if game is None or first not in (game.name, *game.aliases) or i >= len(args):
            return None
        from referee.cli.moves import moves_of

        command, i = args[i], i + 1
        move = moves_of(game).get(command)
        if move is None:
            return None
    options = {o.flag: o for o in move.options} if move is not None else {}
    values: dict[str, Any] = {}
    words: list[str] = []
    while i < len(args):
        token = args[i]
        if _is_session_flag(token):
            found = _session(args, i, ref)
            if found is None:
                return None
            ref, i = found
            continue
        if not token.startswith("-"):
            words.append(token)
            i += 1
            continue
        flag, has_value, attached = token.partition("=")
        option = options.get(flag)
        if option is None or option.name in values:
            return None  # help, an unknown option, or one given twice: Click's to say
        if option.kind == "flag":
            if has_value:
                return None
            values[option.name], i = True, i + 1
            continue
        if has_value:
            raw, i = attached, i + 1
        elif i + 1 < len(args) and not args[i + 1].startswith("-"):
            raw, i = args[i + 1], i + 2
        else:
            return None
        value = _value(option.kind, raw)
        if value is None:
            return None
        values[option.name] = value
    if move is None:
        return Line(None, command, None, {}, ref) if not words else None
    if any(o.required and o.name not in values for o in move.options):
        return None
    for option in move.options:
        values.setdefault(option.name, False if option.kind == "flag" else None)
    for spec in move.words:
        if spec.kind == "words":
            values[spec.name], words = (words or None), []
        elif words:
            value = _value(spec.kind, words.pop(0))
            if value is None:
                return None
            values[spec.name] = value
        else:
            values[spec.name] = None
        if spec.required and values[spec.name] is None:
            return None  # a missing argument: Click's message, in the house style
    return Line(game, command, move, values, ref) if not words else None


def _is_session_flag(token: str) -> bool:
    return token in SESSION_FLAGS or token.startswith("--session=")


def _session(args: list[str], i: int, ref: str | None) -> tuple[str, int] | None:
    """The value of the -s at `i` and where the line goes on; None if Click must read it (a
    second -s, no value, or a value that looks like an option)."""
    if ref is not None:
        return None
    token = args[i]
    if token.startswith("--session="):
        return token.partition("=")[2], i + 1
    if i + 1 >= len(args) or args[i + 1].startswith("-"):
        return None
    return args[i + 1], i + 2


def _value(kind: Kind, raw: str) -> str | int | None:
    """A word as the Typer command would get it; None where only Click may convert it."""
    if kind == "number":
        if raw.isascii() and raw.isdigit() and len(raw) <= MAX_DIGITS:
            return int(raw)
        return None
    return raw
