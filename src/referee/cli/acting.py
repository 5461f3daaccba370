"""What every action shares, without Typer: the workspace (the data folder and the session
last seen), one path for an action (check the game, apply under the lock, save), who acts,
and the score card after it. The Typer commands (`cli.common.act`) and the quick path
(`cli.quick`) both come here, so an action does the same thing whichever path read its line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import games, storage
from referee.cli import output
from referee.errors import RefereeError, RuleViolation, StorageError, UsageError, quote
from referee.session import Session, append, notation, replay, resolve_player


def home() -> storage.Home:
    """The data folder: $REFEREE_HOME, else the platform's user data folder."""
    from referee.places import data_folder

    return storage.Home(Path(data_folder()))


@dataclass(eq=False, repr=False)  # one per process, compared by identity: nothing more to compile
class Workspace:
    """What the commands of one process share: the data folder and the session last seen.

    A one-off command starts with nothing in memory; `referee shell` keeps one Workspace for
    all its lines, so each action uses the session in memory while its file is unchanged.
    """

    home: storage.Home = field(default_factory=home)
    known: storage.Loaded | None = None
    keeps_replays: bool = False  # the shell keeps its replay in memory, cached once on exit
    cache: storage.Cache = field(default_factory=storage.Cache.default)
    default_ref: str | None = None  # `referee -s NAME COMMAND`

    def path(self, ref: str | None) -> Path:
        """The file of the session `ref` names, else the one given before the command."""
        return storage.resolve(self.home, ref or self.default_ref)

    def load(self, ref: str | None) -> storage.Loaded:
        """The session `ref` names: the copy in memory if its file's bytes are unchanged."""
        path = self.path(ref)
        raw = storage.read_bytes(path, "session file")
        known = self.known
        if known is not None and known.path == path and known.digest == storage.digest_of(raw):
            return known
        # The shell keeps its replays in memory and caches one on exit; opening, it asks the
        # cache like any command (a long night opens as fast as a short one).
        cache = self.cache if known is None or not self.keeps_replays else None
        self.known = storage.load_bytes(path, raw, cache)
        return self.known

    def change(self, ref: str | None, change: storage.Change[Any]) -> storage.Saved[Any]:
        """Run a change of the session `ref` names under its lock, and remember the result."""
        path = self.path(ref)
        known = self.known if self.known is not None and self.known.path == path else None
        cache = None if self.keeps_replays else self.cache
        result = storage.transaction(path, change, cache, known)
        self.known = result.loaded
        return result


# ---------------------------------------------------------------------------- acting


def act(
    space: Workspace,
    wanted: games.GameInfo | None,
    command: str,
    ref: str | None,
    make_event: Callable[[Session, Any], Any],
) -> None:
    """Build an event against the live state, apply it, save it, show the ruling and card.

    The session must be of the game whose command this is: `referee liars bid` on a Kariki
    session is refused (exit 2, nothing written) before any event is made.
    """
    if wanted is not None:
        check_game(command, space.load(ref).session, wanted)  # before the lock: the usual slip

    def change(session: Session, state: Any) -> tuple[Session, Any, None]:
        if wanted is not None:
            check_game(command, session, wanted)  # and again under it: the file may have changed
        return (*append(session, state, make_event(session, state), at=storage.now()), None)

    result = space.change(ref, change)
    state = result.loaded.state
    ruling = games.module(result.session.game, "words").words(result.session.engine.ruling(state))
    draw_card(result.session, state, ruling)


def slip(command: str, session: Session, wanted: games.GameInfo) -> UsageError:
    """The one-line answer to a command of another game than the session's."""
    from referee.league import pool_title, session_pool

    have = pool_title(session_pool(session))  # Perudo by its own name
    typed = f"{wanted.name} {command}"
    return UsageError(
        f"session {quote(session.name)} is {have}: {quote(typed)} needs"
        f" a {wanted.title} session (referee new {wanted.name} ... or -s NAME)"
    )


def check_game(command: str, session: Session, wanted: games.GameInfo) -> None:
    """Refuse a command (`command`) of the game `wanted` on a session of another game."""
    if session.game != wanted.name:
        raise slip(command, session, wanted)


def undo_or_redo(space: Workspace, ref: str | None, command: str) -> None:
    """`undo` (take back the last event) or `redo` (put back an undone one), said above the
    card as a ruling is: wrapped at words, and counted when the card chooses full or compact,
    so the line never scrolls off a phone's screen."""
    from referee import session as sessions

    change = sessions.take_back if command == "undo" else sessions.redo
    result = space.change(ref, change)
    said = notation(result.session, result.value)
    if command == "undo":
        told = f"undid event {len(result.session.events) + 1}: {said}"
    else:  # what the event ruled, as when it was first entered
        number, state = len(result.session.events), result.loaded.state  # its ruling replayed
        ruled = games.module(result.session.game, "words").words(
            result.session.engine.ruling(state)
        )
        told = f"redid event {number}: {ruled or said}"
    draw_card(result.session, result.loaded.state, told)
    if command == "redo":  # what the action that made the event said under the card
        after(games.info(result.session.game), space)


def failed(error: BaseException) -> int | None:
    """The one line an error every path handles alike prints, and its exit code; None for
    any other error (which is the caller's)."""
    if isinstance(error, RefereeError):
        output.error_line(str(error))
        return error.exit_code
    if isinstance(error, KeyboardInterrupt):
        output.error_line("interrupted")
        return 130
    if isinstance(error, BrokenPipeError):  # the reader went away: the front door's to end
        return None  # quietly (`answers.closed_pipe`), not an error about a disk
    if isinstance(error, OSError):  # a disk problem no layer below turned into a StorageError
        output.error_line(str(StorageError(f"{error.strerror or error}")))
        return StorageError.exit_code
    return None


class Seated:
    """The session an action's event is made in (`games.actions.Table`): who acts, who is
    named."""

    def __init__(self, session: Session, state: Any) -> None:
        self.session = session
        self.state = state

    def actor(self, by: str | None) -> str:
        """`--by` (checked by the rules), else whoever is on turn."""
        return actor(self.session, self.state, by)

    def player(self, text: str) -> str:
        """The exact name of the player `text` names, by name or nickname."""
        return resolve_player(self.session, text, self.state)

    def newcomer(self, name: str) -> str:
        """A newcomer's name as the open night's roster spells it (`eve` is its `Eve`)."""
        return roster_spelling(home(), name)


def roster_spelling(home: Any, name: str) -> str:
    """`name` as the open night's roster spells it (as typed if no night is open or the roster
    has no such player)."""
    from referee.night import roster_name

    try:
        night = storage.open_night(home)
    except RefereeError:
        return name  # a night that cannot be read: `new` and the actions say so themselves
    return name if night is None else roster_name(night.night, name)


def maker(action: Any, values: dict[str, Any]) -> Callable[[Session, Any], Any]:
    """What an action's typed values make: they are read now (bad notation is refused before
    any session is read), the event against the live state under the lock."""
    typed = action.typed(values)
    return lambda session, state: action.make(typed, state, Seated(session, state))


def after(game: games.GameInfo, space: Workspace) -> None:
    """What a game says under the card once an action (or a redo) is done, if anything (its
    registry entry's `after`: Kiriki's line of what a ranked match did to KR)."""
    if game.after is None:
        return
    import importlib

    where, _, name = game.after.partition(":")
    getattr(importlib.import_module(where), name)(space)


def actor(session: Session, state: Any, by: str | None) -> str:
    """The player acting: `--by` (checked by the rules), else whoever is on turn."""
    if by is not None:  # `--by ""` names nobody: refused, not read as "whoever is on turn"
        return resolve_player(session, by, state)
    turn = session.engine.turn(state)
    if turn is None:
        result = session.engine.outcome(state)
        winners = " and ".join(result.winners) or "nobody"
        if result.provisional:  # one more event may still change it (a buy-back on offer)
            actions = " or ".join(repr(a) for a in session.engine.legal_actions(state))
            raise RuleViolation(f"the game is over: {winners} leads; {actions} the night")
        raise RuleViolation(f"the game is over: {winners} won")
    return turn


# ---------------------------------------------------------------------------- the card


def draw_card(
    session: Session,
    state: Any | None = None,
    ruling: str | None = None,
    full: bool | None = None,
    above: int = 0,
) -> None:
    """The ruling of the last action, then the score card: the full card when it fits the
    screen under the ruling (and `above` lines already printed), else the compact one (`full`
    chooses)."""
    if state is None:
        state = replay(session)
    from referee.house import phrases
    from referee.render.common import house_line, money_lines, wrapped_lines
    from referee.session import money, seated_players

    render = games.module(session.game, "render")
    width = output.width()
    house = house_line(phrases(session.game, session.ruleset), min(width, 40))
    kept = money(session, state)
    names = [p.name for p in seated_players(session, state)]
    paid = money_lines(kept, names, min(width, 40)) if kept is not None else []
    if full is None:
        used = above + (wrapped_lines(ruling, width) if ruling else 0) + (house is not None)
        used += len(paid)
        # Two lines of the screen are not ours: the line typed, and the prompt after the card.
        full = render.card_lines(state, width, session.name) + used <= output.height() - 2
    screens: list[Any] = [ruling] if ruling else []
    screens.append(render.card(state, session.name, width, compact=not full))
    screens += paid
    if house is not None:
        screens.append(house)
    output.draw(*screens)


# ---------------------------------------------------------------------------- reading


def show(
    space: Workspace,
    ref: str | None,
    json_out: bool = False,
    full: bool | None = None,
    totals: bool = False,
) -> None:
    """`referee show`: the score card (the whole one, the compact one, or what fits), its
    running totals (a game of rounds), or its summary as JSON."""
    loaded = space.load(ref)
    if json_out:
        from referee.house import summary

        doc = loaded.session.engine.summary(loaded.state)
        doc["session"] = loaded.session.name
        doc["house_rules"] = summary(loaded.session.game, loaded.session.ruleset)
        doc["money"] = money_doc(loaded.session, loaded.state)
        night, unreadable = storage.night_of(space.home, loaded.session.id)
        for line in unreadable:  # on stderr: the document stays one document
            output.warning_line(line)
        doc["night"] = night
        output.print_json(doc)
        return
    if totals:  # a view only games kept in rounds have: their renderer offers `totals_card`
        view = getattr(games.module(loaded.session.game, "render"), "totals_card", None)
        if view is None:
            raise UsageError(f"show --totals is for a game of rounds, not {loaded.session.game}")
        output.draw(view(loaded.state, loaded.session.name, output.width()))
        return
    draw_card(loaded.session, loaded.state, full=full)


def money_doc(session: Session, state: Any) -> dict[str, Any] | None:
    """A session's money for `show --json`: whole cents; null for a game played for nothing."""
    from referee.session import money, seated_players

    kept = money(session, state)
    if kept is None:
        return None
    purse, result = kept
    return {
        **purse.stakes.doc(),
        "pot": purse.pot,
        "paid": {p.name: purse.seat_paid(p.name) for p in seated_players(session, state)},
        "takes": dict(result.takes) if result else None,
        "transfers": [t._asdict() for t in result.transfers] if result else None,
        "nets": dict(result.nets) if result else None,
        "rounds_owed": list(result.rounds) if result else None,
    }


def front(space: Workspace) -> None:
    """A bare `referee`: the current (or named) session's card, or how to start one."""
    if not (space.default_ref or storage.current_ref(space.home)):
        output.print_wrapped(start_here())
        return
    loaded = space.load(None)
    draw_card(loaded.session, loaded.state)


def start_here() -> str:
    """What `referee` says with no session yet: how to start one, in no one game's words."""
    names = ", ".join(g.name for g in games.GAMES if g.has_sessions)
    return (
        "No session yet. Start one:\n"
        "  referee new GAME PLAYER...\n"
        f"Games: {names}.\n"
        "Then type each action as it happens:\n"
        "  referee GAME ACTION ...\n"
        "or play in one prompt: referee shell\n"
        "More: referee GAME --help"
    )
