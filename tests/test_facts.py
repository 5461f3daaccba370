"""A session file's facts read without a full parse (issue 25): what a kept stats summary must
agree with (id, game, players, number of events) is read straight from a file in the layout
referee writes, and is then exactly what the full parse gives; a file in any other layout, or
one the full parse refuses, is never read that way (issue 18: a planted summary is rebuilt,
never shown, whatever layout its file is in)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import Runner
from referee import storage
from referee.errors import RefereeError
from referee.storage import codec

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))
HERE = Path("night.toml")


def slow_facts(raw: bytes) -> codec.Facts | None:
    """The facts by the full parse, or None if it refuses the file."""
    try:
        return codec.facts_of(codec.parse_session(HERE, raw, "").session)
    except RefereeError:
        return None


def same_facts(raw: bytes) -> codec.Facts | None:
    """The facts read straight from `raw`, checked against the full parse: read that way only
    when the full parse reads them the same."""
    fast = codec.canonical_facts(HERE, raw)
    if fast is not None:
        assert slow_facts(raw) == fast
    return fast


def saved_text(path: Path) -> bytes:
    """A file as referee writes it."""
    session = codec.parse_session(path, path.read_bytes(), "").session
    return codec.session_to_text(session).encode("utf-8")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_files_referee_writes_are_read_straight_with_the_parse_s_facts(path: Path) -> None:
    for raw in (path.read_bytes(), saved_text(path)):
        assert same_facts(raw) is not None


def test_a_file_from_before_ids_gets_the_derived_id(tmp_path: Path) -> None:
    raw = EXAMPLES[0].read_bytes()
    assert b"\nid = " not in raw
    facts = same_facts(raw)
    assert facts is not None and re.fullmatch("[0-9a-f]{32}", facts.id)


def test_a_session_with_no_events_and_one_with_an_id(referee: Runner, home: Path) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "friday").code == 0
    path = home / "sessions" / "friday.toml"
    facts = same_facts(path.read_bytes())
    assert facts is not None and facts.events == 0 and facts.players == ["Ann", "Bob"]
    assert referee("kariki", "claim", "9").code == 0  # an event with its time
    facts = same_facts(path.read_bytes())
    assert facts is not None and facts.events == 1


KARIKI = (Path(__file__).parents[1] / "examples" / "kariki-night.toml").read_text(encoding="utf-8")
FIRST_EVENT = '    { type = "claim", by = "Ann", rank = "Nine" },\n'

# Hand edits: (what, the text) -- each in a layout referee does not write, read by the full parse
OTHER_LAYOUTS = {
    "comment": KARIKI.replace("schema = 1\n", "# Friday\nschema = 1\n", 1),
    "spaces": KARIKI.replace(FIRST_EVENT, '    {type="claim", by="Ann", rank="Nine"},\n', 1),
    "crlf": KARIKI.replace("\n", "\r\n"),
    "escaped quote": KARIKI.replace('rank = "Nine"', 'rank = "Ni\\u006ee"', 1),
    "literal string": KARIKI.replace('rank = "Nine"', "rank = 'Nine'", 1),
    "no trailing comma": KARIKI.replace('{ name = "Eve" },\n]', '{ name = "Eve" }\n]', 1),
    "keys reordered": KARIKI.replace('name = "kariki-night"\ngame = "kariki"\n',
                                     'game = "kariki"\nname = "kariki-night"\n', 1),
    "undone events": KARIKI.replace("undone = []", "undone = [\n" + FIRST_EVENT + "]", 1),
    "game alias": KARIKI.replace('game = "kariki"\ncreated', 'game = "Kariki"\ncreated', 1),
    "19 digits": KARIKI.replace('rank = "Nine"', "rank = 1234567890123456789", 1),
    "a long ruleset": KARIKI + "".join(f"\n[ruleset.slash_rules.r{n}]\ntext = '{'x' * 60}'\n"
                                       for n in range(1000)),
}  # fmt: skip


@pytest.mark.parametrize("text", OTHER_LAYOUTS.values(), ids=OTHER_LAYOUTS.keys())
def test_a_file_in_another_layout_is_parsed(text: str) -> None:
    raw = text.encode("utf-8")
    assert text != KARIKI and codec.canonical_facts(HERE, raw) is None
    assert slow_facts(raw) is not None and storage.session_facts(HERE, raw) == slow_facts(raw)


# Files in referee's layout that the full parse refuses: never read straight
REFUSED = {
    "a key twice": KARIKI.replace(FIRST_EVENT, '    { type = "claim", by = "Ann", by = "Bob" },\n'),
    "a key twice, later": KARIKI.replace(
        FIRST_EVENT, '    { type = "claim", by = "Ann", rank = "Nine", at = "x", rank = "Ten" },\n'
    ),
    "true": KARIKI.replace('rank = "Nine"', "rank = true", 1),
    "a float": KARIKI.replace('rank = "Nine"', "rank = 1.5", 1),
    "a leading zero": KARIKI.replace('rank = "Nine"', "rank = 09", 1),
    "a control character": KARIKI.replace('rank = "Nine"', 'rank = "Ni\x1bne"', 1),
    "a cut line": KARIKI.replace(FIRST_EVENT, '    { type = "claim", by = "Ann",\n', 1),
    "name with spaces": KARIKI.replace('{ name = "Bob" }', '{ name = " Bob" }', 1),
    "a name twice": KARIKI.replace('{ name = "Bob" }', '{ name = "ann" }', 1),
    "a bad time": KARIKI.replace('created = "2026-11-29T14:04:24+00:00"', 'created = "2026"', 1),
    "no zone": KARIKI.replace('created = "2026-11-29T14:04:24+00:00"',
                              'created = "2026-11-29T14:04:24"', 1),
    "a bad session name": KARIKI.replace('name = "kariki-night"', 'name = "-night"', 1),
    "an unknown game": KARIKI.replace('game = "kariki"\ncreated', 'game = "chess"\ncreated', 1),
    "another game's ruleset": KARIKI.replace('kariki"\nname = "kariki"', 'mia"\nname = "kariki"'),
    "a table twice": KARIKI + "\n[options]\n",
    "a stray table": KARIKI + "\n[events]\n",
    "broken tables": KARIKI + "\n[ruleset\n",
    "one player": re.sub(r'players = \[\n(    .*\n)*\]', 'players = [\n    { name = "Ann" },\n]',
                         KARIKI, count=1),
    "a newer schema": KARIKI.replace("schema = 1", "schema = 2", 1),
}  # fmt: skip


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_a_file_the_parse_refuses_is_never_read_straight(text: str) -> None:
    raw = text.encode("utf-8")
    assert text != KARIKI and slow_facts(raw) is None
    assert codec.canonical_facts(HERE, raw) is None
    with pytest.raises(RefereeError):
        storage.session_facts(HERE, raw)


PIECES = ['"', "\\", ",", " ", "\n", "{", "}", "=", "by", "type", "[", "]", "0", "-", "\t",
          "\x00", "é", "true", '"Ann"', "#", "'"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.sampled_from([p.read_text(encoding="utf-8") for p in EXAMPLES]),
    edits=st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(PIECES)),
        min_size=1, max_size=3,
    ),
)  # fmt: skip
def test_any_edit_is_read_straight_only_with_the_parse_s_facts(
    base: str, edits: list[tuple[float, int, str]]
) -> None:
    """Characters cut, put in or replaced anywhere: whatever is read straight is what the full
    parse reads (and a file it refuses is never read straight)."""
    text = base
    for where, cut, piece in edits:
        at = int(where * len(text))
        text = text[:at] + piece + text[at + cut :]
    same_facts(text.encode("utf-8"))


def test_a_line_of_events_copied_is_counted_as_the_parse_counts_it() -> None:
    text = KARIKI.replace(FIRST_EVENT, FIRST_EVENT * 3, 1)
    facts = same_facts(text.encode("utf-8"))
    assert facts is not None and facts.events == KARIKI.count("\n    { type") + 2


# ------------------------------------------------------------------ stats over hand-edited files


def hand_edit(path: Path) -> None:
    """The file in a layout referee does not write (a comment and squeezed spaces), the same
    session."""
    text = path.read_text(encoding="utf-8").replace(" = ", "=")
    path.write_text("# edited by hand\n" + text, encoding="utf-8")


@pytest.mark.parametrize("field", ["players", "events", "id", "agrees"])
def test_a_kept_summary_of_a_hand_edited_file_agrees_or_is_rebuilt(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, field: str
) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday").code == 0
    for move in (("kariki", "claim", "9"), ("kariki", "pass")):
        assert referee(*move).code == 0
    path = home / "sessions" / "friday.toml"
    hand_edit(path)
    assert codec.canonical_facts(path, path.read_bytes()) is None  # the full parse reads it
    first = referee("stats", "--json")
    assert first.code == 0 and "skipped" not in first.err
    cache = storage.Cache.default()
    kept = cache.read_document("stats")
    assert isinstance(kept, dict)
    (entry,) = kept["entries"].values()
    if field == "players":
        entry["summary"]["players"] = ["Ann", "Bob"]
    elif field == "events":
        entry["summary"]["events"] = 7
    elif field == "id":
        entry["summary"]["id"] = "0" * 32
    cache.write_document("stats", kept)
    replayed: list[Path] = []
    real = codec.decode_states

    def counting(path: Path, raw: bytes) -> object:
        replayed.append(path)
        return real(path, raw)

    monkeypatch.setattr(storage, "decode_states", counting)
    again = referee("stats", "--json")
    assert again == first
    assert [p["name"] for p in json.loads(again.out)["players"]] == ["Ann", "Bob", "Cy"]
    assert replayed == ([] if field == "agrees" else [path])
