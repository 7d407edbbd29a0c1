"""Exit codes: the gate's contract with CI, under each profile."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mcp_lint.check.rules import load_catalogue
from mcp_lint.gate import decide
from mcp_lint.gate import exit_code as decided_exit_code
from mcp_lint.model import (
    Finding,
    JuryReport,
    RunResult,
    ServerReport,
    ServerScore,
    ServerSnapshot,
    Severity,
    Unscored,
)
from mcp_lint.profiles import DEFAULT_MIN_SCORE, PROFILES, get_profile

CATALOGUE = load_catalogue()
# The rules `rules/` marks `breaking: true`.
BREAKING_RULES = sorted(rule.name for rule in CATALOGUE.rules if rule.breaking)


def finding(level: Severity, rule: str = "missing-description", baselined: bool = False) -> Finding:
    found = CATALOGUE.find(rule)
    assert found is not None, rule
    return Finding(found.code, rule, level, "m", "s", "t", baselined=baselined)


def exit_code(run: RunResult, fail_on: str | None = None, exit_zero: bool = False) -> int:
    """The gate stage's decision, then its exit code (with `fail_on` replacing the run's own)."""
    return decided_exit_code(decide(replace(run, fail_on=fail_on or run.fail_on)), exit_zero=exit_zero)


def fails(item: Finding, run: RunResult) -> bool:
    decided = decide(replace(run, servers=(ServerReport("s", ServerSnapshot("s", ()), (item,)),)))
    return decided.servers[0].findings[0].fails


def failing_findings(run: RunResult) -> tuple[Finding, ...]:
    return decide(run).failing


def under_floor(run: RunResult) -> list[ServerReport]:
    return list(decide(run).under_floor)


def result(
    *findings: Finding,
    error: str | None = None,
    unscored: bool = False,
    profile: str = "strict",
    score: float | None = None,
    min_score: float | None = None,
) -> RunResult:
    server_score = ServerScore(score, {}, 1) if score is not None else None
    servers = [ServerReport("s", ServerSnapshot("s", ()), findings, score=server_score)]
    if error:
        servers.append(ServerReport("down", None, error=error))
    pairs = (Unscored(server="s", tool="t", judge="j", reason="r"),) if unscored else ()
    return RunResult(
        tuple(servers),
        jury=JuryReport(judges=("j",), rubric_version=1, unscored=pairs),
        profile=profile,
        min_score=min_score,
    )


def levels(*severities: Severity, profile: str = "strict") -> RunResult:
    return result(*(finding(level) for level in severities), profile=profile)


def test_clean_run_passes() -> None:
    assert exit_code(result(), "low") == 0
    assert exit_code(RunResult((ServerReport("s", ServerSnapshot("s", ())),)), "low") == 0, "no jury run"


def test_threshold_is_inclusive_and_info_never_fails() -> None:
    assert exit_code(levels(Severity.MODERATE), "moderate") == 1
    assert exit_code(levels(Severity.MODERATE), "high") == 0
    assert exit_code(levels(Severity.INFO), "info") == 0
    assert exit_code(levels(Severity.LOW), "info") == 1


def test_none_and_exit_zero_pass_findings() -> None:
    assert exit_code(levels(Severity.CRITICAL), "none") == 0
    assert exit_code(levels(Severity.CRITICAL), "low", exit_zero=True) == 0
    assert exit_code(result(score=1.0), "none") == 0, "--fail-on none turns the score floor off too"
    assert exit_code(result(score=1.0), "low", exit_zero=True) == 0


def test_unreachable_and_unscored_are_never_masked() -> None:
    assert exit_code(result(error="down"), "none", exit_zero=True) == 3
    assert exit_code(result(unscored=True), "none", exit_zero=True) == 4
    assert exit_code(result(error="down", unscored=True), "low") == 3


def test_default_profile_fails_only_on_breaking_findings() -> None:
    smells = result(finding(Severity.MODERATE, "unclear-purpose"), finding(Severity.LOW), profile="default")
    assert exit_code(smells) == 0
    assert exit_code(result(finding(Severity.HIGH), profile="default")) == 1
    # phantom-parameter, dangling-tool-reference and contradictory-annotations were breaking until
    # the sealed corpus could not show their precision (docs/precision.md)
    assert BREAKING_RULES == ["broken-pagination"]
    for rule in BREAKING_RULES:
        assert exit_code(result(finding(Severity.MODERATE, rule), profile="default")) == 1, rule
    # a user who raises a smell to high in [rules] makes it breaking
    assert exit_code(result(finding(Severity.HIGH, "unclear-purpose"), profile="default")) == 1


def test_fail_on_narrows_the_default_profile() -> None:
    phantom = finding(Severity.MODERATE, "phantom-parameter")
    assert exit_code(result(phantom, profile="default"), "high") == 0
    assert exit_code(result(finding(Severity.HIGH), profile="default"), "critical") == 0


def test_strict_fails_on_everything_default_fails_on() -> None:
    every = [finding(level, rule) for level in Severity for rule in ("unclear-purpose", *BREAKING_RULES)]
    assert any(fails(item, run_with("default", "low")) for item in every)
    for item in every:
        for fail_on in ("info", "low", "moderate", "high", "critical", "none"):
            if fails(item, run_with("default", fail_on)):
                assert fails(item, run_with("strict", fail_on))
    assert get_profile("strict").min_score == get_profile("default").min_score


def run_with(profile: str, fail_on: str) -> RunResult:
    return RunResult((), fail_on=fail_on, profile=profile)


def test_baselined_findings_never_fail() -> None:
    run = result(finding(Severity.CRITICAL, baselined=True), finding(Severity.LOW))
    assert [item.severity for item in failing_findings(run)] == [Severity.LOW]
    assert exit_code(result(finding(Severity.CRITICAL, baselined=True))) == 0


def test_score_floor() -> None:
    assert exit_code(result(score=DEFAULT_MIN_SCORE - 0.01, profile="default")) == 1
    assert exit_code(result(score=DEFAULT_MIN_SCORE, profile="default")) == 0, "the floor itself passes"
    assert exit_code(result(score=2.5, min_score=3.0, profile="default")) == 1
    assert exit_code(result(score=1.1, min_score=1.0, profile="default")) == 0
    assert [server.name for server in under_floor(result(score=1.0))] == ["s"]
    assert under_floor(result(profile="default")) == [], "an unscored server has no score to be under"


def test_unknown_profile_names_the_choices() -> None:
    with pytest.raises(ValueError, match="use one of: default, strict, registry"):
        get_profile("lenient")
    assert set(PROFILES) == {"default", "strict", "registry"}
