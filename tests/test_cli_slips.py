"""Issue 17: a command of another game than the session's is one clear line, never a crash.

Every pair is generated from the registry and the bundled examples: each game's actions (the
lines of its examples, so their arguments parse) on a session of every other game, one-off and
in the shell, answer exit 2 in one line and leave the file byte-identical.
"""

from __future__ import annotations

import io
import itertools
import shlex
from pathlib import Path

import pytest

from conftest import (
    SESSION_GAMES,
    Runner,
    examples,
    examples_of,
    fresh,
    session_file,
    snapshot,
)
from referee import games, storage
from referee.errors import RefereeError, RuleViolation

PAIRS = [
    pytest.param(actor, table, id=f"{actor.name}-on-{table.name}")
    for actor, table in itertools.permutations(SESSION_GAMES, 2)
]


def actions_of(game: games.GameInfo) -> list[list[str]]:
    """One command line for each action of `game` its examples use (arguments that parse)."""
    found: dict[str, list[str]] = {}
    for example in examples_of(game.name):
        for command in example.commands:
            found.setdefault(command[1], command)
    return list(found.values())


def test_every_game_with_sessions_has_examples_to_draw_actions_from() -> None:
    assert all(actions_of(g) for g in SESSION_GAMES)


def slip_line(actor: games.GameInfo, table: games.GameInfo, action: str) -> str:
    """What the slip answers, word for word (the issue's own example is its pattern)."""
    return (
        f"error: session 'friday' is {table.title}: '{actor.name} {action}' needs a"
        f" {actor.title} session (referee new {actor.name} ... or -s NAME)\n"
    )


@pytest.mark.parametrize(("actor", "table"), PAIRS)
def test_another_games_action_is_one_line_and_writes_nothing(
    referee: Runner, home: Path, actor: games.GameInfo, table: games.GameInfo
) -> None:
    assert referee(*fresh(table), "--name", "friday").code == 0
    path = session_file(home)
    before = snapshot(path)
    for command in actions_of(actor):
        for line in (command, [actor.aliases[0], *command[1:]] if actor.aliases else command):
            result = referee(*line)
            assert (result.code, result.err) == (2, slip_line(actor, table, command[1])), line
            assert result.out == ""
            assert snapshot(path) == before, line


@pytest.mark.parametrize(("actor", "table"), PAIRS)
def test_another_games_action_in_the_shell_is_the_same_line_and_the_shell_goes_on(
    referee: Runner,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    actor: games.GameInfo,
    table: games.GameInfo,
) -> None:
    assert referee(*fresh(table), "--name", "friday").code == 0
    path = session_file(home)
    before = path.read_bytes()
    commands = actions_of(actor)
    script = [shlex.join(c) for c in commands] + ["show --json"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script) + "\n"))
    result = referee("shell")
    assert result.err == "".join(slip_line(actor, table, c[1]) for c in commands)
    assert '"session": "friday"' in result.out  # the last line ran: the shell stayed open
    assert path.read_bytes() == before


@pytest.mark.parametrize("table", SESSION_GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize(
    "tool",
    [
        pytest.param(["kalooki", "check", "5H", "5D", "JK"], id="kalooki-check"),
        pytest.param(["kalooki", "contract", "1", "5H 5D JK / 6S 6C 6H"], id="kalooki-contract"),
        pytest.param(["kalooki", "score", "5H", "KD"], id="kalooki-score"),
        pytest.param(["kalooki", "solve", "1", "5H", "5D", "JK", "6S", "6C", "6H"],
                     id="kalooki-solve"),
        pytest.param(["kariki", "odds", "9"], id="kariki-odds"),
        pytest.param(["kiriki", "odds", "9"], id="kiriki-odds"),
        pytest.param(["liars", "odds", "3x4", "--dice", "10"], id="liars-odds"),
    ],
)  # fmt: skip
def test_tools_that_need_no_session_work_on_any_session(
    referee: Runner, home: Path, table: games.GameInfo, tool: list[str]
) -> None:
    assert referee(*fresh(table), "--name", "friday").code == 0
    before = snapshot(session_file(home))
    result = referee(*tool)
    assert result.code in (0, 1) and result.err == "", result  # a verdict, not a refusal
    assert snapshot(session_file(home)) == before


@pytest.mark.parametrize(("actor", "table"), PAIRS)
def test_an_engine_refuses_another_games_event_as_a_rule_not_a_crash(
    actor: games.GameInfo, table: games.GameInfo
) -> None:
    """Past the CLI (an import, a caller that forgot the check): the contract refuses it."""
    loaded = storage.load(examples_of(table.name)[0].path)
    foreign = storage.load(examples_of(actor.name)[0].path).session
    engine, other = games.load(table.name), games.load(actor.name)
    for data in foreign.events[:3]:
        event = other.event_from_dict({k: v for k, v in data.items() if k != "at"})
        with pytest.raises(RuleViolation, match="is not a move of this game"):
            engine.checked_apply(loaded.state, event)


@pytest.mark.parametrize(("actor", "table"), PAIRS)
def test_a_file_holding_another_games_event_names_its_number(
    referee: Runner, home: Path, actor: games.GameInfo, table: games.GameInfo
) -> None:
    """A hand edit or an import that puts another game's event in a file: a file error."""
    foreign = examples_of(actor.name)[0].path.read_text().splitlines()
    event = foreign[foreign.index("events = [") + 1]
    lines = examples_of(table.name)[0].path.read_text().splitlines()
    at = lines.index("events = [") + 3
    path = home / "edited.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines[:at], event, *lines[at:]]) + "\n")
    before = path.read_bytes()
    for command in (["show"], ["undo"], ["log"], [table.name, *shlex.split(
            examples_of(table.name)[0].lines[0])]):  # fmt: skip
        result = referee(*command, "-s", str(path))
        assert result.code in (2, 3), (command, result)
        assert result.err.count("\n") == 1 and "event 3:" in result.err, result.err
        assert path.read_bytes() == before
    with pytest.raises(RefereeError):
        storage.load(path)


def test_the_pairs_cover_every_example() -> None:
    assert {e.game for e in examples()} == {g.name for g in SESSION_GAMES}


@pytest.mark.parametrize(("actor", "table"), PAIRS)
def test_another_games_action_typed_without_its_game_says_whose_it_is(
    referee: Runner,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    actor: games.GameInfo,
    table: games.GameInfo,
) -> None:
    """`referee lift` or `lift` in a Kalooki shell: the word is no command here, and the one
    line says which games it belongs to and how to type it, and writes nothing."""
    from referee.cli.moves import moves_of

    assert referee(*fresh(table), "--name", "friday").code == 0
    path = session_file(home)
    before = snapshot(path)
    theirs = [
        c for c in actions_of(actor) if c[1] not in moves_of(table) and c[1] not in games.BY_NAME
    ]
    assert theirs  # every game has an action the other games have not
    for command in theirs:
        result = referee(*command[1:])
        assert result.code == 2 and result.err.count("\n") == 1, command
        assert result.err.startswith(f"error: No such command '{command[1]}'. It is an action of")
        assert (
            f"{actor.title}" in result.err
            and f"referee {actor.name} {command[1]} ..." in result.err
        )
    shouted = referee(theirs[0][1].upper(), *theirs[0][2:])  # a phone's caps lock
    assert "It is an action of" in shouted.err and actor.title in shouted.err, shouted
    assert snapshot(path) == before
    lines = [shlex.join(c[1:]) for c in theirs]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*lines, "show --json"]) + "\n"))
    result = referee("shell")
    said = result.err.splitlines()
    assert len(said) == len(theirs) and '"session": "friday"' in result.out
    for command, line in zip(theirs, said, strict=True):
        assert line.startswith(f"error: '{command[1]}' is an action of "), line
        assert f"{actor.title}" in line and line.split(", not ")[1].startswith(table.title)
    assert snapshot(path) == before


def test_an_error_at_a_terminal_wraps_in_cells_and_never_inside_a_name(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by a play-test at 40 columns: the error was wrapped by characters, so a line with
    # CJK names ran 45 cells and the terminal broke it mid-word (": try" alone, "To" / "m,"),
    # and textwrap parted "Alexandra-" from "Louise" at the hyphen.
    import sys

    from referee.render.cells import width_of

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "40")
    names = ["Zoë🍺", "王芳", "Alexandra-Louise", "Bob=Bobby", "Tom"]
    assert referee("new", "mia", *names, "--name", "m").code == 0
    result = referee("mia", "announce", "43", "--by", "王芳王芳王芳王芳")
    assert result.code == 2
    lines = result.err.splitlines()
    assert max(width_of(line) for line in lines) <= 40, lines
    assert "Alexandra-Louise," in result.err.split()
    result = referee("mia", "believe")
    assert result.err == "error: there is nothing to believe:\n  Zoë🍺 rolls and announces\n"
