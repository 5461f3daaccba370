"""Issue 19 at the table: `settle`, what a tipsy scorekeeper types, and what the shell offers."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from conftest import Runner
from referee.cli.shell import Shell

START = ("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")


def session_file(home: Path, name: str = "friday") -> Path:
    return home / "sessions" / f"{name}.toml"


def play(referee: Runner, *lines: str) -> None:
    for line in lines:
        result = referee("kariki", *line.split())
        assert result.code == 0, (line, result.err)


def test_settle_ends_the_night_for_sessions_stats_and_show_json(referee: Runner) -> None:
    referee("new", "kariki", "Ann", "Bob", "--name", "friday", "--buy-in", "2")
    play(referee, "slash bob --count 12", "claim 9", "pull 4-5")
    assert "Ann leads" in referee("sessions").out
    doc = json.loads(referee("show", "--json").out)
    assert (doc["winner"], doc["pot_to"], doc["buyback_open"]) == ("Ann", None, ["Bob"])
    settled = referee("kariki", "settle")
    assert settled.code == 0
    assert " ".join(settled.out.split()).startswith("Bob did not buy back: Ann wins the pot of 4")
    assert "Ann won" in referee("sessions").out
    doc = json.loads(referee("show", "--json").out)
    assert (doc["pot_to"], doc["buyback_open"], doc["phase"]) == ("Ann", [], "over")
    stats = json.loads(referee("stats", "--json").out)
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert (ann["wins"], ann["finished"]) == (1, 1)
    money = stats["games"]["kariki"]
    assert (money["Ann"]["won"]["total"], money["Bob"]["paid"]["total"]) == (400, 200)  # cents


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        pytest.param((), "nothing to settle: no buy-back is on offer", id="fresh"),
        pytest.param(("slash bob 15",), "nothing to settle: 2 players still stand", id="mid-night"),
    ],
)
def test_settle_is_refused_without_an_offer_that_ends_the_night(
    referee: Runner, home: Path, lines: tuple[str, ...], message: str
) -> None:
    referee(*START)
    play(referee, *lines)
    before = session_file(home).read_bytes()
    result = referee("kariki", "settle")
    assert (result.code, result.err) == (1, f"error: {message}" + result.err[len(message) + 7 :])
    assert result.err.count("\n") == 1 and session_file(home).read_bytes() == before


@pytest.mark.parametrize(
    ("lines", "code", "said"),
    [
        pytest.param(("slash bob 15",), 0, "Bob buys back for 3", id="the-only-one-on-offer"),
        pytest.param((), 1, "error: no buy-back is on offer", id="none-on-offer"),
    ],
)
def test_buyback_without_a_name_is_the_one_player_on_offer(
    referee: Runner, lines: tuple[str, ...], code: int, said: str
) -> None:
    referee(*START)
    play(referee, *lines)
    result = referee("kariki", "buyback")
    assert result.code == code and said in result.out + result.err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("pull", "pull needs the dice under the mug, like pull 4-5", id="pull"),
        pytest.param("claim", "claim needs a rank, like claim 9 or claim 1-1", id="claim"),
        pytest.param("slash", "slash needs who broke a rule, like slash bob drop 25", id="slash"),
        pytest.param("claim one", "try 9, nine, 4-5, 66, boxcars or 1-1", id="double-ones-hint"),
        pytest.param(
            "slash bob 3 4", "'slash bob 3 4': 3 is a count, not a rule", id="two-numbers"
        ),
        pytest.param("slash zed", "unknown player 'zed'", id="wrong-player"),
        pytest.param("slash bob dorp", "unknown slash rule 'dorp'", id="typo-rule"),
    ],
)
def test_a_missing_or_mistyped_argument_is_one_house_line(
    referee: Runner, home: Path, line: str, message: str
) -> None:
    referee(*START)
    play(referee, "claim 9")
    before = session_file(home).read_bytes()
    result = referee("kariki", *line.split())
    assert result.code == 2 and message in result.err, result.err
    assert result.err.count("\n") == 1 and "Missing argument" not in result.err
    assert session_file(home).read_bytes() == before


@pytest.mark.parametrize(
    ("line", "stored"),
    [
        pytest.param("slash bob 3", {"type": "slash", "player": "Bob", "count": 3}, id="count"),
        pytest.param("sl bob drop 25", {"type": "slash", "player": "Bob", "rule": "drop",
                                        "seconds": 25}, id="drop-seconds"),
        pytest.param("sl bob seat 2", {"type": "slash", "player": "Bob", "rule": "seat",
                                       "count": 2}, id="rule-count"),
        pytest.param("cl 11", {"type": "claim", "by": "Ann", "rank": "Eleven"}, id="eleven"),
        pytest.param("cl 1-1", {"type": "claim", "by": "Ann", "rank": "Double Ones"},
                     id="double-ones"),
    ],
)  # fmt: skip
def test_shell_short_forms(
    referee: Runner,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    line: str,
    stored: dict[str, object],
) -> None:
    referee(*START)
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    assert referee("shell").code == 0
    events = json.loads(referee("log", "--json").out)
    assert [e["event"] for e in events] == [{**stored, "at": events[0]["event"]["at"]}]


SITUATIONS = [
    pytest.param((), id="fresh-roll"),
    pytest.param(("claim 9",), id="facing-a-claim"),
    pytest.param(("claim 9", "pass", "pass"), id="chain-back-at-the-roller"),
    pytest.param(("claim 9", "pass", "pass", "pass"), id="after-the-final-pass"),
    pytest.param(("slash bob 15",), id="a-buyback-on-offer"),
    pytest.param(("slash bob 15", "slash cy 15"), id="over-with-an-offer"),
    pytest.param(("slash bob 15", "slash cy 15", "settle"), id="settled"),
]


@pytest.mark.parametrize("lines", SITUATIONS)
def test_shell_help_lists_exactly_the_actions_that_work_now(
    referee: Runner, home: Path, lines: tuple[str, ...]
) -> None:
    referee(*START)
    play(referee, *lines)
    shell = Shell("friday")
    text = shell.help()
    listed = [row.split()[0] for row in text.split("\nnot now")[0].splitlines()[1:]]
    not_now = (
        text.split("not now: ")[1].split("\nalso")[0].replace("\n", " ")
        if ("not now: " in text)
        else ""
    )
    offered = json.loads(referee("show", "--json").out)["buyback_open"] or ["Cy"]
    arguments = {"claim": "11", "pull": "4-5", "slash": "ann", "buyback": offered[0],
                 "join": "Zed", "leave": "ann", "replace": "ann Zed",
                 "seat": "--first bob"}  # fmt: skip
    path = session_file(home)
    for name in [n.strip() for n in not_now.split(",") if n.strip()]:
        before = path.read_bytes()
        code = shell.do(f"{name} {arguments.get(name, '')}")
        assert code in (1, 2) and path.read_bytes() == before, name  # "not now" never works
    for name in listed:
        if name == "odds":
            continue
        code = Shell("friday").do(f"{name} {arguments.get(name, '')}")
        assert code == 0, name  # each action listed as open works
        referee("undo")


def test_the_sqlite_export_shares_the_place_of_players_out_in_one_event(
    referee: Runner, home: Path, tmp_path: Path
) -> None:
    referee("new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "friday")
    play(referee, "slash dee 15", "slash cy 12", "kariki", "kariki", "slash bob 6", "kariki",
         "settle")  # fmt: skip
    database = tmp_path / "league.db"
    assert referee("export", "--format", "sqlite", "-o", str(database)).code == 0
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT player, place, won FROM results ORDER BY place, player"
        ).fetchall()
        status = db.execute("SELECT status FROM sessions").fetchone()
    assert rows == [("Ann", 1, 1), ("Bob", 2, 0), ("Cy", 2, 0), ("Dee", 4, 0)]
    assert status == ("finished",)


@pytest.mark.parametrize("line", ["settle", "buyback", "pass", "kariki", "roll", "claim 9"])
def test_a_kariki_action_on_another_games_session_is_one_line(
    referee: Runner, home: Path, line: str
) -> None:
    referee("new", "liars", "Ann", "Bob", "Cy", "--name", "dice")
    before = session_file(home, "dice").read_bytes()
    result = referee("kariki", *line.split(), "-s", "dice")
    assert (result.code, result.err.count("\n")) == (2, 1), result.err
    assert "session 'dice' is Liar's dice" in result.err and "Traceback" not in result.err
    assert session_file(home, "dice").read_bytes() == before


def test_an_action_while_a_buyback_is_open_says_who_leads_not_who_won(referee: Runner) -> None:
    assert referee("new", "kariki", "Ann", "Bob", "--name", "t").code == 0
    assert referee("kariki", "slash", "bob", "--count", "15").code == 0
    refused = referee("kariki", "claim", "9")
    assert refused.code == 1
    assert "Ann leads" in refused.err and "settle" in refused.err and "won" not in refused.err
    assert referee("kariki", "settle").code == 0
    assert "Ann won" in referee("kariki", "claim", "9").err


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (("slash", "Bob", "drop", "--seconds", "25", "--seconds", "15"),
         "--seconds given twice (25 and 15): give it once; for two, type the action twice"),
        (("slash", "Bob", "--count", "2", "--count", "3"), "--count given twice (2 and 3)"),
        (("slash", "Bob", "--count", "1", "--count", "1", "--count", "1"),
         "--count given 3 times (1 and 1 and 1)"),
        (("claim", "9", "--by", "Ann", "--by", "Bob"), "--by given twice (Ann and Bob)"),
    ],
)  # fmt: skip
def test_an_option_given_twice_is_refused_not_half_counted(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, line: tuple[str, ...], said: str
) -> None:
    """`slash Bob drop --seconds 25 --seconds 15` (two dropped dice) counted the last alone: 2
    slashes where the table meant 5. Refused in one line, in the shell too, nothing written."""
    assert referee(*START).code == 0
    before = session_file(home).read_bytes()
    result = referee("kariki", *line)
    assert result.code == 2 and result.err == f"error: {said}" + result.err[7 + len(said) :]
    assert result.err.count("\n") == 1 and session_file(home).read_bytes() == before
    monkeypatch.setattr("sys.stdin", io.StringIO(" ".join(line) + "\n"))
    shell = referee("shell")
    assert said in shell.err and "Traceback" not in shell.err
    assert session_file(home).read_bytes() == before


def test_a_prefix_two_spaced_names_share_says_to_quote_the_name(
    referee: Runner, home: Path
) -> None:
    """`--by alexander` with two Alexanders said "type more letters", and the scorekeeper typed
    `--by alexander braun`, which Click split into a stray word: say to quote it."""
    assert (
        referee(
            "new", "kariki", "Alexander Braun", "Alexander Brandt", "Cy", "--name", "friday"
        ).code
        == 0
    )
    before = session_file(home).read_bytes()
    result = referee("kariki", "claim", "9", "--by", "alexander")
    assert result.code == 2 and result.err == (
        "error: player 'alexander' could be Alexander Braun, Alexander Brandt: type more letters,"
        ' or the whole name: "Alexander Braun"\n'
    )
    assert session_file(home).read_bytes() == before
    result = referee("kariki", "claim", "9", "--by", "alexander braun")
    assert result.code == 0 and "Alexander Braun claims Nine" in result.out


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (("pass", "--by", "alexander", "braun"), "'pass' does not take 'braun': one word too many"),
        (("pass", "--by", "cy", "a", "b"), "'pass' does not take 'a b': 2 words too many"),
        (("roll", "now"), "'roll' does not take 'now': one word too many"),
    ],
)
def test_words_too_many_are_named_in_the_house_style(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, line: tuple[str, ...], said: str
) -> None:
    """Click said "Got unexpected extra argument(s) (braun)" to `pass --by alexander braun`:
    say which words are too many, and that a name with a space goes in quotes."""
    assert referee("new", "kariki", "Alexander Braun", "Bob", "Cy", "--name", "friday").code == 0
    before = session_file(home).read_bytes()
    result = referee("kariki", *line)
    tail = " (a name with a space goes in quotes) (see --help)\n"
    assert result.code == 2 and result.err == f"error: {said}{tail}"
    if "braun" not in line:  # the shell takes a whole name unquoted
        monkeypatch.setattr("sys.stdin", io.StringIO(" ".join(line) + "\n"))
        assert f"error: {said} (a name with a space goes in quotes)\n" in referee("shell").err
    assert session_file(home).read_bytes() == before


def test_a_quoted_word_too_many_counts_as_one_and_is_not_told_to_quote(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`roll "alexander braun"` was told "2 words too many (a name with a space goes in
    quotes)": it was one word, quoted already (and so is a whole name the shell joined)."""
    assert referee("new", "kariki", "Alexander Braun", "Bob", "Cy", "--name", "friday").code == 0
    assert referee("kariki", "claim", "9").code == 0
    before = session_file(home).read_bytes()
    said = "error: 'roll' does not take 'alexander braun': one word too many"
    result = referee("kariki", "roll", "alexander braun")
    assert result.code == 2 and result.err == f"{said} (see --help)\n"
    monkeypatch.setattr("sys.stdin", io.StringIO("roll alexander braun\n"))
    assert referee("shell").err == f"{said}\n"
    assert session_file(home).read_bytes() == before


@pytest.mark.parametrize(
    ("typed", "named"),
    [("zoe", "Zoë Müller"), ("ZOE M", "Zoë Müller"), ("jose", "José"), ("josé", "José"),
     ("josep", "Joséphine")],
)  # fmt: skip
def test_a_player_is_named_without_the_accents_a_phone_keyboard_lacks(
    referee: Runner, typed: str, named: str
) -> None:
    """`seat --first zoe` was refused ("unknown player 'zoe'") for Zoë Müller."""
    players = ["Ann", "Zoë Müller", "José", "Joséphine"]
    assert referee("new", "kariki", *players, "--name", "friday").code == 0
    result = referee("kariki", "seat", "--first", typed)
    assert result.code == 0 and f"{named} rolls first" in result.out


def test_without_accents_two_names_alike_still_ask_for_more_letters(referee: Runner) -> None:
    assert referee("new", "kariki", "Zoë", "Zoe Lee", "Ann", "--name", "friday").code == 0
    assert "Zoë rolls first" in referee("kariki", "seat", "--first", "zoë").out
    result = referee("kariki", "seat", "--first", "zo")
    assert result.code == 2 and "could be Zoë, Zoe Lee" in result.err


@pytest.mark.parametrize(
    ("players", "typed", "said"),
    [
        (["José", "Josef", "Ann"], "jose", "José rolls first"),  # a whole name, not a prefix
        (["Zoë", "Zoe Lee", "Ann"], "zoe", "Zoë rolls first"),
        (["Lúcia", "Lucía", "Ann"], "lucia", "error: player 'lucia' could be Lúcia, Lucía: type"
         " more letters or the accents"),
    ],
)  # fmt: skip
def test_a_name_typed_without_its_accents_never_picks_another_player_alone(
    referee: Runner, home: Path, players: list[str], typed: str, said: str
) -> None:
    """`seat --first jose` at a table of José and Josef seated Josef (a prefix beat José's
    whole name typed without the accent), and `lucia` seated whichever of Lúcia and Lucía
    sat first: a wrong player silently. A whole name wins over a prefix, as typed with its
    accents it does; two whole names alike are both named, and nothing is written."""
    assert referee("new", "kariki", *players, "--name", "friday").code == 0
    before = session_file(home).read_bytes()
    result = referee("kariki", "seat", "--first", typed)
    if said.startswith("error"):
        assert result.code == 2 and result.err == f"{said}\n"
        assert session_file(home).read_bytes() == before
    else:
        assert result.code == 0 and said in result.out
    for name in players[:2]:  # each still named by the whole name, accents and all
        assert f"{name} rolls first" in referee("kariki", "seat", "--first", name.lower()).out


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (("slash", "bob", "drop", "25", "--seconds", "30"), "two amounts (25 and --seconds 30)"),
        (("slash", "bob", "2", "--count", "3"), "two amounts (2 and --count 3)"),
    ],
)
def test_an_amount_given_as_a_word_and_an_option_names_both(
    referee: Runner, home: Path, line: tuple[str, ...], said: str
) -> None:
    """The refusal said "give the amount once: as a word, or as --seconds / --count"."""
    assert referee(*START).code == 0
    before = session_file(home).read_bytes()
    result = referee("kariki", *line)
    assert result.code == 2 and result.err == f"error: {said}: give one\n"
    assert session_file(home).read_bytes() == before


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (("slash", "cy", "drop", "2.5"), "N is a whole number, not '2.5'"),
        (("slash", "Alexander", "Braun", "mug"),
         "N is a whole number, not 'mug' (a name with a space goes in quotes)"),
    ],
)  # fmt: skip
def test_a_word_where_a_number_goes_is_said_in_the_house_style(
    referee: Runner, home: Path, line: tuple[str, ...], said: str
) -> None:
    """Click said "Invalid value for 'N': 'mug' is not a valid int." to a name left unquoted."""
    assert referee("new", "kariki", "Alexander Braun", "Bob", "Cy", "--name", "friday").code == 0
    before = session_file(home).read_bytes()
    result = referee("kariki", *line)
    assert (result.code, result.err) == (2, f"error: {said} (see --help)\n")
    assert session_file(home).read_bytes() == before
