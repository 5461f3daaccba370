"""The Kariki screens: the full card of crosses, and the compact card (rulings in words are
in `referee.games.kariki.words`, which needs no Rich).

The full card draws each player's cross (the seed's score sheet); the compact card gives each
player one line, for a phone with the keyboard open. Both end with the status: who acts and
what they face, who answers, the pass chain. Every name goes through `printable`. The money
(the pot, what each paid, who takes what) is the line every game's card shares, drawn under
it by the shared layer: only a buy-back's price is Kariki's own.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.text import Text

from referee.games.kariki.engine import Cause, Phase, Raise, Seat, State, choices
from referee.games.money import show
from referee.notation.dice import KARIKI as LADDER
from referee.render.cells import cut, cut_apart, ljust, width_of, wrap_words
from referee.render.common import header, mark_winner, wrap_list, wrapped_lines
from referee.text import one_of, printable, typed_name

GLYPHS: dict[Cause, str] = {
    Cause.LIE: "T",  # the seed's tear: a bluff caught
    Cause.FALSE_ACCUSATION: "P",
    Cause.SLASHES: "/",
    Cause.KARIKI: "K",
    Cause.CROWNS: "C",
    Cause.ILLEGAL_CLAIM: "!",
    Cause.JOINED: "J",  # a newcomer's, as many as the player with the most
}
LEGEND: dict[Cause, str] = {
    Cause.LIE: "lie",
    Cause.FALSE_ACCUSATION: "bad pull",
    Cause.SLASHES: "slashes",
    Cause.KARIKI: "kariki",
    Cause.CROWNS: "crowns",
    Cause.ILLEGAL_CLAIM: "illegal",
    Cause.JOINED: "joined",
}
BLOCK_WIDTH = 24

# ---------------------------------------------------------------------------- the status


def status(state: State) -> Text:
    """Who acts and what they face, who answers, the pass chain: the card's last lines."""
    if state.is_over:
        return _result(state)
    who = printable(state.name(state.turn))
    text = Text()
    text.append(who, style="bold")
    if state.phase is Phase.ROLL:
        if state.claim is None:
            text.append(" rolls fresh")
        else:
            need = "beat" if state.rules.raise_rule is Raise.STRICT else "match or beat"
            text.append(f" has the mug: {need} {LADDER.name(state.claim)}")
    else:
        assert state.claim is not None and state.responsible is not None  # a live claim
        own = [c for c in choices(state) if c != "buyback"]  # a buy-back is the out player's
        if state.chain_is_back:  # his pass is the final pass: the first passer must answer
            own = ["final pass" if c == "pass" else c for c in own]
        text.append(f" faces {LADDER.name(state.claim)}: {one_of(own)}")
        answers = printable(state.name(state.responsible))
        text.append(f"\n{answers} answers for it")
        if state.passers:
            passed = ", ".join(printable(state.name(p)) for p in state.passers)
            text.append(f"; passed: {passed}" + (" (final pass)" if state.final_pass else ""))
    _offers(state, text)
    return text


def _result(state: State) -> Text:
    """The last lines of a night that is over: the winner, or who leads and who may buy back."""
    winner = printable(state.winner or "nobody")
    if state.is_finished:
        return Text(f"{winner} won", style="bold green")
    text = Text(f"{winner} leads", style="bold")
    _offers(state, text)
    text.append(f"\nsettle: nobody buys back, {winner} wins")
    return text


def _offers(state: State, text: Text) -> None:
    """The open buy-back offers at today's price, in the order the players went out: one
    line for one (`Jo may buy back: buyback Jo (20)`), else the names and how to type it."""
    offered = [i for i in state.out_in_order() if i in state.buyback_open]
    price = show(state.buyback_price)
    names = [printable(state.name(i)) for i in offered]
    if len(names) == 1:
        labels = [(s.name, s.name) for s in state.seats]
        labels += [(s.nickname, s.name) for s in state.seats if s.nickname]
        typed = typed_name(state.name(offered[0]), labels)
        command = f"buyback {typed} ({price})"
        forms = (f"{names[0]} may buy back: ", f"{names[0]}: ", "may buy back: ", "")
        head = next(f for f in forms if width_of(f + command) <= 40 or not f)  # a long name
        text.append(f"\n{head}{command}")
    elif names and offered == list(state.out_in_order()):  # the OUT line just above names them
        text.append(f"\nall OUT may buy back for {price}")
    elif names:  # the ruling has said that the price doubles after each
        for line in wrap_list([f"may buy back for {price}: {', '.join(names)}"], 40):
            text.append(f"\n{line}")


def _header(state: State, title: str, width: int) -> Text:
    """`KARIKI friday          play goes left`: which way play goes, where it fits."""
    shown = printable(title)
    way = state.direction.value
    used = width_of(f"KARIKI {shown}")
    right = next((r for r in (f"play goes {way}", f"goes {way}") if used + 1 + len(r) <= width), "")
    if not right:  # a long session name gives way: the direction matters at the table
        right = f"goes {way}"
        shown = cut(shown, max(1, width - len("KARIKI  ") - len(right)), "…")
    return header("KARIKI", shown, width, right)


# ---------------------------------------------------------------------------- the full card


def cross(seat: Seat) -> list[str]:
    """Three lines of the cross: berries hang top, right, bottom, left, then the centre.

    >>> cross(Seat("Ann", berries=(Cause.LIE, Cause.SLASHES)))
    ['  T  ', '.-+-/', '  .  ']
    """
    points = [GLYPHS[c] for c in seat.berries[:5]]
    top, right, bottom, left, centre = (points + [".", ".", ".", ".", "+"][len(points) :])[:5]
    return [f"  {top}  ", f"{left}-{centre}-{right}", f"  {bottom}  "]


def player_block(state: State, index: int, width: int = BLOCK_WIDTH) -> Text:
    """One player's name line and cross with berries, slashes and crowns beside it; a flag
    too long for the block's `width` goes on two lines at its `; `, and a part still too
    long wraps at words, each line indented (`leads; Bob, Cy may buy` / `back (4)`)."""
    seat = state.seats[index]
    on_turn = index == state.turn and not state.is_over
    head = Text("> " if on_turn else "  ", style="bold")
    head.append(printable(seat.name), style="bold" if on_turn else "")
    if seat.nickname:
        head.append(f" ({printable(seat.nickname)})", style="italic")
    if seat.buyback_used:
        head.append(" $")  # bought back: marked on the card, never as a berry
    limit = state.rules.berry_limit
    info = [
        f"berries {len(seat.berries)}/{limit}",
        f"slashes {'|' * seat.slashes}" if seat.slashes else "",
        f"crowns {seat.crowns}" if seat.crowns else "",
    ]
    block = Text()
    block.append_text(head)
    for flag, style in flags(state, index):
        for part in [flag] if width_of(flag) + 2 <= width else flag.split("; "):
            for piece in wrap_words(part, max(1, width - 2)):  # indented, never folded at 0
                block.append("\n  ")
                block.append(piece, style=style)
    for cross_line, extra in zip(cross(seat), info, strict=True):
        block.append(f"\n  {cross_line}  {extra}".rstrip())
    return block


def flags(state: State, index: int) -> list[tuple[str, str]]:
    """What the card says boldly under a player's name: OUT, WINNER (only once the night is
    finished; before, who leads and who may still buy back), IN THE POO, the bartender/DJ
    (still after a buy-back)."""
    seat = state.seats[index]
    bar = state.bartender == seat.name
    found: list[tuple[str, str]] = []
    if seat.out:
        why = " - left" if seat.left else " - bartender/DJ" if bar else ""
        return [(f"OUT{why}", "bold red")]
    if state.winner == seat.name:
        if state.is_finished:
            found.append(("WINNER", "bold green"))
        else:
            who = ", ".join(printable(state.name(i)) for i in state.buyback_open)
            found.append((f"leads; {who} may buy back ({show(state.buyback_price)})", "bold"))
    if state.in_poo(seat):
        found.append(("IN THE POO" + (" - bartender/DJ" if bar else ""), "bold reverse"))
    elif bar:
        found.append(("bartender/DJ", "dim"))
    return found


def full_card(state: State, title: str, width: int = 40) -> RenderableType:
    """The drawn crosses, as many side by side as the width allows; the status last."""
    per_row = max(1, (width + 2) // (BLOCK_WIDTH + 2))
    shown_width = min(width, per_row * (BLOCK_WIDTH + 2) - 2) if per_row > 1 else width
    block_width = width if per_row == 1 else BLOCK_WIDTH
    blocks = [player_block(state, i, block_width) for i in range(len(state.seats))]
    parts: list[RenderableType] = [_header(state, title, shown_width)]
    if per_row == 1:
        parts += blocks
    else:
        from rich.table import Table

        grid = Table.grid(padding=(0, 2))
        for _ in range(per_row):  # a long name or flag folds within its block, never cut
            grid.add_column(width=BLOCK_WIDTH, overflow="fold")
        for start in range(0, len(blocks), per_row):
            row = blocks[start : start + per_row]
            grid.add_row(*row, *([""] * (per_row - len(row))))
        parts.append(grid)
    used = _full_legend(state)
    if used:
        parts.append(Text(used, style="dim"))
    parts.append(status(state))
    return Group(*parts)


def _full_legend(state: State) -> str:
    """The full card's line naming the berry letters in use ("" when none is)."""
    used = [c for c in Cause if any(c in s.berries for s in state.seats)]
    return "  ".join(f"{GLYPHS[c]} {LEGEND[c]}" for c in used)


# ---------------------------------------------------------------------------- the compact card

CROWN = "^"  # crowns rolled, apart from the letters of berries (K is a Kariki berry)


def compact_line(state: State, index: int, width: int = 40) -> Text:
    """One player on one line: `> Ann (Ace)        TT/..  || ^2 $ POO`.

    The berries are the cross's five points in hanging order (top, right, bottom, left,
    centre), each drawn by its cause, `.` for a free point; then the slash tally, crowns
    rolled, `$` for a buy-back. A long nickname is cut first, then dropped; a name only
    when it is wider than the name's column: on a screen under 38 columns (the column is what
    the line leaves), or of wide characters (CJK, emoji), two cells each.
    """
    seat = state.seats[index]
    on_turn = index == state.turn and not state.is_over
    name_width = max(2, min(width - 22, 28))  # 16 letters, a name's most, from 38 columns
    who = cut(printable(seat.name), name_width, "…")
    if seat.nickname:
        room = name_width - width_of(who) - 3  # " (" and ")"
        nick = cut(printable(seat.nickname), room, "…") if room >= 2 else ""
        who += f" ({nick})" if nick else ""
    line = Text("> " if on_turn else "  ", style="bold")
    line.append(ljust(who, name_width), style="bold" if on_turn else "")
    line.append(f" {_berries(state, seat)}")
    if state.is_finished and state.winner == seat.name:  # one line left: no columns to keep
        return _won(state, seat, line, width)
    line.append(f" {'|' * seat.slashes:<2}")
    line.append(f" {CROWN + str(seat.crowns) if seat.crowns else '':<3}")
    line.append(" $" if seat.buyback_used else "  ")
    if state.in_poo(seat):
        line.append(" POO", style="bold reverse")
    line.rstrip()
    return line


def _won(state: State, seat: Seat, line: Text, width: int) -> Text:
    """The winner's line, as the full card's flag says it: the marks one space apart, then
    WINNER; the poo gives way to it when both do not fit (the night is over)."""
    marks = _marks(state, seat, " ")
    line.append(f" {marks}" if marks else "")
    if state.in_poo(seat) and width_of(line.plain) + len(" POO WIN") <= width:
        line.append(" POO", style="bold reverse")
    mark_winner(line, width)
    return line


FOLD_FROM = 10  # players still in from which the compact card folds into two columns
GAP = 2  # cells between the two columns


def _marks(state: State, seat: Seat, gap: str = "") -> str:
    """A seat's marks after its berries: a `|` a slash, `^n` crowns, `$` a buy-back."""
    crowns = f"{CROWN}{seat.crowns}" if seat.crowns else ""
    return gap.join(m for m in ("|" * seat.slashes, crowns, "$" * seat.buyback_used) if m)


def _berries(state: State, seat: Seat) -> str:
    limit = state.rules.berry_limit
    points = "".join(GLYPHS[c] for c in seat.berries)
    return f"{points + '.' * (limit - len(points)):<5}" if limit <= 9 else f"{len(points)}/{limit}"


def half_line(state: State, index: int, width: int, marks: int, name: str) -> Text:
    """One player in half a screen, for a big table: `>Ann    TT/.. ||^2$`, with room for
    `marks` cells of marks (the widest at the table, so the columns line up) and `name` as
    `half_names` cut it. The name is bold on turn and reversed in the poo, which its marks say
    too (`*`: with no colour, the only sign)."""
    seat = state.seats[index]
    on_turn = index == state.turn and not state.is_over
    style = "bold reverse" if state.in_poo(seat) else "bold" if on_turn else ""
    line = Text(">" if on_turn else " ", style="bold")
    line.append(ljust(name, _name_room(state, width, marks)), style=style)
    line.append(f" {_berries(state, seat)}")
    if marks:
        line.append(f" {_half_marks(state, seat):<{marks}}")
    line.rstrip()
    return line


def _half_marks(state: State, seat: Seat) -> str:
    return _marks(state, seat) + ("*" if state.in_poo(seat) else "")


def _name_room(state: State, width: int, marks: int) -> int:
    """The cells a name has in half a screen: what the berries and marks leave."""
    berries = 5 if state.rules.berry_limit <= 9 else len(f"{state.rules.berry_limit}") * 2 + 1
    return max(2, width - 1 - (berries + 1 + (marks + 1 if marks else 0)))


def folded(state: State, seats: list[int], width: int) -> list[Text]:
    """The players in two columns, down the first then the second, in seat order."""
    half = (width - GAP) // 2
    marks = max((len(_half_marks(state, state.seats[i])) for i in seats), default=0)
    # cut apart: two Alexanders stay two ('Alexa…dt', 'Alexa…un'), never 'Alexande…' twice
    names = dict(zip(seats, cut_apart([printable(state.name(i)) for i in seats],
                                      _name_room(state, half, marks)), strict=True))  # fmt: skip
    rows = -(-len(seats) // 2)
    lines = []
    for r in range(rows):
        left = half_line(state, seats[r], half, marks, names[seats[r]])
        line = Text()
        line.append_text(left)
        if r + rows < len(seats):
            line.append(" " * (half - width_of(left.plain) + GAP))
            line.append_text(half_line(state, seats[r + rows], half, marks, names[seats[r + rows]]))
        lines.append(line)
    return lines


def legend(state: State, width: int) -> Text | None:
    """The berry letters in use, then the marks in use (`|` a slash on the tally, `^n` crowns,
    `$` a buy-back): one line when it fits, else wrapped at the entries."""
    labels = {**LEGEND, Cause.CROWNS: f"{state.rules.crown_threshold} crowns"}
    seats = [s for s in state.seats if not s.out]  # the lines drawn: one out is folded away
    used = [f"{GLYPHS[c]} {labels[c]}" for c in Cause if any(c in s.berries for s in seats)]
    used += [
        said
        for said, shown in (
            ("| tally", any(s.slashes for s in seats)),
            (f"{CROWN}n crowns", any(s.crowns for s in seats)),
            ("$ bought back", any(s.buyback_used for s in state.seats)),  # OUT: says it too
            ("* poo", len(seats) >= FOLD_FROM and any(state.in_poo(s) for s in seats)),
        )
        if shown
    ]
    if not used:
        return None
    lines = [used[0]]  # wrapped at the entries, two spaces apart: one space read `P pull / x`
    for part in used[1:]:
        if width_of(f"{lines[-1]}  {part}") <= width:
            lines[-1] += f"  {part}"
        else:
            lines.append(part)
    return Text("\n".join(lines), style="dim")


def compact_card(state: State, title: str, width: int = 40) -> RenderableType:
    """One line per player (out players folded into one), the legend, the status."""
    lines: list[RenderableType] = [_header(state, title, width)]
    playing = [i for i, seat in enumerate(state.seats) if not seat.out]
    if len(playing) >= FOLD_FROM and width >= 2 * 18 + GAP:  # a big table: one screen still
        lines += folded(state, playing, width)
    else:
        lines += [compact_line(state, i, width) for i in playing]
    out = state.out_in_order()  # places follow the last time out
    if out:
        names = [
            printable(state.name(i))
            + (" (left)" if state.seats[i].left else " (bar)" if state.bartender_seat == i else "")
            + (" $" if state.seats[i].buyback_used else "")  # bought back, and out again
            for i in out
        ]
        lines += [
            Text(line, style="red") for line in wrap_list(["OUT: " + ", ".join(names)], width)
        ]
    bar = state.bartender_seat
    if bar is not None and not state.seats[bar].out:  # bought back: still pours
        lines.append(Text(f"bartender/DJ: {printable(state.name(bar))}", style="dim"))
    found = legend(state, width)
    if found is not None:
        lines.append(found)
    lines.append(status(state))
    return Group(*lines)


def card(state: State, title: str, width: int = 40, compact: bool = False) -> RenderableType:
    """The score card: the crosses, or one line per player when `compact`."""
    return compact_card(state, title, width) if compact else full_card(state, title, width)


def card_lines(state: State, width: int, title: str = "") -> int:
    """How many lines the full card titled `title` takes at `width` (so the CLI can choose a
    layout)."""
    console = _console(width)
    per_row = max(1, (width + 2) // (BLOCK_WIDTH + 2))
    shown_width = min(width, per_row * (BLOCK_WIDTH + 2) - 2) if per_row > 1 else width
    top = wrapped_lines(_header(state, title, shown_width).plain, width)  # a long title wraps
    block_width = width if per_row == 1 else BLOCK_WIDTH
    # Counted from the plain lines (each folds at the block's width), not by wrapping with
    # Rich: this runs before every card is drawn.
    heights = [
        sum(max(1, -(-cell_len(line) // block_width)) for line in block.plain.split("\n"))
        for block in (player_block(state, i, block_width) for i in range(len(state.seats)))
    ]
    tall = sum(max(heights[r : r + per_row]) for r in range(0, len(heights), per_row))
    used = _full_legend(state)  # wraps at words on a narrow screen
    legend = wrapped_lines(used, width) if used else 0
    return top + tall + legend + len(status(state).wrap(console, width))


def _console(width: int) -> Console:
    return Console(width=width, file=None, color_system=None)


def columns(state: State, width: int) -> list[list[Text]]:
    """The card's lines that are columns, in groups whose rows line up: the compact lines."""
    return [[compact_line(state, i, width) for i in range(len(state.seats))]]
