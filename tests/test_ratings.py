"""Ratings for every game (RULES 8, issue 37): OpenSkill's Plackett-Luce from finished sessions'
places, one pool per game and Perudo apart; each session once, in the order they finished;
provisional under 3 games; and `sessions` naming a copy by the rule stats and ratings use."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES, Runner
from test_trust import one_line


def at(monkeypatch: pytest.MonkeyPatch, minute: int, second: str = "00") -> None:
    monkeypatch.setenv("REFEREE_CLOCK", f"2026-11-29T21:{minute:02d}:{second}+00:00")


def mia(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, name: str, order: tuple[str, ...],
    minute: int = 0, second: str = "00",
) -> None:  # fmt: skip
    """A Mia session that ends with `order` as its places: the others leave, last first."""
    at(monkeypatch, minute, second)
    assert referee("new", "mia", *order, "--name", name).code == 0
    for who in reversed(order[1:]):
        assert referee("leave", who, "-s", name).code == 0


def library(*places: tuple[str, ...]) -> dict[str, Any]:
    """OpenSkill's Plackett-Luce called directly over sessions with these places in turn."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    now: dict[str, Any] = {}
    for order in places:
        teams = [[now.get(name) or model.rating()] for name in order]
        after = model.rate(teams, ranks=list(range(1, len(order) + 1)))
        for name, (rating,) in zip(order, after, strict=True):
            now[name] = rating
    return now


def shown(rating: Any) -> int:
    return round(float(rating.mu) - 3 * float(rating.sigma))


def doc(referee: Runner) -> dict[str, Any]:
    result = referee("ratings", "--json")
    assert result.code == 0, result
    found: dict[str, Any] = json.loads(result.out)["games"]
    return found


def table(referee: Runner, pool: str = "mia") -> dict[str, tuple[int, int, int]]:
    return {p["name"]: (p["rating"], p["games"], p["wins"]) for p in doc(referee)[pool]["players"]}


def test_the_figures_are_openskills_plackett_luce_called_directly(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openskill.models import PlackettLuce

    mia(referee, monkeypatch, "m1", ("Ann", "Bob", "Cy"), 1)
    mia(referee, monkeypatch, "m2", ("Cy", "Ann", "Bob"), 2)
    model = PlackettLuce()  # by hand, the library's own calls: no helper of ours in between
    ann, bob, cy = model.rating(), model.rating(), model.rating()
    [[ann], [bob], [cy]] = model.rate([[ann], [bob], [cy]], ranks=[1, 2, 3])
    [[cy], [ann], [bob]] = model.rate([[cy], [ann], [bob]], ranks=[1, 2, 3])
    players = {p["name"]: p for p in doc(referee)["mia"]["players"]}
    for name, rating in (("Ann", ann), ("Bob", bob), ("Cy", cy)):
        assert players[name]["mu"] == round(rating.mu, 4)
        assert players[name]["sigma"] == round(rating.sigma, 4)
        assert players[name]["rating"] == shown(rating)
    by_library = sorted([("Ann", ann), ("Bob", bob), ("Cy", cy)], key=lambda p: -shown(p[1]))
    assert [p["name"] for p in doc(referee)["mia"]["players"]] == [n for n, _ in by_library]
    assert players["Cy"]["wins"] == 1 and players["Ann"]["games"] == 2


def test_the_table_at_40_columns_marks_provisional_ratings_until_three_games(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    for k in range(2):
        mia(referee, monkeypatch, f"m{k}", ("Ann", "Bob"), k)
    now = library(("Ann", "Bob"), ("Ann", "Bob"))
    assert referee("ratings").out == (
        "Mia                  rating games  won\n"
        f"Ann                  {shown(now['Ann']):>5}?     2    2\n"
        f"Bob                  {shown(now['Bob']):>5}?     2    0\n"
        "\n"
        "? provisional: fewer than 3 games\n"
    )
    mia(referee, monkeypatch, "m2", ("Ann", "Bob", "Cy"), 2)
    lines = referee("ratings").out.splitlines()
    assert lines[1].startswith("Ann") and lines[1].endswith("      3    3")  # no ? at 3 games
    assert lines[-1] == "? provisional: fewer than 3 games"  # Bob and Cy still are


def test_every_game_is_a_pool_of_its_own_and_perudo_is_apart(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "sessions").mkdir(parents=True, exist_ok=True)
    for example in EXAMPLES.glob("*.toml"):
        shutil.copy(example, home / "sessions" / example.name)
    found = doc(referee)
    assert set(found) == {"kariki", "liars", "perudo", "kiriki", "kalooki", "mia"}
    assert {p["name"] for p in found["perudo"]["players"]} == {"Ana", "Beto", "Carla", "Dani"}
    assert "Ana" not in {p["name"] for p in found["liars"]["players"]}
    assert found["kiriki"]["rating"] == "KR" and found["mia"]["rating"] == "openskill"
    only = json.loads(referee("ratings", "--game", "perudo", "--json").out)["games"]
    assert list(only) == ["perudo"]
    text = referee("ratings", "--game", "PERUDO").out
    assert text.splitlines()[0].startswith("Perudo") and "Liar" not in text
    wide = referee("ratings").out.splitlines()
    assert max(map(len, wide)) <= 40
    assert [line.split()[0] for line in wide if line and line.endswith("won")] == [
        "Kariki", "Liar's", "Perudo", "Kalooki", "Mia"]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", ""], "unknown game"),
        (["--gmae", "mia"], "No such option"),
    ],
)
def test_a_bad_game_is_one_line(referee: Runner, args: list[str], said: str) -> None:
    one_line(referee("ratings", *args), 2, said)


def test_no_rated_session_says_so(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, 0)
    referee("new", "mia", "Ann", "Bob", "--name", "open")  # not finished: rates nobody
    assert referee("ratings").out == (
        "no finished sessions to rate yet;\nratings come from finished sessions\n"
    )
    assert referee("ratings", "--game", "mia").out.startswith("no finished Mia sessions")
    assert doc(referee) == {}


def test_ann_and_ann_are_one_player_by_the_spelling_of_the_latest(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    mia(referee, monkeypatch, "m1", ("Ann", "Bob"), 1)
    mia(referee, monkeypatch, "m2", ("ANN", "bob"), 2)
    assert table(referee) == {"ANN": (table(referee)["ANN"][0], 2, 2), "bob": (
        table(referee)["bob"][0], 2, 0)}  # fmt: skip


def test_a_copy_counts_once_however_it_came(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An import --as-copy, a sync-conflict copy taken before the end (fewer events, not
    finished) and a hand copy: ratings, stats and `sessions` all keep the finished original."""
    mia(referee, monkeypatch, "m1", ("Ann", "Bob"), 1)
    at(monkeypatch, 2)
    assert referee("new", "mia", "Ann", "Bob", "Cy", "--name", "m2").code == 0
    assert referee("leave", "Cy", "-s", "m2").code == 0
    sessions = home / "sessions"
    shutil.copy(sessions / "m2.toml", sessions / "a-conflict.toml")  # sorts first, unfinished
    assert referee("leave", "Bob", "-s", "m2").code == 0
    before = (doc(referee), json.loads(referee("stats", "--json").out)["sessions"])
    assert before[1] == 2
    dump = tmp_path / "m1.json"
    assert referee("export", "-f", "json", "-s", "m1", "-o", str(dump)).code == 0
    assert referee("import", str(dump), "--as-copy", "--name", "0-restored").code == 0
    shutil.copy(sessions / "m1.toml", sessions / "00.toml")
    after = (doc(referee), json.loads(referee("stats", "--json").out)["sessions"])
    assert after == before
    rows = {r["name"]: r for r in json.loads(referee("sessions", "--json").out)}
    assert rows["a-conflict"]["copy_of"] == "m2"
    assert rows["0-restored"]["copy_of"] == "m1" and rows["00"]["copy_of"] == "m1"
    assert "copy_of" not in rows["m1"] and "copy_of" not in rows["m2"]
    shown = referee("sessions").out
    assert "    a copy of m2: counted once" in shown.splitlines()


def test_undo_and_redo_at_the_end_never_move_a_rating(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    mia(referee, monkeypatch, "m1", ("Ann", "Bob", "Cy"), 1)
    mia(referee, monkeypatch, "m2", ("Bob", "Cy", "Ann"), 2)
    before = doc(referee)
    at(monkeypatch, 30)  # the undo and the redo come much later: the finish stays put
    assert referee("undo", "-s", "m1").code == 0
    assert doc(referee) != before  # m1 is not finished while its last event is undone
    assert referee("redo", "-s", "m1").code == 0
    assert doc(referee) == before


def test_sessions_ending_within_one_second_are_rated_in_the_order_they_ended(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Times are kept to the millisecond: a session that ended 0.3 s after another is rated
    after it, whatever their random ids."""
    for k in range(6):
        name = f"s{k}"
        mia(referee, monkeypatch, name, ("Ann", "Bob") if k % 2 else ("Bob", "Ann"), 5,
            f"00.{900 - 100 * k:03d}")  # fmt: skip
    rated = [s["session"] for s in doc(referee)["mia"]["sessions"]]
    assert rated == ["s5", "s4", "s3", "s2", "s1", "s0"]


def test_history_lists_each_session_and_what_it_moved_at_40_columns(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    mia(referee, monkeypatch, "m1", ("Ann", "Bob"), 1)
    mia(referee, monkeypatch, "m2", ("Bob", "Ann"), 2)
    first, second = library(("Ann", "Bob")), library(("Ann", "Bob"), ("Bob", "Ann"))
    a1, b1, a2, b2 = (shown(first["Ann"]), shown(first["Bob"]),
                      shown(second["Ann"]), shown(second["Bob"]))  # fmt: skip
    assert referee("ratings", "--history").out == (
        "Mia\n"
        "2026-11-29 m1\n"
        f"  1 Ann                  {a1:>5} ({a1:+d})\n"
        f"  2 Bob                  {b1:>5} ({b1:+d})\n"
        "2026-11-29 m2\n"
        f"  1 Bob                  {b2:>5} ({b2 - b1:+d})\n"
        f"  2 Ann                  {a2:>5} ({a2 - a1:+d})\n"
    )
    assert {a1 > 0 > b1, b2 > b1, a2 < a1} == {True}  # the winner goes up, the loser down


def test_a_long_pool_shows_five_and_says_how_to_see_the_rest(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    names = tuple(f"Player{k}" for k in range(7))
    mia(referee, monkeypatch, "m1", names, 1)
    shutil.copy(EXAMPLES / "kalooki-game.toml", home / "sessions" / "k.toml")
    lines = referee("ratings").out.splitlines()
    mia_lines = lines[lines.index(next(x for x in lines if x.startswith("Mia"))) :]
    assert mia_lines[6] == "  +2 more: ratings --game mia"
    assert len(referee("ratings", "--game", "mia").out.splitlines()) == 1 + 7 + 2


def planted(home: Path, name: str, example: str, ident: str, swap: dict[str, str] = {}) -> None:  # noqa: B006
    """A bundled example saved as `name` with the id `ident`, its names swapped by `swap`."""
    text = (EXAMPLES / f"{example}.toml").read_text(encoding="utf-8")
    for old, new in swap.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    text = text.replace("schema = 1\n", f'schema = 1\nid = "{ident}"\n', 1)
    (home / "sessions").mkdir(parents=True, exist_ok=True)
    (home / "sessions" / f"{name}.toml").write_text(text, encoding="utf-8")


def test_sessions_names_as_the_copy_the_file_ratings_leave_out(referee: Runner, home: Path) -> None:
    """Found by attack: `sessions` ranked the files holding one session its own way; it now
    asks the rule ratings count by. A copy cut short (a sync conflict taken mid-game) sorts
    first by name, by its save time and by its events' times: it is still the copy."""
    planted(home, "zz-finished", "mia-night", "a" * 32)
    text = (home / "sessions" / "zz-finished.toml").read_text(encoding="utf-8")
    head, _, rest = text.partition("events = [\n")
    events = rest.split("\n")
    cut = "\n".join(events[:10] + [line for line in events if not line.startswith("    {")])
    (home / "sessions" / "a-conflict.toml").write_text(head + "events = [\n" + cut)
    rows = {r["name"]: r for r in json.loads(referee("sessions", "--json").out)}
    assert rows["a-conflict"]["copy_of"] == "zz-finished" and "copy_of" not in rows["zz-finished"]
    assert [s["session"] for s in doc(referee)["mia"]["sessions"]] == ["mia-night"]
    assert json.loads(referee("stats", "--json").out)["sessions"] == 1


def test_a_session_of_another_game_with_the_same_id_is_no_copy(referee: Runner, home: Path) -> None:
    planted(home, "mia", "mia-night", "c" * 32)
    planted(home, "kal", "kalooki-game", "c" * 32)
    assert {"mia", "kalooki"} <= set(doc(referee))
    assert json.loads(referee("stats", "--json").out)["sessions"] == 2
    assert not any("copy_of" in r for r in json.loads(referee("sessions", "--json").out))


@pytest.mark.parametrize(
    "spelling", ["\u00c1nn", "A\u0301nn", "\u00e1NN"], ids=["one-letter", "accent", "case"]
)
def test_one_player_however_unicode_spells_him(referee: Runner, home: Path, spelling: str) -> None:
    planted(home, "one", "mia-night", "d" * 32, {"Ann": "\u00c1nn"})
    planted(home, "two", "mia-night", "e" * 32, {"Ann": spelling})
    found = [p for p in doc(referee)["mia"]["players"] if p["name"].casefold() != "bob"]
    assert len(found) == 4 and all(p["games"] == 2 for p in found)  # one Ánn, twice
