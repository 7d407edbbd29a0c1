"""The pipeline, wired: reach -> reflect -> check -> score -> propose -> locate -> gate -> report.

Each stage takes the typed result of the one before and returns it with its own part added; nothing
flows back up, and nothing here prints. `lint` runs the stages up to the proposals (what every report
and `--fix` start from); the command may then apply `--fix` and a baseline, and `conclude` locates the
findings in the repository (when an output needs places) and decides the gate once. Reporters only
render the concluded result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mcp_lint.check.engine import (
    ActiveRule,
    active_rules,
    check_server,
    description_budget,
    relint_with,
    rubric_thresholds,
    validate_settings,
)
from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.config import JurySettings, Settings
from mcp_lint.gate import decide
from mcp_lint.model import (
    Category,
    JuryReport,
    RunResult,
    ServerReport,
    ToolScores,
    UnusedSuppression,
)
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import Target
from mcp_lint.reflect import Reflection, reflect_all
from mcp_lint.suppressions import (
    SuppressionTracker,
    missing_reason_warnings,
    rule_offs,
    shadow_rules,
    unused_rule_offs,
)

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


def lint(
    targets: Sequence[Target | UnreachableTarget],
    settings: Settings,
    jury: JurySettings | None,
    catalogue: Catalogue | None = None,
    bases: Mapping[str, Counter[str]] | None = None,
) -> RunResult:
    """Reach and reflect every target, then check, score and propose (see `check_reflections`).

    `bases` (--since) maps a server to the tool definitions of its base: only the tools that differ
    are linted (see mcp_lint.since).
    """
    catalogue = catalogue or load_catalogue()
    validate_settings(settings, catalogue)
    reflections = reflect_all(targets, settings.timeout)
    return check_reflections(reflections, settings, jury, catalogue, bases)


def check_reflections(
    reflections: Sequence[Reflection],
    settings: Settings,
    jury: JurySettings | None,
    catalogue: Catalogue | None = None,
    bases: Mapping[str, Counter[str]] | None = None,
) -> RunResult:
    """Check the reflected servers (the jury scores the rubric when a rubric rule is on), then
    propose a description for each tool with a rubric finding."""
    from mcp_lint.fix.propose import add_proposals

    catalogue = catalogue or load_catalogue()
    rules = active_rules(catalogue, settings)
    result = _check(reflections, settings, jury, catalogue, rules, bases)
    return add_proposals(
        result, rubric_thresholds(rules) or None, catalogue, description_budget(rules, catalogue)
    )


def conclude(result: RunResult, cwd: str | None = None, catalogue: Catalogue | None = None) -> RunResult:
    """The last stages before the reports: locate each finding in the repository holding `cwd` (only
    when given: SARIF and GitHub annotations need places, a text report does not), then decide the
    gate (which findings fail the run, which servers are under the score floor)."""
    if cwd is not None:
        from mcp_lint.anchors import locate

        result = locate(result, cwd)
    return decide(result, catalogue)


def _check(
    reflections: Sequence[Reflection],
    settings: Settings,
    jury: JurySettings | None,
    catalogue: Catalogue,
    rules: list[ActiveRule],
    bases: Mapping[str, Counter[str]] | None,
) -> RunResult:
    if bases is not None:
        reflections = [_changed_only(item, bases) for item in reflections]
    # The rules run unsuppressed and the tracker drops what per-tool-ignores silence, so it can tell
    # which entries silenced nothing. The rules turned off run too, in the shadow, for the same reason.
    tracker = SuppressionTracker(settings.per_tool_ignores, catalogue)
    unsuppressed = replace(settings, per_tool_ignores=())
    offs = rule_offs(catalogue, settings)
    snapshots = [item.snapshot for item in reflections if item.snapshot is not None]
    outcome: JuryOutcome | None = None
    if jury is not None and snapshots and any(active.rule.category is Category.RUBRIC for active in rules):
        from mcp_lint.jury.run import score_servers

        outcome = score_servers(snapshots, jury)
    shadow = [
        item
        for item in shadow_rules(catalogue, settings, offs)
        if outcome or item.rule.category is not Category.RUBRIC
    ]
    shadow_found: Counter[str] = Counter({item.rule.code: 0 for item in shadow})
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
        findings = tracker.keep(check_server(snapshot, rules, unsuppressed, tool_scores), snapshot.aliases)
        if shadow:
            shadow_found.update(f.code for f in check_server(snapshot, shadow, unsuppressed, tool_scores))
        reports.append(
            ServerReport(
                name=snapshot.name,
                snapshot=snapshot,
                findings=findings,
                tool_scores=tool_scores,
                score=outcome.servers.get(snapshot.name) if outcome else None,
            )
        )
    # A server that could not be linted, or tools --since left out, might be what a suppression is for:
    # say nothing rather than something wrong.
    complete = len(snapshots) == len(reflections) and bases is None
    unused: list[UnusedSuppression] = []
    if complete:
        ran = [
            active.rule
            for active in rules
            if outcome is not None or active.rule.category is not Category.RUBRIC
        ]
        unused = [*tracker.unused(ran), *unused_rule_offs(offs, shadow_found)]
    where = str(settings.config_path) if settings.config_path else "settings"
    return RunResult(
        servers=tuple(reports),
        fail_on=settings.fail_on,
        jury=_jury_report(outcome) if outcome else None,
        profile=settings.profile,
        min_score=settings.min_score,
        unused_suppressions=tuple(unused),
        warnings=tuple(missing_reason_warnings(offs, where)),
        relint=relint_with(rules, settings),
    )


def _changed_only(item: Reflection, bases: Mapping[str, Counter[str]]) -> Reflection:
    from mcp_lint.since import changed_tools

    if item.snapshot is None or item.name not in bases:
        return item
    return replace(item, snapshot=changed_tools(item.snapshot, bases[item.name]))
