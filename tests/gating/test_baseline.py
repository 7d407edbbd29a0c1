"""Baselines: only new findings fail; stale entries are listed for pruning; the file diffs cleanly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from mcp_lint.baseline import (
    BASELINE_FORMAT,
    apply_baseline,
    baseline_text,
    describe_entry,
    load_baseline,
    refusal,
    write_baseline,
)
from mcp_lint.errors import UsageError
from mcp_lint.gate import decide
from mcp_lint.gate import exit_code as decided_exit_code
from mcp_lint.model import Finding, RunResult, ServerReport, ServerSnapshot, Severity, Tool


def exit_code(result: RunResult) -> int:
    return decided_exit_code(decide(result))


def undocumented(tool: str, parameter: str, message: str = "Parameter has no description") -> Finding:
    return Finding("MCP202", "undocumented-parameter", Severity.HIGH, message, "srv", tool, subject=parameter)


def run(*findings: Finding, tools: tuple[str, ...] = ("a", "b")) -> RunResult:
    snapshot = ServerSnapshot("srv", tuple(Tool(name, {"name": name}) for name in tools))
    return RunResult((ServerReport("srv", snapshot, findings),), profile="strict")


def roundtrip(tmp_path: Path, result: RunResult) -> Path:
    path = tmp_path / ".mcp-lint" / "baseline.json"
    write_baseline(path, result)
    return path


def test_recorded_findings_pass_and_new_ones_fail(tmp_path: Path) -> None:
    path = roundtrip(tmp_path, run(undocumented("a", "x")))
    entries = load_baseline(path)
    same = apply_baseline(run(undocumented("a", "x")), entries, str(path))
    assert exit_code(same) == 0
    assert same.baseline is not None and same.baseline.matched == 1 and same.baseline.stale == ()
    grown = apply_baseline(run(undocumented("a", "x"), undocumented("a", "y")), entries, str(path))
    assert exit_code(grown) == 1
    assert [(f.subject, f.baselined) for f in grown.findings] == [("x", True), ("y", False)]


def test_rewording_a_message_keeps_the_match(tmp_path: Path) -> None:
    path = roundtrip(tmp_path, run(undocumented("a", "x", "old wording")))
    reworded = apply_baseline(run(undocumented("a", "x", "new wording")), load_baseline(path), str(path))
    assert reworded.findings[0].baselined


def test_counts_let_only_the_extra_finding_fail(tmp_path: Path) -> None:
    twice = run(undocumented("a", ""), undocumented("a", ""))
    path = roundtrip(tmp_path, twice)
    assert [entry.count for entry in load_baseline(path)] == [2]
    thrice = apply_baseline(run(*(undocumented("a", ""),) * 3), load_baseline(path), str(path))
    assert [f.baselined for f in thrice.findings] == [True, True, False]


def test_fixed_findings_leave_stale_entries(tmp_path: Path) -> None:
    path = roundtrip(tmp_path, run(undocumented("a", "x"), undocumented("b", "y"), undocumented("b", "y")))
    fixed = apply_baseline(run(undocumented("b", "y")), load_baseline(path), str(path))
    assert fixed.baseline is not None
    assert [describe_entry(entry) for entry in fixed.baseline.stale] == [
        "srv/a MCP202 undocumented-parameter (x)",
        "srv/b MCP202 undocumented-parameter (y)",
    ]
    assert exit_code(fixed) == 0, "a fix never fails the run"


def test_stale_is_judged_only_where_the_run_looked(tmp_path: Path) -> None:
    path = roundtrip(tmp_path, run(undocumented("a", "x")))
    entries = load_baseline(path)
    other_rules = apply_baseline(run(), entries, str(path), checked_codes={"MCP101"})
    assert other_rules.baseline is not None and other_rules.baseline.stale == ()
    since = apply_baseline(run(tools=("b",)), entries, str(path), every_tool=False)
    assert since.baseline is not None and since.baseline.stale == ()
    down = RunResult((ServerReport("srv", None, error="boom"),))
    assert apply_baseline(down, entries, str(path)).baseline.stale == ()  # type: ignore[union-attr]


def test_file_is_sorted_and_has_no_timestamp(tmp_path: Path) -> None:
    result = run(undocumented("b", "y"), undocumented("a", "x"))
    text = baseline_text(result)
    assert text == baseline_text(run(undocumented("a", "x"), undocumented("b", "y"))), "order-independent"
    document = json.loads(text)
    assert list(document) == sorted(document) and document["format"] == BASELINE_FORMAT
    assert [item["tool"] for item in document["findings"]] == ["a", "b"]
    assert set(document["findings"][0]) == {"server", "tool", "code", "rule", "subject", "count"}


def test_update_keeps_servers_the_run_did_not_lint(tmp_path: Path) -> None:
    other = replace(undocumented("z", "q"), server="other")
    path = tmp_path / "baseline.json"
    write_baseline(path, RunResult((ServerReport("other", ServerSnapshot("other", ()), (other,)),)))
    write_baseline(path, run(undocumented("a", "x")), load_baseline(path))
    assert sorted(entry.server for entry in load_baseline(path)) == ["other", "srv"]


def test_refuses_to_record_an_incomplete_run() -> None:
    down = RunResult((ServerReport("srv", None, error="srv: could not start"),))
    assert refusal(down) == "not updating the baseline: srv: could not start"
    assert refusal(run(undocumented("a", "x"))) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"findings": []}', "not an mcp-lint baseline"),
        (f'{{"format": "{BASELINE_FORMAT}", "findings": {{}}}}', "must be a list"),
        (f'{{"format": "{BASELINE_FORMAT}", "findings": [{{"server": "s"}}]}}', "are required"),
        (
            f'{{"format": "{BASELINE_FORMAT}", "findings": [{{"server": "s", "code": "X", "count": 0}}]}}',
            "count: expected a whole number",
        ),
    ],
)
def test_a_broken_file_is_one_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        load_baseline(path)


def test_missing_file_says_how_to_create_it(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--update-baseline"):
        load_baseline(tmp_path / "nope.json")
