"""Every reporter tells failing findings from warnings and baselined ones, and shows the gate's extras."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from mcp_lint.gate import decide
from mcp_lint.model import (
    BaselineEntry,
    BaselineStatus,
    Finding,
    RunResult,
    ServerReport,
    ServerScore,
    ServerSnapshot,
    Severity,
    Tool,
    UnusedSuppression,
)
from mcp_lint.report import ReportOptions, github, json_report, markdown, sarif, text

SCHEMA = Path(__file__).resolve().parents[2] / "mcp_lint" / "data" / "report.schema.json"


def gated_run(profile: str = "default") -> RunResult:
    findings = (
        Finding(
            "MCP301", "hidden-instructions", Severity.CRITICAL, "poisoned", "s", "a", subject="description"
        ),
        Finding("MCP702", "missing-usage-guidelines", Severity.MODERATE, "no guidelines", "s", "a"),
        Finding("MCP401", "invalid-tool-name", Severity.HIGH, "bad name", "s", "a", baselined=True),
    )
    snapshot = ServerSnapshot("s", (Tool("a", {"name": "a", "description": "x"}),))
    return decide(
        RunResult(
            servers=(ServerReport("s", snapshot, findings, score=ServerScore(1.1, {}, 1)),),
            profile=profile,
            baseline=BaselineStatus(
                ".mcp-lint/baseline.json",
                1,
                (BaselineEntry("s", "gone", "MCP202", "x", 1, "undocumented-parameter"),),
            ),
            unused_suppressions=(UnusedSuppression("per-tool-ignores", "old_*", "renamed"),),
            warnings=("mcp-lint.toml: rules.MCP203 is turned off without a reason",),
        )
    )


def test_github_errors_only_for_failing_findings() -> None:
    lines = github.render(gated_run(), ReportOptions()).splitlines()
    assert lines[0].startswith("::error title=mcp-lint%3A s is under min-score::s: rubric score 1.1 is under")
    commands = {line.split("title=")[1].split("::")[0]: line.split(" ")[0] for line in lines[1:]}
    assert commands == {
        "fails the run%3A MCP301 hidden-instructions (s/a)": "::error",
        "MCP702 missing-usage-guidelines (s/a)": "::warning",
        "MCP401 invalid-tool-name (s/a)": "::notice",
    }
    strict = github.render(gated_run("strict"), ReportOptions()).splitlines()
    assert [line.split(" ")[0] for line in strict[1:]] == ["::error", "::error", "::notice"]


def test_text_lists_the_gate() -> None:
    report = text.render(gated_run(), ReportOptions())
    assert "bad name" not in report, "baselined findings are only counted"
    assert "  + 1 baselined finding, not shown (listed in --format json)" in report
    tail = report.splitlines()[-8:]
    assert tail[:7] == [
        "baselined: 1 finding recorded in .mcp-lint/baseline.json (they do not fail the run)",
        "baseline: 1 entry matches nothing now (fixed?); prune with --update-baseline:",
        "  s/gone MCP202 undocumented-parameter (x)",
        "unused suppression(s) in the config; remove them:",
        "  per-tool-ignores 'old_*': silenced nothing",
        "warning: mcp-lint.toml: rules.MCP203 is turned off without a reason",
        "fails: s: rubric score 1.1 is under the floor of 1.2 (min-score)",
    ]
    assert tail[7] == "1 finding fails the run (profile default, fail-on low); 1 more is a warning"


def test_json_carries_the_gate_and_matches_the_schema() -> None:
    document = json.loads(json_report.render(gated_run(), ReportOptions()))
    jsonschema.validate(document, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert (document["profile"], document["minScore"]) == ("default", 1.2)
    findings = document["servers"][0]["tools"][0]["findings"]
    assert [(f["code"], f["fails"], f["baselined"]) for f in findings] == [
        ("MCP301", True, False),
        ("MCP702", False, False),
        ("MCP401", False, True),
    ]
    summary = document["summary"]
    assert (summary["failing"], summary["baselined"], summary["serversUnderMinScore"]) == (1, 1, ["s"])
    assert document["baseline"]["stale"][0]["tool"] == "gone"
    assert document["unusedSuppressions"] == [
        {"kind": "per-tool-ignores", "key": "old_*", "reason": "renamed"}
    ]


def test_markdown_and_sarif_mark_the_gate() -> None:
    table = [
        line for line in markdown.render(gated_run(), ReportOptions()).splitlines() if line.startswith("| ")
    ]
    assert [row.split(" | ")[1] for row in table[2:]] == ["**fails**", "baselined", "warns"]
    results = json.loads(sarif.render(gated_run(), ReportOptions()))["runs"][0]["results"]
    # What fails first, then by severity, as in the Markdown table.
    assert [(r["ruleId"], r["baselineState"], r["properties"]["fails"]) for r in results] == [
        ("MCP301", "new", True),
        ("MCP401", "unchanged", False),
        ("MCP702", "new", False),
    ]
