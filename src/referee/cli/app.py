"""The `referee` command line's Typer app: the shared commands, and the one place errors become
exit codes.

Each command line gets a fresh Typer app (`make_app`) holding the shared commands and only the
games that line names, so no command pays for another game's import; help attaches them all.
A game's own commands (`referee kariki claim`, `referee new kariki`) live in its CLI module,
named by the registry in `referee.games`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Sequence
from typing import Annotated, Any

import typer

from referee import __version__, games, storage
from referee.cli import acting, output
from referee.cli.common import (
    JsonOpt,
    SessionOpt,
    Workspace,
    act,
    open_session,
    workspace,
)
from referee.errors import RefereeError, UsageError, quote
from referee.session import notation, states

HELP = "Scorekeeper and referee for dice and card games played at a real table."


start_here = acting.start_here  # what a bare `referee` says with no session yet


def _version(value: bool) -> None:
    if value:
        output.print_text(f"referee {__version__}")
        raise typer.Exit()


def root(
    ctx: typer.Context,
    session: SessionOpt = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """With no command: the current session's score card, or how to start."""
    space = workspace(ctx)
    if session is not None:
        space.default_ref = session
    if ctx.invoked_subcommand is not None:
        return
    acting.front(space)  # as the quick path runs a bare `referee` it reads with certainty


# ---------------------------------------------------------------------------- sessions

RefArg = Annotated[
    str | None,
    typer.Argument(
        metavar="SESSION",
        help="Session NAME or PATH (default: the current one).",
        show_default=False,
    ),
]


def show(
    ctx: typer.Context,
    ref: RefArg = None,
    session: SessionOpt = None,
    json_out: JsonOpt = False,
    full: Annotated[
        bool | None,
        typer.Option(
            "--full/--compact",
            help="The whole card, or one line a player (default: what fits).",
            show_default=False,
        ),
    ] = None,
    totals: Annotated[
        bool, typer.Option("--totals", help="The running total after each round (Kalooki).")
    ] = False,
) -> None:
    """The score card."""
    acting.show(workspace(ctx), session or ref, json_out, full, totals)  # as the quick path


def log(
    ctx: typer.Context,
    ref: RefArg = None,
    session: SessionOpt = None,
    json_out: JsonOpt = False,
    script: Annotated[
        bool, typer.Option("--script", help="The events as lines for 'referee shell'.")
    ] = False,
    last: Annotated[
        int | None,
        typer.Option("--last", metavar="N", help="Only the last N events.", show_default=False),
    ] = None,
) -> None:
    """The history, with rulings.

    One numbered event a line, with who, what and the ruling.
    """
    loaded = open_session(ctx, session or ref)
    played = loaded.session
    engine = played.engine
    if script:
        lines = [f"# {new_command(played)}"]
        lines += [notation(played, e) for e in played.events]
        # a script to keep and replay: UTF-8 as a file holds it, whatever the terminal shows
        # (an ASCII terminal would have made Jürgen `J?rgen` in the script); nothing that is
        # not printable, as ever
        script_text = "\n".join(lines)
        output.write_utf8(
            "".join(c if c.isprintable() or c == "\n" else "?" for c in script_text) + "\n"
        )
        return
    if last is not None and last < 0:
        raise UsageError(f"--last takes a number of events, not {last}")
    numbered = list(enumerate(zip(played.events, states(played), strict=True), 1))
    if last is not None:
        numbered = numbered[len(numbered) - last :] if last else []
    if json_out:
        output.print_json(
            [
                {
                    "number": n,
                    "event": dict(e),
                    "text": notation(played, e),
                    "ruling": words_of(played.game, engine.ruling(s)),
                    "facts": engine.ruling_json(s),
                }
                for n, (e, s) in numbered
            ]
        )
        return
    if not numbered:  # none yet, or --last 0 of a session that has some
        count = len(played.events)
        output.print_text(f"0 of {count} events shown" if count else "no events yet")
        return
    from referee.history import log_times
    from referee.render.common import history
    from referee.session import TIME_KEY

    stamps = [e.get(TIME_KEY) for _, (e, _) in numbered]
    times = log_times([at if isinstance(at, str) else None for at in stamps])
    output.draw(
        history(
            [
                (n, at, words_of(played.game, engine.ruling(s)))
                for (n, (_, s)), at in zip(numbered, times, strict=True)
            ]
        )
    )


def words_of(game: str, ruling: object) -> str:
    """A ruling in words, by the game's own words module."""
    words: str = games.module(game, "words").words(ruling)
    return words


def new_command(session: Any) -> str:
    """The `referee new` line that starts this session again, for `log --script`."""
    import shlex

    from referee.games.base import words as line
    from referee.house import house_rules

    players = [p.name + (f"={p.nickname}" if p.nickname else "") for p in session.players]
    options = dict(session.options.items())
    # The bundled ruleset it started from and every key it sets otherwise, so the line starts
    # the same table in any data folder, a table's own ruleset file included.
    base, house = house_rules(session.game, session.ruleset)
    default = games.info(session.game).rulesets[0]
    extra = {"ruleset": base} if base != default else {}
    sets = [w for k, v in house.items() for w in ("--set", f"{k}={storage.toml_text(v)}")]
    said = line("new", session.game, *players, **options, **extra)
    return "referee " + said + (" " + shlex.join(sets) if sets else "")


def undo(ctx: typer.Context, session: SessionOpt = None) -> None:
    """Take back the last event.

    Says which; `redo` puts it back.
    """
    acting.undo_or_redo(workspace(ctx), session, "undo")


def redo(ctx: typer.Context, session: SessionOpt = None) -> None:
    """Put back an undone event."""
    acting.undo_or_redo(workspace(ctx), session, "redo")


def roster(name: str) -> Callable[[typer.Context, dict[str, Any], str | None], None]:
    """What `referee join`, `leave` and `replace` do: the action of that name of the session's
    game (each game declares it once, with what it allows: `referee.games.roster`)."""

    def run(ctx: typer.Context, values: dict[str, Any], ref: str | None) -> None:
        space = workspace(ctx)
        game = games.info(space.load(ref).session.game)
        action = games.load(game.name).actions.get(name)
        if action is None:
            raise UsageError(f"{game.title} has no {name}: its table never changes")
        act(ctx, ref, acting.maker(action, values))
        acting.after(game, space)

    return run


def join(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The newcomer's name.")],
    after: Annotated[
        str | None,
        typer.Option(
            "--after", metavar="PLAYER", help="Sit after this player [default: the last]."
        ),
    ] = None,
    session: SessionOpt = None,
) -> None:
    """A newcomer sits down.

    The newcomer pays the stake and starts as the game's rules say; allowed while nobody is out
    yet (late_join) and between challenges. Kiriki has exactly two players: no join.
    """
    roster("join")(ctx, {"name": name, "after": after}, session)


def leave(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="Who leaves.")],
    session: SessionOpt = None,
) -> None:
    """A player leaves for good.

    PLAYER is out at this event, placed as anyone out at it; PLAYER's money stays in the pot.
    In Kiriki leaving is resigning.
    """
    roster("leave")(ctx, {"player": player}, session)


def replace_player(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(metavar="OLD", help="Who gives up the seat.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="Who takes it.")],
    session: SessionOpt = None,
) -> None:
    """Someone takes a seat over.

    NEW takes OLD's seat and everything on it, and pays OLD what OLD had put in.
    """
    roster("replace")(ctx, {"old": old, "new": new}, session)


def list_sessions(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Option(metavar="GAME", help="Only this game.", show_default=False)
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Only sessions NAME played in.", show_default=False),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            metavar="DATE", help="Only sessions from DATE on (2026-11-01).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the sessions.

    Newest first: game, players, status, last change in local time (* marks the current one).
    """
    from referee import history, league

    first_day = history.parse_day(since) if since is not None else None
    space = workspace(ctx)
    try:  # found as any command finds it: `REFEREE_SESSION=fri` marks friday
        current = storage.locate(space.home, None)
    except UsageError:  # none, or a name that finds none: nothing is marked
        current = None
    rows: list[dict[str, Any]] = []
    nights, unreadable = storage.nights_by_session(space.home)
    for line in unreadable:
        output.warning_line(line)
    for path in storage.session_files(space.home):
        row: dict[str, Any] = {"name": path.stem, "path": str(path), "current": False}
        row["night"] = None
        row["current"] = path == current
        try:
            loaded = storage.load(path, space.cache)
        except RefereeError as error:
            row.update(game=None, players=[], status="unreadable", winners=[], updated=None)
            row["error"] = str(error)
            rows.append(row)
            continue
        result = loaded.session.engine.outcome(loaded.state)
        began, ended = history.play_span(loaded.session)
        row["identity"] = (loaded.session.id, loaded.session.game,
                           *(p.name for p in loaded.session.players))  # fmt: skip
        row["loaded"] = loaded  # ranked below if another file holds the same session
        row.update(
            minutes=history.minutes(began, ended),
            night=nights.get(loaded.session.id),
            game=loaded.session.game,
            ruleset=history.ruleset_name(loaded.session),
            named=league.session_pool(loaded.session),  # Perudo by its own name
            players=[p.name for p in loaded.session.players],
            status=result.status,
            winners=list(result.winners),
            updated=loaded.session.updated or None,
            played=loaded.session.created or loaded.session.updated,
        )
        rows.append(row)
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in rows:
        if "identity" in row:
            groups.setdefault(row.pop("identity"), []).append(row)
    for held in groups.values():  # a copy (by hand, a sync conflict, an import --as-copy)
        if len(held) > 1:  # the file that counts is the one `league.once` counts
            held.sort(key=_copy_rank)
            for row in held[1:]:
                row["copy_of"] = held[0]["name"]
    for row in rows:
        row.pop("loaded", None)
    rows.sort(key=lambda r: r["updated"] or "", reverse=True)
    if game is not None:
        variant = game.strip().lower()
        if variant not in games.BY_NAME and any(variant in g.rulesets for g in games.GAMES):
            rows = [r for r in rows if r.get("ruleset") == variant]  # `--game perudo`
        else:
            wanted = games.canonical(game)
            rows = [r for r in rows if r["game"] == wanted]
    if player is not None:
        who = history.match_player(player, [n for r in rows for n in r["players"]]).casefold()
        rows = [r for r in rows if any(n.casefold() == who for n in r["players"])]  # Ann, ann
    if first_day is not None:
        rows = [r for r in rows if history.local_date(r.get("played")) >= first_day]
    if json_out:
        keys = ("name", "game", "ruleset", "players", "status", "winners", "updated", "minutes",
                "path", "night")  # fmt: skip
        extra = ("copy_of",)  # only on a copy of another file
        output.print_json(
            [{k: r.get(k) for k in keys} | {k: r[k] for k in extra if k in r} for r in rows]
        )
        return
    if not rows:
        output.print_text("no sessions yet: referee new GAME PLAYER...")
        return
    lines = []
    for r in rows:
        mark = "*" if r["current"] else " "
        if r["status"] == "unreadable":
            lines.append(f"{mark} {r['name']}\n    unreadable: {r['error']}")
            continue
        won = " and ".join(r["winners"])
        status = {"playing": "playing", "provisional": f"{won} leads", "finished": f"{won} won"}
        when = history.local_time(r["updated"])
        head = f"{mark} {r['name']}"
        if r["night"] is not None:  # beside the name when it fits, else under it
            said = f"night {r['night']}"
            fits = len(head) + 2 + len(said) <= min(output.width(), 40)
            head += f"  {said}" if fits else f"\n    {said}"
        if r["minutes"]:  # the play time, first event to last, beside the name when it fits
            said = f"played {history.duration_of(r['minutes'])}"
            last = head.rsplit("\n", 1)[-1]
            fits = len(last) + 2 + len(said) <= min(output.width(), 40)
            head += f"  {said}" if fits else f"\n    {said}"
        facts = f"{r['named']}, {status[r['status']]}, {when}"
        lines.append(f"{head}\n    {facts}\n    {', '.join(r['players'])}")
        if "copy_of" in r:
            lines.append(f"    a copy of {r['copy_of']}: counted once")
    output.print_wrapped("\n".join(lines))


def _copy_rank(row: dict[str, Any]) -> tuple[Any, ...]:
    """Which of the files holding one session counts: as `league.copy_rank` ranks them, then
    a file under its session's own name (a hand or sync copy keeps the name inside), then the
    shorter name."""
    from referee import history, league

    loaded, stem = row["loaded"], row["name"]
    summary = history.summarise(loaded.session)
    return (league.copy_rank(summary), stem != loaded.session.name, len(stem), stem)


def use(
    ctx: typer.Context, name: Annotated[str, typer.Argument(help="Session NAME or PATH.")]
) -> None:
    """Pick the current session."""
    space = workspace(ctx)
    path = storage.find_session(space.home, name)
    storage.load(storage.follow_links(path), space.cache)  # never point at the unreadable
    # A path is kept resolved, so the pointer means the same file from any folder; a name
    # as the session is called (`use frid` points at friday).
    ref = str(path.resolve()) if storage.is_path(name) else path.stem
    space.home.set_current(ref)
    output.print_text(f"current session: {ref}")


def shell(
    ctx: typer.Context,
    session: SessionOpt = None,
    serve: Annotated[
        bool, typer.Option("--serve", help="Also show the live card on the table's phones.")
    ] = False,
    port: Annotated[
        int | None,
        typer.Option(
            "--port",
            help="With --serve: as 'referee serve --port'.",
            min=0,
            max=65535,
            show_default=False,
        ),
    ] = None,
    host: Annotated[
        str | None,
        typer.Option("--host", help="With --serve: as 'referee serve --host'.", show_default=False),
    ] = None,
) -> None:
    """Play a night in a prompt.

    Type the session's actions, 'undo', 'show' ... without 'referee GAME'; 'help' lists what
    is open now. Reads lines from a pipe too: 'referee shell < night.txt' plays a script.
    With --serve, the others follow the card on their phones (see 'referee serve'); 'qr'
    shows its address again.
    """
    from referee.cli.shell import Shell

    if not serve and (port is not None or host is not None):
        given = "--port" if port is not None else "--host"
        raise UsageError(f"{given} is for the live card: add --serve ('shell --serve {given} ...')")
    ref = session or workspace(ctx).default_ref
    prompt = Shell(ref)
    if serve:
        from referee.cli.serve import start_background

        prompt.live = start_background(prompt.ref, host, port, prompt.space)
    try:
        code = prompt.loop()
    finally:
        if prompt.live is not None:
            prompt.live.stop()
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------------- rulesets


def rules_list() -> None:
    """The bundled rulesets.

    With the game each is for.
    """
    lines = []
    for name in storage.ruleset_names():
        table = storage.load_ruleset(name)
        lines.append(f"{name} ({table.get('game')})\n  {table.get('description', '')}")
    output.print_text("\n".join(lines))


def rules_show(name: Annotated[str, typer.Argument(help="Ruleset NAME or PATH.")]) -> None:
    """One ruleset, in words."""
    from referee.house import effective

    path = storage.ruleset_path(name)
    table = storage.load_ruleset(name)
    game = games.info(str(table.get("game")))
    said = getattr(games.module(game.name, "words"), "HOUSE_WORDS", {})
    rules = [said[k](v) for k, v in effective(game, table).items() if k in said]
    output.print_wrapped(f"{table.get('name')} ({game.name}) in words: " + ", ".join(rules))
    output.print_text(storage.read_text(path, "ruleset"))


def rules_diff(
    first: Annotated[str, typer.Argument(metavar="A", help="Ruleset NAME or PATH.")],
    second: Annotated[str, typer.Argument(metavar="B", help="Ruleset NAME or PATH.")],
) -> None:
    """Two rulesets compared.

    One key a line, A's value then B's; rules left out are at the game's default.
    """
    from referee.house import differences, value_text

    a, b = storage.load_ruleset(first), storage.load_ruleset(second)
    game = games.info(str(a.get("game")))
    if b.get("game") != game.name:
        other = quote(str(b.get("game")), 20)
        raise UsageError(f"ruleset {quote(second)} is for {other}, not {game.name}: compare like")
    found = differences(game, a, b)
    found |= {k: a.get(k) for k in differences(game, b, a) if k not in found}
    if not found:
        output.print_text(f"{first} and {second} rule alike")
        return
    from referee.house import effective

    ours, theirs = effective(game, a), effective(game, b)
    lines = [f"{k}: {value_text(ours.get(k))} | {value_text(theirs.get(k))}" for k in found]
    output.print_wrapped("\n".join(lines))


def rules_check(path: Annotated[str, typer.Argument(help="Your ruleset file.")]) -> None:
    """Check your own ruleset.

    Exit 0 when it is good, 1 with every problem listed.
    """
    from referee.errors import RulesetError

    table = storage.load_ruleset(path if storage.is_path(path) else f"./{path}")
    game = games.canonical(str(table["game"]))
    try:
        games.rules_from_table(game, table, path)
    except RulesetError as error:
        output.error_line(str(error))
        raise typer.Exit(1) from None
    output.print_text(f"ok: {path} is a valid {game} ruleset")


# ---------------------------------------------------------------------------- the app

SHARED: dict[str, Callable[..., None]] = {
    "show": show,
    "log": log,
    "undo": undo,
    "redo": redo,
    "join": join,
    "leave": leave,
    "replace": replace_player,
    "sessions": list_sessions,
    "use": use,
    "shell": shell,
}


HISTORY = ("export", "import", "stats", "delete", "rename")  # in referee.cli.history
SERVE = "serve"  # in referee.cli.serve: the live card for the table's phones
QR = "qr"  # in referee.cli.serve too: the live card's address again
NIGHT = "night"  # in referee.cli.night: a night's games, money and rounds
LEAGUE = ("ratings",)  # in referee.cli.league: ratings for every game
SEASON = "season"  # in referee.cli.season: a season's standings
TOOLS = ("rules", SERVE, QR, NIGHT, SEASON)  # the other shared commands and groups


def make_app(
    attach: Sequence[games.GameInfo],
    only: str | Collection[str] | None = None,
    game_command: str | None = None,
) -> typer.Typer:
    """A fresh app: the shared commands, and the commands of the games in `attach`.

    With `only`, the one shared command (or group) a command line names, or the few the shell
    runs: Typer builds every command it holds from its signature, so a one-off command builds
    just its own; and with `game_command`, of a game's commands the one the line names (if it
    names one).
    """
    chosen = None if only is None else {only} if isinstance(only, str) else set(only)
    app = typer.Typer(
        name="referee",
        help=HELP,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        # Plain help (no Rich boxes) laid out for the screen: Click's own layout would not go
        # below 50 columns, and at 40 it wraps rather than cuts.
        context_settings={"help_option_names": ["-h", "--help"], "terminal_width": output.width()},
    )
    app.callback(invoke_without_command=True)(root)
    for name, command in SHARED.items():
        if chosen is None or name in chosen:
            app.command(name)(command)
    if chosen is None or chosen.intersection(HISTORY):
        from referee.cli import history

        for name, found in history.COMMANDS.items():
            if chosen is None or name in chosen:
                app.command(name)(found)
    if chosen is None or SERVE in chosen:
        from referee.cli.serve import serve as serve_command

        app.command(SERVE)(serve_command)
    if chosen is None or QR in chosen:
        from referee.cli.serve import qr as qr_command

        app.command(QR)(qr_command)
    if chosen is None or chosen.intersection(LEAGUE):
        from referee.cli import league

        for name in LEAGUE:
            if chosen is None or name in chosen:
                app.command(name)(getattr(league, name))
    if chosen is None or NIGHT in chosen:
        from referee.cli.night import app as night_app

        app.add_typer(night_app, name=NIGHT)
    if chosen is None or SEASON in chosen:
        from referee.cli.season import app as season_app

        app.add_typer(season_app, name=SEASON)
    if chosen is None or "rules" in chosen:
        rules_app = typer.Typer(help="Bundled and own rulesets.", no_args_is_help=True)
        rules_app.command("list")(rules_list)
        rules_app.command("show")(rules_show)
        rules_app.command("check")(rules_check)
        rules_app.command("diff")(rules_diff)
        app.add_typer(rules_app, name="rules")
    new_app = typer.Typer(
        help="Start a session.\n\nreferee new GAME PLAYER... starts one and makes it current.",
        no_args_is_help=True,
    )
    for game in attach:
        module = games.module(game.name, "cli")
        if game.has_sessions:
            from referee.cli.actions import new_command

            new_app.command(game.name)(new_command(game))
        sub = game_app(game, module.app, game_command)
        app.add_typer(sub, name=game.name, help=game.about)
        for alias in game.aliases:
            app.add_typer(sub, name=alias, hidden=True)
    if chosen is None or "new" in chosen:
        app.add_typer(new_app, name="new")
    return app


def game_app(game: games.GameInfo, tools: typer.Typer, word: str | None = None) -> typer.Typer:
    """A game's group: its actions (derived from their declarations, `cli.actions`), then its
    tools (the CLI module's `app`). With `word`, only the command it names, if it names one:
    the rest would be built from their signatures for nothing."""
    import copy

    from typer.main import get_command_name

    from referee.cli import actions

    def name(c: Any) -> str | None:
        return c.name or (get_command_name(c.callback.__name__) if c.callback else None)

    made = actions.commands(game) if game.has_sessions else []
    own = list(tools.registered_commands)
    if word is not None and any(n == word for n, *_ in made) | any(name(c) == word for c in own):
        made = [m for m in made if m[0] == word]
        own = [c for c in own if name(c) == word]
    group = copy.copy(tools)
    group.registered_commands = []
    for n, callback, settings in made:
        group.command(n, context_settings=settings or None)(callback)
    group.registered_commands += own
    return group


def _words(argv: Sequence[str]) -> list[str]:
    """The positional words of a command line (the values of -s/--session skipped)."""
    found, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("-s", "--session"):
            skip = True
        elif not arg.startswith("-"):
            found.append(arg)
    return found


def _check_new(argv: Sequence[str]) -> None:
    """`referee new GAME`: an unknown game, or one without sessions, is refused by name."""
    words = _words(argv)
    if len(words) > 1 and words[0] == "new" and "--help" not in argv and "-h" not in argv:
        games.load(words[1])


def games_for(argv: Sequence[str]) -> list[games.GameInfo]:
    """The games a command line needs attached: the one it names, none, or all (for help)."""
    words = _words(argv)
    first = words[0] if words else ""
    if first == "new" and len(words) > 1 and words[1].lower() in games.BY_NAME:
        return [games.BY_NAME[words[1].lower()]]
    if first.lower() in games.BY_NAME:
        return [games.BY_NAME[first.lower()]]
    if first in (*SHARED, *HISTORY, *LEAGUE, *TOOLS):
        return []
    return list(games.GAMES)  # help, a bare `new`, or an unknown word: show every game


def command_for(argv: Sequence[str]) -> Any:
    """The Click command tree for this command line (built from the Typer app: costly)."""
    words = _words(argv)
    first = words[0] if words else None
    named = first if first in (*SHARED, *HISTORY, *LEAGUE, *TOOLS, "new") else None
    own = first and first.lower() in games.BY_NAME
    only = "" if own else named
    game_command = (
        words[1] if first and own and len(words) > 1 and first.lower() in games.BY_NAME else None
    )
    command = typer.main.get_command(make_app(games_for(argv), only, game_command))
    for param in command.params:  # Typer's completion options work, but keep --help short
        if param.name in ("install_completion", "show_completion"):
            setattr(param, "hidden", True)  # noqa: B010 -- an Option's attribute, not a Parameter's
    return command


def run(argv: Sequence[str], space: Workspace | None = None, command: Any = None) -> int:
    """Run one command line; returns the exit code. Errors are one line on stderr.

    `space` carries what the commands share across lines of `referee shell`, and `command` is
    a tree from `command_for` kept by the shell, so it is not built again for every line.
    """
    # Typer 0.28 carries its own Click (pinned in pyproject.toml), so its errors come from there.
    from typer._click import ClickException
    from typer._click.exceptions import MissingParameter, NoArgsIsHelpError

    try:
        _check_new(argv)
        command = command or command_for(argv)
        result = command.main(
            args=list(argv), prog_name="referee", standalone_mode=False, obj=space
        )
    except (RefereeError, KeyboardInterrupt, OSError) as error:
        code = acting.failed(error)
        if code is None:  # an OSError of Click's own is not one of them
            raise
        return code
    except SystemExit as done:  # Typer's completion options exit by themselves
        return done.code if isinstance(done.code, int) else 0
    except NoArgsIsHelpError as shown:
        output.print_text(shown.format_message())
        return 0  # the help was shown, which is what a bare group asks for
    except typer.Abort:
        output.error_line("aborted")
        return 1
    except (KeyError, ValueError, IndexError):
        from referee.cli.line import completing

        if completing():  # a completion variable without the ones Click reads with it
            return 1  # no words to offer, and never a traceback where a Tab was pressed
        raise
    except ClickException as error:  # usage: a missing argument, an unknown option
        in_shell = space is not None and space.keeps_replays
        hint = "" if in_shell else " (see --help)"
        message = _whose(error) or _negative(error) or _extra(error, argv) or _not_whole(error)
        message = message or _cut_values(error.format_message())
        missing = getattr(error, "param", None)
        context = getattr(error, "ctx", None)
        if isinstance(error, MissingParameter) and missing is not None and context is not None:
            # In the house style: what the action needs, and where its examples are.
            name = context.command.name
            what = (missing.human_readable_name or "a value").strip("'").upper()
            where = f"help {name}" if in_shell else f"{context.command_path} --help"
            message, hint = f"'{name}' needs {what}: see '{where}'", ""
        output.error_line(f"{message}{hint}")
        return error.exit_code
    return result if isinstance(result, int) else 0


def _whose(error: Exception) -> str:
    """For `No such command 'lift'`: whose action that is, and how to type it (`referee lift`
    and `referee kalooki lift` are the slips of a scorekeeper who meant another game); "" for
    a word no game has, which Click's own message answers (with its "did you mean")."""
    import re

    from referee.cli.moves import owners_of

    named = re.match(r"No such command '([A-Za-z]+)'\.", str(getattr(error, "message", "")))
    context = getattr(error, "ctx", None)
    if named is None or context is None:
        return ""
    word = named.group(1).casefold()
    owners = owners_of(word, context.command.name)
    if not owners:
        return ""
    titles = " and ".join(g.title for g in owners)
    lines = " or ".join(f"referee {g.name} {word} ..." for g in owners)
    return f"No such command '{named.group(1)}'. It is an action of {titles}: {lines}"


def _extra(error: Exception, argv: Sequence[str] = ()) -> str:
    """For Click's `Got unexpected extra argument (braun)`: which words are too many, and the
    likely slip, a name with a space unquoted (`pass --by alexander braun`). Words that end
    the line are counted as typed: `roll "alexander braun"` is one word too many, and its
    name was quoted already."""
    import re

    named = re.fullmatch(
        r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", str(getattr(error, "message", ""))
    )
    context = getattr(error, "ctx", None)
    if named is None or context is None:
        return ""
    said = named.group(1)
    words = next(
        (list(argv[-n:]) for n in range(1, len(argv) + 1) if " ".join(argv[-n:]) == said),
        said.split(" "),
    )
    many = "one word" if len(words) == 1 else f"{len(words)} words"
    spaced = any(" " in word for word in words)
    hint = "" if spaced else " (a name with a space goes in quotes)"
    return f"'{context.command.name}' does not take {quote(said)}: {many} too many{hint}"


def _not_whole(error: Exception) -> str:
    """For Click's `Invalid value for 'N': 'mug' is not a valid int.`: in the house's words,
    and a word where a number goes is likely a name with a space left unquoted (`slash
    Alexander Braun mug`)."""
    import re

    named = re.fullmatch(
        r"Invalid value for '?([^':]*)'?: '(.*)' is not a valid int(?:eger)?\.",
        str(getattr(error, "format_message", lambda: "")()),
    )
    if named is None:
        return ""
    what, typed = named.groups()
    hint = " (a name with a space goes in quotes)" if typed.isalpha() else ""
    return f"{what} is a whole number, not {quote(typed)}{hint}"


def _negative(error: Exception) -> str:
    """Click reads `-5` as an unknown option: say it is a number below zero, which no count
    or amount here can be (`slash dee drop -5`)."""
    import re

    named = re.fullmatch(r"No such option: (-[0-9]{1,24})", str(getattr(error, "message", "")))
    if named is None:
        return ""
    return f"{named.group(1)} is no option, and no count or amount is below 0"


def _cut_values(message: str) -> str:
    """Click quotes a refused value whole: a 10,000-character argument is cut as ours are."""
    import re

    return re.sub(r"'([^']{25,})'", lambda found: quote(found.group(1)), message)


def main() -> None:
    """Console-script entry point."""
    sys.exit(run(sys.argv[1:]))


__all__ = ["command_for", "main", "make_app", "new_command", "run"]
