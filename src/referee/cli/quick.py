"""The quick path: an action, `undo`, `redo`, `show` and a bare `referee`, run without Typer.

Typer and Click cost more to import than the rest of an action together, and an action is
what a scorekeeper types all night; building the whole Click tree (every game's commands) for
a bare `referee` cost more than twice that. A line the one reader (`cli.line`) reads with
certainty runs here through `acting`, with the same functions the Typer commands call: an
action's `make` (`cli.moves`), `acting.undo_or_redo`, `acting.show`, `acting.front`. Anything
else (help, an option it does not know, a missing or extra argument, a number Click would have
to convert, two `-s`, completion, `log` and `stats`) is left to the Typer app, which says what
is wrong in Click's words.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as typing's; at run time `typing` is not needed here
if TYPE_CHECKING:
    from collections.abc import Sequence

    from referee.cli.acting import Workspace

RUNS = (None, "show", "undo", "redo")  # besides actions: a bare `referee` is None


def run(argv: Sequence[str], space: Workspace | None = None) -> int | None:
    """Run `argv` if it is a line this path runs, read with certainty: its exit code; else
    None (nothing was done, nothing printed: the Typer app's to run)."""
    from referee.cli.line import read

    line = read(argv)
    if line is None or (line.move is None and line.command not in RUNS):
        return None
    from referee.cli import acting

    space = space if space is not None else acting.Workspace()
    try:
        if line.move is not None:
            make = line.move.make(**line.values)
            acting.act(space, line.game, line.command or "", line.ref, make)
            if line.move.after is not None:
                line.move.after(space)
        elif line.command == "show":
            acting.show(space, line.ref, **line.values)  # type: ignore[arg-type]
        elif line.command is None:
            if line.ref is not None:
                space.default_ref = line.ref  # as the Typer app's root takes `-s`
            acting.front(space)
        else:
            acting.undo_or_redo(space, line.ref, line.command)
    except KeyboardInterrupt:
        return 130  # as the Typer app ends a command Ctrl-C stopped: silently, the ^C says it
    except Exception as error:
        code = acting.failed(error)
        if code is None:
            raise
        return code
    return 0
