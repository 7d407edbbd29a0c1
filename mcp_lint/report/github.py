"""The `github` format: workflow commands that GitHub Actions shows as annotations.

GitHub keeps at most 10 error and 10 warning annotations of a step and drops the rest silently, so
the most severe findings are written first, at most 10 of each level (and 9 notices), and one last
notice counts what was left out. Server-supplied text is escaped the way @actions/core escapes it,
with other control characters made visible, so a description cannot inject a workflow command.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from mcp_lint.model import Anchor, Finding, RunResult, ServerReport, Severity
from mcp_lint.report import ReportOptions, floor_line
from mcp_lint.report.rows import Row, RubricRow, rank, rows, servers
from mcp_lint.sanitize import escape_surrogates

COMMANDS = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MODERATE: "warning",
    Severity.LOW: "notice",
    Severity.INFO: "notice",
}
# GitHub's per-step limits; one notice is kept for the count of what was left out.
LIMITS = {"error": 10, "warning": 10, "notice": 9}
# A job summary over 1 MiB is refused; stay well under it.
MAX_SUMMARY_BYTES = 1_000_000


def _visible(text: str) -> str:
    """Control and invisible format characters (other than line breaks and tab) as `\\uXXXX`."""
    return "".join(
        f"\\u{ord(char):04x}"
        if char not in "\r\n\t" and unicodedata.category(char) in {"Cc", "Cf", "Cs"}
        else char
        for char in text
    )


def escape_data(text: str) -> str:
    return _visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(row: Row) -> str:
    if isinstance(row, RubricRow):
        lines = [row.headline()]
        suggestions = list(row.suggestions)
    else:
        lines = [row.message]
        suggestions = [row.suggestion.strip()] if row.suggestion else []
    for suggestion in suggestions:
        lines += ["", f"Suggestion: {suggestion}"]
    return "\n".join(lines)


def _title(row: Row) -> str:
    where = f"{row.server}/{row.tool}" if row.tool else row.server
    # A word in the title too: the annotation's colour alone does not say what fails the run.
    verdict = "fails the run: " if row.fails else ""
    if isinstance(row, RubricRow):
        return f"{verdict}{', '.join(row.codes)} rubric ({where})"
    return f"{verdict}{row.code} {row.rule} ({where})"


def command_for(finding: Row, result: RunResult) -> str:
    """`error` for a finding that fails the run; one that does not is at most a warning, so the pull
    request shows the smells the default profile lets through without them reading as failures."""
    if finding.fails:
        return "error"
    if finding.baselined:
        return "notice"
    command = COMMANDS[finding.severity]
    return "warning" if command == "error" else command


def annotation(finding: Row, anchor: Anchor, command: str) -> str:
    properties: list[tuple[str, str]] = []
    # A placeholder is no file: the annotation then stands in the run's summary, unattached.
    if anchor.kind != "placeholder":
        properties.append(("file", anchor.path))
        properties.append(("line", str(anchor.start_line)))
        if anchor.region is not None and anchor.region.end_line != anchor.start_line:
            properties.append(("endLine", str(anchor.region.end_line)))
    properties.append(("title", _title(finding)))
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{command} {rendered}::{escape_data(_message(finding))}"


def _ranked(result: RunResult) -> list[tuple[ServerReport, Row]]:
    # Failing findings first, so GitHub's ten errors are never spent on findings that only warn; a
    # tool's rubric findings are one annotation, so they do not take the ten warnings between them.
    pairs = [(report, row) for report in servers(result) for row in rows(report, report.findings)]
    return sorted(pairs, key=lambda pair: rank(pair[1]))


def _left_out_notice(left_out: dict[str, int]) -> str:
    total = sum(left_out.values())
    parts = ", ".join(
        f"{count} {command}{'s' if count != 1 else ''}" for command, count in left_out.items() if count
    )
    noun = "finding" if total == 1 else "findings"
    message = (
        f"{total} more {noun} not annotated ({parts}): GitHub shows at most 10 errors and 10 warnings "
        "per step. See the job summary, or run mcp-lint with --format text or --sarif."
    )
    return f"::notice title={escape_property('mcp-lint: more findings')}::{escape_data(message)}"


def annotation_lines(result: RunResult, options: ReportOptions) -> Iterable[str]:
    written = dict.fromkeys(LIMITS, 0)
    left_out = dict.fromkeys(LIMITS, 0)
    # A server that could not be linted is always shown, and takes its place among the errors.
    for report in result.servers:
        if report.error is not None:
            written["error"] += 1
            title = escape_property(f"mcp-lint: {report.name} could not be linted")
            yield f"::error title={title}::{escape_data(report.error)}"
    for report in result.under_floor:
        written["error"] += 1
        title = escape_property(f"mcp-lint: {report.name} is under min-score")
        yield f"::error title={title}::{escape_data(floor_line(report, result.floor or 0.0))}"
    for report, finding in _ranked(result):
        command = command_for(finding, result)
        if written[command] >= LIMITS[command]:
            # Counted in findings, as the notice says: a rubric row holds one per smelly component.
            left_out[command] += len(finding.findings) if isinstance(finding, RubricRow) else 1
            continue
        written[command] += 1
        anchor = report.place(finding) if isinstance(finding, Finding) else report.anchor_for(finding.tool)
        yield annotation(finding, anchor, command)
    if any(left_out.values()):
        yield _left_out_notice(left_out)


def render(result: RunResult, options: ReportOptions) -> str:
    lines = list(annotation_lines(result, options))
    return "".join(line + "\n" for line in lines)


def step_summary(result: RunResult, options: ReportOptions) -> str:
    """The Markdown job summary, cut to what GitHub takes ($GITHUB_STEP_SUMMARY; the command
    appends it)."""
    from mcp_lint.report import markdown

    text = escape_surrogates(markdown.render(result, options))
    data = text.encode("utf-8")
    if len(data) > MAX_SUMMARY_BYTES:
        note = (
            "\n\n_The summary was cut here: GitHub takes at most 1 MiB. Use --markdown FILE for all of it._\n"
        )
        text = data[: MAX_SUMMARY_BYTES - len(note)].decode("utf-8", errors="ignore") + note
    return text + "\n"
