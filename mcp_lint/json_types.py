"""The name of a parsed JSON value's type, for messages that say what was found instead."""

from __future__ import annotations

from typing import Any


def json_type(value: Any) -> str:
    """ "null", "boolean", "number" (an integer too), "string", "array" or "object"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def a_json_type(value: Any) -> str:
    """`json_type` with its article, as a sentence says it: "a string", "an array", "null"."""
    kind = json_type(value)
    if kind == "null":
        return kind
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
