"""Budget rules (MCP6xx): what the whole tools/list costs an agent on every turn."""

from __future__ import annotations

import json
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.tokens import estimate_tokens
from mcp_lint.model import Tool

# One encoder for every schema; no circular-reference bookkeeping: schemas come from parsed JSON.
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=str, check_circular=False)


def tool_tokens(tool: Tool) -> int:
    """What one tool adds to the model's context: name, title, description and input schema."""
    schema = tool.input_schema
    # Compact separators: clients send schemas to the model compactly, so this is closer to the real cost.
    schema_text = _COMPACT.encode(schema) if schema else ""
    return (
        estimate_tokens(tool.name)
        + estimate_tokens(tool.title or "")
        + estimate_tokens(tool.description)
        + estimate_tokens(schema_text)
    )


@check_function("context_budget")
def context_budget(ctx: CheckContext) -> Iterator[Hit]:
    limit = int(ctx.options.get("max-tokens", 20000))
    costs = [(tool_tokens(tool), tool.name) for tool in ctx.server.tools]
    total = sum(cost for cost, _ in costs)
    if total <= limit:
        return
    largest = sorted(costs, key=lambda item: (-item[0], item[1]))[:3]
    yield Hit(
        tool=None,
        fields={"tokens": total, "max_tokens": limit, "count": len(costs)},
        evidence="largest: " + ", ".join(f"{name} (~{cost} tokens)" for cost, name in largest),
    )
