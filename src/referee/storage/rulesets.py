"""The bundled rulesets and ruleset files named on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.errors import StorageError, UsageError, quote
from referee.storage.codec import read_toml
from referee.storage.files import shown
from referee.storage.home import is_path

# This module is referee/storage/rulesets.py: the package is one folder up, the repo two more.
_PACKAGE = Path(__file__).resolve().parents[1]


def bundled_rulesets() -> Path:
    """The folder of bundled rulesets: inside the installed package, or the repo's top level."""
    packaged = _PACKAGE / "rulesets"
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parents[1] / "rulesets"


def ruleset_names() -> list[str]:
    """Names of the bundled rulesets."""
    return sorted(p.stem for p in bundled_rulesets().glob("*.toml"))


def ruleset_path(ref: str) -> Path:
    """The file a ruleset reference names: a bundled name or a path."""
    if is_path(ref):
        return Path(ref)
    if not ref or ref not in ruleset_names():
        raise UsageError(
            f"unknown ruleset {quote(ref)}: bundled ones are {', '.join(ruleset_names())}"
        )
    return bundled_rulesets() / f"{ref}.toml"


def load_ruleset(ref: str) -> dict[str, Any]:
    """The ruleset table `ref` names, with its `name` filled in."""
    path = ruleset_path(ref)
    table = read_toml(path, "ruleset")
    if not isinstance(table.get("game"), str):
        raise StorageError(f'{shown(path)}: a ruleset needs game = "kariki" (or another game)')
    table.setdefault("name", path.stem)
    return table
