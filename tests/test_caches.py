"""What stats and exports keep (issue 25): a summary or a session's export rows is served only
for the exact bytes and code it was made from; a planted, stale or broken entry is rebuilt and
never shown (RELIABILITY 9); a cold stats shared out over processes answers as one process does;
the progress bar is drawn only at a terminal, inside 40 columns, and erased."""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import Runner
from referee import storage
from referee.cli import history as cli_history
from referee.history import Summary
from referee.storage import codec

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))


def fill(home: Path, copies: int = 1) -> list[Path]:
    """Every example in the data folder (`copies` times, each copy under its own name), and a
    broken file: the stats and exports of these are what the tests compare."""
    sessions = home / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    made = []
    for n in range(copies):
        for example in EXAMPLES:
            text = example.read_text(encoding="utf-8")
            name = f"{example.stem}-{n}"
            text = text.replace(f'name = "{example.stem}"', f'name = "{name}"', 1)
            (sessions / f"{name}.toml").write_text(text, encoding="utf-8")
            made.append(sessions / f"{name}.toml")
    (sessions / "broken.toml").write_text("schema = 1\nname = [\n", encoding="utf-8")
    return made


def count_replays(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every file replayed for stats or an export from now on (the broken file, which is
    read again each time since nothing is kept for it, is left out)."""
    seen: list[Path] = []
    real = codec.decode_states

    def counting(path: Path, raw: bytes) -> object:
        if path.name != "broken.toml":
            seen.append(path)
        return real(path, raw)

    monkeypatch.setattr(codec, "decode_states", counting)
    monkeypatch.setattr(storage, "decode_states", counting)
    return seen


def dump(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        return list(db.iterdump())


# ---------------------------------------------------------------------------- stats


def test_stats_answer_the_same_cold_warm_and_over_several_processes(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(home, copies=2)
    monkeypatch.setattr(cli_history, "PARALLEL_FROM", 2)  # a pool even for a few sessions
    sessions = storage.Home(home)
    serial = cli_history.summaries(sessions, storage.Cache(tmp_path / "one"), workers=1)
    shared = cli_history.summaries(sessions, storage.Cache(tmp_path / "two"), workers=2)
    kept = cli_history.summaries(sessions, storage.Cache(tmp_path / "two"), workers=2)

    def plain(
        found: tuple[list[tuple[Path, Summary]], list[str]],
    ) -> tuple[list[object], list[str]]:
        return [(str(p), s.to_plain()) for p, s in found[0]], found[1]

    assert plain(serial) == plain(shared) == plain(kept)
    assert len(serial[0]) == 2 * len(EXAMPLES)
    assert serial[1] == [serial[1][0]] and serial[1][0].startswith("skipped broken.toml: ")


def test_stats_replay_only_what_changed(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = fill(home)
    first = referee("stats", "--json")
    replays = count_replays(monkeypatch)
    assert referee("stats", "--json") == first and replays == []
    made[0].write_text(made[0].read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert referee("stats", "--json") == first and replays == [made[0]]


STATS_ENTRIES = {
    "stale code": lambda doc, _: doc.update(code="0" * 64),
    "broken summary": lambda doc, path: doc["entries"][path]["summary"].update(finished="yes"),
    "another file's entry": lambda doc, path: doc["entries"].update(
        {path: next(e for p, e in doc["entries"].items() if p != path)}
    ),
    "not JSON": None,
}


@pytest.mark.parametrize("plant", STATS_ENTRIES.values(), ids=STATS_ENTRIES.keys())
def test_a_planted_or_broken_stats_entry_is_rebuilt(
    referee: Runner, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plant: object
) -> None:
    made = fill(home)
    first = referee("stats", "--json")
    kept = tmp_path / "cache" / "referee" / "stats.json"
    doc = json.loads(kept.read_text(encoding="utf-8"))
    if plant is None:
        kept.write_text("{not json", encoding="utf-8")
    else:
        plant(doc, str(made[0]))  # type: ignore[operator]
        kept.write_text(json.dumps(doc), encoding="utf-8")
    replays = count_replays(monkeypatch)
    assert referee("stats", "--json") == first
    assert made[0] in replays  # the entry was not believed, and is made again
    again = count_replays(monkeypatch)
    assert referee("stats", "--json") == first and again == []


# ---------------------------------------------------------------------------- export


def test_export_rows_are_kept_and_give_the_same_database(
    referee: Runner, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(home)
    cold, warm = tmp_path / "cold.db", tmp_path / "warm.db"
    result = referee("export", "-f", "sqlite", "--all", "-o", str(cold))
    assert result.code == 0 and "skipped broken.toml" in result.err
    replays = count_replays(monkeypatch)
    assert referee("export", "-f", "sqlite", "--all", "-o", str(warm)).code == 0
    assert replays == [] and dump(warm) == dump(cold)
    shutil.rmtree(tmp_path / "cache")  # deleting the cache is always safe
    fresh = tmp_path / "fresh.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(fresh)).code == 0
    assert dump(fresh) == dump(cold) and len(replays) == len(EXAMPLES)


def copies(home: Path) -> list[Path]:
    """Hand copies of two examples (the same ids), one of them touched later: the export
    counts each id once, the copy ranked first by its last change and its file's name."""
    sessions = home / "sessions"
    made = []
    for n, (example, later) in enumerate(((EXAMPLES[0], False), (EXAMPLES[1], True))):
        text = example.read_text(encoding="utf-8")
        if later:
            text = re.sub(r'updated = "[^"]*"', 'updated = "2030-01-01T00:00:00+00:00"', text,
                          count=1)  # fmt: skip
        copy = sessions / f"c{n}.toml"  # a shorter name than the other copy's
        copy.write_text(text, encoding="utf-8")
        made.append(copy)
    return made


@pytest.mark.parametrize("kept", ["none", "half", "all"])
def test_the_export_is_the_same_with_any_rows_kept(
    referee: Runner, home: Path, tmp_path: Path, kept: str
) -> None:
    """Copies counted once and in the same order whichever rows are kept (a session with kept
    rows is placed by its file's head, one without by its replay)."""
    made = fill(home, copies=2) + copies(home)
    cold = tmp_path / "cold.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(cold)).code == 0
    if kept == "none":
        shutil.rmtree(tmp_path / "cache")
    elif kept == "half":
        for path in made[::2]:
            _rows_entry(tmp_path, path).unlink()
    again = tmp_path / "again.db"
    result = referee("export", "-f", "sqlite", "--all", "-o", str(again))
    assert result.code == 0 and result.err.count("skipped") == 1  # broken.toml alone
    assert dump(again) == dump(cold)
    with sqlite3.connect(again) as db:
        paths = [p for (p,) in db.execute("SELECT path FROM sessions")]
        played = [p for (p,) in db.execute("SELECT coalesce(created, updated) FROM sessions")]
    assert len(paths) == len(set(paths)) == len(EXAMPLES) and played == sorted(played)
    assert f"sessions/{made[-1].name}" not in paths  # touched later: the other copy counts
    assert f"sessions/{made[-2].name}" in paths  # the same but for its shorter name


def test_the_export_reads_no_summaries(
    referee: Runner, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An export holds a few facts of each session, never every session's summary (its
    memory does not grow with them): it neither reads nor writes the kept stats."""
    fill(home)
    assert referee("stats").code == 0
    kept = (tmp_path / "cache" / "referee" / "stats.json").read_bytes()

    def refused(self: storage.Cache, name: str, *more: object) -> object:
        raise AssertionError(f"the export used the kept {name}")

    monkeypatch.setattr(storage.Cache, "read_document", refused)
    monkeypatch.setattr(storage.Cache, "write_document", refused)
    for _ in range(2):  # rows made, then rows kept
        database = tmp_path / "league.db"
        assert referee("export", "-f", "sqlite", "--all", "-o", str(database), "--force").code == 0
    assert (tmp_path / "cache" / "referee" / "stats.json").read_bytes() == kept


def test_rows_kept_for_a_file_that_does_not_parse_never_place_it(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    made = fill(home)
    first = tmp_path / "first.db"
    result = referee("export", "-f", "sqlite", "--all", "-o", str(first))
    broken = home / "sessions" / "broken.toml"
    digest = storage.digest_of(broken.read_bytes())
    cache = storage.Cache(tmp_path / "cache" / "referee")
    rows = cache.get_rows(made[0], storage.digest_of(made[0].read_bytes()))
    assert rows is not None
    cache.put_rows(broken, digest, rows)  # planted: another session's rows under its bytes
    assert cache.has_rows(broken, digest)
    second = tmp_path / "second.db"
    again = referee("export", "-f", "sqlite", "--all", "-o", str(second))
    assert again.code == 0 and again.err == result.err and "skipped broken.toml" in again.err
    assert dump(second) == dump(first)


def test_the_database_is_the_same_on_standard_output_and_leaves_nothing_behind(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    import os
    import subprocess
    import sys

    fill(home)
    database = tmp_path / "out" / "league.db"
    database.parent.mkdir()
    assert referee("export", "-f", "sqlite", "--all", "-o", str(database)).code == 0
    assert [p.name for p in database.parent.iterdir()] == ["league.db"]  # no journal, no temp
    argv = [sys.executable, "-m", "referee", "export", "-f", "sqlite", "--all", "-o", "-"]
    piped = subprocess.run(argv, env=dict(os.environ), capture_output=True, check=True)
    copy = tmp_path / "piped.db"
    copy.write_bytes(piped.stdout)
    assert dump(copy) == dump(database)


def _rows_entry(tmp_path: Path, path: Path) -> Path:
    return storage.Cache(tmp_path / "cache" / "referee").entry(path, "rows")


def _plant_other(tmp_path: Path, made: list[Path]) -> None:
    """The rows kept for another session, under this one's entry."""
    shutil.copy(_rows_entry(tmp_path, made[1]), _rows_entry(tmp_path, made[0]))


def _plant_stale(tmp_path: Path, made: list[Path]) -> None:
    entry = _rows_entry(tmp_path, made[0])
    doc = json.loads(entry.read_text(encoding="utf-8"))
    doc["key"][1] = "0" * 64  # made by other code
    entry.write_text(json.dumps(doc), encoding="utf-8")


def _plant_shape(tmp_path: Path, made: list[Path]) -> None:
    entry = _rows_entry(tmp_path, made[0])
    doc = json.loads(entry.read_text(encoding="utf-8"))
    doc["tables"]["events"][0][1] = 1.5  # a number no row holds
    entry.write_text(json.dumps(doc), encoding="utf-8")


def _plant_garbage(tmp_path: Path, made: list[Path]) -> None:
    _rows_entry(tmp_path, made[0]).write_bytes(b"\xff\x00 not json")


def _plant_open(tmp_path: Path, made: list[Path]) -> None:
    (tmp_path / "cache" / "referee").chmod(0o755)  # a folder others may write in: not ours


ROW_ENTRIES = [
    pytest.param(_plant_other, id="another session's rows"),
    pytest.param(_plant_stale, id="stale code"),
    pytest.param(_plant_shape, id="a float in a row"),
    pytest.param(_plant_garbage, id="not JSON"),
    pytest.param(_plant_open, id="folder open to others"),
]


@pytest.mark.parametrize("plant", ROW_ENTRIES)
def test_a_planted_or_broken_rows_entry_is_replayed_never_exported(
    referee: Runner, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plant: object
) -> None:
    made = fill(home)
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(first)).code == 0
    plant(tmp_path, made)  # type: ignore[operator]
    replays = count_replays(monkeypatch)
    assert referee("export", "-f", "sqlite", "--all", "-o", str(second)).code == 0
    assert dump(second) == dump(first) and made[0] in replays


def test_one_session_export_uses_its_kept_rows(
    referee: Runner, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = fill(home)
    one, again = tmp_path / "one.db", tmp_path / "again.db"
    assert referee("export", "-f", "sqlite", "-o", str(one), "-s", str(made[0])).code == 0
    replays = count_replays(monkeypatch)
    assert referee("export", "-f", "sqlite", "-o", str(again), "-s", str(made[0])).code == 0
    assert replays == [] and dump(again) == dump(one)
    with sqlite3.connect(one) as db:
        assert db.execute("SELECT path FROM sessions").fetchall() == [(f"sessions/{made[0].name}",)]


def test_a_broken_session_alone_writes_no_database(referee: Runner, home: Path, tmp_path: Path
                                                   ) -> None:  # fmt: skip
    fill(home)
    out = tmp_path / "out.db"
    result = referee("export", "-f", "sqlite", "-o", str(out), "-s", "broken")
    assert result.code == 3 and "broken.toml" in result.err and not out.exists()
    assert list(tmp_path.glob(".out.db*")) == []


# ---------------------------------------------------------------------------- progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [True, False], ids=["terminal", "pipe"])
def test_the_progress_bar_is_drawn_at_a_terminal_only_and_erased(
    monkeypatch: pytest.MonkeyPatch, tty: bool
) -> None:
    import re

    stream = Terminal() if tty else io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("TERM", "xterm")
    bar = cli_history.Progress(5000)
    for done in (1, 50, 2500, 5000):
        bar.show(done)
    bar.close()
    drawn = stream.getvalue()
    if not tty:
        assert drawn == ""
        return
    shown = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", part) for part in drawn.split("\r")]
    bars = [line.strip() for line in shown if line.strip()]
    assert [re.sub(r" +", " ", line).split(" ")[:2] for line in bars] == [
        ["replaying", f"{done}/5000"] for done in (0, 1, 50, 2500, 5000, 5000)
    ]
    assert all(len(line.rstrip("\n")) <= 40 for line in shown)  # the screen's width
    assert drawn.endswith("\r\x1b[1A\x1b[2K")  # the line erased: the answer prints over it


def test_a_few_sessions_draw_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    bar = cli_history.Progress(cli_history.PROGRESS_FROM - 1)
    bar.show(1)
    bar.close()
    assert stream.getvalue() == ""


def test_a_file_that_does_not_load_is_replayed_once_per_change(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(home)
    broken = home / "sessions" / "broken.toml"
    first = referee("stats", "--json")
    assert "skipped broken.toml" in first.err
    tried: list[Path] = []
    real = codec.decode_states

    def counting(path: Path, raw: bytes) -> object:
        tried.append(path)
        return real(path, raw)

    monkeypatch.setattr(storage, "decode_states", counting)
    assert referee("stats", "--json") == first and tried == []  # the same line, kept
    broken.write_text("schema = 1\nname = [[\n", encoding="utf-8")
    again = referee("stats", "--json")
    assert tried == [broken] and again.out == first.out and "skipped broken.toml" in again.err


def test_a_planted_skip_line_never_hides_a_session_that_loads(referee: Runner, home: Path) -> None:
    """A kept 'skipped' line stands only while its file still does not parse: planted over a
    good session, that session is replayed and counted."""
    made = fill(home)
    first = json.loads(referee("stats", "--json").out)
    cache = storage.Cache.default()
    kept = cache.read_document("stats")
    assert isinstance(kept, dict)
    victim = str(made[0])
    kept["entries"][victim] = {"digest": kept["entries"][victim]["digest"],
                               "skipped": f"skipped {made[0].name}: MALLORY"}  # fmt: skip
    cache.write_document("stats", kept)
    again = referee("stats", "--json")
    assert "MALLORY" not in again.err
    assert json.loads(again.out) == first
