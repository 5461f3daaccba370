"""`card_lines` of every game is what the full card takes as drawn, at any width a screen may
have (20 columns up) and with names of wide characters: the CLI shows the full card only when
it fits under the ruling, so a count short of the truth scrolls the ruling off a phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee import games
from referee.render.share import card_text
from referee.session import initial, states
from referee.storage.codec import parse_session

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))
WIDE = {"Ann": "安妮", "Bob": "鲍勃鲍勃", "Rosa": "罗莎罗莎罗", "Tomas": "托马斯托马斯"}


def nights(wide: bool) -> list[tuple[str, object, list[object]]]:
    found = []
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        if wide:
            for name, other in WIDE.items():
                text = re.sub(rf"\b{name}\b", other, text)
        session = parse_session(path, text.encode(), "").session
        every = [initial(session), *states(session)]
        found.append((session.game, games.module(session.game, "render"), every[::7]))
    return found


@pytest.mark.parametrize("wide", [False, True], ids=["ascii", "cjk"])
@pytest.mark.parametrize("width", [20, 26, 32, 39])
def test_card_lines_is_what_the_full_card_takes_on_a_narrow_screen(wide: bool, width: int) -> None:
    wrong = []
    for game, render, every in nights(wide):
        for number, state in enumerate(every):
            drawn = card_text(render.card(state, "", width, compact=False), width)  # type: ignore[attr-defined]
            counted = render.card_lines(state, width)  # type: ignore[attr-defined]
            if counted != len(drawn.splitlines()):
                wrong.append((game, number * 7, counted, len(drawn.splitlines())))
    assert wrong == []


@pytest.mark.parametrize("title", ["a-long-session-name-2026-12-01", "x" * 64])
@pytest.mark.parametrize("width", [40, 60, 80])
def test_card_lines_counts_a_long_title_that_wraps_the_header(title: str, width: int) -> None:
    wrong = []
    for game, render, every in nights(wide=False):
        for number, state in enumerate(every):
            drawn = card_text(render.card(state, title, width, compact=False), width)  # type: ignore[attr-defined]
            counted = render.card_lines(state, width, title)  # type: ignore[attr-defined]
            if counted != len(drawn.splitlines()):
                wrong.append((game, number * 7, counted, len(drawn.splitlines())))
    assert wrong == []


def table_rows(game: str, render: Any, state: Any) -> list[list[str]]:
    """Each game's lines that are columns, a row a player or a round, in groups that line up."""
    match game:
        case "kalooki":
            return [[t.plain for t in render.sheet(state, 40)]]
        case "liars":
            return [
                [t.plain for t in render._rows(state, False)],
                [t.plain for t in render._folded(state, 40)],
            ]
        case "mia":
            return [
                [t.plain for t in render._rows(state)],
                [t.plain for t in render._packed(state, 40, None)],
            ]
        case "kariki":
            return [[render.compact_line(state, i, 40).plain for i in range(len(state.seats))]]
        case "kiriki":
            return [[t.plain for t in render._parts(state, "night", 40, False)[:5]]]
    raise AssertionError(game)


def test_names_of_wide_characters_keep_every_row_inside_40_cells_and_in_line() -> None:
    """A name of wide characters (two cells each) padded or cut by its length in characters
    pushed the columns after it out of line, and past a phone's edge, where they wrapped."""
    from rich.cells import cell_len

    wider: list[tuple[str, int, str]] = []
    crooked: list[tuple[str, int, object]] = []
    for game, render, every in nights(wide=True):
        for number, state in enumerate(every):
            for rows in table_rows(game, render, state):
                wider += [(game, number * 7, row) for row in rows if cell_len(row) > 40]
            if game == "kalooki":  # the sheet's rows end at one edge: a column a player
                sheet = [row for row in table_rows(game, render, state)[0] if "void" not in row]
                if len({cell_len(row) for row in sheet}) != 1:
                    crooked.append((game, number * 7, sheet))
            if game == "liars":  # each player's dice start in one column
                starts = {
                    cell_len(row[: row.index(" [") if " [" in row else row.rindex(" o")])
                    for row in table_rows(game, render, state)[0]
                }
                if len(starts) > 1:
                    crooked.append((game, number * 7, starts))
    assert (wider, crooked) == ([], [])
