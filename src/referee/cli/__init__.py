"""The `referee` command line: the Typer app and the one place errors become exit codes.

Game commands (`referee kariki ...`) live in their own modules and are attached only when the
command line names that game (or asks for help), so no command pays for another game's import.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from referee import __version__, games, storage
from referee.cli import output
from referee.cli.common import (
    JsonOpt,
    SessionOpt,
    Workspace,
    draw_card,
    home,
    open_session,
    workspace,
)
from referee.errors import RefereeError, UsageError
from referee.session import Session, check_session_name, describe, parse_players

# Game sub-apps: canonical name -> (module, help). Aliases are listed in each sub-app's help.
GAME_APPS = {
    "kariki": "referee.cli.kariki",
    "kalooki": "referee.cli.kalooki",
}
GAME_ALIASES = games.ALIASES

app = typer.Typer(
    name="referee",
    help="Scorekeeper and referee for dice and card games played at a real table.",
    add_completion=True,
    pretty_exceptions_enable=False,
    no_args_is_help=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
rules_app = typer.Typer(help="Bundled rulesets: list, show, check your own.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


def _version(value: bool) -> None:
    if value:
        output.print_text(f"referee {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """With no command: the current session's score card, or how to start."""
    if ctx.invoked_subcommand is not None:
        return
    here = home()
    if not (os.environ.get("REFEREE_SESSION") or here.current()):
        output.print_text(START_HERE)
        return
    show(ctx, None, json_out=False)


START_HERE = """\
No session yet. Start one:
  referee new kariki Ann Bob Cy
Then type the game as it happens:
  referee kariki claim 9
  referee kariki pull 4-5
Or play in one prompt: referee shell
More: referee --help"""


# ---------------------------------------------------------------------------- sessions


@app.command()
def new(
    game: Annotated[str, typer.Argument(help="kariki")],
    players: Annotated[list[str], typer.Argument(help="Players in seat order; Name=Nickname.")],
    name: Annotated[str | None, typer.Option(help="Session name (default: game-date).")] = None,
    ruleset: Annotated[
        str | None, typer.Option(help="Bundled ruleset NAME or a PATH to your own.")
    ] = None,
    first: Annotated[str | None, typer.Option(help="Who won the roll-off.")] = None,
    direction: Annotated[str, typer.Option(help="left or right.")] = "left",
    buy_in: Annotated[int | None, typer.Option("--buy-in", help="Money into the pot.")] = None,
    nick: Annotated[list[str] | None, typer.Option(help="Name=Nickname (repeatable).")] = None,
) -> None:
    """Start a session and make it current."""
    from referee.session import initial, resolve_index

    game_name = games.canonical(game)
    games.load(game_name)  # an unknown game or one without sessions is refused first
    table = storage.load_ruleset(ruleset or game_name)
    if table.get("game") != game_name:
        raise UsageError(
            f"ruleset {table.get('name')!r} is for {table.get('game')}, not {game_name}"
        )
    people = parse_players(players, nick or (), game_name)
    names = [p.name for p in people]
    options: dict[str, str | int] = {
        "first": names[resolve_index(names, first)] if first else names[0],
        "direction": direction,
    }
    if buy_in is not None:
        options["buy_in"] = buy_in
    here = home()
    session_name = check_session_name(name) if name else _free_name(here, game_name)
    session = Session(session_name, game_name, table, people, options)
    initial(session)  # checks the ruleset and the options before anything is written
    path = here.session_path(session_name)
    session = storage.create(path, session)
    try:
        here.set_current(session_name)
    except RefereeError:
        storage.discard(path)  # not current, so not started: a retry must work
        raise
    output.print_text(f"started {session_name} ({game_name})")
    draw_card(session)


def _free_name(here: storage.Home, game: str) -> str:
    base = f"{game}-{storage.now()[:10]}"
    name, n = base, 1
    while here.session_path(name).exists():
        n += 1
        name = f"{base}-{n}"
    return name


@app.command()
def show(ctx: typer.Context, session: SessionOpt = None, json_out: JsonOpt = False) -> None:
    """The score card."""
    loaded = open_session(ctx, session)
    if json_out:
        doc = loaded.session.engine.summary(loaded.state)
        doc["session"] = loaded.session.name
        output.print_json(doc)
        return
    draw_card(loaded.session, loaded.state)


@app.command()
def log(ctx: typer.Context, session: SessionOpt = None, json_out: JsonOpt = False) -> None:
    """The history: one numbered event a line, with who, what and the ruling."""
    from referee.session import rulings

    loaded = open_session(ctx, session)
    said = rulings(loaded.session)
    if json_out:
        output.print_json(
            [
                {"number": n, "event": dict(e), "ruling": r}
                for n, (e, r) in enumerate(zip(loaded.session.events, said, strict=True), 1)
            ]
        )
        return
    if not said:
        output.print_text("no events yet")
        return
    from referee.render import history

    output.draw(history(said))


@app.command()
def undo(ctx: typer.Context, session: SessionOpt = None) -> None:
    """Remove the last event and say which; `redo` puts it back."""
    from referee import session as sessions

    result = workspace(ctx).change(session, sessions.undo)
    output.print_text(f"undid event {len(result.session.events) + 1}: {describe(result.value)}")
    draw_card(result.session, result.loaded.state)


@app.command()
def redo(ctx: typer.Context, session: SessionOpt = None) -> None:
    """Put back the last undone event."""
    from referee import session as sessions

    result = workspace(ctx).change(session, sessions.redo)
    output.print_text(f"redid event {len(result.session.events)}: {describe(result.value)}")
    draw_card(result.session, result.loaded.state)


@app.command("sessions")
def list_sessions() -> None:
    """List sessions: game, players, status, last change (* marks the current one)."""
    here = home()
    current = here.current()
    paths = storage.session_names(here)
    if not paths:
        output.print_text("no sessions yet: referee new kariki Ann Bob")
        return
    lines = []
    for path in paths:
        mark = "*" if path.stem == current else " "
        try:
            loaded = storage.load(path, storage.Cache.default())
        except RefereeError as error:
            lines.append(f"{mark} {path.stem}\n    unreadable: {error}")
            continue
        winner = loaded.session.engine.summary(loaded.state).get("winner")
        status = f"{winner} won" if winner else "playing"
        when = loaded.session.updated[:16].replace("T", " ")
        names = ", ".join(p.name for p in loaded.session.players)
        lines.append(
            f"{mark} {path.stem}\n    {loaded.session.game}, {status}, {when}\n    {names}"
        )
    output.print_wrapped("\n".join(lines))


@app.command()
def use(name: Annotated[str, typer.Argument(help="Session NAME or PATH.")]) -> None:
    """Make another session the current one."""
    here = home()
    path = storage.resolve(here, name)
    storage.load(path)  # refuse to point at something unreadable
    # A path is kept resolved, so the pointer means the same file from any folder.
    ref = str(path.resolve()) if storage.is_path(name) else check_session_name(name)
    here.set_current(ref)
    output.print_text(f"current session: {ref}")


@app.command()
def shell(session: SessionOpt = None) -> None:
    """A prompt for a whole night: type 'claim 9', 'pull 45', 'undo' ... without 'referee kariki'.

    Reads lines from a pipe too: 'referee shell < night.txt' plays a scripted game.
    """
    from referee.cli.shell import Shell

    code = Shell(session).loop()
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------------- rulesets


@rules_app.command("list")
def rules_list() -> None:
    """The bundled rulesets."""
    lines = []
    for name in storage.ruleset_names():
        table = storage.load_ruleset(name)
        lines.append(f"{name} ({table.get('game')})\n  {table.get('description', '')}")
    output.print_text("\n".join(lines))


@rules_app.command("show")
def rules_show(name: Annotated[str, typer.Argument(help="Ruleset NAME or PATH.")]) -> None:
    """One ruleset, as its file says it."""
    path = storage.ruleset_path(name)
    storage.load_ruleset(name)
    output.print_text(storage.read_text(path))


@rules_app.command("check")
def rules_check(path: Annotated[str, typer.Argument(help="Your ruleset file.")]) -> None:
    """Validate a ruleset file: exit 0 when good, 1 with every problem listed."""
    from referee.errors import RulesetError

    table = storage.load_ruleset(path if storage.is_path(path) else f"./{path}")
    game = games.canonical(str(table["game"]))
    try:
        games.rules_from_table(game, table, path)
    except RulesetError as error:
        output.error_line(str(error))
        raise typer.Exit(1) from None
    output.print_text(f"ok: {path} is a valid {game} ruleset")


# ---------------------------------------------------------------------------- entry point


def _first_word(argv: Sequence[str]) -> str | None:
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("-s", "--session"):
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def build(argv: Sequence[str]) -> typer.Typer:
    """Attach the game sub-apps this command line needs (all of them for help)."""
    import importlib

    word = _first_word(argv) or ""
    wanted = GAME_ALIASES.get(word, word)
    root_commands = {c.name or c.callback.__name__ for c in app.registered_commands if c.callback}
    if wanted in GAME_APPS:
        attach = [wanted]
    elif word in root_commands or word == "rules":
        attach = []  # a shared command: no game's module is imported
    else:
        attach = list(GAME_APPS)  # help, or an unknown word: show every game
    attached = {info.name for info in app.registered_groups}
    for game in attach:
        if game in attached:
            continue
        module = importlib.import_module(GAME_APPS[game])
        app.add_typer(module.app, name=game)
        for alias, target in GAME_ALIASES.items():
            if target == game:
                app.add_typer(module.app, name=alias, hidden=True)
    return app


def command_for(argv: Sequence[str]) -> Any:
    """The Click command tree for this command line (built from the Typer app: costly)."""
    return typer.main.get_command(build(argv))


def run(argv: Sequence[str], space: Workspace | None = None, command: Any = None) -> int:
    """Run one command line; returns the exit code. Errors are one line on stderr.

    `space` carries what the commands share across lines of `referee shell`, and `command` is
    a tree from `command_for` kept by the shell, so it is not built again for every line.
    """
    command = command or command_for(argv)
    try:
        result = command.main(
            args=list(argv), prog_name="referee", standalone_mode=False, obj=space
        )
    except RefereeError as error:
        output.error_line(str(error))
        return error.exit_code
    except KeyboardInterrupt:
        output.error_line("interrupted")
        return 130
    except SystemExit as done:  # Typer's completion options exit by themselves
        return done.code if isinstance(done.code, int) else 0
    except Exception as error:  # Click's usage errors: vendored by Typer, so matched by shape
        message = getattr(error, "format_message", None)
        if type(error).__name__ == "NoArgsIsHelpError":
            return 0  # the help was shown, which is what a bare group asks for
        if type(error).__name__ == "Abort":
            output.error_line("aborted")
            return 1
        if message is None:
            raise
        output.error_line(f"{message()} (see referee --help)")
        code = getattr(error, "exit_code", 2)
        return code if isinstance(code, int) else 2
    return result if isinstance(result, int) else 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run(sys.argv[1:]))
