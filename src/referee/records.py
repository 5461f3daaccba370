"""Records: the frozen values every layer is made of (events, states, rules, sessions).

`@record` makes a class what `@dataclass(frozen=True, slots=True)` makes it, with `order` and
`kw_only` as dataclass takes them. Its fields, slots and `__match_args__` come from dataclass
itself; equality, hash, order and repr behave as dataclass's (equal when of the same class
with equal compared fields, hashed by those fields, ordered by them as a tuple, shown as
`Name(field=value, ...)`); and it is frozen as a dataclass is: `__setattr__` and
`__delattr__` raise `FrozenInstanceError`, and `__init__` sets each field through
`object.__setattr__`, with its defaults, factories and `__post_init__`. tests/test_records.py
holds records to dataclass.

The difference is when the methods are made. dataclass compiles six from source text for
each frozen class as its module is imported, and a command imports some thirty records before
it does anything: compiling them cost as much as an action's whole work on a 1,000-event
night (bench/bench_commands.py). A record compiles one, its `__init__`, the only method whose
text depends on the fields; the rest are the functions below, shared by every record.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, order: bool = False, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(
    cls: type[T] | None = None, /, *, order: bool = False, kw_only: bool = False
) -> type[T] | Callable[[type[T]], type[T]]:
    """Make `cls` a frozen, slotted dataclass with the shared methods (see the module)."""

    def made(cls: type[T]) -> type[T]:
        # The fields, slots and __match_args__ from dataclass, which compiles nothing here.
        made = dataclass(init=False, repr=False, eq=False, slots=True, kw_only=kw_only)(cls)
        every = fields(made)  # type: ignore[arg-type]  # a dataclass now
        made.__init__ = _init(made, every)  # type: ignore[method-assign]
        made.__setattr__ = _setattr  # type: ignore[method-assign]
        made.__delattr__ = _delattr  # type: ignore[method-assign]
        # copy, deepcopy and pickle set the fields as __init__ does (dataclass adds these
        # two to a frozen, slotted class; the default state would meet __setattr__).
        made.__getstate__ = _getstate  # type: ignore[method-assign]
        made.__setstate__ = _setstate  # type: ignore[attr-defined]
        compared = [f.name for f in every if f.compare]
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        made._compared = staticmethod(_getter(compared))  # type: ignore[attr-defined]
        made._hashed = staticmethod(_getter(hashed))  # type: ignore[attr-defined]
        made._names = tuple(f.name for f in every)  # type: ignore[attr-defined]
        made._shown = tuple(f.name for f in every if f.repr)  # type: ignore[attr-defined]
        made.__eq__ = _eq  # type: ignore[method-assign]
        made.__hash__ = _hash  # type: ignore[method-assign]
        made.__repr__ = _repr  # type: ignore[method-assign]
        if order:
            made.__lt__ = _lt  # type: ignore[operator]
            made.__le__ = _le  # type: ignore[operator]
            made.__gt__ = _gt  # type: ignore[operator]
            made.__ge__ = _ge  # type: ignore[operator]
        return made

    return made if cls is None else made(cls)


class _Factory:
    """The default of a field made by its `default_factory` (shown as dataclass shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _init(cls: type, every: tuple[Field[Any], ...]) -> Callable[..., None]:
    """The `__init__` of a record, as a frozen dataclass's: its fields in order (those marked
    `kw_only` by keyword only), each default or `default_factory` as declared, each field set
    through `object.__setattr__`, then `__post_init__` if the record has one."""
    names: dict[str, Any] = {"__set": object.__setattr__, "__factory": _FACTORY}
    params: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in every:
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: every field of a record is an argument")
        required = f.default is MISSING and f.default_factory is MISSING
        if required and not f.kw_only and any("=" in p for p in params):
            # dataclass's own words, where the exec below would raise a SyntaxError
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        value = f.name
        if f.default is not MISSING:
            names[f"__default_{f.name}"] = f.default
            param = f"{f.name}=__default_{f.name}"
        elif f.default_factory is not MISSING:
            names[f"__make_{f.name}"] = f.default_factory
            param = f"{f.name}=__factory"
            value = f"__make_{f.name}() if {f.name} is __factory else {f.name}"
        else:
            param = f.name
        (keywords if f.kw_only else params).append(param)
        body.append(f"    __set(self, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    signature = ", ".join(["self", *params, *(["*", *keywords] if keywords else [])])
    # Made inside a function taking `names`, and run in the record's module (as dataclass
    # makes its __init__): typing.get_type_hints reads the fields' types, text under
    # `from __future__ import annotations`, in the function's globals.
    text = "\n".join(f"    {line}" for line in body) or "        pass"
    made: dict[str, Any] = {}
    module = sys.modules.get(cls.__module__)
    exec(
        f"def __make({', '.join(names)}):\n"
        f"  def __init__({signature}) -> None:\n{text}\n"
        "  return __init__",
        module.__dict__ if module is not None else {},
        made,
    )
    init: Callable[..., None] = made["__make"](**names)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    # What dataclass's __init__ declares, for inspect.signature and typing.get_type_hints.
    init.__annotations__ = {f.name: f.type for f in every} | {"return": None}
    return init


def _setattr(self: Any, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, name) for name in self._names]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self._names, state, strict=True):
        object.__setattr__(self, name, value)


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields `names` of a record as a tuple (what dataclass compares and hashes)."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda r: (one(r),)
    return attrgetter(*names)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._compared(self) == self._compared(other)


def _hash(self: Any) -> int:
    return hash(self._hashed(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
    return f"{self.__class__.__qualname__}({shown})"


def _lt(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._compared(self) < self._compared(other)


def _le(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._compared(self) <= self._compared(other)


def _gt(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._compared(self) > self._compared(other)


def _ge(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._compared(self) >= self._compared(other)
