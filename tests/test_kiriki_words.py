"""Kiriki in its own words (RULES.md 1 and 3, issue 20): face words typed and printed, the
prompt, forced moves, the end of a match, and the screens at 40 columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Runner, session_file, snapshot
from referee.errors import NotationError, RuleViolation
from referee.games.base import PlayerInfo
from referee.games.kiriki import engine as kr
from referee.notation.dice import KARIKI, KIRIKI, Rank, Roll, parse_rank
from referee.notation.dice import KIRIKI_WORDS as WORDS
from test_kiriki import RULES, match, play

# ------------------------------------------------------------------ typed


KIRIKI_SPELLINGS = [
    pytest.param("AA", Rank.DOUBLE_SIXES, id="AA"),
    pytest.param("aces", Rank.DOUBLE_SIXES, id="aces"),
    pytest.param("double aces", Rank.DOUBLE_SIXES, id="double-aces-is-6-6"),
    pytest.param("pair of aces", Rank.DOUBLE_SIXES, id="pair-of-aces"),
    pytest.param("Pair-of-Ace", Rank.DOUBLE_SIXES, id="pair-of-ace"),
    pytest.param("A-A", Rank.DOUBLE_SIXES, id="A-A"),
    pytest.param("ace ace", Rank.DOUBLE_SIXES, id="ace-ace"),
    pytest.param("K-K", Rank.DOUBLE_FIVES, id="K-K"),
    pytest.param("KK", Rank.DOUBLE_FIVES, id="KK"),
    pytest.param("king king", Rank.DOUBLE_FIVES, id="king-king"),
    pytest.param("kings", Rank.DOUBLE_FIVES, id="kings"),
    pytest.param("q-k", Rank.NINE, id="queen-king"),
    pytest.param("J Q", Rank.SEVEN, id="jack-queen"),
    pytest.param("blacks", Rank.DOUBLE_ONES, id="blacks"),
    pytest.param("pair of reds", Rank.DOUBLE_TWOS, id="pair-of-reds"),
    pytest.param("BR", Rank.ONE_TWO, id="black-red"),
    pytest.param("9", Rank.NINE, id="digit"),
    pytest.param("nine", Rank.NINE, id="word"),
    pytest.param("45", Rank.NINE, id="two-dice"),
    pytest.param("6-6", Rank.DOUBLE_SIXES, id="6-6"),
    pytest.param("10", Rank.TEN, id="ten-is-a-sum"),
    pytest.param("11", Rank.ELEVEN, id="eleven-is-a-sum"),
    pytest.param("13", Rank.FOUR, id="thirteen-is-two-dice"),
    pytest.param("tabique", Rank.ELEVEN, id="tabique"),
    pytest.param("11 / Tabique", Rank.ELEVEN, id="printed-eleven"),
    pytest.param("kiriki", Rank.ONE_TWO, id="kiriki"),
]


@pytest.mark.parametrize(("text", "rank"), KIRIKI_SPELLINGS)
def test_kiriki_face_words(text: str, rank: Rank) -> None:
    assert WORDS.parse_rank(text) is rank


FOREIGN = [
    pytest.param("snake eyes", "1-1 is Pair of Blacks here (pair of blacks, BB or 1-1)",
                 id="snake-eyes"),
    pytest.param("double ones", "1-1 is Pair of Blacks here", id="double-ones"),
    pytest.param("boxcars", "6-6 is Pair of Aces here (pair of aces, AA or 6-6)", id="boxcars"),
    pytest.param("double deuces", "2-2 is Pair of Reds here", id="double-deuces"),
    pytest.param("kariki", "1-2 is Kiriki here", id="kariki"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "hint"), FOREIGN)
def test_kariki_words_are_refused_with_a_hint_in_kiriki_words(text: str, hint: str) -> None:
    with pytest.raises(NotationError, match="in Kiriki: ") as error:
        WORDS.parse_rank(text)
    assert hint in str(error.value)


def test_kariki_keeps_its_own_aces() -> None:
    # One ladder, each game's words: in Kariki an ace is a 1.
    assert parse_rank("double aces") is Rank.DOUBLE_ONES
    assert WORDS.parse_rank("double aces") is Rank.DOUBLE_SIXES
    assert KARIKI.name(Rank.DOUBLE_SIXES) == "Double Sixes"


@pytest.mark.parametrize("rank", list(Rank))
def test_every_kiriki_name_and_spelling_parses_back(rank: Rank) -> None:
    assert WORDS.parse_rank(KIRIKI.name(rank)) is rank
    assert WORDS.parse_rank(WORDS.spell(rank)) is rank
    for roll in (r for r in (Roll.of(a, b) for a in range(1, 7) for b in range(a, 7))):
        if roll.rank is rank:
            assert WORDS.parse_dice(WORDS.dice(roll)) == roll
            assert WORDS.parse_dice(WORDS.letters(roll)) == roll
            assert WORDS.parse_rank(WORDS.letters(roll)) is rank


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        pytest.param("kingz", "did you mean 'kings'?", id="typo"),
        pytest.param("pair of", "try 9, nine, 4-5, pair of kings or KK", id="half-said"),
        pytest.param("x", "try 9, nine, 4-5, pair of kings or KK", id="nonsense"),
        pytest.param("１０", "try 9", id="wide-digits"),
        pytest.param("", "try 9", id="empty"),
    ],
)
def test_unknown_ranks_hint_in_kiriki_words(text: str, hint: str) -> None:
    with pytest.raises(NotationError) as error:
        WORDS.parse_rank(text)
    assert hint in str(error.value)


@pytest.mark.parametrize("text", ["K-K", "kk", "king king", "5-5", "55", "5 5", "Kings Kings"])
def test_dice_in_words_or_digits(text: str) -> None:
    assert WORDS.parse_dice(text) == Roll(5, 5)


@pytest.mark.parametrize("text", ["K-K-K", "kx", "7-1", "queenking", "", "q"])
def test_bad_dice(text: str) -> None:
    with pytest.raises(NotationError, match="give two dice, like 4-5, 45, K-K or king king"):
        WORDS.parse_dice(text)


# ------------------------------------------------------------------ at the table


def test_the_table_words_on_the_command_line(referee: Runner) -> None:
    """`claim AA`, `claim kings`, `lift K-K` were refused; `claim double aces` was 1-1."""

    def said(*args: str) -> str:
        result = referee(*args)
        assert result.code == 0, result
        return " ".join(result.out.split())

    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "m")
    assert said("kr", "claim", "double", "aces").startswith("Ann claims Pair of Aces KIRIKI")
    assert said("kr", "roll")
    assert said("kr", "claim", "AA", "--show", "k").startswith(
        "Bob claims Pair of Aces, showing a King KIRIKI"
    )
    assert said("kr", "lift", "K-K").startswith(
        "Ann lifts Pair of Kings on Pair of Aces: a lie; point to Ann (1-0)"
    )
    assert said("kr", "claim", "kings").startswith("Bob claims Pair of Kings KIRIKI")
    assert said("kr", "lift", "q-k").startswith(
        "Ann lifts Queen-King (9) on Pair of Kings: a lie; point to Ann (2-0)"
    )
    log = json.loads(referee("log", "--json").out)
    assert [e["event"].get("rank") or e["event"].get("dice") for e in log][:5] == [
        "Pair of Aces", None, "Pair of Aces", "5-5", "Pair of Kings"
    ]  # fmt: skip


def test_a_refused_kariki_word_saves_nothing(referee: Runner, home: Path) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "friday")
    before = snapshot(session_file(home))
    result = referee("kr", "claim", "snake", "eyes")
    assert result.code == 2 and result.err == (
        "error: unknown rank 'snake eyes' in Kiriki: 1-1 is Pair of Blacks here (pair of"
        " blacks, BB or 1-1)\n"
    )
    assert snapshot(session_file(home)) == before


RULINGS = [
    pytest.param("Ann claim 9 show ace", "Ann claims 9, showing an Ace", id="an-ace"),
    pytest.param("Ann claim 9 show king", "Ann claims 9, showing a King", id="a-king"),
    pytest.param("Ann claim 9; Bob lift 1-2", "Bob lifts Black-Red (Kiriki) on 9: it holds",
                 id="a-hidden-kiriki"),
    pytest.param("Ann kiriki", "Ann shows a Kiriki (Black-Red)", id="kiriki"),
    pytest.param("Ann claim 66; Bob believe",
                 "Bob believes Pair of Aces: Ann must reroll (or show a bluff)",
                 id="forced-reroll"),
    pytest.param("Ann claim 9; Bob believe", "Bob believes 9", id="believe"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "said"), RULINGS)
def test_rulings_in_kiriki_words(script: str, said: str) -> None:
    from referee.games.kiriki.words import words

    assert words(play(script, match()).ruling).startswith(said)


# ------------------------------------------------------------------ the prompt


WAITS = [
    pytest.param("", "Ann must claim (or show a Kiriki)", id="claim"),
    pytest.param("Ann claim 9", "Bob must lift, believe or roll 9", id="answer"),
    pytest.param("Ann claim 66; Bob roll; Bob claim 66", "Ann must lift or roll Pair of Aces",
                 id="locked"),
    pytest.param("Ann claim 9; Bob believe", "Ann was believed and must reveal, raise or reroll",
                 id="believed"),
    pytest.param("Ann claim 66; Bob believe", "Ann must reroll (or reveal a bluff)", id="forced"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "said"), WAITS)
def test_not_now_says_who_must_do_what(script: str, said: str) -> None:
    state = play(script, match())
    who = state.name(state.turn)
    wrong = kr.Reroll(who) if state.phase is kr.Phase.ANSWER else kr.Lift(who, Roll(1, 3))
    with pytest.raises(RuleViolation) as refused:
        kr.apply(state, wrong)
    assert str(refused.value) == f"not now: {said}"


PROMPTS = [
    pytest.param("", "Ann claims", id="fresh-roll"),
    pytest.param("Ann claim 9", "Bob answers 9", id="answer"),
    pytest.param("Ann claim 9; Bob believe", "Ann: reveal/raise/reroll", id="believed"),
    pytest.param("Ann claim 66; Bob believe", "Ann must reroll", id="forced-reroll"),
    pytest.param("Ann claim 9; Bob roll", "Bob claims 9+", id="took-the-mug"),
    pytest.param("Ann claim 9; Bob believe; Ann reroll", "Ann claims 9+", id="rerolled"),
    pytest.param("Ann claim 9; Bob resign", "the match is over", id="over"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "prompt"), PROMPTS)
def test_the_prompt_says_who_acts_and_what(script: str, prompt: str) -> None:
    from referee.games.kiriki.cli import shell_prompt

    assert shell_prompt(play(script, match())) == prompt


def test_the_rolloff_prompt() -> None:
    from referee.games.kiriki.cli import shell_prompt

    assert shell_prompt(match(first=None)) == "rolloff, one die each"


# ------------------------------------------------------------------ the end of a match


def finished(referee: Runner, ranked: bool = False) -> None:
    extra = ["--ranked"] if ranked else []
    referee("new", "kiriki", "Ann", "Bob", "--format", "bullet", "--first", "Ann", *extra)
    assert referee("kr", "kiriki").code == 0  # Ann 1-0; the loser starts each round
    for _ in range(2):
        assert referee("kr", "claim", "5").code == 0 and referee("kr", "lift", "1-3").code == 0


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("kr", "claim", "9"), id="claim"),
        pytest.param(("kr", "lift", "4-5", "--by", "Bob"), id="lift-by"),
        pytest.param(("kr", "kiriki"), id="kiriki"),
    ],
)
def test_one_word_for_the_end(referee: Runner, home: Path, args: tuple[str, ...]) -> None:
    finished(referee)
    before = {p: snapshot(p) for p in (home / "sessions").iterdir()}
    result = referee(*args)
    assert (result.code, result.err) == (1, "error: the match is over: Ann won 3-0\n"), result
    assert {p: snapshot(p) for p in (home / "sessions").iterdir()} == before


def test_no_odds_for_a_dead_claim(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann")
    referee("kr", "claim", "pair", "of", "kings")
    referee("kr", "resign", "Bob")
    result = referee("kr", "odds")
    assert result.code == 2 and "no claim stands (the match is over: Ann won 0-0" in result.err
    doc = json.loads(referee("show", "--json").out)
    assert (doc["claim"], doc["shown_die"], doc["aces_locked"]) == (None, None, False)


def test_a_rolloff_tie_is_a_normal_event(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob")
    result = referee("kr", "rolloff", "4", "4")
    assert result.code == 0 and result.out.startswith("roll-off 4-4: tie, roll again\n")
    assert json.loads(referee("show", "--json").out)["events"] == 1
    assert referee("kr", "rolloff", "2", "5").out.startswith("roll-off 2-5: Bob rolls first")


def test_stats_count_only_finished_ranked_matches(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--ranked", "--first", "Ann", "--name", "open")
    referee("kr", "claim", "9")
    doc = json.loads(referee("stats", "--json").out)
    assert "ranked matches" not in json.dumps(doc)
    referee("kr", "resign", "Bob")
    assert "ranked matches" in json.dumps(json.loads(referee("stats", "--json").out))


def test_the_ranked_tally_needs_a_finished_match() -> None:
    people = [PlayerInfo("Ann"), PlayerInfo("Bob")]
    options = kr.options_from_table({"first": "Ann", "ranked": True}, people, RULES)
    state = kr.start(RULES, people, options)
    assert "ranked matches" not in kr.tally([state]).get("Ann", {})
    state = kr.apply(state, kr.Resign("Bob"))
    assert kr.tally([state])["Ann"]["ranked matches"] == 1


# ------------------------------------------------------------------ screens at 40 columns


def test_a_forced_reroll_screen(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "duel")
    referee("kr", "claim", "AA")
    shown = referee("kr", "believe").out
    assert "\n".join(line.rstrip() for line in shown.splitlines()) == "\n".join([
        "Bob believes Pair of Aces: Ann must",
        "reroll (or show a bluff)",
        "KIRIKI duel                  standard 11",
        "  Ann     Bob",
        "   _       _",
        "  | |   - | |",
        "  |_|     |_|",
        "first to 11, win by 2: 0-0",
        "4 5 6 7 8 9 10 11 BB RR JJ QQ KK [AA]",
        "claim: Pair of Aces by Ann",
        "Ann must reroll (or reveal a bluff):",
        "reveal or reroll",
    ])  # fmt: skip
    assert "raise" not in shown.replace("reroll", "")


def test_a_match_point_screen(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--format", "bullet", "--first", "Ann", "--name", "d")
    for line in (("kiriki",), ("claim", "5"), ("lift", "1-3")):
        referee("kr", *line)
    shown = referee("show").out
    assert "\n".join(line.rstrip() for line in shown.splitlines()[5:]) == "\n".join([
        "first to 3, win by 2: 2-0",
        "match point: Ann",
        "Bob rolls and claims: claim or kiriki",
    ])  # fmt: skip


def test_the_match_end_screen(referee: Runner) -> None:
    finished(referee)
    shown = referee("show").out.splitlines()
    assert [line.rstrip() for line in shown[5:]] == [
        "first to 3, win by 2: 3-0",
        "the match is over: Ann won 3-0",
    ]


def test_help_lift_in_the_shell_is_one_paragraph(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from referee.cli.shell import Shell

    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann")
    monkeypatch.setattr("sys.stdin", io.StringIO("help lift\n"))
    capsys.readouterr()
    Shell(None).loop()
    out = capsys.readouterr().out
    assert out == (
        "Ann claims> help lift\n"
        "lift dice\n"
        "Lift the cup.\n"
        "\n"
        "Dice that meet the claim (truth or\n"
        "  downplay) win the point for the\n"
        "  claimer; below it, for the one who\n"
        "  lifted.\n"
    )


@pytest.mark.parametrize("example", ["perudo-night", "kalooki-game", "kariki-night"])
def test_a_kiriki_action_on_another_games_session(referee: Runner, example: str) -> None:
    path = Path(__file__).parents[1] / "examples" / f"{example}.toml"
    before = snapshot(path)
    result = referee("kiriki", "roll", "-s", str(path))
    assert result.code == 2 and "needs a Kiriki session" in result.err, result
    assert result.err.count("\n") == 1 and snapshot(path) == before


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("pair of sixes", "pair of aces"), ("pair of ones", "pair of blacks"),
     ("sixes", "pair of aces"), ("pair of threes", "pair of jacks")],
)  # fmt: skip
def test_a_pair_by_its_number_is_hinted_to_its_name(typed: str, meant: str) -> None:
    """`pair of sixes` was hinted to Pair of Reds and `sixes` to Six: following the hint
    recorded the wrong claim."""
    from referee.errors import NotationError
    from referee.notation.dice import KIRIKI_WORDS

    with pytest.raises(NotationError, match=f"did you mean '{meant}'"):
        KIRIKI_WORDS.parse_rank(typed)
    KIRIKI_WORDS.parse_rank(meant)  # and the hint is one that reads


PAIRS_BY_NUMBER = [
    pytest.param("pair of 6s", "pair of aces", id="pair-of-6s"),
    pytest.param("pair of 6", "pair of aces", id="pair-of-6"),
    pytest.param("pair of six", "pair of aces", id="pair-of-six"),
    pytest.param("pair of sixs", "pair of aces", id="pair-of-sixs"),
    pytest.param("double six", "pair of aces", id="double-six"),
    pytest.param("double sixs", "pair of aces", id="double-sixs"),
    pytest.param("double 6", "pair of aces", id="double-6"),
    pytest.param("sixs", "pair of aces", id="sixs"),
    pytest.param("6s", "pair of aces", id="6s"),
    pytest.param("pair of 1s", "pair of blacks", id="pair-of-1s"),
    pytest.param("pair of deuces", "pair of reds", id="pair-of-deuces"),
    pytest.param("pair of 5s", "pair of kings", id="pair-of-5s"),
]


@pytest.mark.parametrize(("typed", "meant"), PAIRS_BY_NUMBER)
def test_a_pair_by_its_number_in_digits_or_words_is_hinted_to_its_rank(
    typed: str, meant: str
) -> None:
    """`pair of 6s` and `pair of 1s` were hinted to Pair of Reds, `double six` to double reds
    and `pair of sixs` to Pair of Kings: the nearest spelling, not the pair the number names."""
    with pytest.raises(NotationError) as error:
        WORDS.parse_rank(typed)
    assert str(error.value) == f"unknown rank '{typed}': did you mean '{meant}'?"


@pytest.mark.parametrize(
    "typed", ["pair of sevens", "sevens", "pair of 7s", "pair of nine", "double 66", "three"]
)
def test_a_number_no_pair_shows_is_never_hinted_to_a_near_spelling(typed: str) -> None:
    """`pair of sevens` was hinted to Pair of Queens, `pair of nine` to Pair of Kings."""
    with pytest.raises(NotationError) as error:
        WORDS.parse_rank(typed)
    assert str(error.value) == f"unknown rank '{typed}': try 9, nine, 4-5, pair of kings or KK"


def test_following_the_hint_for_a_pair_of_6s_claims_a_pair_of_aces(referee: Runner) -> None:
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann")
    refused = referee("kiriki", "claim", "pair of 6s")
    assert (refused.code, refused.err) == (
        2,
        "error: unknown rank 'pair of 6s': did you mean 'pair of aces'?\n",
    )
    claimed = referee("kiriki", "claim", "pair of aces")
    assert claimed.code == 0 and claimed.out.startswith("Ann claims Pair of Aces"), claimed


def test_after_a_reroll_of_aces_the_claim_is_aces_not_aces_or_higher(referee: Runner) -> None:
    """"Zoë rolls and claims Pair of Aces or higher", where nothing is higher."""
    referee("new", "kiriki", "Ann", "Bob", "--first", "Ann", "--name", "d")
    for line in (("claim", "pair of aces"), ("believe",), ("reroll",)):
        assert referee("kr", *line).code == 0, line
    shown = [line.rstrip() for line in referee("show").out.splitlines()]
    assert any(line.startswith("Ann rolls and claims Pair of Aces:") for line in shown), shown
