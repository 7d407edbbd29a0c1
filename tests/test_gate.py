"""Exit codes: the gate's contract with CI."""

from __future__ import annotations

from mcp_lint.gate import exit_code
from mcp_lint.model import Finding, JuryReport, RunResult, ServerReport, ServerSnapshot, Severity, Unscored


def result(*severities: Severity, error: str | None = None, unscored: bool = False) -> RunResult:
    findings = tuple(Finding("MCP101", "missing-description", level, "m", "s", "t") for level in severities)
    servers = [ServerReport("s", ServerSnapshot("s", ()), findings)]
    if error:
        servers.append(ServerReport("down", None, error=error))
    pairs = (Unscored(server="s", tool="t", judge="j", reason="r"),) if unscored else ()
    return RunResult(tuple(servers), jury=JuryReport(judges=("j",), rubric_version=1, unscored=pairs))


def test_clean_run_passes() -> None:
    assert exit_code(result(), "low") == 0
    assert exit_code(RunResult((ServerReport("s", ServerSnapshot("s", ())),)), "low") == 0, "no jury run"


def test_threshold_is_inclusive_and_info_never_fails() -> None:
    assert exit_code(result(Severity.MODERATE), "moderate") == 1
    assert exit_code(result(Severity.MODERATE), "high") == 0
    assert exit_code(result(Severity.INFO), "info") == 0
    assert exit_code(result(Severity.LOW), "info") == 1


def test_none_and_exit_zero_pass_findings() -> None:
    assert exit_code(result(Severity.CRITICAL), "none") == 0
    assert exit_code(result(Severity.CRITICAL), "low", exit_zero=True) == 0


def test_unreachable_and_unscored_are_never_masked() -> None:
    assert exit_code(result(error="down"), "none", exit_zero=True) == 3
    assert exit_code(result(unscored=True), "none", exit_zero=True) == 4
    assert exit_code(result(error="down", unscored=True), "low") == 3
