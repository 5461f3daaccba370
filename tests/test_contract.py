"""Issue 8: one registration per game, and what the shared commands gain from the contract."""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import Runner
from referee import games, storage
from referee.games.base import Game, Outcome

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
EXAMPLES = ROOT / "examples"
START = ("new", "kariki", "Ann=Ace", "Bob", "Cy", "--name", "friday")


@pytest.mark.parametrize("game", games.GAMES, ids=lambda g: g.name)
def test_every_registered_game_is_complete(referee: Runner, game: games.GameInfo) -> None:
    assert games.BY_NAME[game.name] is game and all(games.BY_NAME[a] is game for a in game.aliases)
    assert 1 <= game.min_players <= game.max_players
    rules = importlib.import_module(game.rules).Rules
    for name in game.rulesets:
        table = storage.load_ruleset(name)
        assert table["game"] == game.name
        rules.from_table(table, name)
    cli = games.module(game.name, "cli")
    assert cli.app.registered_commands
    if game.has_sessions:
        engine = games.load(game.name)
        assert isinstance(engine, Game) and callable(cli.new) and cli.SHELL.prompt
        assert callable(games.module(game.name, "render").card)
        assert callable(games.module(game.name, "words").words)
    assert f"referee {game.name} " in README  # documented with an example
    assert re.search(rf"^  {game.name}\s", referee("--help").out, re.M)
    assert f"({game.name})" in referee("rules", "list").out


def test_names_and_aliases_never_collide() -> None:
    names = [n for g in games.GAMES for n in (g.name, *g.aliases)]
    assert len(names) == len(set(names))


def test_new_has_one_subcommand_per_game_with_its_own_options(referee: Runner) -> None:
    kariki_help = referee("new", "kariki", "--help").out
    assert "--direction" in kariki_help and "--buy-in" in kariki_help
    general = referee("new", "--help").out
    assert all(g.name in general for g in games.GAMES if g.has_sessions)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("new", "kariki", "Ann", "Bob", "--dealer", "Ann"), "No such option",
                     id="another-games-option"),
        pytest.param(("new", "kariki", *(f"P{i}" for i in range(21))), "2 to 20 players",
                     id="too-many"),
        pytest.param(("new", "kariki", "Ann"), "2 to 20 players", id="too-few"),
        pytest.param(("new", "chess", "Ann", "Bob"), "unknown game", id="unknown-game"),
        pytest.param(("new", "kalooki", "Ann", "Bob"), "3 to 6 players", id="kalooki-too-few"),
    ],
)  # fmt: skip
def test_new_refuses_what_the_game_does_not_take(
    referee: Runner, home: Path, args: tuple[str, ...], message: str
) -> None:
    result = referee(*args)
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1, result
    assert not (home / "sessions").exists()


def test_the_session_option_before_the_command_and_a_path_argument(
    referee: Runner, home: Path
) -> None:
    referee(*START)
    referee("new", "kariki", "Zed", "Yan", "--name", "other")  # now current
    assert json.loads(referee("-s", "friday", "show", "--json").out)["session"] == "friday"
    assert referee("-s", "friday", "kariki", "claim", "9").code == 0
    path = str(home / "sessions" / "friday.toml")
    assert json.loads(referee("show", path, "--json").out)["claim"] == "Nine"
    assert "Ann claims Nine" in referee("log", path).out
    assert json.loads(referee("show", "--json").out)["session"] == "other"  # current unchanged


def test_sessions_json_lists_outcomes_newest_first(referee: Runner, home: Path) -> None:
    referee(*START)
    shutil.copy(EXAMPLES / "kariki-night.toml", home / "sessions" / "night.toml")
    referee("kariki", "claim", "9")  # friday changes last
    (home / "sessions" / "broken.toml").write_text("schema = 1\n")
    rows = json.loads(referee("sessions", "--json").out)
    assert [r["name"] for r in rows[:2]] == ["friday", "night"]
    friday, night, broken = rows
    assert set(friday) == {"name", "game", "players", "status", "winners", "updated", "path"}
    assert (friday["game"], friday["status"], friday["winners"]) == ("kariki", "playing", [])
    assert friday["players"] == ["Ann", "Bob", "Cy"]
    assert (night["status"], night["winners"]) == ("finished", ["Bob"])  # settled: Dee did not
    referee("undo", "-s", "night")  # before the settle, Dee may still buy back
    night = next(r for r in json.loads(referee("sessions", "--json").out) if r["name"] == "night")
    assert (night["status"], night["winners"]) == ("provisional", ["Bob"])
    assert (broken["name"], broken["status"]) == ("broken", "unreadable")


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_log_script_replays_every_example_through_the_shell(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, example: Path
) -> None:
    import io

    script = referee("log", "--script", "-s", str(example)).out
    first, *lines = script.splitlines()
    assert first.startswith("# referee new ")
    new = [*first.removeprefix("# referee ").split(), "--name", "again"]
    assert referee(*new).code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert referee("shell").code == 0
    again = json.loads(referee("show", "--json").out)
    bundled = json.loads(referee("show", "--json", "-s", str(example)).out)
    assert {**again, "session": ""} == {**bundled, "session": ""}


def test_a_shell_runs_another_games_tools(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    referee(*START)
    monkeypatch.setattr("sys.stdin", io.StringIO("kalooki check 5H 5D JK\n"))
    result = referee("shell")
    assert result.code == 0 and "three" in result.out, result


def test_outcome_is_typed(referee: Runner) -> None:
    loaded = storage.load(EXAMPLES / "kariki-night.toml")
    result = loaded.session.engine.outcome(loaded.state)
    places = (1, 2, 3, 4, 5)
    assert result == Outcome(True, ("Bob",), ("Bob", "Dee", "Eve", "Cy", "Ann"), places=places)


def test_the_history_commands_the_app_attaches_are_the_ones_it_names() -> None:
    from referee.cli import HISTORY
    from referee.cli.history import COMMANDS

    assert tuple(COMMANDS) == HISTORY  # named in cli/__init__ so a plain `show` never imports it
