"""The one reader of a command line for the fast paths: what a line says, when it can be read
with certainty without Typer.

Two fast paths run before the Typer app is built: the front door (`referee.answers`), which
prints a kept answer again for a read-only command (`show`, `log`, `stats`, a bare `referee`),
and the quick path (`cli.quick`), which runs an action, `undo`, `redo`, `show` and a bare
`referee` without Typer. Both read the line here, by one grammar:

- `[-s S] GAME COMMAND WORDS... [OPTIONS]` for a command of `cli.moves` (its words and options
  are the `Move`'s; a game's own `-s` may come anywhere after the command);
- `[-s S] undo|redo [-s S]`;
- `[-s S] show|log [SESSION] [OPTIONS]` and `stats [OPTIONS]`, the options of `READING`;
- `[-s S]` alone: a bare `referee`, the current (or named) session's card.

Anything else is None, and the Typer app reads it and says what is wrong in Click's words:
help, an unknown option or one given twice, a missing or extra word, a number Click would have
to convert, a session named twice or with a value that looks like an option, and every line
while a shell completion variable is set (`completing`): completion is Click's, and a kept
answer or an action must never be what a Tab prints.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # mypy reads it as typing's; at run time `typing` is never imported
if TYPE_CHECKING:  # the front door reads its line here before anything else is loaded
    from collections.abc import Mapping, Sequence

    from referee.cli.moves import Move
    from referee.games import GameInfo

SESSION_FLAGS = ("-s", "--session")
# Click's and Typer's shell completion: `_REFEREE_COMPLETE` names the shell, and Typer's
# scripts for zsh, fish and PowerShell pass the line in `_TYPER_COMPLETE_ARGS` and its
# siblings (`_TYPER_COMPLETE_FISH_ACTION`, `_TYPER_COMPLETE_WORD_TO_COMPLETE`, ...).
COMPLETION_ENV = "_REFEREE_COMPLETE"
COMPLETION_PREFIX = "_TYPER_COMPLETE_"
MAX_DIGITS = 18  # a longer number is Click's to convert (and refuse)
UNDOING = ("undo", "redo")
# The read-only commands: each option's parameter, and its kind ("flag"; "off" for the second
# flag of a pair, `--compact` of `--full/--compact`; "number" or "text" with how many values).
# An option's value is read apart from its flag (`--last 5`): `--last=5` is Click's to read.
READING: dict[str, dict[str, tuple[str, str, int]]] = {
    "show": {
        "--json": ("json_out", "flag", 0), "--full": ("full", "flag", 0),
        "--compact": ("full", "off", 0), "--totals": ("totals", "flag", 0),
    },
    "log": {
        "--json": ("json_out", "flag", 0), "--script": ("script", "flag", 0),
        "--last": ("last", "number", 1),
    },
    "stats": {
        "--json": ("json_out", "flag", 0), "--money": ("money", "flag", 0),
        "--game": ("game", "text", 1), "--ruleset": ("ruleset", "text", 1),
        "--player": ("player", "text", 1), "--since": ("since", "text", 1),
        "--from": ("first", "text", 1), "--to": ("last", "text", 1),
        "--vs": ("vs", "text", 2), "--all": ("whole", "flag", 0),
    },
}  # fmt: skip
ACROSS = ("stats",)  # read every session of the data folder: no SESSION, no -s


class Line:
    """A command line as read here."""

    __slots__ = ("command", "game", "move", "ref", "values")

    def __init__(
        self,
        command: str | None,  # as typed (the name Click would invoke); None: a bare `referee`
        ref: str | None,  # -s/--session or the SESSION word, wherever it stood
        values: dict[str, object] | None = None,  # the Typer command's parameters, by name
        game: GameInfo | None = None,  # the game of an action
        move: Move | None = None,  # an action's `Move`
    ) -> None:
        self.command = command
        self.ref = ref
        self.values = values if values is not None else {}
        self.game = game
        self.move = move

    def __repr__(self) -> str:
        return f"Line({self.command!r}, ref={self.ref!r}, values={self.values!r})"


def completing() -> bool:
    """Whether a shell is asking for completions (Click's and Typer's variables)."""
    return COMPLETION_ENV in os.environ or any(
        name.startswith(COMPLETION_PREFIX) for name in os.environ
    )


def read(argv: Sequence[str]) -> Line | None:
    """The line, if it is one of the grammar above, read with certainty; else None."""
    if completing():
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
        return Line(None, ref)  # a bare `referee`
    first, i = args[i], i + 1
    if first in READING:
        return _reading(first, args, i, ref)
    if first in UNDOING:
        line = Line(first, ref)
        return line if _words_and_options(line, {}, args, i) == [] else None
    from referee import games

    game = games.BY_NAME.get(first)
    if game is None or first not in (game.name, *game.aliases) or i >= len(args):
        return None
    from referee.cli.moves import moves_of

    command, i = args[i], i + 1
    move = moves_of(game).get(command)
    if move is None:
        return None
    shape = {o.flag: (o.name, o.kind, 0 if o.kind == "flag" else 1) for o in move.options}
    line = Line(command, ref, None, game, move)
    words = _words_and_options(line, shape, args, i, attached=True)
    if words is None or any(o.required and o.name not in line.values for o in move.options):
        return None
    values = line.values
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
    return line if not words else None


def _reading(command: str, args: list[str], i: int, ref: str | None) -> Line | None:
    """`show`, `log` or `stats` with their options, and for the first two one SESSION (by its
    word or -s, not both)."""
    line = Line(command, ref)
    words = _words_and_options(line, READING[command], args, i)
    if words is None:
        return None
    if command in ACROSS:
        return line if line.ref is None and not words else None
    if len(words) > 1 or (words and (line.ref is not None or not words[0])):
        return None
    if words:
        line.ref = words[0]
    return line


def _words_and_options(
    line: Line,
    shape: Mapping[str, tuple[str, str, int]],
    args: list[str],
    i: int,
    attached: bool = False,
) -> list[str] | None:
    """Read the rest of a line into `line`, -s into its ref and each option of `shape` into its
    values (once: given twice, it is Click's to read); returns the positional words, in order,
    or None if the line cannot be read with certainty. `attached`: an option may carry its
    value after `=` (`--by=Ann`)."""
    values = line.values
    words: list[str] = []
    while i < len(args):
        token = args[i]
        if _is_session_flag(token):
            found = _session(args, i, line.ref)
            if found is None:
                return None
            line.ref, i = found
            continue
        if not token.startswith("-"):
            words.append(token)
            i += 1
            continue
        flag, has_value, value = token.partition("=")
        known = shape.get(flag)
        if known is None or known[0] in values or (has_value and not attached):
            return None  # help, an unknown option, or one given twice: Click's to say
        name, kind, count = known
        if count == 0:
            if has_value:
                return None
            values[name], i = kind != "off", i + 1
            continue
        if has_value:
            raws, i = [value], i + 1
        else:
            raws, i = args[i + 1 : i + 1 + count], i + 1 + count
            if len(raws) < count or any(raw.startswith("-") for raw in raws):
                return None
        read = [_value(kind, raw) for raw in raws]
        if None in read:
            return None
        values[name] = read[0] if count == 1 else tuple(read)
    return words


def _is_session_flag(token: str) -> bool:
    return token in SESSION_FLAGS or token.startswith("--session=")


def _session(args: list[str], i: int, ref: str | None) -> tuple[str, int] | None:
    """The value of the -s at `i` and where the line goes on; None if Click must read it (a
    second -s, no value, an empty one, or one that looks like an option)."""
    if ref is not None:
        return None
    token = args[i]
    if token.startswith("--session="):
        value, i = token.partition("=")[2], i + 1
    elif i + 1 >= len(args) or args[i + 1].startswith("-"):
        return None
    else:
        value, i = args[i + 1], i + 2
    return (value, i) if value else None


def _value(kind: str, raw: str) -> str | int | None:
    """A word as the Typer command would get it; None where only Click may convert it."""
    if kind == "number":
        if raw.isascii() and raw.isdigit() and len(raw) <= MAX_DIGITS:
            return int(raw)
        return None
    return raw
