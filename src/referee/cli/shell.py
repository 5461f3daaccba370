"""`referee shell`: a prompt loop for a night at the bar.

Every line runs through the same Typer commands as `referee GAME ACTION ...`, so parsing, rules
and errors are the same; what the shell adds is the session kept in memory (a `Workspace`),
a prompt saying who acts and what they face, unique-prefix commands and tab completion.
A game plugs in by giving its CLI module a `SHELL` (see `ShellPlugin`).
"""

from __future__ import annotations

import importlib
import shlex
import sys
from typing import Any

from referee import storage
from referee.cli import GAME_APPS, command_for, output, run
from referee.cli.common import ShellPlugin, Workspace
from referee.errors import RefereeError, UsageError, quote

BUILTINS = {
    "show": "the score card",
    "log": "the history",
    "undo": "take back the last event",
    "redo": "put it back",
    "help": "this list",
    "quit": "leave (also: exit, Ctrl-D)",
}
SHARED = ("show", "log", "undo", "redo")


class Shell:
    """One session's prompt loop."""

    def __init__(self, ref: str | None) -> None:
        self.space = Workspace(keeps_replays=True)
        self.path = storage.resolve(self.space.home, ref)
        self.ref = str(self.path)
        loaded = self.space.load(self.ref)
        self.game = loaded.session.game
        module = importlib.import_module(GAME_APPS[self.game])
        self.plugin: ShellPlugin = module.SHELL
        self.command = command_for([self.game])  # built once: Typer builds it from signatures
        group = self.command.commands[self.game]
        self.actions: dict[str, str] = {
            name: (command.get_short_help_str(limit=29) if command else "")
            for name, command in getattr(group, "commands", {}).items()
        }

    # ------------------------------------------------------------------ the loop

    def loop(self) -> int:
        """Read and run lines until quit or end of input; the exit code of the last failure."""
        interactive = sys.stdin.isatty()
        if interactive:
            self._readline()
            output.print_text(f"{self.game} shell on {self.path.stem}: 'help' lists commands")
        failed = 0
        while True:
            prompt = self.prompt()
            try:
                line = input(prompt) if interactive else sys.stdin.readline()
            except EOFError:
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
        return failed

    def do(self, line: str) -> int | None:
        """Run one line; None means quit."""
        line = line.strip()
        if not line or line.startswith("#"):
            return 0
        try:
            words = shlex.split(line)
            head = self._command(words[0])
        except (ValueError, UsageError) as error:
            output.error_line(str(error))
            return 2
        if head == "quit":
            return None
        if head == "help":
            output.print_text(self.help())
            return 0
        argv = [head] if head in SHARED else [self.game, head]
        return run([*argv, *words[1:], "--session", self.ref], self.space, self.command)

    def _command(self, word: str) -> str:
        """The command `word` names: exact, an alias, or a unique prefix."""
        word = word.lower()
        aliases = {"exit": "quit", "q": "quit", "?": "help"}
        names = [*BUILTINS, *self.actions]
        if word in aliases:
            return aliases[word]
        if word in names:
            return word
        found = [n for n in names if n.startswith(word)]
        if len(found) == 1:
            return found[0]
        if found:
            raise UsageError(f"{quote(word)} could be {', '.join(found)}: type more letters")
        raise UsageError(f"unknown command {quote(word)}: try {', '.join(self.actions)} or help")

    # ------------------------------------------------------------------ what it shows

    def state(self) -> Any:
        """The session's state, read again only if another terminal changed the file."""
        return self.space.load(self.ref).state

    def prompt(self) -> str:
        """Whose turn it is and what they face: `Bob vs Nine> `."""
        try:
            return self.plugin.prompt(self.state()) + "> "
        except RefereeError:
            return "(unreadable)> "

    def help(self) -> str:
        """The commands of this shell, at 40 columns."""
        lines = [f"{self.game} actions (a unique prefix does):"]
        lines += [f"  {name:<8} {text}" for name, text in self.actions.items()]
        lines.append("also:")
        lines += [f"  {name:<8} {text}" for name, text in BUILTINS.items()]
        return "\n".join(lines)

    # ------------------------------------------------------------------ completion

    def complete(self, before: str, text: str) -> list[str]:
        """Completions for the word `text`, with `before` the line up to it."""
        words = before.split()
        if not words:
            candidates = [*self.actions, *BUILTINS]
        else:
            loaded = self.space.load(self.ref)
            try:
                command = self._command(words[0])
            except UsageError:
                return []
            candidates = self.plugin.words(loaded.session, loaded.state, [command, *words[1:]])
        wanted = text.lower()
        return [c for c in candidates if c.lower().startswith(wanted)]

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

        readline.set_completer_delims(" \t\n")
        readline.set_completer(completer)
        readline.parse_and_bind("tab: complete")

    def _keep_cache(self) -> None:
        """Leave the replay for the next command, which then starts without replaying.

        It is kept under the digest of the bytes it was replayed from (or saved as), never
        of the file as it is now: if another terminal wrote since, the entry simply misses.
        """
        if self.space.known is not None:
            self.space.cache.put(self.space.known)
