"""Random games of every game through the session layer (issues 14 and 17).

One base machine holds the invariants every game keeps: a refused action changes nothing;
save -> load gives the live state; undo restores the state before exactly and redo re-applies;
scores never go negative; a finished game has winners; and, at the end, `log --script` of the
reached state replays through `referee shell` to the same state. Each game adds its actions,
aimed at the limits (the last die, match point and deuce, the last round, a void round); and
every registered game gets a machine built from its bundled examples (`example_night`).
Longer runs: REFEREE_LONG_TESTS=1.
"""

from __future__ import annotations

import io
import os
import shlex
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from conftest import SESSION_GAMES, Example, examples
from referee import games, storage
from referee.errors import RefereeError, RuleViolation
from referee.games import GameInfo
from referee.games.base import PlayerInfo
from referee.games.kalooki import engine as kg
from referee.games.kalooki.cards import parse_cards
from referee.games.kiriki import engine as kr
from referee.games.liars import engine as ld
from referee.games.liars.bids import Bid, Hands
from referee.notation.dice import Rank, Roll
from referee.session import (
    TIME_KEY,
    Session,
    append,
    notation,
    redo,
    replay,
    seated_players,
    undo,
)

LONG = bool(os.environ.get("REFEREE_LONG_TESTS"))
SETTINGS = settings(max_examples=200 if LONG else 25, stateful_step_count=60 if LONG else 30,
                    deadline=None)  # fmt: skip
ROLLS = st.builds(Roll.of, st.integers(1, 6), st.integers(1, 6))


class SessionMachine(RuleBasedStateMachine):
    """The invariants of every game; subclasses start a session and add actions."""

    session: Session
    state: Any
    history: list[Any]

    def begin(
        self, game: str, table: dict[str, Any], names: list[str], options: dict[str, Any]
    ) -> None:
        people = tuple(PlayerInfo(n) for n in names)
        self.session = Session("m", game, table, people, options)
        self.state = replay(self.session)
        self.history = []

    def act(self, event: Any) -> None:
        before = (self.session, self.state)
        try:
            session, state = append(self.session, self.state, event)
        except RefereeError:
            assert (self.session, self.state) == before  # a refusal changes nothing
            return
        self.history.append(self.state)
        self.session, self.state = session, state

    @property
    def started(self) -> bool:
        return hasattr(self, "session")

    @precondition(lambda self: self.started and bool(self.session.events))
    @rule()
    def undo_last(self) -> None:
        session, state, _ = undo(self.session)
        assert state == self.history[-1]
        self.session, self.state = session, self.history.pop()

    @precondition(lambda self: self.started and bool(self.session.undone))
    @rule()
    def redo_last(self) -> None:
        before = self.state
        self.session, self.state, _ = redo(self.session, self.state)
        self.history.append(before)

    @invariant()
    def save_then_load_gives_the_live_state(self) -> None:
        if not self.started:
            return
        again = storage.session_from_doc(tomllib.loads(storage.session_to_text(self.session)))
        assert again == self.session and replay(again) == self.state

    @invariant()
    def scores_never_go_negative_and_a_finished_game_has_winners(self) -> None:
        if not self.started:
            return
        engine = self.session.engine
        assert all(v >= 0 for v in engine.scores(self.state).values())
        result = engine.outcome(self.state)
        if result.finished:
            seated = seated_players(self.session, self.state)  # newcomers may win too
            assert result.winners and set(result.winners) <= {p.name for p in seated}

    def teardown(self) -> None:
        if self.started and self.session.events:
            replays_through_the_shell(self.session, self.state)


def replays_through_the_shell(session: Session, state: Any) -> None:
    """`log --script` of the session, piped into `referee shell` on a new session."""
    from referee.cli import run
    from referee.cli.app import new_command
    from referee.cli.shell import Shell

    with TemporaryDirectory() as folder:
        env = {"REFEREE_HOME": f"{folder}/home", "XDG_CACHE_HOME": f"{folder}/cache"}
        old = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            ruleset = Path(folder) / "rules.toml"
            import tomli_w

            ruleset.write_text(tomli_w.dumps(dict(session.ruleset)))
            start = shlex.split(new_command(session).removeprefix("referee "))
            if "--ruleset" in start:  # this machine's ruleset is its own: given below
                at = start.index("--ruleset")
                del start[at : at + 2]
            sink = io.StringIO()
            with redirect_stdout(sink), redirect_stderr(sink):
                assert run([*start, "--name", "again", "--ruleset", str(ruleset)]) == 0, (
                    sink.getvalue()
                )
                shell = Shell("again")
                for data in session.events:
                    assert shell.do(notation(session, data)) == 0, (
                        notation(session, data),
                        sink.getvalue(),
                    )
            again = storage.load(Path(folder) / "home" / "sessions" / "again.toml").state
            assert again == state
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


# ------------------------------------------------------------------ Liar's dice


class LiarsNight(SessionMachine):
    @initialize(
        players=st.integers(2, 4),
        dice=st.sampled_from([1, 2, 3]),  # aim at the last die
        ruleset=st.sampled_from(["liars-dice", "perudo"]),
        variants=st.fixed_dictionaries(
            {
                "bidding_rule": st.sampled_from(
                    ["reset-face", "reset-quantity", "both-nondecreasing"]
                ),
                "call_by": st.sampled_from(["turn", "any"]),
                "exact_call_by": st.sampled_from(["turn", "any"]),
                "palifico_one_die_free_face": st.booleans(),
                "two_player_palifico": st.booleans(),
                "two_player_calza": st.booleans(),
            }
        ),
        keep_rule=st.booleans(),
    )
    def start(
        self, players: int, dice: int, ruleset: str, variants: dict[str, Any], keep_rule: bool
    ) -> None:
        table = storage.load_ruleset(ruleset)
        if keep_rule:  # the bundled rule (perudo's own for Perudo), the house keys drawn
            variants = {**variants, "bidding_rule": table["bidding_rule"]}
        table.update(variants)
        table["dice_per_player"] = dice
        self.begin("liars", table, ["Ann", "Bob", "Cy", "Dee"][:players], {"first": "Ann"})

    def turn(self) -> str:
        return str(self.state.name(self.state.turn))

    @rule(data=st.data())
    def smallest_raise(self, data: st.DataObject) -> None:
        raises = ld.smallest_raises(self.state)
        if raises:
            self.act(ld.BidEvent(self.turn(), data.draw(st.sampled_from(raises))))

    @rule(quantity=st.integers(1, 14), face=st.integers(1, 6))
    def any_bid(self, quantity: int, face: int) -> None:
        self.act(ld.BidEvent(self.turn(), Bid(quantity, face)))

    @rule(count=st.integers(0, 12), exact=st.booleans())
    def call_with_a_count(self, count: int, exact: bool) -> None:
        self.act(ld.Call(self.turn(), count, None, exact))

    @rule(
        player=st.sampled_from(["Ann", "Bob", "Cy", "Dee"]),
        count=st.integers(0, 12),
        exact=st.booleans(),
    )
    def call_by_anyone(self, player: str, count: int, exact: bool) -> None:
        if player in {c.name for c in self.state.cups}:
            self.act(ld.Call(player, count, None, exact))

    @rule(data=st.data(), exact=st.booleans())
    def call_with_every_players_dice(self, data: st.DataObject, exact: bool) -> None:
        hands = tuple(
            (c.name, tuple(sorted(data.draw(st.lists(st.integers(1, 6), min_size=c.dice,
                                                     max_size=c.dice)))))
            for c in self.state.cups if c.dice
        )  # fmt: skip
        self.act(ld.Call(self.turn(), None, Hands(hands), exact))

    @rule(player=st.sampled_from(["Ann", "Bob", "Cy", "Dee"]))
    def out_of_turn(self, player: str) -> None:
        self.act(ld.BidEvent(player, Bid(1, 2)))

    @invariant()
    def dice_stay_in_range(self) -> None:
        if self.started:
            for cup in self.state.cups:
                assert 0 <= cup.dice <= self.state.rules.dice_per_player


LiarsNight.TestCase.settings = SETTINGS
test_liars_nights = LiarsNight.TestCase


# ------------------------------------------------------------------ Kiriki


class KirikiMatch(SessionMachine):
    @initialize(fmt=st.sampled_from(["bullet", "bullet", "revolver"]), rolloff=st.booleans())
    def start(self, fmt: str, rolloff: bool) -> None:
        options: dict[str, Any] = {"format": fmt} | ({} if rolloff else {"first": "Ann"})
        self.begin("kiriki", storage.load_ruleset("kiriki"), ["Ann", "Bob"], options)

    def turn(self) -> str:
        return str(self.state.name(self.state.turn))

    @rule(a=st.integers(1, 6), b=st.integers(1, 6))
    def rolloff(self, a: int, b: int) -> None:
        self.act(kr.RollOff((a, b)))

    @rule(rank=st.sampled_from(list(Rank)), shown=st.one_of(st.none(), st.integers(1, 6)))
    def claim(self, rank: Rank, shown: int | None) -> None:
        self.act(kr.Claim(self.turn(), rank, shown))

    @rule()
    def kiriki(self) -> None:
        self.act(kr.ShowKiriki(self.turn()))

    @rule(dice=ROLLS)
    def lift(self, dice: Roll) -> None:
        self.act(kr.Lift(self.turn(), dice))

    @rule()
    def believe(self) -> None:
        self.act(kr.Believe(self.turn()))

    @rule(dice=ROLLS)
    def reveal(self, dice: Roll) -> None:
        self.act(kr.Reveal(self.turn(), dice))

    @rule(rank=st.sampled_from(list(Rank)))
    def keep_and_raise(self, rank: Rank) -> None:
        self.act(kr.Raise(self.turn(), rank))

    @rule()
    def reroll(self) -> None:
        self.act(kr.Reroll(self.turn()))

    @rule()
    def roll(self) -> None:
        self.act(kr.Roll_(self.turn()))

    @precondition(lambda self: self.started and len(self.session.events) > 20)
    @rule(player=st.sampled_from(["Ann", "Bob"]))
    def resign(self, player: str) -> None:
        self.act(kr.Resign(player))

    @invariant()
    def the_match_ends_only_at_target_and_a_lead_of_two(self) -> None:
        if not self.started:
            return
        a, b = self.state.score
        won = max(a, b) >= self.state.target and abs(a - b) >= 2
        assert self.state.is_over == (won or self.state.resigned is not None)


KirikiMatch.TestCase.settings = SETTINGS
test_kiriki_matches = KirikiMatch.TestCase


# ------------------------------------------------------------------ Kalooki

LAYDOWNS = {"333": "7H 7S 7D / 8C 8S 8D / 9H 9S JK", "334": "7H 7S 7D / 8C 8S 8D / 5S JK 7S 8S"}


class KalookiGame(SessionMachine):
    @initialize(
        scope=st.sampled_from(["game", "hand"]), order=st.sampled_from(["high_first", "either_end"])
    )
    def start(self, scope: str, order: str) -> None:
        table = storage.load_ruleset("kalooki")
        table.update(
            deal_sizes=[9, 10],
            contracts=["333", "334"],
            call_limit=2,
            call_limit_scope=scope,
            tack_order=order,
        )  # two rounds: reach the end
        self.begin("kalooki", table, ["Ann", "Bob", "Cy"], {})

    @rule(caller=st.sampled_from(["Ann", "Bob", "Cy"]), refused=st.booleans(),
          by=st.sampled_from([None, "Ann", "Bob", "Cy"]))  # fmt: skip
    def call(self, caller: str, refused: bool, by: str | None) -> None:
        self.act(kg.Call(caller, refused, by))

    @rule(player=st.sampled_from(["Ann", "Bob", "Cy"]))
    def lay_down(self, player: str) -> None:
        code = self.state.rules.contract(min(self.state.round, self.state.rounds)).code
        melds = tuple(tuple(parse_cards(m)) for m in LAYDOWNS[code].split("/"))
        self.act(kg.Down(player, melds))

    @rule(player=st.sampled_from(["Ann", "Bob", "Cy"]),
          card=st.sampled_from(["6S", "9S", "4S", "7C", "JK", "9C", "10C"]),
          meld=st.integers(1, 3), swap=st.booleans())  # fmt: skip
    def tack(self, player: str, card: str, meld: int, swap: bool) -> None:
        self.act(kg.Tack(player, parse_cards(card)[0], meld, swap))

    @rule()
    def stockout(self) -> None:
        self.act(kg.StockOut())

    @rule(player=st.sampled_from(["Ann", "Bob", "Cy"]))
    def out(self, player: str) -> None:
        self.act(kg.Out(player))

    @rule(player=st.sampled_from(["Ann", "Bob", "Cy"]), points=st.integers(0, 120),
          cards=st.sampled_from([None, "JK AS", "7H 7H", "5H 6H"]))  # fmt: skip
    def hand(self, player: str, points: int, cards: str | None) -> None:
        held = parse_cards(cards) if cards else None
        self.act(kg.Hand(player, held, None if held else points))

    @invariant()
    def the_sheet_adds_up(self) -> None:
        if not self.started:
            return
        played = {len(s.scores) for s in self.state.seats}
        assert len(played) == 1  # a round is on the sheet for everyone or for nobody
        for seat in self.state.seats:
            assert seat.total == sum(seat.scores) and self.state.calls_used(seat) <= 2


KalookiGame.TestCase.settings = SETTINGS
test_kalooki_games = KalookiGame.TestCase


# ------------------------------------------------------------------ every game, from its examples


def example_night(game: GameInfo) -> type[SessionMachine]:
    """A machine for any registered game, built from the registry and its bundled examples:
    it follows an example's log from its start, throws in events of the game's other examples
    and of every other game (refused, changing nothing), and undoes and redoes, under the
    invariants of every game. A new game gets one without a line here."""
    own = [e for e in examples() if e.game == game.name]
    engine = games.load(game.name)

    def stored(example: Example) -> list[dict[str, Any]]:
        events = storage.load(example.path).session.events
        return [{k: v for k, v in e.items() if k != TIME_KEY} for e in events]

    pool = [data for e in own for data in stored(e)]
    foreign = [
        games.load(e.game).event_from_dict(data)
        for e in examples()
        if e.game != game.name
        for data in stored(e)[:4]
    ]

    class ExampleNight(SessionMachine):
        script: list[dict[str, Any]]

        @initialize(example=st.sampled_from(own))
        def start(self, example: Example) -> None:
            session = storage.load(example.path).session
            names = [p.name for p in session.players]
            self.begin(game.name, dict(session.ruleset), names, dict(session.options))
            self.script = stored(example)

        def played(self) -> list[dict[str, Any]]:
            return [{k: v for k, v in e.items() if k != TIME_KEY} for e in self.session.events]

        @rule()
        def follow_the_example(self) -> None:
            done = self.played()
            if done == self.script[: len(done)] and len(done) < len(self.script):
                before = len(self.session.events)
                self.act(engine.event_from_dict(self.script[len(done)]))
                assert len(self.session.events) == before + 1  # the example's next event holds

        @rule(data=st.sampled_from(pool))
        def an_event_of_another_moment(self, data: dict[str, Any]) -> None:
            self.act(engine.event_from_dict(data))

        @precondition(lambda self: bool(foreign))
        @rule(data=st.data())
        def another_games_event(self, data: st.DataObject) -> None:
            before = (self.session, self.state)
            with pytest.raises(RuleViolation, match="is not a move of this game"):
                append(self.session, self.state, data.draw(st.sampled_from(foreign)))
            assert (self.session, self.state) == before

    ExampleNight.__name__ = f"{game.title.replace(' ', '').replace(chr(39), '')}ExampleNight"
    ExampleNight.TestCase.settings = settings(
        max_examples=50 if LONG else 6, stateful_step_count=40 if LONG else 15, deadline=None
    )
    return ExampleNight


for _game in SESSION_GAMES:
    globals()[f"test_{_game.name}_example_nights"] = example_night(_game).TestCase
