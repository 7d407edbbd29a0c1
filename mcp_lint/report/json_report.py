"""The `json` format: a versioned document described by `mcp_lint/data/report.schema.json`.

The only place that knows the report's key names (camelCase, like MCP itself): everything else reads
the records of `mcp_lint.model`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mcp_lint
from mcp_lint.baseline import entry_document
from mcp_lint.check.rules import load_catalogue
from mcp_lint.model import (
    COMPONENTS,
    BaselineStatus,
    Component,
    Finding,
    JuryReport,
    Proposal,
    RunResult,
    ServerReport,
    ServerScore,
    ToolScores,
    Usage,
)
from mcp_lint.report import ReportOptions
from mcp_lint.sanitize import dumps_strict

REPORT_VERSION = 1


def finding_document(finding: Finding, result: RunResult) -> dict[str, Any]:
    return {
        "code": finding.code,
        "rule": finding.rule,
        "severity": finding.severity.label,
        "message": finding.message,
        "evidence": finding.evidence,
        "path": finding.path,
        "suggestion": finding.suggestion,
        "subject": finding.subject,
        "baselined": finding.baselined,
        "fails": finding.fails,
    }


def _scores_document(scores: ToolScores) -> dict[str, Any]:
    return {
        "scores": {name: scores.aggregate.get(name) for name in COMPONENTS},
        "judges": {judge: dict(per) for judge, per in sorted(scores.judges.items())},
        "spread": {name: scores.spread.get(name) for name in COMPONENTS if name in scores.spread},
        "disagreements": list(scores.disagreements),
    }


def _server_score_document(score: ServerScore | None) -> dict[str, Any] | None:
    if score is None:
        return None
    return {"overall": score.overall, "components": dict(score.components), "tools": score.tools}


def _usage_document(usage: Usage) -> dict[str, Any]:
    return {
        "calls": usage.calls,
        "attempts": usage.attempts,
        "failed": usage.failed,
        "cacheHits": usage.cache_hits,
        "cacheMisses": usage.cache_misses,
        "promptTokens": usage.prompt_tokens,
        "completionTokens": usage.completion_tokens,
        "costUsd": usage.cost_usd,
        "unpricedModels": list(usage.unpriced_models),
        "models": {
            model: {
                "calls": spent.calls,
                "promptTokens": spent.prompt_tokens,
                "completionTokens": spent.completion_tokens,
                "costUsd": spent.cost_usd,
            }
            for model, spent in usage.by_model.items()
        },
    }


def _jury_document(jury: JuryReport) -> dict[str, Any]:
    return {
        "judges": list(jury.judges),
        "rubricVersion": jury.rubric_version,
        "usage": _usage_document(jury.usage),
        "unscored": [
            {"server": item.server, "tool": item.tool, "judge": item.judge, "reason": item.reason}
            for item in jury.unscored
        ],
        "warnings": list(jury.warnings),
    }


def _proposal_document(proposal: Proposal, codes: Mapping[Component, str]) -> dict[str, Any]:
    """The tool's proposed description as data: the text to paste (null when there is none), the
    rubric rules the offline re-score finds it clears and not, the parts it adds and what each rests
    on, the mechanical fixes, and with no rewrite why not and what to write by hand."""
    left = [name for name in proposal.targets if name not in proposal.clears]
    return {
        "description": proposal.description,
        "clears": [codes.get(name, name) for name in proposal.clears],
        "notCleared": [codes.get(name, name) for name in left] if proposal.description is not None else [],
        "adds": list(proposal.touched),
        "groundedIn": dict(proposal.grounded_in),
        "scores": {
            "before": {name: proposal.before[name] for name in COMPONENTS if name in proposal.before},
            "after": {name: proposal.scores[name] for name in COMPONENTS if name in proposal.scores},
        },
        "repairs": list(proposal.repairs),
        "refused": proposal.refused,
        "toWrite": list(proposal.checklist),
    }


def server_document(report: ServerReport, result: RunResult) -> dict[str, Any]:
    snapshot = report.snapshot
    codes: dict[Component, str] = {}
    for rule in load_catalogue().rules:
        if rule.component is not None:
            codes.setdefault(rule.component, rule.code)
    by_tool: dict[str, list[dict[str, Any]]] = {}
    server_findings: list[dict[str, Any]] = []
    for finding in report.findings:
        target = server_findings if finding.tool is None else by_tool.setdefault(finding.tool, [])
        target.append(finding_document(finding, result))
    tools: list[dict[str, Any]] = []
    seen: set[str] = set()
    for tool in snapshot.tools if snapshot else ():
        entry: dict[str, Any] = {
            "name": tool.name,
            "findings": [] if tool.name in seen else by_tool.get(tool.name, []),
        }
        seen.add(tool.name)
        scores = report.tool_scores.get(tool.name)
        if scores is not None:
            entry.update(_scores_document(scores))
        else:
            entry["scores"] = None
        proposal = report.proposals.get(tool.name)
        if proposal is not None:
            entry["proposal"] = _proposal_document(proposal, codes)
        tools.append(entry)
    return {
        "name": report.name,
        "error": report.error,
        "origin": snapshot.origin if snapshot else None,
        "protocolVersion": snapshot.protocol_version if snapshot else None,
        "serverInfo": dict(snapshot.server_info) if snapshot and snapshot.server_info else None,
        "score": _server_score_document(report.score),
        "findings": server_findings,
        "tools": tools,
    }


def document(result: RunResult) -> dict[str, Any]:
    counts = result.counts()
    return {
        "version": REPORT_VERSION,
        "tool": {"name": "mcp-lint", "version": mcp_lint.__version__},
        "failOn": result.fail_on,
        "profile": result.profile,
        "minScore": result.floor,
        "servers": [server_document(server, result) for server in result.servers],
        "summary": {
            **counts,
            "servers": len(result.servers),
            "serversFailed": sum(1 for server in result.servers if server.error is not None),
            "tools": sum(len(server.snapshot.tools) for server in result.servers if server.snapshot),
            "failing": len(result.failing),
            "baselined": sum(1 for finding in result.findings if finding.baselined),
            "serversUnderMinScore": [server.name for server in result.under_floor],
        },
        "baseline": _baseline_document(result.baseline),
        "unusedSuppressions": [
            {"kind": item.kind, "key": item.key, "reason": item.reason} for item in result.unused_suppressions
        ],
        "warnings": list(result.warnings),
        "jury": _jury_document(result.jury) if result.jury is not None else None,
    }


def _baseline_document(status: BaselineStatus | None) -> dict[str, Any] | None:
    if status is None:
        return None
    return {
        "path": status.path,
        "matched": status.matched,
        "stale": [entry_document(entry) for entry in status.stale],
    }


def render(result: RunResult, options: ReportOptions) -> str:
    return dumps_strict(document(result)) + "\n"
