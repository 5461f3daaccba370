"""`referee kalooki ...`: referee tools that need no session."""

from __future__ import annotations

from collections.abc import Mapping

import typer

app = typer.Typer(help="Kalooki referee tools (alias: kal).", no_args_is_help=True)


def rules_from_table(table: Mapping[str, object], source: str) -> object:
    """Typed Kalooki rules (filled in with the Kalooki tools)."""
    return dict(table)
