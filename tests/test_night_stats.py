"""A night's money looked back on (issue 36): `stats --money` (each settled night's nets and
transfers as its record keeps them, and money per player over a date range), the SQLite export's
`nights` and `transfers`, and one night's numbers agreeing in `night --json`, `stats --money
--json`, the SQLite export and the night's share card. Played on real games: Mia with stakes (one
pot split 70/30 by places), and High roll (tests/plugin_game.py) with a loss value and a split."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner
from referee import answers
from referee.games.money import show

DOCS = Path(__file__).parents[1] / "docs" / "SQLITE.md"


def at(monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """The clock every command after this one reads (UTC; the tests run in UTC)."""
    monkeypatch.setenv("REFEREE_CLOCK", f"{when}:00+00:00")


def ok(referee: Runner, *args: str) -> str:
    result = referee(*args)
    assert result.code == 0, (args, result.err)
    return result.out


def mia(referee: Runner, name: str, players: list[str], *sets: str) -> None:
    """A Mia game of one life each, to its end: each round whoever is on turn announces 52 and
    the next lifts it, a true 52, so the lifter is out. The first player wins; the others go out
    in seat order, the second first (last place)."""
    flags = [w for s in ("lives=1", *sets) for w in ("--set", s)]
    ok(referee, "new", "mia", *players, "--name", name, "--first", players[0], *flags)
    for _ in players[1:]:
        ok(referee, "mia", "announce", "52")
        ok(referee, "mia", "lift", "52")
    assert json.loads(ok(referee, "show", "--json"))["phase"] == "over"


def highroll(referee: Runner, name: str, winner: str, players: list[str], *sets: str) -> None:
    """A High roll game the winner takes with 12 in three rounds while the others roll lower and
    lower in seat order (the last rolls lowest each round and pays the loss value each time)."""
    flags = [w for s in sets for w in ("--set", s)]
    ok(referee, "new", "highroll", *players, "--name", name, *flags)
    others = [p for p in players if p != winner]
    totals = {winner: 12} | {p: 11 - k for k, p in enumerate(others)}
    for _ in range(3):
        for player in players:
            ok(referee, "highroll", "roll", str(totals[player]), "--by", player)


SPLIT = ('payout="places"', "payout_split=[70, 30]")


def friday(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    """Night friday, 2026-11-27: g1 Mia (Ann, Bob, Cy; stake 2, split 70/30): Ann 4.20, Cy
    1.80; g2 Mia (Bob, Cy, Dee, Ann; stake 1.50): Bob takes 6; g3 High roll (Cy, Ann, Dee;
    stake 1, 0.50 a loss, split 70/30): Cy wins. Settled at 23:00."""
    at(monkeypatch, "2026-11-27T20:00")
    ok(referee, "night", "start", "friday", "Ann", "Bob", "Cy")
    mia(referee, "g1", ["Ann", "Bob", "Cy"], "stake=2", *SPLIT)
    at(monkeypatch, "2026-11-27T21:00")
    mia(referee, "g2", ["Bob", "Cy", "Dee", "Ann"], "stake=1.50")
    at(monkeypatch, "2026-11-27T22:00")
    highroll(referee, "g3", "Cy", ["Cy", "Ann", "Dee"], "stake=1", "loss_value=0.5", *SPLIT)
    at(monkeypatch, "2026-11-27T23:00")
    ok(referee, "night", "settle")


def the_month(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    """Friday; then night saturday, 2026-12-05 (one Mia game, Dee and Ann, stake 3: Dee takes
    6, so Ann pays Dee 3 as Dee paid Ann 1.05 on friday), settled; night sunday, 2026-12-06,
    ended without money; and a Mia game in no night, 2026-12-10 (Ann and Dee, stake 1: Ann
    takes 2)."""
    friday(referee, monkeypatch)
    at(monkeypatch, "2026-12-05T20:00")
    ok(referee, "night", "start", "saturday")
    mia(referee, "s1", ["Dee", "Ann"], "stake=3")
    ok(referee, "night", "settle")
    at(monkeypatch, "2026-12-06T20:00")
    ok(referee, "night", "start", "sunday")
    mia(referee, "u1", ["Cy", "Dee"])
    ok(referee, "night", "end")
    at(monkeypatch, "2026-12-10T20:00")
    mia(referee, "loose", ["Ann", "Dee"], "stake=1")


def docs_query(heading: str) -> str:
    """The example query of docs/SQLITE.md under the paragraph that starts with `heading`."""
    return DOCS.read_text().split(f"\n{heading}")[1].split("```sql")[1].split("```")[0]


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def money(referee: Runner, *args: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ok(referee, "stats", "--money", "--json", *args))["money"]
    return found


# ---------------------------------------------------------------------------- one night, everywhere


@pytest.mark.usefixtures("highroll")
def test_one_nights_numbers_agree_everywhere(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    friday(referee, monkeypatch)
    night = json.loads(ok(referee, "night", "--night", "friday", "--json"))
    settled = night["settled"]
    # the numbers, worked out by hand: g1 Ann +2.20, Bob -2, Cy -0.20; g2 Bob +4.50, the
    # others -1.50; g3 pot 3 + 3 x 0.50 (Dee, last every round) = 4.50: Cy 3.15, Ann 1.35
    nets = {"Ann": 220 - 150 + 35, "Bob": -200 + 450, "Cy": -20 - 150 + 215, "Dee": -150 - 250}
    assert settled["nets"] == night["nets"] == nets
    assert settled["transfers"] == [  # Dee owes all of it: three transfers, in roster order
        {"payer": "Dee", "payee": "Ann", "cents": 105},
        {"payer": "Dee", "payee": "Bob", "cents": 250},
        {"payer": "Dee", "payee": "Cy", "cents": 45},
    ]
    assert settled["exact"] is True and settled["left_out"] == []
    # stats --money --json: the night as its record keeps it, the same fields as `settled`
    (entry,) = money(referee)["nights"]
    assert {k: entry[k] for k in settled} == settled
    assert (entry["name"], entry["date"]) == ("friday", "2026-11-27")
    assert (entry["created"], entry["closed"]) == (night["created"], night["closed"])
    # the SQLite export: its transfers in order, and the nets they make
    database = tmp_path / "nights.db"
    ok(referee, "export", "--format", "sqlite", "--all", "-o", str(database))
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT payer, payee, cents FROM transfers WHERE night = 'friday' "
                          "ORDER BY number").fetchall()  # fmt: skip
        assert rows == [(t["payer"], t["payee"], t["cents"]) for t in settled["transfers"]]
        per_night = docs_query("Each player's net on each settled night")
        made = {p: c for n, p, c in db.execute(per_night).fetchall() if n == "friday"}
        assert made == {n: c for n, c in nets.items() if c}
        assert db.execute("SELECT name, status, games, exact, left_out FROM nights").fetchall() == [
            ("friday", "settled", 3, 1, 0)]  # fmt: skip
        names = db.execute("SELECT name, night FROM sessions ORDER BY name").fetchall()
        assert names == [("g1", "friday"), ("g2", "friday"), ("g3", "friday")]
        by_games = dict(db.execute("SELECT player, sum(net) FROM results JOIN sessions ON "
                                   "sessions.id = session_id WHERE night = 'friday' "
                                   "GROUP BY player").fetchall())  # fmt: skip
        assert by_games == nets  # the games' own money adds up to the night's
    # the night's share card lists the same transfers and nets, as money
    card = ok(referee, "night", "--night", "friday", "--format", "md")
    said = [f"{t['payer']} pays {t['payee']} {show(t['cents'])}" for t in settled["transfers"]]
    listed = card.split("## Who pays whom")[1].splitlines()
    assert [line[2:] for line in listed if line.startswith("- ")] == said
    table = card.split("| player | net |\n|---|---:|\n")[1].split("\n\n")[0].splitlines()
    assert table == ["| Ann | +1.05 |", "| Bob | +2.50 |", "| Cy | +0.45 |", "| Dee | -4 |"]
    # and stats --money says them in the same words, at 40 columns, as the README shows it
    readme = (DOCS.parents[1] / "README.md").read_text().split("`stats --money` shows each")[1]
    shown = lines(ok(referee, "stats", "--money"))
    assert shown == readme.split("```text\n")[1].split("```")[0].splitlines()
    assert shown == [
        "settled nights:",
        "2026-11-27 friday",
        "  net: Ann +1.05, Bob +2.50, Cy +0.45,",
        "    Dee -4",
        *[f"  {line}" for line in said],
        "per player, 2026-11-27 to 2026-11-27:",
        "player  paid   won    net",
        "Bob     3.50     6  +2.50",
        "Ann     4.50  5.55  +1.05",
        "Cy      4.50  4.95  +0.45",
        "Dee        4     0     -4",
    ]


# ---------------------------------------------------------------------------- dates


@pytest.mark.usefixtures("highroll")
def test_money_per_player_over_a_date_range(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    the_month(referee, monkeypatch)
    everything = money(referee)
    assert [n["name"] for n in everything["nights"]] == ["friday", "saturday"]  # not sunday
    assert [(s["session"], s["night"]) for s in everything["sessions"]] == [
        ("g1", "friday"), ("g2", "friday"), ("g3", "friday"), ("s1", "saturday"),
        ("loose", None)]  # fmt: skip  # u1 was played for nothing
    assert all(s["sum"] == 0 for s in everything["sessions"])
    assert list(everything["totals"].items()) == [  # net, most first
        ("Bob", {"paid": 350, "won": 600, "net": 250}),
        ("Cy", {"paid": 450, "won": 495, "net": 45}),
        ("Ann", {"paid": 850, "won": 755, "net": -95}),  # the loose game counts: +1
        ("Dee", {"paid": 800, "won": 600, "net": -200}),
    ]
    december = money(referee, "--from", "2026-12-01", "--to", "2026-12-31")
    assert [n["name"] for n in december["nights"]] == ["saturday"]
    assert december["totals"] == {
        "Dee": {"paid": 400, "won": 600, "net": 200},
        "Ann": {"paid": 400, "won": 200, "net": -200},
    }
    assert money(referee, "--since", "2026-12-01", "--to", "2026-12-31") == december
    only = money(referee, "--from", "2026-12-05", "--to", "2026-12-05")
    assert [s["session"] for s in only["sessions"]] == ["s1"] and len(only["nights"]) == 1
    assert money(referee, "--to", "2026-11-27") == money(referee, "--to", "2026-11-30")
    assert [n["name"] for n in money(referee, "--to", "2026-11-30")["nights"]] == ["friday"]
    assert lines(ok(referee, "stats", "--money", "--from", "2026-12-01")) == [
        "settled nights:",
        "2026-12-05 saturday",
        "  net: Dee +3, Ann -3",
        "  Ann pays Dee 3",
        "per player, 2026-12-01 to 2026-12-10:",
        "player  paid  won  net",
        "Dee        4    6   +2",
        "Ann        4    2   -2",
    ]
    assert lines(ok(referee, "stats", "--money", "--from", "2026-12-07")) == [
        "settled nights: none",
        "per player, 2026-12-07 to 2026-12-10:",
        "player  paid  won  net",
        "Ann        1    2   +1",
        "Dee        1    0   -1",
    ]
    assert ok(referee, "stats", "--money", "--from", "2027-01-01") == (
        "no money in the sessions chosen\n"
    )
    # a game: the nights with a game of it, each whole
    assert [n["name"] for n in money(referee, "--game", "highroll")["nights"]] == ["friday"]
    assert money(referee, "--game", "kalooki") == {"nights": [], "sessions": [], "totals": {}}
    # a player: the nights he has a net in, whole, and his own totals
    dee = money(referee, "--player", "dee")
    assert [n["name"] for n in dee["nights"]] == ["friday", "saturday"]
    assert list(dee["totals"]) == ["Dee"] and len(dee["sessions"]) == 4  # g1 had no Dee
    assert lines(ok(referee, "stats", "--money", "--player", "bob", "--to", "2026-11-30"))[-2:] == [
        "player  paid  won    net", "Bob     3.50    6  +2.50"]  # fmt: skip
    # the rest of stats keeps to the dates too, and says the money as money
    doc = json.loads(ok(referee, "stats", "--json", "--from", "2026-12-01", "--to", "2026-12-06"))
    assert (doc["sessions"], doc["first_played"], doc["last_played"]) == (
        2, "2026-12-05", "2026-12-06")  # fmt: skip
    screen = lines(ok(referee, "stats", "--all"))
    row = screen.index("money (net): Bob +2.50, Cy +0.45, Ann")
    assert screen[row + 1] == "  -0.95, Dee -2"
    mia_ = " ".join(line.strip() for line in screen[screen.index("mia:") :])
    assert "Dee: " in mia_ and "paid 5.50 (1.38/game), won 6 (1.50/game)" in mia_  # shown
    assert max(map(len, screen)) <= 40


def test_a_settled_night_without_money(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    """A settled night whose games had no money: listed, nobody owes anybody."""
    at(monkeypatch, "2026-11-27T20:00")
    ok(referee, "night", "start", "friday")
    mia(referee, "g1", ["Ann", "Bob"])
    ok(referee, "night", "settle")
    assert lines(ok(referee, "stats", "--money")) == [
        "settled nights:",
        "2026-11-27 friday",
        "  nobody won or lost",
        "  nobody owes anybody",
        "per player: no sessions for money",
    ]


def test_the_totals_fit_forty_columns_whatever_the_names(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(monkeypatch, "2026-11-27T20:00")
    long, wide = "Maximiliana-Jose", "王小明王小明王小明"
    mia(referee, "g1", [long, wide], "stake=99999.99")
    shown = lines(ok(referee, "stats", "--money"))
    assert shown == [  # names cut to make room for the amounts; a wide one in whole cells
        "settled nights: none",
        "per player, 2026-11-27 to 2026-11-27:",
        "player        paid        won        net",
        "Maximil…  99999.99  199999.98  +99999.99",
        "王小明…   99999.99          0  -99999.99",
    ]


def test_amounts_too_wide_to_line_up_take_a_line_a_player() -> None:
    from referee.cli.history import _totals_lines

    big = {"paid": 1234567890_00, "won": 2469135780_00, "net": 1234567890_00}
    assert _totals_lines({"Ann": big, "Bob": {"paid": 5, "won": 0, "net": -5}}) == [
        "Ann: paid 1234567890, won 2469135780, net +1234567890",
        "Bob: paid 0.05, won 0, net -0.05",
    ]  # each wrapped at 40 columns by whoever prints it


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["--from", "27/11/2026"],
                     "bad date '27/11/2026' for --from: write it like 2026-11-01", id="from"),
        pytest.param(["--to", "yesterday"],
                     "bad date 'yesterday' for --to: write it like 2026-11-01", id="to"),
        pytest.param(["--to", "2026-02-30"], "bad date '2026-02-30' for --to", id="no-such-day"),
        pytest.param(["--from", "2026-12-01", "--to", "2026-11-30"],
                     "--to 2026-11-30 is before --from 2026-12-01: give the first day first",
                     id="to-before-from"),
        pytest.param(["--since", "2026-12-01", "--to", "2026-11-30"],
                     "--to 2026-11-30 is before --since 2026-12-01", id="to-before-since"),
        pytest.param(["--since", "2026-11-01", "--from", "2026-11-01"],
                     "--since and --from are the same option: give one", id="both"),
    ],
)  # fmt: skip
def test_bad_dates_are_exit_2_in_one_line(referee: Runner, args: list[str], said: str) -> None:
    mia(referee, "g1", ["Ann", "Bob"], "stake=1")
    for extra in ([], ["--money"], ["--json"]):
        result = referee("stats", *extra, *args)
        assert result.code == 2 and result.out == "", result
        assert result.err.startswith(f"error: {said}") and result.err.count("\n") == 1


def planted(home: Path, monkeypatch: pytest.MonkeyPatch, referee: Runner) -> None:
    """Beside a real settled night: a night file that is not TOML, one with a settlement that
    does not add up, a pipe, and a link."""
    at(monkeypatch, "2026-11-27T20:00")
    ok(referee, "night", "start", "friday")
    mia(referee, "g1", ["Ann", "Bob"], "stake=1")
    ok(referee, "night", "settle")
    folder = home / "nights"
    (folder / "a-garbage.toml").write_text("this is [not toml\n")
    real = (folder / "friday.toml").read_text()
    (folder / "b-cooked.toml").write_text(
        real.replace('name = "friday"', 'name = "b-cooked"').replace("cents = 100", "cents = 90")
    )
    os.mkfifo(folder / "c-pipe.toml")
    (folder / "d-link.toml").symlink_to(folder / "friday.toml")


def test_a_planted_night_file_is_skipped_with_one_line(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    planted(home, monkeypatch, referee)
    for args in (["stats", "--money"], ["stats", "--json"]):
        result = referee(*args)
        assert result.code == 0, result.err
        warned = result.err.splitlines()
        assert [w.split(":")[0] for w in warned] == [
            "warning", "warning", "warning", "warning"]  # fmt: skip
        assert [w.split()[2] for w in warned] == [
            "a-garbage.toml:", "b-cooked.toml:", "c-pipe.toml:", "d-link.toml:"]  # fmt: skip
        assert "do not settle" in warned[1] or "sum to zero" in warned[1]
    assert lines(ok(referee, "stats", "--money"))[:4] == [
        "settled nights:",
        "2026-11-27 friday",
        "  net: Ann +1, Bob -1",
        "  Bob pays Ann 1",
    ]
    assert ok(referee, "stats").startswith("1 session")  # the plain screen reads no night
    assert referee("stats").err == ""
    database = tmp_path / "planted.db"
    exported = referee("export", "--format", "sqlite", "--all", "-o", str(database))
    assert exported.code == 0 and exported.err.count("warning: skipped") == 4
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT name FROM nights").fetchall() == [("friday",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


# ---------------------------------------------------------------------------- SQLite


@pytest.mark.usefixtures("highroll")
def test_the_sqlite_nights_and_the_docs_query(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    the_month(referee, monkeypatch)
    at(monkeypatch, "2026-12-11T20:00")
    ok(referee, "night", "start", "monday", "Ann")  # still open
    database = tmp_path / "all.db"
    ok(referee, "export", "--format", "sqlite", "--all", "-o", str(database))
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (4,)  # 4: the seasons
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("SELECT * FROM nights ORDER BY created").fetchall() == [
            ("friday", "settled", "2026-11-27T20:00:00+00:00", "2026-11-27T23:00:00+00:00",
             3, 1, 0),
            ("saturday", "settled", "2026-12-05T20:00:00+00:00", "2026-12-05T20:00:00+00:00",
             1, 1, 0),
            ("sunday", "ended", "2026-12-06T20:00:00+00:00", "2026-12-06T20:00:00+00:00",
             1, None, None),
            ("monday", "open", "2026-12-11T20:00:00+00:00", None, 0, None, None),
        ]  # fmt: skip
        assert db.execute("SELECT night, count(*) FROM sessions GROUP BY night").fetchall() == [
            (None, 1), ("friday", 3), ("saturday", 1), ("sunday", 1)]  # fmt: skip
        # each pair netted across nights: Dee paid Ann 1.05 on friday, Ann paid Dee 3 on
        # saturday: Ann owes Dee 1.95 in all
        assert db.execute(docs_query("Who owes whom")).fetchall() == [
            ("Dee", "Bob", 250, "2.50"),
            ("Ann", "Dee", 195, "1.95"),
            ("Dee", "Cy", 45, "0.45"),
        ]
    one = tmp_path / "one.db"
    ok(referee, "export", "--format", "sqlite", "-s", "s1", "-o", str(one))
    with sqlite3.connect(one) as db:  # one session: its night comes with it, and no other
        assert db.execute("SELECT name, night FROM sessions").fetchall() == [("s1", "saturday")]
        assert db.execute("SELECT name FROM nights").fetchall() == [("saturday",)]
        assert db.execute("SELECT * FROM transfers").fetchall() == [
            ("saturday", 1, "Ann", "Dee", 300)]  # fmt: skip
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    loose = tmp_path / "loose.db"
    ok(referee, "export", "--format", "sqlite", "-s", "loose", "-o", str(loose))
    with sqlite3.connect(loose) as db:
        assert db.execute("SELECT night FROM sessions").fetchall() == [(None,)]
        assert db.execute("SELECT count(*) FROM nights").fetchone() == (0,)


# ---------------------------------------------------------------------------- the front door


def test_stats_is_answered_again_only_while_the_nights_are_the_same(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def served(argv: list[str]) -> str:
        capsys.readouterr()
        assert answers.answer(argv) == 0
        return capsys.readouterr().out

    at(monkeypatch, "2026-11-27T20:00")
    ok(referee, "night", "start", "friday")
    mia(referee, "g1", ["Ann", "Bob"], "stake=1")
    assert served(["stats", "--money"]).startswith("settled nights: none\n")
    assert served(["stats", "--money"]).startswith("settled nights: none\n")  # kept
    lines_ = (["stats", "--money"], ["stats", "--json"], ["stats"],
              ["stats", "--money", "--from", "2026-11-01", "--to", "2026-12-01"])  # fmt: skip
    before = [answers.answer_key(argv) for argv in lines_]
    ok(referee, "night", "settle")  # no session file changes: only the night's
    after = [answers.answer_key(argv) for argv in lines_]
    assert all(k is not None for k in (*before, *after))
    assert all(a.name != b.name for a, b in zip(after, before, strict=True))  # type: ignore[union-attr]
    assert "  Bob pays Ann 1\n" in served(["stats", "--money"])
    path = home / "nights" / "friday.toml"
    stamp = path.stat()
    path.write_text(path.read_text().replace("cents = 100", "cents = 101"))  # the same size
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and its time set back
    changed = answers.answer_key(["stats", "--money"])
    assert changed is not None and changed.name != after[0].name  # type: ignore[union-attr]
