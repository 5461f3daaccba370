"""Issue 9: the Kariki screens as exact text (40x24 unless said), from a phone's view.

Each case plays a few commands, then checks one command's whole output, trailing spaces
stripped. A cut-off "..." anywhere fails (the help at 40 columns included).
"""

from __future__ import annotations

import re

import pytest

from conftest import Runner

TWO = ["new kariki Ann=Ace Bob --name two", "kariki claim 9", "kariki slash bob --count 7"]
FIVE = [
    "new kariki Ann=Ace Bob Cy=Sly Dee Eve --name five",
    "kariki kariki",
    "kariki claim 66",
    "kariki pull 6-6",
    "kariki slash Cy --count 20",
]
SIX = [
    "new kariki Ann=Ace Bob Cy=Sly Dee Eve Fay --name six --buy-in 2",
    "kariki slash Eve --count 12",
    "kariki claim 9",
    "kariki pass",
]

SCREENS = [
    pytest.param(TWO, 'show --compact', '40', '''\
KARIKI two                         pot 2
  Ann (Ace)        .....        $1
> Bob              //... |      $1
Bob faces Nine: roll / pull / pass
Ann answers for it
''', id='compact-2'),
    pytest.param(TWO, 'show --full', '40', '''\
KARIKI two                         pot 2
  Ann (Ace)
    .    berries 0/5
  .-+-.
    .
> Bob
    /    berries 2/5
  .-+-/  slashes |
    .
/ slashes
paid: Ann 1, Bob 1
Bob faces Nine: roll / pull / pass
Ann answers for it
''', id='full-2-at-40'),
    pytest.param(FIVE, 'show --compact', '40', '''\
KARIKI five                        pot 5
> Ann (Ace)        .....    K1  $1
  Bob              KP...        $1
  Dee              .....        $1
  Eve              .....        $1
OUT: Cy (bar)
Ann rolls fresh
Cy may buy back: buyback Cy (5)
''', id='compact-5'),
    pytest.param(FIVE, 'show --full', '100', '''\
KARIKI five                                                            pot 5
> Ann (Ace)                 Bob                       Cy (Sly)
    .    berries 0/5          K    berries 2/5        OUT - bartender/DJ
  .-+-.                     .-+-P                       /    berries 5/5
    .    crowns 1             .                       /-/-/
                                                        /
  Dee                       Eve
    .    berries 0/5          .    berries 0/5
  .-+-.                     .-+-.
    .                         .
P bad pull  / slashes  K kariki
paid: Ann 1, Bob 1, Cy 1, Dee 1, Eve 1
Ann rolls fresh
Cy may buy back: buyback Cy (5)
''', id='full-5-at-100'),
    pytest.param(SIX, 'kariki slash Eve drop 25', '40', '''\
Eve: 3 slashes (drop): 1 berry; Eve is
OUT (bartender/DJ). Buy back: buyback
Eve (12, pot 24)
KARIKI six                        pot 12
  Ann (Ace)        .....        $2
  Bob              .....        $2
> Cy (Sly)         .....        $2
  Dee              .....        $2
  Fay              .....        $2
OUT: Eve (bar)
Cy faces Nine: roll / pull / pass
Bob answers for it; passed: Bob
Eve may buy back: buyback Eve (12)
''', id='compact-6-after-an-action'),
    pytest.param([], '--help', '40', '''\
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
  serve     The card, live on phones.
  ratings   Kiriki KR ratings.
  rules     Bundled and own rulesets.
  kariki    Kariki (alias k).
  liars     Liar's dice (alias ld).
  kiriki    Kiriki (alias kr).
  kalooki   Kalooki (alias kal).
  new       Start a session.
''', id='help-at-40'),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "command", "columns", "expected"), SCREENS)
def test_screens_are_exact(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    setup: list[str],
    command: str,
    columns: str,
    expected: str,
) -> None:
    monkeypatch.setenv("LINES", "24")
    for line in setup:
        assert referee(*line.split()).code == 0, line
    monkeypatch.setenv("COLUMNS", columns)
    result = referee(*command.split())
    shown = "\n".join(line.rstrip() for line in (result.out + result.err).splitlines()) + "\n"
    assert shown == expected
    assert not re.search(r"[a-z]\.\.\.|\u2026", shown)  # nothing cut off
    assert max(len(line) for line in shown.splitlines()) <= int(columns)
