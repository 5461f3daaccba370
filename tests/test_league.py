"""The group's long run (RULES 8): a season's standings worked out from made-up summaries
(every case written out), and the promise that ratings and standings never move with file
names, import order, second imports, copies, sync conflicts or undo/redo."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import league
from referee.history import Summary
from referee.league import Season, standings

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local time is UTC: a bar night is the same day wherever the suite runs."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def played(
    ident: str,
    order: str,
    *,
    game: str = "kariki",
    ruleset: str | None = None,
    day: str = "2026-11-01",
    hour: int = 20,
    finished: bool = True,
    provisional: bool = False,
    shared: list[int] | None = None,
    winners: str | None = None,
    events: int = 10,
    name: str | None = None,
) -> Summary:
    """A made-up session: `order` best first (`"Ann Bob Cy"`), the first wins, played on the
    evening of `day` (an `hour` past 23 is the next morning, still that bar night)."""
    names = order.split()
    won = names[:1] if winners is None else winners.split()
    at = f"{day}T{hour:02d}:00:00.000+00:00"
    if hour >= 24:
        from datetime import date, timedelta

        after = date.fromisoformat(day) + timedelta(days=1)
        at = f"{after.isoformat()}T{hour - 24:02d}:00:00.000+00:00"
    end = at.replace(":00:00.000", ":45:00.000")
    return Summary(
        id=ident, name=name or f"s-{ident}", game=game, ruleset=ruleset or game,
        players=sorted(names), finished=finished, winners=won if finished else [],
        standings=names, created=at, updated=end, provisional=provisional,
        shared=shared or [], events=events, began=at, ended=end if finished else "",
    )  # fmt: skip


def table(season: Season, summaries: list[Summary]) -> list[tuple[Any, ...]]:
    found, _ = standings(season, summaries)
    return [(s.place, s.name, s.points, s.wins, s.games, s.moved) for s in found]


ALL = Season("s")


@pytest.mark.parametrize(
    ("season", "summaries", "expected"),
    [
        pytest.param(ALL, [played("1", "Ann Bob Cy Dee")],
                     [(1, "Ann", 3, 1, 1, None), (2, "Bob", 1, 0, 1, None),
                      (3, "Cy", 0, 0, 1, None), (3, "Dee", 0, 0, 1, None)],
                     id="3,1,0: a tie at nothing shares a place"),
        pytest.param(Season("s", points=(5, 3)), [played("1", "Ann Bob Cy Dee")],
                     [(1, "Ann", 5, 1, 1, None), (2, "Bob", 3, 0, 1, None),
                      (2, "Cy", 3, 0, 1, None), (2, "Dee", 3, 0, 1, None)],
                     id="the last value counts for every later place"),
        pytest.param(Season("s", points=(10, 6, 3, 1)),
                     [played("1", "Ann Bob Cy Dee", shared=[1, 2, 2, 4])],
                     [(1, "Ann", 10, 1, 1, None), (2, "Bob", 6, 0, 1, None),
                      (2, "Cy", 6, 0, 1, None), (4, "Dee", 1, 0, 1, None)],
                     id="a shared place gives each the best place's points"),
        pytest.param(Season("s", points=(10, 6, 3, 1)),
                     [played("1", "Ann Bob Cy", winners="Ann Bob")],
                     [(1, "Ann", 10, 1, 1, None), (1, "Bob", 10, 1, 1, None),
                      (3, "Cy", 3, 0, 1, None)],
                     id="a shared win: both first, both the winner's points"),
        pytest.param(Season("s", points=(2, 2, 0)),
                     [played("1", "Ann Bob Cy"), played("2", "Bob Cy Ann")],
                     [(1, "Bob", 4, 1, 2, None), (2, "Ann", 2, 1, 2, None),
                      (3, "Cy", 2, 0, 2, None)],
                     id="points, then wins"),
        pytest.param(Season("s", points=(2, 1)),
                     [played("1", "Ann Bob"), played("2", "Cy Dee"), played("3", "Dee Cy"),
                      played("4", "Eve Fay"), played("5", "Fay Eve"), played("6", "Eve Fay")],
                     [(1, "Eve", 5, 2, 3, None), (2, "Fay", 4, 1, 3, None),
                      (3, "Cy", 3, 1, 2, None), (3, "Dee", 3, 1, 2, None),
                      (5, "Ann", 2, 1, 1, None), (6, "Bob", 1, 0, 1, None)],
                     id="points before games; equals share"),
        pytest.param(Season("s", points=(3, 0)),
                     [played("1", "Ann Cy"), played("2", "Bob Cy"), played("3", "Cy Bob")],
                     [(1, "Ann", 3, 1, 1, None), (2, "Bob", 3, 1, 2, None),
                      (3, "Cy", 3, 1, 3, None)],
                     id="equal points and wins: fewer games first"),
        pytest.param(Season("s", start="2026-11-02", end="2026-11-03"),
                     [played("1", "Ann Bob", day="2026-11-01"),
                      played("2", "Bob Ann", day="2026-11-02"),
                      played("3", "Bob Ann", day="2026-11-03", hour=26),
                      played("4", "Ann Bob", day="2026-11-04")],
                     [(1, "Bob", 6, 2, 2, 0), (2, "Ann", 2, 0, 2, 0)],
                     id="both ends inclusive; 2am is the night before"),
        pytest.param(Season("s", game="perudo"),
                     [played("1", "Ann Bob", game="liars"),
                      played("2", "Bob Ann", game="liars", ruleset="perudo")],
                     [(1, "Bob", 3, 1, 1, None), (2, "Ann", 1, 0, 1, None)],
                     id="perudo is its own game"),
        pytest.param(Season("s", game="liars"),
                     [played("1", "Ann Bob", game="liars"),
                      played("2", "Bob Ann", game="liars", ruleset="perudo"),
                      played("3", "Bob Ann", game="mia")],
                     [(1, "Ann", 3, 1, 1, None), (2, "Bob", 1, 0, 1, None)],
                     id="liars without perudo or any other game"),
        pytest.param(ALL,
                     [played("1", "Ann Bob"), played("2", "Bob Ann", provisional=True),
                      played("3", "Bob Ann", finished=False)],
                     [(1, "Ann", 3, 1, 1, None), (2, "Bob", 1, 0, 1, None)],
                     id="only decided sessions: no provisional Kariki win"),
        pytest.param(ALL,
                     [played("1", "Ann Bob"), played("1", "Ann Bob", name="copy"),
                      played("1", "Bob Ann", finished=False, events=5, name="conflict")],
                     [(1, "Ann", 3, 1, 1, None), (2, "Bob", 1, 0, 1, None)],
                     id="each session once"),
        pytest.param(ALL,
                     [played("1", "Ann Bob Cy", day="2026-11-01"),
                      played("2", "Cy Bob Dee", day="2026-11-08"),
                      played("3", "Cy Ann", day="2026-11-08")],
                     [(1, "Cy", 6, 2, 3, 2), (2, "Ann", 4, 1, 2, -1),
                      (3, "Bob", 2, 0, 2, -1), (4, "Dee", 0, 0, 1, None)],
                     id="movement since before the latest night"),
    ],
)  # fmt: skip
def test_standings(season: Season, summaries: list[Summary], expected: list[Any]) -> None:
    assert table(season, summaries) == expected


def test_nights_are_counted_and_the_same_table_twice_moves_nobody() -> None:
    found, nights = standings(ALL, [played("1", "Ann Bob", day="2026-11-01"),
                                    played("2", "Ann Bob", day="2026-11-08")])  # fmt: skip
    assert nights == ["2026-11-01", "2026-11-08"]
    assert [s.moved for s in found] == [0, 0]


@pytest.mark.parametrize(
    ("text", "points"),
    [("3,1,0", (3, 1, 0)), (" 5 , 3 ", (5, 3)), ("0", (0,)), ("1000,1000", (1000, 1000))],
)
def test_points_parse(text: str, points: tuple[int, ...]) -> None:
    assert league.parse_points(text) == points


@pytest.mark.parametrize("text", ["3,x", "1,3", "-1", "", "3,,1", "1_0", "１", "+3", "1001",
                                  ",".join(["1"] * 21), "3.5"])  # fmt: skip
def test_bad_points_are_refused(text: str) -> None:
    from referee.errors import UsageError

    with pytest.raises(UsageError, match="bad points"):
        league.parse_points(text)


# ---------------------------------------------------------------------------- OpenSkill


def test_openskill_figures_equal_the_library_called_directly() -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    first = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    second = model.rate([[first[2][0]], [first[0][0]]], ranks=[1, 2])
    found = league.rate([played("1", "Ann Bob Cy", day="2026-11-01"),
                         played("2", "Cy Ann", day="2026-11-02")])["kariki"]  # fmt: skip
    by = {r.name: r for r in found.table()}
    for who, (expected,) in (("Cy", second[0]), ("Ann", second[1]), ("Bob", first[1])):
        assert by[who].mu == pytest.approx(expected.mu, abs=1e-12)
        assert by[who].sigma == pytest.approx(expected.sigma, abs=1e-12)
    assert by["Ann"].shown == round(second[1][0].mu - 3 * second[1][0].sigma)


# ---------------------------------------------------------------------------- the property

GAMES = (("kariki", "kariki"), ("liars", "liars"), ("liars", "perudo"), ("kalooki", "kalooki"),
         ("mia", "mia"))  # fmt: skip
SEASONS = (Season("all"), Season("autumn", start="2026-09-01", end="2026-11-30"),
           Season("perudo", game="perudo", points=(5, 2)), Season("mia", game="mia"))  # fmt: skip


def outcome(summaries: list[Summary]) -> Any:
    """Everything ratings and seasons say: each pool's table and history, each standing."""
    pools = {
        name: (
            [(r.name, r.mu, r.sigma, r.games, r.wins) for r in p.table()],
            [(rated.summary.id, rated.changes) for rated in p.history],
        )
        for name, p in league.rate(summaries).items()
    }
    return pools, [standings(season, summaries) for season in SEASONS]


def disguised(summaries: list[Summary], rng: random.Random) -> list[Summary]:
    """The same league as another data folder may hold it: other file names, another order, a
    second import, `--as-copy` copies (same id), sync-conflict copies (same id, fewer events or
    unfinished), and an undo then a redo at the end (the file as it was)."""
    out = [replace(s, name=f"renamed-{rng.randrange(10**6)}") for s in summaries]
    for s in rng.sample(summaries, k=min(len(summaries), 5)):
        out.append(replace(s))  # imported twice
        out.append(replace(s, name=f"{s.name}-copy"))  # --as-copy
        out.append(replace(s, name=f"{s.name} (conflict)", events=max(0, s.events - 2)))
        out.append(replace(s, name=f"{s.name}.sync", finished=False, winners=[], ended="",
                           events=s.events - 1))  # fmt: skip
    rng.shuffle(out)
    return out


def league_of(plays: list[tuple[int, int, int, list[int]]]) -> list[Summary]:
    found = []
    for k, (game, day, hour, order) in enumerate(plays):
        name, ruleset = GAMES[game % len(GAMES)]
        month, date = 9 + day // 28, 1 + day % 28
        found.append(
            played(f"{k:032x}", " ".join(NAMES[i] for i in order), game=name, ruleset=ruleset,
                   day=f"2026-{month:02d}-{date:02d}", hour=hour)
        )  # fmt: skip
    return found


plays = st.lists(
    st.tuples(
        st.integers(0, 4),
        st.integers(0, 83),
        st.integers(18, 27),
        st.permutations(range(6)).flatmap(lambda p: st.integers(2, 6).map(lambda n: p[:n])),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None)
@given(plays, st.randoms(use_true_random=False))
def test_ratings_and_standings_never_move_with_files(
    found: list[tuple[int, int, int, list[int]]], rng: random.Random
) -> None:
    summaries = league_of(found)
    assert outcome(disguised(summaries, rng)) == outcome(summaries)


def test_a_200_night_league_of_five_games_is_the_same_however_it_is_kept() -> None:
    rng = random.Random(37)
    plan = [(k % 5, k * 84 // 200, 19 + rng.randrange(9), rng.sample(range(6), 2 + k % 5))
            for k in range(200)]  # fmt: skip
    summaries = league_of(plan)
    before = outcome(summaries)
    assert set(before[0]) == {"kariki", "liars", "perudo", "kalooki", "mia"}
    assert all(len(table) > 0 for table, _ in before[1])
    for seed in range(3):
        assert outcome(disguised(summaries, random.Random(seed))) == before
