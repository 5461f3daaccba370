"""The games' cards drawn for a page (`render/page_cards.py`): on every bundled example the
share page gives the result first, then a real drawing (a cross per Kariki player with his
berries and their causes, a table row per player for Liar's dice and Mia, the Kalooki sheet
with a column per player), the standings under the game's own word, every name in `<bdi>`.
Played again with Hebrew, Arabic, CJK and 16-letter names, each player's marks stay in his
own row, cell group or column, as parsed and as laid out by a real headless Chromium (light
and dark, phone and desktop) where the machine has one."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner
from referee import games, storage
from referee.render.page_cards import CAUSES, label
from referee.render.share import mark_rtl, needs_room, share_card, text_card

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))
HARD_NAMES = ("אבי", "سارة", "王小明", "Bartholomew-Jone")  # Hebrew, Arabic, CJK, 16 letters
LABELS = {"kariki": "berries", "liars": "dice", "mia": "lives", "kiriki": "points",
          "kalooki": "points"}  # fmt: skip


class Node:
    """An element of a parsed page: its tag, attributes, children and own text."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.own: list[str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        """Every piece of text inside, in order."""
        return "".join(self.own_and_children())

    def own_and_children(self) -> list[str]:
        out = list(self.own)
        for child in self.children:
            out += child.own_and_children()
        return out

    def find(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        """Every element below (depth first) with this tag and/or class."""
        found = []
        for child in self.children:
            if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                found.append(child)
            found += child.find(tag, cls)
        return found


class Tree(HTMLParser):
    """A page as a tree of `Node`s (void elements closed at once)."""

    VOID = frozenset({"meta", "br", "link", "img", "input", "hr"})

    def __init__(self, text: str) -> None:
        super().__init__()
        self.root = Node("root", {}, None)
        self.at = self.root
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), self.at)
        self.at.children.append(node)
        if tag not in self.VOID:
            self.at = node

    def handle_endtag(self, tag: str) -> None:
        at: Node | None = self.at
        while at is not None and at.tag != tag:
            at = at.parent
        if at is not None and at.parent is not None:
            self.at = at.parent

    def handle_data(self, data: str) -> None:
        text = self.at.own
        text.append(data)


def renamed(example: Path, folder: Path) -> Path:
    """A copy of `example` whose first four players have the hard names (in every event)."""
    players = [p.name for p in storage.load(example).session.players]
    names = dict(zip(players, HARD_NAMES, strict=False))
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    text = example.read_text(encoding="utf-8")
    copy = folder / example.name
    copy.write_text(pattern.sub(lambda m: names[m[1]], text), encoding="utf-8")
    return copy


def page_of(session_file: Path) -> tuple[str, Any, dict[str, Any]]:
    """The share page of a session file, its loaded session, its `show --json` document."""
    from referee.render.share import page

    loaded = storage.load(session_file)
    card = share_card(loaded.session, loaded.state)
    document = loaded.session.engine.summary(loaded.state)
    return page(card), loaded, document


@pytest.fixture(params=EXAMPLES, ids=lambda p: p.stem)
def example(request: pytest.FixtureRequest) -> Path:
    path: Path = request.param
    return path


@pytest.fixture(params=["bundled", "hard-names"])
def session_file(request: pytest.FixtureRequest, example: Path, tmp_path: Path) -> Path:
    return example if request.param == "bundled" else renamed(example, tmp_path)


def test_the_hard_names_replay_to_the_same_result(example: Path, tmp_path: Path) -> None:
    before = storage.load(example)
    after = storage.load(renamed(example, tmp_path))
    engine = before.session.engine
    assert engine.scores(before.state).values() == engine.scores(after.state).values() or list(
        engine.scores(before.state).values()
    ) == list(engine.scores(after.state).values())
    names = [p.name for p in after.session.players]
    assert set(HARD_NAMES[: len(names)]) <= set(names)


def test_the_page_puts_the_result_then_the_standings_then_the_drawing(session_file: Path) -> None:
    html, loaded, document = page_of(session_file)
    game = games.info(loaded.session.game).name
    assert html.index('class="result"') < html.index('class="standings')
    assert html.index('class="standings') < html.index('class="drawn"')
    assert html.index('class="drawn"') < html.index("<details") < html.index("<pre")
    tree = Tree(html).root
    standings = tree.find("table", "standings")[0]
    assert [th.text() for th in standings.find("th")] == ["#", "player", LABELS[game]]
    assert label(game) == LABELS[game]
    isolated = [b.text() for b in tree.find("bdi")]
    for player in document["players"]:
        assert player["name"] in isolated  # every name is inside a <bdi>
    # nothing of the page comes from the network, and no script was added to it
    assert not re.search(r"https?://|<link|<img|<script|@import|url\(|style=", html)


def _player_rows(tree: Node, kind: str) -> list[Node]:
    table = tree.find("table", kind)
    assert len(table) == 1, f"one <table class='card {kind}'>"
    return table[0].find("tbody")[0].find("tr")


def _row_name(row: Node) -> str:
    return row.find("th")[0].find("bdi")[0].text()


def test_each_game_is_drawn_with_each_player_s_marks_beside_his_name(session_file: Path) -> None:
    html, loaded, document = page_of(session_file)
    game = games.info(loaded.session.game).name
    tree = Tree(html).root
    players = document["players"]
    turn = document.get("turn")
    if game == "kariki":
        blocks = tree.find("div", "player")
        assert len(blocks) == len(players)
        for block, player in zip(blocks, players, strict=True):
            assert block.find("h3")[0].find("bdi")[0].text() == player["name"]
            crosses = block.find("div", "cross")
            assert len(crosses) == 1  # his cross is inside his own block
            berries = crosses[0].find("span", "berry")
            assert block.attrs["data-berries"] == str(player["berries"]) == str(len(berries))
            causes = [b.attrs["data-cause"] for b in berries]
            assert causes == [CAUSES[c][0] for c in player["berry_causes"]]
            assert len(crosses[0].find("span", "pt")) == 5  # the cross's five points
            assert f"berries {player['berries']}/" in block.text()
            if player["slashes"]:
                assert block.find("span", "tally")[0].text() == "|" * player["slashes"]
            if player["crowns"]:
                assert f"crowns {player['crowns']}" in block.text()
            flags = " ".join(f.text() for f in block.find("span", "flag"))
            assert ("OUT" in flags) == player["out"]
            assert ("IN THE POO" in flags) == bool(player["in_poo"] and not player["out"])
            assert ("turn" in block.classes) == (player["name"] == turn)
        if document["winner"]:
            assert any(
                "WINNER" in b.text() or "leads" in b.text()
                for b in blocks
                if b.find("h3")[0].find("bdi")[0].text() == document["winner"]
            )
    elif game in ("liars", "mia", "kiriki"):
        rows = _player_rows(tree, game)
        assert [_row_name(r) for r in rows] == [p["name"] for p in players]
        for row, player in zip(rows, players, strict=True):
            assert ("turn" in row.classes) == (player["name"] == turn)
            if game == "kiriki":
                assert row.find("td")[0].text() == str(player["points"])
                continue
            key, kind = ("dice", "die") if game == "liars" else ("lives", "life")
            marks = row.find("span", kind)
            kept = [m for m in marks if "lost" not in m.classes]
            assert len(kept) == player[key]  # his dice or lives, in his own row
            assert row.find("td")[-1].text() == ("out" if player["out"] else str(player[key]))
    else:
        assert game == "kalooki"
        table = tree.find("table", "kalooki")[0]
        heads = table.find("thead")[0].find("th")[1:]
        assert [h.find("bdi")[0].text() for h in heads] == [p["name"] for p in players]
        rows = table.find("tbody")[0].find("tr")
        assert len(rows) == len(players[0]["rounds"]) + 1  # every round, then the totals
        for row in rows:
            cells = row.find("td")
            assert [c.attrs["headers"] for c in cells] == [h.attrs["id"] for h in heads]
        for i, player in enumerate(players):
            column = [r.find("td")[i] for r in rows]
            assert column[-1].text() == str(player["total"])
            scores = [re.sub(r"\D", "", c.text()) for c in column[:-1]]
            assert scores == ["" if s is None else str(s) for s in player["rounds"]]
            called = [c.find("span", "call") for c in column[:-1]]
            assert [len(c[0].text()) if c else 0 for c in called] == [
                n or 0 for n in player["calls"]
            ]


def test_a_page_without_a_drawing_keeps_the_text_card(referee: Runner) -> None:
    from referee.render.share import fragment

    loaded = storage.load(EXAMPLES[0])
    card = share_card(loaded.session, loaded.state)._replace(drawing=None)
    body = fragment(card)
    assert "<details" not in body and body.count("<pre") == 2


def test_names_are_escaped_and_isolated(tmp_path: Path) -> None:
    example = next(p for p in EXAMPLES if p.stem == "mia-night")
    text = example.read_text(encoding="utf-8").replace('"Bob"', '"B<b>ob</b>"')
    text = re.sub(r"\bBob\b", "B<b>ob</b>", text)
    copy = tmp_path / "mia.toml"
    copy.write_text(text, encoding="utf-8")
    html, _, _ = page_of(copy)
    assert "<b>ob" not in html and "<bdi>B&lt;b&gt;ob&lt;/b&gt;</bdi>" in html


def test_the_markdown_card_keeps_hard_names_in_one_column(tmp_path: Path) -> None:
    example = next(p for p in EXAMPLES if p.stem == "kariki-night")
    loaded = storage.load(renamed(example, tmp_path))
    text = text_card(loaded.session, loaded.state, 60)
    for line in text.splitlines():
        # no name shares its line with a column of another player's marks
        found = [n for n in HARD_NAMES if n in line]
        assert len(found) <= 1 or "won" in line or "," in line, line
    assert "אבי\u200e" in text and "سارة\u200e" in text  # a left-to-right mark after each
    assert mark_rtl("王小明 2", ("王小明",)) == "王小明 2"
    assert needs_room("王小明") and needs_room("سارة") and not needs_room("Bartholomew-Jone")
    plain = text_card(storage.load(example).session, storage.load(example).state, 60)
    assert max(len(line) for line in plain.splitlines()) > 40  # plain names: side by side


def test_the_markdown_export_uses_the_one_column_card(referee: Runner, tmp_path: Path) -> None:
    copy = renamed(next(p for p in EXAMPLES if p.stem == "kariki-night"), tmp_path)
    result = referee("export", "--format", "md", "-s", str(copy))
    assert result.code == 0, result
    card = result.out.split("```text\n", 1)[1].split("```", 1)[0]
    assert max(len(line) for line in card.splitlines()) <= 40


def test_the_png_is_in_colour_with_the_game_s_label(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    from referee.render.share import picture_lines
    from referee.render.share_png import png

    loaded = storage.load(renamed(next(p for p in EXAMPLES if p.stem == "kariki-night"), tmp_path))
    card = share_card(loaded.session, loaded.state)
    assert any(line.split() == ["player", "berries"] for line in picture_lines(card))
    out = tmp_path / "card.png"
    out.write_bytes(png(card))
    with Image.open(out) as image:
        found = image.convert("RGB").getcolors(1 << 20) or []
        colours = [c for _, c in found if isinstance(c, tuple)]
        assert any(abs(c[0] - c[1]) > 60 or abs(c[1] - c[2]) > 60 for c in colours)  # not grey


# ---------------------------------------------------------------------------- in a browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Added only to the test's copy of the page: after layout, each name's box and its marks'
# boxes, whatever overflows its box, and whether the page is dark, as JSON in #measured.
MEASURE = r"""<script>window.onload=function(){
function box(e){var r=e.getBoundingClientRect();return [r.left,r.top,r.right,r.bottom]}
var d=document.documentElement,out={dark:matchMedia('(prefers-color-scheme: dark)').matches,
bg:getComputedStyle(document.body).backgroundColor,page:[d.scrollWidth,d.clientWidth],
cut:[],rows:[],blocks:[],columns:[]};
document.querySelectorAll('main *').forEach(function(e){var s=getComputedStyle(e);
if(e.offsetParent&&s.display!=='inline'&&e.scrollWidth>e.clientWidth+1)
out.cut.push(e.tagName+'.'+e.className+' '+e.scrollWidth+'>'+e.clientWidth)});
document.querySelectorAll('table.card tbody tr').forEach(function(r){
var n=r.querySelector('th bdi');if(!n)return;
out.rows.push({name:n.textContent,row:box(r),head:box(r.querySelector('th')),
marks:[].map.call(r.querySelectorAll('td'),box)})});
document.querySelectorAll('.player').forEach(function(p){out.blocks.push({
name:p.querySelector('h3 bdi').textContent,block:box(p),head:box(p.querySelector('h3')),
cross:box(p.querySelector('.cross')),points:[].map.call(p.querySelectorAll('.pt'),box)})});
document.querySelectorAll('table.kalooki thead th[id]').forEach(function(h){out.columns.push({
name:h.textContent,head:box(h),cells:[].map.call(document.querySelectorAll(
'td[headers="'+h.id+'"]'),box)})});
parent.postMessage(JSON.stringify(out),'*')}</script>"""
# Headless Chromium's window is at least 500 px wide: the page is laid out in a frame of the
# exact size instead, and tells the frame's parent what it measured.
FRAME = """<!doctype html><html><body style="margin:0"><iframe src="card.html" width="{w}"
height="{h}" style="border:0;display:block"></iframe><script>addEventListener('message',
function(e){{var m=document.createElement('pre');m.id='measured';m.textContent=e.data;
document.body.appendChild(m)}})</script></body></html>"""


def _inside(inner: list[float], outer: list[float], slack: float = 0.5) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def measured(page: Path, size: str, dark: bool, profile: Path) -> dict[str, Any]:
    """The measurements of `page` (`card.html`) laid out by Chromium at `size`, light or dark."""
    assert CHROMIUM is not None
    w, h = size.split(",")
    frame = page.with_name("frame.html")
    frame.write_text(FRAME.format(w=w, h=h), encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
         f"--window-size={size}",
         *(["--force-dark-mode"] if dark else []),
         f"--blink-settings=preferredColorScheme={0 if dark else 1}",
         "--virtual-time-budget=3000", "--dump-dom", frame.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    found = re.search(r'<pre id="measured">([^<]*)</pre>', done.stdout)
    assert found, done.stderr[-500:]
    import html

    result: dict[str, Any] = json.loads(html.unescape(found[1]))
    return result


LOOKS = [
    pytest.param("390,844", False, id="phone-light"),
    pytest.param("390,844", True, id="phone-dark"),
    pytest.param("1280,800", False, id="desktop-light"),
    pytest.param("1280,800", True, id="desktop-dark"),
]


@pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium")
@pytest.mark.parametrize(("size", "dark"), LOOKS)
def test_laid_out_in_a_browser_every_name_keeps_its_marks(
    session_file: Path, tmp_path: Path, size: str, dark: bool
) -> None:
    html, loaded, document = page_of(session_file)
    page = tmp_path / "card.html"
    page.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    found = measured(page, size, dark, tmp_path / "profile")
    assert found["dark"] is dark
    assert found["page"][1] == int(size.split(",")[0])  # laid out at the width asked
    assert (found["bg"] == "rgb(17, 19, 21)") is dark  # the page follows the reader's setting
    wide, room = found["page"]
    assert wide <= room, f"the page scrolls sideways: {wide} > {room}"
    assert found["cut"] == []
    names = [p["name"] for p in document["players"]]
    game = games.info(loaded.session.game).name
    if game == "kariki":
        assert [b["name"] for b in found["blocks"]] == names
        for i, block in enumerate(found["blocks"]):
            assert _inside(block["head"], block["block"]) and _inside(
                block["cross"], block["block"]
            )
            assert block["cross"][1] >= block["head"][3] - 0.5  # his cross under his name
            assert all(_inside(p, block["block"]) for p in block["points"])
            for other in found["blocks"][i + 1 :]:
                assert not _overlap(block["block"], other["block"])
    elif game == "kalooki":
        assert [c["name"] for c in found["columns"]] == names
        for i, column in enumerate(found["columns"]):
            left, right = column["head"][0], column["head"][2]
            for cell in column["cells"]:  # every score under his own name
                assert left - 0.5 <= (cell[0] + cell[2]) / 2 <= right + 0.5
                assert cell[1] >= column["head"][3] - 0.5
            for other in found["columns"][i + 1 :]:
                assert not _overlap(column["head"], other["head"])
    else:
        assert [r["name"] for r in found["rows"]] == names
        for row in found["rows"]:
            for mark in row["marks"]:  # in his own row, beside his name, never over it
                assert _inside(mark, row["row"]) and not _overlap(mark, row["head"])
        tops = [r["row"][1] for r in found["rows"]]
        assert tops == sorted(tops)


def test_a_game_in_play_marks_whose_turn_it_is(session_file: Path) -> None:
    from dataclasses import replace

    from referee.render.share import page
    from referee.session import replay

    loaded = storage.load(session_file)
    half = replace(loaded.session, events=loaded.session.events[: len(loaded.session.events) // 2])
    state = replay(half)
    document = half.engine.summary(state)
    tree = Tree(page(share_card(half, state))).root
    marked = [n for n in tree.find() if "turn" in n.classes]
    if document.get("turn") is None:  # Kalooki: the round being played is marked instead
        assert games.info(half.game).name == "kalooki"
        assert [n.attrs.get("aria-current") for n in marked] == ["step"]
        return
    assert len(marked) == 1 and "to act" in marked[0].text()
    assert document["turn"] in [b.text() for b in marked[0].find("bdi")]


def test_the_page_says_who_may_buy_back_and_gives_no_place_before_the_end(
    referee: Runner, home: Path
) -> None:
    """Found by a play-test: the page never said who may buy back (the terminal card does),
    and its `#` column numbered the seats while play went on, reading as a ranking (a player
    out stayed 2nd)."""
    assert referee("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    assert referee("kariki", "slash", "Cy", "20").code == 0  # Cy out: a buy-back on offer
    html, _, _ = page_of(home / "sessions" / "friday.toml")
    assert "<bdi>Cy</bdi> may buy back for 3" in html
    rows = re.findall(r'<tr><td class="n">([^<]*)</td><td><bdi>(\w+)</bdi>', html)
    assert rows and all(place == "" for place, _ in rows)  # no place while it is on
    assert '<table class="standings">' in html  # and the first row is not set in bold
    for line in (["slash", "Bob", "20"], ["settle"]):
        assert referee("kariki", *line).code == 0
    html, _, _ = page_of(home / "sessions" / "friday.toml")
    rows = re.findall(r'<tr><td class="n">([^<]*)</td><td><bdi>(\w+)</bdi>', html)
    assert rows[0] == ("1", "Ann") and '<table class="standings placed">' in html


def test_one_die_in_play_is_one_die(referee: Runner, tmp_path: Path) -> None:
    """The finished Perudo page said `round 22, 1 dice in play`; the card says `1 die`."""
    out = tmp_path / "perudo.html"
    example = Path(__file__).parent.parent / "examples" / "perudo-night.toml"
    assert referee("export", "--format", "html", "-s", str(example), "-o", str(out)).code == 0
    page = out.read_text(encoding="utf-8")
    assert "round 22, 1 die in play" in page and "1 dice" not in page
