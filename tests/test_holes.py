"""Issue 39: holes an attack found. Each test failed on the code before its fix.

1. nothing in the data folder may block or be opened when it is not a regular file;
2. a planted file at the backup's name never makes the schema-0 migration skip its backup;
3. names are NFC, and characters that draw nothing are refused and count as nothing;
4. a refused command leaves no lock file behind;
5. `--json` is valid JSON and valid UTF-8 on any stdout.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import Runner, session_file, snapshot

START = ("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")
SCHEMA0 = Path(__file__).parent / "data" / "schema0-kariki.toml"
no_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def one_line(result: object, code: int, part: str) -> None:
    assert getattr(result, "code", None) == code, result
    err = str(getattr(result, "err", ""))
    assert err.count("\n") == 1 and part in err and "Traceback" not in err, err


# ------------------------------------------------------------------ 1. nothing may block


class WaitingWriter:
    """A writer blocked opening a FIFO until some reader opens it: whether it was let go tells
    whether referee opened the FIFO at all (opening a device can do things: never open one)."""

    def __init__(self, fifo: Path) -> None:
        self.fifo = fifo
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        fd = os.open(self.fifo, os.O_WRONLY)  # blocks until a reader opens the FIFO
        self.opened.set()
        os.close(fd)

    def release(self) -> None:
        reader = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.thread.join(10)
        os.close(reader)


@no_fifos
@pytest.mark.parametrize("line", [["show"], ["log"], ["kariki", "claim", "9"]], ids=" ".join)
def test_a_session_linked_to_a_fifo_is_refused_without_being_opened(
    referee: Runner, home: Path, tmp_path: Path, line: list[str]
) -> None:
    referee(*START)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    linked = home / "sessions" / "piped.toml"
    linked.symlink_to(fifo)
    writer = WaitingWriter(fifo)
    try:
        one_line(referee(*line, "-s", str(linked)), 3, "not a regular file")
        assert not writer.opened.wait(0.2), "referee opened the FIFO"
    finally:
        writer.release()
    assert not (home / "sessions" / "piped.lock").exists()


@no_fifos
def test_a_fifo_planted_as_a_lock_file_is_refused_in_one_line(referee: Runner, home: Path) -> None:
    referee(*START)
    lock = home / "sessions" / "friday.lock"
    lock.unlink()
    os.mkfifo(lock)
    before = snapshot(session_file(home))
    writer = WaitingWriter(lock)
    try:
        one_line(referee("kariki", "claim", "9"), 3, "not a regular file")
        assert not writer.opened.wait(0.2), "referee opened the FIFO"
    finally:
        writer.release()
    assert snapshot(session_file(home)) == before
    assert stat.S_ISFIFO(lock.lstat().st_mode)


@no_fifos
def test_the_front_door_never_opens_a_link_planted_as_the_pointer(
    home: Path, tmp_path: Path
) -> None:
    """`current` as a link to a FIFO (or /dev/tty): the front door opened it, following it."""
    from referee import answers

    home.mkdir(parents=True)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (home / "current").symlink_to(fifo)
    writer = WaitingWriter(fifo)
    try:
        with pytest.raises(OSError):
            answers._pointer(str(home))
        assert answers.answer_key(["show"]) is None  # the ordinary path says why
        assert not writer.opened.wait(0.2), "the front door opened the FIFO"
    finally:
        writer.release()


def test_the_front_door_runs_where_os_lacks_nofollow_and_nonblock(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows has neither flag: the front door named them straight from `os`."""
    import importlib

    from referee import answers

    referee(*START)
    monkeypatch.delattr(os, "O_NOFOLLOW", raising=False)
    monkeypatch.delattr(os, "O_NONBLOCK", raising=False)
    try:
        fresh = importlib.reload(answers)
        assert fresh.read_answer("0" * 64) is None
        assert fresh._pointer(str(home)) == "friday"
        assert fresh._session_bytes(str(session_file(home)))
    finally:
        monkeypatch.undo()
        importlib.reload(answers)


# ------------------------------------------------------------------ 2. the backup is never skipped


@pytest.mark.parametrize("planted", ["file", "fifo", "link"])
def test_a_file_planted_at_the_backup_name_never_skips_the_backup(
    referee: Runner, home: Path, tmp_path: Path, planted: str
) -> None:
    if planted == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    shutil.copy(SCHEMA0, sessions / "old.toml")
    taken = sessions / "old.toml.schema0.bak"
    if planted == "file":
        taken.write_bytes(b"not the original\n")
    elif planted == "fifo":
        os.mkfifo(taken)
    else:
        (tmp_path / "elsewhere").write_bytes(SCHEMA0.read_bytes())
        taken.symlink_to(tmp_path / "elsewhere")  # same bytes, but not ours to trust
    assert referee("kariki", "claim", "10", "-s", "old").code == 0
    fresh = sessions / "old.toml.schema0.1.bak"
    assert fresh.read_bytes() == SCHEMA0.read_bytes()
    if planted == "file":
        assert taken.read_bytes() == b"not the original\n"  # left alone


def test_a_backup_already_holding_the_original_is_kept_not_doubled(
    referee: Runner, home: Path
) -> None:
    """A save that failed after its backup, tried again: the backup there is the one."""
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    shutil.copy(SCHEMA0, sessions / "old.toml")
    shutil.copy(SCHEMA0, sessions / "old.toml.schema0.bak")
    assert referee("kariki", "claim", "10", "-s", "old").code == 0
    assert sorted(p.name for p in sessions.glob("*.bak")) == ["old.toml.schema0.bak"]


def test_a_backup_with_no_free_name_refuses_the_save_in_one_line(
    referee: Runner, home: Path
) -> None:
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    shutil.copy(SCHEMA0, sessions / "old.toml")
    (sessions / "old.toml.schema0.bak").write_bytes(b"x")
    for number in range(1, 100):
        (sessions / f"old.toml.schema0.{number}.bak").write_bytes(b"x")
    before = snapshot(sessions / "old.toml")
    one_line(referee("kariki", "claim", "10", "-s", "old"), 3, "no free name for the backup")
    assert snapshot(sessions / "old.toml") == before


# ------------------------------------------------------------------ 3. names


@pytest.mark.parametrize(
    "name",
    ["Bo\u200bb", "Bob\u034f", "Bob\ufe0f", "B\u00adob", "Bo\u2060b", "\ufeffBob", "Bob\U000e0100"],
    ids=["zwsp", "cgj", "vs16-after-letter", "soft-hyphen", "word-joiner", "bom", "vs-supplement"],
)
def test_names_with_characters_that_draw_nothing_are_refused(
    referee: Runner, home: Path, name: str
) -> None:
    one_line(referee("new", "kariki", "Ann", name, "Cy"), 2, "control or invisible")
    assert not (home / "sessions").exists()


def test_three_bobs_that_differ_only_by_invisible_characters_are_refused_in_a_file(
    referee: Runner, home: Path
) -> None:
    """Typed names are refused; a synced file must not seat three players all shown "Bob"."""
    referee(*START)
    path = session_file(home)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"Cy"', '"B\u034fob"'), encoding="utf-8")
    before = snapshot(path)
    one_line(referee("show"), 3, "control or invisible")
    assert snapshot(path) == before


@pytest.mark.parametrize(
    "name",
    ["\u0301", "\u0301Bob", "Jo \u20ddSmith"],
    ids=["alone", "before-a-name", "after-a-space"],
)
def test_an_accent_with_no_letter_under_it_is_refused_typed_or_in_a_file(
    referee: Runner, home: Path, name: str
) -> None:
    """A combining accent alone was a name drawn as nothing (the accent sat on the space
    before it: `passed: ́`), and one before Bob read as another Bob. An accent on a letter
    (Zoë typed as Zoe and U+0308) is a name as it always was."""
    one_line(referee("new", "kariki", "Ann", name, "Cy"), 2, "with no letter under it")
    assert not (home / "sessions").exists()
    referee(*START)
    path = session_file(home)
    path.write_text(path.read_text(encoding="utf-8").replace('"Cy"', f'"{name}"'), "utf-8")
    before = snapshot(path)
    one_line(referee("show"), 3, "with no letter under it")
    assert snapshot(path) == before
    assert referee("new", "kariki", "Ann", "Zoe\u0308", "C\u0336y", "--name", "x").code == 0


def test_names_that_differ_only_by_spaces_in_a_row_are_one_player(
    referee: Runner, home: Path
) -> None:
    """ "Jo Smith" and "Jo  Smith" (two spaces) sat at one table, shown alike (an error line
    shows both with one space), and the shell's unquoted Jo Smith named only the first."""
    one_line(referee("new", "kariki", "Jo Smith", "Jo  Smith", "--name", "x"), 2, "two players")
    assert referee("new", "kariki", "Ann", "Jo  Smith", "--name", "friday").code == 0
    one_line(referee("kariki", "join", "jo smith"), 2, "already at the table")
    assert referee("kariki", "claim", "9", "--by", "ann").code == 0
    assert "Jo  Smith passes" in referee("kariki", "pass", "--by", "Jo Smith").out


def test_a_name_is_kept_in_nfc_typed_or_loaded(referee: Runner, home: Path) -> None:
    decomposed, composed = "Zoe\u0308", "Zo\u00eb"
    assert referee("new", "kariki", "Ann", decomposed, "Cy", "--name", "friday").code == 0
    assert composed in session_file(home).read_text(encoding="utf-8")
    one_line(referee("new", "kariki", "Ann", composed, decomposed, "--name", "x"), 2, "two")
    # a hand-edited file in NFD: loaded as NFC, its events still find the player
    path = session_file(home)
    path.write_text(
        path.read_text(encoding="utf-8").replace(composed, decomposed), encoding="utf-8"
    )
    assert referee("kariki", "claim", "9").code == 0
    assert referee("kariki", "pass", "--by", decomposed).code == 0
    players = [p["name"] for p in json.loads(referee("show", "--json").out)["players"]]
    assert players == ["Ann", composed, "Cy"]


def test_an_emoji_with_its_presentation_selector_is_a_name_and_clashes_without_it(
    referee: Runner, home: Path
) -> None:
    heart = "\u2764\ufe0f"
    assert referee("new", "kariki", "Ann", heart, "Cy").code == 0
    one_line(referee("new", "kariki", "Ann", heart, "\u2764", "--name", "x"), 2, "two players")


# ------------------------------------------------------------------ 4. no stray locks


def test_a_refused_rename_leaves_no_lock_file(referee: Runner, home: Path) -> None:
    referee(*START)
    assert referee("rename", "nope", "y").code != 0
    assert sorted(p.name for p in (home / "sessions").iterdir()) == ["friday.lock", "friday.toml"]


def test_new_on_a_full_disk_leaves_no_lock_file(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee("new", "kariki", "X", "Y", "--name", "made-the-folder")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    one_line(referee(*START), 3, "No space left")
    monkeypatch.undo()
    left = sorted(p.name for p in (home / "sessions").iterdir())
    assert left == ["made-the-folder.lock", "made-the-folder.toml"]


def test_no_lock_files_are_committed_or_made_in_examples() -> None:
    examples = Path(__file__).parents[1] / "examples"
    assert not list(examples.glob("*.lock"))
    listed = subprocess.run(
        ["git", "ls-files", "examples"], cwd=examples.parent, capture_output=True, text=True
    )
    assert not [n for n in listed.stdout.splitlines() if n.endswith(".lock")]


# ------------------------------------------------------------------ 5. JSON on any stdout


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_json_on_a_non_utf8_stdout_is_valid_ascii_json(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    from referee.cli import output

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    monkeypatch.setattr(sys, "stdout", stream)
    output.print_json({"name": "B\U0001f600b Zo\u00eb", "tag": "x\U000e0001y"})
    stream.flush()
    data = raw.getvalue()
    assert data.isascii()
    assert json.loads(data.decode("utf-8")) == {
        "name": "B\U0001f600b Zo\u00eb",
        "tag": "x\U000e0001y",
    }


def test_json_on_a_utf8_stdout_keeps_characters_whole_and_escapes_past_the_plane_as_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.cli import output

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stream)
    output.print_json({"name": "B\U0001f600b", "tag": "x\U000e0001y"})
    stream.flush()
    text = raw.getvalue().decode("utf-8")
    assert "B\U0001f600b" in text  # one character, not a pair to join
    assert "\\udb40\\udc01" in text  # unprintable past the plane: a valid pair, not \\ue0001
    assert json.loads(text)["tag"] == "x\U000e0001y"


@pytest.mark.parametrize("line", [["show", "--json"], ["export", "-f", "json", "-o", "-"]])
def test_a_non_utf8_stdout_gets_valid_json_not_a_traceback(home: Path, line: list[str]) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "REFEREE_NO_ANSWERS": "1"}
    made = subprocess.run(
        [sys.executable, "-m", "referee", "new", "kariki", "Ann", "B\U0001f600b", "Zo\u00eb"],
        env={**env, "PYTHONIOENCODING": "utf-8"}, capture_output=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made
    done = subprocess.run(
        [sys.executable, "-m", "referee", *line], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done
    text = json.dumps(json.loads(done.stdout.decode("utf-8")), ensure_ascii=False)
    assert "B\U0001f600b" in text and "Zo\u00eb" in text


def test_a_refused_invisible_character_is_shown_in_the_error(referee: Runner) -> None:
    """Found by attack: the refusal quoted the name raw, so 'An͏n' (U+034F between) showed as
    'Ann' and nobody could see what was wrong."""
    result = referee("new", "mia", "Ann", "An\u034fn", "Bob")
    assert result.code == 2 and "'An\\u034fn'" in result.err
