"""The check-function registry: filled by `@check_function` from the modules listed in FUNCTION_MODULES."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from mcp_lint.check.functions import FUNCTION_MODULES, FUNCTIONS, CheckContext, Hit, check_function
from mcp_lint.check.rules import load_catalogue


def test_every_rule_names_a_registered_function_and_every_function_serves_a_rule() -> None:
    used = {rule.function for rule in load_catalogue().rules}
    assert used == set(FUNCTIONS)


def test_each_function_is_registered_under_its_own_name_from_a_listed_module() -> None:
    modules = {f"mcp_lint.check.functions.{name}" for name in FUNCTION_MODULES}
    for name, function in FUNCTIONS.items():
        assert function.__module__ in modules, name
        module = importlib.import_module(function.__module__)
        assert getattr(module, function.__name__) is function


def test_a_name_registered_twice_is_refused() -> None:
    taken = next(iter(FUNCTIONS))
    original = FUNCTIONS[taken]

    def impostor(ctx: CheckContext) -> Iterator[Hit]:
        yield from ()

    with pytest.raises(ValueError, match=f"check function '{taken}' is registered twice"):
        check_function(taken)(impostor)
    assert FUNCTIONS[taken] is original
