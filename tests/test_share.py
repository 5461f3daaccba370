"""The share card (`export --format html|svg|png`): a page for phones first, no network, light
and dark, the result and standings before the card. Checked on every bundled example, and in a
real headless Chromium at 390x844 and 1280x800 where the machine has one."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import Runner
from referee import storage
from referee.render.cells import width_of
from referee.render.share import NARROW, ROOMY, picture_lines, share_card

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))


class Page(HTMLParser):
    """The tags, attributes and text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: dict[str, list[str]] = {}
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag)]

    def handle_data(self, data: str) -> None:
        self.text.setdefault(self.open[-1] if self.open else "", []).append(data)


def exported(referee: Runner, fmt: str, example: Path) -> str:
    result = referee("export", "--format", fmt, "-s", str(example))
    assert result.code == 0, result
    return result.out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_the_page_is_designed_for_phones_and_needs_no_network(
    referee: Runner, example: Path
) -> None:
    html = exported(referee, "html", example)
    page = Page()
    page.feed(html)
    tags = dict(page.tags)
    assert tags["meta"] is not None and ("name", "viewport") in [
        (k, v) for tag, attrs in page.tags if tag == "meta" for k, v in attrs.items()
    ]
    title = "".join(page.text["title"])
    loaded = storage.load(example)
    summary = json.loads(referee("show", "--json", "-s", str(example)).out)
    assert loaded.session.name in title and re.search(r"\d{4}", title)  # the date
    assert "prefers-color-scheme:dark" in html and "@media print" in html
    # nothing from the network: no script, link, image, font or import
    assert not re.search(r"https?://|<link|<img|<script|@import|url\(", html)
    # the result and the standings come before the card
    assert html.index('class="result"') < html.index("<table") < html.index("<pre")
    players = [p.name for p in loaded.session.players]
    assert set(players) <= set(page.text.get("bdi", []))  # each name isolated for direction
    assert summary["game"] == loaded.session.game
    phone = [attrs for tag, attrs in page.tags if tag == "pre"]
    assert len(phone) == 2  # the text card, phone and wide, folded under the drawn card
    assert html.index('class="drawn"') < html.index("<details") < html.index("<pre")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_the_phone_card_fits_its_columns(example: Path) -> None:
    loaded = storage.load(example)
    card = share_card(loaded.session, loaded.state)
    widths = [len(line) for line in card.narrow.splitlines()]
    assert max(widths) <= ROOMY
    if max(widths) > NARROW:  # the roomy card only where it saves a third of the lines
        assert len(card.narrow.splitlines()) < len(card.wide.splitlines()) * 3


def test_standings_put_the_winner_first_with_place_1(referee: Runner) -> None:
    example = next(p for p in EXAMPLES if p.stem == "kalooki-game")
    loaded = storage.load(example)
    card = share_card(loaded.session, loaded.state)
    outcome = loaded.session.engine.outcome(loaded.state)
    assert [s.player for s in card.standings][: len(outcome.winners)] == list(outcome.winners)
    assert card.standings[0].place == 1
    assert [s.place for s in card.standings] == sorted(s.place for s in card.standings)
    assert card.result == f"{outcome.winners[0]} won"


def test_the_pages_name_perudo_as_its_own_game(referee: Runner, home: Path) -> None:
    """Liar's dice under Perudo rules is Perudo on the session's page, as in ratings and
    stats, and on the night's page (which said liars)."""
    example = next(p for p in EXAMPLES if p.stem == "perudo-night")
    page = Page()
    page.feed(exported(referee, "html", example))
    assert page.text["h1"] == ["Perudo"]
    assert page.text["title"][0].startswith("Perudo: ")
    referee("night", "start", "fri", "Ann", "Bob", "Cy", "Dee")
    referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--ruleset", "perudo", "--name", "peru")
    night = Page()
    night.feed(referee("night", "--format", "html").out)
    assert night.text["td"][:5] == ["1", "peru", "perudo", "playing", "no money"]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_the_svg_uses_local_fonts_and_follows_dark_mode(referee: Runner, example: Path) -> None:
    text = exported(referee, "svg", example)
    root = ET.fromstring(text)
    assert root.tag.endswith("svg")
    assert "@font-face" not in text and "url(" not in text
    assert re.findall(r"https?://[^\"']+", text) == ["http://www.w3.org/2000/svg"]
    assert "prefers-color-scheme:dark" in text
    loaded = storage.load(example)
    # each run (a name is one of its own) sits at its column: the lines read back from x, y
    rows: dict[str, list[tuple[int, str]]] = {}
    for t in root.iter():
        if t.tag.endswith("text"):
            column = round((float(t.attrib["x"]) - 16) / 8.4)
            rows.setdefault(t.attrib["y"], []).append((column, "".join(t.itertext())))
    drawn = []
    for runs in rows.values():
        line = ""
        for column, text in sorted(runs):
            line += " " * (column - width_of(line)) + text
        drawn.append(line)
    lines = [line for line in picture_lines(share_card(loaded.session, loaded.state)) if line]
    assert drawn == lines


def test_the_png_is_a_picture_of_the_card(referee: Runner, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    example = next(p for p in EXAMPLES if p.stem == "kariki-night")
    out = tmp_path / "card.png"
    result = referee("export", "--format", "png", "-o", str(out), "-s", str(example))
    assert result.code == 0, result
    with Image.open(out) as image:
        assert image.format == "PNG"
        loaded = storage.load(example)
        lines = picture_lines(share_card(loaded.session, loaded.state))
        assert image.height > len(lines) * 20 and image.width > max(map(len, lines)) * 10
        # the picture is not blank: text was drawn in the card's dark ink
        darkest, _ = image.convert("L").getextrema()
        assert isinstance(darkest, int) and darkest < 64


def test_png_needs_a_file(referee: Runner) -> None:
    example = EXAMPLES[0]
    result = referee("export", "--format", "png", "-s", str(example))
    assert result.code == 2 and "give -o FILE" in result.err


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Measures, inside the page, whether anything is wider than the screen.
MEASURE = (
    "<script>window.onload=function(){var d=document.documentElement,bad=[];"
    "if(d.scrollWidth>d.clientWidth)bad.push('page '+d.scrollWidth+'>'+d.clientWidth);"
    "document.querySelectorAll('pre,table').forEach(function(e){"
    "if(e.offsetParent&&e.scrollWidth>e.clientWidth)bad.push(e.tagName+' '+e.scrollWidth+'>'"
    "+e.clientWidth)});document.title='FIT:'+(bad.join(';')||'ok')}</script>"
)


@pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium")
@pytest.mark.parametrize("size", ["390,844", "1280,800"])
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_nothing_is_cut_in_a_real_browser(
    referee: Runner, tmp_path: Path, example: Path, size: str
) -> None:
    page = tmp_path / "card.html"
    page.write_text(exported(referee, "html", example).replace("</body>", MEASURE + "</body>"))
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={size}",
         "--virtual-time-budget=2000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    found = re.search(r"<title>FIT:([^<]*)</title>", done.stdout)
    assert found, done.stderr[-500:]
    assert found[1] == "ok"
