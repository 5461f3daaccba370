"""Issue 18, "Trust at the edges": a synced folder can plant nothing, derived data never becomes
the session, exports never replace what is not a file, every input is bounded, and sessions
have an identity.

Each test names the finding it covers; each failed on the code before the fix.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import Runner, session_file, snapshot
from referee import storage

START = ("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")
SCHEMA0 = Path(__file__).parent / "data" / "schema0-kariki.toml"
MOVES = [("kariki", "claim", "9"), ("kariki", "pass"), ("kariki", "pass"),
         ("kariki", "pull", "3-4"), ("kariki", "claim", "9")]  # fmt: skip


def one_line(result: object, code: int, part: str) -> None:
    assert getattr(result, "code", None) == code, result
    err = str(getattr(result, "err", ""))
    assert err.count("\n") == 1 and part in err and "Traceback" not in err, err


def play(referee: Runner, moves: int = len(MOVES)) -> None:
    for move in MOVES[:moves]:
        assert referee(*move).code == 0, move


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


# ------------------------------------------------------------------ 1. no write through a link


def test_a_planted_backup_link_is_not_written_through(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    shutil.copy(SCHEMA0, sessions / "old.toml")
    target = tmp_path / "outside" / "profile"
    target.parent.mkdir()
    (sessions / "old.toml.schema0.bak").symlink_to(target)  # dangling: exists() is False
    assert referee("undo", "-s", "old").code == 0
    assert not target.exists()


def test_a_planted_lock_link_creates_nothing(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee(*START)
    target = tmp_path / "created-anywhere"
    lock = home / "sessions" / "friday.lock"
    lock.unlink()
    lock.symlink_to(target)
    before = snapshot(session_file(home))
    one_line(referee("kariki", "claim", "9"), 3, "cannot lock")
    assert not target.exists()
    assert snapshot(session_file(home)) == before


def test_planted_temp_current_and_cache_links_are_never_written_through(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim"
    victim.write_text("precious\n")
    (home / "sessions" / ".friday.toml.1.x.tmp").symlink_to(victim)
    (home / "current").unlink()
    (home / "current").symlink_to(victim)
    cache = storage.Cache.default().root
    if cache.exists():
        shutil.rmtree(cache)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.symlink_to(outside)
    assert referee("kariki", "claim", "9", "-s", "friday").code == 0
    assert referee("use", "friday").code == 0  # the pointer is replaced, not written through
    assert referee("stats").code == 0
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in outside.iterdir()) == ["victim"]
    assert (home / "current").read_text() == "friday\n"


def test_a_linked_current_pointer_is_not_read_through(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    secret = tmp_path / "secret"
    secret.write_text("friday\n")
    (home / "current").unlink()
    (home / "current").symlink_to(secret)
    one_line(referee("show"), 3, "current")


# ------------------------------------------------------------------ 2. the cache never lies


def test_a_cut_cache_entry_never_becomes_the_session(referee: Runner, home: Path) -> None:
    referee(*START)
    play(referee, 2)
    cache = storage.Cache.default()
    entry = cache.entry(session_file(home))
    early = json.loads(entry.read_bytes())  # the replay after two events
    play_rest = MOVES[2:]
    for move in play_rest:
        assert referee(*move).code == 0
    raw = session_file(home).read_bytes()
    early["key"] = cache.key(storage.digest_of(raw))  # a key anyone can compute
    entry.write_text(json.dumps(early))
    log = json.loads(referee("log", "--json").out)
    assert len(log["events"] if isinstance(log, dict) else log) == len(MOVES)
    assert referee("undo").code == 0
    assert len(storage.load(session_file(home)).session.events) == len(MOVES) - 1


def test_a_planted_state_for_another_session_is_not_served(referee: Runner, home: Path) -> None:
    referee(*START)
    play(referee, 3)
    loaded = storage.load(session_file(home))
    cache = storage.Cache.default()
    entry = cache.entry(loaded.path)
    doc = json.loads(entry.read_bytes())
    doc["session"]["players"][0]["name"] = "Mallory"
    entry.write_text(json.dumps(doc))
    assert cache.get(loaded) is None
    assert "Mallory" not in referee("show").out


def test_a_planted_stats_summary_is_rebuilt(referee: Runner, home: Path) -> None:
    referee(*START)
    play(referee, 2)
    assert referee("stats").code == 0
    kept = storage.Cache.default().root / "stats.json"
    doc = json.loads(kept.read_bytes())
    (entry,) = doc["entries"].values()
    entry["summary"].update(players=["Mallory"], finished=True, winners=["Mallory"],
                            tally={"Mallory": {}})  # fmt: skip
    kept.write_text(json.dumps(doc))
    stats = json.loads(referee("stats", "--json").out)
    assert [p["name"] for p in stats["players"]] == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize("field", ["players", "events"])
def test_a_summary_that_disagrees_with_its_file_is_not_shown(
    referee: Runner, home: Path, field: str
) -> None:
    referee(*START)
    play(referee, 2)
    assert referee("stats").code == 0
    kept = storage.Cache.default().root / "stats.json"
    doc = json.loads(kept.read_bytes())
    (entry,) = doc["entries"].values()
    if field == "players":
        entry["summary"]["players"] = ["Ann", "Bob"]
    else:
        entry["summary"]["events"] = 7
    kept.write_text(json.dumps(doc))
    stats = json.loads(referee("stats", "--json").out)
    assert [p["name"] for p in stats["players"]] == ["Ann", "Bob", "Cy"]
    assert json.loads(kept.read_bytes())["entries"] != doc["entries"]  # rebuilt and kept


# ------------------------------------------------------------------ 3. exports over non-files


def test_an_export_into_a_fifo_writes_into_it(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee(*START)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there before the writer
    try:
        result = referee("export", "-f", "csv", "-o", str(fifo), "--force")
        assert result.code == 0, result.err
        assert stat.S_ISFIFO(fifo.lstat().st_mode)  # still a pipe, not a regular file
        assert b",number," in os.read(reader, 1 << 16)  # the CSV header came through
    finally:
        os.close(reader)


def test_an_export_into_a_fifo_nobody_reads_is_an_error_not_a_hang(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    one_line(referee("export", "-f", "csv", "-o", str(fifo), "--force"), 3, "not written")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_dash_is_stdout(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee(*START)
    os.chdir(tmp_path)
    result = referee("export", "-f", "json", "-o", "-")
    assert result.code == 0 and json.loads(result.out)["referee_export"] == 1
    assert not (tmp_path / "-").exists()


# ------------------------------------------------------------------ 4. delete of a link


def test_deleting_a_linked_session_deletes_the_link_only(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    real = tmp_path / "elsewhere" / "night.toml"
    real.parent.mkdir()
    session_file(home).rename(real)
    session_file(home).symlink_to(real)
    result = referee("delete", "friday", "--yes")
    assert result.code == 0 and "link" in result.out, result
    assert not session_file(home).is_symlink() and not session_file(home).exists()
    assert real.exists() and storage.load(real).session.name == "friday"


def test_a_link_to_nothing_can_be_deleted(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee(*START)
    session_file(home, "gone").symlink_to(tmp_path / "nowhere.toml")
    result = referee("delete", "gone", "--yes")
    assert result.code == 0 and "link" in result.out, result
    assert not session_file(home, "gone").is_symlink()


def test_renaming_a_linked_session_keeps_it_a_link(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    real = tmp_path / "elsewhere" / "night.toml"
    real.parent.mkdir()
    session_file(home).rename(real)
    session_file(home).symlink_to(real)
    assert referee("rename", "friday", "saturday").code == 0
    new = session_file(home, "saturday")
    assert new.is_symlink() and new.resolve() == real.resolve()
    assert storage.load(real).session.name == "saturday"


# ------------------------------------------------------------------ 5. bounded input


def test_a_huge_shell_line_is_refused_before_parsing(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    monkeypatch.setattr("sys.stdin", io.StringIO("claim 9 " + "'x' " * 25_000 + "\nclaim 10\n"))
    result = referee("shell")
    assert "line too long" in result.err
    kinds = [e["type"] for e in storage.load(session_file(home)).session.events]
    assert kinds == ["claim"]  # the long line did nothing; the next one ran


# ------------------------------------------------------------------ 6. SQLite with shared names


def test_sqlite_all_keeps_two_sessions_with_one_name(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    referee("new", "kariki", "Dee", "Eve", "--name", "other")
    other = session_file(home, "other")
    other.write_text(other.read_text().replace('name = "other"', 'name = "friday"', 1))
    out = tmp_path / "all.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(out)).code == 0
    db = sqlite3.connect(out)
    assert db.execute("SELECT COUNT(*) FROM sessions").fetchone() == (2,)
    db.close()


def test_sqlite_carries_no_home_path(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee(*START)
    out = tmp_path / "all.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(out)).code == 0
    assert str(home).encode() not in out.read_bytes()
    assert str(tmp_path).encode() not in out.read_bytes()


# ------------------------------------------------------------------ 7. import and load check all


def export_doc(referee: Runner, tmp_path: Path) -> dict[str, object]:
    dump = tmp_path / "s.json"
    assert referee("export", "-f", "json", "-o", str(dump)).code == 0
    doc: dict[str, object] = json.loads(dump.read_text())
    return doc


def _future(doc: dict) -> None:  # type: ignore[type-arg]
    doc["session"]["schema"] = 99


def _undone(doc: dict) -> None:  # type: ignore[type-arg]
    doc["session"]["undone"] = [{"type": "claim", "rank": "Eleventy"}]


def _created(doc: dict) -> None:  # type: ignore[type-arg]
    doc["session"]["created"] = "last friday"


def _version(doc: dict) -> None:  # type: ignore[type-arg]
    doc["referee_export"] = True


def _ruleset(doc: dict) -> None:  # type: ignore[type-arg]
    doc["session"]["ruleset"]["game"] = "liars"


def _misspelt(doc: dict) -> None:  # type: ignore[type-arg]
    doc["session"]["evnets"] = doc["session"].pop("events")


@pytest.mark.parametrize(
    ("spoil", "code", "part"),
    [
        pytest.param(_future, 3, "newer referee", id="future-schema"),
        pytest.param(_undone, 3, "undone event 1", id="bad-undone"),
        pytest.param(_created, 3, "'created'", id="created-not-a-time"),
        pytest.param(_version, 3, "not a referee export", id="referee_export-true"),
        pytest.param(_ruleset, 3, "ruleset is for", id="ruleset-of-another-game"),
        pytest.param(_misspelt, 3, "unknown key 'evnets'", id="events-misspelt"),
    ],
)
def test_import_checks_everything_it_keeps(
    referee: Runner, home: Path, tmp_path: Path, spoil: object, code: int, part: str
) -> None:
    referee(*START)
    doc = export_doc(referee, tmp_path)
    spoil(doc)  # type: ignore[operator]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    one_line(referee("import", str(bad), "--name", "t", "--as-copy"), code, part)
    assert not session_file(home, "t").exists()


@pytest.mark.parametrize(
    ("edit", "part"),
    [
        pytest.param(lambda t: t.replace("undone = []", 'undone = [{ type = "nope" }]'),
                     "undone event 1", id="bad-undone"),
        pytest.param(lambda t: re.sub(r'updated = "[^"]*"', 'updated = "soon"', t), "'updated'",
                     id="updated-not-a-time"),
        pytest.param(lambda t: t.replace('game = "kariki"\n', 'game = "kiriki"\n', 2)
                     .replace('game = "kiriki"\n', 'game = "kariki"\n', 1),
                     "ruleset is for", id="ruleset-of-another-game"),
        pytest.param(lambda t: re.sub(r'id = "[^"]*"', 'id = "X"', t), "'id'", id="bad-id"),
        # a misspelt key was skipped: the session read as one without events, and the next
        # command saved it so, every event gone
        pytest.param(lambda t: t.replace("events = [", "event = [", 1),
                     "unknown key 'event' at the top of the session", id="events-misspelt"),
    ],
)  # fmt: skip
def test_load_checks_the_same(referee: Runner, home: Path, edit: object, part: str) -> None:
    referee(*START)
    path = session_file(home)
    path.write_text(edit(path.read_text()))  # type: ignore[operator]
    before = snapshot(path)
    one_line(referee("show"), 3, part)
    assert snapshot(path) == before


# ------------------------------------------------------------------ 8. the small ones


def test_markdown_escapes_ampersands_and_does_not_autolink(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee("new", "kariki", "Tom&lt;b", "www.evil.io", "a@b.co", "--name", "md")
    out = tmp_path / "r.md"
    assert referee("export", "-f", "md", "-o", str(out)).code == 0
    text = out.read_text()
    assert "Players: Tom&amp;lt;b, www\\.evil.io, a\\@b.co\n" in text


def test_exported_files_get_the_usual_mode(
    referee: Runner, home: Path, tmp_path: Path, umask_022: None
) -> None:
    referee(*START)
    for fmt in ("csv", "sqlite"):
        out = tmp_path / f"x.{fmt}"
        assert referee("export", "-f", fmt, "-o", str(out)).code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644, fmt


def test_the_data_folder_is_private(referee: Runner, home: Path, umask_022: None) -> None:
    referee(*START)
    referee("kariki", "claim", "9")
    for folder in (home, home / "sessions"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    for name in ("friday.toml", "friday.lock"):
        assert stat.S_IMODE((home / "sessions" / name).stat().st_mode) == 0o600, name


def test_a_killed_sqlite_export_leaves_nothing_behind(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    out = tmp_path / "exports" / "all.db"
    out.parent.mkdir()
    env = {**os.environ, storage.CRASH_ENV: "export_after_temp_write"}
    killed = subprocess.run(
        [sys.executable, "-m", "referee", "export", "-f", "sqlite", "-o", str(out)],
        env=env, capture_output=True, check=False,
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL
    assert not out.exists()
    assert referee("export", "-f", "sqlite", "-o", str(out)).code == 0
    assert sorted(p.name for p in out.parent.iterdir()) == ["all.db"]  # no temp, no journal


def test_a_player_before_the_equals_sign_is_named(referee: Runner, home: Path) -> None:
    one_line(referee("new", "kariki", "=x", "Bob"), 2, "the name goes before '='")


# ------------------------------------------------------------------ sessions have an identity


def test_a_session_has_an_id_kept_through_saves_and_exports(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    first = storage.load(session_file(home)).session.id
    assert re.fullmatch(r"[0-9a-f]{32}", first)
    play(referee, 2)
    assert storage.load(session_file(home)).session.id == first
    assert f'id = "{first}"' in session_file(home).read_text()
    assert export_doc(referee, tmp_path)["session"]["id"] == first  # type: ignore[index]
    referee("new", "kariki", "Ann", "Bob", "--name", "other")
    assert storage.load(session_file(home, "other")).session.id != first


def test_importing_a_session_already_here_is_refused_unless_as_copy(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee(*START)
    dump = tmp_path / "s.json"
    assert referee("export", "-f", "json", "-o", str(dump)).code == 0
    one_line(referee("import", str(dump), "--name", "again"), 2, "already here as friday")
    assert not session_file(home, "again").exists()
    assert referee("import", str(dump), "--name", "again", "--as-copy").code == 0
    # a copy is another file of the same session: it keeps the id, so it counts once
    ids = {storage.load(session_file(home, n)).session.id for n in ("friday", "again")}
    assert len(ids) == 1
    assert referee("delete", "friday", "--yes").code == 0
    one_line(referee("import", str(dump), "--name", "back"), 2, "already here as again")
    assert referee("delete", "again", "--yes").code == 0
    assert referee("import", str(dump), "--name", "back").code == 0  # gone, so welcome again


def test_an_old_file_gets_a_stable_id_written_on_its_next_save_with_a_backup(
    referee: Runner, home: Path
) -> None:
    referee(*START)
    path = session_file(home)
    old = re.sub(r'id = "[^"]*"\n', "", path.read_text())
    path.write_text(old)
    derived = storage.load(path).session.id
    assert re.fullmatch(r"[0-9a-f]{32}", derived)
    assert storage.load(path).session.id == derived  # the same on every read
    assert referee("kariki", "claim", "9").code == 0
    assert f'id = "{derived}"' in path.read_text()
    assert path.with_name("friday.toml.before-id.bak").read_text() == old


def test_renaming_an_old_file_keeps_its_original_as_a_backup(referee: Runner, home: Path) -> None:
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    shutil.copy(SCHEMA0, sessions / "old.toml")
    assert referee("rename", "old", "new").code == 0
    assert (sessions / "old.toml.schema0.bak").read_bytes() == SCHEMA0.read_bytes()
    assert storage.load(sessions / "new.toml").session.name == "new"


def test_a_hand_copy_is_named_and_counted_once(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee(*START)
    play(referee, 2)
    shutil.copy(session_file(home), session_file(home, "friday2"))
    listing = referee("sessions")
    assert "a copy of friday" in listing.out
    stats = json.loads(referee("stats", "--json").out)
    assert stats["sessions"] == 1
    out = tmp_path / "all.db"
    assert referee("export", "-f", "sqlite", "--all", "-o", str(out)).code == 0
    db = sqlite3.connect(out)
    assert db.execute("SELECT name, id FROM sessions").fetchall() == [
        ("friday", storage.load(session_file(home)).session.id)
    ]
    db.close()


# ------------------------------------------------------------------ platforms without fcntl

NO_FCNTL = """
import sys, types
from pathlib import Path
import subprocess  # before msvcrt appears: subprocess takes msvcrt to mean Windows
sys.modules["fcntl"] = None  # import fcntl now raises ImportError, as on Windows
calls = Path(sys.argv[1])
fake = types.ModuleType("msvcrt")
fake.LK_NBLCK = 2
def locking(fd, mode, nbytes):
    with calls.open("a") as f:
        f.write(f"{mode} {nbytes}\\n")
fake.locking = locking
sys.modules["msvcrt"] = fake
from referee.cli import run
sys.exit(run(sys.argv[2:]))
"""


def test_the_cli_runs_and_locks_without_fcntl(home: Path, tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    env = {**os.environ, "REFEREE_HOME": str(home)}
    for argv in (["--version"], list(START), ["kariki", "claim", "9"]):
        done = subprocess.run([sys.executable, "-c", NO_FCNTL, str(calls), *argv], env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert calls.read_text().splitlines() == ["2 1", "2 1"]  # new and claim each locked
    assert len(storage.load(session_file(home)).session.events) == 1


@pytest.mark.parametrize("planted", ["link", "fifo"])
def test_the_shell_history_never_goes_through_a_planted_name(
    referee: Runner, home: Path, tmp_path: Path, planted: str
) -> None:
    pexpect = pytest.importorskip("pexpect")
    referee(*START)
    victim = tmp_path / "profile"
    victim.write_text("precious\n")
    history = home / "shell_history"
    if planted == "link":
        history.symlink_to(victim)
    else:
        os.mkfifo(history)  # reading it would wait for a writer forever
    env = {**os.environ, "REFEREE_HOME": str(home), "COLUMNS": "40", "NO_COLOR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "referee", "shell"], env=env,
                          encoding="utf-8", timeout=120)  # fmt: skip
    child.expect_exact("Ann claims> ")
    child.send("claim 9\r")
    child.expect_exact("Bob vs Nine> ")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert victim.read_text() == "precious\n"
    assert not history.is_symlink() and "claim 9" in history.read_text()


@pytest.mark.parametrize("schema", ["true", "1.0"])
def test_a_kept_replay_never_reads_a_file_the_whole_parse_refuses(
    referee: Runner, home: Path, schema: str
) -> None:
    """`schema = true` and `schema = 1.0` equal 1 in Python: the split read of a file with a
    kept replay (`codec.split_events`) took them for schema 1, so an entry with the key of
    such bytes (anyone can compute it) made referee read, and then save, a file that every
    load without the entry refuses."""
    referee(*START)
    play(referee, 2)
    path = session_file(home)
    cache = storage.Cache.default()
    storage.load(path, cache)
    entry = cache.entry(path)
    kept = json.loads(entry.read_bytes())
    bent = path.read_bytes().replace(b"schema = 1\n", f"schema = {schema}\n".encode(), 1)
    path.write_bytes(bent)
    kept["key"] = cache.key(storage.digest_of(bent))
    entry.write_text(json.dumps(kept))
    from referee.errors import StorageError

    with pytest.raises(StorageError, match="'schema' must be a whole number"):
        storage.load(path, cache)
    one_line(referee("kariki", "claim", "9"), 3, "'schema' must be a whole number")
    assert path.read_bytes() == bent
