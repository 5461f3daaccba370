"""A night (RULES 7): the sessions one table plays in a sitting, the roster that grows as
people arrive, the rounds bought, and who pays whom at the end.

The record (`Night`) holds only what happened at the table: its sessions (by id, in the order
they began), its roster, the drinks bought, and once settled the nets and transfers as they were
then (money that changed hands does not change after). Everything else is derived from the
sessions each time (`ledger`): their status, winners, stakes and each player's net. No I/O here:
`referee.storage.nights` reads and writes the record, checked by `night_from_doc` on every load
as strictly as typed input.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from referee.errors import RuleViolation, UsageError, quote, quote_number
from referee.games.money import Transfer
from referee.session import Money, Session, check_id, check_session_name, event_time, money
from referee.text import check_name, loaded_name, name_key, pick

NIGHT_SCHEMA = 1
# Past these, a night file is refused as hand-made: no table plays more in one sitting, and the
# bound keeps a planted file from costing more than a moment.
MAX_NIGHT_PLAYERS = 200
MAX_NIGHT_GAMES = 1000
MAX_DRINKS = 5000
MAX_NET = 10**18  # cents: past any pot (a Kariki pot doubles at each buy-back), within TOML
_GAME_RE = re.compile(r"[a-z][a-z0-9_-]{0,39}", re.ASCII)


class Status(enum.Enum):
    """Open (new games join it), settled (its money closed), or ended without money."""

    OPEN = "open"
    SETTLED = "settled"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Member:
    """A session of the night: its id (who it is, whatever its file is called now), the file
    name it was started under, and its game."""

    id: str
    file: str
    game: str


@dataclass(frozen=True, slots=True)
class Drink:
    """A round bought by `player` at `at`."""

    player: str
    at: str


@dataclass(frozen=True, slots=True)
class Settlement:
    """The night's money as it was settled: each player's net (cents, + receives), the transfers
    that settle them, whether their count is the proven fewest, and the games left out."""

    at: str
    nets: tuple[tuple[str, int], ...]
    transfers: tuple[Transfer, ...]
    exact: bool = True
    left_out: tuple[str, ...] = ()  # ids of games left out by --force


@dataclass(frozen=True, slots=True)
class Night:
    """Everything a night file holds."""

    name: str
    created: str
    status: Status = Status.OPEN
    players: tuple[str, ...] = ()
    games: tuple[Member, ...] = ()
    drinks: tuple[Drink, ...] = ()
    updated: str = ""
    closed: str = ""  # when it was settled or ended
    settled: Settlement | None = None

    @property
    def is_open(self) -> bool:
        """Whether new games still join it."""
        return self.status is Status.OPEN


def check_night_name(text: str) -> str:
    """A night name: the session names' allow-list (letters, digits, `_ . -`; never a path)."""
    try:
        return check_session_name(text)
    except UsageError as error:
        raise UsageError(str(error).replace("bad session name", "bad night name")) from None


def default_name(day: str, taken: Iterable[str]) -> str:
    """The night's name by its day: `2026-12-03`, then `2026-12-03-2` for a second that day.

    >>> default_name("2026-12-03", ["2026-12-03"])
    '2026-12-03-2'
    """
    used = {t.casefold() for t in taken}
    name, n = day, 1
    while name.casefold() in used:
        n += 1
        name = f"{day}-{n}"
    return name


# ---------------------------------------------------------------------------- the roster


def roster_name(night: Night, name: str) -> str:
    """`name` as the night's roster spells it (the same person typed `ann` at another game)."""
    wanted = name_key(name)
    return next((p for p in night.players if name_key(p) == wanted), name)


def with_players(night: Night, names: Iterable[str]) -> Night:
    """The night with `names` on its roster (each once, in any case, in the order they came)."""
    players = list(night.players)
    seen = {name_key(p) for p in players}
    for name in names:
        if name_key(name) not in seen:
            players.append(name)
            seen.add(name_key(name))
    return replace(night, players=tuple(players))


def start_players(specs: Sequence[str]) -> tuple[str, ...]:
    """The roster typed at `night start`: names (checked as at `new`), each once."""
    names: list[str] = []
    for spec in specs:
        name = check_name(spec)
        if any(name_key(n) == name_key(name) for n in names):
            raise UsageError(f"two players are called {quote(name)}: names must differ")
        names.append(name)
    return tuple(names)


def with_game(night: Night, session: Session) -> Night:
    """The night with `session` (just started) among its games and its players on the roster."""
    if not night.is_open:
        raise RuleViolation(f"night {quote(night.name)} is {night.status.value}: no game joins it")
    member = Member(session.id, session.name, session.game)
    joined = replace(night, games=(*night.games, member))
    return with_players(joined, (p.name for p in session.players))


def with_drink(night: Night, who: str, at: str) -> Night:
    """The night with a round bought by `who` (a name of its roster)."""
    if not night.is_open:
        raise RuleViolation(f"night {quote(night.name)} is {night.status.value}: no more rounds")
    return replace(with_players(night, [who]), drinks=(*night.drinks, Drink(who, at)))


# ---------------------------------------------------------------------------- the ledger


class Played(NamedTuple):
    """One game of the night as found in the data folder: its session and state, or why not
    (`problem`: "missing", or the file's error)."""

    member: Member
    file: str  # its file's name now (renamed since, or as started)
    session: Session | None = None
    state: Any = None
    problem: str = ""


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of the night, as the night shows it."""

    number: int
    member: Member
    file: str
    game: str  # as every screen names it: `perudo` apart from `liars` (`league.session_pool`)
    status: str  # playing | provisional | finished | missing | unreadable
    winners: tuple[str, ...] = ()
    money: Money | None = None
    problem: str = ""
    left_out: bool = False

    @property
    def has_money(self) -> bool:
        """Whether money changes hands in this game (stakes, not a round owed alone)."""
        return self.money is not None and self.money.purse.stakes.has_money

    @property
    def is_counted(self) -> bool:
        """Whether its money and rounds count in the night: finished, and not left out."""
        return (
            not self.left_out
            and self.money is not None
            and self.money.result is not None
            and self.status == "finished"
        )

    @property
    def is_readable(self) -> bool:
        """Whether its session was found and read."""
        return self.status not in ("missing", "unreadable")


@dataclass(frozen=True, slots=True)
class Ledger:
    """The night's games and money as its sessions say now."""

    games: tuple[GameLine, ...]
    players: tuple[str, ...]  # the roster, then anyone else with money in a game (a joiner)
    nets: Mapping[str, int] = field(default_factory=dict)  # over the counted games, + receives
    lost: Mapping[str, int] = field(default_factory=dict)  # rounds owed by `loser_buys` losses
    bought: Mapping[str, int] = field(default_factory=dict)  # rounds bought (`night drink`)

    @property
    def counted(self) -> int:
        """How many games' money counts."""
        return sum(1 for g in self.games if g.is_counted)

    def rounds_owed(self, name: str) -> int:
        """Rounds `name` still owes: each loss owes one, each round bought clears one (a round
        bought before he owed one counts against his next)."""
        return max(0, self.lost.get(name, 0) - self.bought.get(name, 0))

    def unfinished(self, *, money_only: bool) -> list[GameLine]:
        """Games that stop the night closing: unfinished (with money, for settle), or not
        found or read (nobody can tell what they hold); none left out."""
        return [
            g
            for g in self.games
            if not g.left_out
            and (not g.is_readable or (g.status != "finished" and (g.has_money or not money_only)))
        ]


def ledger(night: Night, played: Sequence[Played], left_out: Iterable[str] = ()) -> Ledger:
    """The night's games, each player's net over its finished games (a seat's takeover is
    inside its game's nets) and the rounds owed, from its sessions (`played`, in order)."""
    from referee.league import session_pool

    out = set(left_out)
    lines: list[GameLine] = []
    nets: dict[str, int] = {}
    lost: dict[str, int] = {}
    # one player, one name: as the roster spells him, else as his game first did (`zed` who
    # joined one game mid-way is the `Zed` of the next)
    spelling = {p.casefold(): p for p in night.players}
    for number, found in enumerate(played, start=1):
        member = found.member
        if found.session is None:
            status = "missing" if found.problem == "missing" else "unreadable"
            lines.append(GameLine(number, member, found.file, member.game, status,
                                  problem=found.problem, left_out=member.id in out))  # fmt: skip
            continue
        outcome = found.session.engine.outcome(found.state)
        kept = money(found.session, found.state)
        line = GameLine(number, member, found.file, session_pool(found.session), outcome.status,
                        outcome.winners, kept, left_out=member.id in out)  # fmt: skip
        lines.append(line)
        if line.is_counted and kept is not None and kept.result is not None:
            game_nets = kept.result.nets
            assert sum(game_nets.values()) == 0, f"{found.file}: its nets do not sum to zero"
            for name, cents in game_nets.items():
                who = spelling.setdefault(name.casefold(), name)
                nets[who] = nets.get(who, 0) + cents
            for name in kept.result.rounds:
                who = spelling.setdefault(name.casefold(), name)
                lost[who] = lost.get(who, 0) + 1
    assert sum(nets.values()) == 0, "the night's nets do not sum to zero"
    bought: dict[str, int] = {}
    for drink in night.drinks:
        bought[drink.player] = bought.get(drink.player, 0) + 1
    players = list(night.players)
    players += [n for n in (*nets, *lost) if n not in players]
    return Ledger(tuple(lines), tuple(players), nets, lost, bought)


def settlement(ledger: Ledger, at: str, left_out: Sequence[str] = ()) -> Settlement:
    """The night's money settled: each player's net and the fewest transfers that settle them
    (`referee.settle`); each one's transfers sum to his net, and the nets sum to zero."""
    from referee.settle import is_exact, settle

    balances = {n: c for n, c in ledger.nets.items() if c}
    seat = {n: k for k, n in enumerate(ledger.players)}
    # In the roster's order, whatever order they were found in: the same night reads the same.
    found = sorted(settle(balances), key=lambda t: (seat[t.payer], seat[t.payee]))
    transfers = tuple(Transfer(t.payer, t.payee, t.cents) for t in found)
    nets = tuple((n, ledger.nets.get(n, 0)) for n in ledger.players if n in ledger.nets)
    check_settlement(nets, transfers)
    return Settlement(at, nets, transfers, is_exact(balances, found), tuple(left_out))


def check_settlement(nets: Sequence[tuple[str, int]], transfers: Sequence[Transfer]) -> None:
    """The nets sum to zero and the transfers settle every one of them (`UsageError` if not:
    a hand-edited file, said as a file problem by whoever read it)."""
    if sum(c for _, c in nets) != 0:
        raise UsageError("the settled nets do not sum to zero")
    left = dict(nets)
    for t in transfers:
        if t.payer not in left or t.payee not in left:
            who = t.payer if t.payer not in left else t.payee
            raise UsageError(f"a transfer names {quote(who)}, who has no net")
        left[t.payer] += t.cents
        left[t.payee] -= t.cents
    unsettled = [n for n, c in left.items() if c]
    if unsettled:
        raise UsageError(f"the transfers do not settle {quote(unsettled[0])}'s net")


def settled_doc(done: Settlement) -> dict[str, Any]:
    """A settlement as JSON, as `night --json`, `night settle --json` and `stats --json` give
    it: `nets` in cents (+ receives), each transfer `{payer, payee, cents}` in its order."""
    return {
        "at": done.at,
        "nets": dict(done.nets),
        "transfers": [t._asdict() for t in done.transfers],
        "exact": done.exact,
        "left_out": list(done.left_out),
    }


def night_of_each(nights: Iterable[Night]) -> dict[str, str]:
    """The night that lists each session (by id): the first of `nights` to list it."""
    found: dict[str, str] = {}
    for night in nights:
        for member in night.games:
            found.setdefault(member.id, night.name)
    return found


def pick_player(ledger: Ledger, text: str) -> str:
    """The player of the night `text` names (a prefix, any case)."""
    return pick(text, [(n, n) for n in ledger.players], "player")


# ---------------------------------------------------------------------------- the record


def night_to_doc(night: Night) -> dict[str, Any]:
    """A night as the plain document its file holds."""
    doc: dict[str, Any] = {
        "schema": NIGHT_SCHEMA,
        "name": night.name,
        "status": night.status.value,
        "created": night.created,
        "updated": night.updated,
        "closed": night.closed,
        "players": list(night.players),
        "games": [{"id": g.id, "file": g.file, "game": g.game} for g in night.games],
        "drinks": [{"player": d.player, "at": d.at} for d in night.drinks],
    }
    if night.settled is not None:
        s = night.settled
        doc["settled"] = {
            "at": s.at,
            "exact": s.exact,
            "left_out": list(s.left_out),
            "nets": [{"player": n, "cents": c} for n, c in s.nets],
            "transfers": [t._asdict() for t in s.transfers],
        }
    return doc


KEYS = frozenset(("schema", "name", "status", "created", "updated", "closed", "players",
                  "games", "drinks", "settled"))  # fmt: skip


def night_from_doc(doc: Mapping[str, Any]) -> Night:
    """A `Night` from a parsed, current-schema document, checked as strictly as typed input: a
    key it does not know is refused, not skipped (a slip like `game = [...]` would otherwise
    lose the night's games on the next save), and so is any figure that does not add up."""
    _only(doc, KEYS, "at the top of the night")
    name = check_night_name(_text(doc, "name"))
    status_text = _text(doc, "status")
    status = next((s for s in Status if s.value == status_text), None)
    if status is None:
        raise UsageError(f"'status' must be open, settled or ended, not {quote(status_text)}")
    players = tuple(_names(_list(doc, "players", MAX_NIGHT_PLAYERS), "players"))
    on_roster = set(players)
    games: list[Member] = []
    for item in _list(doc, "games", MAX_NIGHT_GAMES):
        table = _table_of(item, "games", ("id", "file", "game"))
        game = _text(table, "game")
        if not _GAME_RE.fullmatch(game):
            raise UsageError(f"a game of the night is {quote(game)}, which names no game")
        games.append(Member(check_id(table["id"]), check_session_name(_text(table, "file")), game))
    ids = [g.id for g in games]
    if len(set(ids)) != len(ids):
        raise UsageError("a session is listed twice among the night's games")
    drinks = []
    for item in _list(doc, "drinks", MAX_DRINKS):
        table = _table_of(item, "drinks", ("player", "at"))
        drinks.append(Drink(_on_roster(_text(table, "player"), on_roster), _time(table, "at")))
    closed = _time(doc, "closed", optional=True)
    if (status is Status.OPEN) != (closed == ""):
        raise UsageError("'closed' is the time a night was settled or ended: empty while open")
    settled = _settlement(doc.get("settled"), on_roster, set(ids))
    if (status is Status.SETTLED) != (settled is not None):
        raise UsageError("a settled night has a [settled] table, and only a settled one")
    return Night(
        name=name,
        created=_time(doc, "created"),
        status=status,
        players=players,
        games=tuple(games),
        drinks=tuple(drinks),
        updated=_time(doc, "updated", optional=True),
        closed=closed,
        settled=settled,
    )


def _settlement(value: object, on_roster: set[str], ids: set[str]) -> Settlement | None:
    if value is None:
        return None
    table = _table_of(value, "settled", ("at", "exact", "left_out", "nets", "transfers"))
    exact = table["exact"]
    if not isinstance(exact, bool):
        raise UsageError(f"'exact' must be true or false, not {exact!r:.20}")
    left_out = tuple(check_id(i) for i in _list(table, "left_out", MAX_NIGHT_GAMES))
    if not set(left_out) <= ids:
        raise UsageError("a game left out of the settled money is not one of the night's")
    nets: list[tuple[str, int]] = []
    for item in _list(table, "nets", MAX_NIGHT_PLAYERS):
        pair = _table_of(item, "nets", ("player", "cents"))
        who = _on_roster(_text(pair, "player"), on_roster)
        if who in dict(nets):
            raise UsageError(f"{quote(who)} has two nets")
        nets.append((who, _cents(pair, "cents", signed=True)))
    transfers = []
    for item in _list(table, "transfers", MAX_NIGHT_PLAYERS):
        t = _table_of(item, "transfers", ("payer", "payee", "cents"))
        payer = _on_roster(_text(t, "payer"), on_roster)
        payee = _on_roster(_text(t, "payee"), on_roster)
        if payer == payee:
            raise UsageError(f"{quote(payer)} pays {quote(payer)}: a transfer is between two")
        transfers.append(Transfer(payer, payee, _cents(t, "cents", signed=False)))
    check_settlement(nets, transfers)
    return Settlement(_time(table, "at"), tuple(nets), tuple(transfers), exact, left_out)


def _only(doc: Mapping[str, Any], keys: Iterable[str], where: str) -> None:
    unknown = sorted(str(k) for k in doc if k not in keys)
    if unknown:
        raise UsageError(
            f"unknown key {quote(unknown[0][:40])} {where} (the keys are {', '.join(sorted(keys))})"
        )


def _table_of(item: object, key: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(item, dict):
        raise UsageError(f"'{key}' must hold tables of {', '.join(keys)}")
    _only(item, keys, f"in '{key}'")
    missing = [k for k in keys if k not in item]
    if missing:
        raise UsageError(f"an entry of '{key}' has no {quote(missing[0])}")
    return item


def _list(doc: Mapping[str, Any], key: str, limit: int) -> list[Any]:
    value = doc.get(key)
    if not isinstance(value, list):
        raise UsageError(f"'{key}' must be a list")
    if len(value) > limit:
        raise UsageError(f"'{key}' holds {len(value)} entries: at most {limit}")
    return value


def _text(doc: Mapping[str, Any], key: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str):
        raise UsageError(f"'{key}' must be a string, not {value!r:.30}")
    return value


def _time(doc: Mapping[str, Any], key: str, *, optional: bool = False) -> str:
    text = _text(doc, key)
    if (text or not optional) and event_time(text) is None:
        raise UsageError(f"'{key}' must be an ISO time with its zone, not {quote(text[:40])}")
    return text


def _names(values: list[Any], key: str) -> list[str]:
    names: list[str] = []
    for value in values:
        if not isinstance(value, str):
            raise UsageError(f"'{key}' must be a list of names, not {value!r:.30}")
        value = loaded_name(value)
        if any(name_key(n) == name_key(value) for n in names):
            raise UsageError(f"two players are called {quote(value)}: names must differ")
        names.append(value)
    return names


def _on_roster(name: str, on_roster: set[str]) -> str:
    if name not in on_roster:
        raise UsageError(f"{quote(name)} is not on the night's roster ('players')")
    return name


def _cents(doc: Mapping[str, Any], key: str, *, signed: bool) -> int:
    value = doc[key]
    low = -MAX_NET if signed else 1
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_NET:
        what = "whole cents" if signed else "whole cents above 0"
        shown = quote_number(value) if isinstance(value, int) else repr(value)[:20]
        raise UsageError(f"'{key}' must be {what}, not {shown}")
    return value
