"""The parameter walkers end on recursive schemas, whatever keyword leads back to an ancestor."""

from __future__ import annotations

from typing import Any

from mcp_lint.fix.grounding import schema_parameters
from mcp_lint.model import Tool
from mcp_lint.schema_walk import MAX_WALKED, value_schemas, walk_parameters, walk_schema

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


# An array of arrays of objects (a grid of cells); the inner object is reached through two `items`.
GRID: dict[str, Any] = {
    "type": "object",
    "properties": {
        "rows": {
            "type": "array",
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"width": {"type": "integer"}}},
            },
        }
    },
}


def test_arrays_of_arrays_are_walked_through() -> None:
    paths = [path for _, path, _ in walk_parameters(GRID)]
    assert paths == [
        "inputSchema.properties.rows",
        "inputSchema.properties.rows.items.items.properties.width",
    ]


def test_grounding_parameters_go_through_arrays_of_arrays() -> None:
    tool = Tool(name="fill_grid", raw={"name": "fill_grid", "description": "Grid.", "inputSchema": GRID})
    assert [parameter.path for parameter in schema_parameters(tool)] == ["rows", "rows[][].width"]
    assert schema_parameters(tool)[0].fields == ("width",)


def test_recursive_items_without_objects_end() -> None:
    # `items` leading back to the array itself: no object anywhere, and nothing to walk below it.
    schema: dict[str, Any] = {
        "type": "object",
        "$defs": {"Nested": {"type": "array", "items": {"$ref": "#/$defs/Nested"}}},
        "properties": {"nested": {"$ref": "#/$defs/Nested"}},
    }
    assert [name for name, _, _ in walk_parameters(schema)] == ["nested"]
    assert len(value_schemas(schema, schema["properties"]["nested"])) == 4
    tool = Tool(name="t", raw={"name": "t", "description": "T.", "inputSchema": schema})
    assert [parameter.path for parameter in schema_parameters(tool)] == ["nested"]


def test_depth_first_walk_puts_nested_parameters_after_their_parent() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"a1": {"type": "string"}}},
            "b": {"type": "string"},
        },
    }
    assert [item.name for item in walk_schema(schema)] == ["a", "b", "a1"]
    assert [item.name for item in walk_schema(schema, depth_first=True)] == ["a", "a1", "b"]


def test_distinct_walks_a_name_declared_by_two_branches_once() -> None:
    # `Optional[A | B]` where both models have an `id`: the first branch's `id` is the one walked.
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "target": {
                "anyOf": [
                    {"type": "object", "properties": {"id": {"type": "string"}}},
                    {"type": "object", "properties": {"id": {"type": "integer"}, "kind": {"type": "string"}}},
                ]
            }
        },
    }
    every = [(item.name, item.schema.get("type")) for item in walk_schema(schema)]
    assert every == [("target", None), ("id", "string"), ("id", "integer"), ("kind", "string")]
    distinct = [(item.name, item.schema.get("type")) for item in walk_schema(schema, distinct=True)]
    assert distinct == [("target", None), ("id", "string"), ("kind", "string")]
