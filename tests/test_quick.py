"""The quick path (`referee.cli.quick`): an action, `undo`, `redo`, `show` or a bare `referee`
read (by `referee.cli.line`, the one reader of the fast paths) and run without Typer.

- Every game's action commands have a `Move` whose shape is exactly its Typer command's
  (positional words, options, kinds, what is required), so the two readings cannot drift.
- Every bundled example, played line by line through the quick path and through the Typer app
  from the same file, prints the same bytes (stdout, stderr, exit code) and saves the same
  file, at 40 and 100 columns, with and without colour; so do the slips a scorekeeper makes.
- A line the quick path cannot read with certainty is left to the Typer app, untouched.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import SESSION_GAMES, Example, examples, session_file
from referee import games
from referee.cli import app, quick
from referee.cli.line import read
from referee.cli.moves import Move, moves_of

SCREENS = [("40", "NO_COLOR"), ("100", "FORCE_COLOR")]
KINDS = {
    "integer": "number",
    "int": "number",
    "str": "text",
    "text": "text",
    "boolean": "flag",
}  # Click type names
# A game's commands that are not actions (tools, a new match): the Typer app's alone.
NOT_ACTIONS = {"odds", "rematch", "check", "contract", "contracts", "score", "solve"}


def screen(monkeypatch: pytest.MonkeyPatch, columns: str, colour: str) -> None:
    """A screen of `columns`, with colour forced or turned off (`colour`: the variable)."""
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv(colour, "1")


def typer_command(game: games.GameInfo, name: str) -> object:
    """The Click command the Typer app builds for `referee GAME NAME`."""
    root = app.command_for([game.name, name])
    group = root.commands[game.name]
    return group.commands[name]


def shape_of_typer(command: object) -> tuple[list[tuple[str, str, bool]], set[tuple[str, ...]]]:
    """(positional words, options) of a Click command, in the terms of `cli.moves`."""
    words, options = [], set()
    for param in command.params:  # type: ignore[attr-defined]
        kind = param.type.name
        if param.param_type_name == "argument":
            shape = "words" if param.nargs == -1 else KINDS.get(kind, kind)
            words.append((param.name, shape, bool(param.required)))
        elif param.name != "session":
            shape = "flag" if param.is_flag else KINDS.get(kind, kind)
            options.add((*param.opts, param.name, shape, str(bool(param.required))))
    return words, options


def shape_of_move(move: Move) -> tuple[list[tuple[str, str, bool]], set[tuple[str, ...]]]:
    words: list[tuple[str, str, bool]] = [(w.name, w.kind, w.required) for w in move.words]
    options: set[tuple[str, ...]] = {
        (o.flag, o.name, o.kind, str(o.required)) for o in move.options
    }
    return words, options


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in SESSION_GAMES])
def test_every_action_has_a_move_of_its_typer_commands_shape(game: games.GameInfo) -> None:
    moves = moves_of(game)
    group = app.command_for([game.name]).commands[game.name]
    actions = set(group.commands) - NOT_ACTIONS
    assert set(moves) == actions
    for name, move in moves.items():
        assert shape_of_move(move) == shape_of_typer(typer_command(game, name)), name
        last = [w.kind for w in move.words[:-1]]
        assert "words" not in last, f"{name}: only the last word may take any number"


def play_both_ways(
    example: Example,
    lines: list[list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    beside: Path | None = None,
) -> int:
    """Play `lines` from the example's file through both paths, each in its own data folder
    (with `beside`, a file of another session, as `other`); assert every line prints and saves
    the same. Returns how many the quick path read."""
    monkeypatch.setenv("REFEREE_CLOCK", "2026-12-01T21:00:00+00:00")
    folders = {}
    for way in ("quick", "typer"):
        home = tmp_path / way
        target = session_file(home, "night")
        target.parent.mkdir(parents=True)
        shutil.copyfile(example.path, target)  # the same bytes (and id) both ways
        if beside is not None:
            shutil.copyfile(beside, session_file(home, "other"))
        (home / "current").write_text("night\n")
        folders[way] = (home, target)
    read = 0
    for argv in lines:
        seen = {}
        for way, (home, target) in folders.items():
            monkeypatch.setenv("REFEREE_HOME", str(home))
            monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
            capsys.readouterr()
            if way == "quick":
                code = quick.run(argv)
                if code is None:  # not read: nothing done, nothing said
                    assert capsys.readouterr() == ("", "")
                    code = app.run(argv)
                else:
                    read += 1
            else:
                code = app.run(argv)
            out, err = capsys.readouterr()
            here = str(home)  # a message naming a file of the folder names it alike
            seen[way] = (code, out.replace(here, "~"), err.replace(here, "~"), target.read_bytes())
        assert seen["quick"] == seen["typer"], argv
    return read


def slips(example: Example) -> list[list[str]]:
    """The lines a tipsy scorekeeper types: a wrong player, gibberish, another game's command,
    undo past the start, a line the quick path leaves to Click."""
    other = next(g for g in SESSION_GAMES if g.name != example.game)
    other_line = next(e for e in examples() if e.game == other.name).commands[0]
    first = example.commands[0]
    return [
        ["undo"],
        [*first, "--by", "Zed"],
        [example.game, first[1], "banana", "split"],
        other_line,
        [*first, "--help"],
        [example.game, first[1], "-s"],
        ["redo"],
        [],
        ["show", "--totals"],
        ["show", "--json", "-s", "night"],
    ]


@pytest.mark.parametrize(("columns", "colour"), SCREENS, ids=["40-plain", "100-colour"])
@pytest.mark.parametrize("example", examples(), ids=lambda e: e.path.stem)
def test_every_example_plays_the_same_through_both_paths(
    example: Example,
    columns: str,
    colour: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    screen(monkeypatch, columns, colour)
    undone = [["undo"]] * min(3, len(example.lines)) + [["redo"]] * 2
    played = play_both_ways(example, slips(example), tmp_path / "slips", monkeypatch, capsys)
    assert played >= 3  # undo, redo and another game's line at least went the quick way
    # From the start: every event the example holds, one line at a time, then undo and redo.
    start = tmp_path / "start.toml"
    shutil.copyfile(example.path, start)
    lines = [*example.commands, *undone]
    blank = Example(_emptied(start), example.game, example.new, example.lines)
    played = play_both_ways(blank, lines, tmp_path / "night", monkeypatch, capsys)
    assert played == len(lines)  # every real line was read by the quick path


def _emptied(path: Path) -> Path:
    """The example's file with its events (and undone events) taken out: the night's start."""
    from dataclasses import replace

    from referee import storage

    loaded = storage.load(path)
    storage.save(path, replace(loaded.session, events=(), undone=()))
    return path


@pytest.mark.parametrize(
    "line",
    [
        ["kariki", "claim", "9", "--help"],
        ["kariki", "claim", "-h"],
        ["kariki", "claim", "9", "--by"],
        ["kariki", "claim", "9", "--by", "--by"],
        ["kariki", "claim", "9", "--by", "Ann", "--by", "Bob"],
        ["kariki", "claim", "9", "-s", "a", "-s", "b"],
        ["-s", "a", "kariki", "claim", "9", "--session=b"],
        ["kariki", "-s", "a", "claim", "9"],  # the group takes no -s: Click says so
        ["kariki", "claim", "9", "--bogus"],
        ["kariki", "claim", "9", "-sfriday"],
        ["kariki", "claim", "9", "--", "x"],
        ["Kariki", "claim", "9"],
        ["kariki", "Claim", "9"],
        ["kariki", "odds", "9"],
        ["kariki"],
        ["kariki", "settle", "now"],
        ["kariki", "roll", "extra"],
        ["kiriki", "rolloff", "-5", "3"],
        ["kalooki", "tack", "Ann", "8S"],  # --on is required
        ["kalooki", "tack", "Ann", "8S", "--on", "x"],
        ["kalooki", "call", "Ann", "--refused=yes"],
        ["liars", "call", "-1"],
        ["liars", "bid"],
        ["undo", "now"],
        ["undo", "--by", "Ann"],
        ["-s"],
        ["-s", ""],
        ["-s", "--json"],
        ["show", "--help"],
        ["show", "a", "b"],
        ["show", "-s", "a", "b"],
        ["show", "--full", "--compact"],
        ["show", "--json", "--json"],
        ["log", "--last=5"],
        ["log", "--last", "-1"],
        ["stats", "-s", "a"],
        ["--version"],
        ["help"],
        ["new", "kariki", "Ann", "Bob"],
        ["ratings"],
    ],
    ids=lambda line: " ".join(line) or "(nothing)",
)
def test_a_line_it_cannot_read_with_certainty_is_left_to_click(line: list[str]) -> None:
    assert read(line) is None


@pytest.mark.parametrize(
    "variable",
    ["_REFEREE_COMPLETE", "_TYPER_COMPLETE_ARGS", "_TYPER_COMPLETE_FISH_ACTION"],
)
@pytest.mark.parametrize("line", [["kariki", "claim", "9"], ["show"], [], ["undo"]])
def test_completion_is_left_to_click(
    variable: str, line: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert read(line) is not None
    monkeypatch.setenv(variable, "complete_bash")
    assert read(line) is None


@pytest.mark.parametrize(
    ("line", "values", "ref"),
    [
        (["kariki", "claim", "9"], {"rank": ["9"], "by": None}, None),
        (
            ["k", "claim", "pair", "of", "kings"],
            {"rank": ["pair", "of", "kings"], "by": None},
            None,
        ),
        (["kariki", "claim", "--by=Ann", "9"], {"rank": ["9"], "by": "Ann"}, None),
        (["kariki", "claim", "--by", ""], {"rank": None, "by": ""}, None),
        (["-s", "fri", "kariki", "roll"], {"by": None}, "fri"),
        (["kariki", "roll", "--session=fri"], {"by": None}, "fri"),
        (["kariki", "claim", ""], {"rank": [""], "by": None}, None),
        (["kariki", "buyback"], {"player": None}, None),
        (
            ["kariki", "slash", "bob", "drop", "25"],
            {"player": "bob", "rule": "drop", "amount": 25, "seconds": None, "count": None},
            None,
        ),
        (["kiriki", "rolloff", "05", "3"], {"dice": ["05", "3"]}, None),
        (
            ["kalooki", "tack", "Ann", "8S", "--on", "2", "--swap"],
            {"player": "Ann", "card": "8S", "on": 2, "swap": True},
            None,
        ),
        (
            ["kalooki", "fix", "3", "Bob", "--points", "40"],
            {"round": 3, "player": "Bob", "cards": None, "points": 40},
            None,
        ),
        (
            ["liars", "call", "4", "--dice", "Ann=1,2"],
            {"count": "4", "hands": "Ann=1,2", "by": None},  # the event's field, --dice
            None,
        ),
        (["undo", "-s", "fri"], {}, "fri"),
        ([], {}, None),
        (["--session=fri"], {}, "fri"),
        (["show"], {}, None),
        (["-s", "fri", "show", "--json"], {"json_out": True}, "fri"),
        (["show", "fri", "--compact", "--totals"], {"full": False, "totals": True}, "fri"),
        (["log", "--last", "5", "--session", "fri"], {"last": 5}, "fri"),
        (["stats", "--vs", "Ann", "Bob", "--json"], {"vs": ("Ann", "Bob"), "json_out": True}, None),
    ],
    ids=lambda x: " ".join(x) if isinstance(x, list) else "",
)
def test_what_the_quick_path_reads(
    line: list[str], values: dict[str, object], ref: str | None
) -> None:
    found = read(line)
    assert found is not None
    assert (found.values, found.ref) == (values, ref)
    if found.move is not None:  # the values are the line's parameters, every one of them
        assert set(values) == {w.name for w in found.move.words} | {
            o.name for o in found.move.options
        }


def test_an_action_runs_without_typer_or_click(home: Path) -> None:
    """The quick path reads the line: an action, an undo and a redo load neither Typer nor
    Click (tomllib they do: a file read from its kept replay has its header parsed)."""
    import subprocess
    import sys

    from conftest import NAMES

    probe = (
        "import sys; from referee.cli import run; code = run(sys.argv[1:]);"
        " heavy = ('typer', 'click');"
        " bad = [m for m in sys.modules if m.split('.')[0] in heavy];"
        " print(code, bad, 'referee.cli.app' in sys.modules, file=sys.stderr)"
    )
    env = {"REFEREE_HOME": str(home), "XDG_CACHE_HOME": str(home.parent / "cache")}
    env.update(COLUMNS="40", NO_COLOR="1", PATH="/usr/bin:/bin")
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from referee.cli import run; run(['new', 'kariki', "
            f"{NAMES[0]!r}, {NAMES[1]!r}]); run(['show'])",
        ],
        env=env,
        check=True,
        capture_output=True,
    )  # fmt: skip  (a first run ever digests the code: hashlib)
    for line in (["kariki", "claim", "9"], ["undo"], ["redo"], ["kariki", "claim", "x"]):
        done = subprocess.run([sys.executable, "-c", probe, *line], env=env, capture_output=True,
                              text=True, check=False)  # fmt: skip
        assert done.stderr.splitlines()[-1] in ("0 [] False", "2 [] False"), (line, done.stderr)


def test_the_collector_is_back_for_the_ordinary_path_only(home: Path) -> None:
    import gc

    from referee.cli import run

    assert run(["new", "kariki", "Ann", "Bob"]) == 0
    try:
        gc.disable()  # as `answers.main` leaves it
        assert run(["kariki", "claim", "9"]) == 0
        assert not gc.isenabled()  # an action is a moment's work
        assert run(["rules", "list"]) == 0
        assert gc.isenabled()  # anything else may run a whole night
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("a" * 65, "too long: at most 64 characters"),
        ("café", "use plain letters a-z"),
        ("../x", "use plain letters a-z"),
    ],
)
def test_a_bad_session_name_says_why(name: str, why: str) -> None:
    from referee.errors import UsageError
    from referee.session import check_session_name

    with pytest.raises(UsageError, match=why):
        check_session_name(name)
    assert check_session_name("a" * 64) == "a" * 64


def test_the_typer_apps_helpers_are_still_reached_through_referee_cli() -> None:
    """Tools outside the package (../shared/tools/smoke_commands.py) call
    `referee.cli.command_for` and `make_app`; they moved to `cli.app` and must still be
    found where they were, loaded only when asked for."""
    from referee import cli

    assert cli.command_for is app.command_for
    assert cli.make_app is app.make_app
    assert cli.main is app.main
    with pytest.raises(AttributeError):
        cli.no_such_thing  # noqa: B018


@pytest.mark.parametrize("line", [["kariki", "claim", "9"], ["undo"]], ids=" ".join)
def test_ctrl_c_during_an_action_ends_it_as_the_typer_app_does(
    line: list[str],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Typer turns a KeyboardInterrupt inside a command into a silent exit 130; the quick
    path printed `error: interrupted` over it (Ctrl-C while waiting for another terminal's
    lock, say)."""
    from conftest import NAMES
    from referee.cli import acting

    assert app.run(["new", "kariki", *NAMES[:2]]) == 0
    assert app.run(["kariki", "claim", "9"]) == 0

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(acting.Workspace, "change", interrupted)
    capsys.readouterr()
    seen = []
    for way in (quick.run, app.run):
        code = way(line)
        seen.append((code, *capsys.readouterr()))
    assert seen[0] == seen[1] == (130, "", "")


ODD_LINES = [
    ["kariki", "claim", "--by=Ann", "9"],
    ["kariki", "claim", "9", "--by="],
    ["kariki", "claim", "9", "--by", ""],
    ["kariki", "claim", ""],
    ["kariki", "claim", "", ""],
    ["k", "claim", "９"],
    ["k", "claim", "nine", "--by", "ＡＮＮ"],
    ["k", "claim", "\udcff"],
    ["k", "pull", "4", "5", "6"],
    ["k", "slash", "bob", "drop", "9" * 18],
    ["k", "slash", "bob", "drop", "9" * 19],
    ["k", "slash", "bob", "9" * 18],
    ["k", "slash", "bob", "--count", "0"],
    ["k", "slash", "bob", "--count=000000000000000003"],
    ["k", "slash", "bob", "mug", "--seconds", "3"],
    ["-s", "night", "k", "roll"],
    ["k", "roll", "-s", "night"],
    ["k", "roll", "--session=night"],
    ["k", "roll", "--session="],
    ["-s", "", "k", "roll"],
    ["k", "roll", "-s", "other"],  # a session of another game
    ["k", "roll", "-s", "missing"],
    ["k", "roll", "-s", "/nowhere/at/all.toml"],
    ["k", "roll", "-s", "../night"],
    ["liars", "bid", "5x3", "-s", "night"],
    ["undo", "-s", "other"],
    ["--session=other", "redo"],
    ["k", "buyback", "--by", "Ann"],
    ["k", "settle"],
    [],
    ["-s", "other"],
    ["-s", "missing"],
    ["show"],
    ["show", "--full"],
    ["show", "--compact"],
    ["show", "--totals"],
    ["show", "other", "--json"],
    ["show", "-s", "../night"],
    ["show", "/nowhere/at/all.toml"],
]


@pytest.mark.parametrize(("columns", "colour"), SCREENS, ids=["40-plain", "100-colour"])
def test_odd_spellings_print_and_save_the_same_through_both_paths(
    columns: str,
    colour: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Options glued with `=` or left empty, empty and non-ASCII words, the longest number
    the quick path converts and one digit more, -s before and after, a session of another
    game, a missing one, a name that climbs out of the folder: the same bytes either way."""
    from dataclasses import replace

    from referee import storage

    screen(monkeypatch, columns, colour)
    (night,) = (e for e in examples() if e.path.stem == "kariki-night")
    other = next(e for e in examples() if e.game != "kariki")
    start = tmp_path / "start.toml"
    loaded = storage.load(night.path)
    storage.save(start, replace(loaded.session, events=loaded.session.events[:3], undone=()))
    lines = [*ODD_LINES, ["undo"], ["redo"], ["undo"], ["undo"], ["redo"]]
    blank = Example(start, "kariki", night.new, night.lines)
    read = play_both_ways(blank, lines, tmp_path / "odd", monkeypatch, capsys, other.path)
    assert read >= len(lines) // 2
