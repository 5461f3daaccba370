"""The share card: one session as a page (or picture) people open on their own phones.

A `ShareCard` is the text of the card, made once: the game and the date, the result, the
standings, and the game's own card drawn for a phone (40 columns) and for a wide screen. The
HTML page, the SVG and the PNG (`render/share_png.py`) are all drawn from it, and so is the
live page of `referee serve`. Every piece of text a session file gave passes through `escape`
(the one escaping helper, `text.printable`, then HTML's), so a name can never become markup.

The page is self-contained: no script, font or picture from the network; light and dark
follow the reader's setting; at 360-430 px every column of the phone card fits without
sideways scrolling, and from 62rem the wide card is shown instead.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
from collections.abc import Callable
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
    """Places from the outcome's standings (winners share first), then everyone else."""
    order = [p for p in outcome.standings if p in players]
    order += [p for p in players if p not in order]
    rows: list[Standing] = []
    for i, player in enumerate(order):
        place = 1 if player in outcome.winners else i + 1
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


def _title(session: Session) -> str:
    """The game as the card's page names it: its title, and a bundled variant by its own name
    (Perudo), as ratings and stats name it."""
    from referee import games
    from referee.history import ruleset_name
    from referee.league import PERUDO, pool_title

    return pool_title(PERUDO) if ruleset_name(session) == PERUDO else games.info(session.game).title


def share_card(
    session: Session, state: Any, night: str = "", season: tuple[str, ...] = ()
) -> ShareCard:
    """The share card of a session in the state `state` (its replay), part of `night`, with
    the lines of the newest season it counts in (`render.season.share_lines`)."""
    from referee import games
    from referee.history import duration, play_span
    from referee.house import phrases
    from referee.render.common import money_lines
    from referee.session import money, seated_players

    engine = session.engine
    seated = tuple(p.name for p in seated_players(session, state))
    kept = money(session, state)
    outcome = engine.outcome(state)
    render = games.module(session.game, "render")
    card = render.card
    return ShareCard(
        game=_title(session),
        name=session.name,
        date=local_date(session.created),
        result=result_line(outcome, engine.turn(state)),
        standings=standings(outcome, engine.scores(state), seated),
        narrow=phone_card(
            lambda width: card(state, session.name, width, compact=False),
            lambda width: int(render.card_lines(state, width, session.name)),
        ),
        wide=card_text(card(state, session.name, WIDE, compact=False), WIDE),
        house=", ".join(phrases(session.game, session.ruleset)),
        money=tuple(t.plain for t in money_lines(kept, seated, NARROW)) if kept else (),
        night=night,
        played=duration(*play_span(session)),
        season=season,
    )


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
--accent:#0a4f9e;--band:#f2f4f7}
@media (prefers-color-scheme:dark){:root{--bg:#111315;--fg:#ededed;--muted:#b4b4b4;\
--line:#3c4046;--accent:#8cc4ff;--band:#1b1e22}}
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
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line)}
th{color:var(--muted);font-weight:600;font-size:.9rem}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.standings tr:first-child td{font-weight:600}
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
@media print{:root{--bg:#fff;--fg:#000;--muted:#333;--band:#fff;--accent:#000}\
pre{font-size:10pt}.live{display:none}}"""


def fragment(card: ShareCard) -> str:
    """The part of the page that changes with the session: heading, result, standings, card."""
    rows = "".join(
        f'<tr><td class="n">{s.place}</td><td>{escape(s.player)}</td>'
        f'<td class="n">{"" if s.score is None else s.score}</td></tr>'
        for s in card.standings
    )
    return (
        f'<header data-title="{escape(card.title)}"><h1>{escape(card.game)}</h1>'
        f'<p class="meta">{escape(card.name)} &middot; {escape(card.date)}'
        + (f" &middot; night {escape(card.night)}" if card.night else "")
        + (f" &middot; played {escape(card.played)}" if card.played else "")
        + "</p></header>"
        f'<p class="result">{escape(card.result)}</p>'
        + (f'<p class="house">house rules: {escape(card.house)}</p>' if card.house else "")
        + (
            f'<p class="money">{"<br>".join(escape(line) for line in card.money)}</p>'
            if card.money
            else ""
        )
        + '<table class="standings"><thead><tr><th class="n">#</th><th>player</th>'
        '<th class="n">score</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
        f'<pre class="narrow{" c50" if card.narrow_columns > NARROW else ""}">'
        f"{escape(card.narrow)}</pre>"
        f'<pre class="wide">{escape(card.wide)}</pre>'
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
        f'<body data-version="{version}"><main><section id="live">{body}</section>'
        f'{note}<p class="note">Kept with referee.</p></main>{tail}</body></html>\n'
    )


def source_hash(source: str) -> str:
    """A CSP source expression allowing exactly this inline script or style."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


# ---------------------------------------------------------------------------- SVG

SVG_FONT = 'ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace'


def picture_lines(card: ShareCard) -> list[str]:
    """The lines of the SVG and PNG: heading, result, standings, then the phone card."""
    lines = [card.game.upper(), f"{card.name}, {card.date}", "", card.result, ""]
    if card.night or card.played:
        said = [f"night {card.night}" if card.night else "", f"played {card.played}"]
        lines[2:2] = [", ".join(p for p in said if p and p != "played ")]
    if card.house:
        from referee.render.cells import wrap_words

        lines[-1:] = [*wrap_words(f"house rules: {card.house}", NARROW, "  "), ""]
    if card.money:
        lines[-1:] = [*card.money, ""]
    for s in card.standings:
        score = "" if s.score is None else str(s.score)
        lines.append(f"{s.place:>2}. {s.player:<20} {score:>8}".rstrip())
    season = ["", *card.season] if card.season else []
    return [*lines, "", *card.narrow.splitlines(), *season]


def svg(card: ShareCard) -> str:
    """The card as an SVG: generic fonts only, light and dark from the reader's setting."""
    lines = picture_lines(card)
    columns = max((len(line) for line in lines), default=NARROW)
    char_w, line_h, pad = 8.4, 18, 16
    width = int(columns * char_w + 2 * pad)
    height = int(len(lines) * line_h + 2 * pad)
    heading = ' class="h"'
    texts = "".join(
        f'<text x="{pad}" y="{pad + (i + 1) * line_h - 4}"'
        f"{heading if i in (0, 3) else ''}>{escape(line)}</text>"
        for i, line in enumerate(lines)
        if line
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img">'
        f"<title>{escape(card.title)}</title>"
        "<style>.bg{fill:#fff}text{fill:#161616;white-space:pre;"
        f"font:14px {html.escape(SVG_FONT, quote=False)}}}.h{{font-weight:bold;fill:#0a4f9e}}"
        "@media (prefers-color-scheme:dark){.bg{fill:#111315}text{fill:#ededed}"
        ".h{fill:#8cc4ff}}</style>"
        f'<rect width="100%" height="100%" fill="#fff" class="bg"/>{texts}</svg>\n'
    )
