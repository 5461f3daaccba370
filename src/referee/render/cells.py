"""Widths on a screen: text measured, cut and padded in the cells a terminal draws it in (a CJK
character or most emoji takes two), as Rich counts them, so a name of wide characters keeps a
column straight. No console: Rich's table of widths is read only for text that is not ASCII,
so the words of a ruling stay as cheap as they were."""

from __future__ import annotations

from collections.abc import Sequence


def width_of(text: str) -> int:
    """The screen cells `text` takes: one a character, two for a wide one (CJK, most emoji),
    counted as Rich counts them when it draws.

    >>> width_of("Ann"), width_of("王小明"), width_of("😀x")
    (3, 6, 3)
    """
    if text.isascii():
        return len(text)
    from rich.cells import cell_len  # a table of widths, not the console: only for wide text

    return cell_len(text)


def clusters(text: str) -> list[str]:
    """`text` in the pieces a terminal draws as one (a letter and its accents, an emoji and
    its variation selector or skin tone, a flag's two letters, emoji joined by a ZWJ): what a
    cut may never split, or the piece left draws wider than its count, or as another.

    >>> clusters("e\\u0301x") == ["e\\u0301", "x"], clusters("\\U0001f1ef\\U0001f1f5!")
    (True, ['🇯🇵', '!'])
    >>> clusters("\\u2764\\ufe0f\\u2764\\ufe0f")
    ['❤️', '❤️']
    """
    if text.isascii():
        return list(text)
    pieces: list[str] = []
    joined = flag = False  # the last piece ends in a ZWJ / is a flag's first letter
    for char in text:
        regional = "\U0001f1e6" <= char <= "\U0001f1ff"
        if pieces and (joined or (flag and regional) or char == "\u200d" or not width_of(char)):
            pieces[-1] += char
            flag = False
        else:
            pieces.append(char)
            flag = regional
        joined = char == "\u200d"
    return pieces


def cut(text: str, width: int, mark: str = "") -> str:
    """`text` in at most `width` cells, ending in `mark` (say "…") where it had to be cut; a
    wide character that would straddle the edge goes, and a character is never parted from
    its accents or an emoji from its modifiers.

    >>> cut("Annabelle", 5, "…"), cut("王小明王", 5, "…"), cut("Ann", 5, "…")
    ('Anna…', '王小…', 'Ann')
    >>> cut("\u2764\ufe0f\u2764\ufe0f\u2764\ufe0f", 4, "…")
    '❤️…'
    """
    if width_of(text) <= width:
        return text
    room = width - width_of(mark)
    if room < 0:  # not even the mark fits: as much of the text as does
        mark, room = "", width
    kept, used = [], 0
    for piece in clusters(text):
        used += width_of(piece)
        if used > room:
            break
        kept.append(piece)
    return "".join(kept) + mark


def ljust(text: str, width: int) -> str:
    """`text` padded with spaces on the right to `width` cells (never cut)."""
    return text + " " * (width - width_of(text))


def rjust(text: str, width: int) -> str:
    """`text` padded with spaces on the left to `width` cells (never cut)."""
    return " " * (width - width_of(text)) + text


def wrap_words(text: str, width: int, indent: str = "") -> list[str]:
    """`text` wrapped at spaces into lines of at most `width` cells, the lines after the first
    indented by `indent`; a word wider than a line is cut across lines (as textwrap does, in
    cells rather than characters).

    >>> wrap_words("bid: three 5s by 王小明王小明", 16, "  ")
    ['bid: three 5s by', '  王小明王小明']
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        while word:
            lead = indent if lines else ""
            joined = f"{line} {word}" if line else lead + word
            if width_of(joined) <= width:
                line, word = joined, ""
            elif line:
                lines.append(line)
                line = ""
            else:  # a word wider than the line: as much as fits, the rest on the next
                head = cut(word, max(1, width - width_of(lead))) or clusters(word)[0]
                lines.append(lead + head)
                word = word[len(head) :]
    if line:
        lines.append(line)
    return lines


def cut_apart(texts: Sequence[str], width: int, mark: str = "…") -> list[str]:
    """Each of `texts` cut to `width` cells (`cut`), but texts that differ stay apart: where two
    would be cut alike, each keeps its end after the mark, as much of it as tells them apart.

    >>> cut_apart(["Alexander Brandt", "Alexander Braun", "Bob"], 12)
    ['Alexander…t', 'Alexander…n', 'Bob']
    >>> cut_apart(["Alexander Brandt", "Alexander Brant"], 12)
    ['Alexander…dt', 'Alexander…nt']
    """
    plain = [cut(t, width, mark) for t in texts]
    found = list(plain)
    for i, text in enumerate(texts):
        alike = [j for j, other in enumerate(texts) if plain[j] == plain[i] and other != text]
        if not alike:
            continue
        for tail in range(1, width - width_of(mark)):
            pieces = clusters(text)
            end = "".join(pieces[-tail:])
            head = cut(text, width - width_of(mark) - width_of(end), "").rstrip()
            if all(not texts[j].endswith(end) for j in alike):
                found[i] = head + mark + end
                break
    return found


def listed(names: Sequence[str], width: int | None = None) -> str:
    """Names (already `printable`) one after another: `Ann, Dee, Cy, Bob`, cut with `…` past
    `width` cells; a first name too wide alone is cut itself, so one is always named.

    >>> listed(["Ann", "Dee", "Cy", "Bob"]), listed(["Ann", "Dee", "Cy", "Bob"], 12)
    ('Ann, Dee, Cy, Bob', 'Ann, Dee, …')
    """
    text = ", ".join(names)
    if width is None or width_of(text) <= width:
        return text
    kept = list(names)
    while kept and width_of(", ".join(kept)) + 3 > width:
        kept.pop()
    if not kept and names and width >= 6:  # the first name alone is too wide (CJK)
        kept = [cut(names[0], width - 3, "…")]
    return ", ".join([*kept, "…"])
