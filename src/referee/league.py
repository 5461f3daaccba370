"""The group's long run (RULES 8): which sessions count, each once and in the order they
finished, the OpenSkill ratings they make, and a season's standings.

Everything here is worked out afresh from session summaries (`history.Summary`), never stored:
file names, copies, imports and undo/redo never move a rating or a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.history import Summary, places, ruleset_name, utc
from referee.text import name_key

if TYPE_CHECKING:
    from referee.session import Session

# ---------------------------------------------------------------------------- one session, once


def copy_rank(summary: Summary) -> tuple[Any, ...]:
    """Which of the files holding one session counts (the lowest): the finished one, then the
    one with the most events, the one that ended last, then what its file says (never where
    the file lies or what it is called)."""
    return (
        not summary.decided,
        not summary.finished,
        -summary.events,
        not summary.ended,
        _negated(summary.ended),
        summary.standings,
        utc(summary.updated),  # the same play twice: the file saved first (a copy is saved later)
        summary.name,
    )


def _negated(text: str) -> list[int]:
    """`text` as a key that sorts the later time first."""
    return [-ord(c) for c in text]


def identity(summary: Summary) -> tuple[str, ...]:
    """What makes two files one session: its id, its game and the players it began with. Two
    files that share an id but not the game or the table (an id typed by hand, a planted file)
    are two sessions, both counted."""
    return (summary.id, summary.game, *summary.players)


def once(summaries: Iterable[Summary]) -> tuple[list[Summary], list[Summary]]:
    """Each session once (by id), as the file `copy_rank` prefers holds it; and the others,
    the copies (a hand copy, a sync conflict, a backup, an import `--as-copy`)."""
    by_id: dict[tuple[str, ...], list[Summary]] = {}
    for summary in summaries:
        by_id.setdefault(identity(summary), []).append(summary)
    kept, copies = [], []
    for found in by_id.values():
        found.sort(key=copy_rank)
        kept.append(found[0])
        copies += found[1:]
    return kept, copies


def finish_key(summary: Summary) -> tuple[str, str, str]:
    """Where a session stands in the order sessions finished: the finishing event's time, then
    when its play began (the session whose events came first), then its id."""
    last = summary.ended or utc(summary.updated) or utc(summary.created)
    return (last, summary.began or utc(summary.created), summary.id)


def finished_in_order(summaries: Iterable[Summary]) -> list[Summary]:
    """The decided sessions, each once, in the order they finished."""
    kept, _ = once(summaries)
    return sorted((s for s in kept if s.decided), key=finish_key)


# ---------------------------------------------------------------------------- pools

KR_GAME = "kiriki"  # rated by its own KR (RULES 3), not by OpenSkill
PERUDO = "perudo"
PROVISIONAL_UNDER = 3  # rated games before a rating is no longer provisional


def pool(summary: Summary) -> str:
    """The rating pool a session belongs to: its game, and Perudo apart from Liar's dice."""
    return _pool_of(summary.game, summary.ruleset)


def session_pool(session: Session) -> str:
    """The name every screen gives a session's game, its pool: `perudo` for Liar's dice played
    under Perudo rules, as ratings and stats count it (`pool_title` writes it in sentences)."""
    return _pool_of(session.game, ruleset_name(session))


def _pool_of(game: str, ruleset: str) -> str:
    return PERUDO if game == "liars" and ruleset == PERUDO else game


def pool_title(name: str) -> str:
    """A pool as written in sentences: `Liar's dice`, `Perudo`."""
    from referee import games

    return "Perudo" if name == PERUDO else games.info(name).title


def pools() -> list[str]:
    """Every pool, in the registry's order (Perudo after Liar's dice)."""
    from referee import games

    found = []
    for info in games.GAMES:
        if info.has_sessions:
            found.append(info.name)
            if PERUDO in info.rulesets:
                found.append(PERUDO)
    return found


def parse_pool(text: str) -> str:
    """The pool `--game` names (`liars`, `perudo`, an alias), or `UsageError` listing them (a
    game without sessions has no pool)."""
    from referee import games
    from referee.errors import UsageError, quote

    wanted = text.strip().lower()
    found = PERUDO if wanted == PERUDO else games.BY_NAME.get(wanted, None)
    name = found if isinstance(found, str) or found is None else found.name
    if name is None or name not in pools():
        raise UsageError(f"unknown game {quote(text)}: try {', '.join(pools())}")
    return name


def key(name: str) -> str:
    """One player however his name is typed (`text.name_key`: Ann, ann and a fullwidth Ann are
    one), as `ratings`, `stats` and seasons all count."""
    return name_key(name)


# ---------------------------------------------------------------------------- OpenSkill


class Rating(NamedTuple):
    """A player's OpenSkill rating in one pool, and his record there."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def shown(self) -> int:
        """The conservative value people see: mu - 3 sigma, rounded."""
        return round(self.mu - 3 * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_UNDER


class Change(NamedTuple):
    """One player's part in one rated session."""

    name: str
    place: int
    before: int  # shown rating before the session (0 for a newcomer, mu - 3 sigma)
    after: int


class Rated(NamedTuple):
    """One session's effect on its pool."""

    summary: Summary
    changes: tuple[Change, ...]


@dataclass
class Pool:
    """A pool's ratings after every session it rates, and what each session changed."""

    name: str
    ratings: dict[str, Rating] = field(default_factory=dict)  # by `key`
    history: list[Rated] = field(default_factory=list)

    def table(self) -> list[Rating]:
        """Highest shown rating first, then the most games, then by name."""
        return sorted(
            self.ratings.values(), key=lambda r: (-r.shown, -r.mu, -r.games, key(r.name), r.name)
        )


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(summaries: Iterable[Summary]) -> dict[str, Pool]:
    """Every OpenSkill pool (Kiriki apart: KR), replayed over the decided sessions in the order
    they finished. A session with fewer than two placed players rates nobody."""
    model = None
    found: dict[str, Pool] = {}
    latest: dict[str, str] = {}  # each player as his latest session spells him, in any game
    for summary in finished_in_order(summaries):
        latest.update((key(n), n) for n in summary.at_table)
        name = pool(summary)
        if name == KR_GAME:
            continue
        placed = _placed(summary)
        if len(placed) < 2:
            continue
        model = model or _model()
        kept = found.setdefault(name, Pool(name))
        before = [kept.ratings.get(key(n)) for n, _ in placed]
        teams = [
            [model.rating() if r is None else model.rating(mu=r.mu, sigma=r.sigma)] for r in before
        ]
        after = model.rate(teams, ranks=[p for _, p in placed])
        changes = []
        for (who, place), old, (new,) in zip(placed, before, after, strict=True):
            rating = Rating(
                who,
                new.mu,
                new.sigma,
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + (place == 1),
            )
            kept.ratings[key(who)] = rating
            changes.append(Change(who, place, old.shown if old else _start(model), rating.shown))
        kept.history.append(Rated(summary, tuple(changes)))
    for kept in found.values():  # one spelling on every screen: stats show him so too
        kept.ratings = {k: r._replace(name=latest.get(k, r.name)) for k, r in kept.ratings.items()}
    return found


def _start(model: Any) -> int:
    fresh = model.rating()
    return round(float(fresh.mu) - 3 * float(fresh.sigma))


def _placed(summary: Summary) -> list[tuple[str, int]]:
    """Each player's place, once per player however his name is capitalised."""
    seen: set[str] = set()
    found = []
    for name, place in places(summary).items():
        if key(name) not in seen:
            seen.add(key(name))
            found.append((name, place))
    return found


# ---------------------------------------------------------------------------- seasons

DEFAULT_POINTS = (3, 1, 0)


@dataclass(frozen=True)
class Season:
    """A named range of local days (either end open), maybe of one pool, with points by place:
    the last value counts for every later place."""

    name: str
    start: str | None = None  # the first local day, `2026-09-01`
    end: str | None = None  # the last local day, itself included
    game: str | None = None  # a pool (`perudo` apart from `liars`), None for every game
    points: tuple[int, ...] = DEFAULT_POINTS
    created: str = ""

    def counts(self, summary: Summary) -> bool:
        """Whether a decided session counts in this season: of its game, and played on a bar
        night (`night_of`) inside its days, both ends included."""
        if self.game is not None and pool(summary) != self.game:
            return False
        if self.start is None and self.end is None:
            return True
        day = night_of(summary)
        return bool(day) and (self.start or day) <= day <= (self.end or day)

    def points_for(self, place: int) -> int:
        """The points a place earns: the last value for every later place.

        >>> Season("s", points=(3, 1, 0)).points_for(7)
        0
        """
        return self.points[min(max(place, 1), len(self.points)) - 1]

    def covers(self, day: str) -> bool:
        """Whether the local day `day` (`2026-11-29`) lies in the season's range."""
        return (self.start or day) <= day <= (self.end or day)

    @property
    def span(self) -> str:
        """Its days as words: `2026-09-01 to open`, `open to 2026-12-31`."""
        return f"{self.start or 'open'} to {self.end or 'open'}"

    @property
    def points_text(self) -> str:
        """Its points as typed: `3,1,0`."""
        return ",".join(str(p) for p in self.points)


class Standing(NamedTuple):
    """A player's line in a season."""

    place: int  # shared places share a number
    name: str
    points: int
    wins: int
    games: int
    moved: int | None  # places up (+) or down (-) since before the latest night; None: new


def night_of(summary: Summary) -> str:
    """The bar night a session belongs to: the local day it began on, a session begun before
    six in the morning belonging to the night before."""
    from datetime import timedelta

    from referee.session import event_time

    found = event_time(summary.began or summary.played)
    if found is None:
        return ""
    day: str = (found.astimezone() - timedelta(hours=6)).date().isoformat()
    return day


def standings(season: Season, summaries: Iterable[Summary]) -> tuple[list[Standing], list[str]]:
    """A season's standings (points, then wins, then fewer games; a tie shares its place), with
    each player's movement since before the season's latest night; and its nights, oldest
    first."""
    counted = [s for s in finished_in_order(summaries) if season.counts(s)]
    nights = sorted({night_of(s) for s in counted})
    now = _table(season, counted)
    if len(nights) < 2:
        return [st._replace(moved=None if len(nights) == 1 else 0) for st in now], nights
    before = {key(st.name): st.place for st in _table(season, [
        s for s in counted if night_of(s) != nights[-1]])}  # fmt: skip
    return [
        st._replace(moved=None if key(st.name) not in before else before[key(st.name)] - st.place)
        for st in now
    ], nights


def _table(season: Season, counted: Sequence[Summary]) -> list[Standing]:
    rows: dict[str, list[Any]] = {}  # key -> [name, points, wins, games]
    for summary in counted:
        for name, place in _placed(summary):
            row = rows.setdefault(key(name), [name, 0, 0, 0])
            row[0] = name  # the spelling of his latest session
            row[1] += season.points_for(place)
            row[2] += place == 1
            row[3] += 1
    order = sorted(rows.values(), key=lambda r: (-r[1], -r[2], r[3], key(r[0]), r[0]))
    found: list[Standing] = []
    for n, (name, points, wins, games_) in enumerate(order, 1):
        last = found[-1] if found else None
        tied = last is not None and (last.points, last.wins, last.games) == (points, wins, games_)
        found.append(Standing(last.place if tied and last else n, name, points, wins, games_, 0))
    return found


def parse_points(text: str) -> tuple[int, ...]:
    """`--points 3,1,0`: whole points for the first places, best first, or `UsageError`."""
    from referee.errors import UsageError, quote

    parts = [p.strip() for p in text.split(",")]
    # ASCII digits only: `int` would also take `1_0`, other scripts' digits and `+3`
    digits = all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts)
    found = tuple(int(p) for p in parts) if digits else ()
    if not found or len(found) > 20 or any(not 0 <= p <= 1000 for p in found):
        raise UsageError(
            f"bad points {quote(text)}: write whole points for the places, best first,"
            " like 3,1,0 (0 to 1000, at most 20)"
        )
    if list(found) != sorted(found, reverse=True):
        raise UsageError(
            f"bad points {quote(text)}: a better place never gets fewer points (like 3,1,0)"
        )
    return found


def pools_doc(found: Mapping[str, Pool]) -> dict[str, Any]:
    """The OpenSkill part of `ratings --json`: each pool's players and rated sessions."""
    return {
        name: {
            "players": [
                {
                    "name": r.name,
                    "rating": r.shown,
                    "mu": round(r.mu, 4),
                    "sigma": round(r.sigma, 4),
                    "games": r.games,
                    "wins": r.wins,
                    "provisional": r.provisional,
                }
                for r in p.table()
            ],
            "sessions": [
                {
                    "session": rated.summary.name,
                    "id": rated.summary.id,
                    "finished": rated.summary.ended or None,
                    "players": [c._asdict() for c in rated.changes],
                }
                for rated in p.history
            ],
        }
        for name, p in found.items()
    }


# ---------------------------------------------------------------------------- season records

SEASON_SCHEMA = 1
SEASON_KEYS = ("schema", "name", "start", "end", "game", "points", "created")
MAX_POINTS = 20  # values in `--points`


def check_season_name(text: str) -> str:
    """A season name: the session names' allow-list (letters, digits, `_ . -`; never a path)."""
    from referee.errors import UsageError
    from referee.session import check_session_name

    try:
        return check_session_name(text)
    except UsageError as error:
        raise UsageError(str(error).replace("bad session name", "bad season name")) from None


def make_season(
    name: str,
    start: str | None,
    end: str | None,
    game: str | None,
    points: str | None,
    created: str,
) -> Season:
    """A season from what was typed (`season new`), each part checked: `UsageError` (exit 2)
    quoting the first that is wrong."""
    from referee.errors import UsageError
    from referee.history import parse_day

    first = parse_day(start, "--from") if start is not None else None
    last = parse_day(end, "--to") if end is not None else None
    if first is not None and last is not None and last < first:
        raise UsageError(f"--to {last} is before --from {first}: give the first day first")
    return Season(
        name=check_season_name(name),
        start=first,
        end=last,
        game=parse_pool(game) if game is not None else None,
        points=parse_points(points) if points is not None else DEFAULT_POINTS,
        created=created,
    )


def season_from_doc(doc: Mapping[str, Any]) -> Season:
    """A `Season` from a parsed season file, checked exactly as typed input is (`make_season`):
    an unknown key, a wrong type or a value `season new` would refuse is `UsageError`."""
    from referee.errors import UsageError, quote
    from referee.session import event_time

    unknown = sorted(str(k) for k in doc if k not in SEASON_KEYS)
    if unknown:
        raise UsageError(
            f"unknown key {quote(unknown[0][:40])} (the keys are {', '.join(SEASON_KEYS)})"
        )

    def text(key: str, *, optional: bool = False) -> str | None:
        value = doc.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise UsageError(f"'{key}' must be a string, not {value!r:.30}")
        return value

    points = doc.get("points")
    if not isinstance(points, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 1000 for p in points
    ):
        raise UsageError(f"'points' must be a list of whole numbers 0 to 1000, not {points!r:.30}")
    created = text("created") or ""
    if event_time(created) is None:
        raise UsageError(f"'created' must be an ISO time with its zone, not {quote(created[:40])}")
    name = text("name") or ""
    return make_season(
        name,
        text("start", optional=True),
        text("end", optional=True),
        text("game", optional=True),
        ",".join(str(p) for p in points),
        created,
    )


def season_to_doc(season: Season) -> dict[str, Any]:
    """A season as its file holds it (an open end or every game: no key)."""
    doc: dict[str, Any] = {"schema": SEASON_SCHEMA, "name": season.name}
    for key_, value in (("start", season.start), ("end", season.end), ("game", season.game)):
        if value is not None:
            doc[key_] = value
    doc["points"] = list(season.points)
    doc["created"] = season.created
    return doc


def season_doc(season: Season, found: Sequence[Standing], nights: Sequence[str]) -> dict[str, Any]:
    """`referee season --json` (documented in the README)."""
    return {
        "season": {
            "name": season.name,
            "from": season.start,
            "to": season.end,
            "game": season.game,
            "points": list(season.points),
            "created": season.created,
        },
        "nights": len(nights),
        "last_night": nights[-1] if nights else None,
        "standings": [
            {
                "place": st.place,
                "name": st.name,
                "points": st.points,
                "wins": st.wins,
                "games": st.games,
                "moved": st.moved,
            }
            for st in found
        ],
    }


def season_rows(
    seasons: Iterable[Season], summaries: Iterable[Summary]
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows the seasons add to the SQLite export (`history.SQLITE_SCHEMA`): one a season
    (its points as typed, `3,1,0`), and its standings as `referee season` shows them."""
    every = list(summaries)
    found: dict[str, list[tuple[Any, ...]]] = {"seasons": [], "standings": []}
    for season in seasons:
        found["seasons"].append(
            (season.name, season.start, season.end, season.game, season.points_text,
             season.created)
        )  # fmt: skip
        table, _ = standings(season, every)
        found["standings"] += [
            (season.name, st.place, st.name, st.points, st.wins, st.games, st.moved) for st in table
        ]
    return found
