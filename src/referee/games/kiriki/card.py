"""The Kiriki match card: the score large enough to read at arm's length, what each player
needs, the standing claim on the ladder, the shown die, and who acts with what."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from referee.games.kiriki.engine import (
    TOP_CLAIM,
    Phase,
    State,
    legal_actions,
    needs,
    over_words,
    stakes,
)
from referee.notation.dice import KIRIKI as LADDER
from referee.notation.dice import KIRIKI_WORDS as WORDS
from referee.notation.dice import Rank
from referee.render.cells import cut, ljust, width_of
from referee.render.common import header, wrapped_lines
from referee.text import one_of, printable

# Seven-segment digits, three rows each: plain ASCII, so they line up on any terminal.
_DIGITS = {
    "0": (" _ ", "| |", "|_|"), "1": ("   ", "  |", "  |"), "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"), "4": ("   ", "|_|", "  |"), "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"), "7": (" _ ", "  |", "  |"), "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"),
}  # fmt: skip
_SHORT = ("4", "5", "6", "7", "8", "9", "10", "11", "BB", "RR", "JJ", "QQ", "KK", "AA")
_LONG = ("4", "5", "6", "7", "8", "9", "10", "Tabique", "Blacks", "Reds", "Jacks", "Queens",
         "Kings", "Aces")  # fmt: skip
WIDE = 64  # columns from which the ladder is written in the game's own words


def big(number: int) -> tuple[str, str, str]:
    """A number in three rows of seven-segment digits.

    >>> big(10)
    ('     _ ', '  | | |', '  | |_|')
    """
    rows = [_DIGITS[d] for d in str(number)]
    return (
        " ".join(r[0] for r in rows),
        " ".join(r[1] for r in rows),
        " ".join(r[2] for r in rows),
    )


def ladder(claim: Rank | None, wide: bool = False) -> str:
    """The claims from 4 to Pair of Aces, the standing one in brackets.

    >>> ladder(Rank.DOUBLE_FIVES)
    '4 5 6 7 8 9 10 11 BB RR JJ QQ [KK] AA'
    """
    return " ".join(
        f"[{name}]" if claim is not None and Rank(i + 1) is claim else name
        for i, name in enumerate(_LONG if wide else _SHORT)
    )


def status(state: State) -> Text:
    """Who acts and with what; the card's last lines."""
    text = Text()
    if state.is_over:
        said = over_words(state, sep="\n").split("\n")  # names hold no line breaks
        text.append("\n".join(printable(line) for line in said), style="bold green")
        return text
    if state.phase is Phase.ROLLOFF:
        text.append("roll off, one die each: rolloff 5 3")
        return text
    who = printable(state.name(state.turn))
    text.append(who, style="bold")
    moves = one_of(legal_actions(state))
    match state.phase:
        case Phase.CLAIM:
            higher = "" if state.need is TOP_CLAIM else " or higher"  # nothing is above Aces
            need = f" {LADDER.name(state.need)}{higher}" if state.need else ""
            text.append(f" rolls and claims{need}: {moves}")
        case Phase.BELIEVED if state.claim is TOP_CLAIM:
            text.append(f" must reroll (or reveal a bluff): {moves}")
        case Phase.ANSWER | Phase.BELIEVED:
            text.append(f": {moves}")
    if state.aces_locked:
        text.append("\nPair of Aces over Pair of Aces: no believing")
    return text


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The match: the big score (one line when compact), the claim on the ladder, the status."""
    return Group(*_parts(state, title, width, compact))


def _parts(state: State, title: str, width: int, compact: bool) -> list[Text]:
    """The card's lines, as `card` draws them."""
    top = header("KIRIKI", title, min(width, 40), f"{state.format} {state.target}")
    a, b = state.sides
    names = [
        printable(s.name) + (f" ({printable(s.nickname)})" if s.nickname else "") for s in (a, b)
    ]
    parts = [top]
    if compact:
        parts.append(Text(f"{names[0]} {a.points} - {b.points} {names[1]}", style="bold"))
    else:
        left, right = big(a.points), big(b.points)
        first, second = cut(names[0], 16), cut(names[1], 16)
        pad = max(len(left[0]), width_of(first)) + 2
        parts.append(Text(f"  {ljust(first, pad)}   {second}", style="bold"))
        for row in range(3):
            dash = "-" if row == 1 else " "
            parts.append(Text(f"  {left[row]:<{pad}} {dash} {right[row]}", style="bold"))
    parts.append(Text(needs(state) + (" (ranked)" if state.ranked else "")))
    said = stakes(state)
    if said and not state.is_over:
        parts.append(Text(printable(said), style="bold"))
    if state.claim is not None and state.claimer is not None:
        parts.append(Text(ladder(state.claim, width >= WIDE), style="dim"))
        claimer = printable(state.name(state.claimer))
        shown = f", shown: {WORDS.face(state.shown)}" if state.shown else ""
        parts.append(Text(f"claim: {LADDER.name(state.claim)} by {claimer}{shown}"))
    elif state.need is not None:
        parts.append(Text(ladder(state.need, width >= WIDE), style="dim"))
    parts.append(status(state))
    return parts


def card_lines(state: State, width: int, title: str = "") -> int:
    """How many lines the full card titled `title` takes at `width` columns: each line as it
    wraps, in cells (the header, the names' line, the claim with its claimer, the status)."""
    return sum(wrapped_lines(part.plain, width) for part in _parts(state, title, width, False))


def columns(state: State, width: int) -> list[list[Text]]:
    """The card's lines that are columns, in groups whose rows line up: the score's lines."""
    return [_parts(state, "night", width, False)[:5]]
