"""The one name for a JSON value's type that the reflect, check and registry messages use."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_lint.json_types import a_json_type, json_type


@pytest.mark.parametrize(
    ("value", "kind", "spoken"),
    [
        (None, "null", "null"),
        (True, "boolean", "a boolean"),
        (3, "number", "a number"),
        (2.5, "number", "a number"),
        ("x", "string", "a string"),
        ([1], "array", "an array"),
        ({"a": 1}, "object", "an object"),
    ],
)
def test_every_json_type_is_named(value: Any, kind: str, spoken: str) -> None:
    assert json_type(value) == kind
    assert a_json_type(value) == spoken
