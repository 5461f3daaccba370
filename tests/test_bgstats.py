"""A finished session as a BG Stats play (issue 37): the JSON its import takes, field by field
and type by type, for every bundled example; its push link; and what is refused."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from conftest import EXAMPLES, Example, Runner, examples, examples_of
from referee import bgstats, history, storage
from referee.errors import RuleViolation
from referee.games import GameInfo

DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
TOP = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
       "ignored": bool, "manualWinner": bool, "usesTeams": bool, "comments": str,
       "game": dict, "players": list}  # fmt: skip
GAME = {"name": str, "sourceGameId": str, "highestWins": bool, "noPoints": bool}
PLAYER = {"name": str, "sourcePlayerId": str, "winner": bool, "rank": int, "startPlayer": bool}


def exact(value: object, kind: type) -> bool:
    """`value` is of `kind` as JSON has it: true is no number, 1 is no text."""
    return type(value) is kind


def check_play(doc: dict[str, Any]) -> None:
    """Every field BG Stats reads, present and of its type."""
    assert set(TOP) <= set(doc), set(TOP) - set(doc)
    for key, kind in TOP.items():
        assert exact(doc[key], kind), (key, doc[key])
    assert doc["sourceName"] == "referee" and doc["sourcePlayId"]
    assert DATE.match(doc["playDate"]), doc["playDate"]
    assert doc["durationMin"] >= 0
    game = doc["game"]
    for key, kind in GAME.items():
        assert exact(game[key], kind), (key, game)
    assert game["sourceGameId"].startswith("referee:")
    assert "bggId" not in game or exact(game["bggId"], int)
    players = doc["players"]
    assert players and len({p["sourcePlayerId"] for p in players}) == len(players)
    for player in players:
        for key, kind in PLAYER.items():
            assert exact(player[key], kind), (key, player)
        assert "score" in player
        if game["noPoints"]:
            assert player["score"] == ""
        else:
            assert exact(player["score"], int)
        assert player["rank"] >= 1 and player["winner"] == (player["rank"] == 1)
    assert sum(p["startPlayer"] for p in players) <= 1
    assert any(p["winner"] for p in players)


def bgstats_of(referee: Runner, *args: str) -> dict[str, Any]:
    result = referee("export", "--format", "bgstats", *args)
    assert result.code == 0 and result.err == "", result.err
    found: dict[str, Any] = json.loads(result.out)
    return found


def link_data(link: str) -> Any:
    assert link.startswith(bgstats.LINK)
    data = link[len(bgstats.LINK) :]
    assert re.fullmatch(r"[A-Za-z0-9_.~%-]*", data), "every other character is encoded"
    return json.loads(unquote(data, errors="strict"))


# ---------------------------------------------------------------------------- every example


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.path.stem)
def test_every_finished_example_is_a_valid_play(referee: Runner, example: Example) -> None:
    summary = history.summarise(storage.load(example.path).session)
    if not summary.decided:  # an example still playing is refused, as any session
        assert referee("export", "-f", "bgstats", "-s", str(example.path)).code == 1
        return
    doc = bgstats_of(referee, "-s", str(example.path))
    check_play(doc)
    assert doc["sourcePlayId"] == summary.id
    assert doc["playDate"] == bgstats.play_date(summary.began or summary.created)
    places = history.places(summary)
    assert {p["name"]: p["rank"] for p in doc["players"]} == places
    assert [p["name"] for p in doc["players"] if p["winner"]] == [
        n for n in summary.at_table if n in summary.winners
    ]
    assert sum(p["startPlayer"] for p in doc["players"]) == 1  # each example has a first move


@pytest.mark.parametrize(
    ("stem", "name", "game_id", "highest", "no_points", "bgg"),
    [
        pytest.param("perudo-night", "Perudo", "referee:perudo", True, True, 45, id="perudo"),
        pytest.param("liars-dice-night", "Liar's Dice", "referee:liars", True, True, 45,
                     id="liars"),
        pytest.param("kariki-night", "Kariki", "referee:kariki", True, True, None, id="kariki"),
        pytest.param("kiriki-bullet", "Kiriki", "referee:kiriki", True, False, None, id="kiriki"),
        pytest.param("kalooki-game", "Kalooki", "referee:kalooki", False, False, None,
                     id="kalooki"),
        pytest.param("mia-night", "Mia", "referee:mia", True, True, None, id="mia"),
    ],
)  # fmt: skip
def test_each_game_as_bg_stats_knows_it(
    referee: Runner,
    stem: str,
    name: str,
    game_id: str,
    highest: bool,
    no_points: bool,
    bgg: int | None,
) -> None:
    game = bgstats_of(referee, "-s", str(EXAMPLES / f"{stem}.toml"))["game"]
    assert game["name"] == name and game["sourceGameId"] == game_id
    assert game["highestWins"] is highest and game["noPoints"] is no_points
    assert game.get("bggId") == bgg
    if bgg is not None:
        assert type(game["bggId"]) is int


def test_points_are_numbers_where_the_game_has_them(referee: Runner) -> None:
    [kalooki] = examples_of("kalooki")
    players = bgstats_of(referee, "-s", str(kalooki.path))["players"]
    # Kalooki: the penalty total, lowest wins
    assert {p["name"]: p["score"] for p in players} == {"Ann": 321, "Bob": 312, "Cy": 288,
                                                        "Dee": 341}  # fmt: skip
    assert [p["name"] for p in players if p["winner"]] == ["Cy"]
    bullet = next(e for e in examples_of("kiriki") if e.path.stem == "kiriki-bullet")
    players = bgstats_of(referee, "-s", str(bullet.path))["players"]
    assert {p["name"]: p["score"] for p in players} == {"Ann": 3, "Bob": 1}
    # Bob acted first: the roll-off names nobody and gave him the first claim
    assert [p["name"] for p in players if p["startPlayer"]] == ["Bob"]


# ---------------------------------------------------------------------------- places


def made_up(standings: str, **changes: Any) -> history.Summary:
    order = standings.split()
    made = history.Summary(
        id="abc", name="friday", game="kariki", ruleset="kariki", players=list(order),
        finished=True, winners=order[:1], standings=order,
        created="2026-11-29T21:04:00+00:00", updated="2026-11-29T23:00:00+00:00",
    )  # fmt: skip
    return replace(made, **changes)


def test_shared_places_share_a_rank() -> None:
    two_out_at_once = made_up("Ann Bob Cy Dee", shared=[1, 2, 2, 4])
    found = bgstats.play(two_out_at_once, scores={})
    assert [(p["name"], p["rank"], p["winner"]) for p in found["players"]] == [
        ("Ann", 1, True), ("Bob", 2, False), ("Cy", 2, False), ("Dee", 4, False)]  # fmt: skip
    shared_win = made_up("Ann Bob Cy", winners=["Ann", "Bob"])
    found = bgstats.play(shared_win, scores={})
    assert [(p["rank"], p["winner"]) for p in found["players"]] == [
        (1, True), (1, True), (3, False)]  # fmt: skip
    check_play(found)


def test_times_play_date_in_utc_and_whole_minutes() -> None:
    timed = made_up("Ann Bob", began="2026-11-29T22:04:10.500+01:00",
                    ended="2026-11-29T23:10:05.000+01:00")  # fmt: skip
    found = bgstats.play(timed, scores={})
    assert found["playDate"] == "2026-11-29 21:04:10" and found["durationMin"] == 66
    assert bgstats.play(made_up("Ann Bob"), scores={})["durationMin"] == 0


# ---------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    "summary",
    [
        pytest.param(made_up("Ann Bob", finished=False, winners=[]), id="playing"),
        pytest.param(made_up("Ann Bob", provisional=True), id="provisional"),
    ],
)
def test_a_session_without_a_decided_result_is_no_play(summary: history.Summary) -> None:
    with pytest.raises(RuleViolation, match="finish it first"):
        bgstats.play(summary, scores={})


@pytest.mark.parametrize("more", [(), ("--link",)], ids=["json", "link"])
def test_an_unfinished_session_is_refused_and_nothing_written(
    referee: Runner, tmp_path: Path, more: tuple[str, ...]
) -> None:
    referee("new", "mia", "Ann", "Bob", "--name", "friday")
    out = tmp_path / "play.json"
    result = referee("export", "-f", "bgstats", *more, "-o", str(out))
    assert result.code == 1 and result.out == ""
    assert len(result.err.splitlines()) == 1 and "not finished" in result.err
    assert not out.exists()


def test_a_provisional_kariki_win_is_refused(referee: Runner, home: Path, tmp_path: Path) -> None:
    [kariki] = examples_of("kariki")
    (home / "sessions").mkdir(parents=True)
    shutil.copy(kariki.path, home / "sessions" / "friday.toml")
    assert referee("use", "friday").code == 0
    assert referee("undo").code == 0  # the settle: Bob's buy-back is on offer again
    out = tmp_path / "play.json"
    result = referee("export", "-f", "bgstats", "-o", str(out))
    assert result.code == 1 and "still provisional" in result.err
    assert len(result.err.splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize("fmt", ["csv", "json", "md", "sqlite"])
def test_link_goes_with_bgstats_only(referee: Runner, tmp_path: Path, fmt: str) -> None:
    [mia] = examples_of("mia")
    out = tmp_path / "out"
    result = referee("export", "--format", fmt, "--link", "-o", str(out), "-s", str(mia.path))
    assert result.code == 2 and result.out == ""
    assert result.err.strip() == "error: --link goes with --format bgstats"
    assert not out.exists()


# ---------------------------------------------------------------------------- the link


def test_the_link_decodes_to_the_same_play(referee: Runner, tmp_path: Path) -> None:
    for example in examples():
        where = ("-s", str(example.path))
        doc = bgstats_of(referee, *where)
        shown = referee("export", "-f", "bgstats", "--link", *where)
        assert shown.code == 0 and shown.out.count("\n") == 1
        assert link_data(shown.out.strip()) == doc
        out = tmp_path / f"{example.path.stem}.txt"
        assert referee("export", "-f", "bgstats", "--link", "-o", str(out), *where).code == 0
        assert out.read_text(encoding="utf-8") == shown.out


def test_a_file_holds_the_same_json(referee: Runner, tmp_path: Path) -> None:
    [perudo] = [e for e in examples() if e.path.stem == "perudo-night"]
    out = tmp_path / "play.json"
    result = referee("export", "-f", "bgstats", "-o", str(out), "-s", str(perudo.path))
    assert result.code == 0 and result.out == f"exported to {out}\n"
    assert json.loads(out.read_text(encoding="utf-8")) == bgstats_of(
        referee, "-s", str(perudo.path)
    )


# ---------------------------------------------------------------------------- names, times


def play_again(
    referee: Runner,
    example: Example,
    names: dict[str, str],
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> None:
    """Play a bundled example again as `friday`, each player renamed by `names`; with
    `monkeypatch`, one minute passes before each event (from 21:04 UTC)."""

    def renamed(token: str) -> str:
        name, sep, nick = token.partition("=")
        return names.get(name, name) + sep + nick

    assert referee(*map(renamed, example.new), "--name", "friday").code == 0
    for k, command in enumerate(example.commands, 1):
        if monkeypatch is not None:
            hour, minute = divmod(21 * 60 + 4 + k, 60)
            monkeypatch.setenv("REFEREE_CLOCK", f"2026-11-29T{hour:02d}:{minute:02d}:00+00:00")
        assert referee(*map(renamed, command)).code == 0, command


# quotes, accents, wide characters, markup, a backslash, URL characters (no `=`: at `new`, it
# gives a nickname)
HOSTILE = {"Ann": 'Zoë "Z" O\'Brien', "Bob": "李小龍", "Cy": "x</script>&amp;",
           "Dee": "back\\slash", "Eve": "%41+&?#"}  # fmt: skip


def test_hostile_names_round_trip(referee: Runner) -> None:
    [mia] = examples_of("mia")
    play_again(referee, mia, HOSTILE)
    doc = bgstats_of(referee)
    check_play(doc)
    assert [p["name"] for p in doc["players"]] == list(HOSTILE.values())
    assert [p["name"] for p in doc["players"] if p["winner"]] == [HOSTILE["Bob"]]
    assert doc["players"][0]["sourcePlayerId"] == 'zoë "z" o\'brien'
    assert link_data(referee("export", "-f", "bgstats", "--link").out.strip()) == doc


@pytest.mark.parametrize("name", ["new\nline", "tab\there", '"quoted"', "emoji 🎲", "%41+&=?#"])
def test_any_name_round_trips_through_the_json_and_the_link(name: str) -> None:
    """Names the CLI refuses (control characters) still round-trip if a file holds them."""
    summary = replace(made_up("Ann Bob"), players=["Ann", name], standings=["Ann", name],
                      winners=[name])  # fmt: skip
    found = bgstats.play(summary, scores={})
    assert json.loads(bgstats.document(found)) == found
    assert link_data(bgstats.link(found)) == found
    assert [p["name"] for p in found["players"]] == ["Ann", name]


def test_play_time_in_every_export(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    bullet = next(e for e in examples_of("kiriki") if e.path.stem == "kiriki-bullet")
    play_again(referee, bullet, {}, monkeypatch)  # 19 events, 21:05 to 21:23 UTC
    doc = bgstats_of(referee)
    check_play(doc)
    assert doc["playDate"] == "2026-11-29 21:05:00" and doc["durationMin"] == 18
    played = json.loads(referee("export", "-f", "json").out)["played"]
    assert played == {
        "began": "2026-11-29T21:05:00.000+00:00",
        "ended": "2026-11-29T21:23:00.000+00:00",
        "duration_minutes": 18,
    }
    assert "Play time: 21:05-21:23 (18m)\n" in referee("export", "-f", "md").out


def test_a_session_without_times_has_no_play_time(referee: Runner) -> None:
    [perudo] = [e for e in examples() if e.path.stem == "perudo-night"]
    where = ("-s", str(perudo.path))
    played = json.loads(referee("export", "-f", "json", *where).out)["played"]
    assert played == {"began": None, "ended": None, "duration_minutes": None}
    assert "Play time" not in referee("export", "-f", "md", *where).out


def test_a_game_added_later_is_a_play_with_places_only(referee: Runner, highroll: GameInfo) -> None:
    """High roll, registered by tests alone: its title, no points, no BoardGameGeek id."""
    from test_plugin_game import play as play_highroll

    play_highroll(referee)
    doc = bgstats_of(referee)
    check_play(doc)
    assert doc["game"] == {"name": highroll.title, "sourceGameId": "referee:highroll",
                           "highestWins": True, "noPoints": True}  # fmt: skip
    assert [p["name"] for p in doc["players"] if p["winner"]] == ["Ann"]


@pytest.mark.parametrize(
    ("game", "ruleset", "name", "game_id", "bgg"),
    [
        pytest.param("liars", "perudo", "Perudo", "referee:perudo", 45, id="perudo"),
        pytest.param("liars", "liars-dice", "Liar's Dice", "referee:liars", 45, id="liars"),
        pytest.param("liars", "our-dudo", "Liar's Dice", "referee:liars", 45, id="own-ruleset"),
        pytest.param("kariki", "perudo", "Kariki", "referee:kariki", None, id="name-clash"),
    ],
)
def test_a_variant_is_its_own_game_and_a_tables_own_ruleset_its_games(
    game: str, ruleset: str, name: str, game_id: str, bgg: int | None
) -> None:
    summary = made_up("Ann Bob", game=game, ruleset=ruleset)
    found = bgstats.play(summary, scores={}, house=["calza once each"])["game"]
    assert (found["name"], found["sourceGameId"], found.get("bggId")) == (name, game_id, bgg)


def test_comments_name_the_session_its_rules_and_house_rules() -> None:
    summary = made_up("Ann Bob", game="liars", ruleset="perudo")
    found = bgstats.play(summary, scores={}, house=["calza once each", "no palifico"])
    assert found["comments"] == (
        "referee session friday, perudo rules; house rules: calza once each, no palifico"
    )
    assert bgstats.play(summary, scores={})["comments"] == "referee session friday, perudo rules"
