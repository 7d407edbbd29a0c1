"""The gate stage: decides once which findings fail the run and which servers are under the score
floor, and maps the decided result to the process exit code. Reporters only read the decisions."""

from __future__ import annotations

from dataclasses import replace

from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_UNREACHABLE
from mcp_lint.model import Finding, RunResult, ServerReport, Severity, replaced
from mcp_lint.profiles import BREAKING_SEVERITY, Profile, get_profile, threshold


def _fails(finding: Finding, lowest: Severity | None, profile: Profile, breaking: frozenset[str]) -> bool:
    """Whether `finding` fails the run; `lowest` is the run's `threshold(fail_on)` (read once per
    run, not per finding: it parses the fail-on level)."""
    if lowest is None or finding.baselined or finding.severity < lowest:
        return False
    if profile.every_finding or finding.severity >= BREAKING_SEVERITY:
        return True
    return profile.breaking_rules and finding.code in breaking


def floor_in_force(result: RunResult) -> float | None:
    """The run's --min-score / min-score, else the profile's; None when `--fail-on none` turned the
    gate off (it is the switch for "report, never fail")."""
    if result.fail_on == "none":
        return None
    return result.min_score if result.min_score is not None else get_profile(result.profile).min_score


def _under(server: ServerReport, floor: float | None) -> bool:
    # An unscored server is never under the floor.
    return floor is not None and server.score is not None and server.score.overall < floor


def decide(result: RunResult, catalogue: Catalogue | None = None) -> RunResult:
    """The result with every finding's `fails`, every server's `under_floor` and the run's `floor`
    set, from its profile, fail-on, min-score and baseline marks."""
    profile = get_profile(result.profile)
    breaking = frozenset(rule.code for rule in (catalogue or load_catalogue()).rules if rule.breaking)
    floor = floor_in_force(result)
    # (read only when some finding asks, as it was when each finding read it)
    lowest = threshold(result.fail_on) if any(server.findings for server in result.servers) else None
    servers = tuple(
        replace(
            server,
            findings=tuple(
                # A finding that keeps its mark is kept as it is (a copy is all replace() would make).
                finding if finding.fails is fails else replaced(finding, fails=fails)
                for finding in server.findings
                for fails in (_fails(finding, lowest, profile, breaking),)
            ),
            under_floor=_under(server, floor),
        )
        for server in result.servers
    )
    shown = result.min_score if result.min_score is not None else profile.min_score
    return replace(result, servers=servers, floor=shown)


def exit_code(result: RunResult, exit_zero: bool = False) -> int:
    """The exit code of a decided result. 3 and 4 say the lint is incomplete; no threshold or
    --exit-zero may turn them into a pass."""
    if any(server.error is not None for server in result.servers):
        return EXIT_UNREACHABLE
    if result.jury is not None and result.jury.unscored:
        return EXIT_INCOMPLETE
    if not exit_zero and (result.failing or result.under_floor):
        return EXIT_FINDINGS
    return EXIT_CLEAN
