"""MCP201 invalid-input-schema: an input schema that is missing, not an object, or invalid."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._metaschema import metaschema_error
from mcp_lint.check.functions._util import trim
from mcp_lint.json_types import json_type
from mcp_lint.model import Tool
from mcp_lint.schema_walk import walk_parameters


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
    drafted = _draft_03_required(schema)
    problems.extend(drafted)
    error = metaschema_error(schema)
    if error is not None:
        where, message = error
        if f"inputSchema{where}" not in {path for path, _ in drafted}:
            problems.append((f"inputSchema{where}", trim(message)))
    return problems


def _draft_03_required(schema: Mapping[str, Any]) -> list[tuple[str, str]]:
    """`"required": true` inside a property: draft-03's way, read by no validator a client uses today.

    Since draft-04 `required` is the parent object's array of names; a boolean there is a schema error
    in draft-04 and later, and even under a declared draft-03 `$schema` the clients validate with a
    newer draft, so the parameter is optional to everyone but the author.
    """
    found = []
    for name, path, prop in walk_parameters(schema):
        flag = prop.get("required")
        if isinstance(flag, bool):
            parent = path.rsplit(".properties.", 1)[0]
            advice = (
                f'list "{name}" in the "required" array of {parent}' if flag else 'remove "required": false'
            )
            found.append(
                (
                    f"{path}.required",
                    f'"required": {str(flag).lower()} inside the property `{name}` is draft-03 syntax that '
                    f"current validators ignore; {advice}",
                )
            )
    return found


@check_function("invalid_input_schema")
def invalid_input_schema(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        for path, problem in schema_problems(tool):
            yield Hit(tool=tool.name, fields={"problem": problem}, evidence=path, path=path)
