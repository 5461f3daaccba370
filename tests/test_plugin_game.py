"""A game is one registration: High roll (tests/plugin_game.py), which no file of the product
names, goes through `new`, an action, `show` at 40 columns, `--json`, `log --script` replayed
in the shell, `undo`/`redo`, every export format and `stats`, registered by a fixture."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from conftest import Runner, register
from referee.games import GameInfo


def play(referee: Runner) -> None:
    """Ann and Bob to a winner: Ann scores twice, a shared 9, then Ann's third point."""
    assert referee("new", "highroll", "Ann", "Bob", "--name", "friday").code == 0
    for total in ("8", "5", "11", "3", "9", "9", "12", "2"):
        result = referee("highroll", "roll", total)
        assert result.code == 0, result.err


def test_a_whole_game_through_the_commands(referee: Runner, highroll: GameInfo) -> None:
    assert referee("new", "highroll", "Ann", "Bob", "--name", "friday").out == (
        "started friday (highroll)\n"
        "HIGH ROLL friday                    to 3\n"
        "> Ann              0 pts  rolled -\n"
        "  Bob              0 pts  rolled -\n"
        "Ann rolls\n"
    )
    assert referee("hr", "roll", "8").out == (
        "Ann rolls 8\n"
        "HIGH ROLL friday                    to 3\n"
        "  Ann              0 pts  rolled 8\n"
        "> Bob              0 pts  rolled -\n"
        "Bob rolls\n"
    )
    wrong = referee("highroll", "roll", "13")
    assert (wrong.code, wrong.err) == (1, "error: two dice show 2 to 12, not 13\n")
    slip = referee("highroll", "roll", "7", "--by", "Ann")
    assert (slip.code, slip.err) == (1, "error: it is Bob's turn, not Ann's\n")
    assert referee("highroll", "roll", "5").out.startswith("Bob rolls 5; Ann scores with 8\n")
    doc = json.loads(referee("show", "--json").out)
    assert doc["players"][0] == {"name": "Ann", "points": 1, "rolled": None}
    assert doc["session"] == "friday" and doc["turn"] == "Ann"
    assert referee("undo").out.startswith("undid event 2: roll 5 --by Bob\n")
    assert referee("redo").out.startswith("redid event 2: Bob rolls 5; Ann scores\nwith 8\n")
    help_text = referee("highroll", "roll", "--help").out
    assert "Roll two dice: say their total." in help_text and "TOTAL" in help_text


def test_its_script_replays_in_the_shell_to_the_same_card(
    referee: Runner, highroll: GameInfo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(referee)
    card = referee("show").out
    assert "WINNER Ann" in card
    script = referee("log", "--script").out.splitlines()
    assert script[0] == "# referee new highroll Ann Bob"
    assert script[1:3] == ["roll 8 --by Ann", "roll 5 --by Bob"]
    new = script[0].removeprefix("# referee ").split()
    assert referee(*new, "--name", "again").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script[1:]) + "\n"))
    assert referee("shell").code == 0
    assert referee("show", "-s", "again").out == card.replace("friday", "again ")


def test_every_export_and_stats(
    referee: Runner, highroll: GameInfo, home: Path, tmp_path: Path
) -> None:
    play(referee)
    csv = referee("export", "--format", "csv").out.splitlines()
    assert csv[1].split(",")[4:9] == ["highroll", "highroll", "Ann", "roll", "roll 8 --by Ann"]
    assert json.loads(referee("export", "--format", "json").out)["final"]["winner"] == "Ann"
    assert "WINNER Ann" in referee("export", "--format", "md").out
    for kind in ("html", "svg", "png"):
        out = tmp_path / f"card.{kind}"
        assert referee("export", "--format", kind, "-o", str(out)).code == 0
        assert out.stat().st_size > 0
    assert "Ann" in (tmp_path / "card.html").read_text(encoding="utf-8")
    database = tmp_path / "league.db"
    assert referee("export", "--format", "sqlite", "--all", "-o", str(database)).code == 0
    with sqlite3.connect(database) as db:
        won = db.execute("SELECT player FROM results WHERE won = 1").fetchall()
    assert won == [("Ann",)]
    stats = json.loads(referee("stats", "--json").out)
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert ann["wins"] == 1 and stats["games"]["highroll"]["Ann"]["points"]["total"] == 3


def test_the_registration_is_all_it_takes(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without the fixture's registration the game is unknown; with it, listed everywhere."""
    assert referee("new", "highroll", "Ann", "Bob").code == 2
    register(monkeypatch, tmp_path / "rulesets")
    assert "highroll" in referee("--help").out
    assert "(highroll)" in referee("rules", "list").out
