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


def test_each_protocol_version_gets_the_models_the_sdk_client_uses() -> None:
    """reflect/tools.py imports one schema era's models instead of `mcp_types.methods` (every era):
    the table it keeps must give the SDK's own model for every version the SDK knows."""
    from mcp_types.methods import SERVER_RESULTS

    from mcp_lint.reflect.tools import DEFAULT_VERSION, listing_model

    versions = [version for method, version in SERVER_RESULTS if method == "tools/list"]
    assert versions, "the SDK lists no tools/list version"
    for version in versions:
        assert listing_model(version) is SERVER_RESULTS[("tools/list", version)], version
    assert listing_model("1999-01-01") is SERVER_RESULTS[("tools/list", DEFAULT_VERSION)]
