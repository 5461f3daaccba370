"""Each command imports only what it needs: no Rich for --json, no other game's module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

NIGHT = str(Path(__file__).parents[1] / "examples" / "kariki-night.toml")
PROBE = """
import json, sys
from referee.cli import run
code = run(sys.argv[1:])
sys.stdout.write("\\n" + json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in
                                           ("referee", "rich", "tomli_w", "pickle", "typer"))))
"""


def modules_after(home: Path, *args: str) -> set[str]:
    env = {**os.environ, "REFEREE_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], env=env, capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(done.stdout.rsplit("\n", 1)[1])
    return set(loaded)


@pytest.mark.parametrize(
    ("args", "absent"),
    [
        pytest.param(["show", "--json", "-s", NIGHT], {"rich", "referee.games.kalooki",
                     "referee.render", "referee.games.kariki.card", "typer"}, id="show-json"),
        # tomli_w may be loaded by a read-only command: a file read with its kept replay has
        # its tables checked by writing the kept ones (`codec.split_events`).
        pytest.param(["log", "--json", "-s", NIGHT], {"rich"}, id="log-json"),
        pytest.param(["show", "-s", NIGHT], {"referee.games.kalooki", "typer"}, id="show"),
        # A bare `referee` runs as `show` does, not through the whole Click tree of every game.
        pytest.param(["-s", NIGHT], {"referee.games.kalooki", "referee.games.kariki.cli",
                     "typer"}, id="bare"),
        pytest.param(["kalooki", "check", "5H", "5D", "JK"], {"rich", "referee.games.kariki",
                     "pickle"}, id="kalooki-check"),
        pytest.param(["rules", "list"], {"rich", "referee.games.kariki.cli",
                     "referee.games.kalooki.cli"}, id="rules-list"),
    ],
)  # fmt: skip
def test_a_command_imports_only_what_it_needs(
    tmp_path: Path, args: list[str], absent: set[str]
) -> None:
    loaded = modules_after(tmp_path, *args)
    assert "referee.cli.acting" in loaded  # the probe really ran the command (either path)
    assert {m for m in loaded if m in absent or m.split(".")[0] in absent} == set()


ROLES = {  # a game's file, by its role: the libraries it may not import (STYLE.md's layers)
    "engine": {"typer", "click", "rich", "tomllib", "tomli_w"},
    "words": {"typer", "click", "rich", "tomllib", "tomli_w"},
    "card": {"typer", "click", "tomllib", "tomli_w"},
}
GAME_PACKAGES = Path(__file__).parents[1] / "src" / "referee" / "games"


@pytest.mark.parametrize(
    "path",
    sorted(p for p in GAME_PACKAGES.glob("*/*.py") if p.stem in ROLES or p.stem == "__init__"),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_a_games_roles_keep_their_layers(path: Path) -> None:
    """An engine and its words import no Typer, Rich or TOML; a card no Typer; a game's
    package itself imports nothing (a command loads only the roles it needs)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        )
    }
    if path.stem == "__init__":
        assert imported == set()
    else:
        assert imported & ROLES[path.stem] == set()
