"""`referee shell`: scripted lines, the session kept in memory, prefixes, completion."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, session_file, snapshot
from referee import games, storage
from referee.cli.shell import Shell
from referee.errors import UsageError
from referee.storage import codec

START = ("new", "kariki", "Ann", "Bob", "Cy", "--name", "friday")
EXAMPLES = Path(__file__).parents[1] / "examples"


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_a_scripted_night_runs_line_by_line(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    feed(monkeypatch, "claim 9\npa\n# a comment\n\npass\nroll\npull 3-4\n")
    result = referee("shell")
    assert result.code == 1  # 'roll' by the roller was refused; the night went on
    assert "Ann claims> claim 9\nAnn claims Nine\n" in result.out
    assert "Bob vs Nine> pa\nBob passes and answers for Nine\n" in result.out
    assert "error: the chain came back to Ann: pull, or pass it back to Bob" in result.err
    assert "Ann vs Nine> pull 3-4\nAnn pulls 3-4 (Seven) on Nine: a lie, a" in result.out
    doc = json.loads(referee("show", "--json").out)
    assert [p["berry_causes"] for p in doc["players"]] == [[], [], ["lie"]]
    assert doc["events"] == 4


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param(  # what is open now, where it listed closed commands too
            "zz",
            "unknown command 'zz': open now claim, kariki, slash, seat; help lists the rest",
            id="unknown",
        ),
        pytest.param(
            "slash Bob drop -5",
            "-5 is no option, and no count or amount is below 0",
            id="a-negative-count",
        ),
        pytest.param(
            "bid 5x3",
            "'bid' is an action of Liar's dice, not Kariki: try claim",
            id="another-games-action",
        ),
        pytest.param(
            "lift 4-2",
            "'lift' is an action of Kiriki and Mia, not Kariki",
            id="two-other-games-action",
        ),
        pytest.param("p", "'p' could be pull, pass", id="ambiguous-prefix"),
        pytest.param('claim "9', "No closing quotation", id="bad-quotes"),
        pytest.param("claim eight-ish", "unknown rank", id="bad-rank"),
        pytest.param("pass", "no claim to pass", id="refused"),
    ],
)
def test_bad_lines_change_nothing(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, line: str, message: str
) -> None:
    referee(*START)
    path = home / "sessions" / "friday.toml"
    before = path.read_bytes(), path.stat().st_mtime_ns
    feed(monkeypatch, line + "\n")
    result = referee("shell")
    assert result.code in (1, 2) and message in result.err and result.err.count("\n") == 1
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_the_shell_replays_the_file_once_not_per_line(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    reads: list[Path] = []
    real = codec.replay_of

    def counting(parsed: storage.Loaded) -> object:
        reads.append(parsed.path)
        return real(parsed)

    monkeypatch.setattr(codec, "replay_of", counting)
    feed(monkeypatch, "claim 9\npull 4-5\nclaim 9\npull 4-5\nshow\nlog\nundo\nredo\n")
    assert referee("shell").code == 0
    assert len(reads) == 1


def test_the_shell_sees_another_terminal(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    shell = Shell("friday")
    assert shell.prompt() == "Ann claims> "
    assert referee("kariki", "claim", "9").code == 0  # typed in another terminal
    assert shell.prompt() == "Bob vs Nine> "
    assert shell.do("pull 4-5") == 0
    assert shell.prompt() == "Ann claims> "  # Bob pulled on the truth: Ann rolls fresh


def test_quit_stops_reading(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    referee(*START)
    feed(monkeypatch, "claim 9\nquit\npass\n")
    result = referee("shell")
    assert result.code == 0 and "pass" not in result.out.split("quit", 1)[1]


def test_help_fits_a_phone(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    referee(*START)
    feed(monkeypatch, "help\n")
    out = referee("shell").out
    assert "claim" in out and "undo" in out
    assert max(len(line) for line in out.splitlines()) <= 40


COMPLETIONS = [
    pytest.param("", "cl", ["claim"], id="command"),
    pytest.param("", "u", ["undo"], id="builtin"),
    pytest.param("claim ", "d", [], id="no-spaced-names"),
    pytest.param("claim ", "6", ["6", "6-6"], id="rank"),
    pytest.param(
        "claim ",
        "",
        ["4", "5", "6", "7", "8", "9", "10", "11", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"],
        id="ranks-in-ladder-order",
    ),
    pytest.param("pull ", "4-", ["4-4", "4-5", "4-6"], id="dice"),
    pytest.param("slash ", "b", ["Bob"], id="player-any-case"),
    pytest.param("sl bob ", "d", ["drop"], id="slash-rule-after-prefix"),
    pytest.param("claim 9 --by ", "c", ["Cy"], id="by"),
    pytest.param("pass ", "--", ["--by"], id="option"),
    pytest.param("buyback ", "", [], id="nobody-out"),
]


@pytest.mark.parametrize(("before", "text", "expected"), COMPLETIONS)
def test_completion(referee: Runner, before: str, text: str, expected: list[str]) -> None:
    referee(*START)
    assert Shell("friday").complete(before, text) == expected


def test_the_example_night_replays_through_the_shell(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee("new", "kariki", "Ann=Ace", "Bob", "Cy=Sly", "Dee", "Eve", "--buy-in", "2",
            "--name", "night")  # fmt: skip
    feed(monkeypatch, (EXAMPLES / "kariki-night.txt").read_text())
    assert referee("shell").code == 0
    played = json.loads(referee("show", "--json").out)
    bundled = json.loads(referee("show", "--json", "-s", str(EXAMPLES / "kariki-night.toml")).out)
    assert {**played, "session": ""} == {**bundled, "session": ""}


def test_an_interactive_shell_completes_with_tab(referee: Runner, home: Path) -> None:
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    referee(*START)
    env = {**os.environ, "REFEREE_HOME": str(home), "COLUMNS": "40", "NO_COLOR": "1"}
    child = pexpect.spawn(
        sys.executable, ["-m", "referee", "shell"], env=env, encoding="utf-8", timeout=20
    )
    child.expect_exact("Ann claims> ")
    child.send("cl\t9\r")  # Tab completes 'cl' to 'claim '
    child.expect_exact("Ann claims Nine")
    child.expect_exact("Bob vs Nine> ")
    child.send("pu\t4-\t\t")  # a second Tab lists the dice that start with 4-
    child.expect_exact("4-5")
    child.send("5\r")
    child.expect_exact("Bob pulls 4-5")
    child.expect_exact("Ann claims> ")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_tab_lists_the_ranks_in_ladder_order(referee: Runner, home: Path) -> None:
    """GNU readline sorted the list a second Tab shows (1-1 10 11 2-2 ...); the README says
    ladder order: the shell lists its own words, in its own order."""
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    referee(*START)
    env = {**os.environ, "REFEREE_HOME": str(home), "COLUMNS": "40", "NO_COLOR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "referee", "shell"], env=env,
                          encoding="utf-8", timeout=20, dimensions=(24, 40))  # fmt: skip
    child.expect_exact("Ann claims> ")
    child.send("claim \t\t")
    child.expect_exact("4    5    6    7    8    9    10   11\r\n1-1  2-2  3-3  4-4  5-5  6-6")
    child.expect_exact("Ann claims> claim ")
    child.send("9\r")
    child.expect_exact("Ann claims Nine")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    child.close()


def test_completion_scripts_install_through_typer(referee: Runner) -> None:
    result = referee("--show-completion", "bash")
    assert result.code == 0 and "_referee_completion" in result.out


def test_a_thumb_at_the_bar_in_a_real_terminal(referee: Runner, home: Path) -> None:
    """Issue 9: a typo, a nickname, `pu 4 5`, help, history after a restart, exit 0 on quit."""
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    referee("new", "kariki", "Ann=Ace", "Bob", "Cy=Sly", "--name", "bar")
    env = {**os.environ, "REFEREE_HOME": str(home), "COLUMNS": "40", "LINES": "24",
           "NO_COLOR": "1"}  # fmt: skip

    def start() -> Any:
        child = pexpect.spawn(
            sys.executable, ["-m", "referee", "shell"], env=env, encoding="utf-8", timeout=20
        )
        child.expect_exact("rolls fresh")  # the banner is followed by the card
        child.expect_exact("Ann claims> ")
        return child

    child = start()
    child.send("cliam 9\r")
    child.expect_exact("mean 'claim'?")  # wrapped at words on a terminal
    child.send("cl 9\r")
    child.expect_exact("Bob vs Nine> ")
    child.send("sl sly drop 25\r")  # a nickname, and the seconds without --seconds
    child.expect_exact("3 slashes (drop): a berry for Cy")
    child.send("pu 4 5\r")
    child.expect_exact("Bob pulls 4-5 (Nine) on Nine: true")
    child.expect_exact("Ann claims> ")
    child.send("help\r")
    child.expect_exact("claim    Claim a rank.")
    child.expect_exact("not now: roll, pull, pass")
    child.send("nonsense\r")  # refused lines do not make quitting a failure
    child.expect_exact("unknown command")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "pu 4 5" in (home / "shell_history").read_text()

    child = start()
    child.send("\x1b[A\x1b[A")  # up twice: the line before 'quit' ...
    child.expect_exact("nonsense")
    child.send("\x1b[A\r")  # ... and once more: 'help', run again
    child.expect_exact("claim    Claim a rank.")
    child.expect_exact("Ann claims> ")  # a thumb presses Ctrl-D at the prompt, not before it
    child.sendeof()  # Ctrl-D leaves like quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_liars_dice_night_in_the_shell(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--ruleset", "perudo", "--name", "dice",
            "--direction", "left")  # fmt: skip
    shell = Shell("dice")
    assert shell.prompt() == "Ann opens> "
    assert shell.complete("", "b") == ["bid"]
    assert "odds" in shell.help() and "not now: call, exact" in shell.help()
    feed(monkeypatch, "b 3x4\nbid 2x1\nodds\nexact 2\n")
    result = referee("shell")
    assert result.code == 0, result
    assert "Bob over 3x4> bid 2x1" in result.out and "Cy over 2x1> odds" in result.out
    assert Shell("dice").prompt() == "Cy opens> "  # the calza caller opens, right or wrong
    opening = ["1x2", "1x3", "1x4", "1x5", "1x6"]  # Perudo never opens on ones
    assert Shell("dice").complete("bid ", "") == opening


def test_a_kiriki_match_in_the_shell_with_short_forms(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--format", "bullet", "--name", "duel")
    assert Shell("duel").prompt() == "rolloff, one die each> "
    feed(monkeypatch, "rolloff 5 3\ncl pair of kings\nb\nrai 66\nr\ncl 66\nlift 6-6\n")
    result = referee("shell")
    assert result.code == 0, result
    for seen in ("Bob answers Pair of Kings> b", "Ann: reveal/raise/reroll> rai 66",
                 "Bob answers Pair of Aces> r", "Bob claims Pair of Aces+> cl 66",
                 "Ann answers Pair of Aces> lift 6-6",
                 "point to Bob (0-1)"):  # fmt: skip
        assert seen in result.out, seen
    shell = Shell("duel")
    assert shell.prompt() == "Ann claims> "
    monkeypatch.setattr(shell, "open_actions", lambda: ("reveal", "raise", "reroll"))
    with pytest.raises(UsageError, match="could be reveal, raise, reroll"):
        shell._command("r")


def test_a_kalooki_round_in_the_shell(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    referee("new", "kalooki", "Ann", "Bob", "Cy", "--name", "cards")
    shell = Shell("cards")
    assert shell.prompt() == "R1 333 Ann deals> "
    assert shell.complete("down cy ", "7") == ["7S", "7H", "7D", "7C"]
    assert shell.complete("hand ", "") == ["--points"]  # nobody is out: no player to name
    feed(monkeypatch, "call bob\ndown cy 7H 7S 7D / 8C 8S 8D / 9H 9S JK\nout cy\n"
                      "check 5H 5D JK\nhand ann 2C 3C 4C 5C 6C 8C 9C 10C 5H\n"
                      "hand bob --points 62\n")  # fmt: skip
    result = referee("shell")
    assert result.code == 0, result
    assert "R1 333 Ann deals (hands)> check 5H 5D JK" in result.out and "three" in result.out
    assert Shell("cards").prompt() == "R2 334 Bob deals> "


# ---------------------------------------------------------------------------- a lazy opening
# Issue 25: opening builds no Click command (Typer builds each from its signature, most of what
# opening cost); the tree is built when a line first needs it, once, and kept for the night.


def count_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The trees the shell builds from now on: 'own' (its game's) or another game's name."""
    from typer.main import get_command as real_get

    import referee.cli.shell as shell_module
    from referee.cli.app import command_for as real_for

    built: list[str] = []

    def own(app: Any) -> Any:
        built.append("own")
        return real_get(app)

    def other(argv: list[str]) -> Any:
        built.append(" ".join(argv) or "every game")
        return real_for(argv)

    monkeypatch.setattr(shell_module, "get_command", own)
    monkeypatch.setattr(shell_module, "command_for", other)
    return built


def test_opening_builds_no_command_and_the_first_line_still_works(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    referee(*START)
    built = count_builds(monkeypatch)
    shell = Shell("friday")
    assert shell.prompt() == "Ann claims> " and shell.complete("", "cl") == ["claim"]
    assert shell.do("q") is None and built == []  # opened, prompted, completed, quit: none
    capsys.readouterr()
    assert shell.do("cl 9") == 0  # the first line typed: a prefix of an open action
    assert "Ann claims Nine" in capsys.readouterr().out
    assert shell.do("pa") == 0 and shell.do("show") == 0 and shell.do("undo") == 0
    assert built == ["own"]  # built once for every line after


def test_completion_completes_after_a_lazy_build(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    referee(*START)
    built = count_builds(monkeypatch)
    shell = Shell("friday")
    first = shell.complete("", "")  # the open actions first, then the rest and the shell's
    assert first == ["claim", "kariki", "slash", "seat", "join", "leave", "replace", "roll",
                     "pull", "pass", "buyback", "settle", "odds", "show", "log", "undo", "redo",
                     "help", "qr", "quit"]  # fmt: skip
    assert built == []
    assert shell.complete("claim ", "6") == ["6", "6-6"]  # the command's own parameters
    assert shell.complete("pass ", "--") == ["--by"]
    assert shell.complete("sl bob ", "d") == ["drop"]
    assert shell.complete("", "") == first and built == ["own"]


def test_help_and_a_changed_session_on_the_first_line(
    referee: Runner, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first line may need the tree for something else than its own command: help's
    lines, or the card shown when another terminal changed the session since the shell
    opened (the line is refused as on any later line)."""
    referee(*START)
    shell = Shell("friday")
    capsys.readouterr()
    assert shell.do("help claim") == 0
    assert capsys.readouterr().out.startswith("claim rank\nClaim a rank.")
    shell = Shell("friday")
    assert referee("kariki", "claim", "9").code == 0  # another terminal
    saved = (home / "sessions" / "friday.toml").read_bytes()
    assert shell.do("claim 9") == 1
    said = capsys.readouterr()
    assert "changed in another terminal" in said.err and "Bob vs Nine" not in said.out
    assert "KARIKI friday" in said.out
    assert (home / "sessions" / "friday.toml").read_bytes() == saved
    assert shell.do("pass") == 0


def test_another_games_tools_build_their_own_tree_once(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    referee(*START)
    built = count_builds(monkeypatch)
    shell = Shell("friday")
    for _ in range(2):
        assert shell.do("kalooki check 5H 5D JK") == 0
        assert "three" in capsys.readouterr().out
    assert shell.do("liars bid 3x4") == 2  # another game's action: refused in one line
    assert "needs a Liar's dice session" in capsys.readouterr().err
    assert built == ["kalooki", "liars"]  # the table's own tree was never needed


@pytest.mark.parametrize("game", games.GAMES, ids=lambda g: g.name)
def test_the_names_read_without_building_are_the_built_ones(game: games.GameInfo) -> None:
    """`command_names` reads a game's Typer app as Typer names and orders its commands: the
    shell resolves words and completes the first one from it before anything is built."""
    from referee.cli.app import command_for
    from referee.cli.shell import command_names

    built = command_for([game.name]).commands[game.name].commands
    assert command_names(game) == tuple(built)


def test_leaving_keeps_a_replay_only_when_there_is_a_new_one(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay the shell opened on is in the cache already: quitting at once writes
    nothing; after a line that saved, the new replay is kept for the next command."""
    referee(*START)
    assert referee("show").code == 0  # its replay kept, as the command before leaves it
    kept: list[str] = []
    real = storage.Cache.put

    def counting(cache: storage.Cache, loaded: storage.Loaded) -> None:
        kept.append(loaded.digest)
        real(cache, loaded)

    monkeypatch.setattr(storage.Cache, "put", counting)
    feed(monkeypatch, "show\nquit\n")
    assert referee("shell").code == 0 and kept == []
    feed(monkeypatch, "claim 9\nquit\n")
    assert referee("shell").code == 0 and len(kept) == 1
    replays = count_replays(monkeypatch)
    assert referee("show").code == 0 and replays == []  # the next command replays nothing


def count_replays(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    replays: list[Path] = []
    real = codec.replay_of

    def counting(parsed: storage.Loaded) -> object:
        replays.append(parsed.path)
        return real(parsed)

    monkeypatch.setattr(codec, "replay_of", counting)
    return replays


def test_another_games_action_in_a_shell_on_a_named_session_writes_nowhere(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`referee shell -s liars-night` then `kariki claim 9` added the claim to the *current*
    Kariki session: another game's action is refused as the slip it is, and its tools work."""
    import io

    referee("new", "kariki", "Ann", "Bob", "--name", "kn")
    referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--name", "ln")
    referee("use", "kn")
    before = snapshot(session_file(home, "kn"))
    lines = "kariki claim 9\nkariki odds 9\nkalooki check 5H 5D JK\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    result = referee("shell", "-s", "ln")
    assert "session 'ln' is Liar's dice: 'kariki claim' needs a Kariki session" in result.err
    assert "16/36" in result.out and "three: 5H 5D JK" in result.out
    assert snapshot(session_file(home, "kn")) == before


KIRIKI = ("kiriki", "Ann", "Bob", "--first", "Ann")


MIA = ("mia", "Ann", "Bob", "--first", "Ann")
FACING_MIA = ("mia", "announce", "21")


@pytest.mark.parametrize(
    ("new", "played", "typed", "said"),
    [
        pytest.param(KIRIKI, (), "k", "'kiriki' in full: it ends the round", id="kiriki-k"),
        pytest.param(KIRIKI, (), "res ann", "'resign' in full: it ends the match", id="resign"),
        pytest.param(("kariki", "Ann", "Bob"), (), "set", "'settle' in full: it ends the night",
                     id="settle"),
        pytest.param(("kalooki", "Ann", "Bob", "Cy"), (), "o ann", "'out' in full", id="out"),
        pytest.param(MIA, FACING_MIA, "g", "'giveup' in full: it ends the round",
                     id="mia-giveup"),
        pytest.param(MIA, FACING_MIA, "give", "'giveup' in full: it ends the round",
                     id="mia-give"),
        pytest.param(MIA, ("mia", "announce", "54"), "l 43", "'lift' in full: it ends the round",
                     id="mia-lift"),
        pytest.param(("liars", "Ann", "Bob", "Cy"), ("liars", "bid", "2x3"), "c 1",
                     "'call' in full: it ends the round", id="liars-call"),
        pytest.param(KIRIKI, (), "le bob", "'leave' in full: it ends a player's game",
                     id="kiriki-leave"),  # at two players, leave resigns the match
        pytest.param(("kariki", "Ann", "Bob", "Cy"), (), "lea cy", "'leave' in full",
                     id="kariki-leave"),
    ],
)  # fmt: skip
def test_one_letter_never_ends_a_round_a_match_or_the_night(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    new: tuple[str, ...],
    played: tuple[str, ...],
    typed: str,
    said: str,
) -> None:
    """`g` facing a Mia gave up and cost a life."""
    import io

    assert referee("new", *new, "--name", "friday").code == 0
    assert not played or referee(*played).code == 0
    before = referee("log").out
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    result = referee("shell")
    assert result.code == 2 and f"error: type {said}" in result.err
    assert referee("log").out == before


def test_giveup_typed_in_full_gives_up_to_mia(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    referee("new", *MIA, "--name", "friday")
    referee(*FACING_MIA)
    monkeypatch.setattr("sys.stdin", io.StringIO("giveup\n"))
    assert referee("shell").code == 0
    assert referee("log", "--script").out.splitlines()[1:] == [
        "announce Mia --by Ann",
        "giveup --by Bob",
    ]


@pytest.mark.parametrize(
    ("new", "title"),
    [pytest.param(KIRIKI, "Kiriki", id="kiriki"),
     pytest.param(("liars", "Ann", "Bob", "Cy", "Dee"), "Liar's dice", id="liars")],
)  # fmt: skip
def test_kariki_by_its_alias_is_kariki_in_every_shell(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, new: tuple[str, ...], title: str
) -> None:
    """`k claim 9` at a Kiriki table answered "type 'kiriki' in full": `k` followed by one of
    Kariki's commands is Kariki's alias there too, as on the command line and in any shell."""
    import io

    assert referee("new", *new, "--name", "friday").code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("k claim 9\nk roll\nk odds 9\n"))
    result = referee("shell")
    refused = "error: session 'friday' is {}: 'kariki {}' needs a Kariki session"
    assert result.code == 2 and result.err.splitlines() == [
        refused.format(title, "claim") + " (referee new kariki ... or -s NAME)",
        refused.format(title, "roll") + " (referee new kariki ... or -s NAME)",
    ]
    assert "> k odds 9\na fresh roll meets Nine or better: 16/36" in result.out
    assert referee("log").out == "no events yet\n"


@pytest.mark.parametrize("typed", ["k", "k 9", "k --by ann", "K"])
def test_k_with_nothing_kariki_takes_is_still_a_slip_of_kiriki(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    import io

    referee("new", *KIRIKI, "--name", "friday")
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    result = referee("shell")
    assert (result.code, result.err) == (2, "error: type 'kiriki' in full: it ends the round\n")


def test_a_rank_alone_at_a_claims_prompt_is_the_claim(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The prompt reads `Dan claims>`, and a bare `9` there was "unknown command"; a typo of a
    command still gets its did-you-mean."""
    import io

    referee("new", "kariki", "Dan", "Eve", "--name", "friday")
    monkeypatch.setattr("sys.stdin", io.StringIO("cliam 9\n9\n"))
    result = referee("shell")
    assert "error: unknown command 'cliam': did you mean 'claim'?" in result.err
    assert "Dan claims> 9\nDan claims Nine\n" in result.out
    assert referee("log", "--script").out.splitlines()[1] == "claim Nine --by Dan"


def test_help_of_an_action_names_the_options_it_cannot_do_without(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`help tack` left `--on` out, though the shell's refusal of a tack points there."""
    import io

    referee("new", "kalooki", "Ann", "Bob", "Cy", "--name", "friday")
    monkeypatch.setattr("sys.stdin", io.StringIO("help tack\n"))
    assert "> help tack\ntack player card --on n\n" in referee("shell").out


@pytest.mark.parametrize("line", ["help kiriki", "? kal", "help mia liars"])
def test_help_of_another_game_lists_its_commands(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """`help kiriki` at a Kariki table ended the shell in a traceback ('NoneType' object has
    no attribute 'params'): another game's name is a command there, but not one of the table's.
    It lists that game's commands, each with what it does."""
    referee(*START)
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    result = referee("shell")
    game = games.BY_NAME[line.split()[1]]
    assert result.code == 0 and "Traceback" not in result.err, result.err
    assert f"> {line}\n{game.title}, typed '{game.name} COMMAND'" in result.out
    assert Shell("friday").help(line.split()[1]).startswith(f"{game.title}, typed")


def test_rematch_is_open_only_once_the_match_is_over(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell's help listed `rematch` as open in the middle of a match."""
    import io

    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "friday")
    monkeypatch.setattr("sys.stdin", io.StringIO("help\nresign bob\nhelp\n"))
    during, _, after = referee("shell").out.partition("resign bob")
    assert "  rematch  Play again." not in during and "rematch" in during  # under "not now"
    assert "  rematch  Play again." in after


def test_help_lists_seat_as_open_until_the_first_claim(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`help` said `not now: ..., seat, ...` on a fresh Kariki night, where `seat --first`
    works (and `help seat` says it is open until the first claim)."""
    referee(*START)
    shell = Shell("friday")
    opened = shell.help().split("not now:")[0]
    assert "\n  seat " in opened
    referee("kariki", "claim", "9")
    shell = Shell("friday")
    assert "seat" in shell.help().split("not now:")[1].split("\n")[0]


@pytest.mark.parametrize(
    ("start", "moves", "prompt"),
    [
        (["kariki", "Maximilianus-Abc", "Bob"], [["kariki", "claim", "66"]],
         "Bob vs Double Sixes> "),
        (["kariki", "Bob", "Maximilianus-Abc"], [["kariki", "claim", "66"]],
         "Maximilia… vs Double Sixes> "),
        (["kalooki", "Alexander Brandt", "Bob", "Cy"], [], "R1 333 Alexander Br… deals> "),
        (["kariki", "Alexander Braun", "Alexander Brandt"], [["kariki", "claim", "66"]],
         "Alexande…t vs Double Sixes> "),  # cut apart from the other Alexander
        (["kiriki", "Alexander Braun", "Bob"],
         [["kiriki", "rolloff", "6", "1"], ["kiriki", "claim", "9"], ["kiriki", "believe"]],
         "Alex…: reveal/raise/reroll> "),
    ],
)  # fmt: skip
def test_a_long_name_gives_way_so_the_prompt_leaves_room_to_type(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    start: list[str],
    moves: list[list[str]],
    prompt: str,
) -> None:
    """`Maximilianus-Abc claims Double Sixes+> ` took 39 of 40 columns: what was typed began
    in the last one and wrapped mid-word."""
    from referee.render.cells import width_of

    monkeypatch.setenv("COLUMNS", "40")
    assert referee("new", *start, "--name", "p").code == 0
    for move in moves:
        assert referee(*move).code == 0, move
    shown = Shell("p").prompt()
    assert shown == prompt and width_of(shown) <= 40 - 12
    monkeypatch.setenv("COLUMNS", "80")
    assert "…" not in Shell("p").prompt()


@pytest.mark.parametrize(
    ("game", "lines", "said"),
    [
        ("kariki", ["claim 9 --by alexander braun"], "Alexander Braun claims Nine"),
        ("kariki", ["leave ALEXANDER  BRANDT"], "Alexander Brandt leaves: out"),
        ("mia", ["announce 43 --by alexander braun"], "Alexander Braun announces 43"),
        ("liars", ["bid 2x3 --by Alexander Braun"], "Alexander Braun bids"),
        ("kariki", ["claim 9 --by cy   de  la cruz"], "Cy De La  Cruz claims Nine"),
    ],
)
def test_a_whole_name_typed_without_quotes_is_one_word(
    referee: Runner,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    lines: list[str],
    said: str,
) -> None:
    """`leave Alexander Braun` was refused ("unexpected extra argument (Braun)"), and Mia's
    `l 43 --by Alexander Braun` read the rank '43 Braun'; a name with two spaces in a row
    was never joined."""
    names = ["Alexander Braun", "Alexander Brandt", "Cy De La  Cruz"]  # two spaces, as typed
    first = "Cy De La  Cruz" if "cruz" in lines[0] else "Alexander Braun"
    assert referee("new", game, *names, "--name", "sp", "--first", first).code == 0
    feed(monkeypatch, "\n".join(lines) + "\n")
    result = referee("shell")
    assert result.code == 0 and said in result.out, result.err


@pytest.mark.parametrize(
    ("line", "said", "code"),
    [
        ("slash jose nunez 1", "1st slash for José Núñez", 0),
        ("leave JOSE NUNEZ", "José Núñez leaves: out", 0),
        ("slash zoe muller 1", "1st slash for Zoë Müller", 0),
        ("slash zoe miller 1", "1st slash for Zoe Miller", 0),
        ("slash zoë 1", "1st slash for Zoë Müller", 0),  # typed with its accent: only Zoë
        ("slash zoe mu 1", "player 'zoe' could be Zoë Müller, Zoe Miller", 2),
        ("slash zoe 1", "player 'zoe' could be Zoë Müller, Zoe Miller", 2),
    ],
)
def test_a_name_typed_without_its_accents_names_one_player_or_asks(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch, line: str, said: str, code: int
) -> None:
    """`slash jose nunez 1` read the slash rule 'nunez', and `slash zoe mu 1` gave Zoe Miller
    a slash for the mug where Zoë Müller was meant, without a word."""
    names = ["José Núñez", "Zoë Müller", "Zoe Miller", "Cy"]
    assert referee("new", "kariki", *names, "--name", "acc").code == 0
    before = session_file(home, "acc").read_bytes()
    feed(monkeypatch, line + "\n")
    result = referee("shell")
    assert result.code == code and said in (result.out if code == 0 else result.err)
    assert code == 0 or session_file(home, "acc").read_bytes() == before


@pytest.mark.parametrize(
    ("topic", "first"),
    [
        ("kal", "Kalooki, typed 'kalooki COMMAND': its tools work here, its actions need"),
        ("k", "Kariki, typed 'kariki COMMAND': its tools work here, its actions need a Kariki"),
        ("kal contract", "kalooki contract round melds"),
        ("mia announce", "mia announce value"),
    ],
)
def test_help_on_another_games_name_explains_it(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, topic: str, first: str
) -> None:
    """`help kal` (or `help k`, `help mia`) in any shell was a traceback that ended the shell."""
    monkeypatch.setenv("COLUMNS", "200")
    assert referee("new", "liars", "Ann", "Bob", "Cy", "Dee", "--name", "lh").code == 0
    feed(monkeypatch, f"help {topic}\nshow\n")
    result = referee("shell")
    assert result.code == 0 and "Traceback" not in result.err, result.err
    assert first in result.out and "LIAR'S DICE lh" in result.out


def test_a_prefix_never_goes_to_an_action_typed_only_in_full(referee: Runner) -> None:
    """`se` was "could be seat, settle", though settle is never typed by a prefix: the one
    action a prefix can stand for is meant."""
    referee(*START)
    referee("kariki", "claim", "9")  # neither seat nor settle is open: both among the rest
    shell = Shell("friday")
    assert shell._command("se") == "seat"
    assert shell._command("settle") == "settle" and shell._command("s") == "slash"


@pytest.mark.parametrize(
    ("new", "lines", "said"),
    [
        (("mia", "Ann", "Bob", "--first", "Ann"), ["54"], "Ann announces 54"),
        (("liars", "Ann", "Bob", "Cy"), ["2x3"], "Ann bids two threes (2x3)"),
        (("kiriki", "Ann", "Bob", "--first", "Ann"), ["9"], "Ann claims"),
        (("kariki", "Ann", "Bob"), ["3"], "error: unknown rank '3'"),  # claim's own refusal
        (("kariki", "Ann", "Bob"), ["claim 9", "45"], "error: unknown command '45'"),  # a pull?
    ],
)
def test_a_value_alone_is_what_the_prompt_asks_for(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    new: tuple[str, ...],
    lines: list[str],
    said: str,
) -> None:
    """`54` at Mia's `Ann rolls>` and `8` at Kiriki's `Zoë claims 9+>` were unknown commands
    (Kariki's `9` was a claim), and Kariki's `3` said nothing of ranks."""
    assert referee("new", *new, "--name", "bare").code == 0
    feed(monkeypatch, "\n".join(lines) + "\n")
    result = referee("shell")
    assert said in (result.err if said.startswith("error") else result.out), result


@pytest.mark.parametrize("line", ["log zzz", "show friday", "l 43"])
def test_show_or_log_given_a_name_in_the_shell_says_it_plays_its_own(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """`log zzz` (or `l 43`, another game's lift, in a Kalooki shell) dumped the whole log:
    the shell's own session won over the name, silently."""
    assert referee("new", "kalooki", "Ann", "Bob", "Cy", "--name", "k").code == 0
    feed(monkeypatch, line + "\n")
    result = referee("shell")
    assert result.code == 2 and "error: the shell plays its own session" in result.err
    assert "no events yet" not in result.out


def test_a_name_that_reads_as_a_line_never_takes_the_command(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a player called "claim 9" at the table, the line `claim 9` was joined into that
    name and refused ("unknown command 'claim 9'"): the first word is always the command's."""
    names = ["claim 9", "pass it", "Cy"]
    assert referee("new", "kariki", *names, "--name", "sp", "--first", "Cy").code == 0
    feed(monkeypatch, "claim 9\nkariki claim 10 --by claim 9\npass --by pass it\n")
    result = referee("shell")
    assert result.code == 0 and result.err == "", result.err
    assert "Cy claims> claim 9\nCy claims Nine\n" in result.out
    assert "> kariki claim 10 --by claim 9\nclaim 9 takes the mug and claims Ten\n" in result.out
    assert "> pass --by pass it\npass it passes and answers for Ten\n" in result.out


def test_an_apostrophe_in_a_name_is_a_letter_not_a_quote(
    referee: Runner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pass --by O'Neil` was refused ("No closing quotation"), and `replace O'Neil D'Arcy`
    was read as the one word `ONeil DArcy`: an apostrophe inside a word is the name's."""
    assert referee("new", "kariki", "Ann", "O'Neil", "D'Arcy Lee", "--name", "sp").code == 0
    feed(monkeypatch, "claim 9\npass --by O'Neil\npass --by d'arcy lee\nreplace o'neil D'Souza\n")
    result = referee("shell")
    assert result.code == 0 and result.err == "", result.err
    assert "> pass --by O'Neil\nO'Neil passes and answers for Nine\n" in result.out
    assert "> pass --by d'arcy lee\nD'Arcy Lee passes and answers for Nine\n" in result.out
    assert "> replace o'neil D'Souza\nD'Souza takes O'Neil's seat" in result.out


def test_every_long_name_in_a_prompt_gives_way_for_the_words_after_them(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kalooki's tie said `Max… and Maximilianus-Abd…> `: only the longest name gave way, so
    the second was cut at the end of the line and took 'won' with it."""
    import shlex

    monkeypatch.setenv("COLUMNS", "40")
    names = {"Bob": "Maximilianus-Abc", "Cy": "Maximilianus-Abd"}
    assert referee("new", "kalooki", "Ann", *names.values(), "Dee", "--name", "p").code == 0
    lines = (EXAMPLES / "kalooki-game.txt").read_text(encoding="utf-8").splitlines()[1:]
    tie = {
        "hand Bob --points 38": "hand Bob --points 32",
        "hand Cy --points 36": "hand Cy --points 54",
    }
    for line in lines:  # the example game, but Bob and Cy tie at 306
        words = shlex.split(tie.get(line, line))
        assert referee("kalooki", *(names.get(w, w) for w in words)).code == 0, line
    assert "Maximilianus-Abc and Maximilianus-Abd\ntie with 306" in referee("show").out
    assert Shell("p").prompt() == "Ma…c and Maximilianu…d won> "


def test_kiriki_help_lists_leave_and_replace_as_open_all_match(referee: Runner) -> None:
    """`help` put leave and replace under "not now", though both are open all match (the
    README says so, and `replace bob Eve` works); `l` and `r` stay lift and roll."""
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "kh")
    referee("kiriki", "claim", "9")
    shell = Shell("kh")
    opened, _, rest = shell.help().partition("not now:")
    assert "\n  leave " in opened and "\n  replace " in opened
    assert "leave" not in rest.split("also:")[0] and "join" in rest
    assert (shell._command("l"), shell._command("r")) == ("lift", "roll")
