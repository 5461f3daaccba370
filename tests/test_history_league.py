"""A weekly group's history (issue 23): identity, money, the stats a group quotes, the SQLite
schema, the long CSV and local times. Stats are checked on made-up summaries (every case
written out) and through the CLI on real sessions."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import history, storage

EXAMPLES = Path(__file__).parents[1] / "examples"
LEAGUE_GAMES = ("kariki-night", "liars-dice-night", "perudo-night", "kalooki-game",
                "kiriki-bullet")  # fmt: skip


def summary(
    ident: str,
    standings: str,
    *,
    winners: str | None = None,
    finished: bool = True,
    day: str = "2026-11-01",
    ruleset: str = "kariki",
    tally: dict[str, dict[str, int]] | None = None,
) -> history.Summary:
    """A made-up session: `standings` best first (`"Ann Bob Cy"`), the first wins."""
    order = standings.split()
    won = order[:1] if winners is None else winners.split()
    return history.Summary(
        id=ident, name=f"night-{ident}", game="kariki", ruleset=ruleset, players=sorted(order),
        finished=finished, winners=won if finished else [], standings=order,
        created=f"{day}T20:00:00+00:00", updated=f"{day}T23:00:00+00:00", tally=tally or {},
    )  # fmt: skip


def person(doc: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [p for p in doc["players"] if p["name"] == name]
    assert len(found) == 1, name
    return found[0]


# ---------------------------------------------------------------------------- places, streaks


@pytest.mark.parametrize(
    ("nights", "name", "places", "current", "longest", "form"),
    [
        pytest.param(["Ann Bob", "Ann Bob", "Bob Ann"], "Ann", {"1": 2, "2": 1}, "L1", 2, "WWL",
                     id="a streak ends"),
        pytest.param(["Ann Bob", "Bob Ann", "Ann Bob", "Ann Bob"], "Ann", {"1": 3, "2": 1}, "W2",
                     2, "WLWW", id="a streak runs on"),
        pytest.param(["Cy Bob Ann", "Bob Ann Cy", "Ann Bob Cy"], "Cy", {"1": 1, "3": 2}, "L2", 1,
                     "WLL", id="third places"),
        pytest.param([f"{'Ann Bob' if k % 3 else 'Bob Ann'}" for k in range(13)], "Ann",
                     {"1": 8, "2": 5}, "L1", 2, "LWWLWWLWWL", id="ten of thirteen"),
    ],
)  # fmt: skip
def test_places_streaks_and_form(
    nights: list[str], name: str, places: dict[str, int], current: str, longest: int, form: str
) -> None:
    made = [summary(str(k), s, day=f"2026-11-{k + 1:02d}") for k, s in enumerate(nights)]
    row = person(history.stats(made), name)
    assert row["places"] == places
    assert row["streak"] == {"current": current, "longest_win": longest}
    assert row["form"] == form and len(form) <= history.FORM_LENGTH


def test_form_marks_a_session_without_a_result_and_it_breaks_no_streak() -> None:
    made = [summary("1", "Ann Bob"), summary("2", "Ann Bob", finished=False, day="2026-11-02"),
            summary("3", "Ann Bob", day="2026-11-03")]  # fmt: skip
    row = person(history.stats(made), "Ann")
    assert row["form"] == "W-W" and row["streak"] == {"current": "W2", "longest_win": 2}
    assert row["places"] == {"1": 2} and row["finished"] == 2 and row["games"] == 3


def test_a_shared_win_shares_first_place_and_counts_level() -> None:
    tie = summary("1", "Ann Bob Cy", winners="Ann Bob")
    assert history.places(tie) == {"Ann": 1, "Bob": 1, "Cy": 3}
    versus = history.stats([tie, summary("2", "Bob Cy Ann")], versus=("Ann", "Bob"))["versus"]
    assert versus == {"players": ["Ann", "Bob"], "games": 2, "wins": {"Ann": 1, "Bob": 2},
                      "ahead": {"Ann": 0, "Bob": 1}, "level": 1}  # fmt: skip


def test_the_games_own_shared_places_are_kept() -> None:
    night = replace(summary("1", "Ann Bob Cy Dee"), shared=[1, 2, 2, 4])  # two out at once
    assert history.places(night) == {"Ann": 1, "Bob": 2, "Cy": 2, "Dee": 4}
    versus = history.stats([night], versus=("Bob", "Cy"))["versus"]
    assert versus["ahead"] == {"Bob": 0, "Cy": 0} and versus["level"] == 1
    assert history.Summary.from_plain(night.to_plain()) == night
    with pytest.raises(ValueError, match="not a summary"):
        history.Summary.from_plain(night.to_plain() | {"shared": [1, 2]})


def test_head_to_head_is_by_who_finished_ahead_not_only_wins() -> None:
    made = [summary("1", "Cy Ann Bob"), summary("2", "Cy Ann Bob"), summary("3", "Bob Cy Ann")]
    versus = history.stats(made, versus=("Ann", "Bob"))["versus"]
    assert versus["wins"] == {"Ann": 0, "Bob": 1} and versus["ahead"] == {"Ann": 2, "Bob": 1}


def test_months_have_no_gaps_and_the_chart_fits_forty_columns() -> None:
    made = [summary(str(k), "Ann Bob", day="2026-01-05") for k in range(500)]
    made += [summary("x", "Ann Bob", day="2026-04-05"), summary("y", "Ann Bob", day="2027-01-01")]
    months = history.stats(made)["months"]
    assert [m["month"] for m in months][:4] == ["2026-01", "2026-02", "2026-03", "2026-04"]
    assert len(months) == 13 and [m["sessions"] for m in months][:4] == [500, 0, 0, 1]
    chart = history.bar_chart([(m["month"], m["sessions"]) for m in months])
    assert max(len(line) for line in chart) == 40
    assert chart[0] == "2026-01 " + "#" * 28 + " 500" and chart[3] == "2026-04 # 1"
    assert chart[1] == "2026-02 0"


def test_leaderboards_are_per_variant_and_first_and_last_played() -> None:
    made = [summary("1", "Ann Bob", ruleset="perudo", day="2026-02-01"),
            summary("2", "Bob Ann", ruleset="liars-dice", day="2026-03-01"),
            summary("3", "Bob Ann", ruleset="liars-dice", day="2026-05-01")]  # fmt: skip
    doc = history.stats(made)
    assert list(doc["leaderboards"]) == ["liars-dice", "perudo"]
    assert [(r["name"], r["wins"]) for r in doc["leaderboards"]["liars-dice"]] == [
        ("Bob", 2), ("Ann", 0)]  # fmt: skip
    assert (doc["first_played"], doc["last_played"]) == ("2026-02-01", "2026-05-01")
    only = history.stats(made, history.Filters(ruleset="perudo"))
    assert only["sessions"] == 1 and person(only, "Ann")["wins"] == 1
    since = history.stats(made, history.Filters(since="2026-03-01"))
    assert since["sessions"] == 2 and since["first_played"] == "2026-03-01"


# ---------------------------------------------------------------------------- identity, money


def test_the_same_id_counts_once() -> None:
    night = summary("same", "Ann Bob")
    doc = history.stats([night, replace(night, name="copy"), summary("other", "Bob Ann")])
    assert doc["sessions"] == 2 and person(doc, "Ann")["games"] == 2


def test_money_per_night_and_in_total_sums_to_zero() -> None:
    pot = {"Ann": {"paid": 3, "won": 6}, "Bob": {"paid": 3}}
    second = {"Ann": {"paid": 2}, "Bob": {"paid": 2}, "Cy": {"paid": 2, "won": 6}}
    made = [summary("1", "Ann Bob", tally=pot),
            summary("2", "Cy Ann Bob", day="2026-11-08", tally=second),
            summary("3", "Ann Bob", day="2026-11-09")]  # fmt: skip  # the last: no money kept
    doc = history.stats(made)
    played = doc["money"]["sessions"]
    assert [n["id"] for n in played] == ["1", "2"] and all(n["sum"] == 0 for n in played)
    assert played[0]["players"]["Bob"] == {"paid": 3, "won": 0, "net": -3}
    assert [n["night"] for n in played] == [None, None] and doc["money"]["nights"] == []
    assert doc["money"]["totals"] == {"Cy": {"paid": 2, "won": 6, "net": 4},
                                      "Ann": {"paid": 5, "won": 6, "net": 1},
                                      "Bob": {"paid": 5, "won": 0, "net": -5}}  # fmt: skip
    assert person(doc, "Ann")["money"] == {"paid": 5, "won": 6, "net": 1}
    assert history.stats([made[2]])["players"][0]["money"] is None


def test_money_through_stats_json_sqlite_and_the_money_view(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    # The bundled Kariki night is played for money: a buy-in of 2 each, and Bob's buy-backs.
    referee("new", "kariki", "Ann", "Bob", "--name", "start")
    shutil.copy(EXAMPLES / "kariki-night.toml", home / "sessions" / "kariki-night.toml")
    doc = json.loads(referee("stats", "--json").out)
    night = next(n for n in doc["money"]["sessions"] if n["session"] == "kariki-night")
    assert night["sum"] == 0 and night["players"]["Bob"] == {"paid": 1200, "won": 2000,
                                                             "net": 800}  # fmt: skip
    view = referee("stats", "--money").out
    assert view.splitlines() == [  # cents, shown as money
        "settled nights: none",
        "per player, 2026-11-29 to 2026-11-29:",
        "player  paid  won  net",
        "Bob       12   20   +8",
        "Ann        2    0   -2",
        "Cy         2    0   -2",
        "Dee        2    0   -2",
        "Eve        2    0   -2",
    ]
    database = tmp_path / "money.db"
    referee("export", "--format", "sqlite", "--all", "-o", str(database))
    with sqlite3.connect(database) as db:
        sums = db.execute("SELECT session_id, sum(net) FROM results GROUP BY session_id").fetchall()
        assert len(sums) == 2 and {total for _, total in sums} == {None, 0}  # none kept: NULL
        assert db.execute("SELECT paid, winnings, net FROM results WHERE player = 'Bob' "
                          "AND won = 1").fetchall() == [(1200, 2000, 800)]  # fmt: skip


# ---------------------------------------------------------------------------- the CLI


@pytest.fixture
def league(referee: Runner, home: Path) -> Path:
    """The bundled examples in one data folder."""
    referee("new", "kariki", "Ann", "Bob", "--name", "start")
    for name in LEAGUE_GAMES:
        shutil.copy(EXAMPLES / f"{name}.toml", home / "sessions" / f"{name}.toml")
    return home


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["stats", "--player", "Anne"], "no player 'Anne' (did you mean Ann?)",
                     id="did you mean"),
        pytest.param(["stats", "--vs", "Ann", "Nobody"], "no player 'Nobody' (try ",
                     id="vs nobody"),
        pytest.param(["sessions", "--player", "Carl"], "no player 'Carl' (did you mean Carla?)",
                     id="sessions"),
        pytest.param(["stats", "--since", "1/11/2026"],
                     "bad date '1/11/2026' for --since: write it like 2026-11-01", id="date"),
        pytest.param(["sessions", "--since", "yesterday"], "bad date 'yesterday'",
                     id="sessions date"),
        pytest.param(["stats", "--game", "chess"], "chess", id="game"),
        pytest.param(["stats", "--ruleset", "perdo"], "perdo", id="ruleset"),
        pytest.param(["export", "--format", "json", "--scores"], "--scores goes with --format csv",
                     id="scores"),
    ],
)  # fmt: skip
def test_unknown_names_and_bad_dates_are_exit_2_and_write_nothing(
    referee: Runner, league: Path, args: list[str], message: str
) -> None:
    before = snapshot(session_file(league, "start"))
    result = referee(*args)
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1, result
    assert result.out == "" and snapshot(session_file(league, "start")) == before


def test_names_match_in_any_case_and_variants_filter(referee: Runner, league: Path) -> None:
    doc = json.loads(referee("stats", "--json", "--player", "cARLA").out)
    assert [p["name"] for p in doc["players"]] == ["Carla"] and doc["sessions"] == 1
    perudo = json.loads(referee("stats", "--json", "--game", "perudo").out)
    assert perudo["sessions"] == 1 and list(perudo["leaderboards"]) == ["perudo"]
    assert json.loads(referee("stats", "--json", "--ruleset", "perudo").out) == perudo
    liars = json.loads(referee("stats", "--json", "--game", "ld").out)
    assert liars["sessions"] == 2 and list(liars["leaderboards"]) == ["liars-dice", "perudo"]
    names = [r["name"] for r in json.loads(referee("sessions", "--json", "--player", "ANA").out)]
    assert names == ["perudo-night"]


def test_since_on_stats_and_sessions(referee: Runner, league: Path) -> None:
    days = {p.stem: history.local_date(storage.load(p).session.created)
            for p in (league / "sessions").glob("*.toml")}  # fmt: skip
    cut = sorted(set(days.values()))[-1]
    wanted = sorted(n for n, d in days.items() if d >= cut)
    assert 0 < len(wanted) < len(days)
    listed = json.loads(referee("sessions", "--json", "--since", cut).out)
    assert sorted(r["name"] for r in listed) == wanted
    assert json.loads(referee("stats", "--json", "--since", cut).out)["sessions"] == len(wanted)


def test_the_player_card_at_forty_columns(referee: Runner, league: Path) -> None:
    text = referee("stats", "--all", "--player", "bob", "--game", "kariki").out
    bob = json.loads(referee("stats", "--json", "--player", "bob", "--game", "kariki").out)
    money = bob["players"][0]["money"]  # once Kariki keeps its pot (issue 19)
    paid = []
    if money:
        paid = ["money: paid 12, won 20, net +8"]  # cents, shown as money
        assert money == {"paid": 1200, "won": 2000, "net": 800}
    assert text.splitlines()[: 10 + bool(money)] == [
        "2 sessions, 2026-11-29 to 2026-11-29",
        "Bob: 2 played, 1 finished, 1 won",
        "win rate 100% of the finished",
        "first 2026-11-29, last 2026-11-29",
        "places: 1st 1",
        "streak: W1 now, longest 1 win",
        "last 10: W-",  # the night's game, then the unfinished start
        *paid,
        "kariki: 1 won of 2, by wins 1st of 5",
        "plays per month:",
        "2026-11 ## 2",
    ]
    assert max(len(line) for line in text.splitlines()) <= 40


def test_the_stats_screen_at_forty_columns(referee: Runner, league: Path) -> None:
    text = referee("stats", "--all", "--game", "kiriki").out
    assert text.splitlines()[:8] == [
        "1 session, 2026-11-28 to 2026-11-28",
        "player       games wins rate form",
        "Ann              1    1 100% W",
        "Bob              1    0   0% L",
        "leaderboards (wins/games):",
        "  kiriki: Ann 1/1, Bob 0/1",
        "plays per month:",
        "2026-11 # 1",
    ]
    assert max(len(line) for line in referee("stats", "--all").out.splitlines()) <= 40


# ---------------------------------------------------------------------------- SQLite, CSV


def test_the_sqlite_schema(referee: Runner, league: Path, tmp_path: Path) -> None:
    database = tmp_path / "league.db"
    assert referee("export", "--format", "sqlite", "--all", "-o", str(database)).code == 0
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (history.SQLITE_VERSION,)
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        assert sorted(tables) == sorted(history.SQLITE_TABLES)
        for table in tables:
            columns = db.execute(f"PRAGMA table_info({table})").fetchall()
            assert any(c[5] for c in columns), f"{table} has no primary key"
            keys = db.execute(f"PRAGMA foreign_key_list({table})").fetchall()
            if table in ("nights", "transfers"):  # a night's, not a session's
                assert table == "nights" or any(k[2:5] == ("nights", "night", "name") for k in keys)
                continue
            if table in ("seasons", "standings"):  # a season's, not a session's
                assert table == "seasons" or any(
                    k[2:5] == ("seasons", "season", "name") for k in keys
                )
                continue
            assert "session_id" in {c[1] for c in columns} or table == "sessions"
            assert table == "sessions" or any(k[3] == "session_id" for k in keys)
            if table in ("events", "results", "tallies"):
                assert any(k[3] == "player" and k[4] == "name" for k in keys), table
        indexed = {i for (i,) in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert {"results_player", "players_name", "events_player"} <= indexed
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("SELECT min(seat), min(place) FROM players, results").fetchone() == (
            1, 1)  # fmt: skip
        paths = [p for (p,) in db.execute("SELECT path FROM sessions")]
        assert sorted(paths) == sorted(f"sessions/{n}.toml" for n in (*LEAGUE_GAMES, "start"))
        rulesets = dict(db.execute("SELECT name, ruleset FROM sessions"))
        assert rulesets["perudo-night"] == "perudo" and rulesets["liars-dice-night"] == "liars-dice"
        ids = {i for (i,) in db.execute("SELECT id FROM sessions")}
        for table in ("players", "events", "results", "tallies"):
            used = {i for (i,) in db.execute(f"SELECT DISTINCT session_id FROM {table}")}
            assert used <= ids and used, table
    outside = tmp_path / "one.db"
    referee("export", "--format", "sqlite", "-o", str(outside), "-s",
            str(EXAMPLES / "kariki-night.toml"))  # fmt: skip
    with sqlite3.connect(outside) as db:  # a file outside the data folder: its name only
        assert db.execute("SELECT path FROM sessions").fetchall() == [("kariki-night.toml",)]


def test_the_docs_name_every_sqlite_column() -> None:
    docs = (Path(__file__).parents[1] / "docs" / "SQLITE.md").read_text()
    db = sqlite3.connect(":memory:")
    db.executescript(history.SQLITE_SCHEMA)
    for table in history.SQLITE_TABLES:
        assert f"### `{table}`" in docs, table
        for column in db.execute(f"PRAGMA table_info({table})").fetchall():
            assert f"| `{column[1]}` |" in docs, (table, column[1])
    for query in docs.split("```sql")[1:]:
        db.execute(query.split("```")[0])  # each example query runs on the schema
    assert docs.count("```sql") >= 3
    assert "docs/SQLITE.md" in (Path(__file__).parents[1] / "README.md").read_text()


def test_re_exporting_with_force_replaces_the_database_whole(
    referee: Runner, league: Path, tmp_path: Path
) -> None:
    database = tmp_path / "league.db"
    referee("export", "--format", "sqlite", "--all", "-o", str(database))
    first = database.read_bytes()
    referee("delete", "start", "--yes")
    assert referee("export", "-f", "sqlite", "--all", "-o", str(database)).code == 3
    assert database.read_bytes() == first
    assert referee("export", "-f", "sqlite", "--all", "-o", str(database), "--force").code == 0
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM sessions").fetchone() == (len(LEAGUE_GAMES),)
    assert not list(tmp_path.glob(".*.tmp"))


def test_the_csv_header_is_the_same_for_every_table(referee: Runner, league: Path) -> None:
    heads = set()
    for name in LEAGUE_GAMES:
        where = ("-s", name)
        loaded = storage.load(session_file(league, name))
        rows = list(csv.reader(io.StringIO(referee("export", *where).out)))
        heads.add(tuple(rows[0]))
        assert {r[0] for r in rows[1:]} == {history.session_id(loaded.session)}
        assert {r[1] for r in rows[1:]} == {name}
        assert [int(r[2]) for r in rows[1:]] == list(range(1, len(loaded.session.events) + 1))
        scores = list(csv.reader(io.StringIO(referee("export", "--scores", *where).out)))
        heads.add(tuple(scores[0]))
        last = [r for r in scores[1:] if int(r[2]) == len(loaded.session.events)]
        final = loaded.session.engine.scores(loaded.state)
        assert {r[3]: int(r[4]) for r in last} == final
    assert heads == {history.CSV_HEAD, history.CSV_SCORES_HEAD}


# ---------------------------------------------------------------------------- times


def test_times_are_local_where_people_read_them(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_CLOCK", "2026-11-29T23:30:00+00:00")
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("kariki", "claim", "9")
    monkeypatch.setenv("TZ", "Asia/Tokyo")  # UTC+9: the night is on the 30th there
    time.tzset()
    try:
        listed = referee("sessions").out
        report = referee("export", "--format", "md").out
        log = referee("log").out
        stats = json.loads(referee("stats", "--json").out)
    finally:
        monkeypatch.setenv("TZ", "UTC")
        time.tzset()
    assert "2026-11-30 08:30" in listed
    assert "Played: 2026-11-30 08:30 (local time)" in report and "| 1 | 08:30 |" in report
    assert "08:30" in log
    assert stats["first_played"] == "2026-11-30" and stats["months"][0]["month"] == "2026-11"
    stored = storage.load(session_file(home)).session
    assert stored.created == "2026-11-29T23:30:00+00:00"  # stored in UTC with its offset


def test_a_report_over_midnight_dates_its_times(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_CLOCK", "2026-11-29T23:59:00+00:00")
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("kariki", "claim", "9")
    monkeypatch.setenv("REFEREE_CLOCK", "2026-11-30T00:01:00+00:00")
    referee("kariki", "claim", "10")
    report = referee("export", "--format", "md").out
    assert "| 1 | 2026-11-29 23:59 |" in report and "| 2 | 2026-11-30 00:01 |" in report


# ---------------------------------------------------------------------------- the league


def league_nights(home: Path, count: int = 200) -> list[Path]:
    """`count` small nights of four games, made from the bundled examples: each a different
    day (about two a week) and a different stretch of its example, so results vary."""
    sources = [storage.load(EXAMPLES / f"{name}.toml").session for name in LEAGUE_GAMES]
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for k in range(count):
        source = sources[k % len(sources)]
        day = 1 + (k * 3) % 28
        month = 1 + (k // 9) % 12
        start = f"{2025 + k // 108}-{month:02d}-{day:02d}T20:{k % 60:02d}:00+00:00"
        short = len(source.events) <= 20  # played to the end: a result, a rated match
        keep = len(source.events) if short or k % 25 == 0 else 4 + k % 9
        night = replace(source, name=f"n{k:03d}", created=start, updated=start,
                        events=source.events[:keep], undone=())  # fmt: skip
        if hasattr(night, "id"):  # sessions with ids (issue 18): each night its own
            own: dict[str, Any] = {"id": f"{k + 1:032x}"}
            night = replace(night, **own)
        path = folder / f"n{k:03d}.toml"
        path.write_text(storage.session_to_text(night), encoding="utf-8")
        made.append(path)
    return made


def everything(referee: Runner, database: Path) -> tuple[object, object, list[str], int]:
    """What the league looks like: stats, ratings, the SQLite file's rows and version."""
    stats = json.loads(referee("stats", "--json").out)
    ratings = json.loads(referee("ratings", "--json").out)
    assert referee("export", "-f", "sqlite", "--all", "-o", str(database), "--force").code == 0
    with sqlite3.connect(database) as db:
        rows = list(db.iterdump())
        version = db.execute("PRAGMA user_version").fetchone()[0]
    return stats, ratings, rows, version


def test_a_league_imported_twice_counts_once(referee: Runner, home: Path, tmp_path: Path) -> None:
    nights = league_nights(home)
    once = everything(referee, tmp_path / "once.db")
    assert once[0]["sessions"] == 200  # type: ignore[index]
    kr = once[1]["games"]["kiriki"]  # type: ignore[index]
    assert {p["name"] for p in kr["players"]}  # a rated match in there
    for path in nights:  # the same files again under other names: what a second import keeps
        shutil.copy(path, path.with_name(f"again-{path.name}"))
    dump = tmp_path / "n000.json"
    assert referee("export", "-f", "json", "-o", str(dump), "-s", "n000").code == 0
    referee("import", str(dump), "--name", "n000-imported")  # refused, or counted once
    twice = everything(referee, tmp_path / "twice.db")
    assert twice == once
    assert (tmp_path / "twice.db").read_bytes() == (tmp_path / "once.db").read_bytes()


def test_the_readme_has_a_try_it_line_for_every_bundled_example(referee: Runner) -> None:
    import shlex

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    block = readme.split("### Try it on the bundled examples")[1].split("```sh\n")[1]
    lines = [ln.split("  #")[0] for ln in block.split("```")[0].splitlines()]
    for example in sorted(EXAMPLES.glob("*.toml")):
        assert any(f"examples/{example.name}" in ln for ln in lines), example.name
    for line in lines:
        args = shlex.split(line.replace("examples/", f"{EXAMPLES}/"))
        assert args[0] == "referee"
        result = referee(*args[1:])
        assert result.code == 0 and result.out, line


def test_a_log_over_midnight_dates_the_first_event_of_each_day(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for at, action in (("23:58", "9"), ("23:59", "10")):
        monkeypatch.setenv("REFEREE_CLOCK", f"2026-11-29T{at}:00+00:00")
        if action == "9":
            referee("new", "kariki", "Ann", "Bob", "--name", "friday")
        referee("kariki", "claim", action)
    monkeypatch.setenv("REFEREE_CLOCK", "2026-11-30T00:01:00+00:00")
    referee("kariki", "pull", "4-5")
    times = [line.split()[1:3] for line in referee("log").out.splitlines() if line[:2].strip()]
    assert times == [["11-29", "23:58"], ["23:59", "Bob"], ["11-30", "00:01"]]
    assert history.log_times(["2026-11-29T20:00:00+00:00", None]) == ["20:00", ""]


def test_the_stats_screen_marks_a_cut_name_and_a_longer_leaderboard(referee: Runner) -> None:
    # Found by a play-test: "Konstantinos" (of Konstantinos-Pap) read as a whole name, and a
    # Kariki night of six listed five players on its leaderboard with no word of the sixth.
    players = ["Konstantinos-Pap", "Konstantinos", "Cy", "Dee", "Eve", "Fay"]
    assert referee("new", "kariki", *players, "--name", "six").code == 0
    text = referee("stats", "--all").out.splitlines()
    assert "Konstantino…     1    0    - -" in text
    assert "Konstantinos     1    0    - -" in text
    assert text[text.index("leaderboards (wins/games):") + 1 :][:2] == [
        "  kariki: Cy 0/1, Dee 0/1, Eve 0/1, Fay",
        "    0/1, Konstantinos 0/1, and 1 more",
    ]
    assert max(len(line) for line in text) <= 40


@pytest.mark.parametrize(
    ("game", "names"),
    [("perudo", ["p1"]), ("liars", ["l1", "p1"]), ("ld", ["l1", "p1"]), ("mia", [])],
)
def test_sessions_take_perudo_as_a_game_as_stats_do(
    referee: Runner, game: str, names: list[str]
) -> None:
    """Perudo is named by its ruleset: `sessions --game perudo` lists its games alone."""
    assert referee("new", "liars", "Ann", "Bob", "--name", "l1").code == 0
    assert referee("new", "liars", "Ann", "Bob", "--ruleset", "perudo", "--name", "p1").code == 0
    shown = json.loads(referee("sessions", "--game", game, "--json").out)
    assert sorted(r["name"] for r in shown) == names
    assert referee("sessions", "--game", "perudoo").code == 2
