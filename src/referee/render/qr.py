"""A QR code drawn with half-block characters (segno's compact terminal drawing): two rows of
modules a line, so a code of an address fits a 40x24 phone screen. No Rich: the lines are
plain text.

Light modules are drawn (a block in the terminal's text colour), dark ones are left blank:
on the usual light-on-dark terminal that is a dark-on-light code, as scanners expect.
"""

from __future__ import annotations


def qr_lines(text: str) -> list[str]:
    """`text` as a QR code (segno makes and draws it) with a 2-module quiet zone."""
    import io

    import segno

    code = segno.make(text, error="l", micro=False, boost_error=True)
    drawn = io.StringIO()
    code.terminal(out=drawn, compact=True, border=2)
    return drawn.getvalue().splitlines()
