"""Gate profiles: which findings can fail a run, and the server score floor.

A profile never hides a finding: every report shows them all. It only decides which of them turn the
run red. `default` fails on what breaks an agent or a user (high and critical findings, plus the
named rules below whatever their severity) and on a server whose rubric score is under a floor; the
other smells are warnings. `strict` fails on every finding at or above `fail-on`, as mcp-lint did
before profiles existed. See docs/configuration.md, "Which profile", for how the defaults were chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mcp_lint.model import Finding, RunResult, ServerReport, Severity

# Rules that break a client or mislead a user although their catalogue severity is only moderate:
# a paginated tools/list that never ends or repeats (the client loops or loses tools), a description
# that tells the model to pass a parameter the schema does not have or to call a tool the server does
# not have (the call fails), and annotations that contradict the tool (a client may auto-approve a
# destructive call as read-only). required-mismatch stays a warning: a model that follows the schema
# still makes a valid call.
BREAKING_RULES = frozenset(
    {"broken-pagination", "phantom-parameter", "dangling-tool-reference", "contradictory-annotations"}
)

# The lowest effective severity that always gates under `default`: clients reject the schema or the
# listing, the description poisons the model, invisible characters, duplicate or invalid names, and
# anything a user raised to high in [rules].
BREAKING_SEVERITY = Severity.HIGH

# Under the offline jury the six reference servers of CI score 1.275 to 2.564, and a server whose
# tools say nothing (empty or name-only descriptions, undocumented parameters) scores 1.0 to 1.1: a
# floor of 1.2 fails the second kind and none of the first. Raise it with `min-score` once the
# descriptions improve, or with LLM judges, which score the same text higher.
DEFAULT_MIN_SCORE = 1.2


@dataclass(frozen=True)
class Profile:
    name: str
    summary: str
    every_finding: bool  # False: only breaking findings (see `breaking`) can fail the run
    min_score: float | None
    # The rules that fail the run whatever their severity, besides every high and critical finding.
    breaking_rules: frozenset[str] = BREAKING_RULES


PROFILES: Mapping[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "default",
            "fail on breaking findings and on a server score under min-score; other smells warn",
            every_finding=False,
            min_score=DEFAULT_MIN_SCORE,
        ),
        # Everything default fails, strict fails too: same floor, every finding in scope.
        Profile(
            "strict",
            "fail on every finding at or above fail-on, and on a server score under min-score",
            every_finding=True,
            min_score=DEFAULT_MIN_SCORE,
        ),
        # `mcp-lint gate`: what a registry refuses to list is what is high or critical, for every
        # server alike, and a server under the floor; the moderate rules default fails on are
        # reported, never fatal, since the publisher cannot baseline them away in a registry.
        Profile(
            "registry",
            "fail on high and critical findings and on a server score under min-score",
            every_finding=False,
            min_score=DEFAULT_MIN_SCORE,
            breaking_rules=frozenset(),
        ),
    )
}
DEFAULT_PROFILE = "default"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; use one of: {', '.join(PROFILES)}") from None


def breaking(finding: Finding) -> bool:
    """Whether a finding breaks an agent or a user, whatever the profile."""
    return finding.severity >= BREAKING_SEVERITY or finding.rule in BREAKING_RULES


def threshold(fail_on: str) -> Severity | None:
    """The lowest severity that fails; None for `none`. Info never fails a run."""
    if fail_on == "none":
        return None
    return max(Severity.parse(fail_on), Severity.LOW)


def fails(finding: Finding, result: RunResult) -> bool:
    """Whether this finding, on its own, fails the run (exit 1 unless --exit-zero)."""
    lowest = threshold(result.fail_on)
    if lowest is None or finding.baselined or finding.severity < lowest:
        return False
    profile = get_profile(result.profile)
    if profile.every_finding or finding.severity >= BREAKING_SEVERITY:
        return True
    return finding.rule in profile.breaking_rules


def min_score(result: RunResult) -> float | None:
    """The floor in force: the run's --min-score / min-score, else the profile's."""
    return result.min_score if result.min_score is not None else get_profile(result.profile).min_score


def under_floor(result: RunResult) -> list[ServerReport]:
    """The servers whose rubric score is below the floor; unscored servers are never under it.

    `--fail-on none` turns the floor off too: it is the switch for "report, never fail on findings".
    """
    floor = min_score(result)
    if floor is None or result.fail_on == "none":
        return []
    return [server for server in result.servers if server.score is not None and server.score.overall < floor]


def floor_line(server: ServerReport, floor: float) -> str:
    score = server.score.overall if server.score is not None else 0.0
    return f"{server.name}: rubric score {score:g} is under the floor of {floor:g} (min-score)"
