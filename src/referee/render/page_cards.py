"""The games' cards drawn for a page: the Kariki crosses as drawings, the Kalooki sheet and the
Liar's dice, Mia and Kiriki tables as real HTML tables, for the share card and the live page.

Each drawing is made from the game's `show --json` document (`engine.summary`), never from the
terminal's text card, so a name is one piece of text in one element: inside `<bdi>` an Arabic
or Hebrew name cannot pull a neighbour's marks across it, and a wide (CJK) name widens its own
cell instead of shifting a column of spaces. Every name passes through `share.escape`.
A game without a drawing (a plugin's) gets `None`, and the page shows its text card instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.render.share import escape

# The standings column in the game's own word (what its score counts).
LABELS: dict[str, str] = {
    "kariki": "berries",
    "liars": "dice",
    "mia": "lives",
    "kiriki": "points",
    "kalooki": "points",
}

# Each berry's cause: its word, and the letter the terminal card draws it with.
CAUSES: dict[str, tuple[str, str]] = {
    "lie": ("lie", "T"),
    "false accusation": ("bad pull", "P"),
    "slashes": ("slashes", "/"),
    "kariki": ("kariki", "K"),
    "crowns": ("crowns", "C"),
    "illegal claim": ("illegal", "!"),
    "joined": ("joined", "J"),
}
CALL = "\u2019"  # a call on the sheet: the paper tick
POINTS = ("top", "right", "bottom", "left", "centre")  # where berries hang, in order


def label(game: str) -> str:
    """The standings column's name for `game`: `berries`, `dice`, `lives` or `points`.

    >>> label("kariki"), label("liars"), label("somethingelse")
    ('berries', 'dice', 'score')
    """
    return LABELS.get(game, "score")


def name(text: object) -> str:
    """A player's name for a page: escaped, and isolated so its direction stays its own.

    >>> name("אבי"), name("<b>")
    ('<bdi>אבי</bdi>', '<bdi>&lt;b&gt;</bdi>')
    """
    return f"<bdi>{escape(str(text))}</bdi>"


def drawing(game: str, state: Any, document: Mapping[str, Any], finished: bool) -> str | None:
    """The game's card as HTML from its `summary` `document` (`finished`: the result is
    final), or None for a game this module cannot draw."""
    draw: dict[str, Callable[[Any, Mapping[str, Any], bool], str]] = {
        "kariki": kariki,
        "liars": liars,
        "mia": mia,
        "kiriki": kiriki,
        "kalooki": kalooki,
    }
    found = draw.get(game)
    return (
        None if found is None or document.get("game") != game else found(state, document, finished)
    )


def _rules(state: Any, key: str, default: int) -> int:
    """A number from the state's rules (the berry limit, the dice or lives each starts with)."""
    value = getattr(getattr(state, "rules", None), key, default)
    return value if isinstance(value, int) else default


def _turn_mark(is_turn: bool) -> str:
    return '<span class="to-act">to act</span>' if is_turn else ""


# ---------------------------------------------------------------------------- Kariki


def kariki(state: Any, document: Mapping[str, Any], finished: bool) -> str:
    """Each player's cross with every berry's cause, slashes, crowns, buy-back and flags."""
    limit = _rules(state, "berry_limit", 5)
    turn = document.get("turn")
    blocks = []
    for player in document["players"]:
        blocks.append(_cross_block(player, document, limit, player["name"] == turn, finished))
    facing = ""
    if document.get("claim") and turn:
        facing = f'<p class="facing">{name(turn)} faces {escape(str(document["claim"]))}'
        if document.get("responsible"):
            facing += f"; {name(document['responsible'])} answers for it"
        facing += "</p>"
    offers = "".join(  # as the terminal card says them: who may still buy back, for what
        f'<p class="facing">{name(who)} may buy back for {escape(_money(document["pot"]))}</p>'
        for who in document.get("buyback_open") or ()
    )
    if len(document.get("buyback_open") or ()) > 1:
        offers += '<p class="facing">the price doubles after each buy-back</p>'
    facing += offers
    used = [c for c in CAUSES if any(c in p["berry_causes"] for p in document["players"])]
    legend = "".join(
        f'<li><span class="pt berry c-{_slug(c)}">{escape(CAUSES[c][1])}</span>'
        f"{escape(CAUSES[c][0])}</li>"
        for c in used
    )
    return (
        f'<div class="card kariki"><p class="way">play goes {escape(str(document["direction"]))}'
        f"</p>{facing}"
        f'<div class="crosses">{"".join(blocks)}</div>'
        + (f'<ul class="legend">{legend}</ul>' if legend else "")
        + "</div>"
    )


def _money(cents: object) -> str:
    from referee.games.money import show

    return show(cents) if type(cents) is int else "?"


def _slug(cause: str) -> str:
    return cause.replace(" ", "-")


def _cross_block(
    player: Mapping[str, Any], document: Mapping[str, Any], limit: int, is_turn: bool,
    finished: bool,
) -> str:  # fmt: skip
    causes: Sequence[str] = player["berry_causes"]
    points = []
    for i, where in enumerate(POINTS):
        if i < len(causes):
            word, letter = CAUSES.get(causes[i], (causes[i], "?"))
            points.append(
                f'<span class="pt berry {where} c-{_slug(causes[i])}" data-cause="{escape(word)}"'
                f' title="{escape(word)}">{escape(letter)}</span>'
            )
        else:
            points.append(f'<span class="pt {where}">{"+" if where == "centre" else ""}</span>')
    nick = player.get("nickname")
    head = (
        f"<h3>{name(player['name'])}"
        + (f' <span class="nick">(<bdi>{escape(str(nick))}</bdi>)</span>' if nick else "")
        + (' <span class="bought" title="bought back">$</span>' if player["buyback_used"] else "")
        + f"{_turn_mark(is_turn)}</h3>"
    )
    flags = "".join(f'<span class="flag {cls}">{escape(text)}</span>'
                    for text, cls in _flags(player, document, finished))  # fmt: skip
    words = ", ".join(CAUSES.get(c, (c, ""))[0] for c in causes)
    info = [f"berries {len(causes)}/{limit}"]
    if player["slashes"]:
        info.append(f'slashes <span class="tally">{"|" * int(player["slashes"])}</span>')
    if player["crowns"]:
        info.append(f"crowns {int(player['crowns'])}")
    if player["buyback_used"]:
        info.append("bought back")
    said = "".join(f"<li>{item}</li>" for item in info)
    return (
        f'<div class="player{" turn" if is_turn else ""}" data-berries="{len(causes)}">{head}'
        + (f'<p class="flags">{flags}</p>' if flags else "")
        + f'<div class="cross" role="img" aria-label="{len(causes)} berries'
        + (f": {escape(words)}" if words else "")
        + f'">{"".join(points)}</div><ul class="info">{said}</ul></div>'
    )


def _flags(
    player: Mapping[str, Any], document: Mapping[str, Any], finished: bool
) -> list[tuple[str, str]]:
    """OUT, WINNER (or who leads while a buy-back is open), IN THE POO, the bartender/DJ."""
    bar = document.get("bartender") == player["name"]
    if player["out"]:
        why = " - left" if player["left"] else " - bartender/DJ" if bar else ""
        return [(f"OUT{why}", "out")]
    found: list[tuple[str, str]] = []
    if document.get("winner") == player["name"]:
        found.append(("WINNER", "win") if finished else ("leads", "lead"))
    if player["in_poo"]:
        found.append(("IN THE POO" + (" - bartender/DJ" if bar else ""), "poo"))
    elif bar:
        found.append(("bartender/DJ", "bar"))
    return found


# ---------------------------------------------------------------------------- tables


def _table(kind: str, head: Sequence[str], rows: Sequence[str], caption: str = "") -> str:
    cols = "".join(f'<th scope="col"{cls}>{text}</th>' for text, cls in
                   ((h.split("|")[0], _cls(h)) for h in head))  # fmt: skip
    cap = f"<caption>{caption}</caption>" if caption else ""
    return (
        f'<table class="card {kind}">{cap}<thead><tr>{cols}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _cls(head: str) -> str:
    """`"dice|n"`: a heading and its class."""
    return f' class="{head.split("|")[1]}"' if "|" in head else ""


def _row(is_turn: bool, out: bool, who: Mapping[str, Any], cells: str) -> str:
    cls = " ".join(c for c, on in (("turn", is_turn), ("gone", out)) if on)
    nick = who.get("nickname")
    return (
        f"<tr{f' class={chr(34)}{cls}{chr(34)}' if cls else ''}"
        f"{' aria-current=' + chr(34) + 'step' + chr(34) if is_turn else ''}>"
        f'<th scope="row">{name(who["name"])}'
        + (f' <span class="nick">(<bdi>{escape(str(nick))}</bdi>)</span>' if nick else "")
        + f"{_turn_mark(is_turn)}</th>{cells}</tr>"
    )


def _pips(left: int, start: int, kind: str) -> str:
    """`left` of `start` marks, the lost ones faded (`kind`: die or life)."""
    shown = max(start, left)
    marks = "".join(
        f'<span class="{kind}{"" if i < left else " lost"}"></span>' for i in range(shown)
    )
    return f'<span class="pips" role="img" aria-label="{left} of {shown}">{marks}</span>'


def _pip_rows(document: Mapping[str, Any], field: str, start: int, kind: str) -> list[str]:
    """A row a player: his dice or lives (`field`) as marks of `start`, and how many left."""
    turn = document.get("turn")
    return [
        _row(p["name"] == turn, p["out"], p,
             f'<td>{_pips(p[field], start, kind)}</td>'
             f'<td class="n">{"out" if p["out"] else p[field]}</td>')
        for p in document["players"]
    ]  # fmt: skip


def liars(state: Any, document: Mapping[str, Any], finished: bool) -> str:
    """A row per player: his dice (lost ones faded), how many left; the bid and round."""
    rows = _pip_rows(document, "dice", _rules(state, "dice_per_player", 6), "die")
    bid = document.get("bid")
    from referee.games.liars.bids import count_dice  # `1 die in play`, as the card says

    said = f"round {int(document['round'])}, {count_dice(int(document['dice_in_play']))} in play"
    if bid:
        said += f"; bid {int(bid['quantity'])}x{int(bid['face'])} by {name(bid['bidder'])}"
    if document.get("palifico"):
        said += "; palifico"
    return _table("liars", ["player", "cups", "dice|n"], rows, said)


def mia(state: Any, document: Mapping[str, Any], finished: bool) -> str:
    """A row per player: his lives (lost ones faded), how many left; what stands."""
    rows = _pip_rows(document, "lives", _rules(state, "lives", 6), "life")
    said = f"round {int(document['round'])}"
    standing = document.get("standing")
    if standing:
        said += f"; {escape(str(standing['value']))} stands"
        if standing.get("announcer"):
            said += f", said by {name(standing['announcer'])}"
    return _table("mia", ["player", "lives", "left|n"], rows, said)


def kiriki(state: Any, document: Mapping[str, Any], finished: bool) -> str:
    """A row per side: points towards the target; the claim standing."""
    turn = document.get("turn")
    target = int(document["target"])
    rows = [
        _row(p["name"] == turn, False, p,
             f'<td class="n">{int(p["points"])}</td>'
             f'<td><meter min="0" max="{target}" value="{min(target, int(p["points"]))}">'
             f"{int(p['points'])}/{target}</meter></td>")
        for p in document["players"]
    ]  # fmt: skip
    said = f"{escape(str(document['format']))}, first to {target}"
    if document.get("claim") and turn:
        said += f"; {name(turn)} faces {escape(str(document['claim']))}"
    return _table("kiriki", ["player", "points|n", f"to {target}"], rows, said)


def kalooki(state: Any, document: Mapping[str, Any], finished: bool) -> str:
    """The sheet as on paper: a column per player, a row per round with its contract and
    dealer; who went out (*), calls ('), corrections (~); the round being played marked."""
    players = document["players"]
    played = document["rounds"]
    count = len(players[0]["rounds"]) if players else 0
    heads = "".join(f'<th scope="col" class="n" id="k{i}">{name(p["name"])}</th>'
                    for i, p in enumerate(players))  # fmt: skip
    body = []
    now = int(document["round"]) if not finished else 0
    for r in range(count):
        info = played[r] if r < len(played) else None
        dealer = info["dealer"] if info else (document["dealer"] if r + 1 == now else None)
        cells = []
        for i, p in enumerate(players):
            score = p["rounds"][r]
            calls = p["calls"][r] or 0
            mark = ""
            if info and info["out"] == p["name"]:
                mark += '<span class="went-out" title="went out">*</span>'
            if calls:
                mark += f'<span class="call" title="{calls} call(s)">{CALL * calls}</span>'
            if info and p["name"] in info["corrected"]:
                mark += '<span class="fixed" title="corrected">~</span>'
            shown = "" if score is None else str(int(score))
            cells.append(f'<td class="n" headers="k{i}">{mark}{shown}</td>')
        cls = ' class="turn" aria-current="step"' if r + 1 == now else ""
        deal = f'<span class="dealer">dealt by {name(dealer)}</span>' if dealer else ""
        body.append(f'<tr{cls}><th scope="row">{r + 1}. {_contract(state, r)}{deal}</th>'
                    f"{''.join(cells)}</tr>")  # fmt: skip
    totals = "".join(f'<td class="n" headers="k{i}">{int(p["total"])}</td>'
                     for i, p in enumerate(players))  # fmt: skip
    body.append(f'<tr class="total"><th scope="row">total</th>{totals}</tr>')
    voids = document.get("void_deals") or []
    said = f"round {int(document['round'])}: {escape(str(document['contract']))}"
    if finished:
        said = f"{int(document['rounds_played'])} rounds played"
    if voids:
        said += "; void deals: " + ", ".join(
            f"round {int(v['round'])} (dealt by {name(v['dealer'])})" for v in voids
        )
    return (
        f'<table class="card kalooki"><caption>{said}</caption><thead><tr>'
        f'<th scope="col">round</th>{heads}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        f'<p class="legend-line">* went out, {CALL} a call, ~ corrected</p>'
    )


def _contract(state: Any, index: int) -> str:
    """Round `index`'s contract in words (`3 threes`), from the rules when they say it."""
    try:
        contract = state.rules.contract(index + 1)
        words = getattr(contract, "words", None) or getattr(contract, "code", "")
        return f'<span class="contract">{escape(str(words() if callable(words) else words))}</span>'
    except (AttributeError, IndexError, ValueError, TypeError):
        return ""
