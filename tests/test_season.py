"""`referee season` (RULES 8, CLI.md): season files as untrusted as any file, every bad input
refused in one line with nothing written, the standings screen at 40 columns, the share card
and the SQLite export."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import Runner

EXAMPLES = Path(__file__).parents[1] / "examples"


def files_in(home: Path) -> dict[str, bytes]:
    """Every file under the data folder and its bytes (what a refused command leaves)."""
    if not home.exists():
        return {}
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}


@pytest.fixture
def league(home: Path) -> Path:
    """The bundled example sessions as a group's sessions (two bar nights)."""
    folder = home / "sessions"
    folder.mkdir(parents=True)
    for path in EXAMPLES.glob("*.toml"):
        shutil.copy(path, folder / path.name)
    return home


SCREEN = """\
season autumn · 2026-09-01 to open
all games · 3,1,0
after night 2 (2026-11-29)
 #     player pts wins games
 1 =   Bob      8    2     5
 2 +3  Cy       6    2     4
 3 -2  Ann      4    1     5
 4 -1  Ana      3    1     1
 4 -1  Rosa     3    1     1
 6 =   Dani     1    0     1
 6 =   Tomas    1    0     1
 8 =   Eve      1    0     3
 9 +3  Dee      1    0     4
10 -1  Beto     0    0     1
10 -1  Carla    0    0     1
10 -1  Fay      0    0     1
"""


def test_new_then_the_screen_at_forty_columns(referee: Runner, league: Path) -> None:
    made = referee("season", "new", "autumn", "--from", "2026-09-01")
    assert (made.code, made.out, made.err) == (0, SCREEN, "")
    assert referee("season").out == SCREEN  # the newest running today
    assert referee("season", "aut").out == SCREEN  # a unique prefix
    assert all(len(line) <= 40 for line in SCREEN.splitlines())


def test_the_json_is_the_documented_document(referee: Runner, league: Path) -> None:
    referee("season", "new", "pe", "--game", "Perudo", "--points", "5,2")
    doc = json.loads(referee("season", "pe", "--json").out)
    assert doc["season"] == {"name": "pe", "from": None, "to": None, "game": "perudo",
                             "points": [5, 2], "created": "2026-11-29T21:04:00+00:00"}  # fmt: skip
    assert (doc["nights"], doc["last_night"]) == (1, "2026-11-28")
    assert doc["standings"][0] == {"place": 1, "name": "Ana", "points": 5, "wins": 1,
                                   "games": 1, "moved": None}  # fmt: skip
    assert [s["points"] for s in doc["standings"]] == [5, 2, 2, 2]


def test_no_seasons_yet(referee: Runner, home: Path) -> None:
    done = referee("season")
    assert (done.code, done.out) == (0, "no seasons yet; start one with: referee season new NAME\n")
    assert referee("season", "list").code == 0
    assert not home.exists()


def test_list_and_delete(referee: Runner, league: Path) -> None:
    referee("season", "new", "autumn", "--from", "2026-09-01", "--to", "2026-11-28")
    referee("season", "new", "mia", "--game", "mia")
    assert referee("season", "list").out == (
        "autumn · 2026-09-01 to 2026-11-28\n  all games · 3,1,0 · 5 games\n"
        "mia · open to open\n  Mia · 3,1,0 · 1 game\n"
    )
    asked = referee("season", "delete", "mia")  # not at a terminal
    assert asked.code == 2 and "--yes" in asked.err
    assert (league / "seasons" / "mia.toml").exists()
    assert referee("season", "delete", "mia", "--yes").out == "deleted season mia\n"
    assert not (league / "seasons" / "mia.toml").exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["new", "x", "--from", "2026-13-01"], "bad date '2026-13-01' for --from",
                     id="bad date"),
        pytest.param(["new", "x", "--from", "2026-10-02", "--to", "2026-10-01"],
                     "--to 2026-10-01 is before --from 2026-10-02", id="to before from"),
        pytest.param(["new", "x", "--points", "3,x"], "bad points '3,x'", id="points 3,x"),
        pytest.param(["new", "x", "--points", "1,3"], "bad points '1,3'", id="points rise"),
        pytest.param(["new", "x", "--points", "-1"], "bad points '-1'", id="points -1"),
        pytest.param(["new", "x", "--game", "chess"], "unknown game 'chess'", id="unknown game"),
        pytest.param(["new", "a/b"], "bad season name 'a/b'", id="a slash"),
        pytest.param(["new", "a\nb"], "bad season name 'a\\nb'", id="a newline"),
        pytest.param(["new", "x" * 200], "too long", id="200 characters"),
        pytest.param(["new", "list"], "a command of 'referee season'", id="a command's name"),
        pytest.param(["nwe"], "no season 'nwe' (did you mean 'referee season new'?)",
                     id="a slip"),
        pytest.param(["delete", "nope", "--yes"], "no season 'nope'", id="delete unknown"),
    ],
)  # fmt: skip
def test_bad_input_is_exit_2_in_one_line_and_writes_nothing(
    referee: Runner, league: Path, args: list[str], said: str
) -> None:
    referee("season", "new", "autumn")
    before = files_in(league)
    done = referee("season", *args)
    assert done.code == 2, done
    assert done.out == "" and done.err.count("\n") == 1 and said in done.err, done.err
    assert files_in(league) == before


def test_an_existing_name_in_any_case_is_refused(referee: Runner, league: Path) -> None:
    referee("season", "new", "autumn")
    before = files_in(league)
    for name in ("autumn", "AUTUMN"):
        done = referee("season", "new", name, "--game", "mia")
        assert done.code == 2 and "exists already" in done.err
    assert files_in(league) == before


def test_an_unknown_season_is_named(referee: Runner, league: Path) -> None:
    referee("season", "new", "autumn")
    done = referee("season", "autunm")
    assert done.code == 2 and "did you mean season autumn?" in done.err


GOOD = 'schema = 1\nname = "{name}"\npoints = [3, 1, 0]\ncreated = "2026-11-29T21:04:00+00:00"\n'


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("schema = 1\nname = ", id="garbled"),
        pytest.param(GOOD.replace("[3, 1, 0]", "[1, 3]"), id="points rise"),
        pytest.param(GOOD.replace("[3, 1, 0]", "[3, -1]"), id="negative points"),
        pytest.param(GOOD.replace("[3, 1, 0]", "[" + "9" * 5000 + "]"), id="a huge number"),
        pytest.param(GOOD + 'start = "2026-02-30"\n', id="a bad date"),
        pytest.param(GOOD + 'start = "2026-10-02"\nend = "2026-10-01"\n', id="to before from"),
        pytest.param(GOOD + 'game = "chess"\n', id="unknown game"),
        pytest.param(GOOD + 'colour = "red"\n', id="unknown key"),
        pytest.param(GOOD.replace("schema = 1", "schema = 9"), id="a newer schema"),
        pytest.param(GOOD.replace("2026-11-29T21:04:00+00:00", "yesterday"), id="bad created"),
        pytest.param(GOOD.replace('"{name}"', '"other"'), id="another name"),
        pytest.param(GOOD + "# " + "x" * 70_000 + "\n", id="huge"),
        pytest.param("\ufeff" + GOOD, id="a BOM"),
    ],
)
def test_planted_season_files(referee: Runner, league: Path, text: str) -> None:
    referee("season", "new", "good")
    path = league / "seasons" / "bad.toml"
    path.write_text(text.replace("{name}", "bad"), encoding="utf-8")
    before = files_in(league)
    done = referee("season", "bad")
    assert done.code == 3 and done.out == "" and done.err.count("\n") == 1, done
    assert "bad.toml" in done.err
    listed = referee("season", "list")
    assert listed.code == 0 and listed.out.startswith("good ·")
    assert listed.err.startswith("warning: skipped bad.toml")
    assert referee("season").code == 0  # the one that reads is shown
    assert files_in(league) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_link_is_refused_never_opened(referee: Runner, league: Path) -> None:
    referee("season", "new", "good")
    folder = league / "seasons"
    os.mkfifo(folder / "pipe.toml")
    (folder / "link.toml").symlink_to(folder / "good.toml")
    for name in ("pipe", "link"):
        done = referee("season", name)
        assert done.code == 3 and done.err.count("\n") == 1, done
    listed = referee("season", "list")
    assert listed.code == 0 and listed.err.count("warning: skipped") == 2


def test_a_long_table_is_cut_at_fifteen(referee: Runner, home: Path) -> None:
    from dataclasses import replace

    from referee import storage

    source = storage.load(EXAMPLES / "mia-night.toml").session
    folder = home / "sessions"
    folder.mkdir(parents=True)
    names = [p.name for p in source.players]
    for k in range(5):  # the same night with other players: 25 of them
        players = tuple(replace(p, name=f"{p.name}{k}") for p in source.players)
        text = storage.session_to_text(replace(source, id=f"{k + 1:032x}", players=players))
        for old in names:
            text = text.replace(f'"{old}"', f'"{old}{k}"')
        (folder / f"m{k}.toml").write_text(text, encoding="utf-8")
    referee("season", "new", "big")
    shown = referee("season").out.splitlines()
    assert len(shown) <= 24 and shown[-1] == "... 10 more: --json", shown
    assert all(len(line) <= 40 for line in shown)
    assert len(json.loads(referee("season", "--json").out)["standings"]) == 25


def test_the_share_card_and_the_sqlite_export(
    referee: Runner, league: Path, tmp_path: Path
) -> None:
    referee("season", "new", "autumn")
    page = referee("export", "-f", "html", "-s", "kariki-night").out
    assert '<pre class="season">season autumn\n 1. Bob 8 pts, 2 won' in page
    md = referee("export", "-f", "md", "-s", "kariki-night").out
    assert "Season autumn: 1. Bob 8 pts, 2 won; 2. Cy 6 pts, 2 won;" in md
    database = tmp_path / "league.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(database)).code == 0
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT * FROM seasons").fetchall() == [
            ("autumn", None, None, None, "3,1,0", "2026-11-29T21:04:00+00:00")
        ]
        rows = db.execute("SELECT * FROM standings ORDER BY place, player").fetchall()
        assert rows[0] == ("autumn", 1, "Bob", 8, 2, 5, 0) and len(rows) == 12
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_the_share_card_says_the_play_time() -> None:
    from referee import storage
    from referee.render.share import picture_lines, share_card

    loaded = storage.load(EXAMPLES / "kariki-night.toml")
    events = [
        dict(e) | {"at": f"2026-11-29T{20 + k // 60:02d}:{k % 60:02d}:00+00:00"}
        for k, e in enumerate(loaded.session.events)
    ]
    from dataclasses import replace

    session = replace(loaded.session, events=tuple(events))
    card = share_card(session, loaded.state, "", ("season autumn", " 1. Bob 8 pts, 2 won"))
    hours, minutes = divmod(len(events) - 1, 60)  # an event a minute from 20:00
    assert card.played == (f"{hours}h{minutes:02d}" if hours else f"{minutes}m")
    lines = picture_lines(card)
    assert f"played {card.played}" in lines[2] and lines[-1] == " 1. Bob 8 pts, 2 won"


def test_long_points_are_wrapped_never_cut(referee: Runner) -> None:
    """Found by attack: twenty points values were cut to `…,992,99…` on the season's screen,
    and `season list` ran to 101 columns."""
    points = ",".join(str(1000 - k) for k in range(20))
    assert referee("season", "new", "long", "--points", points).code == 0
    for args in (["season", "long"], ["season", "list"]):
        out = referee(*args).out
        assert max(len(line) for line in out.splitlines()) <= 40, out
        assert "…" not in out and "981" in out and "1000" in out
