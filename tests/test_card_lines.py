"""`card_lines` of every game is what the full card takes as drawn, at any width a screen may
have (20 columns up) and with names of wide characters: the CLI shows the full card only when
it fits under the ruling, so a count short of the truth scrolls the ruling off a phone."""

from __future__ import annotations

import re
from pathlib import Path

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


@pytest.mark.parametrize("names", [WIDE, EMOJI], ids=["cjk", "emoji"])
def test_names_of_wide_characters_keep_every_row_inside_40_cells(names: dict[str, str]) -> None:
    """A name of wide characters (two cells each) padded or cut by its length in characters
    pushed the columns after it past a phone's edge, where they wrapped; a heart cut from its
    variation selector counted one cell and drew two. Every game's card says which of its
    lines are columns (`columns`); each game's own tests check that they line up."""
    from rich.cells import cell_len

    wider: list[tuple[str, int, str]] = []
    for game, render, every in nights(True, names):
        for number, state in enumerate(every):
            for rows in render.columns(state, 40):  # type: ignore[attr-defined]
                wider += [(game, number * 7, row.plain) for row in rows if cell_len(row.plain) > 40]
    assert wider == []


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
