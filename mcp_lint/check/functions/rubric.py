"""Rubric findings: a component the jury scored below its threshold is a smell."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.model import Tool


def _format_score(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _excerpt(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    if not flat:
        return "(no description)"
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def _candidate_siblings(tools: tuple[Tool, ...]) -> dict[str, dict[str, str]]:
    """For each tool, the siblings sharing a subject word of its name (with their descriptions): the
    only ones a proposal may point to, found through one index instead of comparing every pair."""
    from mcp_lint.fix.grounding import subjects  # the fix stage imports the check functions' helpers

    by_stem: dict[str, list[Tool]] = {}
    for tool in tools:
        for stem in subjects(tool.name):
            by_stem.setdefault(stem, []).append(tool)
    found: dict[str, dict[str, str]] = {}
    for tool in tools:
        near: dict[str, str] = {}
        for stem in subjects(tool.name):
            # A word half the server shares (`issue` in an issue tracker) tells no sibling apart.
            group = by_stem[stem]
            if len(group) <= 12:
                near.update((other.name, other.description) for other in group if other.name != tool.name)
        found[tool.name] = near
    return found


def _proposal_suggestion(server: str, tool: Tool, siblings: Mapping[str, str], scores: Any) -> str:
    from mcp_lint.fix.propose import cached_proposal, suggestion_text
    from mcp_lint.model import OFFLINE_JURY

    proposal = cached_proposal(server, tool, siblings, dict(scores.aggregate))
    return suggestion_text(proposal, offline=set(scores.judges) <= {OFFLINE_JURY})


@check_function("rubric_component")
def rubric_component(context: CheckContext) -> Iterator[Hit]:
    component = str(context.options["component"])
    # No fallback here: the default lives in rules/rubric.yaml and the catalogue always supplies it.
    threshold = float(context.options["threshold"])
    siblings: dict[str, dict[str, str]] | None = None
    # opaque-parameters: a tool that takes no parameters has none to explain.
    needs_parameters = bool(context.options.get("only-with-parameters", False))
    for tool in context.server.tools:
        scores: Any = context.scores.get(tool.name)
        if scores is None or (needs_parameters and not tool.properties):
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
        if siblings is None:
            siblings = _candidate_siblings(context.server.tools)
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
            # One proposed description per tool, the same on each of its rubric findings.
            suggestion=_proposal_suggestion(context.server.name, tool, siblings.get(tool.name, {}), scores),
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
