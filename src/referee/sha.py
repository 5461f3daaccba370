"""SHA-256 for one command's keys (a session file's bytes, a cache entry's name, the command
line): the digests of `hashlib.sha256`, from the interpreter's own implementation.

Importing `hashlib` loads OpenSSL, about 5 ms at the start of every command on the machine
the benchmarks run on: more than hashing a long night's file costs with the interpreter's
own SHA-256, which loads in a tenth of that. OpenSSL hashes many times faster per byte, so
work over many files at once (every session of the data folder, every source of the code)
imports `hashlib` instead; both give the same digest.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as typing's; at run time `typing` is not needed here
if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:
        from _sha256 import sha256  # CPython 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # CPython 3.12 and newer
        except ImportError:
            from hashlib import sha256

__all__ = ["sha256"]
