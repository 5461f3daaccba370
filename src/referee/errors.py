"""The error family: every refusal is one of these, and each knows its exit code.

The CLI turns any `RefereeError` into one line on stderr and `exit_code`; nothing else in the
library prints or exits.
"""


class RefereeError(Exception):
    """Base of every error the referee reports to a user."""

    exit_code = 2


class NotationError(RefereeError):
    """Text that does not parse: `7-1`, `11H`, `eight-ish`."""

    exit_code = 2


class UsageError(RefereeError):
    """Well-formed input that names something unknown or has the wrong shape."""

    exit_code = 2


class RuleViolation(RefereeError):
    """A well-formed action the rules refuse: a low claim, a second pass, a pull with no claim."""

    exit_code = 1


class RulesetError(RefereeError):
    """A ruleset file with problems; the message lists all of them."""

    exit_code = 3


class StorageError(RefereeError):
    """A session or ruleset file that cannot be read, written or locked."""

    exit_code = 3


def quote(text: str, limit: int = 24) -> str:
    """Quote user text for a one-line error, cut short and with control characters escaped.

    >>> quote("eight")
    "'eight'"
    >>> quote("x" * 30)
    "'xxxxxxxxxxxxxxxxxxxxxxx…'"
    """
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)


def quote_number(n: int) -> str:
    """A number for an error message, even one too large to print (a hand-edited file).

    >>> quote_number(7), quote_number(10**5000)
    ('7', 'a number too large to show')
    """
    return str(n) if -(10**12) < n < 10**12 else "a number too large to show"
