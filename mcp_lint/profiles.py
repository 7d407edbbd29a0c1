"""Gate profiles: which findings can fail a run, and the server score floor. Data only: the gate
stage (mcp_lint.gate) applies them.

A profile never hides a finding: every report shows them all. It only decides which of them turn the
run red. `default` fails on what breaks an agent or a user (high and critical findings, plus the
rules marked `breaking: true` in `rules/` whatever their severity) and on a server whose rubric score
is under a floor; the other smells are warnings. `strict` fails on every finding at or above
`fail-on`, as mcp-lint did before profiles existed. See docs/configuration.md, "Which profile", for
how the defaults were chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mcp_lint.model import Severity

# The lowest effective severity that always gates under `default`: clients reject the schema or the
# listing, the description poisons the model, invisible characters, duplicate or invalid names, and
# anything a user raised to high in [rules].
BREAKING_SEVERITY = Severity.HIGH

# Under the offline jury the six reference servers of CI score 1.275 to 2.564, and a server whose
# tools say nothing (empty or name-only descriptions, undocumented parameters) scores 1.0 to 1.1: a
# floor of 1.2 fails the second kind and none of the first. Raise it with `min-score` once the
# descriptions improve, or with LLM judges, which score the same text higher.
DEFAULT_MIN_SCORE = 1.2


@dataclass(frozen=True, eq=False, repr=False)
class Profile:
    name: str
    summary: str
    every_finding: bool  # False: only high and critical findings (and breaking rules) fail the run
    min_score: float | None
    # Whether the rules marked `breaking: true` fail the run whatever their severity.
    breaking_rules: bool = True


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
            breaking_rules=False,
        ),
    )
}
DEFAULT_PROFILE = "default"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; use one of: {', '.join(PROFILES)}") from None


def threshold(fail_on: str) -> Severity | None:
    """The lowest severity that fails; None for `none`. Info never fails a run."""
    if fail_on == "none":
        return None
    return max(Severity.parse(fail_on), Severity.LOW)
