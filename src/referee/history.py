"""A session's history as data to export, and stats across sessions. No game is named here:
each gives its words, its scores and its tallies through the contract (`referee.games.base`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee import __version__, games
from referee.games.base import Outcome
from referee.session import TIME_KEY, Session, event_of, states

EXPORT_FORMAT = 1  # the version of the JSON export document
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def rows(session: Session) -> list[Row]:
    """Every event of `session` as a row."""
    engine = session.engine
    words = games.module(session.game, "words").words
    found = []
    for number, (data, state) in enumerate(zip(session.events, states(session), strict=True), 1):
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


def csv_text(session: Session) -> str:
    """One row per event with stable columns, then one score column per player."""
    players = [p.name for p in session.players]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    head = ["number", "time", "game", "player", "action", "detail", "ruling"]
    writer.writerow(head + [neutral(f"score {name}") for name in players])
    for row in rows(session):
        cells = [row.number, row.time, row.game, row.player, row.action, row.detail, row.ruling]
        scores = [row.scores.get(name, "") for name in players]
        writer.writerow([neutral(c) if isinstance(c, str) else c for c in cells] + scores)
    return out.getvalue()


def json_document(session: Session, session_doc: Mapping[str, Any], summary: Any) -> str:
    """The whole session (as its file holds it, times included) and its final state."""
    document = {
        "referee_export": EXPORT_FORMAT,
        "referee": __version__,
        "session": session_doc,
        "final": summary,
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


def markdown(session: Session, result: Outcome, card_text: str) -> str:
    """A readable report: players, result, the card as text, the history with rulings."""
    lines = [f"# {_md(session.name)} ({session.game})", ""]
    names = [_md(p.name) + (f" ({_md(p.nickname)})" if p.nickname else "") for p in session.players]
    lines.append(f"Players: {', '.join(names)}")
    if result.finished:
        won = " and ".join(_md(w) for w in result.winners)
        lines.append(f"Result: {won} won" + (" (provisional)" if result.provisional else ""))
    else:
        lines.append("Result: still playing")
    lines += ["", "## Score card", "", "```text", card_text.rstrip("\n").replace("```", "'''"),
              "```", "", "## History", ""]  # fmt: skip
    if not session.events:
        lines.append("No events yet.")
    else:
        lines += ["| # | time | ruling |", "|---|---|---|"]
        for row in rows(session):
            lines.append(f"| {row.number} | {_md(row.time[11:16])} | {_md(row.ruling)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- SQLite

SQLITE_SCHEMA = """
CREATE TABLE sessions (
    name TEXT PRIMARY KEY, game TEXT NOT NULL, path TEXT, status TEXT NOT NULL,
    created TEXT, updated TEXT, events INTEGER NOT NULL,
    id TEXT NOT NULL  -- Session.id: the same night in two databases has the same id
);
CREATE TABLE players (
    session TEXT NOT NULL REFERENCES sessions(name), seat INTEGER NOT NULL,
    name TEXT NOT NULL, nickname TEXT, PRIMARY KEY (session, seat)
);
CREATE TABLE events (
    session TEXT NOT NULL REFERENCES sessions(name), number INTEGER NOT NULL, time TEXT,
    player TEXT, action TEXT NOT NULL, detail TEXT NOT NULL, ruling TEXT NOT NULL,
    PRIMARY KEY (session, number)
);
CREATE TABLE results (
    session TEXT NOT NULL REFERENCES sessions(name), player TEXT NOT NULL,
    place INTEGER NOT NULL, won INTEGER NOT NULL, score INTEGER,
    PRIMARY KEY (session, player)
);
"""


def sqlite_rows(
    session: Session, path: str, result: Outcome, final: Any
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows one session adds to each table of the SQLite export."""
    scores = session.engine.scores(final)
    return {
        "sessions": [
            (
                session.name,
                session.game,
                path,
                result.status,
                session.created,
                session.updated,
                len(session.events),
                session.id,
            )
        ],
        "players": [(session.name, k, p.name, p.nickname) for k, p in enumerate(session.players)],
        "events": [
            (session.name, r.number, r.time, r.player, r.action, r.detail, r.ruling)
            for r in rows(session)
        ],
        "results": [
            (session.name, name, place, int(name in result.winners), scores.get(name))
            for place, name in enumerate(result.standings, start=1)
        ],
    }


# ---------------------------------------------------------------------------- stats


@dataclass
class Summary:
    """What stats keep of one session: cheap to cache, enough to add up."""

    game: str
    players: list[str]
    finished: bool
    winners: list[str]
    tally: dict[str, dict[str, int]] = field(default_factory=dict)
    events: int = 0  # how many events it summarises

    def agrees_with(self, session: Session) -> bool:
        """Whether this is a summary of `session` as its file holds it now."""
        return (
            self.game == session.game
            and self.players == [p.name for p in session.players]
            and self.events == len(session.events)
        )

    def to_plain(self) -> dict[str, Any]:
        """As JSON data."""
        return {"game": self.game, "players": self.players, "finished": self.finished,
                "winners": self.winners, "tally": self.tally, "events": self.events}  # fmt: skip

    @classmethod
    def from_plain(cls, data: object) -> Summary:
        """From JSON data, checked (`ValueError` if it is not one)."""
        if not isinstance(data, dict):
            raise ValueError("not a summary")
        game, players, winners, tally = (
            data.get(k) for k in ("game", "players", "winners", "tally")
        )
        finished, events = data.get("finished"), data.get("events")
        if not (
            isinstance(game, str) and game in games.BY_NAME and isinstance(finished, bool)
            and _names(players) and _names(winners) and isinstance(tally, dict)
            and type(events) is int and events >= 0
            and all(isinstance(p, str) and isinstance(row, dict)
                    and all(isinstance(k, str) and type(v) is int for k, v in row.items())
                    for p, row in tally.items())
        ):  # fmt: skip
            raise ValueError("not a summary")
        return cls(game, list(players), finished, list(winners), tally, events)  # type: ignore[arg-type]


def _names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def summarise(session: Session) -> Summary:
    """A session's summary: one replay."""
    engine = session.engine
    after = list(states(session))
    final = after[-1] if after else None
    if final is None:
        from referee.session import initial

        final = initial(session)
    result = engine.outcome(final)
    return Summary(
        session.game,
        [p.name for p in session.players],
        result.finished,
        list(result.winners),
        engine.tally(after),
        len(session.events),
    )


def stats(
    summaries: Iterable[Summary],
    game: str | None = None,
    player: str | None = None,
    versus: Sequence[str] = (),
) -> dict[str, Any]:
    """Per player: games, wins, win rate; per game: each tally's total, per game, lowest and
    highest; and head-to-head when `versus` names two players."""
    chosen = [s for s in summaries if game is None or s.game == game]
    if player is not None:
        chosen = [s for s in chosen if player in s.players]
    people: dict[str, dict[str, Any]] = {}
    per_game: dict[str, dict[str, dict[str, list[int]]]] = {}
    for summary in chosen:
        for name in summary.players:
            row = people.setdefault(name, {"games": 0, "finished": 0, "wins": 0})
            row["games"] += 1
            row["finished"] += int(summary.finished)
            row["wins"] += int(summary.finished and name in summary.winners)
            counts = per_game.setdefault(summary.game, {}).setdefault(name, {})
            for key, value in summary.tally.get(name, {}).items():
                counts.setdefault(key, []).append(value)
    for row in people.values():
        row["win_rate"] = round(row["wins"] / row["finished"], 3) if row["finished"] else None
    games_doc = {
        name: {
            who: {
                key: {"total": sum(v), "per_game": round(sum(v) / _played(chosen, name, who), 2),
                      "lowest": min(v), "highest": max(v)}
                for key, v in sorted(keys.items())
            }
            for who, keys in sorted(by_player.items())
            if player is None or who == player
        }
        for name, by_player in sorted(per_game.items())
    }  # fmt: skip
    doc: dict[str, Any] = {
        "sessions": len(chosen),
        "players": [
            {"name": n, **r}
            for n, r in sorted(people.items(), key=lambda kv: (-kv[1]["wins"], kv[0]))
            if player is None or n == player
        ],
        "games": games_doc,
    }
    if versus:
        a, b = versus
        together = [s for s in chosen if a in s.players and b in s.players]
        doc["versus"] = {
            "players": [a, b],
            "games": len(together),
            "wins": {n: sum(1 for s in together if s.finished and n in s.winners) for n in (a, b)},
        }
    return doc


def _played(chosen: Sequence[Summary], game: str, player: str) -> int:
    return max(1, sum(1 for s in chosen if s.game == game and player in s.players))
