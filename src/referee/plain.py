"""Frozen dataclasses to plain JSON values and back, typed by the dataclasses' own fields.

The replay cache keeps game states as JSON, a format that cannot run code, and rebuilds them
only as the types the game declares: a value of any other shape is refused with `PlainError`
(the cache then replays). Supported field types are what game states are made of: `int`,
`str`, `bool`, `None`, enums, frozen dataclasses, NamedTuples, `tuple[X, ...]`, fixed tuples,
and unions.

>>> from referee.notation.dice import Roll
>>> to_plain(Roll(4, 5))
['Roll', 4, 5]
>>> from_plain(Roll, ['Roll', 4, 5])
Roll(low=4, high=5)
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from typing import Any, TypeVar

from referee.errors import RefereeError

T = TypeVar("T")


class PlainError(ValueError):
    """A plain value that does not have the shape its type asks for."""


def to_plain(value: object) -> Any:
    """`value` as JSON-ready lists, strings, numbers, booleans and nulls.

    A record (a dataclass or a NamedTuple) is a list headed by its class's name, so a union
    of records is rebuilt as the right one.
    """
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, int):
        return value
    kind: type = type(value)
    if _is_record(kind):
        names = _field_names(kind)
        return [kind.__name__, *(to_plain(getattr(value, n)) for n in names)]
    if isinstance(value, tuple):
        return [to_plain(v) for v in value]
    raise PlainError(f"cannot keep a {type(value).__name__} as plain data")


def _is_record(kind: object) -> bool:
    return isinstance(kind, type) and (
        dataclasses.is_dataclass(kind) or (issubclass(kind, tuple) and hasattr(kind, "_fields"))
    )


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    if dataclasses.is_dataclass(kind):
        return tuple(f.name for f in dataclasses.fields(kind))
    return tuple(kind._fields)  # type: ignore[attr-defined]


def from_plain(kind: type[T], data: object) -> T:
    """A value of type `kind` rebuilt from `to_plain`'s output; `PlainError` if it does not fit."""
    value: T = _decode(kind, data)
    return value


def _decode(kind: Any, data: object) -> Any:
    origin = typing.get_origin(kind)
    if kind is type(None) or kind is None:
        if data is not None:
            raise PlainError("expected null")
        return None
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(kind):
            try:
                return _decode(option, data)
            except PlainError:
                continue
        raise PlainError(f"no type of {kind} fits {data!r:.40}")
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(data, list):
            raise PlainError("expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in data)
        if len(args) != len(data):
            raise PlainError("a fixed tuple of the wrong length")
        return tuple(_decode(a, item) for a, item in zip(args, data, strict=True))
    if kind is bool:
        if not isinstance(data, bool):
            raise PlainError("expected true or false")
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise PlainError("expected a whole number")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise PlainError("expected a string")
        return data
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError:
            raise PlainError(f"not a {kind.__name__}: {data!r:.40}") from None
    if _is_record(kind):
        fields = _fields(kind)
        if (
            not isinstance(data, list)
            or data[:1] != [kind.__name__]
            or len(data) != len(fields) + 1
        ):
            raise PlainError(f"expected a {kind.__name__} of {len(fields)} fields")
        try:
            return kind(*(_decode(t, item) for t, item in zip(fields, data[1:], strict=True)))
        except PlainError:
            raise
        except (TypeError, ValueError, RefereeError) as error:  # a value the class refuses
            raise PlainError(f"not a {kind.__name__}: {error}") from None
    raise PlainError(f"cannot rebuild a {kind!r}")


@functools.cache
def _fields(kind: type) -> tuple[Any, ...]:
    hints = typing.get_type_hints(kind)
    return tuple(hints[name] for name in _field_names(kind))
