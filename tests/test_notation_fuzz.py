"""Every notation, fuzzed (RELIABILITY.md's parser recipe): printing then parsing gives the
value back, and any text either parses or raises `NotationError`, never anything else."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import every_game, examples
from referee import games, storage
from referee.errors import NotationError
from referee.games.kalooki import engine as kg
from referee.games.kalooki import melds as k
from referee.games.kalooki.cards import Card, Suit, parse_cards, show
from referee.games.kariki import engine as ka
from referee.games.kiriki import engine as kr
from referee.games.liars import engine as ld
from referee.games.liars.bids import Bid, Hands
from referee.notation.dice import KARIKI, KIRIKI, Rank, Roll, parse_face, parse_rank

TRICKY = ["１０", "1_0", " 10 ", "²", "", " ", "\x00", "9" * 10_000, "5x3x", "‮9", "JK JK"]
TEXT = st.one_of(st.sampled_from(TRICKY), st.text(max_size=40))

PARSERS: list[tuple[str, Callable[[str], object]]] = [
    ("rank", parse_rank),
    ("roll", Roll.parse),
    ("face", parse_face),
    ("bid", Bid.parse),
    ("hands", Hands.parse),
    ("card", Card.parse),
    ("cards", lambda t: parse_cards(t)),
    ("melds", lambda t: k.parse_lay_down([t])),
]


@pytest.mark.parametrize(("name", "parse"), PARSERS, ids=[n for n, _ in PARSERS])
@given(text=TEXT)
def test_any_text_parses_or_raises_a_notation_error(
    name: str, parse: Callable[[str], object], text: str
) -> None:
    with contextlib.suppress(NotationError):
        parse(text)


CARDS = st.one_of(
    st.just(Card(0, None)),
    st.builds(Card, st.integers(1, 13), st.sampled_from(list(Suit))),
)
NAMES = (
    st.text(alphabet="AaBbČč Zz-'", min_size=1, max_size=12)
    .map(str.strip)
    .filter(lambda n: n and "=" not in n and not n.startswith("-"))
)


@given(st.sampled_from(list(Rank)), st.sampled_from([KARIKI, KIRIKI]))
def test_ranks_print_and_parse_back(rank: Rank, ladder: Any) -> None:
    assert parse_rank(ladder.name(rank)) is rank


@given(st.integers(1, 6), st.integers(1, 6))
def test_rolls_print_and_parse_back(a: int, b: int) -> None:
    roll = Roll.of(a, b)
    assert Roll.parse(str(roll)) == roll


@given(st.integers(1, 999), st.integers(1, 6))
def test_bids_print_and_parse_back(quantity: int, face: int) -> None:
    assert Bid.parse(str(Bid(quantity, face))) == Bid(quantity, face)


@given(st.lists(st.tuples(NAMES, st.lists(st.integers(1, 6), max_size=6).map(
    lambda d: tuple(sorted(d)))), min_size=1, max_size=5))  # fmt: skip
def test_hands_print_and_parse_back(hands: list[tuple[str, tuple[int, ...]]]) -> None:
    value = Hands(tuple(hands))
    assert Hands.parse(str(value)) == value


@given(st.lists(CARDS, min_size=1, max_size=17))
def test_cards_print_and_parse_back(cards: list[Card]) -> None:
    assert parse_cards(show(cards)) == tuple(cards)


@given(st.lists(st.lists(CARDS, min_size=1, max_size=6), min_size=1, max_size=4))
def test_meld_lists_print_and_parse_back(melds: list[list[Card]]) -> None:
    text = " / ".join(show(m) for m in melds)
    assert k.parse_lay_down([text]) == [tuple(m) for m in melds]


# ------------------------------------------------------------------ events of every game

PLAYER = st.sampled_from(["Ann", "Bob", "Cy Dee"])
EVENTS: dict[str, Any] = {
    "kariki": (ka, st.one_of(
        st.builds(ka.Claim, PLAYER, st.sampled_from(list(Rank))),
        st.builds(ka.ShowKariki, PLAYER), st.builds(ka.TakeMug, PLAYER), st.builds(ka.Pass, PLAYER),
        st.builds(ka.Pull, PLAYER, st.builds(Roll.of, st.integers(1, 6), st.integers(1, 6))),
        st.builds(ka.Slash, PLAYER, st.sampled_from([None, "drop"]),
                  st.one_of(st.none(), st.integers(0, 3600)), st.none()),
        st.builds(ka.BuyBack, PLAYER),
    )),
    "liars": (ld, st.one_of(
        st.builds(ld.BidEvent, PLAYER, st.builds(Bid, st.integers(1, 99), st.integers(1, 6))),
        st.builds(ld.Call, PLAYER, st.integers(0, 99), st.none(), st.booleans()),
        st.builds(ld.Call, PLAYER, st.none(),
                  st.builds(Hands, st.just((("Ann", (1, 3)), ("Bob", (6,))))), st.booleans()),
    )),
    "kiriki": (kr, st.one_of(
        st.builds(kr.RollOff, st.tuples(st.integers(1, 6), st.integers(1, 6))),
        st.builds(kr.Claim, PLAYER, st.sampled_from(list(Rank)), st.one_of(st.none(),
                                                                           st.integers(1, 6))),
        st.builds(kr.Raise, PLAYER, st.sampled_from(list(Rank))),
        st.builds(kr.Lift, PLAYER, st.builds(Roll.of, st.integers(1, 6), st.integers(1, 6))),
        st.builds(kr.Believe, PLAYER), st.builds(kr.Reroll, PLAYER), st.builds(kr.Roll_, PLAYER),
        st.builds(kr.Resign, PLAYER), st.builds(kr.ShowKiriki, PLAYER),
    )),
    "kalooki": (kg, st.one_of(
        st.builds(kg.Call, PLAYER, st.booleans(), st.one_of(st.none(), PLAYER)),
        st.builds(kg.Down, PLAYER, st.lists(st.lists(CARDS, min_size=1, max_size=5).map(tuple),
                                             min_size=1, max_size=3).map(tuple)),
        st.builds(kg.Tack, PLAYER, CARDS, st.integers(1, 9), st.booleans()),
        st.builds(kg.StockOut), st.builds(kg.Out, PLAYER),
        st.builds(kg.Hand, PLAYER, st.lists(CARDS, max_size=5).map(tuple), st.none()),
        st.builds(kg.Hand, PLAYER, st.none(), st.integers(0, 2000)),
    )),
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(EVENTS))
@given(data=st.data())
def test_events_are_stored_and_read_back(game: str, data: st.DataObject) -> None:
    _, events = EVENTS[game]
    event = data.draw(events)
    engine = games.load(game)  # its stored form, declared or not yet
    assert engine.event_from_dict(engine.event_to_dict(event)) == event
    from referee.cli.shell import command_names

    commands = command_names(games.info(game))  # its actions, then its tools
    assert str(event).split()[0] in commands  # the shell line starts with one of its commands


STORED_KEYS = sorted(
    {key for e in examples() for data in storage.load(e.path).session.events for key in data}
    | {"type", "x"}
)
STORED_TYPES = sorted(
    {str(data["type"]) for e in examples() for data in storage.load(e.path).session.events}
)


@pytest.mark.parametrize("game", every_game())
@given(
    fields=st.dictionaries(
        st.sampled_from(STORED_KEYS),
        st.one_of(st.text(max_size=12), st.integers(), st.sampled_from(STORED_TYPES)),
    )
)
def test_any_stored_table_reads_as_an_event_or_a_notation_error(
    game: games.GameInfo, fields: dict[str, Any]
) -> None:
    """Every registered game, given tables with the fields and event types of every game's
    examples (so other games' events too): an event of its own, or a `NotationError`."""
    engine = games.load(game.name)
    with contextlib.suppress(NotationError):
        assert engine.is_event(engine.event_from_dict(fields))
