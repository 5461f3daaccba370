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
# Emoji and accents a codepoint-by-codepoint cut splits: a heart with its variation selector
# (two cells together, one apart), a flag's two letters, skin tones, combining accents.
EMOJI = {
    "Ann": "\u2764\ufe0f\u2764\ufe0f\u2764\ufe0f\u2764\ufe0f\u2764\ufe0f",
    "Bob": "\U0001f1ef\U0001f1f5" * 4,
    "Rosa": "e\u0301" * 8,
    "Tomas": "\U0001f44d\U0001f3fd" * 5,
}


def nights(wide: bool, names: dict[str, str] = WIDE) -> list[tuple[str, object, list[object]]]:
    found = []
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        if wide:
            for name, other in names.items():
                text = re.sub(rf"\b{name}\b", other, text)
        session = parse_session(path, text.encode(), "").session
        every = [initial(session), *states(session)]
        found.append((session.game, games.module(session.game, "render"), every[::7]))
    return found


@pytest.mark.parametrize(
    ("wide", "names"), [(False, WIDE), (True, WIDE), (True, EMOJI)], ids=["ascii", "cjk", "emoji"]
)
@pytest.mark.parametrize("width", [20, 26, 32, 39])
def test_card_lines_is_what_the_full_card_takes_on_a_narrow_screen(
    wide: bool, names: dict[str, str], width: int
) -> None:
    wrong = []
    for game, render, every in nights(wide, names):
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


@pytest.mark.parametrize("names", [WIDE, EMOJI], ids=["cjk", "emoji"])
def test_names_of_wide_characters_keep_every_row_inside_40_cells_and_in_line(
    names: dict[str, str],
) -> None:
    """A name of wide characters (two cells each) padded or cut by its length in characters
    pushed the columns after it out of line, and past a phone's edge, where they wrapped; a
    heart cut from its variation selector counted one cell and drew two."""
    from rich.cells import cell_len

    wider: list[tuple[str, int, str]] = []
    crooked: list[tuple[str, int, object]] = []
    for game, render, every in nights(True, names):
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


def test_cells_cut_and_wrap_keep_a_character_whole_and_within_the_room() -> None:
    """A cut never parts a letter from its accent, an emoji from its variation selector or
    skin tone, or a flag's two letters, and is never wider than asked, not even for the mark."""
    from referee.render.cells import clusters, cut, width_of, wrap_words

    heart, flag, thumb = "\u2764\ufe0f", "\U0001f1ef\U0001f1f5", "\U0001f44d\U0001f3fd"
    for text in (heart * 8, flag * 8, thumb * 8, "e\u0301" * 16, "王" * 16, "Ann" * 5):
        assert "".join(clusters(text)) == text
        for width in range(0, 18):
            for mark in ("", "…"):
                got = cut(text, width, mark)
                assert width_of(got) <= width, (text, width, mark, got)
                assert got.removesuffix(mark) in {"".join(clusters(text)[:n]) for n in range(17)}
    assert cut(heart * 3, 4, "…") == heart + "…"
    assert cut("王", 1) == "" and cut("Ann", 0, "…") == ""
    assert wrap_words(f"{flag}{flag} x", 3, "  ") == [flag, f"  {flag}", "  x"]
    assert wrap_words("", 10) == []


def test_a_kalooki_head_too_narrow_for_a_wide_first_letter_is_the_seat_number() -> None:
    """At 20 columns a head one cell wide cut 王 to nothing: a column without a name."""
    from referee.games.kalooki import card as render

    text = (Path(__file__).parents[1] / "examples" / "kalooki-game.toml").read_text("utf-8")
    for name, other in {"Ann": "王", "Bob": "王王"}.items():
        text = re.sub(rf"\b{name}\b", other, text)
    state = initial(parse_session(Path("k.toml"), text.encode(), "").session)
    heads = render.short_names(state, 1)
    assert "" not in heads and len(set(heads)) == len(heads)


@pytest.mark.parametrize("width", [26, 30, 37, 38, 40])
def test_a_kariki_compact_line_fits_a_screen_under_38_columns(width: int) -> None:
    """Below 38 columns the name's column is what the line leaves, and a longer name is cut:
    a column of 16 wrapped every player's line in two on a narrow phone."""
    from rich.cells import cell_len

    for game, render, every in nights(wide=False):
        if game != "kariki":
            continue
        for state in every:
            lines = [render.compact_line(state, i, width).plain for i in range(len(state.seats))]  # type: ignore[attr-defined]
            assert max(cell_len(line) for line in lines) <= width, lines
