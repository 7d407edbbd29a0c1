"""What several schema rules share: how they name a parameter's path and tell an identifier from a word,
and where in a tool's entry a parameter's schema is (for the fixes they carry)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcp_lint.model import Tool

CAMEL = re.compile(r"[a-z][A-Z]")


def prop_path(name: str) -> str:
    return f"inputSchema.properties.{name}"


def identifier_shaped(name: str) -> bool:
    """snake_case or camelCase: a spelling only code uses (not `Title`, `THREE` or `incomplete`)."""
    return ("_" in name.strip("_") and not name.isupper()) or CAMEL.search(name) is not None


def schema_pointer(tool: Tool, path: str, prop: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The keys leading from the tool's entry to `prop`, when its JSON path (`inputSchema.properties.x`)
    reaches that very object in the tool's own schema (not through a `$ref` or a name with a dot)."""
    pointer = tuple(path.split("."))
    node: Any = tool.raw
    for key in pointer:
        node = node.get(key) if isinstance(node, Mapping) else None
    return pointer if node is prop else None
