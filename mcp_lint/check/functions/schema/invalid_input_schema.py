"""MCP201 invalid-input-schema: an input schema that is missing, not an object, or invalid."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._metaschema import metaschema_error
from mcp_lint.check.functions._util import trim
from mcp_lint.json_types import json_type
from mcp_lint.model import Tool


def schema_problems(tool: Tool) -> list[tuple[str, str]]:
    """(path, problem) pairs that make the tool's input schema invalid; shared with MCP003."""
    schema = tool.input_schema
    if schema is None:
        return [("inputSchema", "inputSchema is missing")]
    if not isinstance(schema, Mapping):
        return [("inputSchema", f"inputSchema is a JSON {json_type(schema)}, not an object")]
    problems: list[tuple[str, str]] = []
    kind = schema.get("type")
    if kind != "object":
        shown = "missing" if kind is None else repr(kind)
        problems.append(("inputSchema.type", f'"type" must be "object", found {shown}'))
    props = schema.get("properties")
    if props is not None and not isinstance(props, Mapping):
        problems.append(("inputSchema.properties", '"properties" must be an object'))
    names = schema.get("required")
    if isinstance(names, list) and isinstance(props, Mapping) and not schema.get("additionalProperties"):
        for index, name in enumerate(names):
            if isinstance(name, str) and name not in props:
                problems.append(
                    (f"inputSchema.required[{index}]", f'"required" names {name!r}, which is not a property')
                )
    error = metaschema_error(schema)
    if error is not None:
        where, message = error
        problems.append((f"inputSchema{where}", trim(message)))
    return problems


@check_function("invalid_input_schema")
def invalid_input_schema(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        for path, problem in schema_problems(tool):
            yield Hit(tool=tool.name, fields={"problem": problem}, evidence=path, path=path)
