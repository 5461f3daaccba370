"""`referee --help` at 40 columns as exact text; the games' lines come from the registry, so a
new game shows up in it without this file being edited."""

from __future__ import annotations

import re

import pytest

from conftest import Runner
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
  sessions  List the sessions.
  use       Pick the current session.
  shell     Play a night in a prompt.
  export    Export a session.
  import    Import a JSON export.
  stats     Stats across sessions.
  delete    Delete a session.
  rename    Rename a session.
{commands}  rules     Bundled and own rulesets.
{games}  new       Start a session.
"""


def expected_help() -> str:
    """The help screen, with each game's line and each command a game adds, in registry order."""
    commands = [
        (name, str(getattr(games.module(g.name, "cli"), name).__doc__).splitlines()[0])
        for g in games.GAMES
        for name in g.commands
    ]
    rows = [(g.name, g.about) for g in games.GAMES]
    return SHARED.format(
        commands="".join(f"  {name:<9} {text}\n" for name, text in commands),
        games="".join(f"  {name:<9} {text}\n" for name, text in rows),
    )


def test_the_help_screen_is_exact_at_40_columns(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LINES", "24")
    result = referee("--help")
    shown = "\n".join(line.rstrip() for line in result.out.splitlines()) + "\n"
    assert result.code == 0 and shown == expected_help()
    assert not re.search(r"[a-z]\.\.\.|\u2026", shown)  # nothing cut off
    assert max(len(line) for line in shown.splitlines()) <= 40
