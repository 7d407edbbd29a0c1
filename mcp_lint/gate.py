"""The gate stage: from a run's results to the process exit code."""

from __future__ import annotations

from dataclasses import replace

from mcp_lint.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_UNREACHABLE
from mcp_lint.model import Finding, RunResult
from mcp_lint.profiles import fails, under_floor


def failing_findings(result: RunResult) -> list[Finding]:
    """The findings that fail the run under its profile and fail-on; baselined ones never do."""
    return [finding for finding in result.findings if fails(finding, result)]


def exit_code(result: RunResult, fail_on: str | None = None, exit_zero: bool = False) -> int:
    """3 and 4 say the lint is incomplete; no threshold or --exit-zero may turn them into a pass.

    `fail_on`, when given, replaces the run's own threshold.
    """
    if fail_on is not None:
        result = replace(result, fail_on=fail_on)
    if any(server.error is not None for server in result.servers):
        return EXIT_UNREACHABLE
    if result.jury is not None and result.jury.unscored:
        return EXIT_INCOMPLETE
    if not exit_zero and (failing_findings(result) or under_floor(result)):
        return EXIT_FINDINGS
    return EXIT_CLEAN
