"""SHA-256, the digest of every key (a session file's bytes, a cache entry's name, a command
line): the digests of `hashlib.sha256`, from the interpreter's own implementation by default.

Importing `hashlib` loads OpenSSL, about 5 ms at the start of every command on the machine the
benchmarks run on: more than hashing a long night's file costs with the interpreter's own
SHA-256, which loads in a tenth of that. OpenSSL hashes several times faster per byte, so a
command about to hash many files (every session of the data folder: stats, exports) calls
`for_many_files` first, and a large file switches to it; both give the same digest.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as typing's; at run time `typing` is not needed here
if TYPE_CHECKING:
    from collections.abc import Callable
    from hashlib import _Hash as Hash
    from hashlib import sha256 as _interpreters
else:
    try:
        from _sha256 import sha256 as _interpreters  # CPython 3.11
    except ImportError:
        try:
            from _sha2 import sha256 as _interpreters  # CPython 3.12 and newer
        except ImportError:
            from hashlib import sha256 as _interpreters

own_sha256: Callable[[bytes], Hash] = _interpreters  # the interpreter's own: loads at once
_chosen = own_sha256


LARGE = 256 * 1024  # bytes: a file this long is hashed faster by OpenSSL, its load included


def sha256(data: bytes = b"") -> Hash:
    """A SHA-256 hash object of `data` (`update`, `digest`, `hexdigest`), as hashlib's; the
    first large file (a very long night, hashed about three times a command) loads OpenSSL."""
    if len(data) >= LARGE and _chosen is own_sha256:
        for_many_files()
    return _chosen(data)


def for_many_files() -> None:
    """Hash with OpenSSL's SHA-256 from now on: the command is about to hash many files, and
    the faster hashing soon pays for the load."""
    global _chosen
    import hashlib

    _chosen = hashlib.sha256
