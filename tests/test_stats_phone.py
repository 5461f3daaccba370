"""`referee stats` on a phone (issue 37): one screen first (the leaders, the latest nights, the
totals and the commands for more, at most 24 lines of 40 columns whatever the data folder
holds), a player's page, head to head first, one player however his name is capitalised, a
count of 0 that counts, and the hours played."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from rich.cells import cell_len

from conftest import Runner
from referee import history

SCREEN = 24  # a phone's lines with its keyboard up


def at(monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """The clock every command after this one reads (UTC; the tests run in UTC)."""
    monkeypatch.setenv("REFEREE_CLOCK", f"{when}:00+00:00")


def ok(referee: Runner, *args: str) -> str:
    result = referee(*args)
    assert result.code == 0, (args, result.err)
    return result.out


def mia(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, name: str, players: list[str],
    began: str, ended: str,
) -> None:  # fmt: skip
    """A Mia game of one life each, played from `began` to `ended`: each round whoever is on
    turn announces a true 52 and the next lifts it and is out. The first player wins; the
    others go out in seat order, the second first (last place)."""
    at(monkeypatch, began)
    ok(referee, "new", "mia", *players, "--name", name, "--first", players[0], "--set", "lives=1")
    for k in range(len(players) - 1):
        ok(referee, "mia", "announce", "52")
        if k == len(players) - 2:
            at(monkeypatch, ended)
        ok(referee, "mia", "lift", "52")


@pytest.fixture
def bar(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> Runner:
    """Two bar nights of Mia: 2026-11-20 (g1 45 minutes, g2 1h30) and 2026-11-27 (g3 30
    minutes, and g4 20 minutes after midnight: the same night), 3h05 in all. Ann plays all
    four, the last as `ann`."""
    mia(referee, monkeypatch, "g1", ["Ann", "Bob", "Cy"], "2026-11-20T20:00", "2026-11-20T20:45")
    mia(referee, monkeypatch, "g2", ["Bob", "Ann"], "2026-11-20T21:00", "2026-11-20T22:30")
    mia(referee, monkeypatch, "g3", ["Cy", "Ann", "Dee"], "2026-11-27T20:00", "2026-11-27T20:30")
    mia(referee, monkeypatch, "g4", ["ann", "Bob"], "2026-11-28T01:00", "2026-11-28T01:20")
    return referee


def lines(text: str) -> list[str]:
    return text.rstrip("\n").split("\n")


def fits(text: str) -> None:
    shown = lines(text)
    assert len(shown) <= SCREEN, text
    assert max(map(cell_len, shown)) <= 40, [line for line in shown if cell_len(line) > 40]


# ---------------------------------------------------------------------------- the first screen


def test_the_first_screen_is_one_phone_screen(bar: Runner) -> None:
    text = ok(bar, "stats")
    assert lines(text) == [
        "4 sessions, 2 nights, 4 players",
        "2026-11-20 to 2026-11-28, 3h05 played",
        "",
        "leaders (wins/games):",
        "  Mia: ann 2/4, Cy 1/2, Bob 1/3",
        "",
        "latest nights:",
        "  2026-11-27 2 games: ann 1, Cy 1",
        "  2026-11-20 2 games: ann 1, Bob 1",  # as his latest session spells him
        "",
        "more:",
        "  stats --player NAME  stats --vs A B",
        "  stats --game G       stats --money",
        "  stats --all          ratings",
    ]
    fits(text)


def test_game_and_dates_filter_the_first_screen(bar: Runner) -> None:
    text = ok(bar, "stats", "--from", "2026-11-27")
    assert lines(text)[:2] == [
        "2 sessions, 1 night, 4 players",
        "2026-11-27 to 2026-11-28, 50m played",
    ]
    assert "  Mia: Cy 1/1, ann 1/2, Bob 0/1" in lines(text)
    assert lines(ok(bar, "stats", "--to", "2026-11-20"))[:2] == [
        "2 sessions, 1 night, 3 players", "2026-11-20 to 2026-11-20, 2h15 played"]  # fmt: skip
    assert ok(bar, "stats", "--game", "kiriki") == "no sessions chosen\n"


def test_the_whole_report_is_still_there_behind_all(bar: Runner) -> None:
    text = lines(ok(bar, "stats", "--all"))
    assert text[:2] == ["4 sessions, 2026-11-20 to 2026-11-28", "player       games wins rate form"]
    assert "plays per month:" in text


# ---------------------------------------------------------------------------- a player's page


def test_a_players_page(bar: Runner) -> None:
    text = ok(bar, "stats", "--player", "ANN")
    shown = lines(text)
    rating = next(line for line in shown if line.startswith("  Mia "))
    assert shown == [
        "ann: 4 games, 2 won",
        "win rate 50% of 4 finished",
        "first 2026-11-20, last 2026-11-28",
        "hours played: 3h05",
        "places: 1st 2, 2nd 1, 3rd 1",
        "streak: W1 now, best 1 win",
        "last 10: WLLW",
        "favourite: Mia, 4 games",
        "rival: Bob, 3 games together",
        "nemesis: Bob, ahead 1 time",  # Bob, Cy and Dee once each: Bob met him most
        "ratings now:",
        rating,
        "head to head: stats --vs ann Bob",
    ]
    assert rating.endswith(", 4 games")  # rated as one player: four games, not three and one
    fits(text)
    doc = json.loads(ok(bar, "stats", "--json", "--player", "ann"))
    (ann,) = doc["players"]
    assert ann["minutes"] == 185 and ann["rival"] == {"name": "Bob", "games": 3}
    assert ann["nemesis"] == {"name": "Bob", "ahead": 1}
    assert ann["favourite_game"] == {"game": "mia", "games": 4} and ann["pools"] == {"mia": 4}


def test_a_player_with_nothing_chosen_says_so(bar: Runner) -> None:
    assert ok(bar, "stats", "--player", "dee", "--to", "2026-11-20") == (
        "Dee: no sessions in the ones chosen\n"
    )


# ---------------------------------------------------------------------------- head to head


def test_head_to_head_comes_first(bar: Runner) -> None:
    assert lines(ok(bar, "stats", "--vs", "ann", "bob")) == [
        "ann v Bob",
        "  3 games together",
        "  wins: ann 2, Bob 1",
        "  ahead: ann 2, Bob 1",
        "  level (same place): 0",
    ]
    both = lines(ok(bar, "stats", "--vs", "Bob", "Cy", "--player", "Cy"))
    assert both[0] == "Bob v Cy" and both[6] == "Cy: 2 games, 1 won"
    assert lines(ok(bar, "stats", "--all", "--vs", "ann", "Bob"))[0].startswith(
        "ann v Bob: 3 games"
    )


@pytest.mark.parametrize("pair", [("Ann", "Ann"), ("ann", "ANN"), ("Bob", "bob")])
def test_one_player_twice_is_refused(bar: Runner, pair: tuple[str, str]) -> None:
    result = bar("stats", "--vs", *pair)
    assert result.code == 2 and result.out == ""
    assert result.err.count("\n") == 1 and "twice: give two players (--vs Ann Bob)" in result.err
    assert f"'{pair[0]}' '{pair[1]}'" in result.err


# ---------------------------------------------------------------------------- one player


def test_ann_and_ann_are_one_player_everywhere(bar: Runner) -> None:
    doc = json.loads(ok(bar, "stats", "--json"))
    assert [p["name"] for p in doc["players"]] == ["ann", "Cy", "Bob", "Dee"]
    assert [r["name"] for r in doc["leaderboards"]["mia"]] == ["ann", "Cy", "Bob", "Dee"]
    assert list(doc["games"]["mia"]) == ["Bob", "Cy", "Dee", "ann"]  # by name as shown
    assert doc["bar_nights"][0]["winners"] == {"Cy": 1, "ann": 1}
    assert json.loads(ok(bar, "stats", "--json", "--player", "Ann"))["sessions"] == 4
    listed = json.loads(ok(bar, "sessions", "--json", "--player", "ANN"))  # sessions alike
    assert sorted(r["name"] for r in listed) == ["g1", "g2", "g3", "g4"]
    versus = json.loads(ok(bar, "stats", "--json", "--vs", "ANN", "bob"))["versus"]
    assert versus == {"players": ["ann", "Bob"], "games": 3, "wins": {"ann": 2, "Bob": 1},
                      "ahead": {"ann": 2, "Bob": 1}, "level": 0}  # fmt: skip


def summary(ident: str, standings: str, **changes: Any) -> history.Summary:
    """A made-up decided session, `standings` best first (the first wins)."""
    order = standings.split()
    made = history.Summary(
        id=ident, name=f"s{ident}", game="kiriki", ruleset="kiriki", players=order,
        finished=True, winners=order[:1], standings=order,
        created="2026-11-01T20:00:00+00:00", updated="2026-11-01T21:00:00+00:00",
    )  # fmt: skip
    return replace(made, **changes)


def test_names_are_one_player_in_money_and_tallies() -> None:
    made = [
        summary("1", "Ann Bob", game="mia", ruleset="mia",
                tally={"Ann": {"paid": 100, "won": 200}, "Bob": {"paid": 100}}),
        summary("2", "bob ann", game="mia", ruleset="mia", created="2026-11-02T20:00:00+00:00",
                tally={"ann": {"paid": 100}, "bob": {"paid": 100, "won": 200}}),
    ]  # fmt: skip
    doc = history.stats(made, history.Filters(player="ANN"))
    assert doc["money"]["totals"] == {"ann": {"paid": 200, "won": 200, "net": 0}}
    assert list(doc["games"]["mia"]) == ["ann"] and doc["players"][0]["games"] == 2
    assert doc["games"]["mia"]["ann"]["paid"]["total"] == 200


# ---------------------------------------------------------------------------- zero counts


def test_a_count_of_zero_is_the_lowest() -> None:
    """Bob's fewest Kirikis in a match: 0, in the match he showed none (his tally has no
    `kirikis` then), not 1."""
    made = [
        summary("1", "Bob Ann", tally={"Bob": {"kirikis": 1, "points won": 3}}),
        summary("2", "Ann Bob", tally={"Ann": {"kirikis": 2}, "Bob": {"points won": 1}}),
        summary("3", "Bob Ann", finished=False, tally={"Bob": {"points won": 1}}),
    ]
    kirikis = history.stats(made)["games"]["kiriki"]["Bob"]["kirikis"]
    assert kirikis == {"total": 1, "per_game": 0.33, "lowest": 0, "highest": 1}
    # a match still on the table counts no 0 yet (nor do the money keys of a game without any)
    assert history.stats(made[:1] + made[2:])["games"]["kiriki"]["Bob"]["kirikis"]["lowest"] == 1


def test_a_count_of_zero_is_the_lowest_through_the_cli(bar: Runner) -> None:
    # ann lost no lift in g1 (she won it) nor in g4: her fewest lifts lost is 0
    lost = json.loads(ok(bar, "stats", "--json"))["games"]["mia"]["ann"]["lifts lost"]
    assert lost["lowest"] == 0 and lost["highest"] == 1 and lost["total"] == 2


# ---------------------------------------------------------------------------- hours


def test_hours_played(bar: Runner) -> None:
    doc = json.loads(ok(bar, "stats", "--json"))
    assert doc["minutes"] == 185
    assert {p["name"]: p["minutes"] for p in doc["players"]} == {
        "ann": 185, "Bob": 45 + 90 + 20, "Cy": 45 + 30, "Dee": 30}  # fmt: skip
    assert [n["minutes"] for n in doc["bar_nights"]] == [50, 135]
    # a session without times counts 0
    assert history.stats([summary("1", "Ann Bob")])["players"][0]["minutes"] == 0


# ---------------------------------------------------------------------------- any data folder

LONG = [f"Konstantinos-Papadopoulos-{k:02d}" for k in range(24)] + [
    "王小明王小明王小明王小明", "Ann", "ann", "Bob", "Alexandra-Louise", "Z"]  # fmt: skip
KINDS = [("kariki", "kariki"), ("liars", "liars-dice"), ("liars", "perudo"), ("kiriki", "kiriki"),
         ("kalooki", "kalooki"), ("mia", "mia")]  # fmt: skip


def big_folder() -> list[history.Summary]:
    """200 sessions of every pool over 100 nights, 30 players (long names, wide letters, Ann
    and ann), each an hour or so, most decided, some with money."""
    start = datetime(2026, 1, 2, 20, tzinfo=UTC)
    made = []
    for k in range(200):
        game, ruleset = KINDS[k % len(KINDS)]
        seats = 2 if game == "kiriki" else 3 + k % 6
        order = [LONG[(k * 7 + j * 11) % len(LONG)] for j in range(seats)]
        order = list(dict.fromkeys(order))
        began = start + timedelta(days=k // 2, hours=k % 2, minutes=k % 7)
        ended = began + timedelta(minutes=35 + k % 50)
        money = {n: {"paid": 150, **({"won": 150 * len(order)} if j == 0 else {})}
                 for j, n in enumerate(order)} if k % 5 == 0 else {}  # fmt: skip
        made.append(summary(
            str(k), " ".join(order), game=game, ruleset=ruleset, finished=k % 9 != 0,
            winners=order[:1] if k % 9 else [], created=began.isoformat(),
            updated=ended.isoformat(), began=history.utc(began.isoformat()),
            ended=history.utc(ended.isoformat()), tally=money,
        ))  # fmt: skip
    return made


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="first screen"),
        pytest.param(["--game", "liars"], id="a game"),
        pytest.param(["--from", "2026-03-01", "--to", "2026-03-31"], id="a month"),
        pytest.param(["--player", LONG[0]], id="a long name"),
        pytest.param(["--player", LONG[24]], id="wide letters"),
        pytest.param(["--player", "ANN"], id="ann"),
        pytest.param(["--vs", LONG[1], LONG[24]], id="head to head"),
    ],
)
def test_any_data_folder_fits_one_screen(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    made = big_folder()
    monkeypatch.setattr("referee.cli.history.every_summary", lambda ctx: made)
    text = ok(referee, "stats", *args)
    fits(text)
    if not args:
        shown = lines(text)
        assert shown[0] == "200 sessions, 100 nights, 29 players"  # Ann and ann: one
        assert len([line for line in shown if line.startswith("  20")]) == 3  # the latest 3
        assert shown[-4:] == ["more:", "  stats --player NAME  stats --vs A B",
                              "  stats --game G       stats --money",
                              "  stats --all          ratings"]  # fmt: skip
