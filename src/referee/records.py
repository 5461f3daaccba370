"""Records: the frozen values every layer is made of (events, states, rules, sessions).

`@record` is `@dataclass(frozen=True, slots=True)` (with `order` and `kw_only` as dataclass
takes them) whose equality, hash, order and repr are the functions below, shared by every
record, where dataclass compiles each of them anew for every class. They behave as
dataclass's do: equal when of the same class with equal compared fields, hashed by those
fields, ordered by them as a tuple, shown as `Name(field=value, ...)`.

Why: a dataclass compiles its methods from source text when its module is imported, about
0.1 ms a method, and a command imports some thirty records before it does anything (an
action's whole work at 1,000 events takes about as long as compiling them did). The
`__init__` and the frozen `__setattr__` are still dataclass's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
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
        # eq=False and repr=False: dataclass compiles neither (nor a hash, nor an order).
        made = dataclass(frozen=True, slots=True, eq=False, repr=False, kw_only=kw_only)(cls)
        every = fields(made)  # type: ignore[arg-type]  # a dataclass now
        compared = [f.name for f in every if f.compare]
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        made._compared = staticmethod(_getter(compared))  # type: ignore[attr-defined]
        made._hashed = staticmethod(_getter(hashed))  # type: ignore[attr-defined]
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
