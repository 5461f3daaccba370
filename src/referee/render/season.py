"""A season in words: its standings screen at 40 columns (`season_lines`), its line in
`season list`, and the few lines a share card gives it. Plain text only: no Rich, no printing.
Every piece of text a file gave (a season's or a player's name) passes through the one
escaping helper (`text.printable`) before it is measured or cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.league import Season, Standing
from referee.render.cells import cut, cut_apart, ljust, width_of
from referee.text import printable

MAX_ROWS = 16  # a table this long is shown whole; a longer one shows its first 15
SHOWN_WHEN_CUT = 15
SHARE_ROWS = 5  # the share card's top of the table


def moved_text(moved: int | None) -> str:
    """A player's movement since the season's previous night: `+2`, `-1`, `=`, `new`.

    >>> [moved_text(m) for m in (2, -1, 0, None)]
    ['+2', '-1', '=', 'new']
    """
    if moved is None:
        return "new"
    return f"+{moved}" if moved > 0 else "=" if moved == 0 else str(moved)


def game_text(season: Season) -> str:
    """The season's game in words: `all games`, `Perudo`."""
    if season.game is None:
        return "all games"
    from referee.league import pool_title

    return pool_title(season.game)


def header_lines(season: Season, width: int) -> list[str]:
    """`season autumn · 2026-09-01 to open · all games · 3,1,0`, broken between its parts
    where it would pass `width` (a long name cut; long points wrapped, every value kept)."""
    parts = [
        f"season {cut(printable(season.name), width - 7, '…')}",
        season.span,
        game_text(season),
        season.points_text,
    ]
    lines = [parts[0]]
    for part in parts[1:]:
        joined = f"{lines[-1]} · {part}"
        if width_of(joined) <= width:
            lines[-1] = joined
        elif part is parts[-1] and width_of(part) > width:  # long points: wrapped, never cut
            from referee.render.cells import wrap_words

            lines += wrap_words(part.replace(",", ", "), width)
        else:
            lines.append(cut(part, width, "…"))
    return lines


def night_line(nights: Sequence[str]) -> str:
    """`after night 12 (2026-11-29)`, or that no game counts yet."""
    if not nights:
        return "no games counted yet"
    return f"after night {len(nights)} ({nights[-1]})"


def table_lines(found: Sequence[Standing], width: int, rows: int | None = None) -> list[str]:
    """The standings table: place (shared places alike), movement, name (cut to fit),
    points, wins, games; with `rows`, the first `rows` rows only (the caller says the rest)."""
    shown = list(found if rows is None else found[:rows])
    heads = ("pts", "wins", "games")
    cells = [(str(s.points), str(s.wins), str(s.games)) for s in shown]
    widths = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(heads)]
    place_w = max(2, *(len(str(s.place)) for s in shown)) if shown else 2
    fixed = place_w + 1 + 3 + 1 + sum(w + 1 for w in widths)
    room = max(6, width - fixed)
    names = cut_apart([printable(s.name) for s in shown], room)
    name_w = min(room, max([width_of("player"), *(width_of(n) for n in names)]))

    def line(place: str, move: str, name: str, numbers: Sequence[str]) -> str:
        tail = "".join(f" {n:>{w}}" for n, w in zip(numbers, widths, strict=True))
        return f"{place:>{place_w}} {move:<3} {ljust(name, name_w)}{tail}".rstrip()

    out = [line("#", "", "player", heads)]
    for s, name, numbers in zip(shown, names, cells, strict=True):  # a shared place: alike
        out.append(line(str(s.place), moved_text(s.moved), name, numbers))
    return out


def season_lines(
    season: Season, found: Sequence[Standing], nights: Sequence[str], width: int = 40
) -> list[str]:
    """`referee season`: its header, how many nights it has counted, and its table (a long
    one cut after 15 players, saying how many more `--json` has)."""
    lines = [*header_lines(season, width), night_line(nights)]
    if not found:
        return lines
    cut_at = SHOWN_WHEN_CUT if len(found) > MAX_ROWS else None
    lines += table_lines(found, width, cut_at)
    if cut_at is not None:
        lines.append(f"... {len(found) - cut_at} more: --json")
    return lines


def list_line(season: Season, games: int, width: int = 40) -> list[str]:
    """A season in `season list`: its name and days, then its game, points and games counted,
    wrapped at the dots (a long name or a long list of points) to `width`."""
    from referee.render.cells import wrap_words

    parts = [printable(season.name), season.span]
    second = [game_text(season), season.points_text,
              f"{games} game{'s' * (games != 1)}"]  # fmt: skip
    return [
        *wrap_words(" · ".join(parts), width, "  "),
        *(f"  {line}" for line in wrap_words(" · ".join(second), width - 2, "  ")),
    ]


def share_lines(season: Season, found: Sequence[Standing], width: int = 40) -> tuple[str, ...]:
    """A season on a share card: its name, then its top five one a line (`1. Ann 12 pts`)."""
    lines = [cut(f"season {printable(season.name)}", width, "…")]
    top = list(found[:SHARE_ROWS])
    names = cut_apart([printable(s.name) for s in top], width - 16)
    for s, name in zip(top, names, strict=True):
        pts = "pt" if s.points == 1 else "pts"
        lines.append(f"{s.place:>2}. {name} {s.points} {pts}, {s.wins} won")
    if len(found) > SHARE_ROWS:
        lines.append(f"    and {len(found) - SHARE_ROWS} more")
    return tuple(lines)
