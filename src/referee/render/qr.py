"""A QR code drawn with half-block characters: two rows of modules a line, so a code of an
address fits a 40x24 phone screen. No Rich: the lines are plain text.

Light modules are drawn (a block in the terminal's text colour), dark ones are left blank:
on the usual light-on-dark terminal that is a dark-on-light code, as scanners expect.
"""

from __future__ import annotations

from collections.abc import Sequence

# (top drawn, bottom drawn) -> the character
_HALVES = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
_BACK = {char: halves for halves, char in _HALVES.items()}


def half_blocks(matrix: Sequence[Sequence[int]]) -> list[str]:
    """The lines that draw `matrix` (rows of modules, 1 dark, border included).

    >>> half_blocks([[0, 1], [1, 0], [0, 0]])
    ['▀▄', '▀▀']
    """
    lines = []
    for top in range(0, len(matrix), 2):
        upper = matrix[top]
        lower = matrix[top + 1] if top + 1 < len(matrix) else None
        lines.append(
            "".join(
                _HALVES[(not upper[x], lower is not None and not lower[x])]
                for x in range(len(upper))
            )
        )
    return lines


def modules(lines: Sequence[str]) -> list[list[int]]:
    """The matrix a drawing shows (the inverse of `half_blocks`, for tests): an odd last row
    comes back as a row of dark modules, which `half_blocks` never draws."""
    rows: list[list[int]] = []
    for line in lines:
        halves = [_BACK[char] for char in line]
        rows.append([0 if top else 1 for top, _ in halves])
        rows.append([0 if bottom else 1 for _, bottom in halves])
    return rows


def qr_lines(text: str) -> list[str]:
    """`text` as a QR code (segno makes the matrix) with a 2-module quiet zone."""
    import segno

    code = segno.make(text, error="l", micro=False, boost_error=True)
    return half_blocks([list(row) for row in code.matrix_iter(scale=1, border=2)])
