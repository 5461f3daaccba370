"""An action is declared once, on its event: its name, its words and options, its help, its
notation and its stored form. Everything else is derived from that declaration.

A game's engine declares each event class with `@action`:

    @action("pull", DICE, BY, help="Lift the mug: dice shown.\\n\\nThe claim stands if ...")
    @dataclass(frozen=True, slots=True)
    class Pull:
        by: str
        dice: Roll

and lists them once, `ACTIONS = Actions("Kariki", Claim, Pull, ...)`. From it come the event's
shell line (`str(event)`, `pull 4-5 --by Ann`: what `log --script` prints and the shell reads
back), its stored form (`event_to_dict` / `event_from_dict`: one flat table of strings and whole
numbers a line of the session file), the Typer command with its help and completion
(`referee.cli.actions`), and the quick path's reading of its line (`referee.cli.quick`).

A `Param` is one thing the action's line carries: a positional word (or the rest of the line),
or an option. Most are a field of the event; a param the event has no field for is typed only,
for an action whose `build` makes the event from its typed values itself (Kariki's slash reads
an amount as seconds or a count by the rule it names). `player=True` names a player (typed by a
unique prefix or nickname, stored by name), `actor=True` is who acts (`--by`, else whoever is on
turn): both are resolved against the session when the event is made, under its lock.

Nothing here imports Typer, Rich or TOML: an engine declares, the layers above derive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, Protocol, TypeVar

from referee.errors import NotationError, UsageError, quote

Kind = Literal["text", "number", "words", "flag"]  # one word, a whole number, the rest, a switch
Stored = Literal["text", "number", "flag"]  # a string, a whole number, 1 when set (else absent)
T = TypeVar("T")


class Param(NamedTuple):
    """One thing an action's line carries, and how its event keeps it (see the module)."""

    name: str  # the Typer parameter's name, and the event's field (unless `field`)
    kind: Kind = "text"
    option: str | None = None  # its flag (`--by`); None: a positional word
    help: str | None = None
    metavar: str | None = None
    parse: Callable[[str], Any] | None = None  # the notation: text -> value (else the text)
    show: Callable[[Any], str] = str  # value -> its canonical text (stored and in the line)
    key: str | None = None  # the stored key, if not the name
    stored: Stored | None = None  # how it is stored (default: by its kind)
    split: bool = False  # the line shows its text as several words (cards, melds)
    player: bool = False  # names a player: a prefix or nickname, kept as the name
    actor: bool = False  # who acts: `--by`, else the player on turn
    required: bool = False  # the command line cannot do without it (Click says so)
    needs: str | None = None  # optional for Click, but the action says "claim needs {needs}"
    typed_by: Callable[[Any], Any] | None = None  # reads what was typed (words unjoined) itself
    resolve: Callable[[Any, Any, Table], Any] | None = None  # (value, state, table) -> the value
    takes: tuple[int, str] | None = None  # words: at most N, else "pull takes {what}, not M words"
    dashed: bool = False  # a word that may start with "-" (`call -1`): its parse judges it
    field: str | None = None  # the event's field, if not the name (Kalooki's --on sets `meld`)

    @property
    def attr(self) -> str:
        """The event's field it is kept in (if the event has one)."""
        return self.field or self.name

    @property
    def store_key(self) -> str:
        """Its key in the stored table."""
        return self.key or self.name

    @property
    def store_as(self) -> Stored:
        """How its value is stored."""
        if self.stored is not None:
            return self.stored
        return "number" if self.kind == "number" else "flag" if self.kind == "flag" else "text"

    def typed(self, raw: Any) -> Any:
        """The value of what was typed (words joined, notation parsed); None if not given."""
        if self.kind == "flag":
            return bool(raw)
        if raw is None or raw == []:
            return None
        if self.typed_by is not None:
            return self.typed_by(raw)
        text = " ".join(raw) if isinstance(raw, list) else raw
        if self.parse is not None and isinstance(text, str):
            return self.parse(text)
        return text

    def words(self, value: Any) -> list[str]:
        """How the value reads in the event's line."""
        text = self.show(value)
        return text.split() if self.split else [text]


class New(NamedTuple):
    """`referee new GAME`: its help, and the game's own options (the players, `--name`,
    `--ruleset` and `--nick` are every game's); a `player` option names a player, by a prefix
    or nickname as anywhere else, and is kept as his name."""

    help: str
    options: tuple[Param, ...] = ()
    # said above the card, for N players at the game as it is named (`Perudo` under its rules)
    warning: Callable[[int, str], str | None] | None = None
    under: Callable[[Any], str | None] | None = None  # a warning under it, from the first state


FIRST = Param("first", option="--first", metavar="PLAYER", help="Who rolls first.", player=True)
DIRECTION = Param(
    "direction",
    option="--direction",
    metavar="left|right",
    help="Which way play goes [default: the ruleset's].",
)
BY = Param(
    "by", option="--by", metavar="PLAYER", help="Who acts (checked against the turn).", actor=True
)


class Table(Protocol):
    """What building an event may ask of the session: who acts, and which player a word names."""

    def actor(self, by: str | None) -> str:
        """`--by` (checked by the rules), else whoever is on turn."""
        ...

    def player(self, text: str) -> str:
        """The exact name of the player `text` names, by name or nickname."""
        ...

    def newcomer(self, name: str) -> str:
        """A newcomer's name as the table already knows him (the open night's roster spells
        `eve` as `Eve`), else as typed."""
        ...


Build = Callable[[Mapping[str, Any], Any, Table], Any]  # (typed values, state, table) -> event


class Action(NamedTuple):
    """One command of a game and the event it makes (see the module)."""

    name: str
    event: type
    params: tuple[Param, ...]
    help: str
    fixed: Mapping[str, Any] = MappingProxyType({})  # fields this command sets itself
    check: Callable[[Mapping[str, Any]], None] | None = None  # typed values, before the session
    build: Build | None = None  # the event from the typed values, when not field by field
    whole: str | None = None  # what it ends ("the night"): the shell takes no prefix for it

    @property
    def words(self) -> tuple[Param, ...]:
        """The positional parameters, in the order typed."""
        return tuple(p for p in self.params if p.option is None)

    @property
    def options(self) -> tuple[Param, ...]:
        """The options."""
        return tuple(p for p in self.params if p.option is not None)

    @property
    def fields(self) -> tuple[Param, ...]:
        """The parameters the event keeps (a field of its own), in the order of its fields
        (as they are stored)."""
        names = list(self.event.__dataclass_fields__)  # type: ignore[attr-defined]
        kept = [p for p in self.params if p.attr in names]
        return tuple(sorted(kept, key=lambda p: names.index(p.attr)))

    def typed(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The typed values (the Typer command's parameters, by name) read and checked: notation
        parsed, a missing word said in the action's words. Before any session is read."""
        for p in self.params:
            if (p.needs is not None or p.required) and values.get(p.name) in (None, []):
                raise UsageError(f"{self.name} needs {p.needs or p.metavar or p.name.upper()}")
            if p.takes is not None and len(given := values.get(p.name) or ()) > p.takes[0]:
                raise UsageError(f"{self.name} takes {p.takes[1]}, not {len(given)} words")
        typed = {p.name: p.typed(values.get(p.name)) for p in self.params}
        if self.check is not None:
            self.check(typed)
        return typed

    def make(self, typed: Mapping[str, Any], state: Any, table: Table) -> Any:
        """The event the typed values make against the live state."""
        if self.build is not None:
            return self.build(typed, state, table)
        made: dict[str, Any] = dict(self.fixed)
        for p in self.fields:
            value = typed.get(p.name)
            if p.resolve is not None:
                value = p.resolve(value, state, table)
            elif p.actor:
                value = table.actor(value)
            elif p.player and value is not None:
                value = table.player(value)
            made[p.attr] = value
        return self.event(**made)

    def line(self, event: Any) -> str:
        """The event's shell line: `claim 'Double Sixes' --by Ann` (words quoted as needed,
        valued options in order, then the flags that are set)."""
        import shlex  # only when an event is said: not on every start

        parts = [self.name]
        for p in self.words:
            value = getattr(event, p.attr, None)
            if value is not None:
                parts += p.words(value)
        flags: list[str] = []
        for p in self.options:
            value = getattr(event, p.attr, None)
            if value is None or value is False or p.option is None:
                continue
            if p.kind == "flag":
                flags.append(p.option)
            else:
                parts += [p.option, *p.words(value)]
        return shlex.join(parts + flags)

    def stored(self, event: Any) -> dict[str, str | int]:
        """The event as one flat table: its type, then each field that is set."""
        out: dict[str, str | int] = {"type": self.name}
        for p in self.fields:
            value = getattr(event, p.attr)
            if value is None or value is False:
                continue
            match p.store_as:
                case "flag":
                    out[p.store_key] = 1
                case "number":
                    out[p.store_key] = value
                case "text":
                    out[p.store_key] = p.show(value)
        return out

    def read(self, data: Mapping[str, object]) -> Any:
        """The event a stored table holds, checked as strictly as typed input."""
        keys = {p.store_key: p for p in self.fields}
        extra = sorted(set(data) - {"type", *keys})
        if extra:
            raise NotationError(f"the event has unknown fields: {', '.join(extra)[:60]}")
        made: dict[str, Any] = dict(self.fixed)
        for key, p in keys.items():
            value = data.get(key)
            if value is None:
                if p.kind != "flag" and not _may_be_none(self.event, p.attr):
                    raise NotationError(f'the event needs {key} = "..."')
                made[p.attr] = False if p.kind == "flag" else None
                continue
            match p.store_as:
                case "flag":
                    if value not in (0, 1) or isinstance(value, bool):
                        raise NotationError(f"the event's {key} must be 0 or 1")
                    made[p.attr] = bool(value)
                case "number":
                    if isinstance(value, bool) or not isinstance(value, int):
                        raise NotationError(
                            f"the event's {key} must be a whole number, not {value!r:.20}"
                        )
                    made[p.attr] = value
                case "text":
                    if not isinstance(value, str):
                        raise NotationError(f'the event needs {key} = "..."')
                    made[p.attr] = p.parse(value) if p.parse is not None else value
        return self.event(**made)


def _may_be_none(cls: type, name: str) -> bool:
    """Whether the event's field may be None (its annotation admits it): then it may be absent."""
    kind = cls.__dataclass_fields__[name].type  # type: ignore[attr-defined]
    return "None" in (kind if isinstance(kind, str) else repr(kind))


_DECLARED: dict[type, list[Action]] = {}  # an event class's actions (two for Liar's dice's Call)


def action(
    name: str,
    *params: Param,
    help: str,
    fixed: Mapping[str, Any] | None = None,
    check: Callable[[Mapping[str, Any]], None] | None = None,
    build: Build | None = None,
    whole: str | None = None,
) -> Callable[[type[T]], type[T]]:
    """Declare the event class below as the action `name` (see the module); its `str` is its
    shell line."""

    def declare(cls: type[T]) -> type[T]:
        declared = Action(
            name, cls, params, help, fixed or MappingProxyType({}), check, build, whole
        )
        _DECLARED.setdefault(cls, []).append(declared)
        cls.__str__ = _line  # type: ignore[method-assign]
        return cls

    return declare


def _action_of(event: object) -> Action:
    """The action that made `event`: of its class, the one whose fixed fields it has."""
    found = _DECLARED[type(event)]
    for declared in found:
        if all(getattr(event, k) == v for k, v in declared.fixed.items()):
            return declared
    return found[0]


def _line(event: object) -> str:
    return _action_of(event).line(event)


class Actions:
    """A game's actions, in the order its help lists them: the one list of them."""

    def __init__(self, game: str, *events: type) -> None:
        self.game = game
        self.by_name: dict[str, Action] = {a.name: a for e in events for a in _DECLARED[e]}

    def __iter__(self) -> Iterator[Action]:
        return iter(self.by_name.values())

    def get(self, name: str) -> Action | None:
        """The action typed as `name`, if this game has one."""
        return self.by_name.get(name)

    def event_to_dict(self, event: Any) -> dict[str, str | int]:
        """An event as stored in a session file."""
        return _action_of(event).stored(event)

    def event_from_dict(self, data: Mapping[str, object]) -> Any:
        """An event read from a session file; `NotationError` if it is not one of this game's."""
        kind = data.get("type")
        if not isinstance(kind, str):
            raise NotationError('the event needs type = "..."')
        found = self.by_name.get(kind)
        if found is None:
            raise NotationError(f"unknown {self.game} event type {quote(kind)}")
        return found.read(data)
