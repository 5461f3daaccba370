"""Text from users and files: the one escaping helper, and the one check for names.

Anything a session file, a ruleset or a command line can carry is printed through `printable`,
so an escape sequence in a hand-edited file (a clipboard write, a screen clear) never reaches
the terminal raw. Names are checked by `check_name` when typed and again on every load.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import TypeVar

from referee.errors import UsageError, quote

NAME_MAX = 16
# Letters that draw nothing although they are not control characters (fillers, blanks).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) as ranges: what a
# terminal draws as nothing. Most are format characters (category Cf, unsafe already); these
# are listed for the rest, marks and letters that draw nothing: the combining grapheme joiner
# U+034F, the Hangul fillers, Khmer's inherent vowels, Mongolian's variation selectors, the
# variation selectors U+FE00-FE0F and U+E0100-E01EF.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
# Text and emoji presentation selectors: the one ignorable a name may hold, right after a
# symbol (the heart of "❤️"), where it picks how the symbol is drawn.
_PRESENTATION = frozenset("\ufe0e\ufe0f")


def is_ignorable(char: str) -> bool:
    """Whether `char` is a Default_Ignorable_Code_Point: drawn as nothing.

    >>> [is_ignorable(c) for c in "\u200b\u034f\ufe0fA"]
    [True, True, True, False]
    """
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def _is_unsafe(char: str) -> bool:
    """Control, format (bidi marks, zero-width), surrogate, unassigned or separator characters,
    and those that draw nothing (default-ignorable: a name refusing one must show it), but the
    emoji and text presentation selectors an emoji may carry."""
    category = unicodedata.category(char)
    return (
        category[0] == "C"
        or category in ("Zl", "Zp")
        or char in _INVISIBLE
        or (is_ignorable(char) and char not in "\ufe0e\ufe0f")
    )


# What `printable` must look at although `str.isprintable` passes it: the marks and letters
# that draw nothing (the Cf ones fail `isprintable` already); found at C speed.
_DRAWS_NOTHING = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0d\uffa0"
    "\U000e0100-\U000e01ef\u2800]"
)


def _hidden_in(name: str) -> bool:
    """Whether a name holds a character that draws nothing: unsafe, or default-ignorable
    (a presentation selector is drawn with the symbol before it, so it passes there)."""
    before = ""
    for char in name:
        if _is_unsafe(char):
            return True
        if is_ignorable(char) and not (
            char in _PRESENTATION and before and unicodedata.category(before) == "So"
        ):
            return True
        before = char
    return False


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with every unsafe character shown as a visible escape.

    >>> printable("Bob\\x1b]52;c;aGk=\\x07")
    'Bob\\\\x1b]52;c;aGk=\\\\x07'
    >>> printable("a\\nb", keep_newlines=True)
    'a\\nb'
    """
    if text.isascii() and text.isprintable():  # the common case, at C speed
        return text
    if text.isprintable() and SHOWN is None and not _DRAWS_NOTHING.search(text):
        return text
    out = []
    for char in text:
        if keep_newlines and char == "\n":
            out.append(char)
        elif _is_unsafe(char):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        elif SHOWN is not None and not _shown(char):
            out.append("?")  # what the terminal cannot show, as it would: measured as it shows
        else:
            out.append(char)
    return "".join(out)


def one_of(choices: Sequence[str]) -> str:
    """The choices open, as said: `roll, pull or pass` (a screen wraps it between words; with
    ` / ` it broke a line before a lone `/ pass`).

    >>> one_of(["roll", "pull", "pass"]), one_of(["lift"]), one_of([])
    ('roll, pull or pass', 'lift', '')
    """
    return " or ".join(filter(None, [", ".join(choices[:-1]), *choices[-1:]]))


def as_typed(word: str) -> str:
    """`word` (already `printable`) as it is typed in a command the card suggests: as it is,
    else in double quotes, which the shell, bash, cmd and PowerShell all read, else as `shlex`
    quotes it (`buyback "Alexander Brandt"`: unquoted, the name was two words).

    >>> as_typed("Zoë"), as_typed("Alexander Brandt"), as_typed("Bo $x")
    ('Zoë', '"Alexander Brandt"', "'Bo $x'")
    """
    if word and all(c.isalnum() or c in "-_.+@,:/" for c in word):
        return word
    if not any(c in word for c in '"$`\\!%'):
        return f'"{word}"'
    import shlex

    return shlex.quote(word)


def typed_name(name: str, labels: Sequence[tuple[str, str]]) -> str:
    """How to type player `name` in a command the card suggests: the first word when that
    names the player alone among `labels` (as `pick` reads it: `buyback Jo` for Jo Van Der
    Berg), else the whole name as typed (quoted: `buyback "Alexander Brandt"` when there is an
    Alexander Braun too).

    >>> typed_name("Jo Van Der Berg", [("Jo Van Der Berg", "Jo Van Der Berg"), ("Ann", "Ann")])
    'Jo'
    """
    first = name.split(" ", 1)[0]
    # A terminal that cannot show a letter shows `?`, which names nobody when typed back:
    # there the name goes without its accents (`buyback Zoe` for Zoë), as `pick` reads it.
    for typed in dict.fromkeys((first, _without_accents(first), name, _without_accents(name))):
        try:
            if printable(typed) == typed and pick(typed, labels, "player") == name:
                return as_typed(typed)
        except UsageError:
            pass
    return as_typed(printable(name))


SHOWN: str | None = None  # the terminal's encoding when it cannot show all of Unicode


def show_only(encoding: str | None) -> None:
    """Say the terminal shows only `encoding` (None: all of Unicode): `printable` then gives
    `?` for the rest, so a name is laid out in the cells it takes there (王小明 as ???)."""
    global SHOWN
    SHOWN = encoding


def _shown(char: str) -> bool:
    try:
        char.encode(SHOWN or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def name_key(name: str) -> str:
    """One person however his name is typed: in any case, an accented letter typed whole or
    as a letter and an accent, a name in fullwidth letters (NFKC, then casefold): what a table
    refuses twice and what stats and ratings count as one player."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    # characters that draw nothing count as nothing: "Bob" and "Bob" with a zero-width space
    # or a variation selector in it look alike, so they are one player (and refused twice);
    # so do spaces in a row ("Jo  Smith" is Jo Smith, typed unquoted in the shell)
    return " ".join(filter(None, "".join(c for c in folded if not is_ignorable(c)).split(" ")))


def check_name(text: str, what: str = "player name", limit: int = NAME_MAX) -> str:
    """A name as it will be shown: one line, visible, not too long, not an option, in NFC
    (an accent typed as a letter and a combining mark is kept as the one letter it draws).

    >>> check_name(" Ann ")
    'Ann'
    >>> check_name("Zoe\u0308") == "Zo\u00eb"
    True
    """
    name = unicodedata.normalize("NFC", text.strip())
    if not name:
        raise UsageError(f"empty {what}")
    if len(name) > limit:
        raise UsageError(f"{what} {quote(name)} is too long: at most {limit} characters")
    if _hidden_in(name) or any(c.isspace() and c != " " for c in name):
        raise UsageError(f"{what} {quote(name)} has control or invisible characters")
    bare = [c for k, c in enumerate(name) if unicodedata.category(c)[0] == "M"
            and (not k or name[k - 1] == " ")]  # fmt: skip
    if bare:  # it sits on whatever the screen drew before: one alone was a name drawn as
        # nothing, and one before "Bob" read as Bob
        mark = f"U+{ord(bare[0]):04X}"
        raise UsageError(f"{what} {quote(name)} has an accent ({mark}) with no letter under it")
    if name.startswith("-"):
        raise UsageError(f"{what} {quote(name)} may not start with '-'")
    if "=" in name:
        raise UsageError(f"{what} {quote(name)} may not contain '=' (it sets a nickname)")
    return name


def loaded_name(text: str, what: str = "player name") -> str:
    """A name read from a file, checked as a typed one and kept in NFC (a file may hold "Zoe"
    and a combining diaeresis, which a table must not tell apart from the one letter); spaces
    around it are a hand edit's slip to report, not to mend silently."""
    name = check_name(text, what)
    if name != unicodedata.normalize("NFC", text):
        raise UsageError(f"{what} {quote(text)} has spaces around it")
    return name


T = TypeVar("T")


def _folded(text: str) -> str:
    """`text` as `pick` compares it: NFC (an accent typed either way), in any case, spaces in
    a row as one (`Jo Smith` names Jo  Smith, whose name a file may hold so)."""
    return " ".join(filter(None, unicodedata.normalize("NFC", text).casefold().split(" ")))


def _without_accents(text: str) -> str:
    """`text`'s letters without their accents: `Zoe Muller` for Zoë Müller."""
    split = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in split if not unicodedata.combining(c)))


def is_same_name(typed: str, name: str) -> bool:
    """Whether `typed` is `name` whole as `pick` reads it: in any case, an accent either way.

    >>> is_same_name("FRIDAY", "friday"), is_same_name("fri", "friday")
    (True, False)
    """
    return _folded(typed.strip()) == _folded(name)


def unaccented(text: str) -> str:
    """`text` as `pick` compares it when typed without accents: in any case, its letters
    without their accents (`zoë müller`: `zoe muller`)."""
    return _without_accents(_folded(text))


def pick(text: str, choices: Sequence[tuple[str, T]], what: str, listed: int = 12) -> T:
    """The one choice `text` names: by a label exactly, else by a unique prefix, in any case;
    typed without accents, the labels' accents are left out too (`zoe` names Zoë Müller, and
    could be Zoë Müller or Zoe Miller).

    Several labels may name one value (a player's name and nickname). The one matcher for
    players, commands and rules, so every near miss reads alike. A miss lists the first
    `listed` labels (a short list, such as the shell's commands, is listed whole).

    >>> pick("bo", [("Ann", 0), ("Bob", 1), ("Bobby", 1)], "player")
    1
    >>> pick("jose", [("José", 0), ("Joséphine", 1)], "player")  # an accent left out
    0
    >>> pick("jose", [("José", 0), ("Josef", 1)], "player")  # a whole name before a prefix
    0
    """
    strict = _folded(text.strip())
    for label, value in choices:
        if _folded(label) == strict:
            return value
    # Typed without accents, accents are optional (`zoe` for Zoë, on a phone's keyboard), so
    # `zoe` could be Zoë Müller or Zoe Miller; typed with them, they must match.
    fold = unaccented if unaccented(strict) == strict else _folded
    wanted = fold(strict)
    exact = [value for label, value in choices if fold(label) == wanted]
    if exact and all(value == exact[0] for value in exact):
        return exact[0]
    found: dict[str, T] = {}
    for label, value in choices:
        if wanted and fold(label).startswith(wanted) and value not in found.values():
            found[label] = value
    if len(found) == 1:
        return next(iter(found.values()))
    labels = [label for label, _ in choices]
    if found:
        spaced = next((label for label in found if " " in label), None)  # `--by alexander braun`
        hint = f', or the whole name: "{printable(spaced)}"' if spaced else ""  # quoted: bash
        names = ", ".join(label for label in labels if label in found)  # as the table sits
        accents = any(unaccented(label) != _folded(label) for label in found)
        more = "more letters or the accents" if accents else "more letters"
        raise UsageError(f"{what} {quote(text)} could be {names}: type {more}{hint}")
    import difflib  # a slip's suggestion: no need to load it for every command

    wanted = _folded(text.strip())
    close = difflib.get_close_matches(wanted, [label.casefold() for label in labels], 1, 0.6)
    if close:
        guess = next(label for label in labels if label.casefold() == close[0])
        raise UsageError(f"unknown {what} {quote(text)}: did you mean {quote(guess)}?")
    shown = ", ".join(labels[:listed]) or "none"
    raise UsageError(f"unknown {what} {quote(text)}: try {shown}")
