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


@check_function("invalid_default")
def invalid_default(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
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
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={
                        "parameter": name,
                        "default": shown,
                        "reason": f"is not of its type ({expected})",
                    },
                    evidence=f"{path}: type {expected}, default {shown}",
                    path=f"{path}.default",
                    suggestion=fix,
                )
            elif isinstance(enum, list) and enum and default not in enum:
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "default": shown, "reason": "is not one of its enum values"},
                    evidence=trim(f"{path}: enum {json.dumps(enum)}, default {shown}"),
                    path=f"{path}.default",
                    suggestion=f"Make the default one of {trim(json.dumps(enum), 60)}, or remove it.",
                )
