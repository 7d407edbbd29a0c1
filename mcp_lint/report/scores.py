"""The jury's scores as the text, Markdown and SARIF reporters read them: plain numbers per component,
or None where the rubric was not scored."""

from __future__ import annotations

from mcp_lint.model import COMPONENTS, Component, ServerReport

__all__ = [
    "COMPONENTS",
    "server_components",
    "server_overall",
    "tool_components",
    "tool_overall",
    "tool_rewrite",
]


def tool_components(report: ServerReport, tool: str) -> dict[Component, float] | None:
    """The six aggregate component scores (1-5) of one tool, or None when it was not scored."""
    scores = report.tool_scores.get(tool)
    return dict(scores.aggregate) if scores is not None and scores.aggregate else None


def tool_overall(report: ServerReport, tool: str) -> float | None:
    scores = report.tool_scores.get(tool)
    return scores.overall if scores is not None and scores.aggregate else None


def tool_rewrite(report: ServerReport, tool: str) -> str | None:
    """The jury's suggested replacement description for one tool, when a judge wrote one."""
    scores = report.tool_scores.get(tool)
    rewrite = scores.rewrite if scores is not None else None
    return rewrite if rewrite and rewrite.strip() else None


def server_overall(report: ServerReport) -> float | None:
    return report.score.overall if report.score is not None else None


def server_components(report: ServerReport) -> dict[Component, float] | None:
    return dict(report.score.components) if report.score is not None else None
