"""The front door (`referee.answers`): a kept answer is byte for byte what the ordinary run
prints, for every game's example, every read-only command, at 40 and 100 columns, with and
without colour; and nothing but exactly the same bytes, code and screen is ever answered."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import session_file
from referee import answers, codeid, storage
from referee.cli import run

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))
COMMANDS = [
    [],
    ["show"],
    ["show", "--json"],
    ["show", "--full"],
    ["show", "--compact"],
    ["log"],
    ["log", "--json"],
    ["log", "--script"],
    ["log", "--last", "3"],
    ["stats"],
    ["stats", "--json"],
    ["stats", "--money"],
    ["stats", "--since", "2020-01-01", "--json"],
]
SCREENS = [("40", "NO_COLOR"), ("100", "FORCE_COLOR")]


@pytest.fixture
def night(home: Path, example: Path) -> Iterator[Path]:
    """The example as the current session of a fresh data folder."""
    target = session_file(home, "night")
    target.parent.mkdir(parents=True)
    shutil.copyfile(example, target)
    (home / "current").write_text("night\n")
    yield target


def printed(capsys: pytest.CaptureFixture[str], call: object, argv: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = call(argv)  # type: ignore[operator]
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, captured.out


def refuse_ordinary_run(*_: object) -> int:
    raise AssertionError("the ordinary path ran: the answer was not served")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_a_kept_answer_is_exactly_what_the_ordinary_run_prints(
    night: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for columns, colour in SCREENS:
        monkeypatch.setenv("COLUMNS", columns)
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.setenv(colour, "1")
        for argv in COMMANDS:
            ordinary = printed(capsys, run, argv)
            assert ordinary[0] == 0, argv
            first = printed(capsys, answers.answer, argv)  # runs, and keeps the answer
            with monkeypatch.context() as patched:
                patched.setattr("referee.cli.run", refuse_ordinary_run)
                kept = printed(capsys, answers.answer, argv)
            assert ordinary == first == kept, (argv, columns, colour)
        monkeypatch.delenv(colour)


@pytest.mark.parametrize("example", EXAMPLES[:1], ids=lambda p: p.stem)
def test_a_changed_byte_a_new_session_or_a_new_screen_is_never_answered_from_the_old(
    night: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    key = answers.answer_key(["show"])
    assert key is not None
    printed(capsys, answers.answer, ["show"])
    assert answers.read_answer(key.name) is not None
    night.write_bytes(night.read_bytes() + b"\n# a hand edit\n")

    def name(argv: list[str]) -> str | None:
        found = answers.answer_key(argv)
        return found.name if found is not None else None

    assert name(["show"]) != key.name
    changed = name(["show"])
    (home / "sessions" / "other.toml").write_bytes(night.read_bytes())  # another session saved
    assert name(["show"]) != changed
    monkeypatch.setenv("COLUMNS", "41")
    assert name(["show"]) not in (key.name, changed)
    monkeypatch.setenv("TZ", "Europe/Berlin")
    assert name(["log"]) != name(["log", "--json"])


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["kariki", "claim", "9"], id="an-action"),
        pytest.param(["show", "--help"], id="help"),
        pytest.param(["sessions"], id="another-command"),
        pytest.param(["show", "--bogus"], id="an-unknown-option"),
        pytest.param(["show", "-s"], id="a-missing-value"),
        pytest.param(["show", "a", "b"], id="two-sessions"),
        pytest.param(["-s", "a", "show", "b"], id="named-twice"),
        pytest.param(["log", "--last", "-1"], id="a-negative-count"),
        pytest.param(["log", "--last", "３"], id="a-wide-digit"),
        pytest.param(["show", "--json", "nope"], id="a-session-that-is-not-there"),
        pytest.param(["stats", "-s", "friday"], id="stats-with-a-session"),
        pytest.param(["stats", "friday"], id="stats-with-a-word"),
        pytest.param(["stats", "--vs", "Ann"], id="stats-one-of-two"),
        pytest.param(["stats", "--game=kariki"], id="stats-an-equals-sign"),
        pytest.param(["stats", "--player", "--json"], id="stats-a-missing-value"),
    ],
)
def test_lines_it_cannot_answer_with_certainty_take_the_ordinary_path(
    home: Path, argv: list[str]
) -> None:
    assert answers.answer_key(argv) is None


@pytest.mark.parametrize("example", EXAMPLES[:1], ids=lambda p: p.stem)
def test_stats_is_answered_again_only_while_every_session_file_is_the_same(
    night: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = home / "sessions" / "other.toml"
    other.write_bytes(night.read_bytes())
    first = printed(capsys, answers.answer, ["stats", "--json"])  # runs, and keeps the answer
    key = answers.answer_key(["stats", "--json"])
    assert key is not None and answers.read_answer(key.name) == first[1]
    before = other.parent.stat().st_mtime_ns
    other.write_bytes(other.read_bytes().replace(b'name = "', b'name = "x', 1))  # a rename inside
    os.utime(other.parent, ns=(before, before))  # the folder's listing looks the same
    changed = answers.answer_key(["stats", "--json"])
    assert changed is not None and changed.name != key.name
    with monkeypatch.context() as patched:  # and the ordinary run answers the new bytes
        patched.setattr("referee.cli.run", refuse_ordinary_run)
        with pytest.raises(AssertionError, match="ordinary path ran"):
            answers.answer(["stats", "--json"])
    capsys.readouterr()
    other.write_bytes(b"schema = 0\n")  # an older (or broken) file: never answered
    assert answers.answer_key(["stats"]) is None


@pytest.mark.parametrize("example", EXAMPLES[:1], ids=lambda p: p.stem)
def test_a_refused_or_noisy_run_keeps_nothing(
    night: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night.write_text("schema = 1\nthis is not toml [\n")
    code, _ = answers.answer(["show"]), capsys.readouterr()
    assert code == 3
    folder = Path(answers._folder())
    assert not folder.exists() or list(folder.iterdir()) == []


@pytest.mark.parametrize("example", EXAMPLES[:1], ids=lambda p: p.stem)
def test_a_planted_or_linked_answer_is_never_printed(
    night: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = answers.answer_key(["show"])
    assert key is not None
    printed(capsys, answers.answer, ["show"])
    entry = Path(answers._folder()) / key.name
    planted = tmp_path / "planted"
    planted.write_text("Mallory WINS\n")
    entry.unlink()
    entry.symlink_to(planted)  # a link in place of the entry: never followed
    assert "Mallory" not in printed(capsys, answers.answer, ["show"])[1]
    entry.unlink()
    entry.write_text("Mallory WINS\n")
    entry.parent.chmod(0o777)  # a folder others may write: never read
    assert "Mallory" not in printed(capsys, answers.answer, ["show"])[1]
    entry.parent.chmod(0o700)


def test_the_version_is_the_same_through_the_front_door(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["--version"]) == 0
    ordinary = capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["referee", "--version"])
    with pytest.raises(SystemExit) as done:
        answers.main()
    assert done.value.code == 0 and capsys.readouterr().out == ordinary


def test_a_reinstall_of_the_same_code_keeps_its_digest(tmp_path: Path) -> None:
    package = Path(codeid.PACKAGE)
    first, second = tmp_path / "one" / "referee", tmp_path / "two" / "referee"
    shutil.copytree(package, first, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(package, second, ignore=shutil.ignore_patterns("__pycache__"))
    for source in second.rglob("*.py"):
        os.utime(source, ns=(1, 1))  # the same code, installed at another time
    assert codeid.stat_signature(str(first)) != codeid.stat_signature(str(second))
    assert codeid.content_digest(str(first)) == codeid.content_digest(str(second))
    engine = second / "games" / "kariki" / "engine.py"
    engine.write_text(engine.read_text() + "\n# an edit\n")
    assert codeid.content_digest(str(first)) != codeid.content_digest(str(second))


def test_the_data_folder_is_clicks(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer

    from referee.places import data_folder

    monkeypatch.delenv("REFEREE_HOME", raising=False)
    assert data_folder() == typer.get_app_dir("referee")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/somewhere/else")
    assert data_folder() == typer.get_app_dir("referee")


def test_how_to_start_is_answered_too(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ordinary = printed(capsys, run, [])
    assert printed(capsys, answers.answer, []) == ordinary
    with monkeypatch.context() as patched:
        patched.setattr("referee.cli.run", refuse_ordinary_run)
        assert printed(capsys, answers.answer, []) == ordinary
    assert "No session yet" in ordinary[1]
    assert run(["new", "kariki", "Ann", "Bob"]) == 0
    bare, show = answers.answer_key([]), answers.answer_key(["show"])
    assert bare is not None and show is not None and bare.name != show.name  # a session's card


@pytest.mark.parametrize("example", EXAMPLES[:1], ids=lambda p: p.stem)
def test_the_shell_opens_from_the_kept_replay(
    night: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli.shell import Shell
    from referee.storage import codec

    assert run(["show"]) == 0  # the ordinary path replays once and keeps the replay
    replays: list[Path] = []
    real = codec.replay_of

    def counting(parsed: storage.Loaded) -> object:
        replays.append(parsed.path)
        return real(parsed)

    monkeypatch.setattr(codec, "replay_of", counting)
    Shell(None)
    assert replays == []


@pytest.mark.parametrize("example", EXAMPLES[:1], ids=lambda p: p.stem)
def test_a_save_between_the_key_and_the_run_is_never_kept_under_the_old_bytes(
    night: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another terminal saves after the key was made and before the run reads the file: the
    card of the new bytes is shown, but never kept as the answer for the old ones."""
    import referee.cli

    before = night.read_bytes()
    key = answers.answer_key(["show"])
    assert key is not None
    real = referee.cli.run

    def another_terminal_saves_first(argv: list[str], *more: object) -> int:
        night.write_bytes(before + b"\n# saved by another terminal\n")
        return real(argv, *more)  # type: ignore[arg-type]

    monkeypatch.setattr(referee.cli, "run", another_terminal_saves_first)
    printed(capsys, answers.answer, ["show"])
    assert answers.read_answer(key.name) is None


def test_an_older_schema_is_never_answered(home: Path) -> None:
    old = Path(__file__).parent / "data" / "schema0-kariki.toml"
    assert old.exists()
    assert answers.answer_key(["show", str(old)]) is None
