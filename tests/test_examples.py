"""The bundled example night replays to its known result, and its card fits a phone."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Runner
from referee import storage
from referee.games.kariki.words import words
from referee.session import states

NIGHT = Path(__file__).parents[1] / "examples" / "kariki-night.toml"


def test_kariki_night_replays_to_its_winner() -> None:
    loaded = storage.load(NIGHT)
    state = loaded.state
    assert len(loaded.session.players) >= 5
    assert (state.winner, state.pot, state.bartender) == ("Bob", 2000, "Bob")
    # the night ends: `settle` closed Dee's offer, so the win is final, not provisional
    result = loaded.session.engine.outcome(state)
    assert (result.status, state.pot_to, loaded.session.events[-1]) == (
        "finished",
        "Bob",
        {"type": "settle"},
    )
    kinds = {e["type"] for e in loaded.session.events}
    assert {"pass", "kariki", "slash", "buyback", "pull", "roll", "claim"} <= kinds
    # the night has a pass chain that came back to the roller, and a final pass
    said = [words(s.ruling) for s in states(loaded.session)]
    assert any("final pass" in r for r in said)


def test_kariki_night_card_and_json(referee: Runner) -> None:
    before = NIGHT.read_bytes()
    card = referee("show", "-s", str(NIGHT))
    assert card.code == 0 and max(len(line) for line in card.out.splitlines()) <= 40
    assert "Bob won" in card.out and "buy back" not in card.out  # the money: the shared line
    doc = json.loads(referee("show", "--json", "-s", str(NIGHT)).out)
    assert (doc["winner"], doc["phase"], doc["turn"]) == ("Bob", "over", None)
    assert (doc["pot_to"], doc["buyback_open"], doc["final_pass"]) == ("Bob", [], False)
    assert [p["paid"] for p in doc["players"]] == [200, 1200, 200, 200, 200]  # cents
    assert [p["name"] for p in doc["players"] if p["buyback_used"]] == ["Bob"]
    log = referee("log", "-s", str(NIGHT))
    assert log.code == 0 and max(len(line) for line in log.out.splitlines()) <= 40
    assert "wins the pot of 20" in " ".join(log.out.split())  # said in units, kept in cents
    assert NIGHT.read_bytes() == before  # looking never writes


LIARS = Path(__file__).parents[1] / "examples" / "liars-dice-night.toml"
PERUDO = Path(__file__).parents[1] / "examples" / "perudo-night.toml"


def test_the_liars_dice_night_replays_to_its_winner() -> None:
    loaded = storage.load(LIARS)
    state = loaded.state
    assert len(loaded.session.players) == 6 and state.rules.dice_per_player == 6
    assert (state.winner, state.dice_in_play) == ("Cy", state.cups[2].dice)
    assert [c.dice for c in state.cups if c.name != "Cy"] == [0] * 5
    from referee.games.liars.words import words as liars_words

    said = [liars_words(s.ruling) for s in states(loaded.session)]
    assert any("the bid holds" in r for r in said) and any("the bid was false" in r for r in said)


def test_the_perudo_night_has_a_palifico_round_and_both_calzas() -> None:
    from referee.games.liars.words import words as liars_words

    loaded = storage.load(PERUDO)
    assert loaded.state.rules.ones_wild and loaded.state.winner == "Ana"
    said = [liars_words(s.ruling) for s in states(loaded.session)]
    assert any("palifico" in r for r in said)
    assert any("exact: " in r and ", exact;" in r for r in said)  # a calza that was right
    assert any("not exact" in r for r in said)  # and one that was not
    assert any("regains a die" in r for r in said)


def test_the_kalooki_game_replays_to_its_known_totals() -> None:
    from referee.games.kalooki.words import words as kalooki_words

    loaded = storage.load(Path(__file__).parents[1] / "examples" / "kalooki-game.toml")
    state = loaded.state
    assert state.is_over and state.void_rounds == (3,)
    # added up by hand from examples/kalooki-game.txt, Bob's round 2 corrected from 50 to 45
    assert {s.name: s.total for s in state.seats} == {"Ann": 321, "Bob": 312, "Cy": 288, "Dee": 341}
    assert state.winners == ("Cy",)
    said = " ".join(kalooki_words(s.ruling) for s in states(loaded.session))
    for seen in ("call is refused", "for the joker on meld 3", "round 3 is void", "Cy wins",
                 "round 2 corrected: Bob held KD 10 + 3H 3 + "):  # fmt: skip
        assert seen in said, seen


def test_the_compact_card_keeps_a_bartender_who_bought_back(referee: Runner) -> None:
    shown = referee("show", "--compact", "-s", str(NIGHT)).out.splitlines()
    assert shown[1:4] == [
        "  Bob                /PPP. $ POO WINNER",
        "OUT: Ann, Cy, Eve, Dee",
        "bartender/DJ: Bob",
    ]
