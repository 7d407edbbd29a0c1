"""Turn raw `tools/list` entries into Tool records, noting what the SDK itself would refuse."""

from __future__ import annotations

import functools
import importlib
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ValidationError

from mcp_lint.json_types import json_type as _json_type
from mcp_lint.model import Tool

# What a client assumes when the version is unknown (a saved snapshot without protocolVersion).
DEFAULT_VERSION = "2025-11-25"
X_MCP_HEADER = "x-mcp-header"


def _first_error(error: ValidationError) -> str:
    details = error.errors(include_url=False)
    if not details:
        return str(error)
    first = details[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "(tool)"
    return f"{where}: {first.get('msg', 'invalid')}"


# The SDK validates each protocol version's traffic with the models of its schema era
# (`mcp_types.methods.SERVER_RESULTS`): 2025-11-25's for every version before 2026, 2026-07-28's for
# 2026. Importing `methods` builds every era's models (about 0.2 s on a quiet machine); a snapshot
# lint needs one. tests/reflect/test_tools.py holds this table to SERVER_RESULTS.
_ERA_MODULES = {
    "2024-11-05": "mcp_types._v2025_11_25",
    "2025-03-26": "mcp_types._v2025_11_25",
    "2025-06-18": "mcp_types._v2025_11_25",
    "2025-11-25": "mcp_types._v2025_11_25",
    "2026-07-28": "mcp_types._v2026_07_28",
}


@functools.lru_cache(maxsize=8)
def listing_model(protocol_version: str) -> type[BaseModel]:
    """The SDK client's model of a tools/list result at this protocol version (the default
    version's for one the SDK does not know)."""
    module = _ERA_MODULES.get(protocol_version) or _ERA_MODULES[DEFAULT_VERSION]
    return typing.cast(type[BaseModel], importlib.import_module(module).ListToolsResult)


@functools.lru_cache(maxsize=8)
def tool_model(protocol_version: str) -> type[BaseModel]:
    """The per-version Tool model the SDK client validates each listed tool against."""
    annotation = listing_model(protocol_version).model_fields["tools"].annotation
    return typing.cast(type[BaseModel], typing.get_args(annotation)[0])


def page_rejection(page: Mapping[str, Any], protocol_version: str | None) -> str | None:
    """Why the SDK client would refuse a whole tools/list page for reasons other than one tool."""
    try:
        listing_model(protocol_version or DEFAULT_VERSION).model_validate(page, by_name=False)
    except ValidationError as error:
        outside_tools = [
            item for item in error.errors(include_url=False) if item.get("loc", ("",))[0] != "tools"
        ]
        if outside_tools:
            first = outside_tools[0]
            where = ".".join(str(part) for part in first.get("loc", ())) or "(result)"
            return f"{where}: {first.get('msg', 'invalid')}"
    return None


def sdk_rejection(raw: Any, protocol_version: str | None) -> str | None:
    """Why the MCP SDK's client would raise on, or silently drop, this tool; None if it accepts it.

    Worded to follow "Clients cannot use this tool: " (the message of sdk-rejected-tool).
    """
    if not isinstance(raw, Mapping):
        return (
            f"it is a JSON {_json_type(raw)}, not an object, so the MCP SDK rejects the whole tools/list page"
        )
    if not isinstance(raw.get("name"), str):
        if "name" not in raw:
            return 'it has no "name", so the MCP SDK rejects the whole tools/list page'
        found = _json_type(raw["name"])
        return f'its "name" is a JSON {found}, not a string, so the MCP SDK rejects the whole tools/list page'
    try:
        tool_model(protocol_version or DEFAULT_VERSION).model_validate(raw, by_name=False)
    except ValidationError as error:
        return f"the MCP SDK rejects it ({_first_error(error)}), so the whole tools/list page fails"
    if protocol_version is None or protocol_version in MODERN_PROTOCOL_VERSIONS:
        # 2026-07-28 clients MUST drop such tools without a word; saved snapshots are judged by that rule too.
        reason = _invalid_x_mcp_header(raw.get("inputSchema"))
        if reason is not None:
            return f"2026-07-28 clients silently drop it for an invalid x-mcp-header ({reason})"
    return None


def _invalid_x_mcp_header(schema: Any) -> str | None:
    """The SDK's verdict on the schema's x-mcp-header annotations, asked only when it has any.

    The SDK's validator lives in the `mcp` package, whose `__init__` imports the whole client and
    server stack (about half a second): a saved snapshot without the annotation never pays for it.
    """
    if not _mentions(schema, X_MCP_HEADER):
        return None
    from mcp.shared.inbound import find_invalid_x_mcp_header

    return find_invalid_x_mcp_header(schema)


def _mentions(value: Any, key: str) -> bool:
    """Whether any object nested in `value` has `key` (a superset of the schema positions the SDK walks)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if key in node:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def build_tools(
    raw_tools: Sequence[Any], protocol_version: str | None, origin: str | None
) -> tuple[Tool, ...]:
    tools: list[Tool] = []
    for index, raw in enumerate(raw_tools):
        rejection = sdk_rejection(raw, protocol_version)
        name = raw.get("name") if isinstance(raw, Mapping) else None
        if isinstance(name, str):
            tools.append(Tool(name=name, raw=raw, sdk_rejection=rejection))
        else:
            # No name to call it by: a placeholder to report it under, which no rule takes for a name.
            tools.append(
                Tool(
                    name=f"<tool #{index + 1}>",
                    raw=raw if isinstance(raw, Mapping) else {},
                    sdk_rejection=rejection,
                    named=False,
                )
            )
    return tuple(tools)
