"""The `text` format: grouped by server and tool, ending with npm audit's count by severity."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from mcp_lint.model import Finding, JuryReport, RunResult, ServerReport, Severity, Unscored, Usage
from mcp_lint.report import ReportOptions
from mcp_lint.report.rows import Row, RubricRow, grouped, servers
from mcp_lint.sanitize import defuse_commands, printable_result

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
    def __init__(self, color: bool, width: int | None = None) -> None:
        self.color = color
        # Terminal columns to wrap long lines to; None keeps each finding on its own long lines.
        self.width = width

    def __call__(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text


# A finding's continuation lines start under its code, after the severity column.
_HANGING = " " * 14
# Narrower than this, wrapping would leave a word or two per line: better to let the terminal wrap.
_MIN_WRAP = 40


def _wrapped(text: str, prefix_width: int, width: int | None, hanging: str) -> list[str]:
    """`text` in lines that fit `width` when the first follows a `prefix_width` prefix and the others
    start with `hanging`."""
    if width is None or width - len(hanging) < _MIN_WRAP or prefix_width + len(text) <= width:
        return [text]
    lines = textwrap.wrap(
        text,
        width=width,
        initial_indent=" " * prefix_width,
        subsequent_indent=hanging,
        break_long_words=False,
        break_on_hyphens=False,
    )
    if not lines:
        return [text]
    return [lines[0][prefix_width:], *lines[1:]]


def _finding_lines(finding: Finding, style: _Style, mark: str, previous: Row | None) -> Iterable[str]:
    hanging = " " * (len(_HANGING) + len(mark))
    label = style(f"{finding.severity.label:<9}", _COLORS[finding.severity])
    text = f"{finding.code} {finding.rule}: {finding.message}"
    first, *more = _wrapped(text, len(hanging), style.width, hanging)
    yield f"    {_mark(mark, finding.fails, style)}{label} {first}"
    yield from more
    # Findings of one tool often quote the same text (two phantom parameters of one sentence).
    repeated = isinstance(previous, Finding) and previous.evidence == finding.evidence
    if finding.evidence and not repeated and finding.evidence not in finding.message:
        for line in _wrapped(f"{hanging}evidence: {finding.evidence}", 0, style.width, hanging):
            yield style(line, _DIM)
    if finding.suggestion:
        yield from _suggestion_lines(finding.suggestion, hanging, style)


def _mark(mark: str, fails: bool, style: _Style) -> str:
    """The gate column: `fails` (a word, not only a colour) before what fails the run, blank before
    the rest; absent when nothing fails."""
    if not mark:
        return ""
    return style(mark, _BOLD) if fails else " " * len(mark)


def _suggestion_lines(suggestion: str, hanging: str, style: _Style) -> Iterable[str]:
    head, *rest = suggestion.strip().splitlines() or [""]
    yield from _wrapped(f"{hanging}suggestion: {head}", 0, style.width, hanging)
    for line in rest[:8]:
        yield f"{hanging}  {line}"


def _rubric_lines(row: RubricRow, style: _Style, mark: str) -> Iterable[str]:
    """A tool's rubric findings in one entry: its scores and smells on one line, the description they
    judged and the suggestion they share once each."""
    hanging = " " * (len(_HANGING) + len(mark))
    label = style(f"{row.severity.label:<9}", _COLORS[row.severity])
    first, *more = _wrapped(row.headline(), len(hanging), style.width, hanging)
    yield f"    {_mark(mark, row.fails, style)}{label} {first}"
    yield from more
    if row.evidence:
        for line in _wrapped(f"{hanging}evidence: {row.evidence}", 0, style.width, hanging):
            yield style(line, _DIM)
    for suggestion in row.suggestions:
        yield from _suggestion_lines(suggestion, hanging, style)


def _server_lines(report: ServerReport, style: _Style, mark: str) -> Iterable[str]:
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
    for tool, items in grouped(report, shown(report.findings)):
        yield "  (server)" if tool is None else f"  {tool}"
        previous: Row | None = None
        for row in items:
            if isinstance(row, RubricRow):
                yield from _rubric_lines(row, style, mark)
            else:
                yield from _finding_lines(row, style, mark, previous)
            previous = row
    baselined = sum(1 for finding in report.findings if finding.baselined)
    if baselined:
        noun = "finding" if baselined == 1 else "findings"
        yield style(f"  + {baselined} baselined {noun}, not shown (listed in --format json)", _DIM)
    if not report.findings:
        yield "  no findings"


def shown(findings: Iterable[Finding]) -> list[Finding]:
    """The findings the text report lists one by one: the baseline's are only counted."""
    return [finding for finding in findings if not finding.baselined]


def rollup_lines(result: RunResult) -> Iterable[str]:
    """Findings counted per rule, most frequent first, like `ruff --statistics`."""
    counts: dict[tuple[str, str], int] = {}
    for finding in shown(result.findings):
        counts[(finding.code, finding.rule)] = counts.get((finding.code, finding.rule), 0) + 1
    if not counts:
        return
    width = len(str(max(counts.values())))
    yield "by rule:"
    for (code, rule), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        yield f"  {count:>{width}}  {code}  {rule}"


def next_step_lines(result: RunResult, config_hints: bool = True) -> Iterable[str]:
    """What to do next: for what fails the run, where to read what to change (never how to switch
    it off); for a warning, the per-tool ignore with a reason, or the baseline. `config_hints` is
    False where the command reads no config (`gate`)."""
    findings = shown(result.findings)
    failing = [finding for finding in findings if finding.fails]
    if failing:
        codes = list(dict.fromkeys(finding.code for finding in failing))
        listed = _names(codes, _MAX_LISTED)
        what = "change what each finding points at, as its suggestion says;"
        yield f"to fix what fails the run ({listed}), {what}"
        yield f"  `mcp-lint rule {codes[0]}` tells why it matters and what to write instead"
    if not config_hints:
        return
    failing_codes = {finding.code for finding in failing}
    warnings = [
        finding
        for finding in findings
        if not finding.fails and finding.tool is not None and finding.code not in failing_codes
    ]
    if not warnings:
        return
    counts: dict[tuple[str, str, str], int] = {}
    for finding in warnings:
        key = (finding.code, finding.server, finding.tool or "")
        counts[key] = counts.get(key, 0) + 1
    code, server, tool = min(counts, key=lambda key: (-counts[key], key))
    pattern = f"{server}/{tool}".replace("\\", "\\\\").replace('"', '\\"')
    where = "[tool.mcp-lint.per-tool-ignores] in pyproject.toml, [per-tool-ignores] in mcp-lint.toml"
    yield f"to accept a warning for one tool, say why under {where}:"
    yield f'  "{pattern}" = {{ codes = ["{code}"], reason = "<why it is fine>" }}'
    if not failing:
        # Not while something fails: a baseline would record that too, and the run would pass.
        yield "or record today's findings in a baseline, so later runs show only new ones: --update-baseline"


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
    result = printable_result(result)
    style = _Style(options.color, options.width)
    lines: list[str] = []
    # The gate column is there only when something fails, so it marks exactly that.
    mark = "fails " if result.failing else ""
    for report in servers(result):
        lines.extend(_server_lines(report, style, mark))
        lines.append("")
    lines.extend(rollup_lines(result))
    lines.extend(next_step_lines(result, options.config_hints))
    lines.append(summary_line(result))
    failed = [server.name for server in result.servers if server.error is not None]
    if failed:
        lines.append(f"could not lint {len(failed)} server(s): {', '.join(failed)}")
    lines.extend(gate_lines(result))
    if result.jury is not None:
        lines.extend(_jury_lines(result.jury, style))
    # Under GitHub Actions this report lands in the job log, where a line may not be a command.
    return defuse_commands("\n".join(lines)) + "\n"


# Beyond this many stale baseline entries or unused suppressions the text report counts the rest.
_MAX_LISTED = 5


def gate_lines(result: RunResult) -> Iterable[str]:
    """What failed the run and what only warns, the baseline's stale entries, unused suppressions."""
    from mcp_lint.baseline import describe_entry
    from mcp_lint.report import floor_line
    from mcp_lint.suppressions import describe

    baseline = result.baseline
    if baseline is not None and baseline.matched:
        noun = "finding" if baseline.matched == 1 else "findings"
        yield f"baselined: {baseline.matched} {noun} recorded in {baseline.path} (they do not fail the run)"
    if baseline is not None and baseline.stale:
        count = len(baseline.stale)
        noun = "entry matches" if count == 1 else "entries match"
        yield f"baseline: {count} {noun} nothing now (fixed?); prune with --update-baseline:"
        for entry in baseline.stale[:_MAX_LISTED]:
            yield f"  {describe_entry(entry)}"
        if count > _MAX_LISTED:
            yield f"  and {count - _MAX_LISTED} more (all listed in --format json)"
    unused = result.unused_suppressions
    if unused:
        yield "unused suppression(s) in the config; remove them:"
        for item in unused[:_MAX_LISTED]:
            yield f"  {describe(item)}"
        if len(unused) > _MAX_LISTED:
            yield f"  and {len(unused) - _MAX_LISTED} more (all listed in --format json)"
    for problem in result.warnings:
        yield f"warning: {problem}"
    for server in result.under_floor:
        yield f"fails: {floor_line(server, result.floor or 0.0)}"
    if not result.findings:
        return
    failing = len(result.failing)
    warnings = sum(1 for finding in result.findings if not finding.baselined) - failing
    where = f"profile {result.profile}, fail-on {result.fail_on}"
    if failing:
        noun = "finding fails" if failing == 1 else "findings fail"
        rest = f"; {warnings} more {'is a warning' if warnings == 1 else 'are warnings'}" if warnings else ""
        yield f"{failing} {noun} the run ({where}){rest}"
    elif warnings:
        noun = "finding is a warning" if warnings == 1 else "findings are warnings"
        hint = "; --profile strict fails on them" if result.profile == "default" else ""
        yield f"no finding fails the run ({where}); {warnings} {noun}{hint}"


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
