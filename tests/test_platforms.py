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
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import NAMES, SESSION_GAMES, Result, Runner, examples_of
from test_readme import transcripts

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


def same(name: str, native: Result, result: Result, what: object) -> None:
    """The simulated run printed what the native one did (for ASCII, as an ASCII terminal
    shows it)."""
    shown = ascii_shown if name == "ascii" else str
    assert (result.code, result.out, result.err) == (
        native.code, shown(native.out), shown(native.err)
    ), what  # fmt: skip


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
    assert seen["windows"][1:6] == ["True", "False", "False", "False", "AttributeError"]
    assert seen["termux"][:6] == ["android", "False", "True", "True", "False", "PermissionError"]
    assert seen["ascii"][6] == "ascii"


@pytest.mark.parametrize("name", SIMULATIONS)
def test_readme_transcripts_under(name: str, home: Path) -> None:
    run = simulated(name, home)
    shown = ascii_shown if name == "ascii" else str
    for block in transcripts():
        for command, expected in block:
            result = run(*shlex.split(command))
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
    step("new", game, *NAMES[: max(2, 3)], "--name", "Jürgen-" + game)
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
    sim = simulated(name, home)
    got = [s for g in games for s in _play(sim, g, tmp_path / "s")]
    got += [("sessions", sim("sessions")), ("stats", sim("stats"))]
    for (command, want), (_, result) in zip([*expected, *tail], got, strict=True):
        same(name, _scratch(want, tmp_path), _scratch(result, tmp_path), command)
    json.loads(sim("show", "--json").out)  # valid JSON, whatever the terminal takes


def _scratch(result: Result, tmp_path: Path) -> Result:
    """A result with the two scratch folders' names made one."""
    fix = lambda text: text.replace(str(tmp_path / "n"), "X").replace(str(tmp_path / "s"), "X")  # noqa: E731
    return Result(result.code, fix(result.out), fix(result.err))
