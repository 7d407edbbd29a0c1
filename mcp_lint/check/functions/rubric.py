"""Rubric findings: a component the jury scored below its threshold is a smell."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit
from mcp_lint.model import Tool

# What a placeholder value looks like for each JSON type, for the example-call template.
_PLACEHOLDERS = {"string": "'...'", "integer": "10", "number": "1.5", "boolean": "true", "array": "[...]"}


def _example_call(tool: Tool) -> str:
    arguments = []
    for name, schema in list(tool.properties.items())[:3]:
        kind = schema.get("type") if isinstance(schema, Mapping) else None
        enum = schema.get("enum") if isinstance(schema, Mapping) else None
        value = repr(enum[0]) if isinstance(enum, list) and enum else _PLACEHOLDERS.get(str(kind), "...")
        arguments.append(f"{name}={value}")
    return f"{tool.name}({', '.join(arguments)})"


def template_suggestion(component: str, tool: Tool, siblings: list[str]) -> str:
    """A skeleton for the missing part when no judge proposed a rewrite: what to add, not filler.

    The embedded jury scores but does not write; a concrete shape to fill in still saves the
    author a trip to the rubric docs.
    """
    sibling = next((name for name in siblings if name != tool.name), None)
    undocumented = [
        name
        for name, schema in tool.properties.items()
        if not (isinstance(schema, Mapping) and str(schema.get("description") or "").strip())
    ]
    templates: dict[str, str] = {
        "purpose": "Open with what it does and what it returns: '<Does X> and returns <Y, its shape>.'",
        "guidelines": "Add when to use it and when not: 'Use this to <task>; "
        + (f"for <other task> use {sibling} instead.'" if sibling else "do not use it for <case>.'"),
        "limitations": (
            "State its limits in one sentence: 'Only <scope>; does not <thing>; at most <N> results.'"
        ),
        "parameters": (
            "Explain "
            + (", ".join(f"`{name}`" for name in undocumented[:4]) if undocumented else "each parameter")
            + (": their" if len(undocumented) > 1 else ": its")
            + " meaning, format (e.g. YYYY-MM-DD), default and effect."
        ),
        "length": "Cover purpose, when to use it, limits and parameters in three to five plain sentences.",
        "examples": (
            f"Add one short example after the prose: 'Example: {_example_call(tool)} returns <result>.'"
        ),
    }
    return templates.get(component, "")


def _format_score(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _excerpt(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    if not flat:
        return "(no description)"
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def rubric_component(context: CheckContext) -> Iterator[Hit]:
    component = str(context.options["component"])
    # No fallback here: the default lives in rules/rubric.yaml and the catalogue always supplies it.
    threshold = float(context.options["threshold"])
    names = [item.name for item in context.server.tools]
    for tool in context.server.tools:
        scores: Any = context.scores.get(tool.name)
        if scores is None:
            continue
        value = scores.aggregate.get(component)
        if value is None or value >= threshold:
            continue
        judges = ", ".join(
            f"{judge} {_format_score(per_judge[component])}"
            for judge, per_judge in sorted(scores.judges.items())
            if component in per_judge
        )
        reason = scores.reasons.get(component) or "no reason given"
        yield Hit(
            tool=tool.name,
            fields={
                "score": _format_score(value),
                "threshold": _format_score(threshold),
                "reason": reason.rstrip("."),
                "judges": judges,
            },
            evidence=_excerpt(tool.description),
            path="description",
            suggestion=scores.rewrite or template_suggestion(component, tool, names),
        )


def jury_disagreement(context: CheckContext) -> Iterator[Hit]:
    spread_limit = float(context.options.get("spread", 2))
    for tool in context.server.tools:
        scores = context.scores.get(tool.name)
        if scores is None or len(scores.judges) < 2:
            continue
        wide = [name for name, spread in sorted(scores.spread.items()) if spread >= spread_limit]
        if wide:
            detail = "; ".join(
                f"{name}: "
                + ", ".join(
                    f"{judge} {_format_score(per[name])}" for judge, per in sorted(scores.judges.items())
                )
                for name in wide
            )
            yield Hit(
                tool=tool.name, fields={"components": ", ".join(wide)}, evidence=detail, path="description"
            )


FUNCTIONS = {"rubric_component": rubric_component, "jury_disagreement": jury_disagreement}
