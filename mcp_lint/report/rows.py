"""What the text, GitHub and Markdown reports list, in the order they list it: what fails the run
first, then the rest by severity, and a tool's rubric findings (MCP701-706) folded into one row.

The JSON and SARIF reports keep one result per finding (tools that filter by code read those); the
reports a person reads show a tool's rubric once: its six component scores, its smells by name and
the one suggestion they share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mcp_lint.model import COMPONENTS, Component, Finding, RunResult, ServerReport, Severity
from mcp_lint.report.scores import tool_components, tool_overall


@dataclass(frozen=True)
class RubricRow:
    """A tool's rubric findings as one row: `findings` holds one finding per smelly component."""

    findings: tuple[Finding, ...]
    # The tool's six component scores (1-5) and their mean; None where the jury scored none.
    scores: dict[Component, float] | None
    overall: float | None

    @property
    def tool(self) -> str | None:
        return self.findings[0].tool

    @property
    def server(self) -> str:
        return self.findings[0].server

    @property
    def severity(self) -> Severity:
        return max(finding.severity for finding in self.findings)

    @property
    def fails(self) -> bool:
        return any(finding.fails for finding in self.findings)

    @property
    def baselined(self) -> bool:
        return all(finding.baselined for finding in self.findings)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(finding.code for finding in self.findings)

    @property
    def evidence(self) -> str | None:
        return next((finding.evidence for finding in self.findings if finding.evidence), None)

    @property
    def suggestions(self) -> tuple[str, ...]:
        """The distinct suggestions of its findings, in order: as a rule one, the proposed description."""
        texts = (finding.suggestion.strip() for finding in self.findings if finding.suggestion)
        return tuple(dict.fromkeys(texts))

    def scores_text(self) -> str:
        """`purpose 2 · guidelines 1 · …`, or "" when the tool has no scores."""
        if not self.scores:
            return ""
        return " · ".join(f"{name} {_score(self.scores[name])}" for name in COMPONENTS if name in self.scores)

    def smells_text(self) -> str:
        """`MCP701 unclear-purpose, MCP702 missing-usage-guidelines, …`"""
        return ", ".join(f"{finding.code} {finding.rule}" for finding in self.findings)

    def headline(self) -> str:
        """The row in one line: the tool's rubric score, its component scores, its smells by name."""
        score = f" {_score(self.overall)}/5" if self.overall is not None else ""
        scores = self.scores_text()
        parts = f" ({scores})" if scores else ""
        return f"rubric{score}{parts}: {self.smells_text()}"


Row = Finding | RubricRow


def _score(value: float) -> str:
    return f"{round(value, 1):g}"


def rank(row: Row) -> tuple[bool, int]:
    """Sort key: what fails the run first, then the most severe."""
    return (not row.fails, -row.severity)


def tool_rows(report: ServerReport, findings: Sequence[Finding]) -> list[Row]:
    """`findings` (all of one tool, or of the server itself) as rows, failing first then by severity:
    the rubric findings become one RubricRow."""
    rubric = tuple(finding for finding in findings if finding.component is not None)
    rows: list[Row] = [finding for finding in findings if finding.component is None]
    if rubric:
        tool = rubric[0].tool
        scores = tool_components(report, tool) if tool is not None else None
        overall = tool_overall(report, tool) if tool is not None else None
        rows.append(RubricRow(rubric, scores, overall))
    return sorted(rows, key=rank)


def grouped(report: ServerReport, findings: Iterable[Finding]) -> list[tuple[str | None, list[Row]]]:
    """Rows by tool (None: the server's own), the tool holding what fails or the most severe row first."""
    by_tool: dict[str | None, list[Finding]] = {}
    for finding in findings:
        by_tool.setdefault(finding.tool, []).append(finding)
    groups = [(tool, tool_rows(report, items)) for tool, items in by_tool.items()]
    return sorted(groups, key=lambda group: rank(group[1][0]))


def rows(report: ServerReport, findings: Iterable[Finding]) -> list[Row]:
    """Every row of a server in one list, failing first then by severity (tool order breaks ties)."""
    flat = [row for _, items in grouped(report, findings) for row in items]
    return sorted(flat, key=rank)


def server_fails(report: ServerReport) -> bool:
    """Whether this server fails the run: it could not be linted, is under the floor, or a finding fails."""
    return report.error is not None or report.under_floor or any(finding.fails for finding in report.findings)


def servers(result: RunResult) -> list[ServerReport]:
    """The servers, those that fail the run first, then the one with the most severe finding (the
    order linted breaks ties)."""

    def key(report: ServerReport) -> tuple[bool, int]:
        worst = max((finding.severity for finding in report.findings), default=-1)
        return (not server_fails(report), -worst)

    return sorted(result.servers, key=key)
