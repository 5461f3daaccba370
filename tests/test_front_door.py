"""The front door (`referee.answers`) and the quick path never answer a line they do not own:
Tab completion in bash, zsh and fish lists the commands, with no session and after a piped run
kept an answer; and a reader that goes away (`referee log | head -1`) ends any command quietly.

Each test runs the `referee` script in a real process, as a shell would: completion through
the variables each shell's script (`referee --show-completion SHELL`) sets, the pipe a real one
closed early.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import session_file
from referee import answers

SCRIPT = Path(sys.executable).parent / "referee"
REFEREE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "referee"]
NIGHT = Path(__file__).parents[1] / "examples" / "kariki-night.toml"
COMMANDS = {"show", "log", "undo", "stats", "new", "kariki", "liars", "kalooki", "mia"}
KARIKI_ACTIONS = {"claim", "roll", "pull", "pass", "slash"}


def referee(
    *args: str, env: dict[str, str] | None = None, **run: object
) -> subprocess.CompletedProcess[str]:
    """`referee ARGS...` in a process of its own, in the test's data and cache folders."""
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [*REFEREE, *args],
        env=env or dict(os.environ),
        text=True,
        **({"stdout": subprocess.PIPE, "stderr": subprocess.PIPE} | run),
    )


@functools.cache
def completion_script(shell: str) -> str:
    """What `referee --show-completion SHELL` prints (the shell named, not detected)."""
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    done = referee("--show-completion", shell, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


# Each shell's completion script, as a process: the variables it sets (each checked against
# the script itself) and how the words offered are read from what it prints.
def bash(line: str) -> tuple[dict[str, str], Callable[[str], list[str]]]:
    words = line.split(" ")
    variables = {
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1),
        "_REFEREE_COMPLETE": "complete_bash",
    }
    return variables, str.splitlines


def zsh(line: str) -> tuple[dict[str, str], Callable[[str], list[str]]]:
    variables = {"_TYPER_COMPLETE_ARGS": line, "_REFEREE_COMPLETE": "complete_zsh"}
    return variables, lambda out: re.findall(r'"((?:[^"]|"")+)":', out)


def fish(line: str) -> tuple[dict[str, str], Callable[[str], list[str]]]:
    variables = {
        "_REFEREE_COMPLETE": "complete_fish",
        "_TYPER_COMPLETE_FISH_ACTION": "get-args",
        "_TYPER_COMPLETE_ARGS": line,
    }
    return variables, lambda out: [row.split("\t")[0] for row in out.splitlines()]


SHELLS = {"bash": bash, "zsh": zsh, "fish": fish}


def complete(shell: str, line: str) -> set[str]:
    """The words a Tab after `line` offers in `shell`; nothing on stderr, exit 0."""
    variables, offered = SHELLS[shell](line)
    script = completion_script(shell)
    for name, value in variables.items():  # the script sets each variable this test sets
        assert name in script, (shell, name)
        if name == "_REFEREE_COMPLETE":
            assert value in script, (shell, value)
    done = referee(env={**os.environ, **variables})
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return set(offered(done.stdout))


def played(home: Path) -> Path:
    """A Kariki night as the current session."""
    target = session_file(home, "night")
    target.parent.mkdir(parents=True)
    shutil.copyfile(NIGHT, target)
    (home / "current").write_text("night\n")
    return target


def kept_answers() -> list[Path]:
    folder = Path(answers._folder())
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize("shell", SHELLS)
def test_tab_lists_the_commands_with_no_session(home: Path, shell: str) -> None:
    assert complete(shell, "referee ") >= COMMANDS
    assert complete(shell, "referee kariki ") >= KARIKI_ACTIONS
    assert complete(shell, "referee kariki cl") == {"claim"}
    assert kept_answers() == []  # a Tab keeps nothing


@pytest.mark.parametrize("shell", SHELLS)
def test_tab_lists_the_commands_after_a_piped_run_kept_its_answer(home: Path, shell: str) -> None:
    played(home)
    card = referee().stdout  # `referee | cat`: its answer kept, for a pipe
    assert referee().stdout == card and kept_answers() != []
    offered = complete(shell, "referee ")
    assert offered >= COMMANDS
    assert not offered & {line.strip() for line in card.splitlines()}
    assert complete(shell, "referee kariki ") >= KARIKI_ACTIONS
    assert len(kept_answers()) == 1


def test_tab_in_a_real_bash(home: Path) -> None:
    """Bash itself sources the script and runs its function, as a Tab does."""
    bash_exe = shutil.which("bash")
    if bash_exe is None or not SCRIPT.exists():
        pytest.skip("needs bash and the installed script")
    played(home)
    referee()  # `referee | cat`
    script = completion_script("bash")
    probe = (
        f"{script}\nCOMP_WORDS=(referee kariki '')\nCOMP_CWORD=2\n"
        f"_referee_completion {SCRIPT}\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
    )
    done = subprocess.run(
        [bash_exe, "--norc", "--noprofile", "-c", probe],
        env=dict(os.environ),
        capture_output=True,
        text=True,
    )
    assert done.stderr == ""
    assert set(done.stdout.split()) >= KARIKI_ACTIONS


def test_the_tee_keeps_only_text() -> None:
    """Click asks whether a stream is binary by writing `b""` to it: a run that wrote anything
    but text keeps nothing (the completion's traceback: bytes in the kept parts)."""
    text = answers.Tee(io.StringIO())
    with pytest.raises(TypeError):
        text.write(b"")  # type: ignore[arg-type]
    text.write("card\n")
    assert (text.parts, text.spoiled) == (["card\n"], False)
    binary = answers.Tee(io.BytesIO())  # type: ignore[arg-type]
    binary.write(b"x")  # type: ignore[arg-type]
    assert (binary.parts, binary.spoiled) == ([], True)


# ---------------------------------------------------------------------------- closed pipes


def into_a_closed_pipe(*args: str, **env: str) -> tuple[int, str]:
    """Run `referee ARGS...` with its stdout a pipe whose reader has already gone: every write
    fails (EPIPE), as it does for `referee show | true` once `true` has exited."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = referee(*args, env={**os.environ, **env}, stdout=writer, stderr=subprocess.PIPE)
    finally:
        os.close(writer)
    return done.returncode, done.stderr


QUIET = (1, "")  # as Python's documentation advises, and as Rich and Click end their own


@pytest.mark.parametrize(
    "line",
    [["show"], ["show", "--json"], [], ["log"], ["log", "--json"], ["stats"]],
    ids=lambda line: " ".join(line) or "(bare)",
)
def test_a_kept_answer_into_a_closed_pipe_is_a_quiet_exit(home: Path, line: list[str]) -> None:
    played(home)
    first = referee(*line)  # `referee show >/dev/null`: the answer is kept
    assert first.returncode == 0 and len(kept_answers()) == 1
    assert into_a_closed_pipe(*line) == QUIET
    assert referee(*line).stdout == first.stdout  # and it is still kept, whole


@pytest.mark.parametrize(
    "line",
    [
        ["show"],
        ["show", "--json"],
        [],
        ["log"],
        ["log", "--last", "2"],
        ["stats"],
        ["sessions"],
        ["--version"],
        ["show", "--help"],
        ["kariki", "pass"],  # an action: saved, then its card finds the pipe closed
        ["undo"],
    ],
    ids=lambda line: " ".join(line) or "(bare)",
)
def test_the_ordinary_path_into_a_closed_pipe_is_a_quiet_exit(home: Path, line: list[str]) -> None:
    started = referee("new", "kariki", "Ann", "Bob", "--name", "fresh")
    assert started.returncode == 0 and referee("kariki", "claim", "9").returncode == 0
    assert into_a_closed_pipe(*line, REFEREE_NO_ANSWERS="1") == QUIET
    assert kept_answers() == []
    if line[:1] in (["kariki"], ["undo"]):  # done before its card found the pipe closed
        events = json.loads(referee("log", "--json").stdout)
        assert len(events) == (2 if line == ["kariki", "pass"] else 0), line


def test_a_reader_that_stops_early_sees_no_traceback(home: Path, tmp_path: Path) -> None:
    """`referee log | head -1` and an action into `head -c1`: the reader takes what it wants
    and goes; whichever way the race runs, the exit is 0 or the quiet 1."""
    bash_exe = shutil.which("bash")
    if bash_exe is None:
        pytest.skip("needs bash")
    assert referee("new", "kariki", "Ann", "Bob").returncode == 0
    referee_line = " ".join(REFEREE)
    for line in ("kariki claim 9", "log", "log", "stats", "stats", "show", "show", "", "undo"):
        probe = f"{referee_line} {line} | head -c1 >/dev/null; echo ${{PIPESTATUS[0]}}"
        done = subprocess.run([bash_exe, "-c", probe], capture_output=True, text=True)
        assert (done.stdout, done.stderr) in (("0\n", ""), ("1\n", "")), line


@pytest.mark.parametrize(
    "env",
    [
        pytest.param({"_REFEREE_COMPLETE": "complete_bash"}, id="no-words"),
        pytest.param(
            {"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee ", "COMP_CWORD": "x"},
            id="a-word-index-no-number",
        ),
    ],
)
def test_a_completion_variable_without_its_companions_is_no_traceback(
    home: Path, env: dict[str, str]
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee"], env={**os.environ, **env}, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")


@pytest.mark.parametrize("line", [[], ["show"], ["log"], ["log", "--json"]], ids=" ".join)
def test_a_fifo_planted_as_the_current_pointer_never_hangs(home: Path, line: list[str]) -> None:
    """The front door read `current` with a plain open: a FIFO there waited for a writer."""
    played(home)
    pointer = home / "current"
    pointer.unlink()
    os.mkfifo(pointer)
    done = subprocess.run(
        [sys.executable, "-m", "referee", *line], capture_output=True, text=True, timeout=60,
        env=dict(os.environ),
    )  # fmt: skip
    assert done.returncode == 3 and "not a regular file" in done.stderr, done
