"""The `text` format: grouped by server and tool, ending with npm audit's count by severity."""

from __future__ import annotations

from collections.abc import Iterable

from mcp_lint.model import Finding, RunResult, ServerReport, Severity
from mcp_lint.report import ReportOptions

_COLORS = {
    Severity.CRITICAL: "\x1b[1;35m",
    Severity.HIGH: "\x1b[1;31m",
    Severity.MODERATE: "\x1b[33m",
    Severity.LOW: "\x1b[36m",
    Severity.INFO: "\x1b[2m",
}
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _finding_lines(finding: Finding, style: _Style, previous: Finding | None) -> Iterable[str]:
    label = style(f"{finding.severity.label:<9}", _COLORS[finding.severity])
    yield f"    {label} {finding.code} {finding.rule}: {finding.message}"
    # Rubric findings of one tool quote the same description; once is enough in a terminal.
    repeated = (
        previous is not None and previous.tool == finding.tool and previous.evidence == finding.evidence
    )
    if finding.evidence and not repeated and finding.evidence not in finding.message:
        yield style(f"              evidence: {finding.evidence}", _DIM)
    if finding.suggestion:
        first, *rest = finding.suggestion.strip().splitlines() or [""]
        yield f"              suggestion: {first}"
        for line in rest[:8]:
            yield f"                {line}"


def _server_lines(report: ServerReport, style: _Style) -> Iterable[str]:
    snapshot = report.snapshot
    if snapshot is None:
        yield style(report.name, _BOLD) + "  could not be linted"
        yield f"    error: {report.error}"
        return
    count = len(snapshot.tools)
    details = [f"{count} tool{'s' if count != 1 else ''}"]
    if snapshot.protocol_version:
        details.append(f"protocol {snapshot.protocol_version}")
    if report.score is not None and getattr(report.score, "overall", None) is not None:
        details.append(f"rubric score {report.score.overall:.1f}/5")
    yield style(report.name, _BOLD) + "  " + style(" · ".join(details), _DIM)
    server_level = [finding for finding in report.findings if finding.tool is None]
    if server_level:
        yield "  (server)"
        for finding in server_level:
            yield from _finding_lines(finding, style, None)
    previous: Finding | None = None
    for finding in report.findings:
        if finding.tool is None:
            continue
        if previous is None or finding.tool != previous.tool:
            yield f"  {finding.tool}"
        yield from _finding_lines(finding, style, previous)
        previous = finding
    if not report.findings:
        yield "  no findings"


def summary_line(result: RunResult) -> str:
    counts = result.counts()
    tools = sum(len(server.snapshot.tools) for server in result.servers if server.snapshot)
    servers = len(result.servers)
    where = f"{servers} server{'s' if servers != 1 else ''}, {tools} tool{'s' if tools != 1 else ''}"
    total = counts["total"]
    if total == 0:
        return f"found 0 findings ({where})"
    parts = [f"{counts[level.label]} {level.label}" for level in reversed(Severity) if counts[level.label]]
    noun = "finding" if total == 1 else "findings"
    return f"{total} {noun} ({', '.join(parts)}) in {where}"


def render(result: RunResult, options: ReportOptions) -> str:
    style = _Style(options.color)
    lines: list[str] = []
    for report in result.servers:
        lines.extend(_server_lines(report, style))
        lines.append("")
    lines.append(summary_line(result))
    failed = [server.name for server in result.servers if server.error is not None]
    if failed:
        lines.append(f"could not lint {len(failed)} server(s): {', '.join(failed)}")
    jury = result.jury or {}
    if jury.get("unscored"):
        lines.append(f"{len(jury['unscored'])} tool/judge pair(s) could not be scored; see above")
    if jury.get("judges"):
        usage = jury.get("usage") or {}
        parts = [f"jury: {', '.join(jury['judges'])}"]
        if usage.get("calls") or usage.get("cache_hits"):
            parts.append(f"{usage.get('calls', 0)} calls, {usage.get('cache_hits', 0)} cached")
        if usage.get("prompt_tokens"):
            parts.append(f"{usage['prompt_tokens'] + usage.get('completion_tokens', 0)} tokens")
        if usage.get("calls") and usage.get("cost_usd") is not None:
            parts.append(f"${usage['cost_usd']:.4f}")
        lines.append(style("; ".join(parts), _DIM))
    return "\n".join(lines) + "\n"
