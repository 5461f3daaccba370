"""Text from users and files: the one escaping helper, and the one check for names.

Anything a session file, a ruleset or a command line can carry is printed through `printable`,
so an escape sequence in a hand-edited file (a clipboard write, a screen clear) never reaches
the terminal raw. Names are checked by `check_name` when typed and again on every load.
"""

from __future__ import annotations

import unicodedata

from referee.errors import UsageError, quote

NAME_MAX = 16
# Letters that draw nothing although they are not control characters (fillers, blanks).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _is_unsafe(char: str) -> bool:
    """Control, format (bidi marks, zero-width), surrogate, unassigned or separator characters."""
    category = unicodedata.category(char)
    return category[0] == "C" or category in ("Zl", "Zp") or char in _INVISIBLE


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with every unsafe character shown as a visible escape.

    >>> printable("Bob\\x1b]52;c;aGk=\\x07")
    'Bob\\\\x1b]52;c;aGk=\\\\x07'
    >>> printable("a\\nb", keep_newlines=True)
    'a\\nb'
    """
    if text.isprintable():  # the common case, at C speed
        return text
    out = []
    for char in text:
        if keep_newlines and char == "\n":
            out.append(char)
        elif _is_unsafe(char):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def check_name(text: str, what: str = "player name", limit: int = NAME_MAX) -> str:
    """A name as it will be shown: one line, visible, not too long, not an option.

    >>> check_name(" Ann ")
    'Ann'
    """
    name = text.strip()
    if not name:
        raise UsageError(f"empty {what}")
    if len(name) > limit:
        raise UsageError(f"{what} {quote(name)} is too long: at most {limit} characters")
    if any(_is_unsafe(c) or (c.isspace() and c != " ") for c in name):
        raise UsageError(f"{what} {quote(name)} has control or invisible characters")
    if name.startswith("-"):
        raise UsageError(f"{what} {quote(name)} may not start with '-'")
    if "=" in name:
        raise UsageError(f"{what} {quote(name)} may not contain '=' (it sets a nickname)")
    return name
