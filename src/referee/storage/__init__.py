"""The only code that touches the disk (docs/ARCHITECTURE.md names each module's concern).

Callers use `referee.storage.X`; the names below are the package's public face.
"""

from referee.codeid import code_digest
from referee.storage.atomic import CRASH_ENV, atomic_write
from referee.storage.cache import Cache
from referee.storage.codec import (
    MIGRATIONS,
    SCHEMA,
    Loaded,
    decode_states,
    digest_of,
    migrate,
    parse_session,
    parse_toml,
    read_toml,
    session_from_doc,
    session_from_export,
    session_to_doc,
    session_to_text,
)
from referee.storage.exports import STDOUT, write_new, write_sqlite
from referee.storage.files import MAX_FILE_BYTES, read_bytes, read_text, shown
from referee.storage.home import (
    Home,
    current_ref,
    follow_links,
    is_path,
    locate,
    private_folder,
    resolve,
    session_files,
)
from referee.storage.lock import LOCK_TIMEOUT_ENV, LOCK_TIMEOUT_MAX, lock_path, lock_timeout, locked
from referee.storage.rulesets import bundled_rulesets, load_ruleset, ruleset_names, ruleset_path
from referee.storage.sessions import (
    CLOCK_ENV,
    Change,
    Saved,
    create,
    discard,
    load,
    load_bytes,
    now,
    remove_session,
    rename_session,
    save,
    transaction,
)

__all__ = [
    "CLOCK_ENV",
    "CRASH_ENV",
    "LOCK_TIMEOUT_ENV",
    "LOCK_TIMEOUT_MAX",
    "MAX_FILE_BYTES",
    "MIGRATIONS",
    "SCHEMA",
    "STDOUT",
    "Cache",
    "Change",
    "Home",
    "Loaded",
    "Saved",
    "atomic_write",
    "bundled_rulesets",
    "code_digest",
    "create",
    "current_ref",
    "decode_states",
    "digest_of",
    "discard",
    "follow_links",
    "is_path",
    "load",
    "load_bytes",
    "load_ruleset",
    "locate",
    "lock_path",
    "lock_timeout",
    "locked",
    "migrate",
    "now",
    "parse_session",
    "parse_toml",
    "private_folder",
    "read_bytes",
    "read_text",
    "read_toml",
    "remove_session",
    "rename_session",
    "resolve",
    "ruleset_names",
    "ruleset_path",
    "save",
    "session_files",
    "session_from_doc",
    "session_from_export",
    "session_to_doc",
    "session_to_text",
    "shown",
    "transaction",
    "write_new",
    "write_sqlite",
]
