"""The share card as a PNG, for group chats (which preview pictures, not pages).

Pillow is an optional extra (`pip install "referee[png]"`): the core install stays pure Python
for phones. Each character is drawn in its own cell, so the card lines up with any font; a
monospace font with box-drawing glyphs is used when the system has one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import UsageError
from referee.render.share import ShareCard, picture_lines

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont

FONTS = ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "Menlo.ttc", "consola.ttf")
SIZE = 28  # pixels: sharp when a chat shrinks it to a phone's width
LIGHT = {"bg": (255, 255, 255), "fg": (22, 22, 22), "accent": (10, 79, 158)}


def _font() -> FreeTypeFont | ImageFont:
    from PIL import ImageFont

    for name in FONTS:
        try:
            return ImageFont.truetype(name, SIZE)
        except OSError:
            continue
    return ImageFont.load_default(SIZE)


def png(card: ShareCard) -> bytes:
    """The card drawn as a PNG picture (light: chats show pictures on their own background)."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise UsageError(
            'PNG needs the png extra: pip install "referee[png]" (or use --format html)'
        ) from None
    import io

    font = _font()
    lines = picture_lines(card)
    cell_w = max(1, round(font.getlength("M")))
    cell_h = round(SIZE * 1.3)
    pad = SIZE
    columns = max((len(line) for line in lines), default=1)
    image = Image.new("RGB", (columns * cell_w + 2 * pad, len(lines) * cell_h + 2 * pad),
                      LIGHT["bg"])  # fmt: skip
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        colour = LIGHT["accent"] if row in (0, 3) else LIGHT["fg"]
        for col, char in enumerate(line):
            if char != " ":
                draw.text((pad + col * cell_w, pad + row * cell_h), char, font=font, fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
