"""`referee --help` at 40 columns as exact text; the games' lines come from the registry, so a
new game shows up in it without this file being edited."""

from __future__ import annotations

import re

import pytest

from conftest import Runner, every_game, fresh
from referee import games

SHARED = """\
Usage: referee [OPTIONS] COMMAND
               [ARGS]...

  Scorekeeper and referee for dice and
  card games played at a real table.

Options:
  -s, --session NAME  Session NAME or
                      PATH (default: the
                      current one).
  --version           Show the version.
  -h, --help          Show this message
                      and exit.

Commands:
  show      The score card.
  log       The history, with rulings.
  undo      Take back the last event.
  redo      Put back an undone event.
  join      A newcomer sits down.
  leave     A player leaves for good.
  replace   Someone takes a seat over.
  sessions  List the sessions.
  use       Pick the current session.
  shell     Play a night in a prompt.
  export    Export a session.
  import    Import a JSON export.
  stats     Stats across sessions.
  delete    Delete a session.
  rename    Rename a session.
  serve     The card, live on phones.
  qr        The live card's QR again.
  ratings   Ratings for every game.
  night     A night's games and money.
  season    A season's standings.
  rules     Bundled and own rulesets.
{games}  new       Start a session.
"""


def expected_help() -> str:
    """The help screen, with each game's line in registry order."""
    rows = [(g.name, g.about) for g in games.GAMES]
    return SHARED.format(games="".join(f"  {name:<9} {text}\n" for name, text in rows))


def test_the_help_screen_is_exact_at_40_columns(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LINES", "24")
    result = referee("--help")
    shown = "\n".join(line.rstrip() for line in result.out.splitlines()) + "\n"
    assert result.code == 0 and shown == expected_help()
    assert not re.search(r"[a-z]\.\.\.|\u2026", shown)  # nothing cut off
    assert max(len(line) for line in shown.splitlines()) <= 40


def actions_of(game: games.GameInfo) -> set[str]:
    """The names of a game's own commands (`claim`, `bid`, `check`): its actions and tools."""
    from referee.cli.app import game_app

    group = game_app(game, games.module(game.name, "cli").app)
    return {str(c.name or getattr(c.callback, "__name__", "")) for c in group.registered_commands}


SHARED_TEXTS = [
    pytest.param([], id="no-session"),
    pytest.param(["sessions"], id="no-sessions"),
    pytest.param(["show", "--help"], id="show-help"),
    pytest.param(["shell", "--help"], id="shell-help"),
    pytest.param(["log", "--help"], id="log-help"),
    pytest.param(["undo", "--help"], id="undo-help"),
]


@pytest.mark.parametrize("args", SHARED_TEXTS)
def test_shared_texts_speak_of_no_one_game(referee: Runner, args: list[str]) -> None:
    """No game's action appears in what every game's table reads (Kariki's `claim 9` would
    be a wrong hint at a Liar's dice table)."""
    names = {g.name for g in games.GAMES} | {"show", "undo", "redo", "log", "help", "score"}
    actions = set().union(*(actions_of(g) for g in games.GAMES)) - names
    shown = referee(*args).out
    assert shown.strip()
    found = {a for a in actions if re.search(rf"\b{a}\b", shown, re.I)}
    assert found == set(), shown


@pytest.mark.parametrize("game", every_game())
def test_the_shell_help_lists_only_the_games_own_commands(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, game: games.GameInfo
) -> None:
    import io

    from referee.cli.shell import BUILTINS

    assert referee(*fresh(game), "--name", "friday").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n"))
    shown = referee("shell").out
    listed = set(re.findall(r"^  (\w+) ", shown, re.M))
    later = re.search(r"^not now: (.*?)\nalso:", shown, re.M | re.S)
    listed |= set(re.findall(r"\w+", later.group(1))) if later else set()
    assert listed and listed <= actions_of(game) | set(BUILTINS), shown
