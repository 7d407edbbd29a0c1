"""The parameter walkers end on recursive schemas, whatever keyword leads back to an ancestor."""

from __future__ import annotations

from typing import Any

from mcp_lint.check.functions.schema import MAX_WALKED, walk_parameters
from mcp_lint.fix.grounding import schema_parameters
from mcp_lint.model import Tool

# The shape of a real chart server's treemap tool: `children.items.$ref` points back at its own node.
TREEMAP: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "value": {"type": "number"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
        }
    },
    "properties": {"data": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
}


def test_items_ref_back_to_an_ancestor_is_walked_once() -> None:
    paths = [path for _, path, _ in walk_parameters(TREEMAP)]
    assert paths == [
        "inputSchema.properties.data",
        "inputSchema.properties.data.items.properties.name",
        "inputSchema.properties.data.items.properties.value",
        "inputSchema.properties.data.items.properties.children",
    ]


def test_cycles_through_branches_and_nested_objects_end() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "$defs": {
            "A": {
                "type": "object",
                "properties": {
                    "b": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]},
                    "self": {"type": "object", "properties": {"again": {"$ref": "#/$defs/A"}}},
                },
            },
            "B": {"type": "object", "properties": {"a": {"allOf": [{"$ref": "#/$defs/A"}]}}},
        },
        "properties": {"root": {"$ref": "#/$defs/A"}},
    }
    names = [name for name, _, _ in walk_parameters(schema)]
    # root -> A.b -> B.a -> (A again: stop); A.self -> again -> (A again: stop)
    assert names == ["root", "b", "self", "a", "again"]


def test_definitions_shared_many_ways_stop_at_the_cap() -> None:
    # Each level refers to the next one twice: 2**30 paths if every one were walked.
    defs: dict[str, Any] = {
        f"L{level}": {
            "type": "object",
            "properties": {
                "left": {"$ref": f"#/$defs/L{level + 1}"},
                "right": {"$ref": f"#/$defs/L{level + 1}"},
            },
        }
        for level in range(30)
    }
    defs["L30"] = {"type": "string"}
    schema = {"type": "object", "$defs": defs, "properties": {"top": {"$ref": "#/$defs/L0"}}}
    assert sum(1 for _ in walk_parameters(schema)) == MAX_WALKED


def test_grounding_parameters_end_on_the_treemap() -> None:
    raw = {"name": "generate_treemap_chart", "description": "Treemap.", "inputSchema": TREEMAP}
    tool = Tool(name="generate_treemap_chart", raw=raw)
    paths = [parameter.path for parameter in schema_parameters(tool)]
    assert paths == ["data", "data[].name", "data[].value", "data[].children"]
