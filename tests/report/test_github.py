"""GitHub workflow commands: escaping, the per-step caps and the job summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint.files import append_text
from mcp_lint.gate import decide
from mcp_lint.model import Finding, RunResult, ServerReport, ServerSnapshot, Severity, Tool
from mcp_lint.report import ReportOptions
from mcp_lint.report.github import escape_data, escape_property, render, step_summary


def finding(severity: Severity, number: int, message: str = "smell") -> Finding:
    # Codes of no real rule: none of them is a breaking rule of the catalogue.
    return Finding(f"TST{number:03d}", "rule", severity, message, "srv", f"tool_{number}")


def result(*findings: Finding) -> RunResult:
    tools = tuple(Tool(f.tool or "", {"name": f.tool}) for f in findings)
    return decide(
        RunResult(servers=(ServerReport("srv", ServerSnapshot("srv", tools, origin="stdin"), findings),))
    )


def test_escaping_follows_actions_core() -> None:
    assert escape_data("100%\r\nnext") == "100%25%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    # A terminal escape or an invisible character a server sent becomes visible text.
    assert escape_data("x\x1b[31m\u200by") == "x\\u001b[31m\\u200by"


def test_server_text_cannot_start_a_command(tmp_path: Path) -> None:
    evil = "fine\n::error file=x::injected"
    out = render(result(finding(Severity.MODERATE, 1, evil)), ReportOptions(cwd=str(tmp_path)))
    assert out.count("\n") == 1 and "fine%0A::error" in out


def test_caps_keep_the_most_severe_and_count_the_rest(tmp_path: Path) -> None:
    findings = [finding(Severity.MODERATE, n) for n in range(30)]
    findings += [finding(Severity.LOW, 100 + n) for n in range(12)]
    findings += [finding(Severity.CRITICAL, 200 + n) for n in range(11)]
    lines = render(result(*findings), ReportOptions(cwd=str(tmp_path))).splitlines()
    commands = [line.split(" ", 1)[0] for line in lines]
    assert commands == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"] * 10
    assert lines[-1].startswith("::notice title=mcp-lint%3A more findings::")
    assert "24 more findings not annotated (1 error, 20 warnings, 3 notices)" in lines[-1].replace("%2C", ",")
    # A placeholder anchor is no file: no file= property.
    assert "file=" not in lines[0] and "title=fails the run%3A TST200 rule (srv/tool_200)" in lines[0]


def test_step_summary_is_appended(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    append_text(summary, step_summary(result(finding(Severity.HIGH, 1, "a | b <b>")), ReportOptions()))
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n## mcp-lint")
    assert "a \\| b &lt;b&gt;" in text


def test_cli_defaults_to_github_under_actions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_lint.cli import main

    golden = Path(__file__).resolve().parent.parent / "fixtures" / "golden"
    summary = tmp_path / "summary.md"
    monkeypatch.chdir(golden)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    sarif = tmp_path / "out.sarif"
    code = main(["check", "smelly-snapshot.json", "--isolated", "--ignore", "MCP7", "--sarif", str(sarif)])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("::error ")
    assert summary.read_text(encoding="utf-8").startswith("## mcp-lint")
    assert '"version": "2.1.0"' in sarif.read_text(encoding="utf-8")
