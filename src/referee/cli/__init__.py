"""The command line.

`run` runs one command line as the `referee` script does once no kept answer served it (see
`referee.answers`): an action, `undo`/`redo`, `show` or a bare `referee` that `line` (the one
reader of the fast paths) reads with certainty runs without Typer (`quick`), anything else
through the Typer app (`app.run`, the one place Click's errors become
exit codes). `acting` is what every action does whichever path read it, `output` the only code
that prints; the games' command modules, the shell and `history` hold the Typer commands.

Nothing heavy is imported here: `quick`, `acting` and `output` load without Typer.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as typing's; at run time `typing` is not needed here
if TYPE_CHECKING:
    from collections.abc import Sequence

    from referee.cli.acting import Workspace


def run(argv: Sequence[str], space: Workspace | None = None) -> int:
    """Run one command line; returns the exit code. Errors are one line on stderr."""
    from referee.cli.quick import run as quickly

    code = quickly(argv, space)
    if code is not None:
        return code
    import gc

    gc.enable()  # off for the front door's and an action's moment (`answers.main`) only
    from referee.cli.app import run as ordinary

    return ordinary(argv, space)


def __getattr__(name: str) -> object:
    """`referee.cli.command_for`, `make_app`, `main` and `new_command` as before the Typer app
    moved to `cli.app` (tools and scripts outside the package call them), imported only when
    asked for, so an action still loads no Typer."""
    if name in ("command_for", "make_app", "main", "new_command"):
        from referee.cli import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
