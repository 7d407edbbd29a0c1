"""What every report leads with (what fails the run, marked by a word), the rubric as one row per tool
in the reports a person reads, and a footer that helps fix rather than silence (issue 22)."""

from __future__ import annotations

import json
from typing import get_args

from mcp_lint.model import (
    Category,
    Component,
    Finding,
    RunResult,
    ServerReport,
    ServerSnapshot,
    Severity,
    Tool,
    ToolScores,
)
from mcp_lint.report import ReportOptions, github, json_report, markdown, sarif, text
from mcp_lint.report.rows import RubricRow, rows, servers


def _server(name: str, findings: list[Finding], **fields: object) -> ServerReport:
    tools = tuple(Tool(tool, {"name": tool}) for tool in dict.fromkeys(f.tool for f in findings if f.tool))
    return ServerReport(name, ServerSnapshot(name, tools), tuple(findings), **fields)  # type: ignore[arg-type]


def one_failure_among_warnings() -> RunResult:
    """Twenty moderate warnings and a high one on a first server, and on a second server linted last
    one low finding that the gate failed: the shape the issue met on the reference servers."""
    calm = [
        Finding("MCP202", "undocumented-parameter", Severity.MODERATE, f"param {n}", "calm", "a")
        for n in range(20)
    ]
    calm.append(Finding("MCP401", "invalid-tool-name", Severity.HIGH, "bad name", "calm", "b"))
    failing = Finding("MCP203", "phantom-parameter", Severity.LOW, "phantom `x`", "bad", "c", fails=True)
    bad = [Finding("MCP202", "undocumented-parameter", Severity.MODERATE, "param", "bad", "d"), failing]
    return RunResult(servers=(_server("calm", calm), _server("bad", bad)))


def test_text_leads_with_what_fails_marked_by_a_word() -> None:
    lines = text.render(one_failure_among_warnings(), ReportOptions(color=True)).splitlines()
    assert lines[0].startswith("\x1b[1mbad\x1b[0m"), "the failing server comes first"
    assert lines[1] == "  c"
    assert lines[2].startswith("    \x1b[1mfails \x1b[0m\x1b[36mlow      \x1b[0m MCP203 phantom-parameter")
    finding_lines = [line for line in lines if "MCP" in line and line.startswith("    ")]
    assert sum("fails" in line for line in finding_lines) == 1
    # The warnings keep their column, blank where the word would be.
    assert all(line.startswith("          ") for line in finding_lines[1:])


def test_markdown_and_github_lead_with_what_fails() -> None:
    run = one_failure_among_warnings()
    summary = markdown.render(run, ReportOptions())
    headings = [line for line in summary.splitlines() if line.startswith("### ")]
    assert headings == ["### bad", "### calm"]
    table = [line for line in summary.splitlines() if line.startswith(("| low", "| moderate"))]
    assert table[0].startswith("| low | **fails** | MCP203 | phantom-parameter | `c` |")
    annotations = github.render(run, ReportOptions()).splitlines()
    assert annotations[0].startswith("::error title=fails the run%3A MCP203 phantom-parameter (bad/c)::")
    assert sum(line.startswith("::error") for line in annotations) == 1


def test_sarif_level_is_error_exactly_for_what_fails() -> None:
    results = json.loads(sarif.render(one_failure_among_warnings(), ReportOptions()))["runs"][0]["results"]
    assert results[0]["ruleId"] == "MCP203", "what fails comes first here too"
    levels = {(r["ruleId"], r["properties"]["severity"]): r["level"] for r in results}
    assert levels == {
        ("MCP202", "moderate"): "warning",
        ("MCP401", "high"): "warning",
        ("MCP203", "low"): "error",
    }


PROPOSAL = "Proposed description (clears MCP701, MCP702):\nReturns the rain in mm for `city`."
SMELLS = (
    ("MCP701", "unclear-purpose", "purpose"),
    ("MCP702", "missing-usage-guidelines", "guidelines"),
    ("MCP703", "unstated-limitations", "limitations"),
    ("MCP704", "opaque-parameters", "parameters"),
    ("MCP705", "underspecified", "length"),
)


def smelly_tool() -> RunResult:
    rubric = [
        Finding(
            code,
            rule,
            Severity.LOW,
            f"{component} is weak ({component} 1/5, threshold 3)",
            "w",
            "rain",
            evidence="'Rain.'",
            suggestion=PROPOSAL,
            category=Category.RUBRIC,
            component=component,  # type: ignore[arg-type]
        )
        for code, rule, component in SMELLS
    ]
    other = Finding("MCP501", "missing-annotations", Severity.LOW, "no annotations", "w", "rain")
    components: tuple[Component, ...] = get_args(Component)
    aggregate: dict[Component, float] = {name: 1.0 for name in components}
    aggregate["examples"] = 4.0
    scores = ToolScores(aggregate, {}, {}, (), {}, None)
    return RunResult(servers=(_server("w", [*rubric, other], tool_scores={"rain": scores}),))


def test_the_rubric_is_one_line_per_tool_where_people_read() -> None:
    run = smelly_tool()
    lines = text.render(run, ReportOptions()).splitlines()
    rubric_lines = [line for line in lines if "rubric" in line and "MCP70" in line]
    assert rubric_lines == [
        "    low       rubric 1.5/5 (purpose 1 · guidelines 1 · limitations 1 · parameters 1 · length 1 · "
        "examples 4): MCP701 unclear-purpose, MCP702 missing-usage-guidelines, MCP703 unstated-limitations, "
        "MCP704 opaque-parameters, MCP705 underspecified"
    ]
    report = "\n".join(lines)
    assert report.count("Returns the rain in mm") == 1 and "as above" not in report
    annotations = github.render(run, ReportOptions()).splitlines()
    assert len(annotations) == 2, "one annotation for the rubric, one for MCP501"
    assert sum("Returns the rain in mm" in line for line in annotations) == 1
    summary = markdown.render(run, ReportOptions())
    rubric_rows = [line for line in summary.splitlines() if "| rubric |" in line]
    assert len(rubric_rows) == 1
    assert "MCP701, MCP702, MCP703, MCP704, MCP705" in rubric_rows[0]
    assert "smells: unclear-purpose, missing-usage-guidelines" in rubric_rows[0]
    assert summary.count("Returns the rain in mm") == 1


def test_json_and_sarif_keep_one_result_per_rubric_code() -> None:
    run = smelly_tool()
    results = json.loads(sarif.render(run, ReportOptions()))["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == ["MCP501", *(code for code, _, _ in SMELLS)]
    document = json.loads(json_report.render(run, ReportOptions()))
    codes = [f["code"] for f in document["servers"][0]["tools"][0]["findings"]]
    assert sorted(codes) == ["MCP501", *(code for code, _, _ in SMELLS)]


def test_rows_fold_a_tools_rubric_and_rank_what_fails_first() -> None:
    run = smelly_tool()
    folded = rows(run.servers[0], run.servers[0].findings)
    assert [type(row).__name__ for row in folded] == ["Finding", "RubricRow"]
    rubric = folded[1]
    assert isinstance(rubric, RubricRow) and rubric.suggestions == (PROPOSAL,)
    assert [report.name for report in servers(one_failure_among_warnings())] == ["bad", "calm"]


def test_the_footer_never_switches_off_what_fails() -> None:
    poisoned = [
        Finding("MCP301", "hidden-instructions", Severity.CRITICAL, f"poison {n}", "s", f"t{n}", fails=True)
        for n in range(3)
    ]
    warning = Finding("MCP202", "undocumented-parameter", Severity.MODERATE, "param", "s", "t0")
    run = RunResult(servers=(_server("s", [*poisoned, warning]),))
    lines = text.render(run, ReportOptions()).splitlines()
    assert not any('= "off' in line for line in lines)
    assert any(line.startswith("to fix what fails the run (MCP301)") for line in lines)
    assert "  `mcp-lint rule MCP301` tells why it matters and what to write instead" in lines
    assert '  "s/t0" = { codes = ["MCP202"], reason = "<why it is fine>" }' in lines
    assert not any("--update-baseline" in line for line in lines), "a baseline would record what fails too"


def test_warnings_alone_get_the_ignore_and_the_baseline_and_gate_gets_neither() -> None:
    warning = Finding("MCP202", "undocumented-parameter", Severity.MODERATE, "param", "s", "t0")
    run = RunResult(servers=(_server("s", [warning]),))
    lines = text.render(run, ReportOptions()).splitlines()
    assert '  "s/t0" = { codes = ["MCP202"], reason = "<why it is fine>" }' in lines
    assert any("--update-baseline" in line for line in lines)
    gate = text.render(run, ReportOptions(config_hints=False))
    assert "pyproject" not in gate and "per-tool-ignores" not in gate and "baseline" not in gate


def test_wrapped_lines_keep_the_gate_column_and_the_width() -> None:
    long = "word " * 30
    failing = Finding(
        "MCP301", "hidden-instructions", Severity.CRITICAL, long, "s", "a", evidence=long, fails=True
    )
    run = RunResult(servers=(_server("s", [failing]), *smelly_tool().servers))
    lines = text.render(run, ReportOptions(width=70)).splitlines()
    body = [line for line in lines[: lines.index("by rule:")] if line.startswith("    ")]
    assert len(body) > 6 and all(len(line) <= 70 for line in body)
    # Continuation lines hang under the code, after the gate and severity columns.
    assert all(line.startswith(" " * 20) for line in body if not line.lstrip().startswith(("fails", "low")))


def test_the_left_out_notice_counts_findings_not_rows() -> None:
    # Eleven tools, each with five rubric findings: ten notices are written (nine rows and the count).
    rubric = [
        Finding(code, rule, Severity.LOW, "weak", "w", f"t{n}", category=Category.RUBRIC, component=component)  # type: ignore[arg-type]
        for n in range(11)
        for code, rule, component in SMELLS
    ]
    lines = github.render(RunResult(servers=(_server("w", rubric),)), ReportOptions()).splitlines()
    assert len(lines) == 10
    assert "10 more findings not annotated (10 notices)" in lines[-1].replace("%2C", ",")
