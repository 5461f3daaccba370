"""Text from users and files: the one escaping helper, and the one check for names.

Anything a session file, a ruleset or a command line can carry is printed through `printable`,
so an escape sequence in a hand-edited file (a clipboard write, a screen clear) never reaches
the terminal raw. Names are checked by `check_name` when typed and again on every load.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TypeVar

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


def name_key(name: str) -> str:
    """One person however his name is typed: in any case, an accented letter typed whole or
    as a letter and an accent, a name in fullwidth letters (NFKC, then casefold): what a table
    refuses twice and what stats and ratings count as one player."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


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


T = TypeVar("T")


def pick(text: str, choices: Sequence[tuple[str, T]], what: str) -> T:
    """The one choice `text` names: by a label exactly, else by a unique prefix (any case).

    Several labels may name one value (a player's name and nickname). The one matcher for
    players, commands and rules, so every near miss reads alike.

    >>> pick("bo", [("Ann", 0), ("Bob", 1), ("Bobby", 1)], "player")
    1
    """
    wanted = text.strip().casefold()
    for label, value in choices:
        if label.casefold() == wanted:
            return value
    found: dict[str, T] = {}
    for label, value in choices:
        if wanted and label.casefold().startswith(wanted) and value not in found.values():
            found[label] = value
    if len(found) == 1:
        return next(iter(found.values()))
    labels = [label for label, _ in choices]
    if found:
        raise UsageError(f"{what} {quote(text)} could be {', '.join(found)}: type more letters")
    import difflib  # a slip's suggestion: no need to load it for every command

    close = difflib.get_close_matches(wanted, [label.casefold() for label in labels], 1, 0.6)
    if close:
        guess = next(label for label in labels if label.casefold() == close[0])
        raise UsageError(f"unknown {what} {quote(text)}: did you mean {quote(guess)}?")
    shown = ", ".join(labels[:12]) or "none"
    raise UsageError(f"unknown {what} {quote(text)}: try {shown}")
