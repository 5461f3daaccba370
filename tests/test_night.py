"""The night (RULES 7, issue 36): `referee night` and its commands, every refusal, the record's
promises (atomic, locked, checked on load, killed mid-settle), the nets and transfers, and the
screens at 40 columns. Played on High roll (tests/plugin_game.py), which a fixture registers
with stakes, so no game of the product has to have money yet."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import Runner, session_file, snapshot, wait_until
from referee import games, storage
from referee.errors import UsageError
from referee.games import GameInfo
from referee.games.money import Transfer
from referee.night import (
    Drink,
    Member,
    Night,
    Settlement,
    Status,
    check_settlement,
    night_from_doc,
    night_to_doc,
)

pytestmark = pytest.mark.usefixtures("highroll")
DAY = "2026-11-29"  # conftest's REFEREE_CLOCK


def night_file(home: Path, name: str = "friday") -> Path:
    return home / "nights" / f"{name}.toml"


def pointer(home: Path) -> Path:
    return home / "open-night"


def new(referee: Runner, name: str, players: list[str], *sets: str) -> str:
    """A High roll session called `name`, with house rules `sets` (`stake=2`)."""
    flags = [w for s in sets for w in ("--set", s)]
    result = referee("new", "highroll", *players, "--name", name, *flags)
    assert result.code == 0, result.err
    return result.out


def win(referee: Runner, winner: str, players: list[str], session: str | None = None) -> None:
    """Three rounds the winner takes with 12 while the others roll lower and lower in seat
    order: the last of them rolls lowest every round (he pays `loss_value` each time) and
    places last (the others have no points either, and keep their seat order)."""
    where = ["-s", session] if session else []
    others = [p for p in players if p != winner]
    totals = {winner: 12} | {p: 11 - k for k, p in enumerate(others)}
    for _ in range(3):
        for player in players:
            result = referee("highroll", "roll", str(totals[player]), "--by", player, *where)
            assert result.code == 0, result.err


def money_night(referee: Runner) -> None:
    """Night friday: g1 (Ann, Bob, Cy; stake 2, 0.50 a loss, loser buys) won by Ann, and g2
    (Bob, Cy, Dee; stake 1) still playing."""
    assert referee("night", "start", "friday", "Ann", "Bob").code == 0
    new(referee, "g1", ["Ann", "Bob", "Cy"], "stake=2", "loss_value=0.5", "loser_buys=true")
    win(referee, "Ann", ["Ann", "Bob", "Cy"])
    new(referee, "g2", ["Bob", "Cy", "Dee"], "stake=1")


def lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def doc(referee: Runner, *args: str) -> dict[str, object]:
    result = referee("night", *args, "--json")
    assert result.code == 0, result.err
    found: dict[str, object] = json.loads(result.out)
    return found


# ---------------------------------------------------------------------------- screens


def test_a_night_at_40_columns(referee: Runner) -> None:
    money_night(referee)
    assert referee("night").out == lines(
        f"""\
NIGHT friday                        open
started {DAY} 21:04
players: Ann, Bob, Cy, Dee
1. g1 (highroll): Ann won
   stake 2, 0.50 a loss, loser buys
2. g2 (highroll): playing
   stake 1
nets over 1 finished game:
  Ann +5.50
  Bob    -2
  Cy  -3.50
rounds owed: Cy 1
"""
    )


def test_settle_refused_then_forced_then_the_settled_night(referee: Runner, home: Path) -> None:
    money_night(referee)
    before = snapshot(night_file(home))
    refused = referee("night", "settle")
    assert refused.code == 1 and refused.out == ""
    assert refused.err == (
        "error: night 'friday' cannot be settled: game 2, 'g2', has money and is not finished;"
        " finish it, or --force leaves it out\n"
    )
    assert snapshot(night_file(home)) == before and pointer(home).exists()
    settled = referee("night", "settle", "--force")
    assert settled.code == 0, settled.err
    assert settled.out == lines(
        """\
settled night friday: 2 transfers
Bob pays Ann 2
Cy pays Ann 3.50
left out: g2 (playing)
"""
    )
    assert not pointer(home).exists()
    assert referee("night").out == lines(
        f"""\
NIGHT friday                     settled
started {DAY} 21:04, closed 21:04
players: Ann, Bob, Cy, Dee
1. g1 (highroll): Ann won
   stake 2, 0.50 a loss, loser buys
2. g2 (highroll): playing, left out
   stake 1
nets as settled at 21:04:
  Ann +5.50
  Bob    -2
  Cy  -3.50
Bob pays Ann 2
Cy pays Ann 3.50
rounds owed: Cy 1
"""
    )


def test_sessions_name_their_night_within_40_columns(referee: Runner) -> None:
    new(referee, "loose", ["Ann", "Bob"])
    money_night(referee)
    new(referee, "a-much-longer-session-name", ["Ann", "Bob"])
    shown = referee("sessions").out
    assert shown == lines(
        f"""\
* a-much-longer-session-name
    night friday
    highroll, playing, {DAY} 21:04
    Ann, Bob
  g1  night friday
    highroll, Ann won, {DAY} 21:04
    Ann, Bob, Cy
  g2  night friday
    highroll, playing, {DAY} 21:04
    Bob, Cy, Dee
  loose
    highroll, playing, {DAY} 21:04
    Ann, Bob
"""
    )
    rows = {r["name"]: r["night"] for r in json.loads(referee("sessions", "--json").out)}
    assert rows == {
        "a-much-longer-session-name": "friday",
        "g1": "friday",
        "g2": "friday",
        "loose": None,
    }


def test_the_commands_say_what_they_did(referee: Runner) -> None:
    started = referee("night", "start")
    assert started.out == f"started night {DAY}\nevery 'referee new' joins it\n"
    made = new(referee, "g1", ["Ann", "Bob"], "loser_buys=true")
    assert made.startswith("started g1 (highroll)\nin night 2026-11-29\n")
    win(referee, "Ann", ["Ann", "Bob"])
    assert referee("night", "drink", "bo").out == "Bob bought a round: none owed now\n"
    assert referee("night", "drink", "ann").out == (
        "Ann bought a round, owing none: it\n  counts against Ann's next\n"
    )
    new(referee, "g2", ["Ann", "Bob"], "loser_buys=true")
    win(referee, "Bob", ["Ann", "Bob"])  # Ann last: the round she bought before counts
    new(referee, "g3", ["Ann", "Bob"], "loser_buys=true")
    win(referee, "Ann", ["Ann", "Bob"])
    new(referee, "g4", ["Ann", "Bob"], "loser_buys=true")
    win(referee, "Ann", ["Ann", "Bob"])
    assert doc(referee)["rounds_owed"] == {"Bob": 2}
    assert referee("night", "drink", "Bob").out == "Bob bought a round: 1 more round owed\n"
    ended = referee("night", "end")
    assert ended.out == f"ended night {DAY}: 4 games\n" and ended.code == 0
    again = referee("night", "start", "-", "Ann", "Bob")
    assert again.out == f"started night {DAY}-2\nevery 'referee new' joins it\nplayers: Ann, Bob\n"
    nothing = referee("night", "settle")
    assert nothing.out == f"settled night {DAY}-2: 0 transfers\nnobody owes anybody\n"


def test_no_nights_yet(referee: Runner) -> None:
    assert referee("night").out == "no nights yet: referee night start\n"
    assert referee("night", "--json").out == "null\n"


# ---------------------------------------------------------------------------- refusals

NO_NIGHT = "error: no night is open: start one with 'referee night start'\n"


@pytest.mark.parametrize(
    ("setup", "args", "code", "said"),
    [
        pytest.param([], ["night", "settle"], 2, NO_NIGHT, id="settle-no-night"),
        pytest.param([], ["night", "end"], 2, NO_NIGHT, id="end-no-night"),
        pytest.param([], ["night", "drink", "Ann"], 2, NO_NIGHT, id="drink-no-night"),
        pytest.param(
            [["night", "start", "friday"]],
            ["night", "start", "later"],
            1,
            "error: night 'friday' is open: settle or end it first ('referee night settle' or"
            " 'referee night end')\n",
            id="one-already-open",
        ),
        pytest.param(
            [],
            ["night", "start", "../x"],
            2,
            "error: bad night name '../x': use plain letters a-z, digits, '_', '.' or '-', like"
            " friday\n",
            id="bad-name",
        ),
        pytest.param(
            [["night", "start", "friday"], ["night", "end"]],
            ["night", "start", "FRIDAY"],
            2,
            "error: a night called 'FRIDAY' exists already\n",
            id="name-taken",
        ),
        pytest.param(
            [],
            ["night", "start", "x", "Ann", "ann"],
            2,
            "error: two players are called 'ann': names must differ\n",
            id="same-player-twice",
        ),
        pytest.param(
            [],
            ["night", "start", "x", "-Ann"],
            2,
            None,
            id="a-player-like-an-option",
        ),
        pytest.param(
            [["night", "start", "friday", "Ann", "Bob"]],
            ["night", "drink", "Cyril"],
            2,
            "error: unknown player 'Cyril': try Ann, Bob\n",
            id="drink-unknown-player",
        ),
        pytest.param(
            [["night", "start", "friday", "Ann", "Bob"]],
            ["night", "drink", "An"],
            0,
            "",
            id="drink-a-prefix",
        ),
        pytest.param(
            [["night", "start", "friday"]],
            ["night", "--night", "nope"],
            2,
            "error: unknown night 'nope': try friday\n",
            id="show-unknown-night",
        ),
    ],
)
def test_refusals_write_nothing(
    referee: Runner, home: Path, setup: list[list[str]], args: list[str], code: int, said: str
) -> None:
    for line in setup:
        assert referee(*line).code == 0
    before = {p: snapshot(p) for p in home.rglob("*") if p.is_file()}
    result = referee(*args)
    assert result.code == code, result.err
    if said is not None:
        assert result.err == said
    if code:
        assert result.err.count("\n") == 1 and result.out == ""
        after = {p: snapshot(p) for p in home.rglob("*") if p.is_file()}
        assert after == before


def test_end_refuses_an_unfinished_game_and_force_ends_it(referee: Runner, home: Path) -> None:
    assert referee("night", "start", "friday").code == 0
    new(referee, "g1", ["Ann", "Bob"])  # no money: settle would not wait for it, end does
    before = snapshot(night_file(home))
    refused = referee("night", "end")
    assert refused.code == 1
    assert refused.err == (
        "error: night 'friday' cannot end: game 1, 'g1', is not finished; finish it, or --force"
        " leaves it out\n"
    )
    assert snapshot(night_file(home)) == before
    assert referee("night", "end", "--force").code == 0
    assert doc(referee)["status"] == "ended" and not pointer(home).exists()
    later = new(referee, "g2", ["Ann", "Bob"])
    assert "in night" not in later  # no night is open: the game belongs to none


def test_settle_waits_only_for_games_with_money(referee: Runner) -> None:
    assert referee("night", "start", "friday").code == 0
    new(referee, "g1", ["Ann", "Bob"], "stake=1")
    win(referee, "Bob", ["Ann", "Bob"])
    new(referee, "g2", ["Ann", "Bob"])  # for nothing, and unfinished
    result = referee("night", "settle")
    assert result.code == 0 and result.out.splitlines()[1] == "Ann pays Bob 1"


def test_a_deleted_session_of_the_night(referee: Runner, home: Path) -> None:
    money_night(referee)
    win(referee, "Dee", ["Bob", "Cy", "Dee"], "g2")
    session_file(home, "g1").unlink()
    assert "\n1. g1 (highroll): missing\n2. g2" in referee("night").out
    before = snapshot(night_file(home))
    refused = referee("night", "settle")
    assert refused.code == 3 and snapshot(night_file(home)) == before
    assert refused.err == (
        "error: night 'friday' cannot be settled: game 1, 'g1', is missing; restore it, or"
        " --force leaves it out\n"
    )
    refused = referee("night", "end")
    assert refused.code == 3 and "cannot end: game 1, 'g1', is missing" in refused.err
    forced = referee("night", "settle", "--force", "--json")
    assert forced.code == 0, forced.err
    settled = json.loads(forced.out)
    assert settled["nets"] == {"Bob": -100, "Cy": -100, "Dee": 200}  # g2's alone
    assert settled["left_out"] == [doc(referee)["games"][0]["id"]]  # type: ignore[index]


def test_a_renamed_session_is_found_by_its_id(referee: Runner) -> None:
    money_night(referee)
    assert referee("rename", "g1", "first").code == 0
    shown = doc(referee)
    assert [g["session"] for g in shown["games"]] == ["first", "g2"]  # type: ignore[attr-defined]
    assert shown["nets"] == {"Ann": 550, "Bob": -200, "Cy": -350}


def test_a_session_name_given_again_is_not_the_nights(referee: Runner, home: Path) -> None:
    money_night(referee)
    assert referee("night", "end", "--force").code == 0
    assert referee("delete", "g1", "--yes").code == 0
    new(referee, "g1", ["Ann", "Bob"])  # another session under the old name
    shown = doc(referee)
    assert shown["games"][0]["status"] == "missing"  # type: ignore[index]


# ---------------------------------------------------------------------------- money


def test_nets_over_several_games_sum_to_zero_and_the_transfers_settle_them(
    referee: Runner,
) -> None:
    money_night(referee)
    win(referee, "Dee", ["Bob", "Cy", "Dee"], "g2")
    new(
        referee, "g3", ["Cy", "Dee", "Eve"], "stake=0.75", 'payout="places"', "payout_split=[70,30]"
    )
    win(referee, "Eve", ["Cy", "Dee", "Eve"])
    shown = doc(referee)
    nets = shown["nets"]
    assert isinstance(nets, dict) and sum(nets.values()) == 0
    # g1: Ann +5.50, Bob -2, Cy -3.50; g2: Dee +2, Bob -1, Cy -1; g3 (a pot of 2.25, 70/30
    # by points then seat, the odd cent to the better place): Eve 1.58 - 0.75, Cy 0.67 - 0.75,
    # Dee -0.75
    assert nets == {"Ann": 550, "Bob": -300, "Cy": -458, "Dee": 125, "Eve": 83}
    settled = json.loads(referee("night", "settle", "--json").out)
    assert settled["nets"] == nets and settled["exact"] is True
    paid = dict.fromkeys(nets, 0)
    for t in settled["transfers"]:
        assert t["cents"] > 0 and t["payer"] != t["payee"]
        paid[t["payer"]] -= t["cents"]
        paid[t["payee"]] += t["cents"]
    assert paid == nets
    assert len(settled["transfers"]) <= len([n for n in nets.values() if n]) - 1


def test_a_name_typed_in_another_case_is_the_same_player(referee: Runner) -> None:
    assert referee("night", "start", "friday", "Ann").code == 0
    new(referee, "g1", ["ann", "Bob"], "stake=1")
    win(referee, "ann", ["ann", "Bob"])
    shown = doc(referee)
    assert shown["players"] == ["Ann", "Bob"] and shown["nets"] == {"Ann": 100, "Bob": -100}
    assert referee("night", "settle").out.splitlines()[1] == "Bob pays Ann 1"


def test_past_15_players_with_a_balance_the_count_is_said_to_be_greedy(referee: Runner) -> None:
    assert referee("night", "start", "big").code == 0
    for k in range(3):
        table = [f"P{k}{n}" for n in range(6)]
        new(referee, f"g{k}", table, f"stake={k + 1}", "loss_value=0.01")
        win(referee, table[0], table)
    result = referee("night", "settle")
    assert result.code == 0
    assert result.out.splitlines()[-2:] == [
        "over 15 balances: the greedy rule's",
        "  count, maybe not the fewest",
    ]
    assert doc(referee)["settled"]["exact"] is False  # type: ignore[index]


def test_a_settled_nights_money_never_changes(referee: Runner, home: Path) -> None:
    money_night(referee)
    assert referee("night", "settle", "--force").code == 0
    settled = doc(referee)["settled"]
    assert referee("undo", "-s", "g1").code == 0  # the game changes after the money was paid
    after = doc(referee)
    assert after["settled"] == settled and after["nets"] == {}


def test_json_fields(referee: Runner) -> None:
    money_night(referee)
    shown = doc(referee)
    assert set(shown) == {
        "name",
        "status",
        "created",
        "closed",
        "players",
        "games",
        "nets",
        "rounds_owed",
        "drinks",
        "settled",
    }
    first = shown["games"][0]  # type: ignore[index]
    assert set(first) == {
        "number",
        "id",
        "session",
        "game",
        "status",
        "winners",
        "stakes",
        "nets",
        "counted",
        "left_out",
    }
    assert first["stakes"] == {
        "stake": 200,
        "loss_value": 50,
        "payout": "winner",
        "payout_split": [100],
        "point_value": 0,
        "loser_buys": True,
    }
    assert (first["status"], first["winners"], first["counted"]) == ("finished", ["Ann"], True)
    assert shown["rounds_owed"] == {"Cy": 1} and shown["closed"] is None
    settled = json.loads(referee("night", "settle", "--force", "--json").out)
    assert set(settled) == {"name", "at", "nets", "transfers", "exact", "left_out"}
    assert settled["transfers"] == [
        {"payer": "Bob", "payee": "Ann", "cents": 200},
        {"payer": "Cy", "payee": "Ann", "cents": 350},
    ]
    assert doc(referee)["settled"] == {k: v for k, v in settled.items() if k != "name"}


def test_show_json_names_the_night(referee: Runner, home: Path) -> None:
    new(referee, "loose", ["Ann", "Bob"])
    assert json.loads(referee("show", "--json").out)["night"] is None
    money_night(referee)
    assert json.loads(referee("show", "--json").out)["night"] == "friday"
    assert json.loads(referee("show", "--json", "-s", "loose").out)["night"] is None
    path = night_file(home, "friday")  # the id spelt with an escape: the same id, still found
    text = path.read_text()
    last = text.index('{ id = "') + len('{ id = "') + 31  # its last digit, escaped
    path.write_text(text[:last] + f"\\u{ord(text[last]):04x}" + text[last + 1 :])
    ident = storage.load_night(path).night.games[0].id
    assert ident not in path.read_text() and ident == doc(referee)["games"][0]["id"]  # type: ignore[index]
    assert json.loads(referee("show", "--json", "-s", "g1").out)["night"] == "friday"


def test_a_kept_show_json_answer_follows_the_night(
    referee: Runner, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee import answers

    assert referee("night", "start", "friday").code == 0
    new(referee, "g1", ["Ann", "Bob"])
    key = answers.answer_key(["show", "--json"])
    assert key is not None
    capsys.readouterr()
    answers.answer(["show", "--json"])
    assert json.loads(capsys.readouterr().out)["night"] == "friday"
    text = night_file(home).read_text().replace('file = "g1"', 'file = "other"')
    night_file(home).write_text(text)  # a hand edit in place: the folder's listing is the same
    night_file(home).touch()
    changed = answers.answer_key(["show", "--json"])
    assert changed is not None and changed.name != key.name


# ---------------------------------------------------------------------------- share card


def test_the_share_card_as_markdown(referee: Runner) -> None:
    money_night(referee)
    assert referee("night", "--format", "md").out == (
        f"""\
# Night friday (open)

started {DAY} 21:04 (local time)
Players: Ann, Bob, Cy, Dee

## Games

| # | session | game | result | stakes |
|---|---|---|---|---|
| 1 | g1 | highroll | Ann won | stake 2, 0.50 a loss, loser buys |
| 2 | g2 | highroll | playing | stake 1 |

## Nets over 1 finished game

| player | net |
|---|---:|
| Ann | +5.50 |
| Bob | -2 |
| Cy | -3.50 |

Rounds owed: Cy 1.
"""
    )


def test_the_share_card_as_a_page_escapes_every_name(referee: Runner, tmp_path: Path) -> None:
    hostile = "<i>Ann</i>"
    assert referee("night", "start", "friday", hostile).code == 0
    new(referee, "g1", [hostile, "Bob"], "stake=1")
    win(referee, hostile, [hostile, "Bob"])
    assert referee("night", "settle").code == 0
    target = tmp_path / "friday.html"
    assert referee("night", "-f", "html", "-o", str(target)).out == f"exported to {target}\n"
    page = target.read_text()
    assert page.startswith("<!doctype html>") and "<i>" not in page
    assert "<li>Bob pays &lt;i&gt;Ann&lt;/i&gt; 1</li>" in page
    again = referee("night", "-f", "html", "-o", str(target))
    assert again.code == 3 and "add --force" in again.err
    assert referee("night", "-f", "html", "-o", str(target), "--force").code == 0
    md = referee("night", "-f", "md").out
    assert "\\<i\\>Ann\\</i\\>" in md and "<i>" not in md


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["-f", "pdf"], "--format takes md or html, not 'pdf'", id="pdf"),
        pytest.param(["-f", "md", "--json"], "--json and --format are two answers", id="two"),
        pytest.param(["-o", "x.md"], "-o and --force go with --format", id="o-alone"),
    ],
)
def test_the_share_card_refusals(referee: Runner, args: list[str], said: str) -> None:
    assert referee("night", "start", "friday").code == 0
    result = referee("night", *args)
    assert result.code == 2 and said in result.err


# ---------------------------------------------------------------------------- bad files


def valid_night(referee: Runner, home: Path) -> str:
    assert referee("night", "start", "friday", "Ann", "Bob").code == 0
    new(referee, "g1", ["Ann", "Bob"])
    return night_file(home).read_text()


def huge(text: str) -> bytes:
    return text.encode() + b"#" * storage.MAX_FILE_BYTES


BAD_NIGHTS = [
    pytest.param(
        lambda t: t.replace('status = "open"', "status = 1"),
        "'status' must be a string",
        id="wrong-type",
    ),
    pytest.param(
        lambda t: t.replace('status = "open"', 'status = "openish"'),
        "'status' must be open, settled or ended",
        id="unknown-status",
    ),
    pytest.param(lambda t: t + "gamez = []\n", "unknown key 'gamez' at the top", id="unknown-key"),
    pytest.param(
        lambda t: t.replace("schema = 1", "schema = 2"),
        "written by a newer referee",
        id="newer-schema",
    ),
    pytest.param(
        lambda t: t.replace("schema = 1", "schema = true"),
        "'schema' must be a whole number",
        id="schema-true",
    ),
    pytest.param(
        lambda t: t.replace("schema = 1", "schema = " + "9" * 5000),
        "cannot be read",
        id="5000-digits",
    ),
    pytest.param(
        lambda t: t.replace('name = "friday"', 'name = "saturday"'),
        "it says it is night 'saturday'",
        id="name-not-its-file",
    ),
    pytest.param(
        lambda t: t.replace('"Bob",', '"Bob\\u001b[2J",'),
        "control or invisible",
        id="escape-in-a-name",
    ),
    pytest.param(
        lambda t: t.replace(
            "drinks = []", 'drinks = [{ player = "Zed", at = "2026-11-29T21:04:00+00:00" }]'
        ),
        "'Zed' is not on the night's roster",
        id="a-drink-off-the-roster",
    ),
    pytest.param(
        lambda t: t.replace(
            'game = "highroll" },',
            'game = "highroll" },\n    ' + t.split("games = [\n    ")[1].split("\n")[0],
        ),
        "a session is listed twice",
        id="a-game-twice",
    ),
    pytest.param(
        lambda t: t.replace('id = "', 'id = "zz'), "32 lowercase hex digits", id="a-bad-id"
    ),
    pytest.param(
        lambda t: t.replace('closed = ""', 'closed = "yesterday"'),
        "'closed' must be",
        id="a-bad-time",
    ),
    pytest.param(lambda t: t[: len(t) // 2], "not valid TOML", id="truncated"),
    pytest.param(lambda t: "\ufeff" + t, "byte-order mark", id="bom"),
    pytest.param(lambda t: t.encode("utf-8").replace(b"Ann", b"\xc5nn"), "not UTF-8", id="latin-1"),
    pytest.param(huge, "too large for a night file", id="huge"),
]


@pytest.mark.parametrize(("edit", "said"), BAD_NIGHTS)
def test_a_planted_or_edited_night_is_refused(
    referee: Runner, home: Path, edit: object, said: str
) -> None:
    text = valid_night(referee, home)
    changed = edit(text)  # type: ignore[operator]
    path = night_file(home)
    path.write_bytes(changed if isinstance(changed, bytes) else changed.encode("utf-8"))
    before = snapshot(path)
    for args in (
        ["night"],
        ["night", "drink", "Ann"],
        ["night", "settle"],
        ["night", "end"],
        ["new", "highroll", "Ann", "Bob", "--name", "g2"],
        ["night", "start", "x"],
    ):
        result = referee(*args)
        assert result.code == 3, (args, result.err)
        assert result.err.startswith("error: ") and result.err.count("\n") == 1
        assert said in result.err, result.err
        assert snapshot(path) == before
    assert not session_file(home, "g2").exists()  # the refused new wrote no session


def test_a_settled_night_that_does_not_add_up_is_refused(referee: Runner, home: Path) -> None:
    money_night(referee)
    assert referee("night", "settle", "--force").code == 0
    path = night_file(home)
    good = path.read_text()
    for edit, said in [
        (good.replace("cents = 550", "cents = 650"), "the settled nets do not sum to zero"),
        (good.replace('"Ann", cents = 350', '"Ann", cents = 349'), "do not settle"),
        (good.replace("exact = true", 'exact = "yes"'), "'exact' must be true or false"),
        (good.replace('payee = "Ann", cents = 200', 'payee = "Bob", cents = 200'), "between two"),
        (good.replace('status = "settled"', 'status = "ended"'), "only a settled one"),
    ]:
        path.write_text(edit)
        result = referee("night", "--night", "fri")
        assert result.code == 3 and said in result.err, (said, result.err)
    path.write_text(good)
    assert referee("night").code == 0


@pytest.mark.parametrize("where", ["night", "pointer"])
def test_a_fifo_is_refused_quickly_with_exit_3(home: Path, referee: Runner, where: str) -> None:
    assert referee("night", "start", "friday").code == 0
    target = night_file(home) if where == "night" else pointer(home)
    target.unlink()
    os.mkfifo(target)
    env = {**os.environ, "REFEREE_HOME": str(home)}
    for args in (["night"], ["night", "drink", "Ann"], ["new", "highroll", "A", "B"]):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "referee", *args],
            env=env,
            timeout=60,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 3, (args, done.stderr)
        assert "not a regular file" in done.stderr and done.stderr.count("\n") == 1
        assert time.monotonic() - started < 30


def test_a_night_file_that_is_a_link_is_refused(referee: Runner, home: Path) -> None:
    valid_night(referee, home)
    path = night_file(home)
    kept = path.with_name("elsewhere.txt")
    path.rename(kept)
    path.symlink_to(kept)
    result = referee("night")
    assert result.code == 3 and "cannot read" in result.err


def test_a_broken_night_hides_no_other(referee: Runner, home: Path) -> None:
    assert referee("night", "start", "friday").code == 0
    new(referee, "g1", ["Ann", "Bob"])
    assert referee("night", "end", "--force").code == 0
    (home / "nights" / "broken.toml").write_text("schema = 1\n")
    shown = referee("night")
    assert shown.code == 0 and shown.out.startswith("NIGHT friday")
    assert shown.err.startswith("warning: skipped broken.toml: ")
    listed = referee("sessions")
    assert listed.code == 0 and "night friday" in listed.out and "skipped broken" in listed.err
    assert json.loads(referee("show", "--json").out)["night"] == "friday"


# ---------------------------------------------------------------------------- the record


NAMES = st.sampled_from(["Ann", "Bob", "Cy", "王小明", "Zoë", "Dee"])
TIMES = st.sampled_from(["2026-11-29T21:04:00+00:00", "2026-11-30T01:00:00-05:00"])
IDS = st.text("0123456789abcdef", min_size=32, max_size=32)


@st.composite
def nights(draw: st.DrawFn) -> Night:
    players = tuple(dict.fromkeys(draw(st.lists(NAMES, max_size=6))))
    ids = draw(st.lists(IDS, max_size=4, unique=True))
    games = tuple(Member(i, f"g{k}", "highroll") for k, i in enumerate(ids))
    drinks = (
        tuple(Drink(p, draw(TIMES)) for p in draw(st.lists(st.sampled_from(players))))
        if players
        else ()
    )
    status = draw(st.sampled_from(Status))
    settled = None
    if status is Status.SETTLED:
        nets = {p: draw(st.integers(-(10**6), 10**6)) for p in players[1:]}
        if players:
            nets = {players[0]: -sum(nets.values()), **nets}
        from referee.settle import settle

        settled = Settlement(
            draw(TIMES),
            tuple(nets.items()),
            tuple(Transfer(*t) for t in settle({n: c for n, c in nets.items() if c})),
            draw(st.booleans()),
            tuple(draw(st.lists(st.sampled_from(ids)))) if ids else (),
        )
    closed = "" if status is Status.OPEN else draw(TIMES)
    return Night(
        "friday", draw(TIMES), status, players, games, drinks, draw(TIMES), closed, settled
    )


@given(nights())
def test_a_night_reads_back_as_itself(night: Night) -> None:
    from referee.storage.codec import document_text, parse_toml

    doc = parse_toml(document_text(night_to_doc(night)).encode(), Path("friday.toml"))
    assert night_from_doc(doc) == night


@given(st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=10))
def test_settled_transfers_settle_every_net(amounts: list[int]) -> None:
    from referee.settle import settle

    nets = {f"P{k}": a for k, a in enumerate(amounts)}
    nets["last"] = -sum(amounts)
    transfers = tuple(Transfer(*t) for t in settle({n: c for n, c in nets.items() if c}))
    check_settlement(tuple(nets.items()), transfers)  # raises if they do not
    with pytest.raises(UsageError, match="do not settle"):
        check_settlement(tuple(nets.items()), (*transfers, Transfer("P0", "last", 1)))


# ---------------------------------------------------------------------------- crashes


def run_killed(home: Path, args: list[str], point: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REFEREE_HOME": str(home), storage.CRASH_ENV: point}
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def open_or_settled(home: Path) -> str:
    """The night's status, checked whole: its record loads, and the pointer means it is open
    exactly when its record says so."""
    night = storage.load_night(night_file(home)).night
    is_open = storage.open_night(storage.Home(home)) is not None
    assert is_open == (night.status is Status.OPEN)
    if night.settled is not None:
        check_settlement(night.settled.nets, night.settled.transfers)
    return night.status.value


@pytest.mark.parametrize("point", ["after_temp_write", "after_fsync", "after_replace"])
def test_settle_killed_mid_save_leaves_the_night_open_or_settled(
    referee: Runner, home: Path, point: str
) -> None:
    money_night(referee)
    win(referee, "Dee", ["Bob", "Cy", "Dee"], "g2")
    done = run_killed(home, ["night", "settle"], f"night_{point}")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert open_or_settled(home) == ("settled" if point == "after_replace" else "open")
    if point != "after_replace":
        assert referee("night", "settle").code == 0  # the same command again, whole this time
        assert not list((home / "nights").glob(".friday.toml.*.tmp"))  # and it swept the leftover
    assert open_or_settled(home) == "settled"
    assert referee("night", "start").code == 0  # and the next night may start


def test_settle_killed_at_any_moment_is_never_half_done(referee: Runner, home: Path) -> None:
    import random

    rng = random.Random(36)
    env = {**os.environ, "REFEREE_HOME": str(home)}
    seen = set()
    for k in range(12):
        assert referee("night", "start", f"n{k}", "Ann", "Bob").code == 0
        new(referee, f"g{k}", ["Ann", "Bob"], "stake=1")
        win(referee, "Ann", ["Ann", "Bob"])
        child = subprocess.Popen(
            [sys.executable, "-m", "referee", "night", "settle"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.0, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        night = storage.load_night(night_file(home, f"n{k}")).night
        seen.add(night.status)
        if night.status is Status.OPEN:
            assert referee("night", "settle").code == 0
        night = storage.load_night(night_file(home, f"n{k}")).night
        assert night.settled is not None and night.settled.transfers == (
            Transfer("Bob", "Ann", 100),
        )
    assert seen <= {Status.OPEN, Status.SETTLED}


@pytest.mark.parametrize("point", ["after_temp_write", "after_replace"])
def test_new_killed_mid_night_save(referee: Runner, home: Path, point: str) -> None:
    assert referee("night", "start", "friday").code == 0
    done = run_killed(home, ["new", "highroll", "Ann", "Bob", "--name", "g1"], f"night_{point}")
    assert done.returncode == -signal.SIGKILL
    listed = [g["session"] for g in doc(referee)["games"]]  # type: ignore[attr-defined]
    assert listed == (["g1"] if point == "after_replace" else [])
    assert session_file(home, "g1").exists()  # written first: a loose session, never a lost one


# ---------------------------------------------------------------------------- two terminals


def test_several_terminals_starting_games_all_join_the_night(home: Path, referee: Runner) -> None:
    assert referee("night", "start", "friday").code == 0
    go = home / "go"
    env = {**os.environ, "REFEREE_HOME": str(home), "REFEREE_LOCK_TIMEOUT": "60"}
    script = (
        "import os, sys, time\n"
        "from referee.cli import run\n"
        "open(sys.argv[2], 'w').close()\n"
        f"while not os.path.exists({str(go)!r}): time.sleep(0.001)\n"
        "code = run(['new', 'highroll', 'Ann', 'Bob', '--name', sys.argv[1]])\n"
        "print('ok' if code == 0 else f'failed {code}')\n"
    )
    children = []
    for k in range(6):  # one at a time up to the go: High roll's registration writes files
        ready = home / f"ready{k}"
        children.append(
            subprocess.Popen(
                [sys.executable, "-c", script, f"g{k}", str(ready)],
                env=env,
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        )
        wait_until(ready.exists, f"child {k} to start")
    go.write_text("go")
    outputs = [c.communicate(timeout=120) for c in children]
    said = [out.strip().splitlines()[-1] for out, _ in outputs]
    assert said == ["ok"] * 6, [err for _, err in outputs]
    listed = sorted(g["session"] for g in doc(referee)["games"])  # type: ignore[attr-defined]
    assert listed == [f"g{k}" for k in range(6)]


# ---------------------------------------------------------------------------- real games


def test_a_kariki_night_needs_its_settle_before_it_ends(referee: Runner) -> None:
    from conftest import examples_of

    example = examples_of("kariki")[0]
    assert referee("night", "start", "friday").code == 0
    assert referee(*example.new, "--name", "k1").code == 0
    for line in example.commands[:-1]:  # all but its settle: a buy-back is on offer
        assert referee(*line).code == 0, line
    refused = referee("night", "end")
    assert refused.code == 1 and "needs its settle (a buy-back is on offer)" in refused.err
    assert referee(*example.commands[-1]).code == 0
    if games.load("kariki").purse is None:  # Kariki keeps a purse once its engine has one
        assert referee("night", "end").code == 0
        return
    settled = json.loads(referee("night", "settle", "--json").out)
    assert sum(settled["nets"].values()) == 0 and settled["nets"]


@pytest.mark.parametrize("game", [g.name for g in games.GAMES if g.has_sessions])
def test_a_night_of_each_games_example_played_for_money(referee: Runner, game: str) -> None:
    """Each bundled example, played with a stake inside a night: its money comes out in the
    night's nets, which sum to zero and which the transfers settle."""
    from conftest import examples_of

    if games.load(game).purse is None:
        pytest.skip(f"{game} keeps no purse yet")
    example = examples_of(game)[0]
    assert referee("night", "start", "friday").code == 0
    staked = () if "--buy-in" in example.new else ("--stake", "2")  # Kariki's is its stake
    assert referee(*example.new, *staked, "--name", "g1").code == 0
    for line in example.commands:
        assert referee(*line).code == 0, line
    shown = doc(referee)
    assert shown["games"][0]["status"] == "finished"  # type: ignore[index]
    settled = json.loads(referee("night", "settle", "--json").out)
    nets = settled["nets"]
    assert nets and sum(nets.values()) == 0 and nets == shown["nets"]
    paid = dict.fromkeys(nets, 0)
    for t in settled["transfers"]:
        paid[t["payer"]] -= t["cents"]
        paid[t["payee"]] += t["cents"]
    assert paid == nets


def test_high_roll_is_registered(highroll: GameInfo) -> None:
    assert games.load(highroll.name).purse is not None


# -------------------------------------------------------------- names and stakes at entry


@pytest.mark.parametrize(
    ("moves", "seated"),
    [
        ([("new", "mia", "ann", "BOB", "--name", "m1")], ["Ann", "Bob"]),
        ([("new", "mia", "Ann", "Cy", "--name", "m1"), ("mia", "join", "bob")],
         ["Ann", "Cy", "Bob"]),
        ([("new", "mia", "Ann", "Cy", "--name", "m1"), ("replace", "cy", "BOB")],
         ["Ann", "Bob"]),
        ([("new", "mia", "Ann", "Cy", "--name", "m1"), ("replace", "cy", "dee")],
         ["Ann", "dee"]),  # not on the roster: as typed
    ],
)  # fmt: skip
def test_a_name_is_spelt_as_the_nights_roster_spells_it(
    referee: Runner, moves: list[tuple[str, ...]], seated: list[str]
) -> None:
    """One player, one name: stats, the night and the card count `bob` as the roster's Bob."""
    assert referee("night", "start", "friday", "Ann", "Bob").code == 0
    for move in moves:
        result = referee(*move)
        assert result.code == 0, (move, result.err)
    players = json.loads(referee("show", "--json").out)["players"]
    assert [p["name"] for p in players] == seated


def test_with_no_night_open_a_name_is_kept_as_typed(referee: Runner) -> None:
    assert referee("new", "mia", "ann", "BOB", "--name", "m1").code == 0
    players = json.loads(referee("show", "--json").out)["players"]
    assert [p["name"] for p in players] == ["ann", "BOB"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["new", "kariki", "Ann", "Bob", "--buy-in", "1", "--stake", "2"],
         "--stake and --buy-in both set the stake: give one of them"),
        (["new", "kariki", "Ann", "Bob", "--set", "stake=2"],
         "'stake' is no Kariki ruleset key (did you mean buy_in?)"),
        (["new", "mia", "Ann", "Bob", "--stake", "1.005"], "at most two decimals"),
        (["new", "mia", "Ann", "Bob", "--stake", "-1"], "--stake is 0 to 100000, not '-1'"),
        (["new", "mia", "Ann", "Bob", "--stake", "x"], "an amount like 3 or 3.50"),
        (["new", "kariki", "Ann", "Bob", "--set", "payout=per_point"],
         "payout = per_point is Kalooki's only: use winner or places"),
    ],
)  # fmt: skip
def test_a_bad_stake_is_one_line_and_writes_nothing(
    referee: Runner, home: Path, args: list[str], said: str
) -> None:
    result = referee(*args)
    assert result.code == 2 and said in result.err and len(result.err.splitlines()) == 1
    assert not (home / "sessions").exists() or not list((home / "sessions").iterdir())
