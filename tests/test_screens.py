"""Every screen fits a 40-column phone (CLI.md); wider terminals use the room."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import SESSION_GAMES, Runner, examples_of
from referee.games import GameInfo

NIGHT = str(Path(__file__).parents[1] / "examples" / "kariki-night.toml")
EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
HAND = "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 5D 6C 7C JK JK JK"

SCREENS = [
    ["--help"], ["new", "--help"], ["kariki", "--help"], ["kariki", "slash", "--help"],
    ["kalooki", "--help"], ["rules", "--help"], ["shell", "--help"],
    ["show"], ["kariki", "claim", "9"], ["kariki", "pass"], ["log"], ["undo"],
    ["sessions"], ["rules", "list"], ["rules", "show", "kariki"], ["rules", "show", "kalooki"],
    ["show", "-s", NIGHT], ["log", "-s", NIGHT],
    ["kalooki", "contracts"], ["kalooki", "check", "KD", "AD", "2D", "3D"],
    ["kalooki", "check", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JK"],
    ["kalooki", "score", *HAND.split()], ["kalooki", "solve", "9", *HAND.split()],
    ["kalooki", "contract", "2", "5H 5D JK / 5S 5C 5H / 9S 10S JS QS"],
    ["kalooki", "contract", "9", "7S 8S 9S 10S / 5D 6D 7D 8D / JK 10C JC QC / AH 2H JK 4H 5H"],
]  # fmt: skip


@pytest.mark.parametrize("args", SCREENS, ids=[" ".join(a)[:40] for a in SCREENS])
def test_every_screen_fits_40_columns(referee: Runner, args: list[str]) -> None:
    assert referee("new", "kariki", "Annabelle=Bella", "Bob", "Cy", "Dee", "Eve").code == 0
    assert referee("kariki", "claim", "9").code == 0
    result = referee(*args)
    assert result.code in (0, 1), result
    assert result.out.strip()
    too_long = [line for line in result.out.splitlines() if len(line.rstrip()) > 40]
    assert too_long == []


def test_redo_fits_40_columns(referee: Runner) -> None:
    referee("new", "kariki", "Annabelle=Bella", "Bob", "Cy", "Dee", "Eve")
    referee("kariki", "claim", "9")
    referee("undo")
    result = referee("redo")
    assert result.code == 0 and max(len(line.rstrip()) for line in result.out.splitlines()) <= 40


@pytest.mark.parametrize("width", ["80", "120"])
def test_wide_terminals_lay_the_crosses_side_by_side(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, width: str
) -> None:
    narrow = referee("show", "--full", "-s", NIGHT).out.splitlines()
    monkeypatch.setenv("COLUMNS", width)
    wide = referee("show", "--full", "-s", NIGHT).out.splitlines()
    assert len(wide) < len(narrow)
    assert max(len(line.rstrip()) for line in wide) <= int(width)
    names_row = next(line for line in wide if "Ann (Ace)" in line)
    assert "Bob" in names_row and ("Dee" in names_row) == (width == "120")  # 3 or 4 a row


HELPS = [
    ["--help"], ["new", "--help"], ["new", "kariki", "--help"], ["kariki", "--help"],
    ["kariki", "slash", "--help"], ["kalooki", "--help"], ["rules", "--help"], ["show", "--help"],
    ["log", "--help"], ["sessions", "--help"], ["shell", "--help"], ["night", "--help"],
    ["night", "start", "--help"], ["night", "settle", "--help"], ["night", "end", "--help"],
    ["night", "drink", "--help"],
]  # fmt: skip


@pytest.mark.parametrize("args", HELPS, ids=" ".join)
def test_help_at_40_columns_is_never_cut_off(referee: Runner, args: list[str]) -> None:
    import re

    result = referee(*args)
    assert result.code == 0
    assert not re.search(r"[a-z]\.\.\.|\u2026", result.out), result.out  # Click cuts with "..."
    assert max(len(line.rstrip()) for line in result.out.splitlines()) <= 40


AFTER_AN_ACTION = [
    pytest.param(["new", "kariki", "A", "B", "C", "D", "E", "F"], ["kariki", "claim", "9"],
                 "A claims Nine", "B faces Nine", id="kariki-6"),
    pytest.param(["new", "liars", "A", "B", "C", "D", "E", "F", "G", "H"], ["liars", "bid", "5x3"],
                 "A bids five threes", "raises", id="liars-8"),
    pytest.param(["new", "kiriki", "Ann", "Bob", "--first", "Ann"], ["kiriki", "claim", "9"],
                 "Ann claims 9", "Bob: lift, believe or roll", id="kiriki"),
    pytest.param(["new", "kalooki", "A", "B", "C", "D", "E", "F"],
                 ["kalooki", "down", "C", "7H 7S 7D / 8C 8S 8D / 9H 9S JK"], "C lays down",
                 "R1 333 (3 threes), A deals\ndown: C", id="kalooki-6"),
]  # fmt: skip


@pytest.mark.parametrize(("start", "action", "ruling", "status"), AFTER_AN_ACTION)
def test_after_an_action_everything_fits_a_phone_with_its_keyboard_open(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    start: list[str],
    action: list[str],
    ruling: str,
    status: str,
) -> None:
    """40x24 with a prompt below: at most 23 lines, the ruling first, the status last."""
    monkeypatch.setenv("LINES", "24")
    assert referee(*start, "--name", "s").code == 0
    result = referee(*action)
    lines = result.out.rstrip("\n").splitlines()
    assert result.code == 0 and len(lines) <= 23, result.out
    assert lines[0].startswith(ruling), lines[0]
    assert status in "\n".join(lines[-3:]), lines[-3:]
    assert max(len(line) for line in lines) <= 40


@given(st.text(alphabet=" \tab\n-漢é", max_size=120), st.integers(min_value=2, max_value=60))
def test_a_text_is_counted_in_the_lines_rich_prints_it_in(text: str, columns: int) -> None:
    import io

    from rich.console import Console
    from rich.text import Text

    from referee.render.common import wrapped_lines

    out = io.StringIO()
    console = Console(file=out, width=columns, no_color=True, legacy_windows=False)
    for line in text.splitlines():
        console.print(Text(line))  # as output.draw prints a ruling, one line at a time
    assert wrapped_lines(text, columns) == out.getvalue().count("\n")


PIPED_TABLES = [
    pytest.param(g, ["new", g.name, *EIGHT[: min(8, g.max_players)]], id=g.name)
    for g in SESSION_GAMES
]


@pytest.mark.parametrize(("game", "new"), PIPED_TABLES)
def test_into_a_pipe_lines_carry_no_padding(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, game: GameInfo, new: list[str]
) -> None:
    """`show` and `log` padded their lines with spaces into pipes and files: at 80 columns a
    big table's card and Kiriki's card are laid out in padded columns."""
    monkeypatch.setenv("COLUMNS", "80")
    assert referee(*new, "--name", "friday").code == 0
    example = examples_of(game.name)[0]
    for command in example.commands[:6]:
        referee(*command)  # as far as this table follows the example; refusals are fine
    assert referee("log", "--json").out != "[]\n"
    for args in (["show"], ["show", "--full"], ["show", "--compact"], ["log"],
                 ["show", "-s", str(example.path)], ["log", "-s", str(example.path)]):  # fmt: skip
        out = referee(*args).out
        assert out and [line for line in out.splitlines() if line != line.rstrip()] == [], args


def test_export_help_is_not_cut_into_pieces(referee: Runner) -> None:
    """The formats' metavar took Click's whole first column: its help wrapped at 10 cells."""
    shown = referee("export", "--help").out
    assert "  -f, --format FORMAT  csv, json, md," in shown
