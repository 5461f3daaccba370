"""Random Kariki nights through the session layer (RELIABILITY.md's stateful recipe).

Legal and illegal actions alike; after each: a refused action changed nothing, save -> load
gives the live state, undo restores the state before exactly, berries only fall by a buy-back,
and a played-out game has exactly one winner.
"""

from __future__ import annotations

import tomllib
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from referee import storage
from referee.errors import RefereeError
from referee.games import kariki as k
from referee.games.base import PlayerInfo
from referee.notation.dice import Rank, Roll
from referee.session import Session, append, redo, replay, undo

NAMES = ("Ann", "Bob", "Cy", "Dee")
PLAYERS = st.sampled_from(NAMES)
RANKS = st.sampled_from(list(Rank))
ROLLS = st.builds(Roll.of, st.integers(1, 6), st.integers(1, 6))


def berries(state: k.State) -> dict[str, int]:
    return {s.name: len(s.berries) for s in state.seats}


class KarikiNight(RuleBasedStateMachine):
    session: Session
    state: k.State
    history: list[k.State]

    @initialize(
        players=st.integers(2, 4),
        berry_limit=st.sampled_from([1, 2, 5]),  # aim at the last berry, not just anywhere
        slashes_per_berry=st.sampled_from([1, 3]),
        crown_hits_roller=st.booleans(),
        illegal_claim=st.sampled_from(["reject", "berry"]),
        raise_rule=st.sampled_from(["match_or_beat", "strict"]),
    )
    def start(self, players: int, **rules: Any) -> None:
        table = storage.load_ruleset("kariki")
        table.update({k2: v for k2, v in rules.items() if k2 != "raise_rule"})
        table["raise"] = rules["raise_rule"]
        people = tuple(PlayerInfo(n) for n in NAMES[:players])
        self.session = Session("m", "kariki", table, people, {"first": "Ann"})
        self.state = replay(self.session)
        self.history = []

    def act(self, event: k.Event) -> None:
        before_session, before_state = self.session, self.state
        try:
            session, state = append(self.session, self.state, event)
        except RefereeError:
            assert (self.session, self.state) == (before_session, before_state)
            return
        if not isinstance(event, k.BuyBack):
            for name, count in berries(before_state).items():
                assert berries(state)[name] >= count, (event, name)
        self.history.append(before_state)
        self.session, self.state = session, state

    def turn(self) -> str:
        return self.state.seats[self.state.turn].name

    @rule(rank=RANKS)
    def claim(self, rank: Rank) -> None:
        self.act(k.Claim(self.turn(), rank))

    @rule(dice=ROLLS)
    def pull(self, dice: Roll) -> None:
        self.act(k.Pull(self.turn(), dice))

    @rule()
    def pass_(self) -> None:
        self.act(k.Pass(self.turn()))

    @rule()
    def roll(self) -> None:
        self.act(k.TakeMug(self.turn()))

    @rule()
    def kariki(self) -> None:
        self.act(k.ShowKariki(self.turn()))

    @rule(player=PLAYERS, rank=RANKS)
    def out_of_turn(self, player: str, rank: Rank) -> None:
        self.act(k.Claim(player, rank))

    @rule(player=PLAYERS, count=st.integers(1, 7))
    def slash(self, player: str, count: int) -> None:
        self.act(k.Slash(player, count=count))

    @rule(player=PLAYERS)
    def buyback(self, player: str) -> None:
        self.act(k.BuyBack(player))

    @precondition(lambda self: bool(self.session.events))
    @rule()
    def undo_last(self) -> None:
        session, _, _ = undo(self.session)
        assert replay(session) == self.history[-1]
        self.session, self.state = session, self.history.pop()

    @precondition(lambda self: bool(self.session.undone))
    @rule()
    def redo_last(self) -> None:
        before = self.state
        self.session, self.state, _ = redo(self.session, self.state)
        self.history.append(before)

    @invariant()
    def save_then_load_gives_the_live_state(self) -> None:
        if not hasattr(self, "session"):
            return
        text = storage.session_to_text(self.session)
        again = storage.session_from_doc(tomllib.loads(text))
        assert again == self.session
        assert replay(again) == self.state

    @invariant()
    def counts_stay_in_range(self) -> None:
        if not hasattr(self, "state"):
            return
        for seat in self.state.seats:
            assert 0 <= len(seat.berries) <= self.state.rules.berry_limit
            assert 0 <= seat.slashes < self.state.rules.slashes_per_berry
        assert self.state.pot >= 0

    @invariant()
    def a_finished_game_has_one_winner(self) -> None:
        if not hasattr(self, "state"):
            return
        standing = [s for s in self.state.seats if not s.out]
        assert standing  # an event never leaves nobody standing
        if self.state.is_over:
            assert self.state.winner == standing[0].name and len(standing) == 1


KarikiNight.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
test_kariki_nights = KarikiNight.TestCase
