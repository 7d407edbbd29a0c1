"""MCP209 default-mismatch: the prose states one default, the schema's `default` another (or none).

Two strengths of evidence. The schema declares a value and the prose states a different one: a
contradiction, reported at the rule's severity. The schema declares no value where the prose states
one (a `null` default, an empty-string default for "defaults to null", a required parameter the prose
says defaults to something): the schema leaves out what the prose says, reported at low.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim
from mcp_lint.check.functions.schema._prose import (
    StatedDefault,
    default_disagrees,
    is_top_level,
    mentions_value,
    parameter_prose,
    stated_defaults,
    unit_defaults,
)
from mcp_lint.lazyre import lazy
from mcp_lint.model import Severity, Tool
from mcp_lint.schema_walk import property_variants, walk_parameters

_NULL_WORDS = frozenset({"null", "none", "nil"})
# A value the schema could have carried: a number, a boolean, a quoted string, or a token shaped like
# an identifier or a constant (`StateUpdate`, `ACCREC`, `mapbox/driving-traffic`), not a word of prose
# ("defaults to all schemas", "defaults to current").
_CONCRETE = lazy(r"-?[\d,]+(?:\.\d+)?|[A-Za-z][a-z0-9]*[A-Z_0-9/][\w/.-]*|[A-Z]{2,}[\w-]*")
_BOOLEAN = lazy(r"true|false", re.IGNORECASE)


def _concrete(stated: StatedDefault) -> bool:
    value = stated.value
    if stated.quoted:
        return bool(value) and value.lower() not in _NULL_WORDS
    return bool(_CONCRETE.fullmatch(value) or _BOOLEAN.fullmatch(value))


def _unstated_in_schema(
    stated: StatedDefault,
    prop: Mapping[str, Any],
    variants: list[Mapping[str, Any]],
    required: bool,
    others: frozenset[str],
) -> str | None:
    """What the schema carries instead of the prose's default, when it carries no value at all.

    An object or array parameter's prose states the defaults of its keys ("restore (default true)"),
    and a default named after another parameter ("defaults to scene_id") is that parameter's value:
    neither is a value the schema could carry.
    """
    if stated.value in others or any(
        variant.get("type") in ("object", "array") or "properties" in variant for variant in variants
    ):
        return None
    if "default" in prop:
        default = prop["default"]
        if default is None and _concrete(stated):
            return "null"
        if default == "" and stated.value.lower() in _NULL_WORDS and not stated.quoted:
            return '""'
        return None
    if required and _concrete(stated):
        return "none (the parameter is required)"
    return None


def _hit(tool: Tool, name: str, path: str, text: str, stated: StatedDefault, shown: str, weak: bool) -> Hit:
    said = text[stated.span[0] : stated.span[1]].strip()
    # a bracket the span cut in two: "(defaults to 10" -> "defaults to 10"; "car (default)" stays whole
    if said.startswith("(") and said.count("(") > said.count(")"):
        said = said[1:]
    if said.endswith(")") and said.count(")") > said.count("("):
        said = said[:-1]
    said = trim(said.strip(), 40)
    return Hit(
        tool=tool.name,
        subject=name,
        fields={"parameter": name, "stated": said, "default": shown},
        evidence=f"{path}: default {shown}; prose: " + trim(text, 90),
        path=path,
        suggestion=(
            f"Make them agree: set `{name}`'s schema default to what the server really uses, "
            "and say the same in the description (or drop the value from the prose)."
        ),
        severity_cap=Severity.LOW if weak else None,
    )


@check_function("default_mismatch")
def default_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        required = set(tool.required)
        parameters = list(walk_parameters(root))  # walked once: the names, then each parameter
        names = frozenset(name for name, _, _ in parameters)
        for name, path, prop in parameters:
            top_level = is_top_level(tool, name, path)
            is_required = top_level and name in required
            if "default" not in prop and not is_required:
                continue
            text = parameter_prose(tool, name, prop, top_level=top_level)
            if not text:
                continue
            for stated in [*stated_defaults(text), *unit_defaults(text, name_words(name))]:
                unstated = _unstated_in_schema(
                    stated, prop, property_variants(root, prop), is_required, names - {name}
                )
                if unstated is not None:
                    yield _hit(tool, name, path, text, stated, unstated, weak=True)
                    break
                if "default" not in prop:
                    continue
                default = prop["default"]
                if not default_disagrees(stated, default) or mentions_value(text, default, stated.span):
                    continue
                yield _hit(tool, name, path, text, stated, trim(json.dumps(default), 40), weak=False)
                break
