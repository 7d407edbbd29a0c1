"""The `text` format: grouped by server and tool, ending with npm audit's count by severity."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mcp_lint.model import Finding, JuryReport, RunResult, ServerReport, Severity, Unscored, Usage
from mcp_lint.report import ReportOptions

_COLORS = {
    Severity.CRITICAL: "\x1b[1;35m",
    Severity.HIGH: "\x1b[1;31m",
    Severity.MODERATE: "\x1b[33m",
    Severity.LOW: "\x1b[36m",
    Severity.INFO: "\x1b[2m",
}
# Beyond this many distinct reasons the text report summarizes; the JSON report lists every pair.
_MAX_REASONS = 5
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text


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
    if report.score is not None:
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
    if result.jury is not None:
        lines.extend(_jury_lines(result.jury, style))
    return "\n".join(lines) + "\n"


def _jury_lines(jury: JuryReport, style: _Style) -> Iterable[str]:
    yield from _unscored_lines(jury.unscored)
    if not jury.judges:
        return
    usage = jury.usage
    parts = [f"jury: {', '.join(jury.judges)}"]
    if usage.calls or usage.cache_hits:
        parts.append(f"{usage.calls} calls, {usage.cache_hits} cached")
    if usage.prompt_tokens:
        parts.append(f"{usage.prompt_tokens + usage.completion_tokens} tokens")
    if usage.calls:
        parts.extend(_cost_parts(usage))
    yield style("; ".join(parts), _DIM)


def _cost_parts(usage: Usage) -> list[str]:
    unpriced = ", ".join(usage.unpriced_models)
    cost = usage.cost_usd
    if cost is None:
        return [f"cost unknown (litellm has no price for {unpriced or 'these models'})"]
    if unpriced:
        return [f"${cost:.4f} without {unpriced} (litellm has no price for it)"]
    return [f"${cost:.4f}"]


def _names(items: Sequence[str], limit: int) -> str:
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"


def _unscored_lines(unscored: Sequence[Unscored]) -> Iterable[str]:
    """Which tool/judge pairs have no verdict and why, one line per reason however many pairs share it."""
    if not unscored:
        return
    noun = "pair" if len(unscored) == 1 else "pairs"
    yield f"not scored: {len(unscored)} tool/judge {noun} (rubric findings for those tools may be missing):"
    # Tool names alone are ambiguous once pairs come from more than one server.
    qualify = len({item.server for item in unscored}) > 1
    by_reason: dict[str, list[Unscored]] = {}
    for item in unscored:
        by_reason.setdefault(item.reason, []).append(item)
    groups = sorted(by_reason.items(), key=lambda group: -len(group[1]))  # stable: first seen wins ties
    for reason, items in groups[:_MAX_REASONS]:
        judges = list(dict.fromkeys(item.judge for item in items))
        tools = list(dict.fromkeys(f"{item.server}/{item.tool}" if qualify else item.tool for item in items))
        judge_noun = "judge" if len(judges) == 1 else "judges"
        tool_noun = "tool" if len(tools) == 1 else "tools"
        yield (
            f"  {len(items)} by {judge_noun} {_names(judges, 3)} on {tool_noun} {_names(tools, 4)}: {reason}"
        )
    if len(groups) > _MAX_REASONS:
        rest = sum(len(items) for _, items in groups[_MAX_REASONS:])
        yield f"  {rest} more for {len(groups) - _MAX_REASONS} other reasons (all listed in --format json)"
