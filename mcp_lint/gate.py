"""The gate stage: from a run's results to the process exit code."""

from __future__ import annotations

from mcp_lint.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_UNREACHABLE
from mcp_lint.model import RunResult, Severity


def failing_findings(result: RunResult, fail_on: str) -> int:
    if fail_on == "none":
        return 0
    threshold = max(Severity.parse(fail_on), Severity.LOW)  # info never fails a run
    return sum(1 for finding in result.findings if finding.severity >= threshold)


def exit_code(result: RunResult, fail_on: str, exit_zero: bool = False) -> int:
    """3 and 4 say the lint is incomplete; no threshold or --exit-zero may turn them into a pass."""
    if any(server.error is not None for server in result.servers):
        return EXIT_UNREACHABLE
    if result.jury is not None and result.jury.unscored:
        return EXIT_INCOMPLETE
    if not exit_zero and failing_findings(result, fail_on):
        return EXIT_FINDINGS
    return EXIT_CLEAN
