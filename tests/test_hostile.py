"""Hostile files and hostile input for every game (issue 14): one line, the right exit code,
and nothing written, whatever a file or a command line holds."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import Runner, snapshot

EXAMPLES = {p.stem: p for p in (Path(__file__).parents[1] / "examples").glob("*.toml")}
GAME_OF = {
    "kariki-night": "kariki",
    "liars-dice-night": "liars",
    "perudo-night": "liars",
    "kiriki-bullet": "kiriki",
    "kiriki-standard": "kiriki",
    "kalooki-game": "kalooki",
}
Break = Callable[[bytes], bytes]


def first_event(raw: bytes) -> tuple[int, int]:
    """The span of the first event's inline table in a session file."""
    start = raw.index(b"events = [\n") + len(b"events = [\n")
    return start, raw.index(b"\n", start)


def replace_first_event(raw: bytes, line: bytes) -> bytes:
    start, end = first_event(raw)
    return raw[:start] + b"    " + line + b"," + raw[end:]


COMMON: list[tuple[str, Break, str]] = [
    ("truncated", lambda raw: raw[: len(raw) // 2], "not valid TOML"),
    ("bom", lambda raw: b"\xef\xbb\xbf" + raw, "byte-order mark"),
    ("latin-1", lambda raw: raw.replace(b'name = "', b'name = "\xe9', 1), "not UTF-8"),
    ("future-schema", lambda raw: raw.replace(b"schema = 1", b"schema = 7", 1), "newer referee"),
    ("wrong-type", lambda raw: raw.replace(b"schema = 1", b'schema = "one"', 1), "'schema'"),
    ("deep-nesting", lambda raw: raw + b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n",
     "cannot be read"),
    ("huge-integer", lambda raw: raw + b"x = " + b"9" * 5000 + b"\n", "cannot be read"),
    ("unknown-event", lambda raw: replace_first_event(raw, b'{ type = "teleport", by = "Ann" }'),
     "event 1"),
    ("another-games-event", lambda raw: replace_first_event(
        raw, b'{ type = "stockout" }' if b'game = "kalooki"' not in raw else
        b'{ type = "pass", by = "Ann" }'), "event 1"),
    ("missing-players", lambda raw: raw.replace(b"players = [", b"xplayers = [", 1), "'players'"),
]  # fmt: skip

OWN: list[tuple[str, str, Break, str]] = [
    ("liars-dice-night", "a-million-dice",
     lambda raw: replace_first_event(raw, b'{ type = "bid", by = "Ann", bid = "1000000x3" }'),
     "event 1"),
    ("kiriki-bullet", "a-third-player",
     lambda raw: raw.replace(b'{ name = "Bob" },', b'{ name = "Bob" },\n    { name = "Cy" },', 1),
     "exactly 2 players"),
    ("kalooki-game", "a-fifth-joker",
     lambda raw: raw.replace(b'{ type = "out", player = "Cy" },',
                             b'{ type = "out", player = "Cy" },\n    '
                             b'{ type = "hand", player = "Ann",'
                             b' cards = "JK JK JK JK JK 2C 3C 4C 5C" },', 1),
     "5 x JK"),
    ("kalooki-game", "a-third-7H",
     lambda raw: raw.replace(b'player = "Ann", cards = "10H KD 2S 3C 4C 5D 6D 8H 9H"',
                             b'player = "Ann", cards = "7H 7H 2S 3C 4C 5D 6D 8H 9H"', 1),
     "3 x 7H"),
    ("kalooki-game", "a-10th-round",
     lambda raw: raw.replace(b"\n]\nundone", b'\n    { type = "out", player = "Ann" },\n]\nundone',
                             1), "the game is over after round 9"),
]  # fmt: skip

CASES = [
    pytest.param(name, breaking, message, id=f"{name}-{kind}")
    for name in sorted(EXAMPLES)
    for kind, breaking, message in COMMON
] + [
    pytest.param(name, breaking, message, id=f"{name}-{kind}")
    for name, kind, breaking, message in OWN
]


@pytest.mark.parametrize(("example", "breaking", "message"), CASES)
def test_broken_files_of_every_game(
    referee: Runner, home: Path, example: str, breaking: Break, message: str
) -> None:
    path = home / "night.toml"
    home.mkdir(parents=True, exist_ok=True)
    raw = EXAMPLES[example].read_bytes()
    broken = breaking(raw)
    assert broken != raw
    path.write_bytes(broken)
    before = snapshot(path)
    for command in (("show",), ("show", "--json"), ("log",), ("undo",), ("export",)):
        result = referee(*command, "-s", str(path))
        assert result.code == 3, (command, result)
        assert result.err.count("\n") == 1 and message in result.err, result.err
    assert snapshot(path) == before


def test_a_50_mb_session_file_and_a_50_mb_import(referee: Runner, home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    for name in ("big.toml", "big.json"):
        with (home / name).open("wb") as handle:
            handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, nothing to write
    result = referee("show", "-s", str(home / "big.toml"))
    assert result.code == 3 and "too large" in result.err
    result = referee("import", str(home / "big.json"))
    assert result.code == 3 and "too large" in result.err
    assert not (home / "sessions").exists()


def test_an_export_edited_to_break_a_rule_is_refused_for_every_game(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    for name in sorted(EXAMPLES):
        doc = json.loads(referee("export", "-f", "json", "-s", str(EXAMPLES[name])).out)
        events = doc["session"]["events"]
        events.append(dict(events[-1]))  # the last event again: the game is over, or it is out
        edited = tmp_path / f"{name}.json"
        edited.write_text(json.dumps(doc))
        result = referee("import", str(edited), "--name", "edited")
        assert result.code == 3 and "event" in result.err, (name, result)
    assert not (home / "sessions" / "edited.toml").exists()


# ------------------------------------------------------------------ hostile input

NEW = {
    "kariki": ["new", "kariki", "Ann", "Bob"],
    "liars": ["new", "liars", "Ann", "Bob"],
    "kiriki": ["new", "kiriki", "Ann", "Bob", "--first", "Ann"],
    "kalooki": ["new", "kalooki", "Ann", "Bob", "Cy"],
}
LONG = "x" * 10_000
ACTIONS = {
    "kariki": [["claim", LONG], ["pull", LONG], ["slash", LONG], ["slash", "Ann", LONG],
               ["buyback", "\x1b]52;c;aGk=\x07"], ["claim", "9", "--by", LONG]],
    "liars": [["bid", LONG], ["call", "--dice", LONG], ["call", "--dice", "Ann=" + "1," * 5000],
              ["exact", "--dice", "\u202eAnn=1"], ["odds", LONG]],
    "kiriki": [["claim", LONG], ["claim", "9", "--show", LONG], ["lift", LONG],
               ["resign", LONG], ["raise", "\x00"]],
    "kalooki": [["down", "Ann", LONG], ["hand", "Bob", *(["2S"] * 5000)], ["tack", "Ann", LONG,
                "--on", "1"], ["call", LONG], ["check", LONG]],
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(NEW))
def test_hostile_arguments_to_every_games_commands(referee: Runner, home: Path, game: str) -> None:
    assert referee(*NEW[game], "--name", "friday").code == 0
    path = home / "sessions" / "friday.toml"
    before = snapshot(path)
    for args in ACTIONS[game]:
        result = referee(game, *args)
        assert result.code in (1, 2), (args[:2], result)
        assert result.err.count("\n") == 1 and len(result.err) < 300, result.err[:200]
        assert "\x1b" not in result.err and "\u202e" not in result.err
    assert snapshot(path) == before


@pytest.mark.parametrize("game", sorted(NEW))
@pytest.mark.parametrize(
    "name",
    ["An\x1bn", "A\u202en", "A\u2028n", "\u200b", "x" * 10_000, "-rf", "../x"],
    ids=["escape", "bidi", "line-separator", "zero-width", "10k", "option", "dotdot"],
)
def test_hostile_names_are_refused_in_every_game(
    referee: Runner, home: Path, game: str, name: str
) -> None:
    players = [name, "Bob", "Cy"][: len(NEW[game]) - 2 if game != "kiriki" else 2]
    args = [*NEW[game][:2], *players, *(["--first", "Bob"] if game == "kiriki" else [])]
    result = referee(*args, "--name", "hostile")
    if name == "../x":  # a player may be called that; a session may not
        assert result.code == 0
        assert referee(*args, "--name", "../x").code == 2
        return
    assert result.code == 2 and result.err.count("\n") == 1 and "\x1b" not in result.err
    assert not (home / "sessions" / "hostile.toml").exists()


def test_markup_and_formulas_as_names_in_every_game(referee: Runner) -> None:
    import csv
    import io

    names = ["[red]Bob[/]", "@SUM(1+1)", "+cmd|'/c calc'"]  # '=' sets a nickname: never a name
    first = {
        "kariki": ["kariki", "claim", "9"],
        "liars": ["liars", "bid", "1x2"],
        "kiriki": ["kiriki", "claim", "9"],
        "kalooki": ["kalooki", "call", "+cmd"],
    }
    for game in sorted(NEW):
        extra = ["--first", names[0]] if game == "kiriki" else []
        people = names[:2] if game == "kiriki" else names
        assert referee("new", game, *people, *extra, "--name", f"evil-{game}").code == 0
        assert referee(*first[game]).code == 0
        card = referee("show").out
        # literal, never markup (the Kalooki sheet heads its columns with short names)
        assert ("[red]Bob[/]" if game != "kalooki" else "[re") in card, card
        rows = list(csv.reader(io.StringIO(referee("export").out)))
        assert all(not c.startswith(("=", "+", "-", "@", "\t", "\r")) for r in rows for c in r)
        assert any(c in ("'[red]Bob[/]", "[red]Bob[/]", "'+cmd|'/c calc'") for c in rows[1])
