"""The house rules a Perudo table asks for (RULES.md section 4): how often each player may
calza (`exact_call_limit`), whether only a player who has lost a die may (`exact_call_after_loss`),
and whether palifico comes once a player (`palifico_once`). Each is off in both bundled rulesets."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee import storage
from referee.errors import RulesetError, RuleViolation
from referee.games.liars import engine as ld
from referee.games.liars.bids import Bid
from referee.games.liars.card import status_lines
from referee.games.liars.words import HOUSE_WORDS, words
from test_liars import PERUDO, SEED, dice, own, play, table

ONCE = ld.ExactCallLimit.ONCE_PER_GAME
LIMIT: dict[str, Any] = {"exact_call_limit": ONCE}
AFTER: dict[str, Any] = {"exact_call_after_loss": True}
BOTH: dict[str, Any] = {**LIMIT, **AFTER}
KEYS = ("exact_call_limit", "exact_call_after_loss", "palifico_once")

# Five dice each, play goes Ann, Bob, Cy. Bob loses a die (round 2), then regains it by a right
# calza over Ann's 4x4 (round 3: he is back to five, and has called exact once); Cy now bids
# 3x2 over Bob's 2x2 and Ann is on turn.
REGAINED = (
    "Ann bid 5x3; Bob call 6; Bob bid 2x4; Cy bid 3x4; Ann bid 4x4; Bob exact 4;"
    " Bob bid 2x2; Cy bid 3x2"
)
# Two dice each. Bob and then Cy drop to one die (each his palifico round); Cy goes out, and
# Ann (two dice, never lost one) opens against Bob (one die): the last two players.
LAST_TWO = "Ann bid 1x3; Bob call 2; Bob bid 1x4; Cy call 2; Cy bid 1x5; Ann call 0"

ONCE_SAID = "each player calzas once a game (exact_call_limit = once_per_game)"
AFTER_SAID = "only a player who has lost a die calzas (exact_call_after_loss = true)"

# (players, dice each, house rules, script, (the dice that changed, who is on turn) or the
# refusal of the script's last action)
CALZAS = [
    pytest.param(3, 5, {}, f"{REGAINED}; Bob exact 3", ({}, "Bob"),
                 id="default-calza-any-number-of-times"),
    pytest.param(3, 5, {}, f"{REGAINED}; Ann exact 3", ({}, "Ann"),
                 id="default-calza-with-every-die"),
    pytest.param(3, 5, LIMIT, REGAINED, ({}, "Ann"), id="once-the-first-calza-is-free"),
    pytest.param(3, 5, LIMIT, f"{REGAINED}; Bob exact 3", f"Bob cannot calza: {ONCE_SAID}",
                 id="once-a-second-calza-refused"),
    pytest.param(3, 5, LIMIT, f"{REGAINED}; Ann exact 3", ({}, "Ann"),
                 id="once-is-each-player-once"),
    pytest.param(3, 5, LIMIT, f"{REGAINED}; Ann exact 2; Ann bid 2x5; Bob bid 3x5; Ann exact 3",
                 f"Ann cannot calza: {ONCE_SAID}", id="once-a-wrong-calza-counts-too"),
    pytest.param(3, 5, AFTER, f"{REGAINED}; Bob exact 3", ({}, "Bob"),
                 id="after-loss-a-regained-die-still-lost-one"),
    pytest.param(3, 5, AFTER, f"{REGAINED}; Ann exact 3", f"Ann cannot calza: {AFTER_SAID}",
                 id="after-loss-never-lost-a-die-refused"),
    pytest.param(3, 5, AFTER, "Ann bid 5x3; Cy exact 5", f"Cy cannot calza: {AFTER_SAID}",
                 id="after-loss-not-at-the-start"),
    pytest.param(3, 5, BOTH, f"{REGAINED}; Bob exact 3", f"Bob cannot calza: {ONCE_SAID}",
                 id="both-the-regaining-calza-counts-toward-once"),
    pytest.param(3, 2, BOTH, f"{LAST_TWO}; Ann bid 1x2; Bob exact 1", ({"Cy": 0}, "Bob"),
                 id="last-two-the-player-who-lost-calzas"),
    pytest.param(3, 2, BOTH, f"{LAST_TWO}; Ann bid 1x2; Bob exact 1; Bob bid 1x6; Ann exact 1",
                 f"Ann cannot calza: {AFTER_SAID}", id="last-two-the-other-has-lost-none"),
    pytest.param(3, 2, BOTH, f"{LAST_TWO}; Ann bid 1x2; Bob exact 1; Bob bid 1x6; Ann bid 2x6;"
                 " Bob exact 2", f"Bob cannot calza: {ONCE_SAID}", id="last-two-no-second-calza"),
    pytest.param(3, 2, BOTH, f"{LAST_TWO}; Ann bid 1x2; Bob exact 2", ({"Bob": 0, "Cy": 0}, None),
                 id="the-calza-that-ends-the-game"),
    pytest.param(3, 2, BOTH, f"{LAST_TWO}; Ann bid 1x2; Cy exact 1",
                 "Cy has no dice left: out of the game", id="an-out-player-is-out-first"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "each", "house", "script", "expected"), CALZAS)
def test_calza_house_rules(
    players: int,
    each: int,
    house: dict[str, Any],
    script: str,
    expected: tuple[dict[str, int], str | None] | str,
) -> None:
    start = table(" ".join(["Ann", "Bob", "Cy"][:players]), PERUDO, dice_per_player=each, **house)
    if isinstance(expected, str):
        *before, last = script.split(";")
        state = play(";".join(before), start)
        with pytest.raises(RuleViolation) as refused:
            play(last, state)
        assert str(refused.value) == expected
        return
    changed, on_turn = expected
    after = play(script, start)
    assert {n: d for n, d in dice(after).items() if d != each} == changed
    if on_turn is None:
        assert after.is_over and after.winner == "Ann" and words(after.ruling).endswith("Ann wins")
    else:
        assert after.name(after.turn) == on_turn


def test_exact_is_offered_only_while_someone_may_calza() -> None:
    state = play(f"{LAST_TWO}; Ann bid 1x2; Bob exact 1; Bob bid 1x6", table(
        "Ann Bob Cy", PERUDO, dice_per_player=2, **BOTH))  # fmt: skip
    assert own(state) == ("bid", "call")  # Ann has lost no die
    said = " ".join(line.plain for line in status_lines(state))
    assert "exact" not in said
    state = play("Ann bid 2x6", state)  # Bob has called exact once
    assert own(state) == ("bid", "call")
    open_ = play(f"{LAST_TWO}; Ann bid 1x2", table("Ann Bob Cy", PERUDO, dice_per_player=2, **BOTH))
    assert own(open_) == ("bid", "call", "exact")  # Bob has lost one, never called
    turn_only = table("Ann Bob Cy", PERUDO, exact_call_by=ld.CallBy.TURN, **AFTER)
    assert own(play("Ann bid 5x3", turn_only)) == ("bid", "call")
    assert own(play(f"{REGAINED}; Ann bid 4x2", turn_only)) == (
        "bid",
        "call",
        "exact",
    )  # Bob on turn: he lost a die before the calza gave it back


# Two dice each. Bob drops to one die (his palifico round), regains the die by a right calza
# over Cy's 2x4, then loses it again on his own false 1x5.
AGAIN = "Ann bid 1x3; Bob call 2; Bob bid 1x4; Cy bid 2x4; Bob exact 2; Bob bid 1x5; Cy call 0"

# (palifico_once, script, palifico now, who opens, a phrase of the ruling or None)
PALIFICOS = [
    pytest.param(False, "Ann bid 1x3; Bob call 2", True, "Bob", "palifico", id="first-drop"),
    pytest.param(True, "Ann bid 1x3; Bob call 2", True, "Bob", "palifico", id="once-first-drop"),
    pytest.param(False, AGAIN, True, "Bob", "round 4: Bob opens (palifico: no wild ones",
                 id="default-second-palifico-granted"),
    pytest.param(True, AGAIN, False, "Bob",
                 "Bob loses a die (1 left); Bob is on one die again: no second palifico;"
                 " round 4: Bob opens", id="once-second-palifico-refused"),
    pytest.param(True, "Ann bid 1x3; Bob call 2; Bob bid 1x4; Cy call 0", False, "Cy",
                 "Bob is out", id="once-the-last-die-is-no-palifico-matter"),
]  # fmt: skip


@pytest.mark.parametrize(("once", "script", "palifico", "opener", "said"), PALIFICOS)
def test_palifico_once(once: bool, script: str, palifico: bool, opener: str, said: str) -> None:
    state = play(script, table("Ann Bob Cy", PERUDO, dice_per_player=2, palifico_once=once))
    assert state.palifico is palifico and state.name(state.turn) == opener
    ruling = words(state.ruling)
    assert said in ruling
    assert ("no second palifico" in ruling) is ("no second palifico" in said)  # only where due


@pytest.mark.parametrize("once", [False, True], ids=["default", "palifico-once"])
def test_a_palifico_round_opens_on_ones_an_ordinary_face(once: bool) -> None:
    """In palifico ones are not wild, so the opening bid may be on them, and the face stays;
    without palifico Perudo refuses an opening on ones."""
    state = play(AGAIN, table("Ann Bob Cy", PERUDO, dice_per_player=2, palifico_once=once))
    if once:
        with pytest.raises(RuleViolation, match="the opening bid may not be on ones"):
            play("Bob bid 1x1", state)
        return
    state = play("Bob bid 1x1", state)
    assert state.bid == Bid(1, 1)
    with pytest.raises(RuleViolation, match="in palifico the face stays 1"):
        play("Cy bid 2x2", state)
    state = play("Cy bid 2x1; Ann call Ann=1,1 Bob=3 Cy=1,5", state)  # three ones: it held
    assert dice(state) == {"Ann": 1, "Bob": 1, "Cy": 2}


def test_a_first_palifico_opens_on_ones_too() -> None:
    state = play("Ann bid 1x3; Bob call 2", table(rules=PERUDO, dice_per_player=2))
    assert state.palifico and play("Bob bid 1x1", state).bid == Bid(1, 1)


# ------------------------------------------------------------------ the keys as data


def test_the_bundled_rulesets_play_every_house_rule_off() -> None:
    for rules in (SEED, PERUDO):
        assert rules.exact_call_limit is ld.ExactCallLimit.NONE
        assert not rules.exact_call_after_loss and not rules.palifico_once
    for name in ("liars-dice", "perudo"):
        table_ = storage.load_ruleset(name)
        without = {k: v for k, v in table_.items() if k not in KEYS}
        assert ld.Rules.from_table(without, name) == ld.Rules.from_table(table_, name)


def test_each_key_is_in_both_bundled_files_and_explained_in_the_seeds() -> None:
    root = Path(__file__).parent.parent / "rulesets"
    seed_text = (root / "liars-dice.toml").read_text()
    for name in ("liars-dice", "perudo"):
        found = tomllib.loads((root / f"{name}.toml").read_text())
        assert set(KEYS) <= set(found), name
    for key in KEYS:
        before = seed_text.split(f"\n{key} =")[0].splitlines()
        assert before[-1].startswith("# "), key  # a comment right above the key


BAD = [
    pytest.param({"exact_call_limit": "twice"},
                 "exact_call_limit must be one of none | once_per_game, not 'twice'",
                 id="limit-unknown"),
    pytest.param({"exact_call_limit": True},
                 "exact_call_limit must be one of none | once_per_game, not True",
                 id="limit-a-flag"),
    pytest.param({"exact_call_after_loss": "yes"},
                 "exact_call_after_loss must be true or false, not 'yes'", id="after-loss"),
    pytest.param({"palifico_once": 1}, "palifico_once must be true or false, not 1",
                 id="palifico-once"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "message"), BAD)
def test_a_bad_house_rule_says_why(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesetError) as refused:
        ld.Rules.from_table({**storage.load_ruleset("perudo"), **changes}, "perudo")
    assert message in str(refused.value)


def test_every_bad_house_rule_is_said_at_once_with_the_others() -> None:
    bad = {
        **storage.load_ruleset("perudo"),
        "exact_call_limit": "twice",
        "exact_call_after_loss": "yes",
        "palifico_once": 1,
        "call_by": "left",
    }
    with pytest.raises(RulesetError) as refused:
        ld.Rules.from_table(bad, "house")
    said = str(refused.value)
    assert said.startswith("house: ")
    for key in (*KEYS, "call_by"):
        assert f"{key} must be" in said


def test_house_words_name_each_key_in_a_few_words() -> None:
    assert set(KEYS) <= set(HOUSE_WORDS)  # every rule's words: tests/test_house.py
    fields = {f.name for f in dataclasses.fields(ld.Rules)}
    seed = storage.load_ruleset("perudo")
    values: dict[str, tuple[object, ...]] = {
        "exact_call_limit": ("none", "once_per_game"),
        "exact_call_after_loss": (False, True),
        "palifico_once": (False, True),
    }
    for key in KEYS:
        say = HOUSE_WORDS[key]
        assert key in fields
        phrases = [say(v) for v in values[key]]
        assert all(0 < len(p) <= 24 for p in phrases) and len(set(phrases)) == 2, phrases
        assert say(seed[key]) == phrases[0]  # the bundled value is the first, off
    assert HOUSE_WORDS["exact_call_limit"]("once_per_game") == "calza once each"
    assert HOUSE_WORDS["exact_call_after_loss"](True) == "calza after a lost die"
    assert HOUSE_WORDS["palifico_once"](True) == "palifico once each"


@pytest.mark.parametrize(
    ("house", "exact"),
    [
        pytest.param({}, "exact: anyone but Cy", id="default-anyone-but-the-bidder"),
        pytest.param(LIMIT, "exact: Ann", id="once-names-who-may-still"),
        pytest.param(AFTER, "exact: Bob", id="after-loss-names-who-lost-one"),
    ],
)
def test_the_card_names_who_may_calza_when_a_house_rule_leaves_some_out(
    house: dict[str, Any], exact: str
) -> None:
    state = play(REGAINED, table("Ann Bob Cy", PERUDO, **house))
    assert [line.plain for line in status_lines(state)] == [
        "bid: three twos (3x2) by Cy",
        "Ann: raise or call",
        exact,
        "raises: 2x1 3x3 3x4 3x5 3x6 4x2",
    ]
