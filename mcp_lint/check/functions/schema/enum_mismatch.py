"""MCP210 enum-mismatch: the prose lists the allowed values, and the schema's `enum` disagrees."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._prose import (
    StatedList,
    is_top_level,
    other_values,
    parameter_prose,
    same_value,
    stated_lists,
)
from mcp_lint.schema_walk import property_variants, walk_parameters


def _enum(root: Any, prop: Mapping[str, Any]) -> list[str] | None:
    for variant in property_variants(root, prop):
        values = variant.get("enum")
        if isinstance(values, list) and values and all(isinstance(value, str) for value in values):
            return values
    return None


def _in(value: str, values: list[str]) -> bool:
    return any(same_value(value, other) for other in values)


def _about_this_parameter(stated: StatedList, enum: list[str]) -> bool:
    """At least half of the listed values are this enum's: the list is about its values.

    A list that shares less with the enum is about something else (the kinds of another argument,
    the fields of the result), and says nothing about this parameter's values.
    """
    known = sum(_in(item, enum) for item in stated.items)
    return known >= 1 and 2 * known >= len(stated.items)


def _shown(values: list[str]) -> str:
    return ", ".join(f"`{value}`" for value in values)


@check_function("enum_mismatch")
def enum_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, path, prop in walk_parameters(root):
            enum = _enum(root, prop)
            if enum is None:
                continue
            text = parameter_prose(tool, name, prop, top_level=is_top_level(tool, name, path))
            if not text:
                continue
            others = [value for value in other_values(tool, path) if not _in(value, enum)]
            for stated in stated_lists(text):
                if not _about_this_parameter(stated, enum) or any(_in(item, others) for item in stated.items):
                    continue  # "use either `path` or `url`": the names of parameters, not values
                unknown = [item for item in stated.items if not _in(item, enum)]
                if unknown:
                    problem = f"lists {_shown(unknown)} as allowed, which its enum does not have"
                    suggestion = (
                        f"Add {_shown(unknown)} to the enum of `{name}` if the server accepts them, "
                        "or correct the description."
                    )
                else:
                    missing = [value for value in enum if not _in(value, list(stated.items))]
                    if not missing or not stated.cue.lower().startswith(("one of", "must be", "either")):
                        continue
                    listed = _shown(list(stated.items))
                    problem = f"allows only {listed}, but its enum also has {_shown(missing)}"
                    suggestion = f"List every enum value of `{name}` in its description, or drop stale ones."
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "problem": problem},
                    evidence=f"{path}: enum {trim(json.dumps(enum), 60)}; prose: "
                    + trim(text[stated.span[0] : stated.span[1]], 60),
                    path=f"{path}.enum",
                    suggestion=suggestion,
                )
                break
