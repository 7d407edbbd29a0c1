"""MCP207 unenforced-range: a range or set of values the description states and the schema does not."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim, words
from mcp_lint.check.functions.schema._common import param_texts
from mcp_lint.schema_walk import property_variants, walk_parameters

_NUMBER = r"(-?\d{1,9}(?:\.\d+)?)"
# A unit right after the number: "max 512KB" bounds a size in other units than the value's.
_UNIT_AFTER = (
    r"(?!\s*(?:[kmgt]i?b\b|kb|mb|gb|%|k\b|chars?\b|characters\b|bytes?\b|tokens?\b|words?\b|lines?\b|"
    r"m?s\b|secs?\b|seconds?\b|mins?\b|minutes?\b|h\b|hrs?\b|hours?\b|days?\b|weeks?\b|months?\b|"
    r"years?\b|px\b|pixels?\b|[.,]\d))"
)
_RANGES = re.compile(
    rf"\bbetween\s+{_NUMBER}\s+and\s+{_NUMBER}{_UNIT_AFTER}"
    rf"|\bfrom\s+{_NUMBER}\s+to\s+{_NUMBER}{_UNIT_AFTER}"
    rf"|(?:\(|\brange:?\s*|\brange of\s+|\bvalues?:?\s+){_NUMBER}\s*(?:-|–|\.\.|to)\s*{_NUMBER}{_UNIT_AFTER}",
    re.IGNORECASE,
)
_MAXIMA = re.compile(
    r"\b(?:max(?:imum)?(?:\s+(?:value|is|of))?:?|at most|no more than|must not exceed|cannot exceed|<=|≤)"
    rf"\s*{_NUMBER}\b{_UNIT_AFTER}",
    re.IGNORECASE,
)
_MINIMA = re.compile(
    rf"\b(?:min(?:imum)?(?:\s+(?:value|is|of))?:?|at least|no less than|>=|≥)\s*{_NUMBER}\b{_UNIT_AFTER}",
    re.IGNORECASE,
)
_ONE_OF = re.compile(
    r"\b(?:one of|must be either|either|(?:possible|valid|allowed) values(?: are)?)"
    r":?\s+((?:[`'\"]?[\w./-]{1,30}[`'\"]?\s*(?:,\s*(?:or\s+)?|\s+or\s+|\s*\|\s*))+"
    r"[`'\"]?[\w./-]{1,30}[`'\"]?)",
    re.IGNORECASE,
)
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*(?:or\s+)?|\s+or\s+|\|)\s*")
# Words a set is never made of: "one of the following", "either this or that tool".
_NOT_VALUES = frozenset(
    words("the a an these those them this that it its following above below other your our")
)


def _as_number(text: str) -> float:
    return float(text)


def _stated_set(text: str) -> list[str] | None:
    match = _ONE_OF.search(text)
    if match is None:
        return None
    items = [item.strip("`'\"").rstrip(".") for item in _ITEM_SPLIT.split(match.group(1).strip())]
    items = [item for item in items if item]
    if len(items) < 2 or any(item.lower() in _NOT_VALUES for item in items):
        return None
    quoted = any(char in match.group(1) for char in "`'\"")
    if not quoted and any(not re.fullmatch(r"[a-z0-9_.-]+", item) for item in items):
        return None  # unquoted values must look like values (lower-case tokens), not prose
    return items


@check_function("unenforced_range")
def unenforced_range(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, path, prop in walk_parameters(root):
            variants = property_variants(root, prop)
            if any(key in v for v in variants for key in ("enum", "const")):
                continue
            text = param_texts(tool, name, prop)
            if not text:
                continue
            kinds: set[str] = set()
            for variant in variants:
                kind = variant.get("type")
                kinds.update([kind] if isinstance(kind, str) else kind if isinstance(kind, list) else [])
            numeric = bool(kinds & {"integer", "number"})
            if numeric:
                has_min = any(k in v for v in variants for k in ("minimum", "exclusiveMinimum"))
                has_max = any(k in v for v in variants for k in ("maximum", "exclusiveMaximum"))
                stated_min: str | None = None
                stated_max: str | None = None
                evidence = ""
                span = _RANGES.search(text)
                if span is not None:
                    low, high = [group for group in span.groups() if group is not None][:2]
                    if _as_number(low) < _as_number(high):
                        stated_min, stated_max, evidence = low, high, span.group(0)
                if stated_max is None and (top := _MAXIMA.search(text)) is not None:
                    stated_max, evidence = top.group(1), top.group(0)
                if stated_min is None and (bottom := _MINIMA.search(text)) is not None:
                    stated_min, evidence = bottom.group(1), evidence or bottom.group(0)
                missing = []
                if stated_min is not None and not has_min:
                    missing.append(f'"minimum": {stated_min}')
                if stated_max is not None and not has_max:
                    missing.append(f'"maximum": {stated_max}')
                if missing:
                    yield Hit(
                        tool=tool.name,
                        subject=name,
                        fields={
                            "parameter": name,
                            "stated": trim(evidence.strip("( "), 40),
                            "missing": "minimum/maximum",
                        },
                        evidence=f"{path}.description: " + trim(text, 90),
                        path=path,
                        suggestion=f"Add {', '.join(missing)} to `{name}`.",
                    )
            elif "string" in kinds and not any("pattern" in v or "format" in v for v in variants):
                values = _stated_set(text)
                if values:
                    yield Hit(
                        tool=tool.name,
                        subject=name,
                        fields={
                            "parameter": name,
                            "stated": "one of " + trim(", ".join(values), 40),
                            "missing": "enum",
                        },
                        evidence=f"{path}.description: " + trim(text, 90),
                        path=path,
                        suggestion=f'Add "enum": {json.dumps(values)} to `{name}`.',
                    )
