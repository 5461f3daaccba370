"""The share card: one session as a page (or picture) people open on their own phones.

A `ShareCard` is the card, made once: the game and the date, the result, the standings (under
the game's own word: berries, dice, lives, points), the game's card drawn for a page
(`render/page_cards.py`, from the engine's `summary`), and its text card for a phone (40
columns) and a wide screen, kept under "as text". The HTML page, the SVG and the PNG
(`render/share_png.py`) are all drawn from it, and so is the live page of `referee serve`.
Every piece of text a session file gave passes through `escape` (the one escaping helper,
`text.printable`, then HTML's), so a name can never become markup; every name on the page is
in a `<bdi>`, and in the pictures a run of its own, so a right-to-left name never moves
another player's marks and a wide one never shifts a column.

The page is self-contained: no script, font or picture from the network; light and dark
follow the reader's setting; at 360-430 px every column fits without sideways scrolling.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.text import printable

if TYPE_CHECKING:
    from rich.console import RenderableType

    from referee.games.base import Outcome
    from referee.session import Session

NARROW, ROOMY, WIDE = 40, 50, 96  # columns: the phone card (or a roomier one), the wide card


class Standing(NamedTuple):
    """One row of the standings: place (1-based, ties share it), player, score."""

    place: int
    player: str
    score: int | None


class ShareCard(NamedTuple):
    """Everything a share card shows, as plain text (escaped only when drawn)."""

    game: str  # the game's title: "Kariki"
    name: str  # the session's name
    date: str  # when the session started, in the reader's local time
    result: str  # "Bob won", "Ann leads", "playing: Cy to act"
    standings: tuple[Standing, ...]
    narrow: str  # the game's card for a phone: 40 columns, or 50 when that saves a third
    wide: str  # the game's card at 96 columns
    house: str = ""  # its house rules in words ("calza once each, ..."), "" for none
    money: tuple[str, ...] = ()  # the pot, what each paid, who takes what (`money_lines`)
    night: str = ""  # the night it was part of (`referee night`), "" for none
    played: str = ""  # its play time, first to last event (`2h05`), "" when unknown
    season: tuple[str, ...] = ()  # the newest season it counts in: its name, then its top 5
    label: str = "score"  # the standings column in the game's word: berries, dice, lives
    drawing: str | None = None  # the game's card as HTML (`render.page_cards`), None: text
    names: tuple[str, ...] = ()  # every player's name, to isolate them in the text card

    @property
    def narrow_columns(self) -> int:
        """The width the phone card was drawn at (the page sizes its font by it)."""
        return max((len(line) for line in self.narrow.splitlines()), default=0)

    @property
    def title(self) -> str:
        """The page's title: game, session and date."""
        return f"{self.game}: {self.name}, {self.date}"


def local_date(stamp: str) -> str:
    """An ISO time as the reader's local date and time: `Sun 29 Nov 2026, 15:04`."""
    try:
        found = datetime.fromisoformat(stamp)
        if found.tzinfo is not None:
            found = found.astimezone()
        return found.strftime("%a %d %b %Y, %H:%M")
    except (ValueError, OverflowError, OSError):
        return ""


def result_line(outcome: Outcome, turn: str | None) -> str:
    """The result in one line: won, tied, leads (provisional), or who is to act."""
    winners = " and ".join(outcome.winners)
    if outcome.finished and outcome.provisional:
        return f"{winners} leads; the result may still change"
    if outcome.finished and len(outcome.winners) > 1:
        return f"{winners} tied for the win"
    if outcome.finished and winners:
        return f"{winners} won"
    if outcome.finished:
        return "the game is over"
    return f"playing: {turn} to act" if turn else "playing"


def standings(
    outcome: Outcome, scores: dict[str, int], players: tuple[str, ...]
) -> tuple[Standing, ...]:
    """Places from the outcome's standings (winners share first), then everyone else; while
    the game is on nobody has a place yet (0: the table shows none, never a seat number that
    reads as a ranking)."""
    order = [p for p in outcome.standings if p in players]
    order += [p for p in players if p not in order]
    rows: list[Standing] = []
    for i, player in enumerate(order):
        place = 0 if not outcome.finished else 1 if player in outcome.winners else i + 1
        rows.append(Standing(place, player, scores.get(player)))
    return tuple(rows)


def card_text(render_card: RenderableType, width: int) -> str:
    """A Rich renderable drawn as plain text at `width` columns, trailing spaces cut."""
    from rich.console import Console

    console = Console(width=width, file=io.StringIO(), record=True, color_system=None,
                      highlight=False, emoji=False)  # fmt: skip
    console.print(render_card)
    text = console.export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.splitlines())


def _played(session: Session) -> str:
    """The play time (`2h05`), once there is one: '' for none, or under a minute."""
    from referee.history import duration, minutes, play_span

    span = play_span(session)
    return duration(*span) if minutes(*span) else ""


def share_card(
    session: Session, state: Any, night: str = "", season: tuple[str, ...] = ()
) -> ShareCard:
    """The share card of a session in the state `state` (its replay), part of `night`, with
    the lines of the newest season it counts in (`render.season.share_lines`)."""
    from referee import games
    from referee.house import phrases
    from referee.league import pool_title, session_pool
    from referee.render import page_cards
    from referee.render.common import money_lines
    from referee.session import money, seated_players

    engine = session.engine
    seated = tuple(p.name for p in seated_players(session, state))
    kept = money(session, state)
    outcome = engine.outcome(state)
    render = games.module(session.game, "render")
    card = render.card
    names = tuple(p.name for p in session.players)
    plain = not any(needs_room(n) for n in names)
    game = games.info(session.game).name
    finished = outcome.finished and not outcome.provisional
    # A wide or right-to-left name keeps the text card in one column: a browser's CJK glyphs
    # are not two cells, and two Arabic names side by side swap places.
    wide = WIDE if plain else NARROW
    return ShareCard(
        game=pool_title(session_pool(session)),  # Perudo by its own name
        name=session.name,
        date=local_date(session.created),
        result=result_line(outcome, engine.turn(state)),
        standings=standings(outcome, engine.scores(state), seated),
        narrow=phone_card(
            lambda width: card(state, session.name, width, compact=False),
            lambda width: int(render.card_lines(state, width, session.name)),
        )
        if plain
        else card_text(card(state, session.name, NARROW, compact=False), NARROW),
        wide=card_text(card(state, session.name, wide, compact=False), wide),
        house=", ".join(phrases(session.game, session.ruleset)),
        money=tuple(t.plain for t in money_lines(kept, seated, NARROW)) if kept else (),
        night=night,
        played=_played(session),
        season=season,
        label=page_cards.label(game),
        drawing=page_cards.drawing(game, state, engine.summary(state), finished),
        names=names,
    )


def needs_room(name: str) -> bool:
    """Whether a name cannot sit in a column of a text card beside another: it is wider than
    its letters (CJK, fullwidth, emoji) or written right to left (Hebrew, Arabic).

    >>> needs_room("Ann"), needs_room("王小明"), needs_room("אבי"), needs_room("José")
    (False, True, True, False)
    """
    if name.isascii():
        return False
    from referee.render.cells import width_of

    return width_of(name) != len(name) or any(is_rtl(c) for c in name)


def is_rtl(char: str) -> bool:
    """Whether `char` is written right to left (a Hebrew or Arabic letter)."""
    import unicodedata

    return unicodedata.bidirectional(char) in ("R", "AL")


def text_card(session: Session, state: Any, width: int) -> str:
    """The game's card as text for a file (the Markdown export) at `width` columns, or at 40
    when a name needs room (`needs_room`), each right-to-left name followed by a left-to-right
    mark so a reader's bidi never swaps it with the column beside it."""
    from referee import games

    render = games.module(session.game, "render")
    names = tuple(p.name for p in session.players)
    if any(needs_room(n) for n in names):
        width = min(width, NARROW)
    text = card_text(render.card(state, session.name, width, compact=False), width)
    return mark_rtl(text, names)


def mark_rtl(text: str, names: tuple[str, ...]) -> str:
    """`text` with a left-to-right mark (zero width) after each right-to-left name in it.

    >>> mark_rtl("אבי 5", ("אבי", "Ann")) == "אבי\u200e 5"
    True
    """
    rtl = [printable(n) for n in names if any(is_rtl(c) for c in n)]
    found = _names_pattern(rtl)
    return found.sub(lambda m: m[0] + "\u200e", text) if found else text


def _names_pattern(names: list[str]) -> re.Pattern[str] | None:
    """One pattern for every name, the longest first (a name inside another is not split)."""
    kept = sorted({n for n in names if n}, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in kept)) if kept else None


def isolated(text: str, names: tuple[str, ...]) -> str:
    """Text for a `<pre>`: escaped, each name that needs room (`needs_room`: right to left,
    or wide) inside `<bdi>`, so its direction is its own and it never swaps columns."""
    found = _names_pattern([escape(n) for n in names if needs_room(n)])
    shown = escape(text)
    return found.sub(lambda m: f"<bdi>{m[0]}</bdi>", shown) if found else shown


def phone_card(draw: Callable[[int], RenderableType], lines: Callable[[int], int]) -> str:
    """The card at 40 columns, or at 50 when that lays it out in a third fewer lines (the
    Kariki crosses two abreast): still readable on a 360 px screen, and far less scrolling."""
    width = ROOMY if lines(ROOMY) <= 0.7 * lines(NARROW) else NARROW
    return card_text(draw(width), width)


def escape(text: str) -> str:
    """File-derived text for HTML or SVG: visible escapes for unsafe characters, then entities."""
    return html.escape(printable(text, keep_newlines=True), quote=True)


# ---------------------------------------------------------------------------- HTML

STYLE = """\
:root{color-scheme:light dark;--bg:#fff;--fg:#161616;--muted:#4d4d4d;--line:#c8c8c8;\
--accent:#0a4f9e;--band:#f2f4f7;--turn:#fff4c2;--red:#b3261e;--green:#1b6e2a;\
--lie:#b3261e;--pull:#8a4b00;--slash:#6a3fb0;--kariki:#0a6d74;--crown:#9a6b00;--odd:#555}
@media (prefers-color-scheme:dark){:root{--bg:#111315;--fg:#ededed;--muted:#b4b4b4;\
--line:#3c4046;--accent:#8cc4ff;--band:#1b1e22;--turn:#3a3413;--red:#ff8a80;--green:#7ddc8c;\
--lie:#ff8a80;--pull:#ffb870;--slash:#c9a7ff;--kariki:#6fe0e6;--crown:#ffd866;--odd:#bbb}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);\
font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:62rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:0}
.meta{color:var(--muted);margin:.1rem 0 0}
.result{font-size:1.2rem;font-weight:600;color:var(--accent);margin:1rem 0 .5rem}
.house{color:var(--muted);margin:0 0 .5rem;overflow-wrap:anywhere}
.money{margin:0 0 .5rem;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;max-width:28rem}
th,td{text-align:start;padding:.3rem .5rem;border-bottom:1px solid var(--line)}
th{color:var(--muted);font-weight:600;font-size:.9rem}
td.n,th.n{text-align:end;font-variant-numeric:tabular-nums}
.standings.placed tr:first-child td{font-weight:600}
bdi{overflow-wrap:anywhere}
thead bdi{overflow-wrap:break-word;word-break:keep-all}
.drawn{margin:1rem 0}
table.card{max-width:36rem;margin:0}
table.card caption{caption-side:top;text-align:start;color:var(--muted);padding:0 0 .3rem}
table.card tbody th{color:var(--fg);font-size:1rem;font-weight:500}
table.card tr.turn{background:var(--turn)}
table.card tr.gone{color:var(--muted)}
table.card tr.gone th{color:var(--muted)}
.nick{color:var(--muted);font-style:italic}
.to-act{display:inline-block;margin-inline-start:.4rem;padding:0 .35rem;border-radius:.6rem;\
background:var(--accent);color:var(--bg);font-size:.75rem;font-weight:600;vertical-align:.1em}
.pips{display:inline-flex;flex-wrap:wrap;gap:3px;vertical-align:middle}
.die,.life{display:inline-block;width:.75rem;height:.75rem;border:2px solid var(--accent);\
background:var(--accent);border-radius:.2rem}
.life{border-radius:50%;border-color:var(--red);background:var(--red)}
.die.lost,.life.lost{background:transparent;border-color:var(--line)}
meter{width:100%;max-width:8rem}
table.kalooki{max-width:40rem}
table.kalooki td{white-space:nowrap}
table.kalooki tbody th{font-size:.85rem}
.contract,.dealer{display:block;color:var(--muted);font-size:.75rem;font-weight:400}
.went-out{color:var(--green);font-weight:700}
.call{color:var(--accent);font-weight:700}
.fixed{color:var(--red)}
tr.total td,tr.total th{font-weight:700;border-top:2px solid var(--fg)}
.legend-line,.way,.facing{color:var(--muted);font-size:.85rem;margin:.3rem 0}
.crosses{display:grid;grid-template-columns:repeat(auto-fill,minmax(10.5rem,1fr));gap:.75rem}
.player{border:1px solid var(--line);border-radius:.5rem;padding:.5rem;min-width:0}
.player.turn{background:var(--turn);border-color:var(--accent)}
.player h3{margin:0;font-size:1rem;overflow-wrap:anywhere}
.bought{color:var(--green);font-weight:700}
.flags{margin:.2rem 0}
.flag{display:inline-block;font-size:.75rem;font-weight:700;padding:0 .35rem;\
border-radius:.3rem;margin:0 .25rem .2rem 0;border:1px solid currentColor}
.flag.out{color:var(--red)}.flag.win{color:var(--bg);background:var(--green);border-color:var(--green)}
.flag.poo{color:var(--bg);background:var(--fg)}.flag.bar,.flag.lead{color:var(--muted)}
.cross{display:grid;grid-template-columns:repeat(3,1.7rem);grid-template-rows:repeat(3,1.7rem);\
margin:.4rem auto;width:max-content;position:relative}
.cross::before,.cross::after{content:"";position:absolute;background:var(--line);z-index:0}
.cross::before{left:.85rem;right:.85rem;top:calc(50% - 1px);height:2px}
.cross::after{top:.85rem;bottom:.85rem;left:calc(50% - 1px);width:2px}
.pt{position:relative;z-index:1;display:flex;align-items:center;justify-content:center;\
width:1.7rem;height:1.7rem;border-radius:50%;font:700 .85rem/1 ui-monospace,monospace}
.pt:not(.berry){background:var(--bg);border:2px dotted var(--line);transform:scale(.6)}
.pt.centre:not(.berry){border-style:solid}
.player.turn .pt:not(.berry){background:var(--turn)}
.pt.top{grid-area:1/2}.pt.right{grid-area:2/3}.pt.bottom{grid-area:3/2}
.pt.left{grid-area:2/1}.pt.centre{grid-area:2/2}
.berry{color:#fff;background:var(--odd)}
.c-lie{background:var(--lie)}.c-false-accusation{background:var(--pull)}
.c-slashes{background:var(--slash)}.c-kariki{background:var(--kariki)}
.c-crowns{background:var(--crown)}
@media (prefers-color-scheme:dark){.berry{color:#111315}}
.info{list-style:none;padding:0;margin:0;font-size:.85rem;color:var(--muted)}
.tally{letter-spacing:.1em;color:var(--slash);font-weight:700}
.legend{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.3rem .9rem;\
font-size:.85rem}
.legend .pt{display:inline-flex;width:1.2rem;height:1.2rem;font-size:.7rem;\
margin-inline-end:.3rem;vertical-align:middle}
details.as-text summary{color:var(--muted);cursor:pointer;font-size:.9rem}
pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;line-height:1.25;\
background:var(--band);border-radius:.4rem;padding:.5rem;margin:1rem 0;overflow-x:auto;\
font-size:min(15px,calc((100vw - 3rem) / 25.2))}
pre.c50{font-size:min(15px,calc((100vw - 3rem) / 31.6))}
.wide{display:none}
@media (min-width:62rem){.narrow{display:none}.wide{display:block;font-size:14px}}
.note{color:var(--muted);font-size:.85rem}
.stale{opacity:.55}
[data-state=reconnecting] #state,[data-state=offline] #state,[data-state=busy] #state,\
[data-state=gone] #state{color:var(--fg);font-weight:600}
@media print{:root{--bg:#fff;--fg:#000;--muted:#333;--band:#fff;--accent:#000;--turn:#eee}\
pre{font-size:10pt}.live{display:none}}"""


def fragment(card: ShareCard) -> str:
    """The part of the page that changes with the session: heading, result, standings, and
    the game's card drawn for the page (the text card folded under it, "as text")."""
    placed = any(s.place for s in card.standings)
    rows = "".join(
        f'<tr><td class="n">{s.place or ""}</td><td><bdi>{escape(s.player)}</bdi></td>'
        f'<td class="n">{"" if s.score is None else s.score}</td></tr>'
        for s in card.standings
    )
    text = (
        f'<pre class="narrow{" c50" if card.narrow_columns > NARROW else ""}">'
        f"{isolated(card.narrow, card.names)}</pre>"
        f'<pre class="wide">{isolated(card.wide, card.names)}</pre>'
    )
    drawn = (
        f'<div class="drawn">{card.drawing}</div>'
        f'<details class="as-text"><summary>as text</summary>{text}</details>'
        if card.drawing is not None
        else text
    )
    return (
        f'<header data-title="{escape(card.title)}"><h1>{escape(card.game)}</h1>'
        f'<p class="meta">{escape(card.name)} &middot; {escape(card.date)}'
        + (f" &middot; night {escape(card.night)}" if card.night else "")
        + (f" &middot; played {escape(card.played)}" if card.played else "")
        + "</p></header>"
        f'<p class="result">{isolated(card.result, card.names)}</p>'
        + (f'<p class="house">house rules: {escape(card.house)}</p>' if card.house else "")
        + (
            f'<p class="money">{"<br>".join(isolated(line, card.names) for line in card.money)}</p>'
            if card.money
            else ""
        )
        + f'<table class="standings{" placed" if placed else ""}"><thead><tr>'
        f'<th class="n">{"#" if placed else ""}</th><th>player</th>'
        f'<th class="n">{escape(card.label)}</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
        + drawn
        + (f'<pre class="season">{escape(chr(10).join(card.season))}</pre>' if card.season else "")
    )


def notice(text: str) -> str:
    """A fragment that stands where the card would (the session was deleted, or is broken)."""
    return (
        '<header data-title="referee"><h1>referee</h1></header>'
        f'<p class="result">{escape(text)}</p>'
    )


def page(card: ShareCard) -> str:
    """The share card as a whole page (`export --format html`)."""
    return document(fragment(card), card.title)


def document(body: str, title: str, *, script: str = "", version: int = 0) -> str:
    """A page around a fragment; with `script` (`referee serve`'s), it keeps itself current,
    and without JavaScript it reloads itself every few seconds."""
    refresh = '<noscript><meta http-equiv="refresh" content="5"></noscript>' if script else ""
    # Without JavaScript the refresh above is what keeps the card current; the script says
    # at once how it is kept (live, reconnecting, offline ...), and never claims more.
    note = '<p class="note live" id="state">Reloads every 5 seconds.</p>' if script else ""
    tail = f"<script>{script}</script>" if script else ""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"{refresh}<title>{escape(title)}</title><style>{STYLE}</style></head>"
        # the state line first: a phone sees "reconnecting" or "stale" before the card
        f'<body data-version="{version}"><main>{note}<section id="live">{body}</section>'
        f'<p class="note">Kept with referee.</p></main>{tail}</body></html>\n'
    )


def source_hash(source: str) -> str:
    """A CSP source expression allowing exactly this inline script or style."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


# ---------------------------------------------------------------------------- SVG

SVG_FONT = 'ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace'


class Run(NamedTuple):
    """A piece of one line of the picture, drawn on its own from its column: a name is a run
    of its own, so a right-to-left name is laid out alone (it can never reorder the marks
    beside it) and whatever follows a wide name starts at the cell it should."""

    column: int  # screen cells from the left edge (`cells.width_of`)
    text: str
    kind: str  # "head", "result", "muted", "card", "text" or "name"


def picture_lines(card: ShareCard) -> list[str]:
    """The lines of the SVG and PNG: heading, result, standings, then the phone card."""
    return ["".join(" " * (r.column - _end(runs[:i])) + r.text for i, r in enumerate(runs))
            for runs in picture_rows(card)]  # fmt: skip


def _end(runs: Sequence[Run]) -> int:
    from referee.render.cells import width_of

    return runs[-1].column + width_of(runs[-1].text) if runs else 0


def picture_rows(card: ShareCard) -> list[tuple[Run, ...]]:
    """The picture's lines as runs: heading, result, the standings under the game's own
    column name, then the phone card; each player's name a run of its own."""
    from referee.render.cells import cut, ljust, wrap_words

    lines: list[tuple[str, str]] = [("head", card.game.upper()),
                                    ("muted", f"{card.name}, {card.date}")]  # fmt: skip
    if card.night or card.played:
        said = [f"night {card.night}" if card.night else "", f"played {card.played}"]
        lines.append(("muted", ", ".join(p for p in said if p and p != "played ")))
    lines += [("text", ""), ("result", card.result), ("text", "")]
    if card.house:
        lines[-1:] = [*(("muted", w) for w in wrap_words(f"house rules: {card.house}", NARROW,
                                                         "  ")), ("text", "")]  # fmt: skip
    if card.money:
        lines[-1:] = [*(("text", m) for m in card.money), ("text", "")]
    lines.append(("muted", f"    {ljust('player', 20)} {card.label:>8}"))
    for s in card.standings:
        score = "" if s.score is None else str(s.score)
        shown = ljust(cut(printable(s.player), 20, "…"), 20)
        place = f"{s.place:>2}." if s.place else "   "
        lines.append(("text", f"{place} {shown} {score:>8}".rstrip()))
    lines.append(("text", ""))
    lines += [("card", line) for line in card.narrow.splitlines()]
    if card.season:
        lines += [("text", ""), *(("muted", line) for line in card.season)]
    found = _names_pattern([printable(n) for n in card.names])
    return [_runs(text, kind, found) for kind, text in lines]


def _runs(text: str, kind: str, names: re.Pattern[str] | None) -> tuple[Run, ...]:
    """One line cut into runs at each name; spaces between runs are left out."""
    from referee.render.cells import width_of

    runs: list[Run] = []
    at = 0
    pieces = [(m.start(), m.end()) for m in names.finditer(text)] if names else []
    edges = [0, *(e for p in pieces for e in p), len(text)]
    named = {start for start, _ in pieces}
    for start, end in itertools.pairwise(edges):
        piece = text[start:end]
        column = at + width_of(piece) - width_of(piece.lstrip(" "))
        if piece.strip():
            runs.append(Run(column, piece.strip(" "), "name" if start in named else kind))
        at += width_of(piece)
    return tuple(runs)


def svg(card: ShareCard) -> str:
    """The card as an SVG: generic fonts only, light and dark from the reader's setting; each
    name its own `<text>`, isolated for direction and fitted to the cells it takes."""
    from referee.render.cells import width_of

    rows = picture_rows(card)
    columns = max((_end(runs) for runs in rows), default=NARROW)
    char_w, line_h, pad = 8.4, 18, 16
    width = int(columns * char_w + 2 * pad)
    height = int(len(rows) * line_h + 2 * pad)
    texts = []
    for i, runs in enumerate(rows):
        y = pad + (i + 1) * line_h - 4
        for run in runs:
            fit = ""
            if width_of(run.text) != len(run.text):  # a wide glyph takes exactly two cells
                fit = (f' textLength="{width_of(run.text) * char_w:.1f}"'
                       ' lengthAdjust="spacingAndGlyphs"')  # fmt: skip
            texts.append(f'<text x="{pad + run.column * char_w:.1f}" y="{y}" class="{run.kind}"'
                         f"{fit}>{escape(run.text)}</text>")  # fmt: skip
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img">'
        f"<title>{escape(card.title)}</title>"
        "<style>.bg{fill:#fff}.band{fill:#f2f4f7}text{fill:#161616;white-space:pre;"
        f"font:14px {html.escape(SVG_FONT, quote=False)}}}"
        ".name{unicode-bidi:isolate;fill:#0b3d73}.head,.result{font-weight:bold;fill:#0a4f9e}"
        ".muted{fill:#4d4d4d}"
        "@media (prefers-color-scheme:dark){.bg{fill:#111315}.band{fill:#1b1e22}"
        "text{fill:#ededed}.name{fill:#cfe6ff}.head,.result{fill:#8cc4ff}.muted{fill:#b4b4b4}}"
        f'</style><rect width="100%" height="100%" fill="#fff" class="bg"/>'
        f"{_band(rows, pad, line_h, width)}{''.join(texts)}</svg>\n"
    )


def _band(rows: Sequence[tuple[Run, ...]], pad: int, line_h: int, width: int) -> str:
    """The shaded band behind the game's card."""
    inside = [i for i, runs in enumerate(rows) if any(r.kind == "card" for r in runs)]
    if not inside:
        return ""
    top, bottom = pad + inside[0] * line_h, pad + (inside[-1] + 1) * line_h + 4
    return (f'<rect x="{pad // 2}" y="{top}" width="{width - pad}" height="{bottom - top}" '
            'rx="6" fill="#f2f4f7" class="band"/>')  # fmt: skip
