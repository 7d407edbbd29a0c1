"""The meta-schema check: its fast path accepts what pydantic emits, and agrees with jsonschema."""

from __future__ import annotations

from typing import Any

import jsonschema

from mcp_lint.check.functions._metaschema import _surely_valid, metaschema_error

# What pydantic writes for a model field: a `$ref` into `$defs`, the `$` included.
PYDANTIC: dict[str, Any] = {
    "type": "object",
    "$defs": {"Parent": {"type": "object", "properties": {"page_id": {"type": "string"}}}},
    "properties": {
        "parent": {"$ref": "#/$defs/Parent"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Parent"}},
        "maybe": {"anyOf": [{"$ref": "#/definitions/Parent"}, {"type": "null"}]},
    },
}


def test_refs_into_defs_take_the_fast_path() -> None:
    assert _surely_valid(PYDANTIC), "a $ref with `$defs` in it must not send the schema to jsonschema"
    assert metaschema_error(PYDANTIC) is None
    # The fast path only says "valid" where jsonschema agrees.
    jsonschema.Draft202012Validator.check_schema(PYDANTIC)


def test_a_ref_that_is_not_a_string_is_still_an_error() -> None:
    broken = {"type": "object", "properties": {"parent": {"$ref": 5}}}
    assert not _surely_valid(broken)
    error = metaschema_error(broken)
    assert error is not None and error[0] == ".properties.parent.$ref"
