"""The gate's verdict: one JSON record a registry can store beside the entry it judged.

It says which entry and version, what each package and remote scored and found, whether the entry
passed the registry profile, and which mcp-lint and rubric produced it, so a verdict can be
recomputed or compared later. It is written for every outcome, an invalid entry included.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_lint
from mcp_lint.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_UNREACHABLE, EXIT_USAGE
from mcp_lint.files import write_text_atomic
from mcp_lint.model import RunResult, ServerReport, Severity
from mcp_lint.registry.entry import Problem, RegistryEntry

VERDICT_VERSION = 1

STATUS = {
    EXIT_CLEAN: "pass",
    EXIT_FINDINGS: "fail",
    EXIT_USAGE: "invalid",
    EXIT_UNREACHABLE: "unreachable",
    EXIT_INCOMPLETE: "incomplete",
}


@dataclass(frozen=True)
class Judged:
    """One package or remote of the entry and the server report it produced (None: never started)."""

    path: str  # packages[0], remotes[0]
    describe: Mapping[str, Any]  # registryType/identifier/version, or type/url
    report: ServerReport | None


def _counts(reports: Sequence[ServerReport]) -> dict[str, int]:
    counted = Counter(finding.severity for report in reports for finding in report.findings)
    return {level.label: counted.get(level, 0) for level in sorted(Severity, reverse=True)}


def _rubric_version(result: RunResult | None) -> int:
    if result is not None and result.jury is not None:
        return result.jury.rubric_version
    from mcp_lint.jury.rubric import load_rubric

    return load_rubric().version


def _judged(item: Judged, result: RunResult | None, redact: Callable[[str], str]) -> dict[str, Any]:
    report = item.report
    document: dict[str, Any] = {"path": item.path, **item.describe}
    if report is None or result is None:
        document.update({"server": None, "tools": None, "score": None, "counts": None, "failing": None})
        document["error"] = None
        return document
    snapshot = report.snapshot
    document.update(
        {
            "server": report.name,
            "tools": len(snapshot.tools) if snapshot is not None else None,
            "score": round(report.score.overall, 3) if report.score is not None else None,
            "counts": _counts([report]) if snapshot is not None else None,
            "failing": sum(1 for finding in report.findings if finding.fails),
            "error": redact(report.error) if report.error is not None else None,
        }
    )
    return document


def verdict_document(
    *,
    exit_code: int,
    entry: RegistryEntry | None,
    source: str,
    packages: Sequence[Judged] = (),
    remotes: Sequence[Judged] = (),
    result: RunResult | None = None,
    problems: Sequence[Problem] = (),
    error: str | None = None,
    redact: Callable[[str], str] = str,
) -> dict[str, Any]:
    """The verdict of one gate run. `error` is the one line that stopped it before any lint."""
    reports = [item.report for item in (*packages, *remotes) if item.report is not None]
    scored = [report.score.overall for report in reports if report.score is not None]
    return {
        "verdictVersion": VERDICT_VERSION,
        "entry": {
            "name": entry.name if entry else None,
            "version": entry.version if entry else None,
            "schema": entry.schema if entry else None,
            "file": source,
        },
        "status": STATUS.get(exit_code, "invalid"),
        "pass": exit_code == EXIT_CLEAN,
        "exitCode": exit_code,
        "profile": result.profile if result else "registry",
        "failOn": result.fail_on if result else None,
        "minScore": result.floor if result else None,
        "score": round(min(scored), 3) if scored else None,
        "counts": _counts(reports),
        "failing": sum(1 for report in reports for finding in report.findings if result and finding.fails),
        "packages": [_judged(item, result, redact) for item in packages],
        "remotes": [_judged(item, result, redact) for item in remotes],
        "problems": [str(problem) for problem in problems],
        "error": redact(error) if error is not None else None,
        "jury": list(result.jury.judges) if result and result.jury else None,
        "mcpLint": mcp_lint.__version__,
        "rubricVersion": _rubric_version(result),
    }


# A lone surrogate (an entry may hold "\\ud800") has no UTF-8 form: it is written as its JSON escape.
_SURROGATE = re.compile("[\ud800-\udfff]")


def write_verdict(path: Path, document: Mapping[str, Any]) -> None:
    """Written whole or not at all: a registry never stores half a verdict."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    text = _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    write_text_atomic(path, text + "\n")
