"""MCP206 invalid-default: a default that is not of its type or not one of its enum values."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.schema_walk import property_variants, resolve_local_ref, walk_parameters


def _allowed_types(root: Any, prop: Mapping[str, Any]) -> set[str] | None:
    """Every JSON type a value of `prop` may have; None when some branch leaves the type open."""
    found: set[str] = set()
    variants = property_variants(root, prop)
    branches = [v for v in variants if v is not prop and "$ref" not in v] or variants
    if any(key in prop for key in ("anyOf", "oneOf")):
        branches = [v for v in variants if v is not prop]
    for variant in branches:
        kind = variant.get("type")
        if isinstance(kind, str):
            found.add(kind)
        elif isinstance(kind, list) and all(isinstance(item, str) for item in kind):
            found.update(kind)
        elif "const" in variant or "enum" in variant:
            continue
        elif "$ref" in variant and resolve_local_ref(root, variant) is not variant:
            continue  # its target is one of the variants too
        else:
            return None
    return found or None


def _fits(value: Any, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return not isinstance(value, bool) and (
            isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        )
    if kind == "number":
        return not isinstance(value, bool) and isinstance(value, (int, float))
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, Mapping)
    return True  # a type this check does not know: give it the benefit of the doubt


# A null default on a type without null, this many times in one server or more, is the pattern of a
# framework (a Python `x: str = None` turned into `"type": "string", "default": null`): one finding
# for the server, with the count and the one fix, rather than hundreds of copies of it.
FRAMEWORK_PATTERN_MIN = 2
_SHOWN_PLACES = 3


@check_function("invalid_default")
def invalid_default(ctx: CheckContext) -> Iterator[Hit]:
    found = [item for tool in ctx.server.tools for item in _tool_hits(tool.name, tool.input_schema)]
    null_defaults = [hit for hit, null_on_type in found if null_on_type]
    if len(null_defaults) < FRAMEWORK_PATTERN_MIN:
        yield from (hit for hit, _ in found)
        return
    yield from (hit for hit, null_on_type in found if not null_on_type)
    tools = {hit.tool for hit in null_defaults}
    plural = "s" if len(tools) > 1 else ""
    places = ", ".join(f"{hit.tool}.{hit.subject}" for hit in null_defaults[:_SHOWN_PLACES])
    more = len(null_defaults) - _SHOWN_PLACES
    yield Hit(
        tool=None,
        subject="null-default-on-non-nullable-type",
        fields={
            "what": f"A null default on {len(null_defaults)} parameters in {len(tools)} tool{plural}",
            "reason": "whose types do not allow null (the pattern of a framework)",
        },
        evidence=f"{places}" + (f" and {more} more" if more > 0 else ""),
        path=None,
        suggestion=(
            'Make these types nullable ("type": ["string", "null"], or "anyOf" with {"type": "null"}), '
            'or drop "default": null; in Python, annotate `x: str | None = None`.'
        ),
    )


def _tool_hits(tool: str, root: Any) -> Iterator[tuple[Hit, bool]]:
    """Each invalid default of the tool, and whether it is a null default on a type without null."""
    for name, path, prop in walk_parameters(root):
        if "default" not in prop:
            continue
        default = prop["default"]
        shown = trim(json.dumps(default), 40)
        types = _allowed_types(root, prop)
        enum = prop.get("enum")
        if types is not None and not any(_fits(default, kind) for kind in types):
            expected = " or ".join(sorted(types))
            if default is None:
                nullable = json.dumps([*sorted(types), "null"])
                fix = f'Remove "default": null, or allow null: "type": {nullable}.'
            else:
                fix = f"Give `{name}` a default of type {expected}, or remove it."
            hit = Hit(
                tool=tool,
                subject=name,
                fields={
                    "what": f"Default of `{name}` ({shown})",
                    "reason": f"is not of its type ({expected})",
                },
                evidence=f"{path}: type {expected}, default {shown}",
                path=f"{path}.default",
                suggestion=fix,
            )
            yield hit, default is None
        elif isinstance(enum, list) and enum and default not in enum:
            hit = Hit(
                tool=tool,
                subject=name,
                fields={"what": f"Default of `{name}` ({shown})", "reason": "is not one of its enum values"},
                evidence=trim(f"{path}: enum {json.dumps(enum)}, default {shown}"),
                path=f"{path}.default",
                suggestion=f"Make the default one of {trim(json.dumps(enum), 60)}, or remove it.",
            )
            yield hit, False
