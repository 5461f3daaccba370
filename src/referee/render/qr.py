"""A QR code of the live card's address, drawn to scan on any terminal.

Half-block characters put two rows of modules on a line, so the code of an address fits a
40x24 phone screen: the URL is encoded in as few modules as it allows (the `http://` in byte
mode, the rest, digits, dots, colons and the upper-case token, in alphanumeric mode), which
keeps an IPv4 address with any port at version 3 (29 modules, 37 columns with its quiet zone).

Scanners want dark modules on light with a light quiet zone of 4 modules around. A drawing
in the terminal's own colours gets that right on one kind of terminal only, so:

- with colour, the code is drawn in explicit colours (black on white), whatever the
  terminal's background (`qr_text`);
- without (NO_COLOR, a pipe), the characters are drawn in the terminal's text colour, so the
  polarity follows what is known of its background (`qr_lines`, `is_dark_background`):
  `REFEREE_QR=light|dark`, else `COLORFGBG`, else dark (phones' terminals, and most others).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text
    from segno import QRCode

QUIET = 4  # modules of quiet zone the standard asks for
MIN_QUIET = 2  # what a screen too narrow for the full zone still gets (scanners read it)
# The characters alphanumeric mode holds: 5.5 bits each, not byte mode's 8.
ALPHANUMERIC = re.compile(r"[0-9A-Z $%*+\-./:]+")
MIN_RUN = 8  # a shorter alphanumeric run costs more in its own segment's header than it saves
DARK, LIGHT = "color(16)", "color(231)"  # xterm's own black and white: no theme moves these
HINT = "REFEREE_QR"


def make(url: str) -> QRCode:
    """`url` as the smallest code that holds it, with the most error correction it has room
    for (segno's `boost_error`)."""
    import segno
    from segno import consts

    # segno takes a segment's mode as its number (a name only for the whole content)
    parts = [(text, consts.MODE_MAPPING[mode]) for text, mode in segments(url)]
    # segno's stubs name str, bytes and int only; its `prepare_data` reads a list as segments
    return segno.make(parts, error="l", micro=False, boost_error=True)  # type: ignore[arg-type]


def segments(url: str) -> list[tuple[str, str]]:
    """The URL cut into (text, mode) segments: alphanumeric where a long run allows.

    >>> segments("http://10.0.0.2:8765/AB2C/")
    [('http', 'byte'), ('://10.0.0.2:8765/AB2C/', 'alphanumeric')]
    >>> segments("http://[fd00::5]:80/AB2C/")
    [('http://[FD00::5]', 'byte'), (':80/AB2C/', 'alphanumeric')]
    """
    # An IPv6 host is the same in capitals, which alphanumeric mode holds (a zone is a name).
    url = re.sub(r"\[[0-9a-f:.]+\]", lambda host: host[0].upper(), url)
    parts: list[tuple[str, str]] = []
    at = 0
    for run in ALPHANUMERIC.finditer(url):
        if len(run[0]) < MIN_RUN:
            continue
        if run.start() > at:
            parts.append((url[at : run.start()], "byte"))
        parts.append((run[0], "alphanumeric"))
        at = run.end()
    if at < len(url):
        parts.append((url[at:], "byte"))
    return parts


def modules(url: str, width: int) -> list[list[bool]]:
    """The code's rows (True: dark) with its quiet zone: 4 modules, less only where the
    screen is too narrow for it (a long IPv6 address needs version 4: 3 at 40 columns)."""
    code = make(url)
    size = int(code.symbol_size(border=0)[0])
    quiet = max(MIN_QUIET, min(QUIET, (width - size) // 2))
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=quiet)]


def _pairs(rows: list[list[bool]]) -> list[tuple[list[bool], list[bool]]]:
    """Rows two by two; an odd last row is paired with a light one (more quiet zone)."""
    padded = [*rows, [False] * len(rows[0])] if len(rows) % 2 else rows
    return [(padded[i], padded[i + 1]) for i in range(0, len(padded), 2)]


def _half(top: bool, bottom: bool) -> str:
    return {(True, True): "█", (True, False): "▀", (False, True): "▄"}.get((top, bottom), " ")


def qr_lines(url: str, width: int = 40, *, dark_background: bool = True) -> list[str]:
    """The code in the terminal's own colours: the drawn half-blocks are light modules on a
    dark background, dark modules on a light one; blanks are the terminal's background."""
    light = dark_background  # a dark background: the light modules are the ones drawn
    drawn = [
        "".join(_half(t != light, b != light) for t, b in zip(*pair, strict=True))
        for pair in _pairs(modules(url, width))
    ]
    return drawn if dark_background else [line.rstrip() for line in drawn]


def qr_text(url: str, width: int = 40) -> Text:
    """The code in explicit colours, dark modules drawn on a light quiet zone: it scans the
    same on a light terminal and a dark one."""
    from rich.style import Style
    from rich.text import Text

    style = Style(color=DARK, bgcolor=LIGHT)
    lines = [
        "".join(_half(t, b) for t, b in zip(*pair, strict=True))
        for pair in _pairs(modules(url, width))
    ]
    text = Text(no_wrap=True, overflow="ignore")
    for n, line in enumerate(lines):
        text.append(line, style)
        if n < len(lines) - 1:
            text.append("\n")
    return text


def is_dark_background(environ: dict[str, str] | None = None) -> bool:
    """Whether the terminal is light text on dark, as far as can be told: `REFEREE_QR`
    (light or dark), else `COLORFGBG` (rxvt, Konsole, iTerm: its last field is the background
    colour, 0-6 and 8 dark), else yes.

    >>> is_dark_background({"REFEREE_QR": "light"}), is_dark_background({"COLORFGBG": "0;15"})
    (False, False)
    >>> is_dark_background({"COLORFGBG": "15;default;0"}), is_dark_background({})
    (True, True)
    """
    env = os.environ if environ is None else environ
    hint = env.get(HINT, "").strip().lower()
    if hint in ("light", "dark"):
        return hint == "dark"
    background = env.get("COLORFGBG", "").rsplit(";", 1)[-1].strip()
    if background.isdigit() and len(background) <= 2:
        return int(background) in (0, 1, 2, 3, 4, 5, 6, 8)
    return True
