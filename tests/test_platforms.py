"""Every platform keeps the promises (RELIABILITY 13, issue 39), proved here by simulating the
others in subprocesses (`tests/platforms/sitecustomize.py`): Windows (no fcntl, getuid,
O_NOFOLLOW/O_NONBLOCK, hard links; msvcrt locking), Termux (`sys.platform == "android"`, no
sem_open, no hard links) and a terminal that takes ASCII only. Under each, the README's
transcripts and every game's example replay with the outputs a native run gives (for ASCII,
each character it cannot show replaced by `?`), and never a traceback."""

from __future__ import annotations

import io
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import SESSION_GAMES, Result, Runner, examples_of
from test_readme import transcripts

# The simulations are made over POSIX (the stand-in msvcrt locks with fcntl): on Windows
# itself there is nothing to simulate, and the whole suite runs there (.github/workflows).
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="simulated over POSIX")

PLATFORMS = Path(__file__).parent / "platforms"
SIMULATIONS: dict[str, dict[str, str]] = {
    "windows": {"REFEREE_SIMULATE": "windows"},
    "termux": {"REFEREE_SIMULATE": "termux"},
    "ascii": {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
}
Sim = Callable[..., Result]


def ascii_shown(text: str) -> str:
    """What an ASCII terminal shows of `text`: each character it cannot show is a `?`."""
    return text.encode("ascii", "replace").decode("ascii")


def simulated(name: str, home: Path, *, stdin: str = "") -> Sim:
    """Run `referee ARGS...` in a subprocess of the simulated platform `name`, with the same
    environment as the in-process runner (the `home` fixture's)."""
    path = os.environ.get("PYTHONPATH")
    env = {
        **os.environ,
        **SIMULATIONS[name],
        "PYTHONPATH": str(PLATFORMS) + (os.pathsep + path if path else ""),
    }
    env.pop("PYTHONUTF8", None)

    def invoke(*args: str, stdin: str = stdin) -> Result:
        done = subprocess.run(
            [sys.executable, "-m", "referee", *args],
            env=env, input=stdin.encode(), capture_output=True, check=False, timeout=120,
        )  # fmt: skip
        out = done.stdout.decode("utf-8", "replace")
        err = done.stderr.decode("utf-8", "replace")
        assert "Traceback" not in err, (name, args, err)
        return Result(done.returncode, out, err)

    return invoke


def driven(name: str, steps: list[tuple[list[str], str]]) -> list[Result]:
    """Run many command lines (args, stdin) in one simulated interpreter
    (`tests/platforms/drive.py`), through the front door as a subprocess would."""
    path = os.environ.get("PYTHONPATH")
    env = {
        **os.environ,
        **SIMULATIONS[name],
        "PYTHONPATH": str(PLATFORMS) + (os.pathsep + path if path else ""),
    }
    env.pop("PYTHONUTF8", None)
    document = json.dumps([{"args": a, "stdin": i} for a, i in steps])
    done = subprocess.run(
        [sys.executable, str(PLATFORMS / "drive.py")],
        env=env, input=document.encode(), capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    found = [Result(r["code"], r["out"], r["err"]) for r in json.loads(done.stdout)]
    for (args, _), result in zip(steps, found, strict=True):
        assert "Traceback" not in result.err, (name, args, result.err)
    return found


def same(name: str, native: Result, result: Result, what: object) -> None:
    """The simulated run printed what the native one did (for ASCII, as an ASCII terminal
    shows it)."""
    if "--json" in str(what) and native.code == 0:  # the same document (escaped, for ASCII)
        assert json.loads(result.out) == json.loads(native.out), what
        assert result.out.isascii() or name != "ascii", what
        return
    shown = ascii_shown if name == "ascii" else str
    err = native.err.encode("ascii", "backslashreplace").decode() if name == "ascii" else native.err
    assert (result.code, result.out, result.err) == (native.code, shown(native.out), err), what


def test_the_simulations_are_what_they_say() -> None:
    probe = (
        "import os, sys, multiprocessing as m\n"
        "try:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n"
        "try:\n    m.get_context().Lock(); sem = True\nexcept ImportError:\n    sem = False\n"
        "try:\n    os.link('/no/such/a', '/no/such/b'); link = True\n"
        "except (AttributeError, OSError) as e:\n    link = type(e).__name__\n"
        "print(sys.platform, fcntl is None, hasattr(os, 'getuid'), hasattr(os, 'O_NOFOLLOW'),"
        " sem, link, sys.stdout.encoding)\n"
    )
    seen = {}
    for name, extra in SIMULATIONS.items():
        env = {**os.environ, **extra, "PYTHONPATH": str(PLATFORMS)}
        env.pop("PYTHONUTF8", None)
        done = subprocess.run([sys.executable, "-c", probe, "-"], env=env, capture_output=True,
                              text=True, check=True, cwd=PLATFORMS.parent)  # fmt: skip
        seen[name] = done.stdout.split()
    assert seen["windows"][1:6] == ["True", "False", "False", "True", "AttributeError"]
    assert seen["termux"][:6] == ["android", "False", "True", "True", "False", "PermissionError"]
    assert seen["ascii"][6] == "ascii"


@pytest.mark.parametrize("name", SIMULATIONS)
def test_readme_transcripts_under(name: str, home: Path) -> None:
    shown = ascii_shown if name == "ascii" else str
    pairs = [pair for block in transcripts() for pair in block]
    results = driven(name, [(shlex.split(command), "") for command, _ in pairs])
    for (command, expected), result in zip(pairs, results, strict=True):
        if True:
            text = "\n".join(ln.rstrip() for ln in (result.out + result.err).splitlines())
            assert text + "\n" == shown(expected), (name, command)


def _play(run: Runner, game: str, scratch: Path) -> list[tuple[str, Result]]:
    """Every game's first example, one game after another in one data folder, by one-off
    commands and by the shell; then what reads them all. `run` is native or simulated."""
    seen: list[tuple[str, Result]] = []

    def step(*args: str, stdin: str | None = None) -> None:
        kwargs = {} if stdin is None else {"stdin": stdin}
        seen.append((shlex.join(args), run(*args, **kwargs)))

    example = examples_of(game)[0]
    step(*example.new, "--name", f"{game}-1")
    for args in example.commands[:6]:
        step(*args)
    step("shell", stdin="".join(line + "\n" for line in example.lines[6:]) + "undo\n")
    step("show")
    step("log")
    step("show", "--json")
    step("undo")
    step("redo")
    out = scratch / f"{game}.csv"
    step("export", "--format", "csv", "-o", str(out))
    step("export", "--format", "csv", "-o", str(out))  # exists: refused in one line
    step("export", "--format", "md", "-o", str(out), "--force")
    step("new", game, "Jürgen", "Bob", "Cy", "--name", "j-" + game)
    step("show")
    step("show", "--json")
    step("new", game, "Ann", "--name", "Jürgen")  # refused: the message quotes the name
    return seen


@pytest.mark.parametrize("name", SIMULATIONS)
def test_every_game_plays_the_same_under(
    name: str, home: Path, tmp_path: Path, referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def native(*args: str, stdin: str = "") -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        return referee(*args)

    games = [g.name for g in SESSION_GAMES]
    (tmp_path / "n").mkdir()
    (tmp_path / "s").mkdir()
    expected = [s for g in games for s in _play(native, g, tmp_path / "n")]
    tail = [("sessions", native("sessions")), ("stats", native("stats"))]
    shutil.rmtree(home)
    steps: list[tuple[list[str], str]] = []

    def record(*args: str, stdin: str = "") -> Result:
        steps.append((list(args), stdin))
        return Result(0, "", "")

    for g in games:
        _play(record, g, tmp_path / "s")
    record("sessions")
    record("stats")
    record("show", "--json")
    results = driven(name, steps)
    got = [(shlex.join(a), r) for (a, _), r in zip(steps, results, strict=True)]
    for (command, want), (_, result) in zip([*expected, *tail], got[:-1], strict=True):
        same(name, _scratch(want, tmp_path), _scratch(result, tmp_path), command)
    json.loads(results[-1].out)  # valid JSON, whatever the terminal takes


def _scratch(result: Result, tmp_path: Path) -> Result:
    """A result with the two scratch folders' names made one."""

    def fix(text: str) -> str:
        return text.replace(str(tmp_path / "n"), "X").replace(str(tmp_path / "s"), "X")

    return Result(result.code, fix(result.out), fix(result.err))


# ---------------------------------------------------------------------------- real processes
# What one driven interpreter cannot show: a start through `python -m referee`, a server, a
# pool of processes, a lock held by another process.


def _env(name: str, home: Path) -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, **SIMULATIONS[name], "REFEREE_HOME": str(home),
           "PYTHONPATH": str(PLATFORMS) + (os.pathsep + path if path else "")}  # fmt: skip
    env.pop("PYTHONUTF8", None)
    return env


@pytest.mark.parametrize("name", SIMULATIONS)
def test_serve_starts_and_stops_under(name: str, home: Path, referee: Runner) -> None:
    assert referee("new", "kariki", "Jürgen", "Bob", "--name", "friday").code == 0
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", "0"],
        env={**_env(name, home), "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert process.stdout is not None
    try:
        banner = b""
        while b"Ctrl-C" not in banner:
            line = process.stdout.readline()
            assert line, process.stderr.read() if process.stderr else b""
            banner += line
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and b"Traceback" not in err, err
    assert b"stopped" in out


@pytest.mark.parametrize("name", ["windows", "termux"])
def test_stats_over_many_sessions_under(name: str, home: Path, referee: Runner) -> None:
    """Past `PARALLEL_FROM` sessions stats start a pool: spawned (Windows), or none at all
    (Android has no sem_open), the same figures as one process gives."""
    from referee.cli.history import PARALLEL_FROM

    (home / "sessions").mkdir(parents=True)
    for n in range(PARALLEL_FROM + 2):
        example = examples_of(SESSION_GAMES[n % len(SESSION_GAMES)].name)[0].path
        shutil.copyfile(example, home / "sessions" / f"s{n}.toml")
    want = referee("stats")
    shutil.rmtree(home.parent / "cache", ignore_errors=True)  # replayed again, not remembered
    done = subprocess.run([sys.executable, "-m", "referee", "stats"], env=_env(name, home),
                          capture_output=True, text=True, check=False, timeout=120)  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert (done.returncode, done.stdout, done.stderr) == (want.code, want.out, want.err)


def test_a_held_lock_is_a_clear_error_under_windows(home: Path, referee: Runner) -> None:
    """The stand-in msvcrt really locks: a session held by another process is exit 3."""
    assert referee("new", "kariki", "Ann", "Bob", "--name", "friday").code == 0
    holder = (
        "import sys\nfrom pathlib import Path\nfrom referee.storage.lock import locked\n"
        "with locked(Path(sys.argv[1])):\n    print('held', flush=True)\n    sys.stdin.read()\n"
    )
    env = _env("windows", home)
    with subprocess.Popen(
        [sys.executable, "-c", holder, str(home / "sessions" / "friday.toml")], env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    ) as process:  # fmt: skip
        assert process.stdout is not None and process.stdin is not None
        assert process.stdout.readline() == "held\n"
        done = subprocess.run([sys.executable, "-m", "referee", "kariki", "claim", "9"],
                              env={**env, "REFEREE_LOCK_TIMEOUT": "0.2"}, capture_output=True,
                              text=True, check=False, timeout=60)  # fmt: skip
        process.stdin.close()
    assert done.returncode == 3 and "another referee is writing" in done.stderr, done.stderr
    again = subprocess.run([sys.executable, "-m", "referee", "kariki", "claim", "9"], env=env,
                           capture_output=True, text=True, check=False, timeout=60)  # fmt: skip
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("name", ["windows", "termux"])
def test_export_without_hard_links_under(
    name: str, home: Path, tmp_path: Path, referee: Runner
) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "friday").code == 0
    target = tmp_path / "out.csv"
    args = [sys.executable, "-m", "referee", "export", "--format", "csv", "-o", str(target)]
    first = subprocess.run(args, env=_env(name, home), capture_output=True, text=True, check=False)
    assert first.returncode == 0 and target.read_bytes(), first.stderr
    before = target.read_bytes()
    second = subprocess.run(args, env=_env(name, home), capture_output=True, text=True, check=False)
    assert second.returncode == 3, second.stderr
    assert second.stderr == f"error: {target} exists: add --force to replace it\n"
    assert target.read_bytes() == before
    assert not list(tmp_path.glob(".out.csv.*.tmp"))


@pytest.mark.parametrize(
    "doc",
    [
        "GNU readline interface",
        "Importing this module enables command line editing using libedit readline.",
    ],
)
def test_tab_completes_with_gnu_readline_and_libedit(doc: str) -> None:
    from referee.cli.shell import _TAB_BINDING, _is_libedit

    fake = types.ModuleType("readline", doc)
    assert _TAB_BINDING[_is_libedit(fake)] == (
        "bind ^I rl_complete" if "libedit" in doc else "tab: complete"
    )
