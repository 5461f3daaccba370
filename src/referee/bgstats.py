"""A finished session as a BG Stats play: the JSON its import takes, and the link that opens the
app's import dialog with it (issue 37). Pure: no Typer, no Rich, no file.

BG Stats reads a play as one JSON object (`sourceName`, `sourcePlayId`, `playDate`,
`durationMin`, `game`, `players`), either from a file or from the `data` parameter of its
`createPlay.html` link. Every boolean of it is written, true or false, and every player field
the issue names: BG Stats' Android app has been seen to stop ("No value for ...") at a
missing one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any
from urllib import parse

from referee import games, history
from referee.errors import RuleViolation, quote
from referee.session import Session, event_of, event_time, initial, states

SOURCE_NAME = "referee"
LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="  # the app's own scheme: a phone
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"  # BG Stats' `yyyy-MM-dd HH:mm:ss`, here always in UTC
NO_SCORE = ""  # a game without points: the field is still there, empty


@dataclass(frozen=True, slots=True)
class Title:
    """A game as BG Stats knows it."""

    name: str
    highest_wins: bool  # more points is better (BG Stats' default when there are none)
    no_points: bool  # the game has no score: places only
    bgg_id: int | None = None  # its BoardGameGeek id, only where it is certainly the game


# BoardGameGeek's Liar's Dice (45) lists Perudo and Dudo as its other names; for the other games
# no entry is sure to be the game played here, so they carry none (BG Stats matches by name).
TITLES: Mapping[str, Title] = {
    "kariki": Title("Kariki", highest_wins=True, no_points=True),
    "liars": Title("Liar's Dice", highest_wins=True, no_points=True, bgg_id=45),
    "kiriki": Title("Kiriki", highest_wins=True, no_points=False),  # points: first to the target
    "kalooki": Title("Kalooki", highest_wins=False, no_points=False),  # penalty totals: lowest
    "mia": Title("Mia", highest_wins=True, no_points=True),
}
# A bundled variant a table knows by its own name (its ruleset's name), as another game
VARIANTS: Mapping[str, Title] = {
    "perudo": Title("Perudo", highest_wins=True, no_points=True, bgg_id=45),
}


def _variant(game: str, ruleset: str) -> bool:
    """Whether `ruleset` is one of `game`'s bundled variants (not its default)."""
    known = games.BY_NAME.get(game)
    return known is not None and ruleset in known.rulesets[1:] and ruleset in VARIANTS


def title_of(game: str, ruleset: str) -> Title:
    """The BG Stats game of a session: its variant's or its game's, else (a game added later)
    the game's title with places only."""
    if _variant(game, ruleset):
        return VARIANTS[ruleset]
    found = TITLES.get(game)
    if found is not None:
        return found
    known = games.BY_NAME.get(game)
    return Title(known.title if known else game, highest_wins=True, no_points=True)


def source_game_id(game: str, ruleset: str) -> str:
    """The id BG Stats keeps the game under for referee: `referee:kariki`, a variant by its
    ruleset (`referee:perudo`)."""
    return f"referee:{ruleset if _variant(game, ruleset) else game}"


def play_date(stored: str) -> str:
    """A stored time as BG Stats' play date in UTC, `2026-11-29 21:04:00`; '' if not one.

    >>> play_date("2026-11-29T22:04:00.123+01:00")
    '2026-11-29 21:04:00'
    """
    found = event_time(stored) if stored else None
    return "" if found is None else str(found.astimezone(UTC).strftime(DATE_FORMAT))


def start_player(session: Session, after: Sequence[Any]) -> str | None:
    """Who acted first: the player of the first event made by the one on turn (Kiriki's
    roll-off names nobody, and a newcomer's join is not a move), or in a game that keeps no
    turns (Kalooki) by the first player an event names."""
    engine = session.engine
    before = (initial(session), *after)
    for data, state in zip(session.events, before, strict=False):
        actor = engine.player_of(event_of(engine, data))
        turn = engine.turn(state)
        if actor is not None and turn in (None, actor):
            return actor
    return None


def play(
    summary: history.Summary,
    *,
    scores: Mapping[str, int],
    start: str | None = None,
    house: Sequence[str] = (),
) -> dict[str, Any]:
    """The BG Stats play of a decided session; `RuleViolation` for one still playing or with a
    provisional result (a Kariki buy-back still on offer)."""
    if not summary.decided:
        why = "still provisional" if summary.finished else "not finished"
        raise RuleViolation(
            f"cannot export {quote(summary.name)} to BG Stats: it is {why}; finish it first"
        )
    title = title_of(summary.game, summary.ruleset)
    place = history.places(summary)
    players = [
        {
            "name": name,
            "sourcePlayerId": name.casefold(),
            "winner": name in summary.winners,
            "rank": place[name],
            "score": NO_SCORE if title.no_points else scores.get(name, 0),
            "startPlayer": name == start,
        }
        for name in summary.at_table
    ]
    game: dict[str, Any] = {
        "name": title.name,
        "sourceGameId": source_game_id(summary.game, summary.ruleset),
        "highestWins": title.highest_wins,
        "noPoints": title.no_points,
    }
    if title.bgg_id is not None:
        game["bggId"] = title.bgg_id
    said = f"referee session {summary.name}, {summary.ruleset} rules"
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": summary.id,
        "playDate": play_date(summary.began) or play_date(summary.created),
        "durationMin": history.minutes(summary.began, summary.ended) or 0,
        "ignored": False,
        "manualWinner": False,
        "usesTeams": False,
        "comments": said + (f"; house rules: {', '.join(house)}" if house else ""),
        "game": game,
        "players": players,
    }


def play_of(session: Session, after: Sequence[Any] | None = None) -> dict[str, Any]:
    """A session's BG Stats play (`play`), from the state after each event (one replay if not
    given)."""
    from referee.house import phrases

    after = list(states(session)) if after is None else after
    final = after[-1] if after else initial(session)
    summary = history.summarise(session, after)
    return play(
        summary,
        scores=session.engine.scores(final),
        start=start_player(session, after) if summary.decided else None,
        house=phrases(session.game, session.ruleset) if summary.decided else (),
    )


def document(found: Mapping[str, Any]) -> str:
    """A play as the JSON file BG Stats imports."""
    return json.dumps(found, indent=2, ensure_ascii=False) + "\n"


def link(found: Mapping[str, Any]) -> str:
    """The link that opens BG Stats' import dialog with the play: its compact JSON, every
    character but letters, digits and `_.-~` percent-encoded (UTF-8).

    >>> link({"a": "b c"})
    'bgstats://app.bgstatsapp.com/createPlay.html?data=%7B%22a%22%3A%22b%20c%22%7D'
    """
    compact = json.dumps(found, separators=(",", ":"), ensure_ascii=False)
    return LINK + parse.quote(compact, safe="")
