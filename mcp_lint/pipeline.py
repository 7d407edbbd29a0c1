"""The pipeline, wired: reach -> reflect -> (jury) -> check -> RunResult. No printing here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mcp_lint.check.engine import ActiveRule, active_rules, check_server, validate_settings
from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.config import JurySettings, Settings
from mcp_lint.model import JuryReport, RunResult, ServerReport, ToolScores, UnusedSuppression
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import Target
from mcp_lint.reflect import Reflection, reflect_all
from mcp_lint.suppressions import SuppressionTracker

if TYPE_CHECKING:
    from mcp_lint.jury.run import JuryOutcome


def _jury_report(outcome: JuryOutcome) -> JuryReport:
    from mcp_lint.jury.rubric import load_rubric

    return JuryReport(
        judges=outcome.judges,
        rubric_version=load_rubric().version,
        usage=outcome.usage,
        unscored=outcome.unscored,
        warnings=outcome.warnings,
    )


def _unused(
    tracker: SuppressionTracker, rules: Sequence[ActiveRule], outcome: JuryOutcome | None, complete: bool
) -> tuple[UnusedSuppression, ...]:
    # A server that could not be linted might be the one an entry is for: say nothing rather than wrong.
    if not complete:
        return ()
    ran = [active.rule for active in rules if outcome is not None or active.rule.category != "rubric"]
    return tuple(tracker.unused(ran))


def lint(
    targets: Sequence[Target | UnreachableTarget],
    settings: Settings,
    jury: JurySettings | None,
    catalogue: Catalogue | None = None,
) -> RunResult:
    """Reflect every target, score the rubric when a rubric rule is on, and run the rules."""
    catalogue = catalogue or load_catalogue()
    validate_settings(settings, catalogue)
    reflections = reflect_all(targets, settings.timeout)
    return check_reflections(reflections, settings, jury, catalogue)


def check_reflections(
    reflections: Sequence[Reflection],
    settings: Settings,
    jury: JurySettings | None,
    catalogue: Catalogue | None = None,
) -> RunResult:
    catalogue = catalogue or load_catalogue()
    rules = active_rules(catalogue, settings)
    # The rules run unsuppressed and the tracker drops what per-tool-ignores silence, so it can tell
    # which entries silenced nothing.
    tracker = SuppressionTracker(settings.per_tool_ignores, catalogue)
    unsuppressed = replace(settings, per_tool_ignores=())
    snapshots = [item.snapshot for item in reflections if item.snapshot is not None]
    outcome: JuryOutcome | None = None
    if jury is not None and snapshots and any(active.rule.category == "rubric" for active in rules):
        from mcp_lint.jury.run import score_servers

        outcome = score_servers(snapshots, jury)
    reports: list[ServerReport] = []
    for item in reflections:
        snapshot = item.snapshot
        if snapshot is None:
            reports.append(ServerReport(item.name, None, error=item.error))
            continue
        tool_scores: dict[str, ToolScores] = (
            {tool: scores for (server, tool), scores in outcome.tools.items() if server == snapshot.name}
            if outcome
            else {}
        )
        findings = tracker.keep(check_server(snapshot, rules, unsuppressed, tool_scores))
        reports.append(
            ServerReport(
                name=snapshot.name,
                snapshot=snapshot,
                findings=findings,
                tool_scores=tool_scores,
                score=outcome.servers.get(snapshot.name) if outcome else None,
            )
        )
    return RunResult(
        servers=tuple(reports),
        fail_on=settings.fail_on,
        jury=_jury_report(outcome) if outcome else None,
        unused_suppressions=_unused(tracker, rules, outcome, complete=len(snapshots) == len(reflections)),
    )
