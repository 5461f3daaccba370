"""The shared commands of CLI.md: sessions, undo/redo, rulesets, names, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import games, storage

START = ("new", "kariki", "Ann=Ace", "Bob", "Cy", "--name", "friday")


def show(referee: Runner, *args: str) -> dict[str, Any]:
    result = referee("show", "--json", *args)
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)
    return doc


def test_bare_referee_says_where_to_start_then_shows_the_card(referee: Runner) -> None:
    first = referee()
    assert first.code == 0 and "referee new GAME PLAYER..." in first.out
    assert all(g.name in first.out for g in games.GAMES if g.has_sessions)
    referee(*START)
    card = referee()
    assert card.code == 0 and card.out.startswith("KARIKI friday")


def test_new_takes_options_and_nicknames(referee: Runner) -> None:
    options = ["--first", "cy", "--direction", "right", "--buy-in", "5", "--nick", "Ann=Ace"]
    result = referee("new", "kariki", "Ann", "Bob=Bobby", "Cy", *options, "--name", "x")
    assert result.code == 0, result
    doc = show(referee)
    players = doc["players"]
    assert isinstance(players, list)
    assert [(p["name"], p["nickname"]) for p in players] == [
        ("Ann", "Ace"), ("Bob", "Bobby"), ("Cy", None)
    ]  # fmt: skip
    assert (doc["turn"], doc["direction"], doc["pot"]) == ("Cy", "right", 1500)  # cents
    assert referee("kariki", "claim", "9").code == 0
    assert show(referee)["turn"] == "Bob"  # right of Cy


def test_a_default_name_never_overwrites_an_earlier_session(referee: Runner) -> None:
    assert referee("new", "kariki", "Ann", "Bob").code == 0
    assert referee("new", "kariki", "Ann", "Bob").code == 0
    names = referee("sessions").out
    assert names.count("kariki-") == 2 and "-2" in names


NEW_REFUSED = [
    pytest.param(("new", "kariki", "Ann"), "2 to 20 players", id="one-player"),
    pytest.param(("new", "chess", "Ann", "Bob"), "unknown game", id="unknown-game"),
    pytest.param(("new", "kalooki", "Ann", "Bob"), "3 to 6 players", id="kalooki-two"),
    pytest.param(("new", "kariki", "Ann", "ann"), "two players are called", id="same-name"),
    pytest.param(("new", "kariki", "Ann", "Bo\x1b[31mb"), "control or invisible", id="escape"),
    pytest.param(("new", "kariki", "Ann", "B" * 17), "too long", id="long-name"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--name", "../x"), "bad session name",
                 id="path-name"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--first", "Zed"), "unknown player",
                 id="unknown-first"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--direction", "up"), "unknown direction",
                 id="direction"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--buy-in", "-1"), "buy-in", id="buy-in"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--nick", "Bob"), "Name=Nickname", id="nick"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--ruleset", "kalooki"), "is for kalooki",
                 id="other-game-ruleset"),
    pytest.param(("new", "kariki", "Ann", "Bob", "--ruleset", "nope"), "unknown ruleset",
                 id="unknown-ruleset"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "message"), NEW_REFUSED)
def test_new_refuses_bad_input_and_writes_nothing(
    referee: Runner, home: Path, args: tuple[str, ...], message: str
) -> None:
    result = referee(*args)
    assert result.code == 2, result
    assert message in result.err and result.err.count("\n") == 1 and result.out == ""
    assert not list(home.glob("sessions/*.toml")) and storage.Home(home).current() is None


def test_new_refuses_an_existing_name(referee: Runner, home: Path) -> None:
    referee(*START)
    before = snapshot(session_file(home))
    result = referee(*START)
    assert result.code == 2 and "already exists" in result.err
    assert snapshot(session_file(home)) == before


ACTIONS_REFUSED = [
    pytest.param(("kariki", "claim", "zz"), 2, id="unknown-rank"),
    pytest.param(("kariki", "pull", "7-1"), 2, id="bad-dice"),
    pytest.param(("kariki", "claim", "9", "--by", "Zed"), 2, id="unknown-player"),
    pytest.param(("kariki", "claim", "9", "--by", "Bob"), 1, id="out-of-turn"),
    pytest.param(("kariki", "pass"), 1, id="pass-without-claim"),
    pytest.param(("kariki", "claim", "kariki"), 1, id="spoken-kariki"),
    pytest.param(("kariki", "slash", "Bob", "nope"), 2, id="unknown-slash-rule"),
    pytest.param(("kariki", "slash", "Bob", "--count", "x"), 2, id="bad-count"),
    pytest.param(("kariki", "buyback", "Bob"), 1, id="buyback-not-out"),
    pytest.param(("kariki", "claim"), 2, id="missing-argument"),
    pytest.param(("kariki", "claim", "9", "10"), 2, id="extra-argument"),
    pytest.param(("kariki", "fold"), 2, id="unknown-action"),
    pytest.param(("redo",), 1, id="nothing-to-redo"),
]


@pytest.mark.parametrize(("args", "code"), ACTIONS_REFUSED)
def test_refused_actions_change_nothing_on_disk(
    referee: Runner, home: Path, args: tuple[str, ...], code: int
) -> None:
    referee(*START)
    before = snapshot(session_file(home))
    result = referee(*args)
    assert result.code == code, result
    assert result.err.startswith("error: ") and result.err.count("\n") == 1
    assert "Traceback" not in result.err
    assert snapshot(session_file(home)) == before


def test_undo_names_the_event_and_redo_puts_it_back(referee: Runner, home: Path) -> None:
    referee(*START)
    referee("kariki", "claim", "9")
    after_claim = show(referee)
    referee("kariki", "pull", "3-4")
    undone = referee("undo")
    assert undone.code == 0 and undone.out.startswith("undid event 2: pull 3-4 --by Bob")
    assert show(referee) == after_claim  # the replay of what is left, exactly
    redone = referee("redo")
    # what the event ruled, as when it was first entered (the plain command said less)
    assert redone.code == 0 and redone.out.startswith("redid event 2: Bob pulls 3-4 (Seven)")
    assert show(referee)["players"] == [
        {**p, "berries": 1, "berry_causes": ["lie"]} if p["name"] == "Ann" else p
        for p in after_claim["players"]
    ]


def test_a_new_action_clears_redo(referee: Runner) -> None:
    referee(*START)
    referee("kariki", "claim", "9")
    referee("undo")
    referee("kariki", "claim", "10")
    assert referee("redo").code == 1  # nothing to redo: refused


def test_undo_with_no_events(referee: Runner, home: Path) -> None:
    referee(*START)
    before = snapshot(session_file(home))
    result = referee("undo")
    assert result.code == 1 and "nothing to undo" in result.err  # refused, as CLI.md says
    assert snapshot(session_file(home)) == before


def test_sessions_and_use(referee: Runner, home: Path) -> None:
    referee(*START)
    referee("new", "kariki", "Dee", "Eve", "--name", "saturday")
    listing = referee("sessions").out.splitlines()
    assert listing[0] == "  friday"
    assert listing[1].startswith("    kariki, playing, 20")
    assert listing[2] == "    Ann, Bob, Cy"
    assert listing[3] == "* saturday"
    assert listing[5] == "    Dee, Eve"
    assert referee("use", "friday").code == 0
    assert show(referee)["session"] == "friday"
    assert referee("use", "nope").code == 2  # an unknown name: bad input, said without a path
    assert referee("use", "../x").code == 3  # a slash makes it a PATH (CLI.md): none there
    assert referee("use", "bad name").code == 2
    assert show(referee)["session"] == "friday"


def test_session_option_and_environment(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    referee("new", "kariki", "Dee", "Eve", "--name", "saturday")
    assert show(referee, "-s", "friday")["session"] == "friday"
    assert show(referee, "-s", str(session_file(home)))["session"] == "friday"
    monkeypatch.setenv("REFEREE_SESSION", "friday")
    assert show(referee)["session"] == "friday"
    assert referee("kariki", "claim", "9", "-s", "saturday").code == 0
    assert show(referee, "-s", "saturday")["claim"] == "Nine"


def test_names_are_shown_literally(referee: Runner) -> None:
    referee("new", "kariki", "[red]x[/]", "[link]z", "--name", "m")
    card = referee("show").out
    assert "[red]x[/]" in card and "[link]z" in card


def test_log_lists_rulings_and_json_events(referee: Runner) -> None:
    referee(*START)
    referee("kariki", "claim", "9")
    referee("kariki", "pass")
    lines = [line.rstrip() for line in referee("log").out.splitlines()]
    assert lines == ["1 21:04 Ann claims Nine", "2 21:04 Bob passes and answers for Nine"]
    assert [ln.rstrip() for ln in referee("log", "--last", "1").out.splitlines()] == lines[1:]
    assert referee("log", "--last", "0").out == "0 of 2 events shown\n"  # not "no events yet"
    assert referee("log", "--last", "-1").code == 2
    doc = json.loads(referee("log", "--json").out)
    assert doc[1] == {
        "number": 2,
        "event": {"type": "pass", "by": "Bob", "at": "2026-11-29T21:04:00+00:00"},
        "text": "pass --by Bob",
        "ruling": "Bob passes and answers for Nine",
        "facts": [{"kind": "passed", "by": "Bob", "claim": "Nine"}],
    }


def test_show_json_has_the_documented_fields(referee: Runner) -> None:
    referee(*START)
    doc = show(referee)
    assert set(doc) == {
        "game", "session", "players", "turn", "phase", "claim", "responsible", "passers",
        "direction", "pot", "winner", "buyback_open", "bartender", "events", "final_pass",
        "pot_to", "house_rules", "money", "night",
    }  # fmt: skip
    players = doc["players"]
    assert isinstance(players, list)
    assert set(players[0]) == {
        "name", "nickname", "berries", "berry_causes", "slashes", "crowns", "out", "in_poo",
        "buyback_used", "left", "paid",
    }  # fmt: skip


def test_rules_commands(referee: Runner, tmp_path: Path) -> None:
    listing = referee("rules", "list").out
    assert "kariki" in listing and "kalooki" in listing
    assert "berry_limit = 5" in referee("rules", "show", "kariki").out
    assert referee("rules", "check", "rulesets/kalooki.toml").code == 0
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "kariki"\nraise = "sometimes"\nberry_limit = 0\ncolour = "red"\n')
    result = referee("rules", "check", str(bad))
    assert result.code == 1 and result.err.count("\n") == 1
    for part in ("raise must be one of", "berry_limit must be from 1 to 99", "'colour'"):
        assert part in result.err
    broken = tmp_path / "broken.toml"
    broken.write_text("game = \n")
    assert referee("rules", "check", str(broken)).code == 3
    assert referee("rules", "check", str(tmp_path / "missing.toml")).code == 3


def test_a_house_ruleset_is_snapshotted_into_the_session(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    house = tmp_path / "house.toml"
    house.write_text(
        (storage.bundled_rulesets() / "kariki.toml")
        .read_text()
        .replace("berry_limit = 5", "berry_limit = 2")
    )
    assert referee(*START, "--ruleset", str(house)).code == 0
    house.unlink()  # the session keeps its own copy of the rules it was started with
    referee("kariki", "claim", "9")
    referee("kariki", "pull", "4-5")
    referee("kariki", "claim", "9")
    referee("kariki", "pull", "4-5")
    doc = show(referee)
    assert [p["out"] for p in doc["players"]] == [False, True, False]


def test_version_and_help(referee: Runner) -> None:
    assert referee("--version").out.startswith("referee ")
    helped = referee("--help")
    assert helped.code == 0 and "kariki" in helped.out and "kalooki" in helped.out
    assert referee("kariki").code == 0  # a bare group shows its help


def test_a_data_folder_that_cannot_exist_is_a_file_error(
    referee: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("REFEREE_HOME", str(blocker / "home"))  # under a file: even root fails
    result = referee(*START)
    assert result.code == 3 and result.err.count("\n") == 1, result


@pytest.mark.parametrize(
    ("start", "action", "needs"),
    [
        pytest.param(("new", "mia", "Ann", "Bob"), ("mia", "announce"), "VALUE", id="mia"),
        pytest.param(("new", "liars", "Ann", "Bob"), ("ld", "bid"), "BID", id="liars"),
        pytest.param(
            ("new", "kiriki", "Ann", "Bob", "--first", "Ann"), ("kr", "claim"), "RANK", id="kiriki"
        ),
        pytest.param(("new", "kalooki", "Ann", "Bob", "Cy"), ("kal", "out"), "PLAYER", id="kal"),
    ],
)
def test_a_missing_argument_is_said_in_the_house_style(
    referee: Runner, start: tuple[str, ...], action: tuple[str, ...], needs: str
) -> None:
    assert referee(*start).code == 0
    result = referee(*action)
    assert result.code == 2 and result.err.count("\n") == 1
    where = f"referee {action[0]} {action[1]} --help"
    assert f"'{action[1]}' needs {needs}: see '{where}'" in result.err
    assert "Missing argument" not in result.err


@pytest.mark.parametrize(
    ("typed", "code", "said"),
    [
        pytest.param("FRIDAY", 0, "KARIKI friday", id="any-case"),
        pytest.param("fri", 0, "KARIKI friday", id="a-unique-prefix"),
        pytest.param("fridya", 2, "unknown session 'fridya': did you mean 'friday'?", id="typo"),
        pytest.param("zz", 2, "unknown session 'zz': try friday, saturday", id="unknown"),
    ],
)
def test_a_session_is_named_as_a_player_is(
    referee: Runner, typed: str, code: int, said: str
) -> None:
    """`show fridya` said an absolute path with exit 3; a name typed is matched as any word."""
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("new", "kariki", "Ann", "Bob", "--name", "saturday")
    result = referee("show", typed)
    assert result.code == code and said in (result.out if code == 0 else result.err)
    assert "/" not in result.err


def every_file(home: Path) -> dict[str, bytes]:
    """What the data folder holds: a refused command leaves it as it was."""
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("line", "in_environment"),
    [
        pytest.param(("show", "fridya"), False, id="show"),
        pytest.param(("use", "fridya"), False, id="use"),
        pytest.param(("rename", "fridya", "sunday"), False, id="rename"),
        pytest.param(("delete", "fridya", "--yes"), False, id="delete"),
        pytest.param(("log", "-s", "fridya"), False, id="log"),
        pytest.param(("undo", "-s", "fridya"), False, id="undo"),
        pytest.param(("export", "-s", "fridya"), False, id="export"),
        pytest.param(("kariki", "claim", "9", "-s", "fridya"), False, id="an-action"),
        pytest.param(("-s", "fridya", "redo"), False, id="before-the-command"),
        pytest.param(("shell", "-s", "fridya"), False, id="shell"),
        pytest.param(("show",), True, id="REFEREE_SESSION"),
    ],
)
def test_every_command_names_a_session_as_show_does(
    referee: Runner,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    line: tuple[str, ...],
    in_environment: bool,
) -> None:
    """`use`, `rename`, `delete` and $REFEREE_SESSION said an absolute path with exit 3 for a
    near miss (and `use` kept one it could not find): one matcher, one line, nothing written."""
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("new", "kariki", "Ann", "Bob", "--name", "saturday")
    if in_environment:
        monkeypatch.setenv("REFEREE_SESSION", "fridya")
    before = every_file(home)
    result = referee(*line)
    assert (result.code, result.out) == (2, "")
    assert result.err == "error: unknown session 'fridya': did you mean 'friday'?\n"
    assert every_file(home) == before


def test_use_keeps_the_name_it_found(referee: Runner, home: Path) -> None:
    """`use frid` pointed at `frid`, so every later command failed with exit 3."""
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("new", "kariki", "Ann", "Bob", "--name", "saturday")
    assert referee("use", "frid").out == "current session: friday\n"
    assert (home / "current").read_text() == "friday\n"
    assert show(referee)["session"] == "friday"
    assert referee("use", "SATURDAY").out == "current session: saturday\n"
    assert (home / "current").read_text() == "saturday\n"


def test_the_environment_names_a_session_as_typed_words_do(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("new", "kariki", "Ann", "Bob", "--name", "saturday")
    monkeypatch.setenv("REFEREE_SESSION", "FRI")
    assert show(referee)["session"] == "friday"
    assert referee("sessions").out.splitlines()[0] == "* friday"  # the one the variable names


def test_rename_finds_the_session_as_show_does(referee: Runner, home: Path) -> None:
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    referee("new", "kariki", "Ann", "Bob", "--name", "saturday")
    assert referee("rename", "SAT", "sunday").out == "renamed saturday to sunday\n"
    assert not session_file(home, "saturday").exists()
    assert show(referee, "-s", "sunday")["session"] == "sunday"


@pytest.mark.parametrize(
    ("typed", "code", "said"),
    [
        pytest.param("FRIDAY", 0, "deleted friday\n", id="any-case"),
        pytest.param(
            "fri", 2, "error: delete takes the whole name: did you mean 'friday'?\n", id="prefix"
        ),
        pytest.param(
            "",
            2,
            "error: bad session name '': use plain letters a-z, digits, '_', '.' or "
            "'-', like friday\n",
            id="empty",  # it deleted the current session
        ),
    ],
)
def test_delete_takes_a_sessions_whole_name(
    referee: Runner, home: Path, typed: str, code: int, said: str
) -> None:
    """A prefix deleted nothing with exit 3 and a path; any case is still the whole name."""
    referee("new", "kariki", "Ann", "Bob", "--name", "friday")
    result = referee("delete", typed, "--yes")
    assert result.code == code and (result.out if code == 0 else result.err) == said
    assert session_file(home).exists() == bool(code)


def test_a_session_name_that_differs_only_in_case_is_refused(referee: Runner, home: Path) -> None:
    """`new --name friday` beside `Friday` made a second session: one file on a Mac's or
    Windows' disk, and `-s fri` could no longer choose between them."""
    assert referee("new", "liars", "Ann", "Bob", "--name", "Friday").code == 0
    folder = home / "sessions"
    before = sorted(p.name for p in folder.iterdir())
    said = "error: a session called 'Friday' exists already: names differ by more than case\n"
    result = referee("new", "liars", "Ann", "Bob", "--name", "friday")
    assert (result.code, result.err) == (2, said)
    assert sorted(p.name for p in folder.iterdir()) == before
    assert referee("new", "mia", "Ann", "Bob", "--name", "sat").code == 0
    result = referee("rename", "sat", "FRIDAY")
    assert (result.code, result.err) == (2, said)
    assert referee("rename", "friday", "FRIDAY").code == 0  # its own case may change
    assert (folder / "FRIDAY.toml").exists() and not (folder / "Friday.toml").exists()
