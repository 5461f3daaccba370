"""`referee shell`: a prompt loop for a night at the bar.

Every line runs through the same Typer commands as `referee GAME ACTION ...`, so parsing, rules
and errors are the same; what the shell adds is the session kept in memory (a `Workspace`),
a prompt saying who acts and what they face, unique-prefix commands with "did you mean", help
from the engine's legal actions, completion from the command tree, and a history file.
A game plugs in with its CLI module's `SHELL` (see `ShellPlugin`); nothing here names a game.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from typer.main import get_command, get_command_name

from referee import games, storage
from referee.cli import output
from referee.cli.app import command_for, make_app, run
from referee.cli.common import ShellPlugin, Workspace
from referee.errors import RefereeError, UsageError, quote
from referee.games.actions import Actions
from referee.games.roster import ROSTER
from referee.text import pick, printable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from referee.cli.serve import Live

BUILTINS = {
    "show": "the score card (show --full, show --compact)",
    "log": "the history with each ruling",
    "undo": "take back the last event",
    "redo": "put it back",
    "help": "the actions open now; help ACTION explains one",
    "qr": "the live card's address and QR code again",
    "quit": "leave (also: exit, Ctrl-D)",
}
SHARED = ("show", "log", "undo", "redo")
ALIASES = {"exit": "quit", "q": "quit", "?": "help"}
ROSTER_WORDS = frozenset(a.name for a in Actions("every game", *ROSTER))
HISTORY_LINES = 1000
# Tab completes: GNU readline's syntax, and libedit's (macOS's Python links it as `readline`,
# and there GNU's line binds nothing, so Tab did nothing).
_TAB_BINDING = {False: "tab: complete", True: "bind ^I rl_complete"}


def _is_libedit(readline: object) -> bool:
    """Whether this `readline` is libedit's stand-in (it says so in its docstring)."""
    return "libedit" in (getattr(readline, "__doc__", None) or "")


HISTORY_BYTES = 1 << 20  # a history file past this is not ours to read

MAX_LINE = 4096  # characters: far past any move, far below what takes shlex long


def command_names(game: games.GameInfo) -> tuple[str, ...]:
    """The names of a game's commands as its group holds them (its actions, then its tools),
    without building any."""
    actions = tuple(a.name for a in games.load(game.name).actions) if game.has_sessions else ()
    tools = games.module(game.name, "cli").app.registered_commands
    return (*actions, *(c.name or get_command_name(c.callback.__name__) for c in tools))


def _explained(name: str, command: Any) -> str:
    """`help claim`: the usage (the words, then the options the action cannot do without),
    then the command's help."""
    usage = " ".join(
        [(p.metavar or p.human_readable_name) for p in command.params
         if p.param_type_name != "option"]
        + [f"{p.opts[0]} {p.metavar or p.name.upper()}" for p in command.params
           if p.param_type_name == "option" and p.required]
    )  # fmt: skip
    # A docstring's paragraphs are broken for the source's width: rejoin each one, so the
    # screen wraps it as one paragraph at any width.
    text = "\n\n".join(" ".join(p.split()) for p in (command.help or "").split("\n\n"))
    return f"{name} {usage.lower()}\n{text}".strip()


TYPING = 12  # the cells the prompt leaves to type in at least (`claim 6-6 --by ann`)


class Shell:
    """One session's prompt loop."""

    def __init__(self, ref: str | None) -> None:
        self.space = Workspace(keeps_replays=True)
        self.follows = ref is None  # opened on the current session: follow it when it moves
        self.live: Live | None = None  # `shell --serve`: the server on a thread of this process
        # Each game's Click tree, built when a line first needs it and kept for the night:
        # building commands from their signatures is most of what opening would cost.
        self._trees: dict[tuple[str, bool], Any] = {}  # (game, the table's own)
        self._open(storage.resolve(self.space.home, ref))
        # Opening asked the cache, which holds this replay now (it was found there, or kept
        # there when it was not): leaving without another one has nothing to keep.
        self._opened = self.space.known

    def _open(self, path: Any) -> None:
        self.path = path
        self.ref = str(self.path)
        loaded = self.space.load(self.ref)
        self.game = loaded.session.game
        cli = games.module(self.game, "cli")
        self.plugin: ShellPlugin = cli.SHELL
        # The game's command names, in its group's order, read without building a command:
        # enough to resolve a word (`quit`, a prefix) and to complete the first one.
        self.names = command_names(games.info(self.game))
        self.tools = {g.name: g for g in games.GAMES if g.name != self.game}

    @property
    def command(self) -> Any:
        """The Click tree the lines of this game run through: the shared commands the shell
        runs and this game's group (another game's tools get a tree of their own)."""
        return self._tree(self.game)

    @property
    def actions(self) -> dict[str, Any]:
        """The game's commands by name (built on first use)."""
        found: dict[str, Any] = self.command.commands[self.game].commands
        return found

    def _tree(self, game: str) -> Any:
        """The tree of the table's game (its group and the shared commands the shell runs),
        or of another game's tools (`kalooki check 5H 5D JK`): its commands only."""
        own = game == self.game
        key = (game, own)
        if key not in self._trees:
            app = make_app([games.info(game)], SHARED) if own else None
            self._trees[key] = get_command(app) if app else command_for([game])
        return self._trees[key]

    # ------------------------------------------------------------------ the loop

    def loop(self) -> int:
        """Read and run lines until quit or end of input.

        Piped, it exits with the code of the last refused line (a script's failure shows);
        typed, quitting is a success whatever was refused on the way.
        """
        interactive = sys.stdin.isatty()
        if interactive:
            self._readline()
            output.print_wrapped(
                f"{self.game} on {self.path.stem}: help lists what is open, quit leaves"
            )
            self.do("show")
        failed = 0
        while True:
            prompt = self.prompt()
            try:
                line = input(prompt) if interactive else sys.stdin.readline()
            except EOFError:
                if interactive:
                    output.print_text("")
                break
            except KeyboardInterrupt:
                output.print_text("")
                continue
            if not interactive:
                if not line:
                    break
                output.print_text(prompt + line.rstrip("\n"))
            code = self.do(line)
            if code is None:
                break
            failed = code or failed
        self._keep_cache()
        if interactive:
            self._save_history()
            return 0
        return failed

    def do(self, line: str) -> int | None:
        """Run one line; None means quit."""
        if len(line) > MAX_LINE:  # refused before parsing: shlex takes quadratic time
            output.error_line(
                f"line too long ({len(line)} characters): a shell line is at most {MAX_LINE}"
            )
            return 2
        line = line.strip()
        if not line or line.startswith("#"):
            return 0
        first = line.split()[0].lower()
        looks = first in ("q", "?") or any(
            len(first) > 1 and w.startswith(first)
            for w in ("show", "log", "help", "quit", "exit", "qr")
        )
        # Checked before the word is resolved (which reads the session as it is now): a line
        # typed for the card on screen never runs on a card another terminal changed.
        if not looks and self._changed_elsewhere():
            return 1
        try:
            words = self._names_as_one(self._own_game(split_line(line)))
            words = self._bare(words)
            head = self._other_game(words) or self._command(words[0])
            self._whole(words[0], head)
        except (ValueError, UsageError) as error:
            output.error_line(str(error))
            return 2
        if head == "quit":
            return None
        if head == "help":
            return self._help(words[1:])
        if head == "qr":
            return self._qr(words[1:])
        if head in self.tools:  # another game's tools (`kalooki check 5H 5D JK`); its actions
            # are refused by `common.act` in one line, and the shell goes on. An action is run on
            # this shell's session (so refused as a slip), never on whichever one is current.
            from referee.cli.moves import moves_of

            action = len(words) > 1 and words[1] in moves_of(self.tools[head])
            extra = ["--session", self.ref] if action else []
            return run([head, words[1], *extra, *words[2:]] if action else [head, *words[1:]],
                       self.space, self._tree(head))  # fmt: skip
        command = self.actions.get(head) or self.command.commands.get(head)
        argv = [head] if head in SHARED else [self.game, head]
        takes_session = any(p.name == "session" for p in getattr(command, "params", ()))
        if any(w in ("-s", "--session") or w.startswith("--session=") for w in words[1:]):
            output.error_line("the shell plays its own session: quit and open another for that")
            return 2
        if takes_session and self._names_a_session(command, words):
            typed = quote(" ".join(words[1:]))
            output.error_line(f"the shell plays its own session: {head} takes no name ({typed})")
            return 2
        # The session goes before the line's own words: an option typed without its value
        # (`lift --by`) is then told so, and never takes the session's path as its value.
        extra = ["--session", self.ref] if takes_session else []
        before = self._current() if self.follows else None
        code = run([*argv, *extra, *words[1:]], self.space, self.command)
        if self.follows:
            self._follow(before)
        return code

    @staticmethod
    def _names_a_session(command: Any, words: list[str]) -> bool:
        """Whether the line gives `show` or `log` a session of its own (`log zzz`, or `l 43`
        meant as another game's lift): the shell's session would win, silently."""
        if not any(p.name == "ref" for p in getattr(command, "params", ())):
            return False
        try:
            context = command.make_context(words[0], list(words[1:]), resilient_parsing=True)
        except Exception:  # a line Click cannot read: the run says why
            return False
        return context.params.get("ref") is not None

    def _qr(self, words: list[str]) -> int:
        """The live card's address and QR code: this shell's server, else one that another
        terminal runs (as `referee qr`)."""
        if words:
            output.error_line(f"qr takes no words: not {quote(' '.join(words))}")
            return 2
        if self.live is not None:
            self.live.show()
            return 0
        return run(["qr"], self.space, command_for(["qr"]))

    def _changed_elsewhere(self) -> bool:
        """Whether another terminal saved the session since this shell last saw it. Then the
        line is not run (it was typed for the old card): the card as it is now is shown, and
        the line can be typed again."""
        known = self.space.known
        if known is None or known.path != self.path:
            return False
        try:
            raw = storage.read_bytes(self.path, "session file")
        except RefereeError:
            return False  # the command itself says what is wrong with the file
        if storage.digest_of(raw) == known.digest:
            return False
        output.error_line(
            "the session changed in another terminal: here it is now; type the line again"
            " if it still holds"
        )
        run(["show", "--session", self.ref], self.space, self.command)
        return True

    def _current(self) -> Any:
        """The current session's file, if any."""
        try:
            return storage.resolve(self.space.home, None)
        except RefereeError:
            return None

    def _follow(self, before: Any) -> None:
        """A shell opened on the current session moves with it when a line of its own made
        another one current (a rematch); one opened on a named session stays there."""
        now = self._current()
        if self.follows and now is not None and now != before and now != self.path:
            try:
                self._open(now)
            except RefereeError:
                return
            output.print_text(f"now on {now.stem}")

    def _command(self, word: str) -> str:
        """The command `word` names: an alias or a name exactly; else a unique prefix among
        the actions open now (`r` is roll when roll is the only open action starting with r),
        then among the game's other commands and the shell's own. Another game is named in
        full or by its alias (`kalooki check 5H 5D JK`), never by a prefix, and only when no
        command of this game starts so: its commands never crowd this game's."""
        wanted = word.casefold()
        if wanted in ALIASES:
            return ALIASES[wanted]
        # join, leave and replace come last: open at almost any time and seldom typed, they
        # never take a short form (`r` for roll, `l` for log) from the game or the shell.
        open_now = tuple(a for a in self.open_actions() if a not in ROSTER_WORDS)
        rest = [*(a for a in self.names if a not in open_now and a not in ROSTER_WORDS), *BUILTINS]
        roster = [a for a in self.names if a in ROSTER_WORDS]
        declared = games.load(self.game).actions
        for tier in (open_now, rest, roster):
            starts = [n for n in tier if n.startswith(wanted)]
            if wanted in tier or not starts:
                if wanted in tier:
                    return wanted
                continue
            # an action typed only in full never takes a prefix from one that is not: `r` is
            # roll while resign is open too
            short = [n for n in starts if (found := declared.get(n)) is None or not found.whole]
            if len(starts) > 1 and len(short) == 1:
                return short[0]
            return pick(word, [(n, n) for n in tier], "command")
        other = games.BY_NAME.get(wanted)
        if other is not None and other.name != self.game:
            return other.name
        commands = (*open_now, *rest)
        try:  # a slip's "did you mean" never offers join, leave or replace (`clear`: leave?)
            # a miss lists every command, the shell's own last, however many the game has
            return pick(word, [(n, n) for n in commands], "command", listed=len(commands))
        except UsageError as unknown:
            from referee.cli.moves import owners_of

            owners = owners_of(word, self.game)
            if not owners and "did you mean" not in str(unknown) and open_now:
                # what is open, not the first twelve commands (closed ones among them)
                said = f"unknown command {quote(word)}: open now {', '.join(open_now)}"
                raise UsageError(f"{said}; help lists the rest") from None
            if not owners:
                raise
            theirs = " and ".join(g.title for g in owners)
            title = games.info(self.game).title
            hint = f": try {', '.join(open_now)}" if open_now else ""
            raise UsageError(f"{quote(word)} is an action of {theirs}, not {title}{hint}") from None

    def _names_as_one(self, words: list[str]) -> list[str]:
        """A player's whole name typed without quotes is one word: `leave Alexander Braun`,
        `claim 9 --by alexander braun` (in any case), as the scorekeeper meant it. The first
        word is the command's, never a name's: a player called "claim 9" took `claim 9`."""
        try:
            loaded = self.loaded()
        except RefereeError:
            return words
        from referee.session import seated_players
        from referee.text import name_key, unaccented

        names = [n for p in seated_players(loaded.session, loaded.state)
                 for n in (p.name, p.nickname) if n and len(n.split()) > 1]  # fmt: skip
        strict = {name_key(n) for n in names}
        loose: dict[str, int] = {}  # without accents: how many names read so
        for n in names:
            loose[unaccented(name_key(n))] = loose.get(unaccented(name_key(n)), 0) + 1

        def spells(run: list[str]) -> bool:  # a whole name, or one typed without its accents
            key = name_key(" ".join(run))
            plain = unaccented(key)
            return key in strict or (key == plain and loose.get(plain) == 1)

        sizes = sorted({len(n.split()) for n in names}, reverse=True)  # the longest name first
        found: list[str] = words[:1]  # the command itself is never a name (`claim 9`)
        at = 1
        while at < len(words):
            size = next((k for k in sizes if spells(words[at : at + k])), 1)
            found.append(" ".join(words[at : at + size]))
            at += size
        return found

    def _other_game(self, words: list[str]) -> str | None:
        """Another game named in full or by its alias and followed by one of its commands, as
        on the command line: `k claim 9` at a Kiriki table is Kariki's claim (refused as a slip
        of game), never a prefix of `kiriki` (which `k` alone still is)."""
        other = games.BY_NAME.get(words[0].casefold())
        if other is None or other.name == self.game or len(words) < 2:
            return None
        return other.name if words[1] in command_names(other) else None

    def _bare(self, words: list[str]) -> list[str]:
        """A line that names no command is the words of the game's bare action when it is
        what the prompt asks for, the first action open (`9` at `Dan claims>` is `claim 9`,
        `54` at `Ann rolls>` is `announce 54`; never at `Bob vs Nine>`, where `45` could be
        the dice of a pull); else the line as typed."""
        bare = self.plugin.bare
        open_now = self.open_actions()
        if bare is None or not open_now or open_now[0] != bare:
            return words
        try:
            self._command(words[0])
        except UsageError:
            declared = games.load(self.game).actions.get(bare)
            if declared is None or not declared.words:
                return words
            if words[0][:1].isdigit():  # never a command: the action says what is wrong
                return [bare, *words]
            try:  # only words that read as the action's (a typo of a command stays one)
                declared.typed({declared.words[0].name: words})
            except RefereeError:
                return words
            return [bare, *words]
        return words

    def _whole(self, typed: str, name: str) -> None:
        """An action that ends a round, a match or the night is typed in full: one letter
        (`s`, `k`) must never settle a night or score a point by a slip of the thumb."""
        if typed.casefold() == name:
            return
        declared = games.load(self.game).actions.get(name)
        if declared is not None and declared.whole:
            raise UsageError(f"type {name!r} in full: it ends {declared.whole}")

    def _own_game(self, words: list[str]) -> list[str]:
        """The words without a leading name of this game: `kariki claim 9` is `claim 9` at a
        Kariki table (but `kariki` alone, or with options, is Kariki's own `kariki` action)."""
        info = games.info(self.game)
        names = (info.name, *info.aliases)
        if len(words) > 1 and words[0].casefold() in names and not words[1].startswith("-"):
            return words[1:]
        return words

    # ------------------------------------------------------------------ what it shows

    def loaded(self) -> storage.Loaded:
        """The session, read again only if another terminal changed the file."""
        return self.space.load(self.ref)

    def open_actions(self) -> tuple[str, ...]:
        """The actions the engine says are open now (empty if the file cannot be read)."""
        try:
            loaded = self.loaded()
        except RefereeError:
            return ()
        return tuple(loaded.session.engine.legal_actions(loaded.state))

    def prompt(self) -> str:
        """Whose turn it is and what they face: `Bob vs Nine> `; on a narrow screen a long
        name gives way first, so TYPING cells are left to type in (`Maximilianus-Abc claims
        Double Sixes+> ` left one, and the typed line wrapped mid-word)."""
        try:
            loaded = self.loaded()
            said = printable(self.plugin.prompt(loaded.state))
        except RefereeError:
            return "(unreadable)> "
        from referee.render.cells import cut, cut_apart, width_of
        from referee.session import seated_players

        room = output.width() - TYPING - len("> ")
        over = width_of(said) - room
        names = [printable(p.name) for p in seated_players(loaded.session, loaded.state)]
        for name in sorted((n for n in names if n in said), key=width_of, reverse=True):
            if over <= 0:  # each long name in turn (Kalooki's `A and B won`), cut apart
                break  # from the others, so two Alexanders stay two (`…t`, `…n`)
            shorter = cut_apart(names, max(4, width_of(name) - over))[names.index(name)]
            said = said.replace(name, shorter, 1)
            over = width_of(said) - room
        return cut(said, max(room, 8), "…") + "> "

    def help(self, topic: str | None = None, sub: str | None = None) -> str:
        """The actions open now with what each does, or one command explained (`help claim`),
        or another game's commands (`help kal`, `help kal contract`)."""
        if topic:
            name = self._command(topic)
            if name in BUILTINS and name not in self.names:
                return f"{name}: {BUILTINS[name]}"
            if name in self.tools:
                return self._other_help(name, sub)
            command = self.actions.get(name) or self.command.commands.get(name)
            return _explained(name, command)
        open_now = self.open_actions()
        over = self._is_over()
        tools = [n for n in self.plugin.tools if n in self.actions]
        tools = [n for n in tools if over or n not in self.plugin.after]
        # one column for every what-it-does, as wide as the longest name (`contracts`)
        wide = max(8, *(len(n) for n in (*open_now, *tools, *BUILTINS)))
        lines = ["open now (a unique prefix does):"]
        lines += [f"  {n:<{wide}} {self._short(n)}" for n in (*open_now, *tools)]
        rest = [n for n in self.actions if n not in open_now and n not in tools]
        if rest:
            lines.append("not now: " + ", ".join(rest))
        lines.append("also:")
        lines += [f"  {n:<{wide}} {text}" for n, text in BUILTINS.items()]
        return "\n".join(lines)

    def _is_over(self) -> bool:
        """Whether the session's game is over (a rematch is then open)."""
        try:
            loaded = self.loaded()
        except RefereeError:
            return False
        return bool(loaded.session.engine.outcome(loaded.state).finished)

    def _other_help(self, game: str, sub: str | None) -> str:
        """Another game's commands, as typed here (`kalooki check 5H 5D JK`): one explained,
        or all with what each does; its tools work at this table, its actions need its own."""
        group = self._tree(game).commands[game]
        found = group.commands.get(sub.casefold()) if sub else None
        if found is not None:
            return _explained(f"{game} {found.name}", found)
        title = games.info(game).title
        lines = [f"{title}, typed '{game} COMMAND': its tools work here, its actions need a"
                 f" {title} session"]  # fmt: skip
        wide = max(len(n) for n in group.commands)
        lines += [f"  {n:<{wide}} {c.get_short_help_str(limit=200)}"
                  for n, c in group.commands.items() if not c.hidden]  # fmt: skip
        return "\n".join(lines)

    def _short(self, name: str) -> str:
        command = self.actions[name]
        return str(command.get_short_help_str(limit=200))

    def _help(self, words: list[str]) -> int:
        try:
            text = self.help(words[0] if words else None, words[1] if len(words) > 1 else None)
        except UsageError as error:
            output.error_line(str(error))
            return 2
        output.print_wrapped(text)
        return 0

    # ------------------------------------------------------------------ completion

    def complete(self, before: str, text: str) -> list[str]:
        """Completions for the word `text`, with `before` the line up to it."""
        words = before.split()
        if not words:
            open_now = self.open_actions()
            rest = [a for a in self.names if a not in open_now]
            candidates = [*open_now, *rest, *BUILTINS]
        else:
            try:
                name = self._command(words[0])
                loaded = self.loaded()
            except RefereeError:
                return []
            candidates = self._arguments(name, words[1:], loaded)
        wanted = text.casefold()
        return [c for c in dict.fromkeys(candidates) if c.casefold().startswith(wanted)]

    def _arguments(self, name: str, typed: list[str], loaded: storage.Loaded) -> list[str]:
        """What may come next after `typed`, from the command's own parameters."""
        command = self.actions.get(name)
        if command is None:
            return []
        options = [p for p in command.params if p.param_type_name == "option"]
        if typed and typed[-1].startswith("--"):
            param = next((p for p in options if typed[-1] in p.opts), None)
            return self._values(name, param.name if param else "", loaded)
        positional = [p for p in command.params if p.param_type_name == "argument"]
        given = len([w for i, w in enumerate(typed) if not w.startswith("-")
                     and not (i and typed[i - 1].startswith("--"))])  # fmt: skip
        flags = [o for p in options if p.name != "session" for o in p.opts if o.startswith("--")]
        if given < len(positional):
            return self._values(name, str(positional[given].name), loaded) or flags
        return flags

    def _values(self, command: str, param: str, loaded: storage.Loaded) -> list[str]:
        found = self.plugin.complete.get(f"{command}.{param}") or self.plugin.complete.get(param)
        return found(loaded.session, loaded.state) if found else []

    def _readline(self) -> None:
        try:
            import readline
        except ImportError:  # no readline (some phones): the shell works without completion
            return

        def completer(text: str, index: int) -> str | None:
            line = readline.get_line_buffer()[: readline.get_begidx()]
            found = self.complete(line, text)
            # CPython's readline adds no space after a completed word: each word brings its own.
            return found[index] + " " if index < len(found) else None

        def display(typed: str, matches: Sequence[str], longest: int) -> None:
            # GNU readline sorts what it lists; the shell's words come in their own order (the
            # ladder's ranks low to high, the open actions first), so it lists them itself
            line = readline.get_line_buffer()[: readline.get_begidx()]
            ours = [w + " " for w in self.complete(line, typed)]
            listed = [w for w in ours if w in matches] + [w for w in matches if w not in ours]
            sys.stdout.write("\n" + listing([w.strip() for w in listed], output.width()) + "\n")
            sys.stdout.write(self.prompt() + readline.get_line_buffer())
            sys.stdout.flush()

        readline.set_completer_delims(" \t\n")
        readline.set_completer(completer)
        if not _is_libedit(readline):  # libedit lists by itself (and has no such hook)
            readline.set_completion_display_matches_hook(display)
        readline.parse_and_bind(_TAB_BINDING[_is_libedit(readline)])
        readline.set_history_length(HISTORY_LINES)
        with contextlib.suppress(OSError):  # no history yet, or one that cannot be read
            history = self._history_file()
            # Only a small regular file of its own: never through a link, a pipe or a device
            # planted in a synced data folder.
            info = os.lstat(history)
            if stat.S_ISREG(info.st_mode) and info.st_size <= HISTORY_BYTES:
                readline.read_history_file(str(history))

    def _history_file(self) -> Path:
        return self.space.home.root / "shell_history"

    def _save_history(self) -> None:
        try:
            import readline

            storage.private_folder(self.space.home.root)
            # Written beside and put in place, so a link planted under the name is replaced,
            # never written through.
            storage.atomic_write(
                self._history_file(),
                lambda temp: readline.write_history_file(str(temp)),
                durable=False,
            )
        except (ImportError, OSError):  # a history that cannot be kept is no reason to fail
            pass

    def _keep_cache(self) -> None:
        """Leave the replay for the next command, which then starts without replaying.

        It is kept under the digest of the bytes it was replayed from (or saved as), never
        of the file as it is now: if another terminal wrote since, the entry simply misses.
        The replay the shell opened on is in the cache already (a long night's is megabytes
        of JSON to write again).
        """
        known = self.space.known
        if known is not None and known is not self._opened:
            self.space.cache.put(known)


def split_line(line: str) -> list[str]:
    """A line's words as `shlex` reads them, but an apostrophe between two letters is one of
    the name's letters (`pass --by O'Neil`), never a quote: the line was refused ("No closing
    quotation"), and `replace O'Neil D'Arcy` read one word, `ONeil DArcy`.

    >>> split_line("replace O'Neil 'D Arcy'"), split_line("leave o'neil's")
    (['replace', "O'Neil", 'D Arcy'], ['leave', "o'neil's"])
    """
    typed: list[str] = []
    quoted = ""  # the quote open at this character, if any
    escaped = False
    for k, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quoted != "'":
            escaped = True
        elif quoted:
            quoted = "" if char == quoted else quoted
        elif char == "'" and line[k - 1 : k].isalnum() and line[k + 1 : k + 2].isalnum():
            char = "\\'"  # in a word: a letter
        elif char in "'\"":
            quoted = char
        typed.append(char)
    return shlex.split("".join(typed))


def listing(words: list[str], width: int) -> str:
    """Completions in columns across a screen of `width`, in the order given."""
    if not words:
        return ""
    cell = max(len(w) for w in words) + 2
    per_line = max(1, width // cell)
    return "\n".join(
        "".join(w.ljust(cell) for w in words[i : i + per_line]).rstrip()
        for i in range(0, len(words), per_line)
    )
