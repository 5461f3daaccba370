"""A night in words: its screen at 40 columns (`night_lines`), what `night settle` says, and
its share card (`night --format md|html`).

The share card follows the session's (`render/share.py`): a `NightCard` is the night's text,
made once from the record and its ledger (name, date, state, each game's result and stakes,
the nets, who pays whom, the rounds), and the Markdown report and the HTML page are both drawn
from it. Every piece of text a file gave passes through the one escaping helper on its way out
(`share.escape` for HTML, Markdown's own escaping for md); the page is the share card's page
(`share.document`): self-contained, light and dark, readable at 360 px. Plain text only here:
no Rich, no printing.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.games.money import Payout, Stakes, show
from referee.night import GameLine, Ledger, Night, Settlement


def count(n: int, what: str) -> str:
    """`1 game`, `2 games`."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def signed(cents: int) -> str:
    """A net as the night says it: `+3.50`, `-2`, `0`."""
    return f"+{show(cents)}" if cents > 0 else show(cents)


def stakes_text(stakes: Stakes) -> str:
    """A game's stakes in a few words: `stake 2, 0.50 a loss, split 70/30, loser buys` (the pot
    goes to the winner unless a split is said)."""
    parts = []
    if stakes.stake:
        parts.append(f"stake {show(stakes.stake)}")
    if stakes.loss_value:
        parts.append(f"{show(stakes.loss_value)} a loss")
    if stakes.payout is Payout.PER_POINT:
        parts.append(f"{show(stakes.point_value)} a point")
    elif stakes.has_money and stakes.payout is Payout.PLACES:  # else the winner takes it
        parts.append("split " + "/".join(str(p) for p in stakes.split))
    if stakes.loser_buys:
        parts.append("loser buys")
    return ", ".join(parts) or "no money"


def game_stakes(line: GameLine) -> str:
    """A game's stakes as the night shows them ("" when its session cannot be read)."""
    if line.money is not None:
        return stakes_text(line.money.purse.stakes)
    return "no money" if line.is_readable else ""


def status_text(line: GameLine) -> str:
    """Where a game of the night stands, in a few words."""
    won = " and ".join(line.winners)
    said = {
        "playing": "playing",
        "provisional": f"{won} leads, to settle" if won else "to settle",
        "finished": f"{won} won" if won else "finished",
        "missing": "missing",
        "unreadable": "unreadable",
    }[line.status]
    return said + (", left out" if line.left_out else "")


def _when(night: Night) -> str:
    """`started 2026-11-29 21:04, closed 23:40` (the closing date only when it is another)."""
    from referee.history import local_time

    when = local_time(night.created)
    closed = local_time(night.closed)
    if closed[:10] == when[:10]:
        closed = closed[11:]
    return f"started {when}" + (f", closed {closed}" if night.closed else "")


def _nets(night: Night, found: Ledger) -> tuple[str, list[tuple[str, int]]]:
    """The nets the night shows, and what they are: as settled, else so far."""
    if night.settled is not None:
        from referee.history import local_time

        at = local_time(night.settled.at, date=False)
        return f"nets as settled at {at}", list(night.settled.nets)
    nets = [(n, found.nets[n]) for n in found.players if n in found.nets]
    return f"nets over {count(found.counted, 'finished game')}", nets


def _rounds(found: Ledger) -> list[str]:
    owed = [(n, found.rounds_owed(n)) for n in found.players if found.rounds_owed(n)]
    bought = [(n, found.bought[n]) for n in found.players if found.bought.get(n)]
    lines = []
    if owed:
        lines.append("rounds owed: " + ", ".join(f"{n} {k}" for n, k in owed))
    if bought:
        lines.append("rounds bought: " + ", ".join(f"{n} {k}" for n, k in bought))
    return lines


def _has_money(night: Night, found: Ledger) -> bool:
    return night.settled is not None or any(g.has_money for g in found.games)


# ---------------------------------------------------------------------------- the screen


def night_lines(night: Night, found: Ledger, width: int) -> list[str]:
    """The night at 40 columns: its state, games, nets, rounds owed and, once settled, who
    paid whom (each line wrapped by whoever prints it)."""
    head = f"NIGHT {night.name}"
    state = night.status.value
    lines = [head + " " * max(1, min(width, 40) - len(head) - len(state)) + state, _when(night)]
    if found.players:
        lines.append(f"players: {', '.join(found.players)}")
    if not found.games:
        lines.append("no games yet: referee new GAME PLAYER...")
    for line in found.games:
        lines.append(f"{line.number}. {line.file} ({line.game}): {status_text(line)}")
        stakes = game_stakes(line)
        if stakes:
            lines.append(f"   {stakes}")
    if _has_money(night, found):
        title, nets = _nets(night, found)
        lines += [f"{title}:", *_net_lines(nets)]
    if night.settled is not None:
        lines += transfer_lines(night.settled)
    return lines + _rounds(found)


def _net_lines(nets: list[tuple[str, int]]) -> list[str]:
    from referee.render.cells import ljust, width_of

    if not nets:
        return ["  nobody has won or lost yet"]
    pad = min(16, max(width_of(n) for n, _ in nets))
    room = max(len(signed(c)) for _, c in nets)
    return [f"  {ljust(n, pad)} {signed(c):>{room}}" for n, c in nets]


def transfer_lines(done: Settlement) -> list[str]:
    """Who pays whom, one line each (`Cy pays Ann 3.50`), and whether the count is the
    proven fewest."""
    if not done.transfers:
        return ["nobody owes anybody"]
    lines = [f"{t.payer} pays {t.payee} {show(t.cents)}" for t in done.transfers]
    if not done.exact:
        lines.append(GREEDY)
    return lines


GREEDY = "over 15 balances: the greedy rule's count, maybe not the fewest"


def settle_lines(night: Night, found: Ledger, done: Settlement) -> list[str]:
    """What `night settle` says: the transfers, and the games left out."""
    lines = [f"settled night {night.name}: {count(len(done.transfers), 'transfer')}"]
    lines += transfer_lines(done)
    out = [g for g in found.games if g.left_out]
    if out:
        lines.append("left out: " + ", ".join(f"{g.file} ({g.status})" for g in out))
    return lines


# ---------------------------------------------------------------------------- the share card


class GameRow(NamedTuple):
    """One game of the night on its share card."""

    number: int
    session: str
    game: str
    result: str
    stakes: str


class NightCard(NamedTuple):
    """Everything a night's share card shows, as plain text (escaped only when drawn)."""

    name: str
    date: str  # when it started, in the reader's local time
    status: str  # open, settled, ended
    when: str  # started ..., closed ...
    players: tuple[str, ...]
    games: tuple[GameRow, ...]
    nets_title: str  # "" for a night without money
    nets: tuple[tuple[str, str], ...]  # player, signed amount
    transfers: tuple[str, ...]  # "Cy pays Ann 3.50", once settled
    notes: tuple[str, ...]  # the greedy note, rounds owed and bought

    @property
    def title(self) -> str:
        """The page's title."""
        return f"Night {self.name}, {self.date}"


def night_card(night: Night, found: Ledger) -> NightCard:
    """The night's share card, from its record and its ledger."""
    from referee.render.share import local_date

    games = tuple(
        GameRow(g.number, g.file, g.game, status_text(g), game_stakes(g)) for g in found.games
    )
    title, nets = _nets(night, found) if _has_money(night, found) else ("", [])
    transfers: list[str] = []
    notes: list[str] = []
    if night.settled is not None:
        said = transfer_lines(night.settled)
        transfers = [line for line in said if line != GREEDY]
        notes = [line for line in said if line == GREEDY]
    return NightCard(
        night.name,
        local_date(night.created),
        night.status.value,
        _when(night),
        found.players,
        games,
        title,
        tuple((n, signed(c)) for n, c in nets),
        tuple(transfers),
        (*notes, *_rounds(found)),
    )


def markdown(card: NightCard) -> str:
    """The night as a Markdown report."""
    from referee.history import md

    lines = [f"# Night {md(card.name)} ({card.status})", "", f"{card.when} (local time)"]
    if card.players:
        lines.append(f"Players: {', '.join(md(p) for p in card.players)}")
    lines += ["", "## Games", ""]
    if not card.games:
        lines.append("No games yet.")
    else:
        lines += ["| # | session | game | result | stakes |", "|---|---|---|---|---|"]
        lines += [
            f"| {g.number} | {md(g.session)} | {md(g.game)} | {md(g.result)} | {md(g.stakes)} |"
            for g in card.games
        ]
    if card.nets_title:
        lines += ["", f"## {card.nets_title[0].upper()}{card.nets_title[1:]}", ""]
        if card.nets:
            lines += ["| player | net |", "|---|---:|"]
            lines += [f"| {md(n)} | {a} |" for n, a in card.nets]
        else:
            lines.append("Nobody has won or lost yet.")
    if card.transfers:
        lines += ["", "## Who pays whom", ""] + [f"- {md(t)}" for t in card.transfers]
    elif card.status == "settled":
        lines += ["", "## Who pays whom", "", "Nobody owes anybody."]
    if card.notes:
        lines += [""] + [md(n[0].upper() + n[1:]) + "." for n in card.notes]
    return "\n".join(lines) + "\n"


def fragment(card: NightCard) -> str:
    """The night as the part of a page that holds it: heading, games, nets, who pays whom."""
    from referee.render.share import escape

    games = "".join(
        f'<tr><td class="n">{g.number}</td><td>{escape(g.session)}</td>'
        f"<td>{escape(g.game)}</td><td>{escape(g.result)}</td><td>{escape(g.stakes)}</td></tr>"
        for g in card.games
    )
    parts = [
        f'<header data-title="{escape(card.title)}"><h1>Night {escape(card.name)}</h1>'
        f'<p class="meta">{escape(card.date)} &middot; {escape(card.status)}</p></header>',
        f'<p class="house">{escape(card.when)}</p>',
    ]
    if card.players:
        parts.append(f'<p class="house">players: {escape(", ".join(card.players))}</p>')
    if games:
        parts.append(
            '<table><thead><tr><th class="n">#</th><th>session</th><th>game</th>'
            f"<th>result</th><th>stakes</th></tr></thead><tbody>{games}</tbody></table>"
        )
    else:
        parts.append('<p class="note">No games yet.</p>')
    if card.nets_title:
        rows = "".join(
            f'<tr><td>{escape(n)}</td><td class="n">{escape(a)}</td></tr>' for n, a in card.nets
        )
        parts.append(f'<p class="result">{escape(card.nets_title)}</p>')
        parts.append(
            '<table><thead><tr><th>player</th><th class="n">net</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            if rows
            else '<p class="note">Nobody has won or lost yet.</p>'
        )
    if card.transfers or card.status == "settled":
        said = "".join(f"<li>{escape(t)}</li>" for t in card.transfers)
        parts.append('<p class="result">who pays whom</p>')
        parts.append(f"<ul>{said}</ul>" if said else '<p class="note">Nobody owes anybody.</p>')
    parts += [f'<p class="note">{escape(n)}</p>' for n in card.notes]
    return "".join(parts)


def page(card: NightCard) -> str:
    """The night's share card as a whole page (`night --format html`)."""
    from referee.render.share import document

    return document(fragment(card), card.title)
