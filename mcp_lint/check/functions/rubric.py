"""Rubric findings: a component the jury scored below its threshold is a smell."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.model import Component


def _format_score(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


# The rubric rules quote the same descriptions, one rule after another.
@functools.lru_cache(maxsize=1024)
def _excerpt(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    if not flat:
        return "(no description)"
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


@check_function("rubric_component")
def rubric_component(context: CheckContext) -> Iterator[Hit]:
    component: Component = context.options["component"]
    # No fallback here: the default lives in rules/rubric.yaml and the catalogue always supplies it.
    threshold = float(context.options["threshold"])
    # opaque-parameters: a tool that takes no parameters has none to explain.
    needs_parameters = bool(context.options.get("only-with-parameters", False))
    shown_threshold = _format_score(threshold)
    for tool in context.server.tools:
        scores = context.scores.get(tool.name)
        if scores is None or (needs_parameters and not tool.properties):
            continue
        value = scores.aggregate.get(component)
        if value is None or value >= threshold:
            continue
        reason = scores.reasons.get(component) or "no reason given"
        # What the rule messages (rules/MCP70*.yaml) say; each judge's own score is in the reports'
        # scores, and no message named it (tests/check/test_rubric_rules.py formats every one).
        # (positional: tool, fields, evidence, path; a call by keyword costs more, and this makes
        # most of a default lint's hits) The suggestion (one proposed description per tool) is the
        # propose stage's.
        yield Hit(
            tool.name,
            {"score": _format_score(value), "threshold": shown_threshold, "reason": reason.rstrip(".")},
            _excerpt(tool.description),
            "description",
        )


@check_function("jury_disagreement")
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
