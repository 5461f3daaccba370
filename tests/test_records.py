"""A record behaves as the frozen dataclass it replaces: equality, hash, order, repr, frozen."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.records import record


@record(order=True)
class Pair:
    low: int
    high: int = 0
    note: str = dataclasses.field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Plain:
    low: int
    high: int = 0
    note: str = dataclasses.field(default="", compare=False, repr=False)


@record
class Empty:
    pass


@record
class One:
    only: tuple[int, ...]


@record(kw_only=True)
class Named:
    a: int
    b: str = "b"


VALUES = st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.sampled_from(["", "x"]))


@given(VALUES, VALUES)
def test_a_record_compares_and_orders_as_the_dataclass_does(x: Any, y: Any) -> None:
    mine, theirs = (Pair(*x), Pair(*y)), (Plain(*x), Plain(*y))
    checks: list[Any] = [
        lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b, lambda a, b: a <= b,
        lambda a, b: a > b, lambda a, b: a >= b,
    ]  # fmt: skip
    for check in checks:
        assert check(*mine) == check(*theirs)
    if mine[0] == mine[1]:
        assert hash(mine[0]) == hash(mine[1])  # `note` is not compared, so not hashed
    assert repr(mine[0]) == repr(theirs[0]).replace("Plain", "Pair")


def test_a_record_is_frozen_slotted_and_a_dataclass() -> None:
    pair = Pair(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.low = 3  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):  # TypeError: a frozen slotted dataclass's
        pair.other = 1  # type: ignore[attr-defined]  # own __setattr__ in Python 3.11
    assert dataclasses.replace(pair, high=5) == Pair(1, 5)
    assert [f.name for f in dataclasses.fields(pair)] == ["low", "high", "note"]
    assert Pair.__match_args__ == ("low", "high", "note")
    other: Any = Plain(1, 2)
    values: Any = (1, 2)
    assert Pair(1, 2) != other and Pair(1, 2) != values  # another class is never equal
    with pytest.raises(TypeError):
        _ = Pair(1, 2) < other


def test_records_of_no_field_one_field_and_keywords_only() -> None:
    assert Empty() == Empty() and hash(Empty()) == hash(Empty()) and repr(Empty()) == "Empty()"
    assert One((1, 2)) == One((1, 2)) != One((2,)) and {One((1,)), One((1,))} == {One((1,))}
    assert repr(One((1,))) == "One(only=(1,))"
    assert Named(a=1) == Named(a=1, b="b") and repr(Named(a=1)) == "Named(a=1, b='b')"
    with pytest.raises(TypeError):
        Named(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        hash(One([1]))  # type: ignore[arg-type]  # an unhashable field, as dataclass says


@record
class Made:
    a: int
    b: tuple[int, ...] = (1,)
    c: list[int] = dataclasses.field(default_factory=list)
    d: str = dataclasses.field(default="d", kw_only=True)
    e: int = dataclasses.field(default=0, kw_only=True)

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must not be negative")


@dataclasses.dataclass(frozen=True, slots=True)
class Twin:
    a: int
    b: tuple[int, ...] = (1,)
    c: list[int] = dataclasses.field(default_factory=list)
    d: str = dataclasses.field(default="d", kw_only=True)
    e: int = dataclasses.field(default=0, kw_only=True)


def test_a_records_init_takes_the_arguments_a_dataclasss_takes() -> None:
    import inspect

    def shape(cls: type) -> list[tuple[str, Any, str]]:
        params = inspect.signature(cls).parameters.values()
        return [(p.name, p.kind, repr(p.default)) for p in params]  # a factory: '<factory>'

    for cls, twin in ((Made, Twin), (Pair, Plain)):
        assert shape(cls) == shape(twin)
    made = Made(1, d="x")
    assert (made.a, made.b, made.c, made.d, made.e) == (1, (1,), [], "x", 0)
    assert Made(1).c is not Made(1).c  # a factory makes each default anew
    assert Made(2, (3,), [4], e=5) == Made(2, (3,), [4], d="d", e=5)
    with pytest.raises(ValueError, match="negative"):
        Made(-1)  # __post_init__ runs
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.a


@record
class Child(Pair):
    extra: int = 5


@pytest.mark.parametrize("value", [Pair(1, 2, "n"), Child(1, 2, "n", 7), One((1, 2)), Empty()])
def test_copy_deepcopy_and_pickle_give_an_equal_record(value: Any) -> None:
    import copy
    import pickle

    for again in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert again == value and again is not value
        assert repr(again) == repr(value)


def test_the_init_declares_what_dataclass_declares() -> None:
    import inspect

    assert inspect.signature(Pair) == inspect.signature(Plain)
    assert Pair.__init__.__annotations__ == Plain.__init__.__annotations__


@record
class Typed:
    data: Any
    pair: Pair | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TypedTwin:
    data: Any
    pair: Pair | None = None


def test_the_inits_field_types_resolve_in_the_records_module() -> None:
    import typing

    # Under `from __future__ import annotations` each type is text, read in the __init__'s
    # globals: the record's module, as dataclass's __init__ reads it.
    assert typing.get_type_hints(Typed.__init__) == typing.get_type_hints(TypedTwin.__init__)


def test_a_field_without_a_default_after_one_with_is_refused_as_dataclass_refuses_it() -> None:
    def declare(make: Any) -> None:
        @make
        class Late:
            a: int = 0
            b: int

    with pytest.raises(TypeError) as theirs:
        declare(dataclasses.dataclass(frozen=True, slots=True))
    with pytest.raises(TypeError) as ours:
        declare(record)
    assert (
        str(ours.value) == str(theirs.value) == "non-default argument 'b' follows default argument"
    )

    @record
    class Keyword:  # a keyword-only field may come after a default
        a: int = 0
        b: int = dataclasses.field(kw_only=True)

    assert Keyword(b=1) == Keyword(0, b=1)
