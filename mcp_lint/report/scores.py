"""The jury's scores as reporters read them.

`ServerReport.tool_scores` and `.score` are the jury's records; every reporter but the JSON one reads
them through these few functions, so a change of those records' shape is adapted here once.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcp_lint.jury.base import COMPONENTS
from mcp_lint.model import ServerReport

__all__ = [
    "COMPONENTS",
    "server_components",
    "server_overall",
    "tool_components",
    "tool_overall",
    "tool_rewrite",
]


def _numbers(value: object) -> dict[str, float] | None:
    if not isinstance(value, Mapping):
        return None
    numbers = {name: float(value[name]) for name in COMPONENTS if isinstance(value.get(name), (int, float))}
    return numbers or None


def tool_components(report: ServerReport, tool: str) -> dict[str, float] | None:
    """The six aggregate component scores (1-5) of one tool, or None when it was not scored."""
    scores = report.tool_scores.get(tool)
    return _numbers(getattr(scores, "aggregate", None)) if scores is not None else None


def tool_overall(report: ServerReport, tool: str) -> float | None:
    scores = report.tool_scores.get(tool)
    overall = getattr(scores, "overall", None) if scores is not None else None
    return float(overall) if isinstance(overall, (int, float)) else None


def tool_rewrite(report: ServerReport, tool: str) -> str | None:
    """The jury's suggested replacement description for one tool, when a judge wrote one."""
    scores = report.tool_scores.get(tool)
    rewrite = getattr(scores, "rewrite", None) if scores is not None else None
    return rewrite if isinstance(rewrite, str) and rewrite.strip() else None


def server_overall(report: ServerReport) -> float | None:
    overall = getattr(report.score, "overall", None)
    return float(overall) if isinstance(overall, (int, float)) else None


def server_components(report: ServerReport) -> dict[str, float] | None:
    return _numbers(getattr(report.score, "components", None))
