"""Issues 9 and 19: the Kariki screens as exact text (40x24 unless said), from a phone's view.

Each case plays a few commands, then checks one command's whole output, trailing spaces
stripped. A cut-off "..." anywhere fails (the help at 40 columns included).
"""

from __future__ import annotations

import io
import re

import pytest

from conftest import Runner, example_states
from referee.games.kariki import engine as k
from referee.games.kariki.card import flags
from referee.games.roster import Join
from test_kariki_rules import play, table

TWO = [
    "new kariki Ann=Ace Bob --name two",
    "kariki claim 9",
    "kariki slash bob --count 7",
]
FIVE = [
    "new kariki Ann=Ace Bob Cy=Sly Dee Eve --name five",
    "kariki kariki",
    "kariki claim 66",
    "kariki pull 6-6",
    "kariki slash Cy --count 20",
]
SIX = [
    "new kariki Ann=Ace Bob Cy=Sly Dee Eve Fay --name six --buy-in 2",
    "kariki slash Eve --count 12",
    "kariki claim 9",
    "kariki pass",
]
LEADS = [
    "new kariki Ann Bob=Bobby --name end",
    "kariki slash bob --count 12",
    "kariki claim 9",
]
SETTLED = [
    "new kariki Ann Bob=Bobby --name end",
    "kariki slash bob --count 12",
    "kariki claim 9",
    "kariki pull 4-5",
]
FIVE_OVER = [
    "new kariki Ann=Ace Bob Cy=Sly Dee Eve --name five",
    "kariki kariki",
    "kariki claim 66",
    "kariki pull 6-6",
    "kariki slash Cy --count 20",
    "kariki slash bob 3",
    "kariki slash dee 15",
    "kariki slash eve 15",
    "kariki slash bob 15",
]
BAR = [
    "new kariki Ann Bob Cy --name bar",
    "kariki slash bob --count 15",
    "kariki buyback bob",
]
TWO_OUT = [
    "new kariki Ann Bob Cy Dee --name two",
    "kariki slash cy --count 12",
    "kariki kariki",
    "kariki kariki",
    "kariki slash bob --count 6",
]
FREE = [
    "new kariki Ann Bob --name free --buy-in 0",
    "kariki slash bob --count 12",
    "kariki claim 9",
]
LONG = [
    "new kariki Maximilianos=Thunderbolt Bob Cy=Sly Dee Eve --name long",
    "kariki kariki",
]
CHAIN = [
    "new kariki Ann Bob Cy Dee Eve --name chain",
    "kariki claim 9",
    "kariki pass",
    "kariki pass",
    "kariki pass",
    "kariki pass",
]

SCREENS = [
    pytest.param(TWO, 'show --compact', '40', '''\
KARIKI two                play goes left
  Ann (Ace)          .....
> Bob                //... |
/ slashes  | tally
Bob faces Nine: roll, pull or pass
Ann answers for it
pot 2 · each paid 1
''', id='compact-2'),
    pytest.param(TWO, 'show --full', '40', '''\
KARIKI two                play goes left
  Ann (Ace)
    .    berries 0/5
  .-+-.
    .
> Bob
    /    berries 2/5
  .-+-/  slashes |
    .
/ slashes
Bob faces Nine: roll, pull or pass
Ann answers for it
pot 2 · each paid 1
''', id='full-2-at-40'),
    pytest.param(FIVE, 'show --compact', '40', '''\
KARIKI five               play goes left
> Ann (Ace)          .....    ^1
  Bob                KP...
  Dee                .....
  Eve                .....
OUT: Cy (bar)
P bad pull  K kariki  ^n crowns
Ann rolls fresh
Cy may buy back: buyback Cy (5)
pot 5 · each paid 1
''', id='compact-5'),
    pytest.param(FIVE, 'show --full', '100', '''\
KARIKI five                                                   play goes left
> Ann (Ace)                 Bob                       Cy (Sly)
    .    berries 0/5          K    berries 2/5        OUT - bartender/DJ
  .-+-.                     .-+-P                       /    berries 5/5
    .    crowns 1             .                       /-/-/
                                                        /
  Dee                       Eve
    .    berries 0/5          .    berries 0/5
  .-+-.                     .-+-.
    .                         .
P bad pull  / slashes  K kariki
Ann rolls fresh
Cy may buy back: buyback Cy (5)
pot 5 · each paid 1
''', id='full-5-at-100'),
    pytest.param(SIX, 'kariki slash Eve drop 25', '40', '''\
3 slashes (drop): a berry for Eve; Eve
is OUT (bartender/DJ), may buy back for
12
KARIKI six                play goes left
  Ann (Ace)          .....
  Bob                .....
> Cy (Sly)           .....
  Dee                .....
  Fay                .....
OUT: Eve (bar)
Cy faces Nine: roll, pull or pass
Bob answers for it; passed: Bob
Eve may buy back: buyback Eve (12)
pot 12 · each paid 2
''', id='compact-6-after-an-action'),
    pytest.param(LEADS, 'kariki pull 4-5', '40', '''\
Bob pulls 4-5 (Nine) on Nine: true, a
berry for Bob; Bob is OUT
(bartender/DJ), may buy back for 2; Ann
wins the pot of 2 unless Bob buys back
for 2
KARIKI end                play goes left
  Ann
  leads; Bob may buy back (2)
    .    berries 0/5
  .-+-.
    .
  Bob (Bobby)
  OUT - bartender/DJ
    /    berries 5/5
  /-P-/
    /
P bad pull  / slashes
Ann leads
Bob may buy back: buyback Bob (2)
settle: nobody buys back, Ann wins
pot 2 · each paid 1
''', id='provisional-full'),
    pytest.param(SETTLED, 'kariki settle', '40', '''\
Bob did not buy back: Ann wins the pot
of 2
KARIKI end                play goes left
  Ann
  WINNER
    .    berries 0/5
  .-+-.
    .
  Bob (Bobby)
  OUT - bartender/DJ
    /    berries 5/5
  /-P-/
    /
P bad pull  / slashes
Ann won
pot 2 · each paid 1
takes: Ann 2
''', id='settled-full'),
    pytest.param(FIVE_OVER, 'show --full', '100', '''\
KARIKI five                                                   play goes left
  Ann (Ace)                 Bob                       Cy (Sly)
  leads                     OUT                       OUT - bartender/DJ
  Bob may buy back (5)        K    berries 5/5          /    berries 5/5
    .    berries 0/5        /-/-P                     /-/-/
  .-+-.                       /                         /
    .    crowns 1
  Dee                       Eve
  OUT                       OUT
    /    berries 5/5          /    berries 5/5
  /-/-/                     /-/-/
    /                         /
P bad pull  / slashes  K kariki
Ann leads
Bob may buy back: buyback Bob (5)
settle: nobody buys back, Ann wins
pot 5 · each paid 1
''', id='provisional-wide'),
    pytest.param(BAR, 'kariki slash cy 12', '40', '''\
12 slashes: 4 berries for Cy; Cy is in
the poo
KARIKI bar                play goes left
> Ann
    .    berries 0/5
  .-+-.
    .
  Bob $
  IN THE POO - bartender/DJ
    /    berries 4/5
  /-+-/
    /
  Cy
  IN THE POO
    /    berries 4/5
  /-+-/
    /
/ slashes
Ann rolls fresh
pot 6 · paid Ann 1, Bob 4, Cy 1
''', id='bartender-after-buyback'),
    pytest.param(TWO_OUT, 'kariki kariki', '40', '''\
Ann shows KARIKI: a crown; Bob gets a
berry; Bob is OUT (bartender/DJ), may
buy back for 4; crown 3: a berry for Cy,
Dee; Cy is OUT, may buy back for 4; the
price doubles after each buy-back
KARIKI two                play goes left
> Ann                .....    ^3
  Dee                C....
OUT: Bob (bar), Cy
C 3 crowns  ^n crowns
Ann rolls fresh
all OUT may buy back for 4
pot 4 · each paid 1
''', id='two-out-in-one-event'),
    pytest.param(FREE, 'kariki pull 4-5', '40', '''\
Bob pulls 4-5 (Nine) on Nine: true, a
berry for Bob; Bob is OUT
(bartender/DJ); Ann wins
KARIKI free               play goes left
  Ann
  WINNER
    .    berries 0/5
  .-+-.
    .
  Bob
  OUT - bartender/DJ
    /    berries 5/5
  /-P-/
    /
P bad pull  / slashes
Ann won
''', id='night-without-money'),
    pytest.param(LONG, 'show --compact', '40', '''\
KARIKI long               play goes left
> Maximilianos (Th…) .....    ^1
  Bob                K....
  Cy (Sly)           .....
  Dee                .....
  Eve                .....
K kariki  ^n crowns
Maximilianos rolls fresh
pot 5 · each paid 1
''', id='long-nickname-cut-first'),
    pytest.param(CHAIN, 'show --compact', '40', '''\
KARIKI chain              play goes left
> Ann                .....
  Bob                .....
  Cy                 .....
  Dee                .....
  Eve                .....
Ann faces Nine: pull or final pass
Eve answers for it; passed: Bob, Cy,
Dee, Eve
pot 5 · each paid 1
''', id='final-pass-next'),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "command", "columns", "expected"), SCREENS)
def test_screens_are_exact(
    referee: Runner,
    monkeypatch: pytest.MonkeyPatch,
    setup: list[str],
    command: str,
    columns: str,
    expected: str,
) -> None:
    monkeypatch.setenv("LINES", "24")
    for line in setup:
        assert referee(*line.split()).code == 0, line
    monkeypatch.setenv("COLUMNS", columns)
    result = referee(*command.split())
    shown = "\n".join(line.rstrip() for line in (result.out + result.err).splitlines()) + "\n"
    assert shown == expected
    # nothing cut off, but a nickname that does not fit the compact card: "(Th…)"
    assert not re.search(r"[a-z]\.\.\.|\u2026(?!\))", shown)
    assert max(len(line) for line in shown.splitlines()) <= int(columns)


def test_a_winner_in_the_poo_keeps_the_poo_and_is_only_a_winner_once_settled() -> None:
    state = play("Ann slash 12; Bob slash 12; Ann claim 9; Bob pull 4-5", table("Ann Bob"))
    assert [f for f, _ in flags(state, 0)] == ["leads; Bob may buy back (2)", "IN THE POO"]
    state = k.apply(state, k.Settle())
    assert [f for f, _ in flags(state, 0)] == ["WINNER", "IN THE POO"]
    assert [f for f, _ in flags(state, 1)] == ["OUT - bartender/DJ"]


@pytest.mark.parametrize("width", [40, 60, 100])
@pytest.mark.parametrize(
    "script",
    [
        "",
        "Ann claim 9; Bob pass; Cy pass; Dee pass",
        "Bob slash 15; Bob buyback; Cy slash 12",
        "Bob slash 15; Cy slash 15; Dee slash 15",
        "Ann slash 12; Bob slash 15; Cy slash 15; Dee slash 15",
        "Dee slash 15; Dee buyback",  # "> Dee (Longnicknamehere) $" folds in a wide grid
    ],
)
def test_card_lines_counts_the_full_card_as_drawn(script: str, width: int) -> None:
    from dataclasses import replace

    from rich.console import Console

    from referee.games.kariki.card import card_lines, full_card

    state = play(script, table())
    long_nick = replace(state.seats[3], nickname="Longnicknamehere")  # folds in a narrow block
    state = replace(state, seats=(*state.seats[:3], long_nick))
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(full_card(state, "a-title", width))
    assert card_lines(state, width) == len(console.export_text().splitlines())


def test_a_card_in_the_poo_leaves_room_for_the_typed_line_and_the_prompt(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by a play-test at 40x24: 23 lines of ruling and card, with the line typed above
    # and the prompt below, pushed the ruling off the top.
    monkeypatch.setenv("LINES", "24")
    assert referee("new", "kariki", "Ann", "Bob", "Cy", "Dee", "--name", "t4").code == 0
    for line in ["claim 9", "pull 4-5"] * 4 + ["slash cy 12"]:
        result = referee("k", *line.split())
        assert result.code == 0, line
        assert len(result.out.rstrip("\n").splitlines()) <= 22, result.out
    assert len(referee("show").out.rstrip("\n").splitlines()) <= 22


@pytest.mark.parametrize("width", [50, 60, 100])
def test_a_flag_too_long_for_its_block_wraps_indented_in_the_grid(width: int) -> None:
    # Found by a play-test: a pot of 192 made "WINNER of the pot (192)" 25 cells in a block
    # of 24; Rich folded it, and "(192)" stood at the card's left edge, under no name. The
    # pot is the shared money line's now; two offers at a price make as long a flag.
    from rich.console import Console

    from referee.games.kariki.card import card_lines, full_card

    rules = {"berry_limit": 2, "crown_threshold": 1, "buy_in": 20}
    state = play("Bob slash 3; Cy slash 3; Ann kariki", table("Ann Bob Cy", **rules))
    assert state.is_over and state.pot == 6000
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(full_card(state, "t", width))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    assert [line[:24].rstrip() for line in lines[1:5]] == [
        "  Ann",
        "  leads",
        "  Bob, Cy may buy back",
        "  (60)",
    ]
    assert card_lines(state, width) == len(lines)


@pytest.mark.parametrize("width", [26, 30, 37, 38, 40])
def test_a_kariki_compact_line_fits_a_screen_under_38_columns(width: int) -> None:
    """Below 38 columns the name's column is what the line leaves, and a longer name is cut:
    a column of 16 wrapped every player's line in two on a narrow phone."""
    from rich.cells import cell_len

    from referee.games.kariki.card import compact_line

    for state in example_states("kariki"):
        lines = [compact_line(state, i, width).plain for i in range(len(state.seats))]
        assert max(cell_len(line) for line in lines) <= width, lines


def test_the_compact_card_says_winner_once_the_night_is_settled(referee: Runner) -> None:
    """The README says the card says WINNER after settle; the compact card never did."""
    referee("new", "kariki", "Ann", "Bob", "--name", "end")
    referee("kariki", "slash", "bob", "15")  # Bob out: a buy-back on offer
    assert "WINNER" not in referee("show", "--compact").out  # provisional: Ann leads
    referee("kariki", "settle")
    lines = referee("show", "--compact").out.splitlines()
    assert lines[1] == "  Ann                ..... WINNER"
    assert lines[-3:] == ["Ann won", "pot 2 · each paid 1", "takes: Ann 2"]


TWENTY = "Alexander Bob Cy Dee Eve Fay Gus Hal Ivy Jo Kim Lou Max Ned Oz Pat Quinn Rosa Sam Tom"


def test_a_big_table_folds_into_two_columns_so_a_pull_and_its_ruling_fit_40x24(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 20 players the compact card was 20 lines: a plain pull's ruling and the header
    scrolled off a 40x24 phone."""
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", "24")
    assert referee("new", "kariki", *TWENTY.split(), "--name", "big").code == 0
    for line in (["claim", "9"], ["pass"], ["slash", "Cy", "2"], ["pull", "3-4"]):
        result = referee("kariki", *line)
        assert result.code == 0, line
    shown = [line.rstrip() for line in result.out.splitlines()]
    assert shown == [
        "Cy pulls 3-4 (Seven) on Nine: a lie, a",
        "berry for Bob",
        "KARIKI big                play goes left",
        " Alexander .....      Kim       .....",
        " Bob       T....      Lou       .....",
        ">Cy        ..... ||   Max       .....",
        " Dee       .....      Ned       .....",
        " Eve       .....      Oz        .....",
        " Fay       .....      Pat       .....",
        " Gus       .....      Quinn     .....",
        " Hal       .....      Rosa      .....",
        " Ivy       .....      Sam       .....",
        " Jo        .....      Tom       .....",
        "T lie  | tally",
        "Cy rolls fresh",
        "pot 20 · each paid 1",
    ]
    assert len(shown) + 1 <= 24 and max(map(len, shown)) <= 40  # and the prompt's line


def test_nine_players_keep_a_line_each(referee: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    referee("new", "kariki", *TWENTY.split()[:9], "--name", "nine")
    lines = referee("show", "--compact").out.splitlines()
    assert lines[1] == "> Alexander          ....." and len(lines) == 1 + 9 + 2


def test_the_legend_says_every_mark_in_use() -> None:
    from referee.games.kariki.card import legend

    state = play("Ann slash 12; Cy slash 2", table("Ann Bob Cy"))
    shown = legend(state, 40)
    assert shown is not None and shown.plain == "/ slashes  | tally"
    state = play("Ann slash 40; Ann buyback", table("Ann Bob Cy"))
    shown = legend(state, 40)
    assert shown is not None and shown.plain == "/ slashes  $ bought back"


def test_players_out_in_one_event_are_listed_in_the_order_it_put_them_out() -> None:
    """By seat, or by who first went out (Fay, who bought back and went out again), the card
    and the places disagreed with the ruling, which says them in the order they went out."""
    rules = {"berry_limit": 2, "crown_threshold": 1}
    state = play("Fay slash 6; Fay buyback", table("Ann Bob Cy Dee Eve Fay", **rules))
    state = play("Dee slash 3; Eve slash 3; Ann slash 3; Ann kariki", state)
    went_out = [f.player for f in state.ruling if isinstance(f, k.WentOut)]
    assert went_out == ["Bob", "Dee", "Eve", "Fay"]  # Fay first went out first
    assert [state.name(i) for i in state.out_in_order()] == went_out
    from rich.console import Console

    from referee.games.kariki.card import compact_card

    drawn = io.StringIO()
    Console(width=40, file=drawn, color_system=None).print(compact_card(state, "t", 40))
    shown = drawn.getvalue().splitlines()
    assert "OUT: Bob, Dee, Eve, Fay (bar) $" in shown


@pytest.mark.parametrize(
    ("script", "event", "said"),
    [
        ("", k.Reseat(first="Bob"), ("Bob", k.Direction.LEFT)),
        ("", k.Reseat(direction="right"), ("Ann", k.Direction.RIGHT)),
        ("", k.Reseat(first="Cy", direction="right"), ("Cy", k.Direction.RIGHT)),
        ("Dee join", k.Reseat(first="Dee"), ("Dee", k.Direction.LEFT)),  # a join is no claim
    ],
)
def test_seat_corrects_the_first_roller_and_the_direction_before_the_first_claim(
    script: str, event: k.Reseat, said: tuple[str, k.Direction]
) -> None:
    state = table("Ann Bob Cy")
    if script:
        state = k.apply(state, Join("Dee"))
    state = k.apply(state, event)
    assert (state.name(state.turn), state.direction) == said
    assert state.ruling == (k.Started(*said),)


@pytest.mark.parametrize(
    ("script", "event", "error", "said"),
    [
        ("Ann claim 9", k.Reseat(first="Bob"), "RuleViolation", "play has begun"),
        ("Ann slash 2", k.Reseat(first="Bob"), "RuleViolation", "play has begun"),
        ("", k.Reseat(), "UsageError", "seat needs --first"),
        ("", k.Reseat(direction="up"), "UsageError", "unknown direction 'up'"),
    ],
)
def test_seat_is_refused_once_play_began_or_without_a_change(
    script: str, event: k.Reseat, error: str, said: str
) -> None:
    state = play(script, table("Ann Bob Cy")) if script else table("Ann Bob Cy")
    with pytest.raises(Exception) as raised:
        k.apply(state, event)
    assert type(raised.value).__name__ == error and said in str(raised.value)


def test_a_big_table_after_a_buy_back_keeps_its_ruling_two_alexanders_and_the_poo(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a play-test at 20 players: after a buy-back the money line took six lines and
    the ruling scrolled off; both Alexanders were cut to `Alexande…`; and with no colour the
    folded card did not say who was in the poo."""
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", "24")
    names = [*TWENTY.split()[1:14], "Alexander Brandt", "Alexander Braun", "Christophe Dubos",
             "Bartholomew Kent", "Pam", "Quin", "Ann"]  # fmt: skip
    assert referee("new", "kariki", *names, "--name", "big").code == 0
    for line in (["slash", "Fay", "12"], ["slash", "Alexander Brandt", "3"], ["slash", "Fay", "3"]):
        assert referee("kariki", *line).code == 0, line
    out = referee("kariki", "buyback", "Fay").out.splitlines()
    assert out[0].startswith("Fay buys back for 20") and len(out) + 1 <= 24
    assert out[-1] == "pot 40 · each paid 1, but Fay 21"
    folded = "\n".join(out)
    assert "Alexand…t /...." in folded and "Alexand…n ....." in folded
    assert " Fay       ////. $*" in folded and "* poo" in out[-3]


@pytest.mark.parametrize(
    ("width", "slashes", "crowns", "shown"),
    [
        (40, 0, 0, "  Alexandrabrandts   ////. POO WINNER"),
        (40, 2, 0, "  Alexandrabrandts   ////. || POO WINNER"),
        (40, 1, 1, "  Alexandrabrandts   ////. | ^1 $ WINNER"),  # the poo gives way
        (40, 2, 2, "  Alexandrabrandts   ////. || ^2 $ WIN"),
        (40, 2, 10, "  Alexandrabrandts   ////. || ^10 $ WIN"),
        (60, 2, 2, "  Alexandrabrandts" + " " * 12 + " ////. || ^2 $ POO WINNER"),
    ],
)
def test_a_full_winner_line_gives_up_the_poo_before_the_winner_mark(
    width: int, slashes: int, crowns: int, shown: str
) -> None:
    """The night is over, so WINNER matters more than the poo: a 16-letter winner in the poo
    with slashes, crowns and a buy-back had no room left and showed no mark at all."""
    from dataclasses import replace

    from referee.games.kariki.card import compact_line

    state = k.apply(play("Bob slash 25", table("Alexandrabrandts Bob")), k.Settle())
    assert state.is_finished and state.winner == "Alexandrabrandts"
    seat = replace(
        state.seats[0],
        berries=(k.Cause.SLASHES,) * 4,
        slashes=slashes,
        crowns=crowns,
        buyback_used=bool(crowns),
    )
    state = replace(state, seats=(seat, *state.seats[1:]))
    assert state.in_poo(seat)
    assert compact_line(state, 0, width).plain == shown


def test_a_third_crown_at_twenty_players_and_its_ruling_fit_40x24(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A play-test's third crown at 20 players (one out, three in the poo): the ruling named
    all 19 players hit and each one in the poo apart, so its first lines scrolled off; the
    offer to buy back, typed as printed, was two words for a name with a space."""
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", "24")
    names = ["Alexander Brandt", *TWENTY.split()[1:9], "Jo Van Der Berg", *TWENTY.split()[10:]]
    assert referee("new", "kariki", *names, "--name", "big").code == 0
    for who, count in (("cy", "9"), ("dee", "9"), ("jo", "12")):
        assert referee("kariki", "slash", who, "--count", count).code == 0
    for _ in range(3):
        result = referee("kariki", "kariki")
        assert result.code == 0
    shown = [line.rstrip() for line in result.out.splitlines()]
    assert shown == [
        "Alexander Brandt shows KARIKI: a crown;",
        "Bob gets a berry; crown 3: a berry each",
        "for 19 players; Jo Van Der Berg is OUT",
        "(bartender/DJ), may buy back for 20; in",
        "the poo: Bob, Cy, Dee",
        "KARIKI big                play goes left",
        ">Alexande… ..... ^3   Lou       C....",
        " Bob       KKKC. *    Max       C....",
        " Cy        ///C. *    Ned       C....",
        " Dee       ///C. *    Oz        C....",
        " Eve       C....      Pat       C....",
        " Fay       C....      Quinn     C....",
        " Gus       C....      Rosa      C....",
        " Hal       C....      Sam       C....",
        " Ivy       C....      Tom       C....",
        " Kim       C....",
        "OUT: Jo Van Der Berg (bar)",
        "/ slashes  K kariki  C 3 crowns",
        "^n crowns  * poo",
        "Alexander Brandt rolls fresh",
        "Jo Van Der Berg: buyback Jo (20)",
        "pot 20 · each paid 1",
    ]
    assert len(shown) + 2 <= 24  # and the line typed, and the prompt


def test_the_out_line_wraps_between_names_and_marks_a_buyback(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`OUT: Jo (bar), Kim, Lou, Alexander` / `Brandt` parted a name, and one who had bought
    back and gone out again had no `$`; a name with a space was offered unquoted."""
    monkeypatch.setenv("COLUMNS", "40")
    players = ["Ann", "Bob", "Cy Ng", "Alexander Brandt", "Alexander Braun", "Dee"]
    assert referee("new", "kariki", *players, "--name", "o").code == 0
    for line in (
        ["slash", "cy", "--count", "15"],
        ["slash", "alexander brandt", "--count", "15"],
        ["buyback", "alexander brandt"],
        ["slash", "alexander brandt", "--count", "15"],
        ["slash", "alexander braun", "--count", "15"],
    ):
        assert referee("kariki", *line).code == 0, line
    assert referee("show", "--compact").out.splitlines() == [
        "KARIKI o                  play goes left",
        "> Ann                .....",
        "  Bob                .....",
        "  Dee                .....",
        "OUT: Cy Ng (bar), Alexander Brandt $,",
        "  Alexander Braun",
        "$ bought back",
        "Ann rolls fresh",
        'buyback "Alexander Braun" (12)',
        "pot 12 · each paid 1,",
        "  but Alexander Brandt 7",
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO('buyback "Alexander Braun"\n'))
    assert "Alexander Braun buys back for 12" in referee("shell").out


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("friday", "KARIKI friday             play goes left"),
        ("abcdefghijklmnopqrstuv", "KARIKI abcdefghijklmnopqrstuv  goes left"),
        ("abcdefghijklmnopqrstuvwxyz12", "KARIKI abcdefghijklmnopqrstuv… goes left"),
    ],
)
def test_a_long_session_name_gives_way_to_the_direction(
    referee: Runner, monkeypatch: pytest.MonkeyPatch, name: str, first: str
) -> None:
    """A 28-letter session name dropped `play goes left` from the card's first line."""
    monkeypatch.setenv("COLUMNS", "40")
    assert referee("new", "kariki", "Ann", "Bob", "--name", name).out.splitlines()[1] == first


def test_open_offers_name_the_players_unless_the_out_line_does() -> None:
    """At twenty players the offers repeated every name of the OUT line above them, and the
    ruling's first line scrolled off a phone: when every player out may buy back, the card
    says so in one line; else it names those who may."""
    from referee.games.kariki.card import status

    rules = {"berry_limit": 2, "crown_threshold": 1}
    state = play("Eve slash 6; Ann claim 9; Bob pull 3-4", table("Ann Bob Cy Dee Eve", **rules))
    state = play("Dee slash 3; Cy slash 3; Bob kariki", state)  # Eve's offer closed before
    assert status(state).plain.splitlines()[1] == "may buy back for 5: Cy, Dee, Ann"
    state = play("Cy slash 3; Dee slash 3; Ann kariki", table("Ann Bob Cy Dee", **rules))
    assert [state.name(i) for i in state.out_in_order()] == ["Bob", "Cy", "Dee"]
    assert status(state).plain.splitlines()[1] == "all OUT may buy back for 4"


def test_a_third_crown_putting_five_out_at_twenty_players_fits_40x24(
    referee: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A play-test's night: the third crown put Alexander Braun and four more out at once, and
    the ruling's first line scrolled off (7 lines of ruling under a 17-line card)."""
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", "24")
    names = ["Alexander Brandt", "Alexander Braun", "José Núñez", "Zoë Müller",
             "Bartholomewsmith", *TWENTY.split()[1:16]]  # fmt: skip
    assert referee("new", "kariki", *names, "--name", "rep").code == 0
    for line in (*(["slash", p, "12"] for p in ("bob", "cy", "dee", "eve")), ["kariki"],
                 ["kariki"], ["slash", "jos", "6"], ["slash", "alexander braun", "6"]):  # fmt: skip
        assert referee("kariki", *line).code == 0, line
    shown = referee("kariki", "kariki").out.splitlines()
    assert shown[0] == "Alexander Brandt shows KARIKI: a crown;"
    assert "all OUT may buy back for 20" in shown
    assert len(shown) + 2 <= 24 and max(map(len, shown)) <= 40  # the line typed, the prompt
