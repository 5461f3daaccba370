"""A terminal that shows only ASCII (`LC_ALL=C PYTHONIOENCODING=ascii`, as a phone's Termux in
a C locale), found by a play-test of issue 39: what is typed never crashes the shell, an error
shows `?` where a name cannot be shown, a card's columns stay in line with such a name, and
`log --script` keeps the names whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ASCII = {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii", "COLUMNS": "40"}


def run(home: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, **ASCII, "REFEREE_HOME": str(home / "home"),
           "XDG_CACHE_HOME": str(home / "cache")}  # fmt: skip
    env.pop("REFEREE_SESSION", None)
    return subprocess.run([sys.executable, "-m", "referee", *args], env=env, input=stdin,
                          capture_output=True, timeout=60)  # fmt: skip


def test_an_ascii_terminal_keeps_the_shell_the_columns_and_the_script(tmp_path: Path) -> None:
    assert run(tmp_path, "new", "mia", "Ann", "王小明", "Jürgen").returncode == 0
    shell = run(tmp_path, "shell", stdin="announce 52\nlift 52 --by Ann\nlift 1 --by Jür\nquit\n"
                .encode())  # fmt: skip
    out, err = shell.stdout.decode("ascii"), shell.stderr.decode("ascii")
    assert shell.returncode in (0, 2) and "Traceback" not in err, err  # 2: a line was refused
    assert "error: it is ???'s turn, not Ann's" in err  # not \u738b\u5c0f\u660e
    rows = [line for line in out.splitlines() if "oooooo" in line][:3]
    assert [row.index("oooooo") for row in rows] == [19, 19, 19], rows  # ??? takes 3 cells
    script = run(tmp_path, "log", "--script").stdout.decode("utf-8")
    assert "'王小明'" in script and "Jürgen" in script  # UTF-8, as a file keeps it


def test_an_ascii_terminal_is_offered_a_buy_back_it_can_type(tmp_path: Path) -> None:
    """The card offered `buyback "Zo?"` for Zoë Müller where the terminal shows only ASCII:
    typed back, exactly as offered, it named nobody. It offers the name without accents."""
    assert run(tmp_path, "new", "kariki", "Zoë Müller", "Bob", "Cy").returncode == 0
    lines = "claim 9\npull 3-4\n" * 13  # a berry a round, Zoë's every third: out at the fifth
    assert run(tmp_path, "shell", stdin=lines.encode()).returncode == 0
    card = run(tmp_path, "show", "--compact").stdout.decode("ascii")
    assert "\nZo? M?ller may buy back: buyback Zoe (3)\n" in card
    shell = run(tmp_path, "shell", stdin=b"buyback Zoe\n")
    assert shell.returncode == 0 and "Zo? M?ller buys back for 3" in shell.stdout.decode("ascii")
