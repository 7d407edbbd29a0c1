"""The x-mcp-header verdict is the SDK's, asked only for schemas that carry the annotation somewhere."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.shared.inbound import find_invalid_x_mcp_header

from mcp_lint.reflect.tools import sdk_rejection

MODERN = "2026-07-28"

SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"q": {"type": "string"}}},
    {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
    {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "bad header"}}},
    {"type": "object", "properties": {"n": {"type": "object", "x-mcp-header": "N"}}},
    {"type": "object", "anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]},
    {"type": "object", "properties": {"a": {"type": "array", "items": {"x-mcp-header": "A"}}}},
    {"type": "object", "properties": {"a": {"type": "string", "default": {"x-mcp-header": "?? x"}}}},
    {
        "type": "object",
        "properties": {
            "a": {"type": "string", "x-mcp-header": "Tenant"},
            "b": {"type": "string", "x-mcp-header": "tenant"},
        },
    },
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_modern_rejection_matches_the_sdk_validator(schema: dict[str, Any]) -> None:
    reason = find_invalid_x_mcp_header(schema)
    rejection = sdk_rejection({"name": "t", "inputSchema": schema}, MODERN)
    if reason is None:
        assert rejection is None
    else:
        assert rejection == f"2026-07-28 clients silently drop it for an invalid x-mcp-header ({reason})"


def test_the_schemas_cover_both_verdicts() -> None:
    verdicts = [find_invalid_x_mcp_header(schema) is None for schema in SCHEMAS]
    assert verdicts.count(True) >= 3 and verdicts.count(False) >= 3
