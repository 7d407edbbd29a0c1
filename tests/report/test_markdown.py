"""The Markdown summary: cells that cannot break the table, and the order of findings."""

from __future__ import annotations

from mcp_lint.gate import decide
from mcp_lint.model import Finding, RunResult, ServerReport, ServerSnapshot, Severity, Tool
from mcp_lint.report import ReportOptions
from mcp_lint.report.markdown import bar, cell, render
from mcp_lint.report.text import render as render_text


def test_cells_escape_pipes_html_and_line_breaks() -> None:
    assert cell("a|b <script>&\nnext") == "a\\|b &lt;script&gt;&amp;<br>next"
    assert cell("") == " "


def test_bars_are_proportional() -> None:
    assert bar(5.0) == "█" * 10 and bar(1.0) == "██" + "░" * 8 and bar(0) == "░" * 10


def moderate_then_critical() -> RunResult:
    moderate = [
        Finding("MCP702", "missing-usage-guidelines", Severity.MODERATE, f"m{n}", "s", "a") for n in range(30)
    ]
    critical = Finding("MCP301", "hidden-instructions", Severity.CRITICAL, "poisoned | <IMPORTANT>", "s", "b")
    findings = (*moderate, critical)
    tools = (Tool("a", {"name": "a"}), Tool("b", {"name": "b"}))
    return decide(RunResult(servers=(ServerReport("s", ServerSnapshot("s", tools), findings),)))


def test_most_severe_first_in_markdown_and_text() -> None:
    table = [
        line
        for line in render(moderate_then_critical(), ReportOptions()).splitlines()
        if line.startswith("| ")
    ]
    expected = "| critical | **fails** | MCP301 | hidden-instructions | `b` | "
    expected += "poisoned \\| &lt;IMPORTANT&gt; |"
    assert table[2] == expected
    text = render_text(moderate_then_critical(), ReportOptions()).splitlines()
    assert text[1] == "  b" and text[2].startswith("    fails critical  MCP301")


def test_text_ends_with_a_rollup_and_what_to_do_next() -> None:
    lines = render_text(moderate_then_critical(), ReportOptions()).splitlines()
    start = lines.index("by rule:")
    assert lines[start + 1 : start + 3] == [
        "  30  MCP702  missing-usage-guidelines",
        "   1  MCP301  hidden-instructions",
    ]
    assert lines[start + 3].startswith("to fix what fails the run (MCP301), change what each finding")
    assert '  "s/a" = { codes = ["MCP702"], reason = "<why it is fine>" }' in lines


def test_text_wraps_to_the_terminal_width_only_when_asked() -> None:
    long = Finding(
        "MCP702", "missing-usage-guidelines", Severity.MODERATE, "word " * 40, "s", "a", suggestion="x " * 50
    )
    run = RunResult(servers=(ServerReport("s", ServerSnapshot("s", (Tool("a", {"name": "a"}),)), (long,)),))
    wrapped = render_text(run, ReportOptions(width=60)).splitlines()
    finding_lines = wrapped[wrapped.index("  a") + 1 : wrapped.index("by rule:") - 1]
    assert len(finding_lines) > 4 and all(len(line) <= 60 for line in finding_lines)
    assert all(line.startswith(" " * 14) for line in finding_lines[1:])
    unwrapped = render_text(run, ReportOptions()).splitlines()
    assert len(unwrapped[unwrapped.index("  a") + 1 : unwrapped.index("by rule:") - 1]) == 2
