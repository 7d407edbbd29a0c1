"""MCP207 unenforced-range: a range or set of values the description states and the schema does not."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim, words
from mcp_lint.check.functions.schema._common import schema_pointer
from mcp_lint.check.functions.schema._prose import (
    StatedList,
    args_entry_block,
    bulleted_values,
    is_top_level,
    other_values,
    parameter_prose,
    same_value,
    stated_lists,
)
from mcp_lint.lazyre import lazy
from mcp_lint.model import SchemaFix, Tool
from mcp_lint.schema_walk import property_variants, walk_parameters
from mcp_lint.words import singular

_NUMBER = r"(-?\d{1,9}(?:\.\d+)?)"
# A unit right after the number: "max 512KB" bounds a size in other units than the value's.
_UNIT_AFTER = (
    r"(?!\s*(?:[kmgt]i?b\b|kb|mb|gb|%|k\b|chars?\b|characters\b|bytes?\b|tokens?\b|words?\b|lines?\b|"
    r"m?s\b|secs?\b|seconds?\b|mins?\b|minutes?\b|h\b|hrs?\b|hours?\b|days?\b|weeks?\b|months?\b|"
    r"years?\b|px\b|pixels?\b|[.,]\d))"
)
_RANGES = lazy(
    rf"\bbetween\s+{_NUMBER}\s+and\s+{_NUMBER}{_UNIT_AFTER}"
    rf"|\bfrom\s+{_NUMBER}\s+to\s+{_NUMBER}{_UNIT_AFTER}"
    rf"|(?:\(|\brange(?:\s+is)?:?\s*|\brange of\s+|\bvalues?:?\s+)"
    rf"{_NUMBER}\s*(?:-|–|\.\.|to)\s*{_NUMBER}{_UNIT_AFTER}"
    # a bare range as a clause of its own: "Results per page, 1-100 (default: 100)"
    rf"|(?:^|(?<=[,;:]\s)){_NUMBER}\s*(?:-|–)\s*{_NUMBER}(?=\s*(?:[,;)]|\(default|\.(?:\s|$)|$))"
    rf"|\bin\s+\[\s*{_NUMBER}\s*,\s*{_NUMBER}\s*\]",
    re.IGNORECASE,
)
_MAXIMA = lazy(
    r"\b(?:max(?:imum)?(?:\s+(?:value|is|of))?:?|at most|no more than|must not exceed|cannot exceed|<=|≤)"
    rf"\s*`?{_NUMBER}\b`?{_UNIT_AFTER}",
    re.IGNORECASE,
)
_MINIMA = lazy(
    rf"\b(?:min(?:imum)?(?:\s+(?:value|is|of))?:?|at least|no less than|>=|≥)\s*`?{_NUMBER}\b`?{_UNIT_AFTER}",
    re.IGNORECASE,
)
# The word after a bound: "max 10 pages" bounds the pages, not this parameter, unless the
# parameter's name or its description's opening says it counts those ("Results per page, max 100 results").
_NOUN_AFTER = lazy(r"\s+([a-z]+)\b")
_CONDITION_AFTER = lazy(r"\s*(?:if|when|unless|for)\b", re.IGNORECASE)
_CLAUSE_WORDS = frozenset(words("and or if when unless per for to in at by with which is are be the a an"))


def _as_number(text: str) -> float:
    return float(text)


def _json_number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


def _fix(
    tool: Tool, path: str, prop: Mapping[str, Any], values: Mapping[str, Any], items: bool = False
) -> SchemaFix | None:
    """The edit adding `values` to the parameter's own schema (to its `items` for a list of strings),
    when that schema is written inline with the type the values fit: no fix through a `$ref`, an
    `anyOf` or a type list, where the right place to add them is not one object."""
    pointer = schema_pointer(tool, path, prop)
    target = prop.get("items") if items else prop
    if pointer is None or not isinstance(target, Mapping) or not isinstance(target.get("type"), str):
        return None
    if any(key in target for key in values) or not _fits_default(prop.get("default"), values):
        return None
    return SchemaFix((*pointer, "items") if items else pointer, dict(values))


def _fits_default(default: Any, values: Mapping[str, Any]) -> bool:
    """Whether the schema's default stays valid under the fix: within the range, one of the values.
    A default the stated range or list leaves out says the text is not the whole truth (the list of
    models "fal-ai/flux/dev" split at its slashes, "one of append, prepend" with default "replace")."""
    if default is None:
        return True
    if isinstance(default, bool) or not isinstance(default, (int, float, str, list)):
        return False
    if isinstance(default, (int, float)):
        low, high = values.get("minimum"), values.get("maximum")
        return (low is None or default >= low) and (high is None or default <= high)
    enum = values.get("enum", [])
    chosen = default if isinstance(default, list) else [default]
    return all(isinstance(item, str) and any(same_value(item, value) for value in enum) for item in chosen)


def _closed_values(name: str, items: tuple[str, ...]) -> bool:
    """Whether a stated list reads as the whole set of values, as an enum must: no value twice, no
    "etc", and not the parameter's own name among them."""
    folded = [item.strip().lower() for item in items]
    return (
        len(set(folded)) == len(folded)
        and not any(item.rstrip(".") in {"etc", "etcetera", "..."} for item in folded)
        and not any(same_value(item, name) for item in items)
    )


def _bounds_something_else(text: str, end: int, name: str) -> bool:
    if _CONDITION_AFTER.match(text, end):
        return True  # "(1-100 if percent)": a bound of one mode only
    after = _NOUN_AFTER.match(text, end)
    if after is None or after.group(1) in _CLAUSE_WORDS:
        return False
    noun = singular(after.group(1))
    head = re.split(r"[.;(\n]", text, maxsplit=1)[0].lower().split()[:6]
    known = {singular(word) for word in [*name_words(name), *head]}
    return noun not in known


def _kinds(variants: list[Mapping[str, Any]]) -> set[str]:
    kinds: set[str] = set()
    for variant in variants:
        kind = variant.get("type")
        # "type" is a name or a list of names; anything else in a hostile schema counts as none
        names = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
        kinds.update(name for name in names if isinstance(name, str))
    return kinds


def _string_items(root: Any, variants: list[Mapping[str, Any]]) -> list[Mapping[str, Any]] | None:
    """The schemas of an array's string items, when the parameter is a list of strings."""
    for variant in variants:
        items = variant.get("items")
        if variant.get("type") == "array" and isinstance(items, Mapping):
            inner = property_variants(root, items)
            if "string" in _kinds(inner):
                return inner
    return None


_NOTE_AFTER_VALUE = lazy(r"(`[^`\n]{1,40}`|'[^'\n]{1,40}'|\"[^\"\n]{1,40}\")[ \t]*\([^()\n]{1,120}\)")


def _closed_list(tool: Tool, name: str, path: str, text: str) -> StatedList | None:
    # The Args entry with the lines under it: "backend: ...\n    One of 'httpx', 'curl' or 'auto'",
    # "Options:" and a bullet per value.
    if is_top_level(tool, name, path) and name in tool.description:
        text = f"{text}\n{args_entry_block(tool.description, name)}"
    found = stated_lists(text, uncued=True) + (bulleted_values(text) if "\n" in text else [])
    if not found and "(" in text:
        # "One of 'httpx' (lightweight), 'curl' (Chrome TLS) or 'auto'": a note after each value. Values
        # with digits so noted are samples of a format ("'2025-01-01' (all-day)", "\"90m\" (minutes)").
        found = [
            stated
            for stated in stated_lists(_NOTE_AFTER_VALUE.sub(r"\1", text), uncued=True)
            if not any(char.isdigit() for item in stated.items for char in item)
        ]
    others = other_values(tool, path) if found else []
    for stated in found:
        if any(same_value(item, other) for item in stated.items for other in others):
            continue  # "use either `manifest` or `filename`": the names of parameters, not values
        return stated
    return None


def _numeric_hit(
    tool: Tool, name: str, path: str, text: str, prop: Mapping[str, Any], variants: list[Mapping[str, Any]]
) -> Hit | None:
    has_min = any(k in v for v in variants for k in ("minimum", "exclusiveMinimum"))
    has_max = any(k in v for v in variants for k in ("maximum", "exclusiveMaximum"))
    stated_min: str | None = None
    stated_max: str | None = None
    evidence = ""
    span = _RANGES.search(text)
    if span is not None and not _bounds_something_else(text, span.end(), name):
        low, high = [group for group in span.groups() if group is not None][:2]
        if _as_number(low) < _as_number(high):
            stated_min, stated_max, evidence = low, high, span.group(0)
    top = _MAXIMA.search(text)
    if stated_max is None and top is not None and not _bounds_something_else(text, top.end(), name):
        stated_max, evidence = top.group(1), top.group(0)
    bottom = _MINIMA.search(text)
    if stated_min is None and bottom is not None and not _bounds_something_else(text, bottom.end(), name):
        stated_min, evidence = bottom.group(1), evidence or bottom.group(0)
    missing = []
    values: dict[str, Any] = {}
    if stated_min is not None and not has_min:
        missing.append(f'"minimum": {stated_min}')
        values["minimum"] = _json_number(stated_min)
    if stated_max is not None and not has_max:
        missing.append(f'"maximum": {stated_max}')
        values["maximum"] = _json_number(stated_max)
    if not missing:
        return None
    return Hit(
        tool=tool.name,
        subject=name,
        fields={"parameter": name, "stated": trim(evidence.strip("( "), 40), "missing": "minimum/maximum"},
        evidence=f"{path}: " + trim(text, 90),
        path=path,
        suggestion=f"Add {', '.join(missing)} to `{name}`.",
        fix=_fix(tool, path, prop, values) if len(variants) == 1 else None,
    )


@check_function("unenforced_range")
def unenforced_range(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, path, prop in walk_parameters(root):
            variants = property_variants(root, prop)
            if any(key in v for v in variants for key in ("enum", "const")):
                continue
            text = parameter_prose(tool, name, prop, top_level=is_top_level(tool, name, path))
            if not text:
                continue
            kinds = _kinds(variants)
            if kinds & {"integer", "number"}:
                hit = _numeric_hit(tool, name, path, text, prop, variants)
                if hit is not None:
                    yield hit
                continue
            items = _string_items(root, variants) if "string" not in kinds else None
            values_of = variants if "string" in kinds else items
            shaped = ("pattern", "format", "enum", "const")
            if values_of is None or any(key in v for v in values_of for key in shaped):
                continue
            stated = _closed_list(tool, name, path, text)
            if stated is None:
                continue
            where = "enum on its items" if items is not None else "enum"
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={
                    "parameter": name,
                    "stated": "one of " + trim(", ".join(stated.items), 40),
                    "missing": where,
                },
                evidence=f"{path}: " + trim(text, 90),
                path=path,
                suggestion=f'Add "enum": {json.dumps(list(stated.items))} to '
                + (f"the items of `{name}`." if items is not None else f"`{name}`."),
                fix=_fix(tool, path, prop, {"enum": list(stated.items)}, items=items is not None)
                if len(variants) == 1 and _closed_values(name, stated.items)
                else None,
            )
