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
