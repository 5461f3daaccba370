"""A session's history as data to export, and stats across sessions. No game is named here:
each gives its words, its scores and its tallies through the contract (`referee.games.base`).
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple, TypeVar

from referee import __version__, games
from referee.errors import UsageError, quote
from referee.games.base import Outcome
from referee.night import Night, night_of_each, settled_doc
from referee.session import TIME_KEY, Session, event_of, event_time, states

T = TypeVar("T")

EXPORT_FORMAT = 1  # the version of the JSON export document
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# ---------------------------------------------------------------------------- identity


def session_id(session: Session) -> str:
    """The session's identity: its `id` (issue 18), else one derived from what an import keeps
    (game, rules, players, creation time, events), so a night imported twice is one night."""
    given = getattr(session, "id", "")
    if isinstance(given, str) and given:
        return given
    import hashlib

    kept = [session.game, dict(session.ruleset), [[p.name, p.nickname] for p in session.players],
            dict(session.options), session.created, [dict(e) for e in session.events]]  # fmt: skip
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def ruleset_name(session: Session) -> str:
    """The name of the ruleset a session was played under (`perudo`, `liars-dice` ...)."""
    name = session.ruleset.get("name")
    if isinstance(name, str) and name:
        return name
    default: str = games.info(session.game).rulesets[0]
    return default


def unique_by_id(
    items: Iterable[T], key: Callable[[T], Hashable], rank: Callable[[T], Any] | None = None
) -> list[T]:
    """`items` without a repeated identity, in the order each first came: one night counts
    once. Of the copies, the lowest `rank` is kept (else the first), so which file holds the
    copy never changes the answer."""
    best: dict[Hashable, T] = {}
    for item in items:
        found = best.get(key(item))
        if found is None or (rank is not None and rank(item) < rank(found)):
            best[key(item)] = item
    return list(best.values())


# ---------------------------------------------------------------------------- times


def local_time(stored: str | None, *, date: bool = True) -> str:
    """A stored UTC time as a person reads it: local, `2026-11-29 21:04` (or `21:04`), or ''."""
    found = event_time(stored) if isinstance(stored, str) else None
    if found is None:
        return ""
    shown: str = found.astimezone().strftime("%Y-%m-%d %H:%M" if date else "%H:%M")
    return shown


def local_date(stored: str | None) -> str:
    """The local day of a stored UTC time, `2026-11-29`, or ''."""
    return local_time(stored)[:10]


def log_times(stored: Sequence[str | None]) -> list[str]:
    """Event times for a log: `21:04`; when the events run over more than one local day, the
    first of each day also shows its date (`11-30 00:01`)."""
    days = [local_date(at) for at in stored]
    several = len(set(days) - {""}) > 1
    shown = []
    last = ""
    for at, day in zip(stored, days, strict=True):
        clock = local_time(at, date=False)
        shown.append(f"{day[5:]} {clock}" if several and day and day != last else clock)
        last = day or last
    return shown


def utc(stored: object) -> str:
    """A stored time as UTC to the millisecond, `2026-11-29T21:04:00.000+00:00` (text that
    sorts in time order, whatever zone or precision the file wrote), or '' if it is not one."""
    from datetime import UTC

    found = event_time(stored) if isinstance(stored, str) else None
    return "" if found is None else found.astimezone(UTC).isoformat(timespec="milliseconds")


def play_span(session: Session) -> tuple[str, str]:
    """When play began and ended: the UTC times (`utc`) of the first and the last event that
    carry one ('' for none). An undone event is not play."""
    times = [t for t in (utc(e.get(TIME_KEY)) for e in session.events) if t]
    return (times[0], times[-1]) if times else ("", "")


def minutes(began: str, ended: str) -> int | None:
    """The whole minutes from `began` to `ended` (`play_span`), rounded; None without both."""
    if not (began and ended):
        return None
    first, last = event_time(began), event_time(ended)
    if first is None or last is None:
        return None
    seconds: float = (last - first).total_seconds()
    return max(0, round(seconds / 60))


def duration(began: str, ended: str) -> str:
    """A play time as a person reads it: `45m`, `2h05`; '' when unknown."""
    total = minutes(began, ended)
    return "" if total is None else duration_of(total)


def duration_of(total: int) -> str:
    """Whole minutes as a person reads them: `45m`, `2h05`."""
    hours, mins = divmod(total, 60)
    return f"{hours}h{mins:02d}" if hours else f"{mins}m"


def parse_day(text: str, option: str = "--since") -> str:
    """A day typed as `2026-11-01`, or `UsageError` saying how to write one."""
    from datetime import date

    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise UsageError(f"bad date {quote(text)} for {option}: write it like 2026-11-01") from None


# ---------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class Row:
    """One event as a spreadsheet row: who, what, the ruling, the scores after it."""

    number: int
    time: str
    game: str
    player: str
    action: str
    detail: str
    ruling: str
    scores: Mapping[str, int]


def rows(session: Session, after: Iterable[Any] | None = None) -> list[Row]:
    """Every event of `session` as a row (`after`: the state after each event, if known)."""
    engine = session.engine
    words = games.module(session.game, "words").words
    after = states(session) if after is None else after
    found = []
    for number, (data, state) in enumerate(zip(session.events, after, strict=True), 1):
        event = event_of(engine, data)
        at = data.get(TIME_KEY, "")
        found.append(
            Row(
                number=number,
                time=str(at),
                game=session.game,
                player=engine.player_of(event) or "",
                action=str(data.get("type", "")),
                detail=str(event),
                ruling=words(engine.ruling(state)),
                scores=engine.scores(state),
            )
        )
    return found


def neutral(cell: object) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula (OWASP's advice): one that
    starts with `= + - @`, a tab or a carriage return gets a leading apostrophe.

    >>> neutral("=SUM(1+1)"), neutral("-1"), neutral("Ann")
    ("'=SUM(1+1)", "'-1", 'Ann')
    """
    text = str(cell)
    return "'" + text if text.startswith(FORMULA_START) else text


CSV_HEAD = ("session_id", "session", "number", "time", "game", "ruleset", "player", "action",
            "detail", "ruling")  # fmt: skip
CSV_SCORES_HEAD = ("session_id", "session", "number", "player", "score")


def csv_text(session: Session, *, scores: bool = False) -> str:
    """The long layout, the same header for every table: one row per event (with `scores`,
    one row per player after each event)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_SCORES_HEAD if scores else CSV_HEAD)
    ident, ruleset = session_id(session), ruleset_name(session)
    for row in rows(session):
        if scores:
            for name in row.scores:  # whoever sat at the table then
                writer.writerow([neutral(ident), neutral(session.name), row.number,
                                 neutral(name), row.scores[name]])  # fmt: skip
            continue
        cells = [ident, session.name, row.number, row.time, row.game, ruleset, row.player,
                 row.action, row.detail, row.ruling]  # fmt: skip
        writer.writerow([neutral(c) if isinstance(c, str) else c for c in cells])
    return out.getvalue()


def json_document(session: Session, session_doc: Mapping[str, Any], summary: Any) -> str:
    """The whole session (as its file holds it, times included), its final state and when it
    was played (`played`: added beside `final`, which stays what `show --json` gives)."""
    began, ended = play_span(session)
    document = {
        "referee_export": EXPORT_FORMAT,
        "referee": __version__,
        "session": session_doc,
        "final": summary,
        "played": {
            "began": began or None,
            "ended": ended or None,
            "duration_minutes": minutes(began, ended),
        },
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def session_doc_of(document: object) -> Mapping[str, Any]:
    """The session document inside a JSON export, or `ValueError` saying what is wrong."""
    version = document.get("referee_export") if isinstance(document, dict) else None
    if type(version) is not int or version != EXPORT_FORMAT:  # not 1.0, not true
        raise ValueError(f"not a referee export (referee_export = {EXPORT_FORMAT} is missing)")
    assert isinstance(document, dict)
    found = document.get("session")
    if not isinstance(found, dict):
        raise ValueError("the export holds no session table")
    return found


def _md(text: str) -> str:
    """Text inside Markdown: characters that would format, link or make an entity are
    escaped, and a name that looks like a URL or an address is kept from autolinking.

    >>> _md("A&B <b> www.x.io a@b.c http://x")
    'A&amp;B \\\\<b\\\\> www\\\\.x.io a\\\\@b.c http\\\\://x'
    """
    import re

    out = []
    for char in text:
        if char == "&":
            out.append("&amp;")  # else `&lt;` in a name shows as `<`
        elif char in "\\`*_[]<>#|~@":  # @: GitHub autolinks a@b.c
            out.append("\\" + char)
        else:
            out.append(char)
    # GitHub autolinks www.x.y and scheme://...; an escaped character breaks the pattern.
    escaped = re.sub(r"(?i)\b(www)\.", r"\1\\.", "".join(out))
    return escaped.replace("://", "\\://")


md = _md  # the one Markdown escaping: a night's report (render/night.py) is escaped alike


def markdown(
    session: Session,
    result: Outcome,
    card_text: str,
    money: Sequence[str] = (),
    season: Sequence[str] = (),
) -> str:
    """A readable report: players, result, play time, the money, the season it counts in (its
    name, then its top lines), the card as text, the history with rulings."""
    from referee.league import session_pool

    lines = [f"# {_md(session.name)} ({session_pool(session)})", ""]  # Perudo by its own name
    started = local_time(session.created)
    if started:
        lines.append(f"Played: {started} (local time)")
    began, ended = play_span(session)
    if began and ended:  # first to last event, local clock times: `21:04-23:10 (2h06)`
        span = f"{local_time(began, date=False)}-{local_time(ended, date=False)}"
        lines.append(f"Play time: {span} ({duration(began, ended)})")
    names = [_md(p.name) + (f" ({_md(p.nickname)})" if p.nickname else "") for p in session.players]
    lines.append(f"Players: {', '.join(names)}")
    if result.finished:
        won = " and ".join(_md(w) for w in result.winners)
        lines.append(f"Result: {won} won" + (" (provisional)" if result.provisional else ""))
    else:
        lines.append("Result: still playing")
    from referee.house import phrases

    house = phrases(session.game, session.ruleset)
    if house:
        lines.append(f"House rules: {_md(', '.join(house))}")
    played = duration(*play_span(session))
    if played:
        lines.append(f"Play time: {played}")
    if money:
        lines.append(f"Money: {_md('; '.join(line.strip() for line in money))}")
    if season:
        top = "; ".join(" ".join(line.split()) for line in season[1:])
        title = season[0].replace("season ", "Season ", 1)
        lines.append(f"{_md(title)}: {_md(top) or 'no games counted yet'}")
    lines += ["", "## Score card", "", "```text", card_text.rstrip("\n").replace("```", "'''"),
              "```", "", "## History", ""]  # fmt: skip
    if not session.events:
        lines.append("No events yet.")
    else:
        lines += ["| # | time | ruling |", "|---|---|---|"]
        found = rows(session)
        days = {local_date(row.time) for row in found} - {""}
        for row in found:  # the date only where the night ran past midnight
            at = local_time(row.time, date=len(days) > 1)
            lines.append(f"| {row.number} | {at} | {_md(row.ruling)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- SQLite

# PRAGMA user_version: 2 added ids, rulesets, money, tallies, 1-based seats; 3 added the nights
# (`nights`, `transfers` and `sessions.night`); 4 added the seasons (`seasons`, `standings`)
SQLITE_VERSION = 4
SQLITE_SCHEMA = f"""
PRAGMA user_version = {SQLITE_VERSION};
PRAGMA foreign_keys = ON;
CREATE TABLE nights (
    name TEXT PRIMARY KEY, status TEXT NOT NULL, created TEXT NOT NULL, closed TEXT,
    games INTEGER NOT NULL, exact INTEGER, left_out INTEGER
);
CREATE TABLE transfers (
    night TEXT NOT NULL REFERENCES nights(name), number INTEGER NOT NULL CHECK (number >= 1),
    payer TEXT NOT NULL, payee TEXT NOT NULL, cents INTEGER NOT NULL CHECK (cents > 0),
    PRIMARY KEY (night, number)
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, ruleset TEXT NOT NULL,
    path TEXT, status TEXT NOT NULL, created TEXT, updated TEXT, events INTEGER NOT NULL,
    night TEXT REFERENCES nights(name)
);
CREATE TABLE players (
    session_id TEXT NOT NULL REFERENCES sessions(id), seat INTEGER NOT NULL CHECK (seat >= 1),
    name TEXT NOT NULL, nickname TEXT,
    PRIMARY KEY (session_id, seat), UNIQUE (session_id, name)
);
CREATE TABLE events (
    session_id TEXT NOT NULL REFERENCES sessions(id), number INTEGER NOT NULL, time TEXT,
    player TEXT, action TEXT NOT NULL, detail TEXT NOT NULL, ruling TEXT NOT NULL,
    PRIMARY KEY (session_id, number),
    FOREIGN KEY (session_id, player) REFERENCES players(session_id, name)
);
CREATE TABLE results (
    session_id TEXT NOT NULL REFERENCES sessions(id), player TEXT NOT NULL,
    place INTEGER NOT NULL CHECK (place >= 1), won INTEGER NOT NULL, score INTEGER,
    paid INTEGER, winnings INTEGER, net INTEGER,
    PRIMARY KEY (session_id, player),
    FOREIGN KEY (session_id, player) REFERENCES players(session_id, name)
);
CREATE TABLE tallies (
    session_id TEXT NOT NULL REFERENCES sessions(id), player TEXT NOT NULL, key TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (session_id, player, key),
    FOREIGN KEY (session_id, player) REFERENCES players(session_id, name)
);
CREATE TABLE seasons (
    name TEXT PRIMARY KEY, start TEXT, "end" TEXT, game TEXT, points TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE standings (
    season TEXT NOT NULL REFERENCES seasons(name), place INTEGER NOT NULL CHECK (place >= 1),
    player TEXT NOT NULL, points INTEGER NOT NULL, wins INTEGER NOT NULL,
    games INTEGER NOT NULL, moved INTEGER,
    PRIMARY KEY (season, player)
);
CREATE INDEX players_name ON players(name);
CREATE INDEX standings_player ON standings(player);
CREATE INDEX events_player ON events(session_id, player);
CREATE INDEX results_player ON results(player);
CREATE INDEX tallies_player ON tallies(player);
CREATE INDEX transfers_payer ON transfers(payer);
CREATE INDEX transfers_payee ON transfers(payee);
CREATE INDEX sessions_night ON sessions(night);
"""
# in insert order: a night before the sessions that name it
SQLITE_TABLES = ("nights", "transfers", "sessions", "players", "events", "results", "tallies",
                 "seasons", "standings")  # fmt: skip


def night_rows(nights: Iterable[Night]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows the nights add to the SQLite export: one a night, and the transfers that
    settled it, in their order (cents)."""
    found: dict[str, list[tuple[Any, ...]]] = {"nights": [], "transfers": []}
    for night in nights:
        done = night.settled
        found["nights"].append(
            (
                night.name,
                night.status.value,
                night.created,
                night.closed or None,
                len(night.games),
                int(done.exact) if done is not None else None,
                len(done.left_out) if done is not None else None,
            )
        )
        if done is not None:
            found["transfers"] += [
                (night.name, k, t.payer, t.payee, t.cents) for k, t in enumerate(done.transfers, 1)
            ]
    return found


def sqlite_rows(
    session: Session,
    path: str | None,
    summary: Summary,
    final: Any,
    after: Sequence[Any] | None = None,
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows one session adds to each table of the SQLite export (`after`: the state after
    each event, if known; else a replay finds them)."""
    from referee.session import seated_players

    ident = summary.id
    scores = session.engine.scores(final)
    place = places(summary, every=True)
    results = []
    for name in summary.standings:
        money = summary.money(name)
        paid, took, net = (money["paid"], money["won"], money["net"]) if money else (None,) * 3
        won = int(summary.decided and name in summary.winners)
        results.append((ident, name, place[name], won, scores.get(name), paid, took, net))
    return {
        "sessions": [
            (
                ident,
                session.name,
                session.game,
                summary.ruleset,
                path,
                summary.status,
                session.created,
                session.updated,
                len(session.events),
                None,  # its night: `with_path` gives it (the night's file says, not this one)
            )
        ],
        "players": [
            (ident, k, p.name, p.nickname) for k, p in enumerate(seated_players(session, final), 1)
        ],
        "events": [
            (ident, r.number, r.time, r.player or None, r.action, r.detail, r.ruling)
            for r in rows(session, after)
        ],
        "results": results,
        "tallies": [
            (ident, name, key, value)
            for name in summary.at_table
            for key, value in sorted(summary.tally.get(name, {}).items())
        ],
    }


def with_path(
    tables: Mapping[str, list[tuple[Any, ...]]], path: str, night: str | None = None
) -> dict[str, list[tuple[Any, ...]]]:
    """`sqlite_rows` made without a path or a night (as they are kept: a file's rows depend on
    its bytes alone), with the session file's path and the night listing it in its row."""
    return {
        table: [(*row[:4], path, *row[5:9], night) for row in found]
        if table == "sessions"
        else list(found)
        for table, found in tables.items()
    }


# ---------------------------------------------------------------------------- stats

MONEY_PAID, MONEY_WON = "paid", "won"  # the tally keys a game played for money fills
FORM_LENGTH = 10  # the results strip: the last ten sessions


@dataclass
class Summary:
    """What stats keep of one session: cheap to cache, enough to add up."""

    id: str
    name: str
    game: str
    ruleset: str
    players: list[str]
    finished: bool
    winners: list[str]
    standings: list[str]
    created: str
    updated: str
    provisional: bool = False
    tally: dict[str, dict[str, int]] = field(default_factory=dict)
    shared: list[int] = field(default_factory=list)  # the game's places, if some share one
    events: int = 0  # how many events it summarises
    seated: list[str] = field(default_factory=list)  # at the table at the end, if not `players`
    began: str = ""  # the first event's time (`utc`), '' if none carries one
    ended: str = ""  # the last event's time: when a finished session finished

    def agrees_with(self, session: Session) -> bool:
        """Whether this is a summary of `session` as its file holds it now (issue 18: a kept
        summary that does not is rebuilt, never shown)."""
        return self.agrees(session.id, session.game, [p.name for p in session.players],
                           len(session.events))  # fmt: skip

    def agrees(self, id: str, game: str, players: Sequence[str], events: int) -> bool:
        """Whether this summarises a session of this id, game, players (names in their seats)
        and number of events: the facts `agrees_with` compares (a file's `storage.Facts`)."""
        return (
            self.id == id
            and self.game == game
            and self.players == list(players)
            and self.events == events
        )

    @property
    def at_table(self) -> list[str]:
        """Who sat at the table at the end (newcomers in, those whose seat was taken over out):
        whom its places, tallies and money are of."""
        return self.seated or self.players

    @property
    def status(self) -> str:
        """`playing`, `provisional` or `finished`, as `Outcome.status` says."""
        return Outcome(self.finished, (), (), self.provisional).status

    @property
    def decided(self) -> bool:
        """Finished with a result no event can change: a provisional win (a Kariki buy-back
        still on offer) counts for nobody until the night is settled (RULES 2)."""
        return self.finished and not self.provisional

    @property
    def played(self) -> str:
        """When the session was played (its start, stored in UTC)."""
        return self.created or self.updated

    @functools.cached_property
    def day(self) -> str:
        """The local day it was played (`local_date` of `played`), worked out once: stats ask
        for it several times per session."""
        return local_date(self.played)

    @functools.cached_property
    def keeps_money(self) -> bool:
        """Whether any player's tally holds money (looked up once, not once per player)."""
        return any(MONEY_PAID in r or MONEY_WON in r for r in self.tally.values())

    def money(self, player: str) -> dict[str, int] | None:
        """What `player` paid and won this session, and the net; None if no money was kept."""
        row = self.tally.get(player, {})
        if not self.keeps_money:
            return None
        paid, won = row.get(MONEY_PAID, 0), row.get(MONEY_WON, 0)
        return {"paid": paid, "won": won, "net": won - paid}

    def to_plain(self) -> dict[str, Any]:
        """As JSON data."""
        plain = {k: getattr(self, k) for k in (*_SUMMARY_TEXT, *_SUMMARY_LISTS)}
        return plain | {"finished": self.finished, "provisional": self.provisional,
                        "tally": self.tally, "shared": self.shared,
                        "events": self.events}  # fmt: skip

    @classmethod
    def from_plain(cls, data: object) -> Summary:
        """From JSON data, checked (`ValueError` if it is not one).

        Every kept summary is read on every stats run, so the checks go by the types of whole
        lists at once (JSON gives exact types: a text is a `str`, a whole number an `int`,
        true a `bool`)."""
        if type(data) is not dict:
            raise ValueError("not a summary")
        tally = data.get("tally")
        if not (
            _types(map(data.get, _SUMMARY_TEXT)) <= _TEXT
            and data["game"] in games.BY_NAME
            and all(map(_names, map(data.get, _SUMMARY_LISTS)))
            and type(data.get("finished")) is bool and type(data.get("provisional")) is bool
            and type(tally) is dict and _places_ok(data.get("shared"), data["standings"])
            and type(data.get("events")) is int and data["events"] >= 0
            and _types(tally) <= _TEXT and _types(tally.values()) <= _TABLE
            and _types(chain.from_iterable(tally.values())) <= _TEXT
            and _types(chain.from_iterable(map(dict.values, tally.values()))) <= _WHOLE
        ):  # fmt: skip
            raise ValueError("not a summary")
        # every field checked and given: filled as `__init__` would fill them, without its
        # call by keywords (the dataclass has no `__post_init__`)
        summary = cls.__new__(cls)
        summary.__dict__.update({k: data[k] for k in _SUMMARY_KEPT})
        return summary


_SUMMARY_TEXT = ("id", "name", "game", "ruleset", "created", "updated", "began", "ended")
_SUMMARY_LISTS = ("players", "winners", "standings", "seated")
_SUMMARY_KEPT = (*_SUMMARY_TEXT, *_SUMMARY_LISTS, "finished", "provisional", "tally", "shared",
                 "events")  # fmt: skip
_TEXT, _TABLE, _WHOLE = frozenset({str}), frozenset({dict}), frozenset({int})


def _types(values: Iterable[object]) -> set[type]:
    """The exact types among `values`."""
    return set(map(type, values))


def _names(value: object) -> bool:
    return type(value) is list and _types(value) <= _TEXT


def _places_ok(value: object, standings: object) -> bool:
    return (
        type(value) is list
        and type(standings) is list
        and (not value or len(value) == len(standings))
        and _types(value) <= _WHOLE
        and all(v >= 1 for v in value)
    )


def summarise(session: Session, after: Sequence[Any] | None = None) -> Summary:
    """A session's summary, from the state after each event (one replay if not given)."""
    engine = session.engine
    after = list(states(session)) if after is None else after
    if after:
        result = engine.outcome(after[-1])
    else:
        from referee.session import initial

        result = engine.outcome(initial(session))
    from referee.session import seated_players

    named = [p.name for p in session.players]
    # who sat at the table at the end: a newcomer counts, one whose seat was taken over not
    players = [p.name for p in seated_players(session, after[-1] if after else None)]
    standings = [n for n in result.standings if n in players]
    # the game's shared places (`Outcome.places`, where it gives them) for the standings it
    # names; a seat it leaves out comes last
    given = list(getattr(result, "places", ()) or ())
    shared = given if len(given) == len(standings) == len(result.standings) else []
    standings += [n for n in players if n not in standings]  # every seat has a place
    if shared:
        shared += [len(shared) + 1 + k for k in range(len(standings) - len(shared))]
    began, ended = play_span(session)
    return Summary(
        id=session_id(session),
        name=session.name,
        game=session.game,
        ruleset=ruleset_name(session),
        players=named,
        finished=result.finished,
        winners=list(result.winners),
        standings=standings,
        created=session.created,
        updated=session.updated,
        provisional=result.provisional,
        tally=with_money(engine.tally(after), session, after[-1] if after else None),
        shared=shared,
        events=len(session.events),
        seated=players if players != named else [],
        began=began,
        ended=ended,
    )


def with_money(
    tally: dict[str, dict[str, int]], session: Session, state: Any
) -> dict[str, dict[str, int]]:
    """A session's tally with each player's money once the game is over, in whole cents
    (`MONEY_PAID`: into the pot and for a seat taken over; `MONEY_WON`: from the pot and from
    other players), so that won - paid is his net (`referee.session.money`)."""
    from referee.session import money

    kept = money(session, state) if state is not None else None
    if kept is None or kept.result is None or not kept.purse.stakes.has_money:
        return tally
    purse, result = kept.purse, kept.result
    for name in result.nets:
        sent = sum(t.cents for t in result.transfers if t.payer == name)
        received = sum(t.cents for t in result.transfers if t.payee == name)
        row = tally.setdefault(name, {})
        row[MONEY_PAID] = purse.put_in(name) + sent
        row[MONEY_WON] = result.takes.get(name, 0) + received
    return tally


def places(summary: Summary, *, every: bool = False) -> dict[str, int]:
    """Each player's finishing place, 1 best: the game's own places where it shares some
    (Kariki: by the last time out), else by the standings; a shared win shares 1st. Only of a
    decided session, unless `every` (the standing so far)."""
    if not (summary.decided or every):
        return {}
    order = summary.shared or range(1, len(summary.standings) + 1)
    found = {}
    for place, name in zip(order, summary.standings, strict=True):
        won = summary.decided and name in summary.winners
        found[name] = 1 if won else place
    return found


def match_player(text: str, names: Iterable[str]) -> str:
    """The player `text` names among `names`: exactly, else in any case (Ann and ann are one
    player, `league.key`: any of his spellings is him); else `UsageError` `no player 'Anne'
    (did you mean Ann?)`."""
    import difflib

    known = sorted(set(names))
    if text in known:
        return text
    from referee.league import key

    same = [n for n in known if key(n) == key(text.strip())]
    if same:
        return same[0]
    folded = {n.casefold(): n for n in known}
    close = difflib.get_close_matches(text.strip().casefold(), list(folded), 1, 0.6)
    if close:
        hint = f" (did you mean {folded[close[0]]}?)"
    else:
        hint = f" (try {', '.join(known[:8])})" if known else " (no sessions yet)"
    raise UsageError(f"no player {quote(text)}{hint}")


@dataclass(frozen=True, slots=True)
class Filters:
    """Which sessions (and settled nights) stats count: a game or a ruleset, a player, a first
    and a last day."""

    game: str | None = None
    ruleset: str | None = None
    player: str | None = None
    since: str | None = None  # a local day, `2026-11-01` (`--from`, `--since`)
    until: str | None = None  # the last local day counted, itself included (`--to`)

    def keep(self, summary: Summary) -> bool:
        """Whether `summary` is one of the sessions wanted."""
        return (
            self.is_kind(summary)
            and (self.player is None or self.has_player(summary))
            and self.is_within(summary.day)
        )

    def has_player(self, summary: Summary) -> bool:
        """Whether the player wanted sat at `summary`'s table, in any case (`league.key`)."""
        from referee.league import key

        wanted = key(self.player or "")
        return any(key(name) == wanted for name in summary.at_table)

    def is_kind(self, summary: Summary) -> bool:
        """Whether `summary` is of the game and ruleset wanted."""
        return (self.game is None or summary.game == self.game) and (
            self.ruleset is None or summary.ruleset == self.ruleset
        )

    def is_within(self, day: str) -> bool:
        """Whether the local `day` is in the dates wanted (a session without one is not, once
        a date is given)."""
        if self.since is None and self.until is None:
            return True
        return bool(day) and (self.since or day) <= day <= (self.until or day)

    def keeps_night(self, night: Night, kinds: set[str]) -> bool:
        """Whether a settled night is wanted: started within the dates, with a net for the
        player, and, for a game or ruleset, one of its games of that kind (`kinds`: the ids of
        the sessions of that kind; for a game, the kind its record names counts too, so a
        night whose files are gone keeps its place). A night is always counted whole."""
        if night.settled is None or not self.is_within(local_date(night.created)):
            return False
        if self.player is not None:
            wanted = self.player.casefold()
            if not any(name.casefold() == wanted for name, _ in night.settled.nets):
                return False
        if self.game is None and self.ruleset is None:
            return True
        return any(
            m.id in kinds or (self.ruleset is None and m.game == self.game) for m in night.games
        )


def chosen(summaries: Iterable[Summary], filters: Filters) -> list[Summary]:
    """The sessions stats count: each identity once, those `filters` keep, oldest first (those
    begun at the same moment by name, not by their random ids: a strip of results, a streak
    and a tie come out the same every run)."""
    from referee.league import once

    kept, _ = once(summaries)  # a copy counts once: the finished file with the most events
    found = [s for s in kept if filters.keep(s)]
    return sorted(found, key=lambda s: (s.played, s.name, s.id))


def stats(
    summaries: Iterable[Summary],
    filters: Filters = Filters(),
    versus: Sequence[str] = (),
    nights: Sequence[Night] = (),
) -> dict[str, Any]:
    """Per player: games, wins, places, streaks, form, money, minutes played, rival, nemesis and
    favourite game; per ruleset a leaderboard, and per rating pool; plays per month; the bar
    nights; per game each tally's total, per game, lowest and highest; head-to-head; the money
    of each settled night of `nights` (every night read, in the order of their files).

    A player is one however his name is capitalised (`league.key`: Ann and ann are one, as
    `ratings` counts them), named by the spelling of his latest session."""
    from referee.league import key, night_of, pool

    summaries = list(summaries)
    picked = chosen(summaries, filters)
    wanted = key(filters.player) if filters.player is not None else None
    shown = spellings(picked)
    people: dict[str, dict[str, Any]] = {}  # by key
    per_game: dict[str, dict[str, list[Seen]]] = {}  # game -> key -> each session's counts
    boards: dict[str, dict[str, dict[str, int]]] = {}
    pool_boards: dict[str, dict[str, dict[str, int]]] = {}
    bar_nights: dict[str, dict[str, Any]] = {}
    total_minutes = 0
    # one pass over the sessions; each session's own values are looked up once, not once a
    # player, and a player's tables are made when first met, not for every seat
    for summary in picked:
        seats = seated_once(summary)
        key_of = dict(seats)  # every spelling at the table: one key each
        place = {key_of.get(n) or key(n): p for n, p in reversed(places(summary).items())}
        decided, day, tally = summary.decided, summary.day, summary.tally
        winners = {key_of.get(w) or key(w) for w in summary.winners}
        pending = "L" if decided else "-"
        played = minutes(summary.began, summary.ended) or 0
        its_pool = pool(summary)
        board_of = boards.setdefault(summary.ruleset, {})
        pool_of = pool_boards.setdefault(its_pool, {})
        game_of = per_game.setdefault(summary.game, {})
        night = night_of(summary)
        if night:
            kept = bar_nights.setdefault(night, {"date": night, "sessions": 0, "minutes": 0,
                                                 "winners": {}})  # fmt: skip
            kept["sessions"] += 1
            kept["minutes"] += played
            for who in winners if decided else ():
                kept["winners"][who] = kept["winners"].get(who, 0) + 1
        here = [who for _, who in seats]
        total_minutes += played
        for name, who in seats:
            row = people.get(who)
            if row is None:
                row = people[who] = _new_person()
            won = decided and who in winners
            row["games"] += 1
            row["finished"] += int(decided)
            row["wins"] += int(won)
            row["minutes"] += played
            if who in place:
                at = str(place[who])
                row["places"][at] = row["places"].get(at, 0) + 1
            row["form"].append("W" if won else pending)
            row["first_played"] = row["first_played"] or day
            row["last_played"] = day or row["last_played"]
            row["pools"][its_pool] = row["pools"].get(its_pool, 0) + 1
            row["latest"][its_pool] = len(row["form"])  # a tie goes to the one played last
            met = row["met"]  # himself too: `_finish_person` drops him
            for other in here:
                met[other] = met.get(other, 0) + 1
            mine = place.get(who)
            if mine is not None:
                above = row["above"]
                for other, theirs in place.items():
                    if theirs < mine:
                        above[other] = above.get(other, 0) + 1
            money = summary.money(name) if decided else None
            if money is not None:
                total = row["money"] or {"paid": 0, "won": 0, "net": 0}
                row["money"] = {k: total[k] + money[k] for k in total}
            for board_in in (board_of, pool_of):
                board = board_in.get(who)
                if board is None:
                    board = board_in[who] = {"games": 0, "wins": 0}
                board["games"] += 1
                board["wins"] += int(won)
            game_of.setdefault(who, []).append(
                Seen(decided, summary.keeps_money, tally.get(name, {}))
            )
    for who, row in people.items():
        _finish_person(who, row, shown)
    listed = sorted(people.items(), key=lambda kv: (-kv[1]["wins"], kv[1]["games"], kv[0]))
    doc: dict[str, Any] = {
        "sessions": len(picked),
        "first_played": picked[0].day if picked else None,
        "last_played": picked[-1].day if picked else None,
        "minutes": total_minutes,
        "players": [{"name": shown[k], **r} for k, r in listed if wanted is None or k == wanted],
        "leaderboards": _boards(boards, shown),
        "pools": _boards(pool_boards, shown, games_only=True),
        "months": months(picked),
        "bar_nights": [_bar_night(n, shown) for _, n in sorted(bar_nights.items(), reverse=True)],
        "games": _tallies(per_game, shown, wanted),
        "money": money_doc(picked, nights, filters, summaries, shown),
    }
    if versus:
        doc["versus"] = head_to_head(picked, versus[0], versus[1])
    return doc


def _bar_night(night: dict[str, Any], shown: Mapping[str, str]) -> dict[str, Any]:
    """A bar night as `stats --json` gives it: its winners named, most wins first."""
    order = sorted(night["winners"].items(), key=lambda kv: (-kv[1], kv[0]))
    return night | {"winners": {shown[k]: count for k, count in order}}


def spellings(picked: Iterable[Summary]) -> dict[str, str]:
    """Each player's name (by `league.key`) as the latest of `picked` (oldest first) spells it."""
    from referee.league import key

    return {key(name): name for summary in picked for name in summary.at_table}


def seated_once(summary: Summary) -> list[tuple[str, str]]:
    """Who sat at the table at the end, as (name, `league.key`): a name that differs from an
    earlier one only in case is the same player, counted once."""
    from referee.league import key

    seen: set[str] = set()
    found = []
    for name in summary.at_table:
        folded = key(name)
        if folded not in seen:
            seen.add(folded)
            found.append((name, folded))
    return found


class Seen(NamedTuple):
    """What a player counted in one session of a game (`Summary.tally`), and whether 0 counts
    for a count he has not: in a decided session, and for money only where money was kept."""

    decided: bool
    money: bool
    counts: Mapping[str, int]

    def value(self, name: str) -> int | None:
        found = self.counts.get(name)
        if found is not None:
            return found
        counted = self.decided and (self.money or name not in (MONEY_PAID, MONEY_WON))
        return 0 if counted else None


def _boards(
    boards: dict[str, dict[str, dict[str, int]]], shown: Mapping[str, str], games_only: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Each board, most wins first (then fewer games, then by name)."""
    return {
        name: [
            {"name": shown[k], **r}
            | ({} if games_only else {"win_rate": _rate(r["wins"], r["games"])})
            for k, r in sorted(
                board.items(), key=lambda kv: (-kv[1]["wins"], kv[1]["games"], kv[0])
            )
        ]
        for name, board in sorted(boards.items())
    }


def _new_person() -> dict[str, Any]:
    return {"games": 0, "finished": 0, "wins": 0, "places": {}, "form": [],
            "first_played": "", "last_played": "", "money": None, "minutes": 0,
            "pools": {}, "latest": {}, "met": {}, "above": {}}  # fmt: skip


def _rate(wins: int, games_: int) -> float | None:
    return round(wins / games_, 3) if games_ else None


def _finish_person(who: str, row: dict[str, Any], shown: Mapping[str, str]) -> None:
    """Rates, streaks, the strip, rival, nemesis and favourite game from what one pass
    counted."""
    form: list[str] = row.pop("form")
    row["win_rate"] = _rate(row["wins"], row["finished"])
    row["places"] = dict(sorted(row["places"].items(), key=lambda kv: int(kv[0])))
    results = [r for r in form if r != "-"]  # a session without a result breaks no streak
    current = results[-1] if results else ""
    length = 0
    for result in reversed(results):
        if result != current:
            break
        length += 1
    longest = run = 0
    for result in results:
        run = run + 1 if result == "W" else 0
        longest = max(longest, run)
    row["streak"] = {"current": f"{current}{length}" if current else "", "longest_win": longest}
    row["form"] = "".join(form[-FORM_LENGTH:])
    row["first_played"] = row["first_played"] or None
    row["last_played"] = row["last_played"] or None
    met: dict[str, int] = row.pop("met")
    met.pop(who, None)  # counted at every table he sat at
    above: dict[str, int] = row.pop("above")
    pools: dict[str, int] = row["pools"]
    rival = min(met, key=lambda k: (-met[k], k), default=None)
    row["rival"] = None if rival is None else {"name": shown[rival], "games": met[rival]}
    nemesis = min(above, key=lambda k: (-above[k], -met[k], k), default=None)
    row["nemesis"] = None if nemesis is None else {"name": shown[nemesis], "ahead": above[nemesis]}
    latest: dict[str, int] = row.pop("latest")
    favourite = min(pools, key=lambda k: (-pools[k], -latest[k], k), default=None)
    row["pools"] = dict(sorted(pools.items()))
    row["favourite_game"] = None if favourite is None else {"game": favourite,
                                                             "games": pools[favourite]}  # fmt: skip


def months(picked: Sequence[Summary]) -> list[dict[str, Any]]:
    """Sessions per local month, every month from the first to the last (none is skipped)."""
    counts: dict[str, int] = {}
    for summary in picked:
        key = summary.day[:7]
        if key:
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return []
    first, last = min(counts), max(counts)
    year, month = int(first[:4]), int(first[5:7])
    found = []
    while f"{year:04d}-{month:02d}" <= last:
        key = f"{year:04d}-{month:02d}"
        found.append({"month": key, "sessions": counts.get(key, 0)})
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return found


def head_to_head(picked: Sequence[Summary], a: str, b: str) -> dict[str, Any]:
    """Two players (in any case: `league.key`) in the sessions they both sat in: games, wins,
    and who finished ahead."""
    from referee.league import key

    ka, kb = key(a), key(b)
    ahead = {a: 0, b: 0}
    wins = {a: 0, b: 0}
    level = games_ = 0
    for summary in picked:
        seated = {k for _, k in seated_once(summary)}
        if ka not in seated or kb not in seated:
            continue
        games_ += 1
        won = {key(w) for w in summary.winners} if summary.decided else set()
        wins[a] += ka in won
        wins[b] += kb in won
        place = {key(n): p for n, p in reversed(places(summary).items())}
        if ka in place and kb in place:
            if place[ka] == place[kb]:
                level += 1
            else:
                ahead[a if place[ka] < place[kb] else b] += 1
    return {"players": [a, b], "games": games_, "wins": wins, "ahead": ahead, "level": level}


def money_doc(
    picked: Sequence[Summary],
    nights: Sequence[Night] = (),
    filters: Filters = Filters(),
    summaries: Sequence[Summary] = (),
    shown: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The money, in whole cents: each settled night the filters keep (its nets and transfers
    as its record keeps them: money that changed hands never changes), each session played for
    money and decided (who paid, won, net; the nets sum to zero: the pot is shared out whole,
    and `night`: the night listing it, or None), and each player's totals over those sessions,
    in a night or not (only the player asked for, if one is). A session still on the table, or
    won only provisionally, has its pot unclaimed: it counts once it is settled."""
    from referee.league import key as key_of

    night_of = night_of_each(nights)
    sessions = []
    totals: dict[str, dict[str, int]] = {}  # by `league.key`, named as `shown` spells him
    shown = spellings(picked) if shown is None else shown  # each player's name by his key
    wanted = key_of(filters.player) if filters.player is not None else None
    for summary in picked:
        if not summary.decided:
            continue
        kept = {n: summary.money(n) for n in summary.at_table}
        if all(v is None for v in kept.values()):
            continue
        players = {n: m for n, m in kept.items() if m is not None}
        sessions.append({"id": summary.id, "session": summary.name, "date": summary.day,
                         "night": night_of.get(summary.id), "players": players,
                         "sum": sum(m["net"] for m in players.values())})  # fmt: skip
        for name, money in players.items():
            if wanted is not None and key_of(name) != wanted:
                continue  # the one player asked for, as `players` has him alone
            total = totals.setdefault(key_of(name), {"paid": 0, "won": 0, "net": 0})
            for key in total:
                total[key] += money[key]
    kinds = {s.id for s in summaries if filters.is_kind(s)}
    settled = sorted(
        (n for n in nights if filters.keeps_night(n, kinds)), key=lambda n: (n.created, n.name)
    )
    return {
        "nights": [night_money(n) for n in settled],
        "sessions": sessions,
        "totals": {shown[k]: t for k, t in sorted(totals.items(), key=lambda kv: -kv[1]["net"])},
    }


def night_money(night: Night) -> dict[str, Any]:
    """A settled night's money as stats give it: its name, the local day it started, when it
    started and closed, and its settlement as `night --json` gives it (cents)."""
    assert night.settled is not None, "only a settled night has money to show"
    return {
        "name": night.name,
        "date": local_date(night.created),
        "created": night.created,
        "closed": night.closed,
        **settled_doc(night.settled),
    }


def _tallies(
    per_game: dict[str, dict[str, list[Seen]]], shown: Mapping[str, str], wanted: str | None
) -> dict[str, Any]:
    """Per game, per player (by key, named as `shown`), each count's total, per game, lowest
    and highest; a decided session in which he counted none of it counts 0 (his fewest
    Kirikis in a match is 0 if he had a match without one)."""
    found: dict[str, Any] = {}
    for game, by_player in sorted(per_game.items()):
        rows: dict[str, Any] = {}
        for who, seen in sorted(by_player.items(), key=lambda kv: (shown[kv[0]], kv[0])):
            if wanted is not None and who != wanted:
                continue
            names = sorted({name for one in seen for name in one.counts})
            row = {}
            for name in names:
                values = [v for v in (one.value(name) for one in seen) if v is not None]
                total = sum(one.counts.get(name, 0) for one in seen)
                row[name] = {"total": total, "per_game": round(total / len(seen), 2),
                             "lowest": min(values), "highest": max(values)}  # fmt: skip
            rows[shown[who]] = row
        found[game] = rows
    return found


def bar_chart(rows_: Sequence[tuple[str, int]], width: int = 40) -> list[str]:
    """Labelled bars scaled to fit `width` columns: `2026-11 ######## 8`."""
    if not rows_:
        return []
    label = max(len(k) for k, _ in rows_)
    top = max(v for _, v in rows_)
    room = max(1, width - label - 2 - len(str(top)))
    lines = []
    for key, value in rows_:
        bar = "#" * (round(value * room / top) if top > room else value)
        if value and not bar:
            bar = "#"  # any play at all shows
        lines.append(" ".join(part for part in (f"{key:<{label}}", bar, str(value)) if part))
    return lines
