"""What several schema rules share: how they name a parameter's path and read its description."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcp_lint.model import Tool
from mcp_lint.schema_walk import property_variants

CAMEL = re.compile(r"[a-z][A-Z]")


def prop_path(name: str) -> str:
    return f"inputSchema.properties.{name}"


def identifier_shaped(name: str) -> bool:
    """snake_case or camelCase: a spelling only code uses (not `Title`, `THREE` or `incomplete`)."""
    return ("_" in name.strip("_") and not name.isupper()) or CAMEL.search(name) is not None


def param_texts(tool: Tool, name: str, prop: Mapping[str, Any]) -> str:
    """The descriptions of a parameter and of what it wraps (its `$ref`, its branches), joined."""
    texts = [
        v["description"]
        for v in property_variants(tool.input_schema, prop)
        if isinstance(v.get("description"), str)
    ]
    return " ".join(texts)
