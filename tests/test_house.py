"""A table's own rules (issue 35): `--set KEY=VALUE` for one session, checked as a ruleset file
is; what differs from the bundled ruleset said on the card, in `show --json`, on the share card
and in the report; and `log --script` starting the same table in any data folder."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest

from conftest import Runner, examples, session_file, snapshot
from referee import games, storage
from referee.house import house_rules


def replay(referee: Runner, script: str, monkeypatch: pytest.MonkeyPatch, home: Path) -> str:
    """The script played again in an empty data folder: the card it ends on."""
    monkeypatch.setenv("REFEREE_HOME", str(home))
    lines = script.splitlines()
    new = shlex.split(lines[0].removeprefix("# referee "))
    assert referee(*new, "--name", "again").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines[1:]) + "\n"))
    assert referee("shell").code == 0
    return referee("show").out


def test_a_set_is_said_on_the_card_in_json_and_in_the_script(referee: Runner) -> None:
    started = referee(
        "new", "liars", "Ann", "Bob", "Cy", "Dee", "--ruleset", "perudo",
        "--set", "dice_per_player=3", "--set", 'next_starter="caller"', "--name", "friday",
    )  # fmt: skip
    assert started.code == 0, started.err
    assert started.out.splitlines()[-1] == "house: 3 dice each, the caller starts"
    assert len(started.out.splitlines()[-1]) <= 40
    doc = json.loads(referee("show", "--json").out)
    assert [(h["key"], h["value"]) for h in doc["house_rules"]] == [
        ("dice_per_player", 3), ("next_starter", "caller"),
    ]  # fmt: skip
    script = referee("log", "--script").out
    assert script.splitlines()[0] == (
        "# referee new liars Ann Bob Cy Dee --ruleset perudo"
        " --set dice_per_player=3 --set 'next_starter=\"caller\"'"
    )


@pytest.mark.parametrize(
    ("sets", "said"),
    [
        pytest.param(["dice_per_playr=3"], "(did you mean dice_per_player?)", id="typo"),
        pytest.param(["bidding_rule=x"], "bidding_rule must be one of", id="bad-choice"),
        pytest.param(["dice_per_player=0"], "dice_per_player", id="out-of-range"),
        pytest.param(["dice_per_player"], "needs KEY=VALUE", id="no-value"),
        pytest.param(["dice_per_player=[1,"], "no TOML value", id="bad-toml"),
        pytest.param(["game=kariki"], "is no Liar's dice ruleset key", id="not-a-rule"),
        pytest.param(["a=1", "b=2"], "'a' is no Liar's dice ruleset key; 'b' is no", id="both"),
    ],
)
def test_a_bad_set_is_one_line_exit_2_and_writes_nothing(
    referee: Runner, home: Path, sets: list[str], said: str
) -> None:
    result = referee("new", "liars", "Ann", "Bob", *[w for s in sets for w in ("--set", s)])
    assert result.code == 2 and said in result.err and result.err.count("\n") == 1, result.err
    assert not (home / "sessions").exists() or not list((home / "sessions").iterdir())


def test_every_problem_of_the_sets_is_listed_at_once(referee: Runner) -> None:
    result = referee("new", "liars", "Ann", "Bob", "--set", "dice_per_playr=3",
                     "--set", "bidding_rule=x", "--set", "foo")  # fmt: skip
    assert result.code == 2
    for part in ("dice_per_playr", "bidding_rule must be", "'foo' needs KEY=VALUE"):
        assert part in result.err


def test_a_script_of_a_set_replays_to_the_same_card_in_an_empty_folder(
    referee: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee("new", "kariki", "Ann", "Bob", "--set", "berry_limit=2", "--set", "buy_in=3",
            "--name", "friday")  # fmt: skip
    for line in (["kariki", "slash", "bob", "3"], ["kariki", "slash", "bob", "3"]):
        assert referee(*line).code == 0
    card = referee("show").out
    assert "house: " in card and "buyback Bob (6)" in card  # the buy-in of 3 each
    again = replay(referee, referee("log", "--script").out, monkeypatch, tmp_path / "empty")
    head, *rest = card.replace("friday", "again").split("\n")
    # the header's right edge moves with the name's length: its words are the same
    assert again.split("\n")[0].split() == head.split() and again.split("\n")[1:] == rest


def test_a_session_of_a_ruleset_file_replays_from_its_script_with_no_file(
    referee: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = tmp_path / "ours.toml"
    table = (storage.bundled_rulesets() / "kariki.toml").read_text(encoding="utf-8")
    table = table.replace('name = "kariki"', 'name = "ours"')
    ours.write_text(table.replace('truth = "at_least"', 'truth = "exact"'), encoding="utf-8")
    assert (
        referee("new", "kariki", "Ann", "Bob", "--ruleset", str(ours), "--name", "again").code == 0
    )
    referee("kariki", "claim", "9")
    referee("kariki", "pull", "5-5")  # a Ten on a Nine: a lie when the truth must be exact
    card = referee("show").out
    script = referee("log", "--script").out
    assert "--set 'truth=\"exact\"'" in script.splitlines()[0] and "ours" not in script
    ours.unlink()  # the script needs no file
    assert replay(referee, script, monkeypatch, tmp_path / "empty") == card


def test_a_set_goes_through_export_and_import(referee: Runner, tmp_path: Path) -> None:
    referee("new", "mia", "Ann", "Bob", "--set", "lives=3", "--name", "friday")
    out = tmp_path / "friday.json"
    assert referee("export", "--format", "json", "-o", str(out)).code == 0
    assert referee("import", str(out), "--name", "copy", "--as-copy").code == 0
    copied = json.loads(referee("show", "--json", "-s", "copy").out)["house_rules"]
    assert copied == [{"key": "lives", "value": 3, "words": copied[0]["words"]}]
    assert "house rules: " in referee("export", "--format", "html").out
    assert "House rules: " in referee("export", "--format", "md").out


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.path.stem)
def test_the_bundled_examples_play_the_bundled_rules(example: object) -> None:
    session = storage.load(example.path).session  # type: ignore[attr-defined]
    assert house_rules(session.game, session.ruleset)[1] == {}


def test_a_refused_set_leaves_a_session_alone(referee: Runner, home: Path) -> None:
    referee("new", "mia", "Ann", "Bob", "--name", "friday")
    before = snapshot(session_file(home))
    assert referee("new", "mia", "Ann", "Bob", "--name", "friday2", "--set", "lives=0").code == 2
    assert snapshot(session_file(home)) == before
    assert not session_file(home, "friday2").exists()


def test_rules_diff_lists_what_two_rulesets_disagree_on(referee: Runner) -> None:
    shown = referee("rules", "diff", "liars-dice", "perudo").out.splitlines()
    assert shown[:2] == ["dice_per_player: 6 | 5", "bidding_rule: reset-face | perudo"]
    assert "ones_wild: off | on" in shown
    assert referee("rules", "diff", "mia", "mia").out == "mia and mia rule alike\n"
    other = referee("rules", "diff", "kariki", "perudo")
    assert other.code == 2 and "'perudo' is for 'liars', not kariki" in other.err


@pytest.mark.parametrize("game", [g for g in games.GAMES if g.has_sessions], ids=lambda g: g.name)
def test_every_rule_of_every_bundled_ruleset_has_a_few_words(game: games.GameInfo) -> None:
    """A house rule is said in the game's words on a 40-column line, each value short."""
    said = games.module(game.name, "words").HOUSE_WORDS
    for name in game.rulesets:
        table = storage.load_ruleset(name)
        for key, value in table.items():
            if key in ("game", "name", "description"):
                continue
            assert key in said, key
            assert 0 < len(said[key](value)) <= 24, (key, said[key](value))


def test_rules_show_says_each_rule_in_words_before_the_file(referee: Runner) -> None:
    shown = referee("rules", "show", "perudo").out
    assert " ".join(shown.split()).startswith(
        "perudo (liars) in words: 5 dice each, play goes right,"
    )
    said = " ".join(shown.split("\n#")[0].split())  # the words, before the file's comments
    assert "palifico once each" not in said and "palifico each time" in said
    assert 'bidding_rule = "perudo"' in shown  # and the file as written
