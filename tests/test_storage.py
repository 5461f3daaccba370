"""Never lose a session (RELIABILITY.md): bad files, crashes, failing disks, two terminals."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import Runner, session_file, snapshot, wait_until
from referee import storage
from referee.errors import UsageError
from referee.games.base import PlayerInfo
from referee.session import Session
from referee.text import check_name

START = ("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")


def three_events(referee: Runner) -> None:
    """A new Kariki night and its first three events: a claim, a roll, a claim."""
    referee(*START)
    for action in (("claim", "9"), ("roll",), ("claim", "10")):
        referee("kariki", *action)


def count_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of events of each session a transaction replays from now on."""
    from referee.session import replay as real

    replays: list[int] = []

    def counted(session: Session) -> Any:
        replays.append(len(session.events))
        return real(session)

    monkeypatch.setattr("referee.storage.sessions.replay", counted)
    return replays


# ------------------------------------------------------------------ unreadable files

GOOD_HEAD = 'schema = 1\nname = "friday"\ngame = "kariki"\n'
PLAYERS = 'players = [{name = "Ann"}, {name = "Bob"}]\n'
BROKEN_FILES = [
    pytest.param(lambda good: good[: len(good) // 2], "not valid TOML", id="truncated"),
    pytest.param(lambda good: b"\xef\xbb\xbf" + good, "byte-order mark", id="bom"),
    pytest.param(lambda good: good.replace(b"Ann", "Ännchen".encode("latin-1")),
                 "line", id="latin-1"),
    pytest.param(lambda good: good.replace(b"schema = 1", b"schema = 99"), "newer referee",
                 id="future-schema"),
    pytest.param(lambda good: good.replace(b"schema = 1", b"schema = true"), "'schema' must be",
                 id="schema-bool"),
    pytest.param(lambda good: good.replace(b"schema = 1\n", b""), "'schema' must be",
                 id="no-schema"),
    pytest.param(lambda good: good + b"deep = " + b"[" * 5000 + b"]" * 5000 + b"\n",
                 "cannot be read", id="deep-nesting"),
    pytest.param(lambda good: good + b"huge = " + b"7" * 5000 + b"\n", "cannot be read",
                 id="5000-digit-integer"),
    pytest.param(lambda good: good.replace(b'rank = "Nine"', b'rank = "Eight"', 1).replace(
        b'type = "roll"', b'type = "claim", rank = "Four"', 1), "event 2", id="illegal-event"),
    pytest.param(lambda good: good.replace(b'by = "Bob"', b'by = "Zed"', 1), "event 2",
                 id="missing-player"),
    pytest.param(lambda good: good.replace(b'game = "kariki"', b'game = "chess"'),
                 "unknown game", id="unknown-game"),
    pytest.param(lambda good: good.replace(b'rank = "Nine"', b"rank = 9", 1), "event 1",
                 id="wrong-type"),
    pytest.param(lambda good: b"", "'schema' must be", id="empty"),
]  # fmt: skip


@pytest.mark.parametrize(("breaking", "message"), BROKEN_FILES)
def test_broken_files_are_reported_and_never_touched(
    referee: Runner, home: Path, breaking: object, message: str
) -> None:
    referee(*START)
    for action in (("claim", "9"), ("roll",), ("claim", "10")):
        assert referee("kariki", *action).code == 0
    path = session_file(home)
    assert callable(breaking)
    path.write_bytes(breaking(path.read_bytes()))
    before = snapshot(path)
    for command in (("show",), ("show", "--json"), ("kariki", "pull", "4-5"), ("undo",)):
        result = referee(*command)
        assert result.code == 3, (command, result)
        assert result.err.count("\n") == 1 and message in result.err
        assert "Traceback" not in result.err
        assert result.out == ""
    assert snapshot(path) == before


def test_a_missing_session_file(referee: Runner, home: Path) -> None:
    result = referee("show", "-s", str(home / "nope.toml"))
    assert (result.code, "no such session file" in result.err) == (3, True)


def test_no_current_session_is_a_usage_error(referee: Runner) -> None:
    result = referee("show")
    assert result.code == 2 and "no current session" in result.err


def test_a_schema_0_file_is_migrated_and_backed_up_before_the_first_write(
    referee: Runner, home: Path
) -> None:
    """tests/data/schema0-kariki.toml was written by hand in the prototype's format."""
    fixture = Path(__file__).parent / "data" / "schema0-kariki.toml"
    referee("new", "kariki", "X", "Y", "--name", "made-the-folder")
    path = home / "sessions" / "old.toml"
    path.write_bytes(fixture.read_bytes())
    shown = show_json_of(referee, "old")
    assert (shown["direction"], shown["turn"], shown["events"]) == ("right", "Cy", 3)
    assert [p["berry_causes"] for p in shown["players"]] == [["lie"], [], []]  # Ann passed it
    assert [p["nickname"] for p in shown["players"]] == ["Ace", None, None]
    assert path.read_bytes() == fixture.read_bytes()  # reading alone writes nothing
    assert referee("kariki", "claim", "10", "-s", "old").code == 0
    backup = path.with_name("old.toml.schema0.bak")
    assert backup.read_bytes() == fixture.read_bytes()  # the original, kept whole
    upgraded = path.read_text()
    assert upgraded.startswith("schema = 1") and 'type = "claim"' in upgraded
    assert show_json_of(referee, "old")["events"] == 4
    assert referee("kariki", "claim", "10", "-s", "old").code == 0  # a later write keeps the bak
    assert backup.read_bytes() == fixture.read_bytes()


def show_json_of(referee: Runner, name: str) -> dict[str, Any]:
    import json

    result = referee("show", "--json", "-s", name)
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)
    return doc


# ------------------------------------------------------------------ crashes


def run_cli(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "REFEREE_HOME": str(home), "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], env=full_env, capture_output=True, text=True,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize("point", ["after_temp_write", "after_fsync", "after_replace"])
def test_kill_during_save_leaves_the_old_or_the_new_state(
    referee: Runner, home: Path, point: str
) -> None:
    referee(*START)
    old = session_file(home).read_bytes()
    result = run_cli(home, "kariki", "claim", "9", env={storage.CRASH_ENV: point})
    assert result.returncode == -signal.SIGKILL
    loaded = storage.load(session_file(home))
    events = len(loaded.session.events)
    if point == "after_replace":
        assert events == 1
    else:
        assert events == 0 and session_file(home).read_bytes() == old
    assert referee("kariki", "claim", "10").code == 0  # and the table plays on


def test_random_kills_over_many_saves(referee: Runner, home: Path) -> None:
    """A writer process is killed at random moments of a stream of saves, 40 times over.

    The writer is a fork of this process (no interpreter start-up). Each kill waits until the
    writer has replaced the file at least once (observed progress, not a time window, so a
    loaded machine only makes the test slower), then lands a random moment later.
    """
    referee(*START)
    path = session_file(home)
    rng = random.Random(20261129)
    # Claim and take the mug, over and over: never a berry, so nobody ever goes out and the
    # writer can save as often as a loaded machine lets it before each kill (a pattern with
    # pulls put a player out after enough saves, and then the writer could save nothing).
    actions = [("claim", "9"), ("roll",)]
    from referee.cli.app import command_for, run  # the Typer path, its tree built once

    command = command_for(["kariki"])  # built once here, inherited by every fork
    killed = 0
    for round_number in range(40):
        before = len(storage.load(path).session.events)
        seen = path.stat().st_ino  # every save puts a new file (a new inode) in place

        def saved(seen: int = seen) -> bool:
            return path.stat().st_ino != seen

        child = os.fork()
        if child == 0:  # the writer: save as fast as it can until killed
            try:
                for i in range(10_000):
                    run(["kariki", *actions[(before + i) % 2], "-s", str(path)], command=command)
            finally:
                os._exit(0)
        wait_until(saved, "a save")
        time.sleep(rng.uniform(0.0, 0.01))  # where in the next save the kill lands
        os.kill(child, signal.SIGKILL)
        _, status = os.waitpid(child, 0)
        killed += os.WIFSIGNALED(status)
        after = storage.load(path)  # parses and replays, whatever the moment
        assert len(after.session.events) > before, round_number
    assert killed == 40
    assert referee("undo").code == 0  # any next save sweeps the dead writers' temp files
    assert not list(path.parent.glob(".*.tmp"))


# ------------------------------------------------------------------ failing disks


@pytest.mark.parametrize("target", ["replace", "fsync"])
def test_a_full_disk_leaves_the_old_file_and_no_temp(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    referee(*START)
    before = snapshot(session_file(home))

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, target, full)
    result = referee("kariki", "claim", "9")
    monkeypatch.undo()
    assert result.code == 3
    assert "not saved: No space left on device" in result.err
    assert snapshot(session_file(home)) == before
    assert not list(session_file(home).parent.glob(".*.tmp"))


def test_a_failing_folder_fsync_after_replace_still_counts_as_saved(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    real_open = os.open

    def no_dirs(path: str | Path, flags: int, *rest: int) -> int:
        if flags == os.O_RDONLY and Path(path).is_dir():
            raise OSError(errno.EIO, "I/O error")
        return real_open(path, flags, *rest)

    monkeypatch.setattr(os, "open", no_dirs)
    assert referee("kariki", "claim", "9").code == 0
    monkeypatch.undo()
    assert len(storage.load(session_file(home)).session.events) == 1


# ------------------------------------------------------------------ two terminals

WRITER = """
import os, sys, time
from pathlib import Path
go = Path(sys.argv[1])
from referee.cli import run
Path(f"{go}.ready.{os.getpid()}").touch()
while not go.exists():
    time.sleep(0.002)
for _ in range(int(sys.argv[2])):
    if run(["kariki", "slash", sys.argv[3]]) == 0:
        print("ok", flush=True)
"""


def test_concurrent_writers_lose_nothing(referee: Runner, home: Path, tmp_path: Path) -> None:
    referee("new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "friday",
            "--ruleset", str(write_ruleset(tmp_path, slashes_per_berry=99)))  # fmt: skip
    go = tmp_path / "go"
    per_writer = 6
    env = {**os.environ, "REFEREE_HOME": str(home), "REFEREE_LOCK_TIMEOUT": "30"}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(go), str(per_writer), name],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("Ann", "Bob", "Cy", "Dee")
    ]
    # Released together once every writer is ready and waiting (observed, not a time guess).
    wait_until(lambda: len(list(tmp_path.glob("go.ready.*"))) == len(writers), "the writers")
    go.touch()
    outputs = [w.communicate(timeout=600) for w in writers]  # a guard against a hang
    oks = sum(out.count("ok") for out, _ in outputs)
    assert oks == 4 * per_writer, [err for _, err in outputs]
    session = storage.load(session_file(home)).session
    assert len(session.events) == 4 * per_writer
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert sum(1 for e in session.events if e["player"] == name) == per_writer


def test_a_held_lock_times_out_with_a_clear_error(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    path = session_file(home)
    before = snapshot(path)
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "0.2")
    started = time.perf_counter()
    with storage.locked(path):
        result = referee("kariki", "claim", "9")
    assert 0.2 <= time.perf_counter() - started < 10  # waited, and did not hang
    assert result.code == 3 and "another referee is writing" in result.err
    assert snapshot(path) == before


def write_ruleset(folder: Path, **changes: object) -> Path:
    text = (storage.bundled_rulesets() / "kariki.toml").read_text()
    for key, value in changes.items():
        lines = [ln for ln in text.splitlines() if not ln.startswith(f"{key} ")]
        text = "\n".join([f"{key} = {str(value).lower()}", *lines])
    path = folder / "house.toml"
    path.write_text(text)
    return path


# ------------------------------------------------------------------ the text of a save


def is_valid_name(text: str) -> bool:
    try:
        return check_name(text) == text
    except UsageError:
        return False


TEXTS = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)
VALUES = st.one_of(TEXTS, st.integers(-(2**63), 2**63 - 1))
NAMES = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N", "P", "S", "M")), min_size=1, max_size=16
).filter(is_valid_name)


@given(
    players=st.lists(st.tuples(NAMES, st.one_of(st.none(), NAMES)), min_size=2, max_size=6,
                     unique_by=lambda p: p[0].casefold()).filter(
        lambda ps: len({t.casefold() for p in ps for t in p if t}) == sum(
            1 for p in ps for t in p if t)),
    events=st.lists(st.dictionaries(st.sampled_from(["type", "by", "rank", "n"]), VALUES),
                    max_size=20),
)  # fmt: skip
def test_session_text_reads_back_exactly(
    players: list[tuple[str, str | None]], events: list[dict[str, str | int]]
) -> None:
    import tomllib

    session = Session(
        name="x",
        game="kariki",
        ruleset=storage.load_ruleset("kariki"),
        players=tuple(PlayerInfo(n, nick) for n, nick in players),
        options={"first": players[0][0], "buy_in": 2},
        events=tuple(events),
        undone=tuple(events[:2]),
        created="2026-11-29T00:00:00+00:00",
        id="0123456789abcdef" * 2,
    )
    assert storage.session_from_doc(tomllib.loads(storage.session_to_text(session))) == session


# ------------------------------------------------------------------ the replay cache


def cache_of(home: Path) -> storage.Cache:
    return storage.Cache.default()  # the home fixture points XDG_CACHE_HOME beside home


def test_the_cache_serves_unchanged_bytes_and_replays_any_edit(referee: Runner, home: Path) -> None:
    three_events(referee)
    path = session_file(home)
    cache = cache_of(home)
    assert list(cache.root.glob("*.json"))  # the last save left its replay
    assert not (home / "cache").exists()  # never in the data folder, which may be synced
    assert storage.load(path, cache) == storage.load(path)  # the cache agrees with a replay
    before = path.read_bytes()
    path.write_bytes(before.replace(b'rank = "Ten"', b'rank = "Four"'))  # a bad hand edit
    result = referee("show")
    assert result.code == 3 and "event 3" in result.err


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every TOML parse of a session file from now on, by path."""
    from referee.storage import codec

    parsed: list[Path] = []
    real = codec.parse_toml

    def counting(raw: bytes, path: Path) -> dict[str, Any]:
        parsed.append(path)
        return real(raw, path)

    monkeypatch.setattr(codec, "parse_toml", counting)
    return parsed


def test_a_file_referee_wrote_loads_from_its_kept_replay_without_a_parse(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_events(referee)
    path = session_file(home)
    parses = count_parses(monkeypatch)
    kept = storage.load(path, cache_of(home))
    assert parses == []  # the bytes are the kept session's, written out: no parse needed
    assert kept == storage.load(path)  # and it is what a parse and a replay give
    assert parses == []  # a file referee wrote is read without tomllib parsing its events


def test_a_hand_edited_file_is_parsed_and_its_kept_replay_still_used(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    for action in (("claim", "9"), ("roll",)):
        referee("kariki", *action)
    path = session_file(home)
    edited = path.read_bytes().replace(b'{ type = "roll"', b'{type="roll"')  # same events
    path.write_bytes(edited)
    assert referee("show").code == 0  # keeps the replay of these bytes
    expected = storage.load_bytes(path, edited)
    parses = count_parses(monkeypatch)
    from referee.storage import codec

    def no_replay(loaded: object) -> object:
        raise AssertionError("replayed: the kept replay of these bytes was not used")

    monkeypatch.setattr(codec, "replay_of", no_replay)
    kept = storage.load(path, cache_of(home))
    assert parses == [path]  # parsed: the events are not written as referee writes them
    assert kept == expected


def test_a_broken_cache_entry_is_ignored(referee: Runner, home: Path) -> None:
    referee(*START)
    referee("kariki", "claim", "9")
    entries = list(cache_of(home).root.glob("*.json"))
    assert entries
    for entry in entries:
        entry.write_bytes(b"not json")
    assert show_json(referee)["claim"] == "Nine"


def show_json(referee: Runner) -> dict[str, object]:
    import json

    result: dict[str, object] = json.loads(referee("show", "--json").out)
    return result


def test_a_long_event_still_saves_as_one_line(referee: Runner, home: Path) -> None:
    # tomli-w writes an inline table past 100 characters as [[...]], which cannot stand
    # inside the events list: found by the property test above.
    import tomllib

    event: dict[str, str | int] = {"type": "0" * 40, "by": "0" * 16, "rank": -(10**17), "n": -1}
    session = Session("x", "kariki", storage.load_ruleset("kariki"),
                      (PlayerInfo("Ann"), PlayerInfo("Bob")), {}, events=(event,))  # fmt: skip
    text = storage.session_to_text(session)
    assert "[[" not in text
    assert storage.session_from_doc(tomllib.loads(text)).events == (event,)


def test_the_cache_rebuilds_every_state_of_a_night_exactly() -> None:
    """Rulings are unions of records: each must come back as its own kind (InPoo is not
    TookMug although both hold one name)."""
    import json

    from referee.games.kariki.engine import State
    from referee.plain import from_plain, to_plain
    from referee.session import states

    night = storage.load(Path(__file__).parents[1] / "examples" / "kariki-night.toml")
    seen_kinds: set[str] = set()
    for state in states(night.session):
        again = from_plain(State, json.loads(json.dumps(to_plain(state))))
        assert again == state
        seen_kinds |= {type(f).__name__ for f in state.ruling}
    assert {"InPoo", "TookMug", "WentOut", "BoughtBack", "FinalPass"} <= seen_kinds


# ---------------------------------------------------------------------------- the event lines

EVENT_VALUES = st.one_of(st.text(max_size=30), st.integers(min_value=-(10**18), max_value=10**18))


@given(st.dictionaries(st.text(max_size=12), EVENT_VALUES, max_size=6))
def test_an_event_line_is_what_tomli_w_writes_and_reads_back_the_same(
    event: dict[str, str | int],
) -> None:
    import tomllib

    import tomli_w

    from referee.storage.codec import event_line

    line = event_line(event.items())
    pairs = [tomli_w.dumps({k: v}).rstrip("\n") for k, v in event.items()]
    assert line == ("{ " + ", ".join(pairs) + " }" if event else "{}")
    assert "\n" not in line
    assert tomllib.loads(f"e = {line}") == {"e": event}


EXAMPLE_FILES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_a_file_split_at_its_events_reads_as_the_whole_parse(example: Path) -> None:
    import tomllib

    from referee.storage.codec import split_events

    loaded = storage.load(example)
    raw = storage.session_to_text(loaded.session).encode()
    whole = tomllib.loads(raw.decode())
    found = split_events(raw, whole["events"], whole["undone"])
    assert found is not None and found[0] == whole
    assert split_events(raw, whole["events"][:-1], whole["undone"]) is None  # one event short


SPLIT_REFUSED = {
    "a table in the header": lambda t: t.replace("players = [", "[[players]]\nx = [", 1),
    "an indented table": lambda t: t.replace("game =", "  [x]\ngame =", 1),
    "events in the header": lambda t: t.replace("game =", "events.x = 1\ngame =", 1),
    "another key in the tables": lambda t: t.replace("[options]", "events = []\n[options]", 1),
    "an older schema": lambda t: t.replace("schema = 1", "schema = 0", 1),
    "schema true": lambda t: t.replace("schema = 1", "schema = true", 1),  # == 1 in Python
    "schema 1.0": lambda t: t.replace("schema = 1", "schema = 1.0", 1),
    "no id": lambda t: "\n".join(x for x in t.split("\n") if not x.startswith("id = ")),
    "a byte-order mark": lambda t: "\ufeff" + t,
    "events spaced by hand": lambda t: t.replace("{ type", "{type", 1),
}


@pytest.mark.parametrize("change", SPLIT_REFUSED.values(), ids=SPLIT_REFUSED.keys())
def test_a_file_not_exactly_as_referee_writes_it_is_parsed_whole(change: Any) -> None:
    import tomllib

    from referee.storage.codec import split_events

    loaded = storage.load(EXAMPLE_FILES[0])
    text = storage.session_to_text(loaded.session)
    whole = tomllib.loads(text)
    found = split_events(text.encode(), whole["events"], whole["undone"])
    assert found is not None and found[0] == whole
    assert split_events(change(text).encode(), whole["events"], whole["undone"]) is None


@given(st.lists(st.dictionaries(st.sampled_from(["type", "by", "at", "x y", "n"]), EVENT_VALUES,
                                max_size=4), max_size=5))  # fmt: skip
def test_any_events_written_split_as_the_whole_parse_reads_them(
    events: list[dict[str, Any]],
) -> None:
    import tomllib
    from dataclasses import replace

    from referee.storage import codec
    from referee.storage.codec import split_events

    session = replace(storage.load(EXAMPLE_FILES[0]).session, events=tuple(events))
    raw = storage.session_to_text(session).encode()
    whole = tomllib.loads(raw.decode())
    found = split_events(raw, whole["events"], whole["undone"])
    assert found is not None and found[0] == whole
    parsed = codec.parse_session(EXAMPLE_FILES[0], raw, "")
    assert parsed.session.events == tuple(whole["events"])
    assert parsed.lines is None or parsed.lines == found[1]  # read line by line: its lines


def test_an_undo_after_an_action_takes_the_kept_state_before_it(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.session import replay as real

    three_events(referee)
    replays = count_replays(monkeypatch)
    assert referee("undo").code == 0
    assert replays == []  # the state before the last event was kept with the replay
    after = storage.load(session_file(home))  # RELIABILITY 6: the replay of what is left
    assert storage.load(session_file(home), cache_of(home)).state == after.state
    assert referee("undo").code == 0  # a second undo has no kept state: it replays
    assert replays == [1]
    assert storage.load(session_file(home), cache_of(home)).state == real(
        storage.load(session_file(home)).session
    )


def test_a_kept_state_before_the_last_event_that_does_not_lead_to_the_kept_state_is_replayed(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    from dataclasses import replace

    from referee.plain import to_plain
    from referee.session import replay as real

    three_events(referee)
    path = session_file(home)
    entry = cache_of(home).entry(path)
    kept = json.loads(entry.read_text())
    # The right key, a state of this very night, but not the one before its last event: the
    # state after its first event (planted, or written by a broken save).
    first = storage.load(path).session
    kept["before"] = to_plain(real(replace(first, events=first.events[:1])))
    entry.write_text(json.dumps(kept))
    replays = count_replays(monkeypatch)
    assert referee("undo").code == 0
    assert replays == [2]  # not believed: what is left is replayed
    assert storage.load(path, cache_of(home)).state == real(storage.load(path).session)


def test_an_undo_after_a_replay_takes_the_state_the_replay_passed(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from referee.session import replay as real

    three_events(referee)
    shutil.rmtree(cache_of(home).root)  # as after a hand edit, a sync or a first run: replayed
    assert referee("show").code == 0
    replays = count_replays(monkeypatch)
    assert referee("undo").code == 0
    assert replays == []  # the show's replay kept the state before the last event
    assert storage.load(session_file(home), cache_of(home)).state == real(
        storage.load(session_file(home)).session
    )


@pytest.mark.parametrize("kept", [True, False], ids=["kept replay", "parsed"])
def test_a_save_writes_and_reads_back_only_the_events_it_did_not_read(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, kept: bool
) -> None:
    import shutil

    from referee.storage import codec

    three_events(referee)
    if not kept:
        shutil.rmtree(cache_of(home).root)  # the file is parsed whole (tomllib), not split
    parse = codec._parse
    written: list[str] = []

    def counted(text: str) -> dict[str, Any]:
        if text.startswith("e = [\n"):  # the event lines a save wrote, read back
            written.extend(line.strip()[:-1] for line in text.splitlines()[1:-1])
        return parse(text)

    monkeypatch.setattr(codec, "_parse", counted)
    assert referee("kariki", "pull", "6-4").code == 0
    assert len(written) == 1 and '"pull"' in written[0]  # the one new event, read back
    text = session_file(home).read_text()
    assert text == storage.session_to_text(storage.load(session_file(home)).session)
    written.clear()
    assert referee("undo").code == 0  # the undone event moves to the other list as it was
    assert written == []
    assert referee("redo").code == 0
    assert written == []
    again = session_file(home).read_text()
    assert again[again.index("\nevents = ") :] == text[text.index("\nevents = ") :]


def test_a_line_is_written_again_only_for_the_very_event_it_was_read_as(
    referee: Runner, home: Path
) -> None:
    from dataclasses import replace

    from referee.storage import codec

    referee(*START)
    referee("kariki", "claim", "9")
    loaded = storage.load(session_file(home))
    assert loaded.lines is not None and len(loaded.lines.events) == 1
    # An equal event that is another object (made elsewhere) is written afresh, not matched.
    other = replace(loaded.session, events=(dict(loaded.session.events[0], by="Bob"),))
    text, lines = codec.session_text(other, loaded)
    assert '"Bob"' in lines.events[0] and text == storage.session_to_text(other)


def test_a_save_whose_event_would_not_read_back_is_refused(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.storage import codec

    referee(*START)
    before = session_file(home).read_bytes()
    monkeypatch.setattr(codec, "event_line", lambda items: '{ type = "claim" }')  # a bad writer
    result = referee("kariki", "claim", "9")
    assert result.code == 3 and "would not read back the same" in result.err
    assert session_file(home).read_bytes() == before


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_a_file_referee_wrote_is_read_as_tomllib_reads_it(example: Path) -> None:
    import tomllib

    from referee.storage.codec import read_canonical

    loaded = storage.load(example)
    raw = storage.session_to_text(loaded.session).encode()
    found = read_canonical(raw)
    assert found is not None and found[0] == tomllib.loads(raw.decode())


READ_REFUSED = {k: v for k, v in SPLIT_REFUSED.items() if k != "no id"}  # no id: read, and one
# is derived from it as from any file from before ids


@pytest.mark.parametrize("change", READ_REFUSED.values(), ids=READ_REFUSED.keys())
def test_a_file_not_as_referee_writes_it_is_left_to_tomllib(change: Any) -> None:
    from referee.storage.codec import read_canonical

    loaded = storage.load(EXAMPLE_FILES[0])
    text = storage.session_to_text(loaded.session)
    try:
        found = read_canonical(change(text).encode())
    except ValueError:  # a header tomllib refuses: the whole parse says why
        found = None
    assert found is None


@given(st.lists(st.dictionaries(st.sampled_from(["type", "by", "at", "x y", "n"]), EVENT_VALUES,
                                max_size=4), max_size=5))  # fmt: skip
def test_any_events_written_are_read_as_tomllib_reads_them(events: list[dict[str, Any]]) -> None:
    import tomllib
    from dataclasses import replace

    from referee.storage.codec import read_canonical

    session = replace(storage.load(EXAMPLE_FILES[0]).session, events=tuple(events))
    raw = storage.session_to_text(session).encode()
    read = read_canonical(raw)
    found = None if read is None else read[0]
    assert found is None or found == tomllib.loads(raw.decode())
    simple = all(" " not in k and not (isinstance(v, int) and abs(v) >= 10**18)
                 for e in events for k, v in e.items())  # fmt: skip
    if simple:
        assert found is not None  # bare keys, numbers of at most 18 digits: the written form


@given(st.dictionaries(st.text(max_size=12), EVENT_VALUES, max_size=6))
def test_the_strict_reader_reads_an_event_line_as_tomllib_reads_it(
    event: dict[str, str | int],
) -> None:
    import tomllib

    from referee.storage.codec import event_line, strict_read

    line = event_line(event.items())
    found = strict_read(line)
    assert found is None or found == tomllib.loads(f"e = {line}")["e"] == event


def test_tables_are_taken_as_kept_only_when_written_exactly_so(referee: Runner, home: Path) -> None:
    import tomllib

    from referee.storage.codec import split_events

    referee(*START)
    referee("kariki", "claim", "9")
    raw = session_file(home).read_bytes()
    whole = tomllib.loads(raw.decode())
    tables = {"options": whole["options"], "ruleset": whole["ruleset"]}
    wrong = {"options": whole["options"], "ruleset": {**whole["ruleset"], "buy_in": 7}}
    odd: list[object] = [None, {"options": {}}, {"options": {}, "ruleset": {"x": {1}}}]
    for kept in (tables, wrong, *odd):
        found = split_events(raw, whole["events"], whole["undone"], kept)
        assert found is not None and found[0] == whole  # what the file holds, whatever was kept


def test_a_save_writes_the_tables_text_again_only_for_the_very_tables_read(
    referee: Runner, home: Path
) -> None:
    from dataclasses import replace

    from referee.storage import codec

    referee(*START)
    referee("kariki", "claim", "9")
    loaded = storage.load(session_file(home))
    assert loaded.lines is not None and loaded.lines.tables is not None
    planted = replace(loaded, lines=loaded.lines._replace(tables="[options]\nx = 1\n"))
    again, _ = codec.session_text(loaded.session, planted)
    assert "x = 1" in again  # the same tables: their text as it was read
    other = replace(loaded.session, ruleset={**loaded.session.ruleset, "buy_in": 5})
    text, lines = codec.session_text(other, planted)
    assert "x = 1" not in text and "buy_in = 5" in text and text.endswith(str(lines.tables))
