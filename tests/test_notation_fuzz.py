"""Every game's actions, fuzzed from their declarations (RELIABILITY.md's parser recipe): any
words either are refused in one line or make an event that is stored and read back as itself,
and whose shell line reads back to the same event; any text given to a notation parses or is
refused as bad input (exit 2); any stored table reads as an event or a `NotationError`.
Nothing here names a game: each one's own notation round trips are in its own tests."""

from __future__ import annotations

import contextlib
import importlib
import shlex
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import every_game, examples
from referee import games, storage
from referee.errors import NotationError, RefereeError
from referee.games.actions import Param
from referee.session import Session, initial, parse_players

TRICKY = ["１０", "1_0", " 10 ", "²", "", " ", "\x00", "9" * 10_000, "5x3x", "‮9", "JK JK"]
TEXT = st.one_of(st.sampled_from(TRICKY), st.text(max_size=40))
PLAYERS = ("Ann", "Cy Dee", "Bob", "Eve", "Fay", "Gus")
# The words the examples type, so drawn lines are often ones that make an event.
TYPED = sorted({w for e in examples() for line in e.lines for w in shlex.split(line)})
WORD = st.one_of(st.sampled_from([*TYPED, *PLAYERS, *TRICKY]), st.text(max_size=12))


def _parsers() -> list[Any]:
    found = []
    for game in every_game():
        info = game.values[0]  # type: ignore[attr-defined]
        engine = importlib.import_module(info.engine).GAME if info.engine else None
        for action in engine.actions if engine is not None else ():
            found += [
                pytest.param(info, action.name, p.name, id=f"{info.name}-{action.name}-{p.name}")
                for p in action.params
                if p.parse is not None
            ]
    return found


@pytest.mark.parametrize(("game", "action", "param"), _parsers())
@given(text=TEXT)
def test_any_text_given_a_notation_parses_or_raises_a_notation_error(
    game: games.GameInfo, action: str, param: str, text: str
) -> None:
    declared = games.load(game.name).actions.get(action)
    assert declared is not None
    parse = next(p.parse for p in declared.params if p.name == param)
    assert parse is not None
    try:
        parse(text)
    except RefereeError as refused:  # bad notation, or a word that looks like an option
        assert refused.exit_code == 2


def _words(p: Param) -> st.SearchStrategy[Any]:
    """What may be typed for `p`: nothing, or words of its kind."""
    match p.kind:
        case "flag":
            return st.booleans()
        case "number":
            return st.one_of(st.none(), st.integers(0, 99))
        case "words":
            return st.one_of(st.none(), st.lists(WORD, min_size=1, max_size=4))
    return st.one_of(st.none(), WORD)


def table_of(game: games.GameInfo) -> Session:
    """A fresh table of `game`, not saved anywhere."""
    count = max(game.min_players, min(3, game.max_players))
    table = storage.load_ruleset(game.rulesets[0])
    players = parse_players(list(PLAYERS[:count]), (), game.name)
    return Session("fuzz", game.name, table, players, {})


@pytest.mark.parametrize("game", every_game())
@given(data=st.data())
def test_any_words_of_an_action_make_an_event_that_is_stored_and_said_back(
    game: games.GameInfo, data: st.DataObject
) -> None:
    from referee.cli import acting, line

    engine = games.load(game.name)
    declared = list(engine.actions)
    if not declared:  # a game whose actions are not declared yet
        return
    action = data.draw(st.sampled_from(declared))
    values = {p.name: data.draw(_words(p), label=p.name) for p in action.params}
    session = table_of(game)
    state = initial(session)
    try:
        event = acting.maker(action, values)(session, state)
    except RefereeError:
        return  # refused in one line: bad notation, a player nobody is, nobody on turn
    assert engine.is_event(event)
    assert engine.event_from_dict(engine.event_to_dict(event)) == event
    said = shlex.split(str(event))
    assert said[0] == action.name
    read = line.read([game.name, *said])  # the line it says is read back, by the quick path
    assert read is not None and read.move is not None, said
    assert read.move.make(**read.values)(session, state) == event


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
