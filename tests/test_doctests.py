"""Examples in docstrings are documentation that runs."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import referee

MODULES = [
    m.name for m in pkgutil.walk_packages(referee.__path__, "referee.") if "__main__" not in m.name
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
