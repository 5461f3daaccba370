"""Random Kariki nights through the session layer (RELIABILITY.md's stateful recipe).

On the shared base of tests/test_machines.py (refusals change nothing, save/load and
undo/redo are exact, a finished game has winners, log --script replays), plus Kariki's own:
berries only fall by a buy-back, counts stay in range, and an event never leaves nobody
standing. Aimed at the limits: the last berry (limits of 1, 2 and 5), crowns that hit the
roller, strict raises. People come and go (join, leave, replace), and the money always adds
up: the pot is what the seats paid, and a finished night's nets sum to zero.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from referee import storage
from referee.games.kariki import engine as k
from referee.games.money import Standing, result
from referee.games.roster import Join, Leave, Replace
from referee.notation.dice import Rank, Roll
from test_machines import SETTINGS, SessionMachine

NAMES = ("Ann", "Bob", "Cy", "Dee")
NEWCOMERS = ("Eve", "Fay", "Gus")
PLAYERS = st.sampled_from((*NAMES, *NEWCOMERS))
RANKS = st.sampled_from(list(Rank))
ROLLS = st.builds(Roll.of, st.integers(1, 6), st.integers(1, 6))


def berries(state: k.State) -> dict[str, int]:
    return {s.name: len(s.berries) for s in state.seats}


class KarikiNight(SessionMachine):
    @initialize(
        players=st.integers(2, 4),
        berry_limit=st.sampled_from([1, 2, 5]),  # aim at the last berry, not just anywhere
        slashes_per_berry=st.sampled_from([1, 3]),
        crown_hits_roller=st.booleans(),
        illegal_claim=st.sampled_from(["reject", "berry"]),
        raise_rule=st.sampled_from(["match_or_beat", "strict"]),
        loss_value=st.sampled_from([0, 0.5]),
    )
    def start(self, players: int, raise_rule: str, **rules: Any) -> None:
        table = storage.load_ruleset("kariki")
        table.update(rules)
        table["raise"] = raise_rule
        self.begin("kariki", table, list(NAMES[:players]), {"first": "Ann"})

    def act(self, event: Any) -> None:
        before = berries(self.state)
        super().act(event)  # a refusal leaves the state as it was
        if not isinstance(event, k.BuyBack):  # only a buy-back takes a berry away
            after = berries(self.state)
            for name, count in before.items():
                if name not in after:  # a seat taken over keeps its berries
                    assert isinstance(event, Replace) and event.old == name
                    name = event.new
                assert after[name] >= count, (event, name)

    def turn(self) -> str:
        return str(self.state.name(self.state.turn))

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

    @rule()
    def settle(self) -> None:
        self.act(k.Settle())

    @rule(name=st.sampled_from((*NEWCOMERS, "ann")), after=st.none() | PLAYERS)
    def join(self, name: str, after: str | None) -> None:
        self.act(Join(name, after))

    @rule(player=PLAYERS)
    def leave(self, player: str) -> None:
        self.act(Leave(player))

    @rule(old=PLAYERS, new=st.sampled_from(NEWCOMERS))
    def replace(self, old: str, new: str) -> None:
        self.act(Replace(old, new))

    @invariant()
    def the_money_adds_up(self) -> None:
        if not self.started:
            return
        state = self.state
        assert state.pot == sum(state.paid(s) for s in state.seats)
        if state.is_finished:
            ended = k.outcome(state)
            found = result(state.purse, Standing(ended.standings, ended.places, k.scores(state)))
            assert sum(found.nets.values()) == 0 and sum(found.takes.values()) == state.pot

    @invariant()
    def a_settled_night_is_final(self) -> None:
        if self.started and self.state.is_over and not self.state.buyback_open:
            assert k.outcome(self.state).status == "finished"
            assert self.state.pot_to == self.state.winner

    @invariant()
    def counts_stay_in_range(self) -> None:
        if not self.started:
            return
        for seat in self.state.seats:
            assert 0 <= len(seat.berries) <= self.state.rules.berry_limit
            assert 0 <= seat.slashes < self.state.rules.slashes_per_berry
            assert not seat.out or seat.slashes == 0  # slashes never outlive the player

    @invariant()
    def somebody_always_stands(self) -> None:
        if self.started:
            assert [s for s in self.state.seats if not s.out]  # never nobody standing


KarikiNight.TestCase.settings = SETTINGS
test_kariki_nights = KarikiNight.TestCase
