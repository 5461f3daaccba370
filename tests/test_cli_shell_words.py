"""Issue 17: the shell's short forms follow the game on the table. A word resolves first among
the actions open now, then among the game's other commands and the shell's own; another
game's commands are never candidates (only its full name or alias reaches its tools)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from conftest import SESSION_GAMES, Runner, every_game, fresh, session_file
from referee import games
from referee.cli.shell import BUILTINS, Shell
from referee.errors import UsageError


def own_words(shell: Shell) -> set[str]:
    """Everything a word may resolve to at this table without naming another game."""
    return set(shell.actions) | set(BUILTINS) | {"quit"}


@pytest.mark.parametrize("game", every_game())
def test_no_prefix_of_another_game_is_a_candidate(referee: Runner, game: games.GameInfo) -> None:
    assert referee(*fresh(game), "--name", "friday").code == 0
    shell = Shell("friday")
    for other in SESSION_GAMES:
        if other is game:
            continue
        for word in {other.name[:n] for n in range(1, len(other.name))}:
            try:
                found = shell._command(word)
            except UsageError as error:
                assert other.name not in str(error), (word, str(error))
                continue
            named = games.BY_NAME.get(word)  # an alias in full (`k`) names its game
            assert found in own_words(shell) or (named and found == named.name), (word, found)
        for name in (other.name, *other.aliases):  # named in full: its tools are reachable,
            mine = any(w.startswith(name) for w in own_words(shell))  # unless this game's word
            assert shell._command(name) == other.name or mine, name


@pytest.mark.parametrize(
    ("start", "lines", "word", "resolves"),
    [
        pytest.param(["new", "kiriki", "Ann", "Bob", "--first", "Ann"], ["claim 9"], "l", "lift",
                     id="kiriki-l-facing-a-claim-is-lift"),
        pytest.param(["new", "kariki", "Ann", "Bob"], ["claim 9"], "k", "kariki",
                     id="kariki-k-facing-a-claim-is-kariki"),
        pytest.param(["new", "kariki", "Ann", "Bob"], ["claim 9"], "l", "log",
                     id="kariki-l-is-log-not-liars"),
        pytest.param(["new", "liars", "Ann", "Bob"], [], "ka", None,
                     id="liars-ka-is-no-game"),
        pytest.param(["new", "liars", "Ann", "Bob"], [], "k", "kariki",
                     id="liars-k-is-karikis-alias"),
        pytest.param(["new", "liars", "Ann", "Bob"], [], "kal", "kalooki",
                     id="liars-kal-is-kalookis-alias"),
        pytest.param(["new", "kariki", "Ann", "Bob"], ["claim 9"], "p", "'p' could be pull, pass",
                     id="kariki-p-is-still-ambiguous-among-open-actions"),
    ],
)  # fmt: skip
def test_short_forms_at_a_table(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    start: list[str],
    lines: list[str],
    word: str,
    resolves: str | None,
) -> None:
    assert referee(*start, "--name", "friday").code == 0
    for line in lines:
        assert referee(start[1], *line.split()).code == 0
    shell = Shell("friday")
    if resolves is None or " " in resolves:
        with pytest.raises(UsageError) as refused:
            shell._command(word)
        assert resolves is None or resolves in str(refused.value)
        assert not any(g.name in str(refused.value) for g in games.GAMES if g.name != start[1])
    else:
        assert shell._command(word) == resolves


@pytest.mark.parametrize("game", every_game())
def test_the_tables_own_game_name_before_an_action_is_the_action(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, game: games.GameInfo
) -> None:
    """`kariki claim 9` typed at a Kariki table is `claim 9` (a habit from one-off commands)."""
    assert referee(*fresh(game), "--name", "friday").code == 0
    shell = Shell("friday")
    assert shell._own_game([game.name, "x", "y"]) == ["x", "y"]
    for alias in game.aliases:
        assert shell._own_game([alias, "x"]) == ["x"]
    assert shell._own_game([game.name]) == [game.name]  # alone: Kariki's own `kariki` action
    assert shell._own_game([game.name, "--by", "Ann"]) == [game.name, "--by", "Ann"]


def test_a_kariki_line_typed_in_full_in_a_kariki_shell_plays(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "friday").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("kariki claim 9\nk pass\n"))
    result = referee("shell")
    assert result.code == 0 and result.err == "", result
    assert "Ann claims Nine" in result.out and "Bob passes" in result.out


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("lift --by", id="an-option-without-its-value"),
        pytest.param("announce 51 --by", id="after-a-value"),
    ],
)
def test_an_option_without_its_value_never_takes_the_sessions_path(
    referee: Runner, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    shell = Shell("friday")
    capsys.readouterr()
    assert shell.do(line) == 2
    err = capsys.readouterr().err
    assert "requires an argument" in err and "friday.toml" not in err and "/" not in err


def test_the_shell_keeps_to_its_own_session(
    referee: Runner, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert referee("new", "mia", "Ann", "Bob", "--name", "other").code == 0
    assert referee("new", "mia", "Ann", "Bob", "--name", "friday").code == 0
    files = [session_file(home, n).read_bytes() for n in ("other", "friday")]
    shell = Shell("friday")
    capsys.readouterr()
    assert shell.do("announce 54 -s other") == 2
    assert "own session" in capsys.readouterr().err
    assert [session_file(home, n).read_bytes() for n in ("other", "friday")] == files


def test_a_save_from_another_terminal_stops_the_next_line(
    referee: Runner, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line typed for the card on screen is not run on a card another terminal changed: the
    shell shows the card as it is now, and the line can be typed again."""
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    shell = Shell("friday")
    assert shell.do("announce 43") == 0
    assert referee("mia", "lift", "31", "-s", "friday").code == 0  # the other terminal
    saved = session_file(home, "friday").read_bytes()
    capsys.readouterr()
    assert shell.do("announce 54") == 1
    said = capsys.readouterr()
    assert "changed in another terminal" in said.err and "MIA" in said.out
    assert session_file(home, "friday").read_bytes() == saved  # nothing was run on it
    assert shell.do("announce 54") == 0  # typed again: it holds, on the card as it is now


@pytest.mark.parametrize("game", every_game())
def test_an_unknown_word_says_what_is_open_now_and_where_the_rest_is(
    referee: Runner, game: games.GameInfo
) -> None:
    """Kalooki's hint stopped at twelve commands (its actions and tools), before show, log,
    undo, help and quit, and every game's listed closed commands among the open ones: a miss
    names what is open now and that `help` lists the rest (which lists the shell's own)."""
    assert referee(*fresh(game), "--name", "friday").code == 0
    shell = Shell("friday")
    with pytest.raises(UsageError) as error:
        shell._command("frob")
    said = str(error.value)
    opened = [a for a in shell.open_actions() if a not in {"join", "leave", "replace"}]
    assert said == f"unknown command 'frob': open now {', '.join(opened)}; help lists the rest"
    assert all(f"  {name} " in shell.help() for name in BUILTINS)


@pytest.mark.parametrize("game", every_game())
def test_help_lists_what_each_command_does_in_one_column(
    referee: Runner, game: games.GameInfo
) -> None:
    """`contracts` (nine letters) pushed its line one column past the others."""
    assert referee(*fresh(game), "--name", "friday").code == 0
    listed = re.findall(r"^  (\S+ +)\S", Shell("friday").help(), re.M)  # "  name  does..."
    assert len(listed) > len(BUILTINS) and len({len(name) for name in listed}) == 1, listed


def kalooki_help(referee: Runner, monkeypatch: pytest.MonkeyPatch, topic: str) -> str:
    assert referee("new", "kalooki", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(f"help {topic}\n"))
    return referee("shell").out.partition(f"> help {topic}\n")[2]


def test_kalooki_help_names_a_round_one_way(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`help solve` read `solve round_number cards ... round ROUND's contract`."""
    assert kalooki_help(referee, monkeypatch, "solve").startswith(
        "solve round cards\nCan this hand make it?\n\nFinds the lay-down of round ROUND's"
    )
    usage = referee("kalooki", "contract", "--help").out
    assert "{ROUND} {MELDS}" in usage and "round_number" not in usage.lower()


def test_kalooki_help_tack_gives_an_example(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert kalooki_help(referee, monkeypatch, "tack") == (
        "tack player card --on n\n"
        "Tack a card on a meld.\n"
        "\n"
        "By the tack order and the joker rules:\n"
        "  'tack Cy 9S --on 3'. --swap puts in\n"
        "  the card a joker stands for, and the\n"
        "  joker moves to the end: 'tack Cy 5D\n"
        "  --on 1 --swap'.\n"
    )
