"""Everything the CLI writes: one-line errors, JSON documents, Rich screens.

Rich is imported only when a screen is drawn, so `--json` and errors never pay for it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from referee.text import printable

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


def error_line(message: str) -> None:
    """One message on stderr: one line for scripts, wrapped at words on a terminal (in red)."""
    text = " ".join(printable(f"error: {message}").split())
    if sys.stderr.isatty():
        text = _wrapped_message(text)
        if "NO_COLOR" not in os.environ:
            text = f"\x1b[31m{text}\x1b[0m"
    sys.stderr.write(text + "\n")


def warning_line(message: str) -> int:
    """A warning on stderr: one line for scripts, wrapped at words on a terminal; the command
    still succeeds. Returns the lines it took."""
    text = " ".join(printable(f"warning: {message}").split())
    if sys.stderr.isatty():
        text = _wrapped_message(text)
    sys.stderr.write(text + "\n")
    return text.count("\n") + 1


def _wrapped_message(text: str) -> str:
    """A one-line message wrapped at spaces to the terminal, counted in cells (a CJK name or
    an emoji takes two, so textwrap's count of characters ran past the edge) and never inside
    a word (textwrap parted `Alexandra-Louise` at its hyphen)."""
    from referee.render.cells import wrap_words

    return "\n".join(wrap_words(text, width(), "  "))


def print_json(document: Any) -> None:
    """One JSON document on stdout and nothing else, always valid JSON and valid UTF-8.

    Characters are written as themselves (a name outside the basic plane, an emoji, stays one
    character, not a surrogate pair a reader must join) when stdout is UTF-8. On any other
    stdout (`PYTHONIOENCODING=latin-1`, an old Windows console) the document is all ASCII with
    `\\uXXXX` escapes, which every such encoding and UTF-8 read alike and every JSON reader
    decodes, rather than a traceback or bytes the stream's own readers would misread.
    JSON escapes C0 controls itself; C1 controls, bidi marks and line separators are escaped
    here too (they can only stand inside strings), so the document is safe on a terminal.
    """
    text = json.dumps(document, indent=2, ensure_ascii=not unicode_out())
    if not text.replace("\n", "").isprintable():
        text = "".join(c if c == "\n" or c.isprintable() else json_escape(c) for c in text)
    sys.stdout.write(text + "\n")


def json_escape(char: str) -> str:
    """One character as JSON writes it escaped: `\\uXXXX`, or a surrogate pair past U+FFFF
    (`\\u` takes exactly four digits, so `\\ue0001` would read as U+E000 and a "1")."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def write_utf8(text: str) -> None:
    """A file's text (an export to `-o -`) on stdout as the UTF-8 bytes `-o FILE` would hold,
    whatever stdout's encoding: a name it cannot encode must not end the export in a
    traceback half written."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("_", "-")
    raw = getattr(sys.stdout, "buffer", None)
    if encoding in ("utf-8", "utf8") or raw is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    raw.write(text.encode("utf-8"))
    raw.flush()


def unicode_out() -> bool:
    """Whether stdout takes all of Unicode (UTF-8); a `C` locale or a code page does not."""
    import codecs

    try:
        return codecs.lookup(getattr(sys.stdout, "encoding", None) or "utf-8").name.startswith(
            "utf"
        )
    except LookupError:
        return False


def print_text(text: str) -> None:
    """Plain lines on stdout, for outputs that need no drawing; never a raw control character."""
    sys.stdout.write(printable(text.rstrip("\n"), keep_newlines=True) + "\n")


def print_wrapped(text: str) -> None:
    """Prose lines on stdout, each wrapped to the screen with a hanging indent of 2."""
    import textwrap

    room = min(width(), 100)
    lines = []
    for line in text.splitlines():
        lead = len(line) - len(line.lstrip())
        if line.isascii():
            indent = " " * (lead + 2)
            lines += textwrap.wrap(line, width=room, subsequent_indent=indent) or [""]
            continue
        # a name of wide characters (CJK, emoji) takes two cells a character: wrapped in cells
        from referee.render.cells import width_of, wrap_words

        if width_of(line) <= room:
            lines.append(line.rstrip())
        else:
            lines += [" " * lead + part for part in wrap_words(line, room - lead, "  ")]
    print_text("\n".join(lines))


def console() -> Console:
    """The stdout console: colour follows the terminal, NO_COLOR and pipes get plain text."""
    from rich.console import Console

    return Console(highlight=False, emoji=False, soft_wrap=False, width=width())


def draw(*renderables: RenderableType | str) -> None:
    """Draw renderables on stdout; a string is shown literally (never as Rich markup)."""
    out = console()
    items = []
    for item in renderables:
        if isinstance(item, str):
            from rich.text import Text

            item = Text(printable(item, keep_newlines=True))
        items.append(item)
    if out.is_terminal:
        for item in items:
            out.print(item)
        return
    # Into a pipe or a file: lines as they are read, without the padding that lines up a screen.
    with out.capture() as captured:
        for item in items:
            out.print(item)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


MIN_WIDTH, MAX_WIDTH = 20, 400


def height() -> int:
    """The lines a screen may take: LINES, the terminal, else 24 (a phone with its keyboard),
    as `shutil.get_terminal_size` finds them (without importing shutil for it)."""
    return max(5, _measured("LINES", sys.__stdout__, "lines") or 24)


def _measured(variable: str, stream: object, side: str) -> int:
    """One side of the screen: the environment variable, else the terminal's; 0 if neither."""
    found = 0
    with contextlib.suppress(ValueError):
        found = int(os.environ.get(variable, ""))
    if found <= 0:
        try:
            found = getattr(os.get_terminal_size(stream.fileno()), side)  # type: ignore[attr-defined]
        except (AttributeError, OSError, ValueError):
            found = 0
    return max(found, 0)


def width() -> int:
    """The width screens are laid out for: COLUMNS, the terminal, else 80; kept sane."""
    # Piped (`referee show | head`), the terminal is still stderr's: lay out for its width.
    found = _measured("COLUMNS", sys.stdout, "columns") or _measured("", sys.stderr, "columns")
    return max(MIN_WIDTH, min(MAX_WIDTH, found)) if found else 80
