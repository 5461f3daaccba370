"""The share card as a PNG, for group chats (which preview pictures, not pages).

Pillow is an optional extra (`pip install "referee[png]"`): the core install stays pure Python
for phones. Each character is drawn in its own cell, so the card lines up with any font; a
monospace font with box-drawing glyphs is used when the system has one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import UsageError
from referee.render.share import ShareCard, is_rtl, picture_rows

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont

FONTS = ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "Menlo.ttc", "consola.ttf")
# For a name the card font cannot draw (Hebrew, Arabic, CJK): the first of these that can.
NAME_FONTS = ("DejaVuSans.ttf", "DroidSansFallbackFull.ttf", "NotoSansCJK-Regular.ttc",
              "wqy-zenhei.ttc", "arialuni.ttf", "Arial Unicode.ttf")  # fmt: skip
SIZE = 28  # pixels: sharp when a chat shrinks it to a phone's width
# Light, the page's colours: chats show pictures on their own background.
COLOURS: dict[str, tuple[int, int, int]] = {
    "bg": (255, 255, 255),
    "band": (242, 244, 247),  # behind the game's card, as on the page
    "text": (22, 22, 22),
    "card": (22, 22, 22),
    "muted": (77, 77, 77),
    "head": (10, 79, 158),
    "result": (10, 79, 158),
    "name": (11, 61, 115),
}
MARKS: dict[str, tuple[int, int, int]] = {  # the Kariki berries in the card, by their letter
    "T": (179, 38, 30),  # lie
    "P": (138, 75, 0),  # bad pull
    "/": (106, 63, 176),  # slashes
    "K": (10, 109, 116),  # kariki
    "C": (154, 107, 0),  # crowns
    "!": (179, 38, 30),  # illegal claim
    "J": (85, 85, 85),  # joined
}


def _font() -> FreeTypeFont | ImageFont:
    from PIL import ImageFont

    for name in FONTS:
        try:
            return ImageFont.truetype(name, SIZE)
        except OSError:
            continue
    return ImageFont.load_default(SIZE)


def _draws(font: FreeTypeFont | ImageFont, text: str) -> bool:
    """Whether `font` has a glyph for every letter of `text` (not its empty box)."""
    missing = bytes(font.getmask("\U000f0000"))  # a private-use letter: the empty box
    return all(c.isspace() or bytes(font.getmask(c)) != missing for c in text)


def _name_font(
    font: FreeTypeFont | ImageFont, text: str, cells: int, cell_w: int
) -> FreeTypeFont | ImageFont:
    """The card's font if it draws `text`, else the first of `NAME_FONTS` that does, sized so
    the name stays within its `cells`."""
    from PIL import ImageFont

    if _draws(font, text):
        return font
    for name in NAME_FONTS:
        try:
            found = ImageFont.truetype(name, SIZE)
        except OSError:
            continue
        if _draws(found, text):
            wide = found.getlength(text)
            if wide > cells * cell_w:  # never over the next column
                found = ImageFont.truetype(name, max(8, int(SIZE * cells * cell_w / wide)))
            return found
    return font


def png(card: ShareCard) -> bytes:
    """The card drawn as a PNG picture, in the page's light colours, the standings under the
    game's own word; each name drawn whole from its cell (right to left where it is written
    so), so it never moves another player's marks."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise UsageError(
            'PNG needs the png extra: pip install "referee[png]" (or use --format html)'
        ) from None
    import io

    from referee.render.cells import clusters, width_of

    font = _font()
    rows = picture_rows(card)
    cell_w = max(1, round(font.getlength("M")))
    cell_h = round(SIZE * 1.3)
    pad = SIZE
    columns = max((r.column + width_of(r.text) for runs in rows for r in runs), default=1)
    size = (columns * cell_w + 2 * pad, len(rows) * cell_h + 2 * pad)
    image = Image.new("RGB", size, COLOURS["bg"])
    draw = ImageDraw.Draw(image)
    inside = [i for i, runs in enumerate(rows) if any(r.kind == "card" for r in runs)]
    if inside:
        top, bottom = pad + inside[0] * cell_h, pad + (inside[-1] + 1) * cell_h
        draw.rounded_rectangle((pad // 2, top - 6, size[0] - pad // 2, bottom + 6), radius=10,
                               fill=COLOURS["band"])  # fmt: skip
    for row, runs in enumerate(rows):
        y = pad + row * cell_h
        for run in runs:
            x = pad + run.column * cell_w
            if run.kind == "name" and not run.text.isascii():  # shaped and ordered whole
                rtl = any(is_rtl(c) for c in run.text)
                shown = _name_font(font, run.text, width_of(run.text), cell_w)
                draw.text((x, y), run.text, font=shown, fill=COLOURS["name"],
                          direction="rtl" if rtl and _has_raqm() else None)  # fmt: skip
                continue
            col = 0
            for piece in clusters(run.text):
                if piece != " ":
                    ink = COLOURS.get(run.kind, COLOURS["text"])
                    if run.kind == "card" and card.game == "Kariki" and _is_mark(run.text, col):
                        ink = MARKS.get(piece, ink)
                    draw.text((x + col * cell_w, y), piece, font=font, fill=ink)
                col += width_of(piece)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _is_mark(text: str, col: int) -> bool:
    """Whether the character at `col` of a Kariki card line is a berry on a cross (a letter
    with the cross's `-` beside it, or alone where a cross's top or bottom point is)."""
    import re

    for found in re.finditer(r"(?:(?<=^)|(?<= ))(\S)-(\S)-(\S)(?= |$)", text):
        if col in (found.start(1), found.start(2), found.start(3)):
            return True
    stripped = text.strip()
    return (len(stripped) == 1 and text.index(stripped) == col) or bool(
        re.match(r"^\S(?= {4}(berries|slashes|crowns))", text[col:])
    )


def _has_raqm() -> bool:
    """Whether Pillow lays out text with libraqm (bidi and shaping)."""
    from PIL import features

    return bool(features.check("raqm"))
