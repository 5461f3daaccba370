"""A game's action commands, derived from their declarations (`referee.games.actions`).

Two readers take the same declaration: the Typer command built here (its parameters, help and
completion, for `--help`, the shell's Click tree and every line the quick path leaves to Click),
and the quick path (`referee.cli.quick`, through `referee.cli.moves`). Both end in `run`: the
typed values read by the action, the event made against the live state under the lock.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer

from referee import games
from referee.cli import acting, output
from referee.cli.common import SessionOpt, act, workspace
from referee.errors import UsageError
from referee.games.actions import Action, Param


def commands(
    game: games.GameInfo, only: str | None = None
) -> list[tuple[str, Callable[..., None], dict[str, Any]]]:
    """The game's action commands as Typer callbacks, by name, with Click's settings for each
    (only `only`, if it is one)."""
    engine = games.load(game.name)
    return [
        (a.name, command(game, a), settings(a)) for a in engine.actions if only in (None, a.name)
    ]


def settings(action: Action) -> dict[str, Any]:
    """Click's settings for an action's command: with a word that may start with "-" (a
    negative count), an option Click does not know is that word, for the action to judge."""
    return {"ignore_unknown_options": True} if any(p.dashed for p in action.words) else {}


def command(game: games.GameInfo, action: Action) -> Callable[..., None]:
    """The Typer callback of one action: its parameters, help and completion from the
    declaration."""

    def callback(ctx: typer.Context, **values: Any) -> None:
        session = values.pop("session", None)
        for p in action.options:
            if p.kind in ("text", "number"):
                values[p.name] = _once(p, values[p.name])
        act(ctx, session, acting.maker(action, values))
        acting.after(game, workspace(ctx))

    parameters = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=typer.Context)]  # fmt: skip
    for p in (*action.words, *action.options):
        kind = _type(p)
        if p.option is not None and p.kind in ("text", "number"):  # every time given: `_once`
            kind = _MANY[p.kind]
        parameters.append(
            inspect.Parameter(
                p.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Annotated[kind, _typer_param(game, action, p)],
                default=False if p.kind == "flag" else ... if p.required else None,
            )
        )
    parameters.append(
        inspect.Parameter(
            "session", inspect.Parameter.KEYWORD_ONLY, annotation=SessionOpt, default=None
        )
    )
    return _signed(callback, parameters, action.name, action.help)


def new_command(game: games.GameInfo) -> Callable[..., None]:
    """`referee new GAME`: every game's players, `--name`, `--ruleset` and `--nick`, then the
    game's own options, from its declaration (`Game.new`)."""
    from referee.cli.common import (
        NameOpt,
        NickOpt,
        PlayersArg,
        RulesetOpt,
        SetOpt,
        StakeOpt,
        start_session,
    )

    declared = games.load(game.name).new

    def callback(ctx: typer.Context, **values: Any) -> None:
        players = values.pop("players")
        sets = list(values.get("sets") or ())
        if values.get("stake") is not None:  # the stake, as `--set` would set it
            from referee.games.money import cents, show

            own = game.stake_key != "stake" and values.get(game.stake_key) is not None
            if own:  # Kariki's --buy-in is its stake
                flag = "--" + game.stake_key.replace("_", "-")
                raise UsageError(f"--stake and {flag} both set the stake: give one of them")

            amount = show(cents(values["stake"], "--stake"))
            sets.append(f"{game.stake_key}={amount}")
        options = {p.name: values.get(p.name) or None if p.kind == "flag" else values.get(p.name)
                   for p in declared.options}  # fmt: skip
        start_session(
            ctx,
            game.name,
            players,
            nick=values.get("nick"),
            name=values.get("name"),
            ruleset=values.get("ruleset"),
            sets=sets or None,
            options=options,
            player_options=tuple(p.name for p in declared.options if p.player),
            warning=declared.warning,
        )
        if declared.under is not None:
            said = declared.under(workspace(ctx).load(None).state)
            if said:
                output.warning_line(said)

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
        inspect.Parameter("players", keyword, annotation=PlayersArg),
        inspect.Parameter("name", keyword, annotation=NameOpt, default=None),
        inspect.Parameter("ruleset", keyword, annotation=RulesetOpt, default=None),
        inspect.Parameter("sets", keyword, annotation=SetOpt, default=None),
        inspect.Parameter("stake", keyword, annotation=StakeOpt, default=None),
        inspect.Parameter("nick", keyword, annotation=NickOpt, default=None),
    ]
    for p in declared.options:
        kind: Any = Annotated[_type(p), _typer_param(game, None, p)]
        default = False if p.kind == "flag" else None
        parameters.append(inspect.Parameter(p.name, keyword, annotation=kind, default=default))
    return _signed(callback, parameters, "new", declared.help)


def _signed(
    callback: Callable[..., None], parameters: list[inspect.Parameter], name: str, help: str
) -> Callable[..., None]:
    """`callback` with the signature Typer reads its command from."""
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in parameters}
    callback.__name__ = name
    callback.__doc__ = help
    return callback


def _once(p: Param, given: list[Any] | None) -> Any:
    """An option's one value: given twice (`--seconds 25 --seconds 15`), Click would keep the
    last without a word; it is refused, as the table meant something the action cannot hold."""
    if not given:
        return None
    if len(given) > 1:
        times = "twice" if len(given) == 2 else f"{len(given)} times"
        values = " and ".join(str(v)[:20] for v in given[:3])
        raise UsageError(
            f"{p.option} given {times} ({values}): give it once; for two, type the action twice"
        )
    return given[0]


_BASE: dict[str, Any] = {"text": str, "number": int, "words": list[str], "flag": bool}
_MANY: dict[str, Any] = {"text": list[str] | None, "number": list[int] | None}


def _type(p: Param) -> Any:
    base: Any = _BASE[p.kind]
    return base if p.kind == "flag" or p.required else base | None


def _typer_param(game: games.GameInfo, action: Action | None, p: Param) -> Any:
    complete = _completer(game, action, p) if action is not None else None
    if p.option is None:
        return typer.Argument(
            metavar=p.metavar or p.name.upper(),
            help=p.help,
            show_default=False,
            autocompletion=complete,
        )
    if p.kind == "flag":
        return typer.Option(p.option, help=p.help)
    return typer.Option(
        p.option, metavar=p.metavar, help=p.help, show_default=False, autocompletion=complete
    )


def _completer(game: games.GameInfo, action: Action, p: Param) -> Callable[..., list[str]]:
    """Tab completion of the parameter in bash, zsh and fish: the words the game's shell offers
    for it now (its `SHELL.complete`), from the current session when it is of this game."""

    def complete(ctx: typer.Context, incomplete: str) -> list[str]:
        from referee.errors import RefereeError

        try:
            loaded = workspace(ctx).load(None)
        except RefereeError:
            return []
        if loaded.session.game != game.name:
            return []
        plugin = games.module(game.name, "cli").SHELL
        found = plugin.complete.get(f"{action.name}.{p.name}") or plugin.complete.get(p.name)
        words: list[str] = found(loaded.session, loaded.state) if found else []
        return [w for w in words if w.casefold().startswith(incomplete.casefold())]

    return complete
