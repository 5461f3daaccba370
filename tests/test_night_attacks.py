"""What an attack on issue 36 (stakes, join/leave/replace, the night) found, each a test: a
night saved is one a load reads back, one newcomer is one person however he is typed, a pot
is shared out at once however big, stats say money as money, a seat given up is given up."""

from __future__ import annotations

import time
from pathlib import Path

from conftest import Runner
from referee import storage
from referee.games.money import Payout, Purse, Stakes, Standing, result


def ok(referee: Runner, *args: str) -> str:
    done = referee(*args)
    assert done.code == 0, (args, done.err)
    return done.out


def mia_won_by(referee: Runner, name: str, players: list[str], winner: str, *flags: str) -> None:
    """A Mia session `name` of `players` with 1 life each, all but `winner` gone by `leave`."""
    ok(referee, "new", "mia", *players, "--set", "lives=1", "--name", name, *flags)
    for p in players:
        if p != winner:
            ok(referee, "leave", p, "-s", name)


# ---------------------------------------------------------------- a night settle writes a file
# that the program then refuses to read: the settled night disappears


def test_settle_with_a_newcomer_typed_in_two_cases_keeps_the_night_readable(
    referee: Runner, home: Path
) -> None:
    ok(referee, "night", "start", "n")
    ok(referee, "new", "mia", "Ann", "Bob", "--set", "lives=1", "--stake", "1", "--name", "g1")
    ok(referee, "join", "zed")
    ok(referee, "leave", "Ann")
    ok(referee, "leave", "Bob")  # zed wins g1
    ok(referee, "new", "mia", "Ann", "Bob", "--set", "lives=1", "--stake", "1", "--name", "g2")
    ok(referee, "join", "Zed")  # the same man, typed with a capital this time
    ok(referee, "leave", "Ann")
    ok(referee, "leave", "Bob")  # Zed wins g2
    ok(referee, "night", "settle")
    # The settled night must still load (it says: 'Zed' is not on the night's roster).
    storage.load_night(home / "nights" / "n.toml")
    assert "NIGHT n" in ok(referee, "night")


def test_a_newcomer_typed_in_two_cases_is_one_person_of_the_night(referee: Runner) -> None:
    ok(referee, "night", "start", "n")
    for name, newcomer in (("g1", "zed"), ("g2", "Zed")):
        ok(referee, "new", "mia", "Ann", "Bob", "--set", "lives=1", "--stake", "1", "--name", name)
        ok(referee, "join", newcomer)
        ok(referee, "leave", "Ann")
        ok(referee, "leave", "Bob")
    shown = ok(referee, "night")
    # The roster's names are matched in any case (night.roster_name); a newcomer's are not.
    assert not ("zed +2" in shown and "Zed +2" in shown), shown


def test_settle_of_a_big_kariki_pot_keeps_the_night_readable(referee: Runner, home: Path) -> None:
    players = [f"P{i}" for i in range(20)]
    ok(referee, "night", "start", "big")
    ok(referee, "new", "kariki", *players, "--stake", "100000", "--first", "P0", "--name", "k")
    for p in players[1:]:  # each goes out on slashes, buys back (the pot doubles), goes out
        ok(referee, "kariki", "slash", p, "--count", "15")
        ok(referee, "kariki", "buyback", p)
        ok(referee, "kariki", "slash", p, "--count", "3")
    ok(referee, "night", "settle")
    storage.load_night(home / "nights" / "big.toml")  # 'cents' must be whole cents ...


def test_a_night_past_its_roster_limit_refuses_the_new_and_stays_readable(
    referee: Runner, home: Path
) -> None:
    ok(referee, "night", "start", "cup")
    for g in range(10):  # ten tables of 20: the roster's 200
        ok(referee, "new", "mia", *[f"G{g}p{i}" for i in range(20)], "--name", f"g{g}")
    done = referee("new", "mia", "A", "B", "--name", "later")
    assert done.code == 3 and "not saved" in done.err and len(done.err.splitlines()) == 1
    assert not (home / "sessions" / "later.toml").exists()
    storage.load_night(home / "nights" / "cup.toml")  # still read back: nothing half-done


# ---------------------------------------------------------------- bounded work


def test_a_payout_split_longer_than_the_table_is_shared_out_in_a_moment() -> None:
    stakes = Stakes(stake=100_000_00, payout=Payout.PLACES, split=(0, 0, 100))
    purse = Purse.start(stakes, ["A", "B"])
    purse = purse.pay("B", purse.pot)  # one Kariki buy-back
    purse = purse.pay("A", purse.pot)  # and another: a pot of 80,000,000 cents
    began = time.monotonic()
    found = result(purse, Standing(("A", "B"), (1, 2), {}))
    assert sum(found.takes.values()) == purse.pot
    assert time.monotonic() - began < 1.0, "the pot is shared out one cent at a time"


# ---------------------------------------------------------------- wrong money


def test_stats_say_money_as_money_not_cents(referee: Runner) -> None:
    mia_won_by(referee, "g", ["Ann", "Bob"], "Ann", "--stake", "1.50")
    shown = ok(referee, "stats", "--all")
    assert "money: net +1.50" in ok(referee, "stats", "--player", "Ann")
    assert "+150" not in shown and "-150" not in shown, shown  # the card says 1.50
    assert "+1.50" in shown
    assert "150.0/game" not in shown  # nor a float average of cents
    assert "paid 150" not in ok(referee, "stats", "--money")


def test_a_newcomer_who_gave_up_his_seat_pays_the_stake_once(referee: Runner) -> None:
    ok(referee, "new", "kariki", "Ann", "Bob", "Cy", "--first", "Ann", "--stake", "2.50")
    ok(referee, "replace", "Bob", "Yan")
    done = referee("join", "Bob")  # as Liar's dice and Mia refuse him: his money counts once
    assert done.code == 1 and "'Bob' gave up a seat in this game" in done.err, done.err


def test_kariki_stake_and_buy_in_do_not_contradict_each_other(referee: Runner) -> None:
    done = referee("new", "kariki", "Ann", "Bob", "--stake", "2", "--buy-in", "3")
    assert done.code == 2 and "--stake and --buy-in both set the stake" in done.err


# ---------------------------------------------------------------- names
