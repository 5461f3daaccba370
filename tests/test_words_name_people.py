"""Rulings name people, never "he", "him" or "his" (issue 40): a table's players are anyone,
and a ruling that says "paying him 2" leaves the table asking whom. Every game's whole example
is played for money with its first seat taken over at the start, and a fresh table for money
sees a newcomer join and its first player leave; every ruling's words, and each of its facts
alone, must name people."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from conftest import (
    SESSION_GAMES,
    Example,
    Runner,
    every_game,
    examples,
    examples_of,
    fresh,
    session_file,
)
from referee import games, storage
from referee.games import GameInfo
from referee.session import states

PRONOUN = re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE)
NEWCOMER = "Zed"


def pronouns(text: str) -> list[str]:
    """The lines of `text` that say he, him, his or himself."""
    return [line for line in text.splitlines() if PRONOUN.search(line)]


def for_money(example: Example) -> list[str]:
    """The example's `new` line with a stake (unless it has one: Kariki's `--buy-in`) and a
    price on every loss."""
    stake = [] if {"--stake", "--buy-in"} & set(example.new) else ["--stake", "1"]
    return [*example.new, *stake, "--set", "loss_value=0.5"]


def taken_over(example: Example) -> list[list[str]]:
    """The example's commands with its first seat taken over by a newcomer before the first,
    who then plays every move of that seat."""
    first = storage.load(example.path).session.players[0].name
    seat = re.compile(rf"\b{re.escape(first)}\b")
    return [
        [example.game, "replace", first, NEWCOMER],
        *([seat.sub(NEWCOMER, word) for word in command] for command in example.commands),
    ]


def said_by_each_fact(path: Path) -> list[str]:
    """Every fact of every ruling of the session at `path`, each in its game's words alone."""
    session = storage.load(path).session
    words = games.module(session.game, "words").words
    return [words([fact]) for state in states(session) for fact in session.engine.ruling(state)]


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.path.stem)
def test_a_whole_game_for_money_with_a_seat_taken_over_names_people(
    referee: Runner, home: Path, example: Example
) -> None:
    assert referee(*for_money(example), "--name", "s").code == 0
    for command in taken_over(example):
        result = referee(*command)
        assert result.code == 0, (command, result)
        assert pronouns(result.out) == [], command
    log = referee("log").out
    assert f"{NEWCOMER} takes" in log and "paying" in log and pronouns(log) == []
    assert [s for s in said_by_each_fact(session_file(home, "s")) if PRONOUN.search(s)] == []


@pytest.mark.parametrize("game", SESSION_GAMES, ids=lambda g: g.name)
def test_a_newcomer_and_a_leaver_at_a_table_for_money_are_named(
    referee: Runner, home: Path, game: GameInfo
) -> None:
    """Joining, replacing and leaving (in Kalooki the dealer leaves: the next player deals)."""
    example = examples_of(game.name)[0]
    assert referee(*for_money(example), "--name", "s").code == 0
    players = [p.name for p in storage.load(session_file(home, "s")).session.players]
    joined = referee(game.name, "join", "Newt")  # Kiriki is played by two: refused
    assert joined.code == 0 or "exactly two" in joined.err, joined
    for command in (["replace", players[1], NEWCOMER], ["leave", players[0]]):
        result = referee(game.name, *command)
        assert result.code == 0 and pronouns(result.out) == [], (command, result)
    assert pronouns(referee("log").out) == []
    assert [s for s in said_by_each_fact(session_file(home, "s")) if PRONOUN.search(s)] == []
    assert shlex.split(referee("log", "--script").out.splitlines()[-1])[:2] == [
        "leave",
        players[0],
    ]


# ------------------------------------------------------------------ help


@pytest.mark.parametrize("game", every_game())
def test_every_actions_help_names_people(referee: Runner, game: GameInfo) -> None:
    """`help claim` said "it also means he took the mug", `help join` "He sits after PLAYER",
    `help replace` "OLD keeps the games he finished": each action's help in the shell, and
    every word of its declaration (its options' help too), names the player or the role."""
    from referee.cli.shell import Shell

    engine = games.load(game.name)
    declared = {"new": engine.new.help}
    declared |= {f"new {p.name}": p.help or "" for p in engine.new.options}
    for action in engine.actions:
        declared[action.name] = action.help
        declared |= {f"{action.name} {p.name}": p.help or "" for p in action.params}
    assert {name: text for name, text in declared.items() if PRONOUN.search(text)} == {}
    assert referee(*fresh(game), "--name", "friday").code == 0
    shell = Shell(None)
    helped = {action.name: shell.help(action.name) for action in engine.actions}
    assert all(text.startswith(name) for name, text in helped.items())
    assert {name: text for name, text in helped.items() if PRONOUN.search(text)} == {}


@pytest.mark.parametrize("command", [["join"], ["leave"], ["replace"], ["stats"]])
def test_the_shared_commands_help_names_people(referee: Runner, command: list[str]) -> None:
    result = referee(*command, "--help")
    assert result.code == 0 and pronouns(result.out) == [], result.out
