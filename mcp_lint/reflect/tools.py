"""Turn raw `tools/list` entries into Tool records, noting what the SDK itself would refuse."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import mcp_types
from mcp.shared.inbound import find_invalid_x_mcp_header
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from mcp_lint.model import Tool


def _first_error(error: ValidationError) -> str:
    details = error.errors(include_url=False)
    if not details:
        return str(error)
    first = details[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "(tool)"
    return f"{where}: {first.get('msg', 'invalid')}"


def sdk_rejection(raw: Any, protocol_version: str | None) -> str | None:
    """Why the MCP SDK's client would raise on, or silently drop, this tool; None if it accepts it."""
    if not isinstance(raw, Mapping):
        return "the tool is not a JSON object"
    try:
        mcp_types.Tool.model_validate(raw, by_name=False)
    except ValidationError as error:
        return f"the MCP SDK rejects this tool ({_first_error(error)}), so its whole tools/list page fails"
    if protocol_version is None or protocol_version in MODERN_PROTOCOL_VERSIONS:
        # 2026-07-28 clients MUST drop such tools without a word; saved snapshots are judged by that rule too.
        reason = find_invalid_x_mcp_header(raw.get("inputSchema"))
        if reason is not None:
            return f"2026-07-28 clients silently drop this tool: invalid x-mcp-header ({reason})"
    return None


def build_tools(
    raw_tools: Sequence[Any], protocol_version: str | None, origin: str | None
) -> tuple[Tool, ...]:
    tools: list[Tool] = []
    for index, raw in enumerate(raw_tools):
        if isinstance(raw, Mapping):
            name = raw.get("name")
            label = name if isinstance(name, str) else f"<tool #{index + 1}>"
            tools.append(Tool(name=label, raw=raw, sdk_rejection=sdk_rejection(raw, protocol_version)))
        else:
            tools.append(Tool(name=f"<tool #{index + 1}>", raw={}, sdk_rejection=sdk_rejection(raw, None)))
    return tuple(tools)
