"""A session file's facts (issue 25): what a kept stats summary must agree with (id, game,
players, number of events), read by the parse, so a file the parse refuses has none (issue 18:
a planted summary is rebuilt, never shown, whatever layout its file is in)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import Runner
from referee import storage
from referee.errors import RefereeError
from referee.storage import codec

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.toml"))
HERE = Path("night.toml")


def facts_or_none(raw: bytes) -> codec.Facts | None:
    """The facts of `raw`, or None if the parse refuses the file."""
    try:
        return storage.session_facts(HERE, raw)
    except RefereeError:
        return None


def test_a_file_from_before_ids_gets_the_derived_id(tmp_path: Path) -> None:
    raw = EXAMPLES[0].read_bytes()
    assert b"\nid = " not in raw
    facts = facts_or_none(raw)
    assert facts is not None and re.fullmatch("[0-9a-f]{32}", facts.id)


def test_a_session_with_no_events_and_one_with_an_id(referee: Runner, home: Path) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "friday").code == 0
    path = home / "sessions" / "friday.toml"
    facts = facts_or_none(path.read_bytes())
    assert facts is not None and facts.events == 0 and facts.players == ["Ann", "Bob"]
    assert referee("kariki", "claim", "9").code == 0  # an event with its time
    facts = facts_or_none(path.read_bytes())
    assert facts is not None and facts.events == 1


KARIKI = (Path(__file__).parents[1] / "examples" / "kariki-night.toml").read_text(encoding="utf-8")
FIRST_EVENT = '    { type = "claim", by = "Ann", rank = "Nine" },\n'

# Files the parse refuses: they have no facts
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
def test_a_file_the_parse_refuses_has_no_facts(text: str) -> None:
    raw = text.encode("utf-8")
    assert text != KARIKI
    with pytest.raises(RefereeError):
        storage.session_facts(HERE, raw)


def test_a_line_of_events_copied_is_counted_as_the_parse_counts_it() -> None:
    text = KARIKI.replace(FIRST_EVENT, FIRST_EVENT * 3, 1)
    facts = facts_or_none(text.encode("utf-8"))
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
