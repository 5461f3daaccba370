"""Issue 8: one registration per game, and what the shared commands gain from the contract."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import Example, Runner, examples
from referee import games, storage
from referee.errors import UsageError
from referee.games.base import (
    Direction,
    Game,
    Outcome,
    direction_option,
    next_seat,
    player_option,
    turn_order,
)

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
        assert isinstance(engine, Game) and engine.new.help and cli.SHELL.prompt
        assert callable(games.module(game.name, "render").card)
        assert callable(games.module(game.name, "words").words)
        from referee.cli.moves import moves_of

        assert moves_of(game)  # its actions, read without Typer
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
    assert set(friday) == {
        "name",
        "game",
        "ruleset",
        "players",
        "status",
        "winners",
        "updated",
        "minutes",
        "path",
        "night",
    }
    assert friday["minutes"] == 0  # one event: no play time yet
    assert friday["night"] is None  # started while no night was open
    assert (friday["game"], friday["status"], friday["winners"]) == ("kariki", "playing", [])
    assert friday["ruleset"] == "kariki" and broken["ruleset"] is None
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
    from referee.cli.app import HISTORY
    from referee.cli.history import COMMANDS

    assert tuple(COMMANDS) == HISTORY  # named in cli/__init__ so a plain `show` never imports it


# ---------------------------------------------------------------------------- the typed contract


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.path.stem)
def test_every_example_runs_through_every_piece_of_the_contract(example: Example) -> None:
    """Each registered game's bundled examples, through each function of its `Game`."""
    engine = games.load(example.game)
    loaded = storage.load(example.path)
    session = loaded.session
    assert {f.name for f in dataclasses.fields(Game)} == CONTRACT | ROSTER_AND_MONEY
    rules = engine.rules_from_table(session.ruleset, "example")
    options = engine.options_from_table(session.options, session.players, rules)
    state = engine.start(rules, session.players, options)
    after = [state]
    for data in session.events:
        event = engine.event_from_dict({k: v for k, v in data.items() if k != "at"})
        assert engine.is_event(event) and isinstance(event, engine.events)
        assert engine.event_from_dict(engine.event_to_dict(event)) == event  # canonical
        assert engine.player_of(event) in (None, *(p.name for p in session.players))
        state = engine.checked_apply(state, event)
        assert isinstance(state, engine.state_type)
        after.append(state)
        turn = engine.turn(state)
        assert turn is None or turn in [p.name for p in session.players]
        assert all(isinstance(a, str) for a in engine.legal_actions(state))
        assert isinstance(engine.outcome(state), Outcome)
        assert engine.ruling(state)  # every event has a ruling
        json.dumps(engine.ruling_json(state))  # JSON data, by the game's own json_value
        json.dumps(engine.summary(state))
        assert set(engine.scores(state)) == {p.name for p in session.players}
    assert state == loaded.state
    tally = engine.tally(after)
    assert set(tally) <= {p.name for p in session.players}
    assert all(isinstance(n, int) for row in tally.values() for n in row.values())


CONTRACT = {
    "state_type", "events", "rules_from_table", "options_from_table", "start", "apply", "turn",
    "legal_actions", "outcome", "actions", "new", "ruling", "json_value",
    "summary", "scores", "tally",
}  # fmt: skip
ROSTER_AND_MONEY = {"seats", "purse"}  # a game whose table never changes, played for nothing


def test_mypy_refuses_a_game_missing_a_piece_or_with_another_games_function(
    tmp_path: Path,
) -> None:
    """Each `Game(...)` below lacks one piece of Kariki's (or takes Liar's dice's `apply`):
    mypy (strict, as CI runs it) must report each one."""
    from mypy import api

    pieces = {name: f"k.{name}" for name in CONTRACT}
    pieces |= {
        "state_type": "k.State",
        "events": "k.Event",
        "rules_from_table": "k.Rules.from_table",
        "ruling": "lambda state: state.ruling",
        "actions": "k.ACTIONS",
        "new": "k.NEW",
    }
    lines = [
        "from referee.games.kariki import engine as k",
        "from referee.games.liars import engine as liars",
        "from referee.games.base import Game",
    ]
    for i, missing in enumerate(sorted(pieces)):
        given = ", ".join(f"{n}={v}" for n, v in pieces.items() if n != missing)
        lines.append(f"G{i}: Game[k.Rules, k.Options, k.State, k.Event] = Game({given})")
    given = ", ".join(f"{n}={v}" for n, v in (pieces | {"apply": "liars.apply"}).items())
    lines.append(f"WRONG: Game[k.Rules, k.Options, k.State, k.Event] = Game({given})")
    snippet = tmp_path / "snippet.py"
    snippet.write_text("\n".join(lines) + "\n")
    limit = sys.getrecursionlimit()  # mypy raises it for good: the storage tests rely on it
    try:
        out, _, code = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    finally:
        sys.setrecursionlimit(limit)
    assert code == 1
    for i, missing in enumerate(sorted(pieces)):
        assert (
            f'snippet.py:{i + len(lines) - len(pieces)}: error: Missing named argument "{missing}"'
            in out
        ), out
    assert f'snippet.py:{len(lines)}: error: Argument "apply"' in out, out


# ---------------------------------------------------------------------------- seats and turns


@pytest.mark.parametrize(
    ("after", "direction", "out", "order"),
    [
        pytest.param(0, Direction.LEFT, (), (1, 2, 3, 0), id="left-all-in"),
        pytest.param(0, Direction.RIGHT, (), (3, 2, 1, 0), id="right-all-in"),
        pytest.param(3, Direction.LEFT, (0,), (1, 2, 3), id="left-wraps-past-an-out-seat"),
        pytest.param(1, Direction.RIGHT, (0, 3), (2, 1), id="right-skips-two"),
        pytest.param(2, Direction.LEFT, (2,), (3, 0, 1), id="from-a-seat-that-is-out"),
        pytest.param(1, Direction.LEFT, (0, 2, 3), (1,), id="the-last-one-in"),
        pytest.param(1, Direction.LEFT, (0, 1, 2, 3), (), id="nobody-in"),
    ],
)
def test_turns_go_round_the_table_skipping_players_who_are_out(
    after: int, direction: Direction, out: tuple[int, ...], order: tuple[int, ...]
) -> None:
    def is_in(seat: int) -> bool:
        return seat not in out

    assert turn_order(after, 4, direction, is_in) == order
    assert next_seat(after, 4, direction, is_in) == (order[0] if order else after)


@pytest.mark.parametrize(
    ("table", "first", "direction"),
    [
        pytest.param({}, None, Direction.RIGHT, id="neither-given-the-ruleset-default"),
        pytest.param({"first": "Bob", "direction": "left"}, "Bob", Direction.LEFT, id="given"),
        pytest.param({"first": "Zed"}, "unknown first roller 'Zed': players are Ann, Bob",
                     None, id="unknown-player"),
        pytest.param({"first": 7}, "unknown first roller '7'", None, id="not-a-name"),
        pytest.param({"direction": "up"}, None, "unknown direction 'up': use left or right",
                     id="unknown-direction"),
    ],
)  # fmt: skip
def test_the_first_and_direction_options_every_turn_based_game_reads(
    table: dict[str, object], first: str | None, direction: Direction | str
) -> None:
    names = ["Ann", "Bob"]
    if isinstance(first, str) and first.startswith("unknown"):
        with pytest.raises(UsageError, match=re.escape(first)):
            player_option(table, "first", names, "first roller")
        return
    assert player_option(table, "first", names, "first roller") == first
    if isinstance(direction, str):
        with pytest.raises(UsageError, match=re.escape(direction)):
            direction_option(table, Direction.RIGHT)
    else:
        assert direction_option(table, Direction.RIGHT) is direction
