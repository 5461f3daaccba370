"""Everything the CLI writes: one-line errors, JSON documents, Rich screens.

Rich is imported only when a screen is drawn, so `--json` and errors never pay for it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


def error_line(message: str) -> None:
    """One line on stderr, red on a colour terminal."""
    text = " ".join(f"error: {message}".split())
    if sys.stderr.isatty() and "NO_COLOR" not in os.environ:
        text = f"\x1b[31m{text}\x1b[0m"
    sys.stderr.write(text + "\n")


def print_json(document: Any) -> None:
    """One JSON document on stdout and nothing else."""
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def print_text(text: str) -> None:
    """Plain lines on stdout, for outputs that need no drawing."""
    sys.stdout.write(text.rstrip("\n") + "\n")


def print_wrapped(text: str) -> None:
    """Prose lines on stdout, each wrapped to the screen with a hanging indent of 2."""
    import textwrap

    lines = []
    for line in text.splitlines():
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        lines += textwrap.wrap(line, width=min(width(), 100), subsequent_indent=indent) or [""]
    print_text("\n".join(lines))


def console() -> Console:
    """The stdout console: colour follows the terminal, NO_COLOR and pipes get plain text."""
    from rich.console import Console

    return Console(highlight=False, emoji=False, soft_wrap=False)


def draw(*renderables: RenderableType | str) -> None:
    """Draw renderables on stdout."""
    out = console()
    for item in renderables:
        if isinstance(item, str):
            from rich.text import Text

            item = Text(item)
        out.print(item)


def width() -> int:
    """The width screens are laid out for (COLUMNS, the terminal, else 80)."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        return 80
