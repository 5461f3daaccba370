"""KR (RULES.md 3, issue 20): matches rated in the order they ended, each once, Ann = ann; the
history, head to head, the JSON document, the KR change at the end of a match, and rematch."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import Runner, snapshot
from referee import storage
from referee.games.kiriki import engine as kr

README = Path(__file__).parents[1] / "README.md"


def clock(monkeypatch: pytest.MonkeyPatch, hour: int, minute: int = 0) -> None:
    monkeypatch.setenv("REFEREE_CLOCK", f"2026-11-29T{hour:02d}:{minute:02d}:00+00:00")


def ranked(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    players: tuple[str, str],
    loser: str,
    hour: int,
) -> None:
    """A ranked match created at `hour`:00, a claim at :10, ended by a resignation at :20."""
    clock(monkeypatch, hour)
    a, b = players
    assert referee("new", "kiriki", a, b, "--first", a, "--name", name, "--ranked").code == 0
    clock(monkeypatch, hour, 10)
    assert referee("kr", "claim", "9", "-s", name).code == 0
    clock(monkeypatch, hour, 20)
    assert referee("kr", "resign", loser, "-s", name).code == 0


def three_matches(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann beats Bob, Bob beats Cy, Cy beats Ann: each order of these gives other KRs."""
    ranked(referee, monkeypatch, "m1", ("Ann", "Bob"), "Bob", 10)
    ranked(referee, monkeypatch, "m2", ("Bob", "Cy"), "Cy", 11)
    ranked(referee, monkeypatch, "m3", ("Cy", "Ann"), "Ann", 12)


def kr_doc(referee: Runner) -> dict[str, Any]:
    result = referee("ratings", "--json")
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)["games"]["kiriki"]  # KR's part
    return doc


def kr_of(doc: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["kr"] for p in doc["players"]}


def test_the_order_of_matches_changes_kr() -> None:
    # The guard for the tests below: were the three matches replayed in another order (as the
    # old code did after a save), the ratings would differ.
    def match(at: str, winner: str, loser: str) -> kr.RatedMatch:
        return kr.RatedMatch(at, "c", at, "m", winner, loser, (0, 0), 32, 1500)

    ended = [match("1", "Ann", "Bob"), match("2", "Bob", "Cy"), match("3", "Cy", "Ann")]
    moved = [match("4", "Ann", "Bob"), *ended[1:]]
    assert kr.ratings(kr.kr_history(ended)) != kr.ratings(kr.kr_history(moved))


# ------------------------------------------------------------------ the order


def test_kr_follows_the_time_each_match_ended(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_matches(referee, monkeypatch)
    doc = kr_doc(referee)
    assert [m["session"] for m in doc["matches"]] == ["m1", "m2", "m3"]
    assert [m["finished"] for m in doc["matches"]] == [
        "2026-11-29T10:20:00+00:00",
        "2026-11-29T11:20:00+00:00",
        "2026-11-29T12:20:00+00:00",
    ]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param([["undo", "-s", "m1"], ["undo", "-s", "m1"], ["redo", "-s", "m1"],
                      ["redo", "-s", "m1"]], id="undo-redo-of-a-non-final-event"),
        pytest.param([["rename", "m1", "first"]], id="rename"),
        pytest.param([["export", "-f", "json", "-s", "m1", "-o", "{tmp}/m1.json"],
                      ["import", "{tmp}/m1.json", "--name", "again"]], id="export-import"),
        pytest.param([["use", "m1"]], id="use"),
    ],
)  # fmt: skip
def test_kr_never_moves_without_a_result(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, change: list[list[str]]
) -> None:
    three_matches(referee, monkeypatch)
    before = kr_doc(referee)
    clock(monkeypatch, 13)  # every save from here is later than every match's end
    for args in change:
        result = referee(*[a.replace("{tmp}", str(tmp_path)) for a in args])
        if args[0] == "import":  # the match is here already (its id): refused (issue 18)
            assert result.code == 2 and "already here as m1" in result.err, result
            continue
        assert result.code == 0, result
    after = kr_doc(referee)
    assert after["players"] == before["players"]
    assert after["head_to_head"] == before["head_to_head"]
    assert [m["id"] for m in after["matches"]] == [m["id"] for m in before["matches"]]


def test_touching_a_file_changes_nothing(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    three_matches(referee, monkeypatch)
    before = kr_doc(referee)
    os.utime(home / "sessions" / "m1.toml", (2_000_000_000, 2_000_000_000))
    assert kr_doc(referee) == before


def test_a_tie_in_time_goes_to_the_earlier_session_then_the_id(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both end at the same second: the one created first counts first, whatever its name.
    clock(monkeypatch, 9)
    referee("new", "kiriki", "Cy", "Ann", "--first", "Cy", "--name", "zz-early", "--ranked")
    clock(monkeypatch, 10)
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "aa-late", "--ranked")
    clock(monkeypatch, 11)
    referee("kr", "resign", "Bob", "-s", "aa-late")
    referee("kr", "resign", "Ann", "-s", "zz-early")
    doc = kr_doc(referee)
    assert [m["session"] for m in doc["matches"]] == ["zz-early", "aa-late"]
    # Same end, same creation: the id decides, never the name or a save.
    same = [
        kr.RatedMatch("t", "c", i, name, "Ann", "Bob", (3, 0), 32, 1500)
        for i, name in (("b", "first"), ("a", "second"))
    ]
    assert [r.match.session for r in kr.kr_history(same)] == ["second", "first"]
    assert [r.match.session for r in kr.kr_history(same[::-1])] == ["second", "first"]


def test_ratings_help_says_the_order(referee: Runner) -> None:
    said = " ".join(referee("ratings", "--help").out.split())
    assert "in the order they finished: the time of the event that ended each" in said
    readme = " ".join(README.read_text().split())
    assert "in the order they ended: the time of the event that ended each" in readme


# ------------------------------------------------------------------ a match counts once


def test_an_imported_copy_counts_once(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, home: Path
) -> None:
    ranked(referee, monkeypatch, "m1", ("Ann", "Bob"), "Bob", 10)
    assert referee("export", "-f", "json", "-s", "m1", "-o", str(tmp_path / "m1.json")).code == 0
    # The match is here already (its id), so importing it again is refused (issue 18); a copy
    # of its file made by hand is the same match, and counts once.
    assert referee("import", str(tmp_path / "m1.json"), "--name", "copy").code == 2
    shutil.copy(home / "sessions" / "m1.toml", home / "sessions" / "copy.toml")
    doc = kr_doc(referee)
    assert len(doc["matches"]) == 1
    assert doc["players"][0] == {"name": "Ann", "kr": 1516, "matches": 1, "wins": 1, "losses": 0}


def test_ann_and_ann_are_one_player(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    ranked(referee, monkeypatch, "m1", ("Ann", "Bob"), "Bob", 10)
    ranked(referee, monkeypatch, "m2", ("ann", "Cy"), "Cy", 11)
    doc = kr_doc(referee)
    top = doc["players"][0]
    assert (top["name"], top["matches"], top["wins"]) == ("ann", 2, 2)
    assert len(doc["players"]) == 3


# ------------------------------------------------------------------ what a regular reads


def test_ratings_history_and_head_to_head_at_40_columns(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_matches(referee, monkeypatch)
    ranked(referee, monkeypatch, "m4", ("Ann", "Bob"), "Ann", 14)
    kr_now = {"Ann": 1500, "Bob": 1500, "Cy": 1500}  # Elo by hand, in the order ended, in
    for winner, loser in (("Ann", "Bob"), ("Bob", "Cy"), ("Cy", "Ann"), ("Bob", "Ann")):
        gain = round(32 * (1 - 1 / (1 + 10 ** ((kr_now[loser] - kr_now[winner]) / 400))))
        kr_now[winner] += gain  # whole points: what one wins the other loses
        kr_now[loser] -= gain
    assert kr_now == {"Ann": 1482, "Bob": 1517, "Cy": 1501} and sum(kr_now.values()) == 4500
    table = referee("ratings").out
    assert table == "\n".join([
        "Kiriki (KR)             KR   won lost",
        "Bob                   1517     2    1",
        "Cy                    1501     1    1",
        "Ann                   1482     1    2",
        "",
        "head to head",
        "             Ann  1 - 1  Bob",
        "             Ann  0 - 1  Cy",
        "             Bob  1 - 0  Cy",
    ]) + "\n"  # fmt: skip
    history = referee("ratings", "--history").out
    assert history.splitlines()[:7] == [
        "Kiriki (KR)",
        "2026-11-29 m1",
        "  Ann beat Bob 0-0, Bob resigned",
        "  Ann 1516 (+16), Bob 1484 (-16)",
        "2026-11-29 m2",
        "  Bob beat Cy 0-0, Cy resigned",
        "  Bob 1501 (+17), Cy 1483 (-17)",
    ]
    assert max(len(line) for line in (table + history).splitlines()) <= 40


def test_no_ranked_matches_fits_40_columns_without_cutting_a_word(referee: Runner) -> None:
    out = referee("ratings").out
    assert max(len(line) for line in out.splitlines()) <= 40
    assert " ".join(out.split()) == (
        "no finished sessions to rate yet; ratings come from finished sessions"
    )


def test_the_json_document_is_documented(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    three_matches(referee, monkeypatch)
    doc = kr_doc(referee)
    match = doc["matches"][0]
    assert match == {
        "session": "m1",
        "id": match["id"],
        "finished": "2026-11-29T10:20:00+00:00",
        "created": "2026-11-29T10:00:00+00:00",
        "winner": {"name": "Ann", "kr": 1516, "change": 16},
        "loser": {"name": "Bob", "kr": 1484, "change": -16},
        "score": [0, 0],
        "resigned": True,
    }
    from referee.history import session_id

    loaded = storage.load(home / "sessions" / "m1.toml")
    assert match["id"] == session_id(loaded.session)  # the one identity stats uses too
    assert doc["head_to_head"][0] == {"players": ["Ann", "Bob"], "wins": [1, 0]}
    section = README.read_text().split("### `referee ratings --json`")[1].split("\n## ")[0]
    documented = set(re.findall(r"`([a-z_]+)`", section))
    keys = set(doc) | set(match) | set(doc["players"][0]) | set(match["winner"])
    assert keys <= documented, keys - documented


# ------------------------------------------------------------------ the end of a match


def test_the_match_end_screen_shows_the_kr_change(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock(monkeypatch, 10)
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--ranked", "--name", "one")
    last = referee("kr", "resign", "Bob").out.splitlines()[-1]
    assert last == "KR: Ann 1516 (+16), Bob 1484 (-16)"
    # The rematch ends later: under one fixed clock the two would tie, and KR would order them
    # by their (random) session ids.
    clock(monkeypatch, 11)
    assert referee("kr", "rematch").code == 0
    last = referee("kr", "resign", "Ann").out.splitlines()[-1]
    gain = 32 * (1 - 1 / (1 + 10 ** ((1516 - 1484) / 400)))  # Bob, the weaker, wins
    bob, ann = round(1484 + gain), round(1516 - gain)
    assert last == f"KR: Bob {bob} (+{bob - 1484}), Ann {ann} ({ann - 1516})"
    assert (bob, ann) == (1501, 1499)


def test_an_unranked_match_end_shows_no_kr(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann")
    assert "KR" not in referee("kr", "resign", "Bob").out


# ------------------------------------------------------------------ rematch


def test_a_rematch_keeps_players_format_ranking_and_the_loser_starts(
    referee: Runner, home: Path
) -> None:
    referee("new", "kiriki", "Ann=Annie", "Bob", "--format", "bullet", "--first", "Ann",
            "--ranked", "--name", "duel")  # fmt: skip
    referee("kr", "resign", "Bob")
    result = referee("kr", "rematch", "--name", "again")
    assert result.code == 0 and result.out.startswith("started again (kiriki)\n"), result
    doc = json.loads(referee("show", "--json").out)
    assert (doc["session"], doc["format"], doc["ranked"], doc["turn"], doc["events"]) == (
        "again", "bullet", True, "Bob", 0
    )  # fmt: skip
    loaded = storage.load(home / "sessions" / "again.toml")
    assert [(p.name, p.nickname) for p in loaded.session.players] == [("Ann", "Annie"),
                                                                      ("Bob", None)]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "turn", "phase"),
    [("winner", "Ann", "claim"), ("rolloff", None, "rolloff"), ("loser", "Bob", "claim")],
)
def test_who_starts_a_rematch_is_a_ruleset_key(
    referee: Runner, tmp_path: Path, key: str, turn: str | None, phase: str
) -> None:
    house = tmp_path / "house.toml"
    text = (storage.bundled_rulesets() / "kiriki.toml").read_text()
    house.write_text(text.replace('rematch_first = "loser"', f'rematch_first = "{key}"'))
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--ruleset", str(house))
    referee("kr", "resign", "Bob")
    assert referee("kr", "rematch").code == 0
    doc = json.loads(referee("show", "--json").out)
    assert (doc["turn"] if doc["phase"] != "rolloff" else None, doc["phase"]) == (turn, phase)


def test_a_bad_rematch_key_is_reported(tmp_path: Path, referee: Runner) -> None:
    house = tmp_path / "house.toml"
    text = (storage.bundled_rulesets() / "kiriki.toml").read_text()
    house.write_text(text.replace('rematch_first = "loser"', 'rematch_first = "eldest"'))
    result = referee("rules", "check", str(house))
    assert result.code != 0 and "rematch_first 'eldest' must be one of loser, winner, rolloff" in (
        result.out + result.err
    )


@pytest.mark.parametrize(
    ("setup", "code", "message"),
    [
        pytest.param(["new", "kiriki", "Ann", "Bob", "--first", "Ann"], 1,
                     "the match is not over: first to 11, win by 2: 0-0; play on or resign",
                     id="not-over"),
        pytest.param(["new", "kariki", "Ann", "Bob"], 2, "a rematch is of a Kiriki match",
                     id="another-game"),
    ],
)  # fmt: skip
def test_a_refused_rematch_writes_nothing(
    referee: Runner, home: Path, setup: list[str], code: int, message: str
) -> None:
    assert referee(*setup).code == 0
    before = {p: snapshot(p) for p in home.rglob("*") if p.is_file()}
    result = referee("kiriki", "rematch")
    assert (result.code, result.err.count("\n")) == (code, 1) and message in result.err, result
    assert {p: snapshot(p) for p in home.rglob("*") if p.is_file()} == before


# ------------------------------------------------------------------ the property


@contextmanager
def data_folder(base: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the data folder `base`, in use until the block ends."""
    scratch = Path(tempfile.mkdtemp(prefix="kr-"))
    try:
        shutil.copytree(base, scratch / "home")
        with monkeypatch.context() as patch:
            patch.setenv("REFEREE_HOME", str(scratch / "home"))
            yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


OPERATION = st.one_of(
    st.tuples(st.just("undo-redo"), st.integers(0, 3), st.integers(1, 2)),
    st.tuples(st.just("rename"), st.integers(0, 3), st.just(0)),
    st.tuples(st.just("export-import"), st.integers(0, 3), st.just(0)),
    st.tuples(st.just("touch"), st.integers(0, 3), st.just(0)),
)


@pytest.fixture
def four_matches(referee: Runner, monkeypatch: pytest.MonkeyPatch, home: Path) -> Path:
    three_matches(referee, monkeypatch)
    ranked(referee, monkeypatch, "m4", ("ann", "Bob"), "ann", 12)  # ends with m3's hour: ties
    return home


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(OPERATION, min_size=1, max_size=5))
def test_kr_is_recomputed_identically_after_anything_that_changes_no_result(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    four_matches: Path,
    operations: list[tuple[str, int, int]],
) -> None:
    with data_folder(four_matches, monkeypatch) as scratch:
        before = kr_doc(referee)
        names = ["m1", "m2", "m3", "m4"]
        for step, (kind, which, depth) in enumerate(operations):
            clock(monkeypatch, 20, step)  # every save is later than every match's end
            name = names[which]
            if kind == "undo-redo":
                for command in ["undo"] * depth + ["redo"] * depth:
                    assert referee(command, "-s", name).code == 0
            elif kind == "rename":
                names[which] = f"{name}-r"
                assert referee("rename", name, names[which]).code == 0
            elif kind == "export-import":
                out = scratch / f"{step}.json"
                assert referee("export", "-f", "json", "-s", name, "-o", str(out)).code == 0
                # The same match is here already (its id): refused (issue 18); a copy made by
                # hand is the same match too, and counts once.
                assert referee("import", str(out), "--name", f"copy{step}").code == 2
                sessions = scratch / "home" / "sessions"
                shutil.copy(sessions / f"{name}.toml", sessions / f"copy{step}.toml")
            else:
                path = scratch / "home" / "sessions" / f"{name}.toml"
                os.utime(path, (2_000_000_000 + step, 2_000_000_000 + step))
        after = kr_doc(referee)
        assert after["players"] == before["players"]
        assert after["head_to_head"] == before["head_to_head"]
        strip = [{k: v for k, v in m.items() if k != "session"} for m in after["matches"]]
        assert strip == [{k: v for k, v in m.items() if k != "session"} for m in before["matches"]]


def test_a_shell_on_the_current_session_follows_a_rematch(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from referee.cli.shell import Shell

    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "one")
    monkeypatch.setattr("sys.stdin", io.StringIO("resign bob\nrematch --name two\nclaim 9\n"))
    assert Shell(None).loop() == 0
    assert json.loads(referee("show", "--json", "-s", "two").out)["claim"] == "9"
    assert json.loads(referee("show", "--json", "-s", "one").out)["events"] == 1


def test_a_shell_on_a_named_session_stays_there(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from referee.cli.shell import Shell

    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "one")
    monkeypatch.setattr("sys.stdin", io.StringIO("resign bob\nrematch --name two\nclaim 9\n"))
    assert Shell("one").loop() == 1  # the claim is refused: the match on "one" is over
    assert json.loads(referee("show", "--json", "-s", "two").out)["events"] == 0


def test_ratings_json_draws_nothing(tmp_path: Path) -> None:
    from test_imports import modules_after

    loaded = modules_after(tmp_path, "ratings", "--json")
    assert "referee.games.kiriki.cli" in loaded  # the probe really ran the command
    assert not {m for m in loaded if m.split(".")[0] == "rich" or m.startswith("referee.render")}


def test_a_redo_of_the_point_that_ended_a_ranked_match_shows_the_kr_change(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock(monkeypatch, 10)
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--ranked", "--name", "one")
    ended = referee("kr", "resign", "Bob").out.splitlines()[-1]
    assert ended == "KR: Ann 1516 (+16), Bob 1484 (-16)"
    assert "KR" not in referee("undo").out
    assert referee("redo").out.splitlines()[-1] == ended  # the same last screen again


def test_ratings_and_stats_keep_their_columns_with_names_of_wide_characters(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "40")
    clock(monkeypatch, 10)
    wide = "王小明王小明王小明王"  # 20 cells: cut to the column, never past it
    referee("new", "kiriki", wide, "Bob", "--first", "Bob", "--ranked", "--name", "one")
    assert referee("kr", "resign", "Bob").code == 0
    table = referee("ratings").out.splitlines()[:3]
    assert table[1:] == [
        "王小明王小明王小明王  1516     1    0",
        "Bob                   1484     0    1",
    ]
    assert [cell_len(line) for line in table] == [37, 37, 37]
    assert referee("ratings").out.splitlines()[-1] == "             Bob  0 - 1  王小明王小明王"
    rows = referee("stats", "--all").out.splitlines()[1:4]
    # a cut name ends in … (a wide letter that would straddle the column goes)
    assert rows[1:] == ["王小明王小…      1    1 100% W", "Bob              1    0   0% L"]


def test_ratings_head_to_head_history_and_stats_fit_40_columns_at_the_name_limit(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two 16-character names made a head-to-head line of 41 cells; --history cut names by
    characters (12 CJK letters are 24 cells) and printed its lines unwrapped; stats and the KR
    line wrapped by characters, so a name of wide characters ran past the screen's edge."""
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "40")
    clock(monkeypatch, 10)
    wide, long = "王小明王小明王小明王小明王小明王", "Abcdefghijklmnop"
    referee("new", "kiriki", long, wide, "--first", long, "--ranked", "--name", "one")
    assert all(cell_len(line) <= 40 for line in referee("kr", "resign", long).out.splitlines())
    for args in (
        ["ratings"],
        ["ratings", "--history"],
        ["stats"],
        ["stats", "--all"],
        ["stats", "--player", long],
    ):
        out = referee(*args).out.splitlines()
        assert [line for line in out if cell_len(line) > 40] == [], args
    assert referee("ratings").out.splitlines()[-1] == "Abcdefghijklmnop  0 - 1  王小明王小明王"
    assert referee("ratings", "--history").out.splitlines()[2:4] == [
        "  王小明王小明 beat Abcdefghijkl 0-0,",
        "    Abcdefghijkl resigned",
    ]
