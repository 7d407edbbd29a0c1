"""The `markdown` format: a summary for pull-request comments and GitHub's job summary.

Per server: its six rubric component scores as bars and a Mermaid chart (GitHub renders both), every
finding in a table (most severe first), every tool's scores, and the suggestions folded in
`<details>` blocks so a long report stays readable.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping

from mcp_lint.model import Finding, RunResult, ServerReport
from mcp_lint.report import ReportOptions
from mcp_lint.report.rows import Row, RubricRow, rows, servers
from mcp_lint.report.scores import (
    COMPONENTS,
    server_components,
    server_overall,
    tool_components,
    tool_overall,
    tool_rewrite,
)
from mcp_lint.report.text import gate_lines, summary_line

BAR_CELLS = 10
MAX_SCORE = 5.0


def inline(text: str) -> str:
    """Server text in Markdown prose: no HTML, and no link or image (`[x](url)`, `![x](url)`), even
    where a backtick in a name ends the code span around it early."""
    return html.escape(text, quote=False).replace("[", "\\[").replace("]", "\\]")


def cell(text: str) -> str:
    """Text safe inside a table cell: no HTML, no link, no column break, no line break."""
    escaped = inline(text).replace("|", "\\|")
    return "<br>".join(line.strip() for line in escaped.splitlines()) or " "


def _code(text: str) -> str:
    # Inline code cannot hold HTML escapes, so names that need escaping stay plain text.
    return f"`{text}`" if re.fullmatch(r"[\w.\- /]+", text) else cell(text)


def _fence(text: str, info: str = "text") -> list[str]:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{info}", text.rstrip("\n"), fence]


def bar(score: float) -> str:
    filled = max(0, min(BAR_CELLS, round(score / MAX_SCORE * BAR_CELLS)))
    return "█" * filled + "░" * (BAR_CELLS - filled)


def _score_lines(report: ServerReport) -> Iterable[str]:
    components = server_components(report)
    if not components:
        return
    yield "| component | score | |"
    yield "| --- | ---: | --- |"
    for name in COMPONENTS:
        if name in components:
            yield f"| {name} | {components[name]:.1f} | `{bar(components[name])}` |"
    yield ""
    title = re.sub(r'["\n\r]', "", report.name)
    names = [name for name in COMPONENTS if name in components]
    yield "```mermaid"
    yield "xychart-beta"
    yield f'    title "{title}: rubric components (1-5)"'
    yield f"    x-axis [{', '.join(names)}]"
    yield '    y-axis "score" 0 --> 5'
    yield f"    bar [{', '.join(f'{components[name]:.1f}' for name in names)}]"
    yield "```"
    yield ""


def _gate_cell(row: Row) -> str:
    if row.baselined:
        return "baselined"
    return "**fails**" if row.fails else "warns"


def _findings_table(report: ServerReport) -> Iterable[str]:
    """Every finding, what fails the run first; a tool's rubric findings in one row."""
    yield "| severity | gate | code | rule | tool | message |"
    yield "| --- | --- | --- | --- | --- | --- |"
    for row in rows(report, report.findings):
        tool = _code(row.tool) if row.tool else "(server)"
        if isinstance(row, RubricRow):
            code, rule = ", ".join(row.codes), "rubric"
            smells = ", ".join(finding.rule for finding in row.findings)
            score = f"{row.overall:.1f}/5 " if row.overall is not None else ""
            scores = row.scores_text()
            message = f"{score}({scores}); smells: {smells}" if scores else f"smells: {smells}"
        else:
            code, rule, message = row.code, row.rule, row.message
        cells = [row.severity.label, _gate_cell(row), code, rule, tool, cell(message)]
        yield f"| {' | '.join(cells)} |"
    yield ""


def _tool_scores_table(report: ServerReport) -> Iterable[str]:
    snapshot = report.snapshot
    rows: list[str] = []
    for tool in snapshot.tools if snapshot else ():
        components = tool_components(report, tool.name)
        if components is None:
            continue
        overall = tool_overall(report, tool.name)
        values = [f"{components[name]:.1f}" if name in components else "–" for name in COMPONENTS]
        shown = f"{overall:.1f}" if overall is not None else "–"
        rows.append(f"| {_code(tool.name)} | {shown} | {' | '.join(values)} |")
    if not rows:
        return
    yield "#### Scores per tool (1-5)"
    yield ""
    yield f"| tool | overall | {' | '.join(COMPONENTS)} |"
    yield f"| --- | ---: | {' | '.join('---:' for _ in COMPONENTS)} |"
    yield from rows
    yield ""


def _proposed(report: ServerReport, tool: str, findings: list[Finding]) -> str | None:
    """The tool's proposed description when these findings are the rubric findings that show it."""
    proposal = report.proposals.get(tool)
    if proposal is None or not any(finding.component is not None for finding in findings):
        return None
    return proposal.description


def _suggestion_blocks(report: ServerReport) -> Iterable[str]:
    suggestions: dict[str, list[Finding]] = {}
    for finding in report.findings:
        if finding.suggestion:
            suggestions.setdefault(finding.tool or "(server)", []).append(finding)
    tools = list(
        dict.fromkeys([*suggestions, *(name for name in report.tool_scores if tool_rewrite(report, name))])
    )
    if not tools:
        return
    yield "#### Suggestions"
    yield ""
    for tool in tools:
        items = suggestions.get(tool, [])
        # Findings sharing one suggestion (a tool's rubric findings and its proposed description) are
        # listed once, so the description to paste appears once, fenced.
        grouped: dict[str, list[Finding]] = {}
        for finding in items:
            grouped.setdefault(finding.suggestion or "", []).append(finding)
        proposed = [text for text, found in grouped.items() if _proposed(report, tool, found)]
        rewrite = tool_rewrite(report, tool) if not proposed else None
        count = len(grouped) + (1 if rewrite else 0)
        noun = "suggestion" if count == 1 else "suggestions"
        yield f"<details><summary><code>{html.escape(tool)}</code>: {count} {noun}</summary>"
        yield ""
        for suggestion, findings in grouped.items():
            codes = ", ".join(f"**{finding.code}**" for finding in findings)
            label = f"{codes} {findings[0].rule}" if len(findings) == 1 else codes
            description = _proposed(report, tool, findings)
            if description is None:
                text = " ".join(suggestion.split())
                yield f"- {label}: {inline(text)}"
                continue
            head, *rest = suggestion.split("\n")
            yield f"- {label}: {inline(head)}"
            yield ""
            yield from _fence(description)
            trailer = rest[-1] if rest and rest[-1] != description.split("\n")[-1] else None
            if trailer:
                yield ""
                yield inline(trailer)
        if rewrite:
            if items:
                yield ""
            yield "Suggested description:"
            yield ""
            yield from _fence(rewrite)
        yield ""
        yield "</details>"
        yield ""


def _server_section(report: ServerReport, result: RunResult) -> Iterable[str]:
    yield f"### {cell(report.name)}"
    yield ""
    snapshot = report.snapshot
    if snapshot is None:
        yield f"Could not be linted: {cell(report.error or 'unknown error')}"
        yield ""
        return
    count = len(snapshot.tools)
    details = [f"{count} tool{'s' if count != 1 else ''}"]
    overall = server_overall(report)
    if overall is not None:
        details.append(f"rubric score **{overall:.1f}/5**")
    noun = "finding" if len(report.findings) == 1 else "findings"
    details.append(f"{len(report.findings)} {noun}")
    yield " · ".join(details)
    yield ""
    yield from _score_lines(report)
    if report.findings:
        yield from _findings_table(report)
    yield from _tool_scores_table(report)
    yield from _suggestion_blocks(report)


def _counts_line(counts: Mapping[str, int]) -> str:
    return " · ".join(f"{name}: {counts[name]}" for name in ("critical", "high", "moderate", "low", "info"))


def render(result: RunResult, options: ReportOptions) -> str:
    lines = ["## mcp-lint", "", f"**{summary_line(result)}**", "", _counts_line(result.counts()), ""]
    gate = list(gate_lines(result))
    if gate:
        lines += [*_fence("\n".join(gate)), ""]
    for report in servers(result):
        lines.extend(_server_section(report, result))
    return "\n".join(lines).rstrip("\n") + "\n"
