"""SARIF as GitHub code scanning ingests it: the official schema, plus the rules GitHub adds."""

from __future__ import annotations

import ast
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import sarif_om as om

from mcp_lint.fix.propose import suggestion_text
from mcp_lint.jury.aggregate import ToolScores
from mcp_lint.jury.base import COMPONENTS
from mcp_lint.model import (
    Category,
    Finding,
    Proposal,
    RunResult,
    ServerReport,
    ServerSnapshot,
    Severity,
    Tool,
)
from mcp_lint.pipeline import conclude
from mcp_lint.report import ReportOptions
from mcp_lint.report.sarif import _Builder, sarif_document

TESTS = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((TESTS / "fixtures" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
GOLDEN = TESTS / "fixtures" / "golden" / "smelly.sarif"


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def assert_github_accepts(document: dict[str, Any]) -> None:
    """The official schema, then what GitHub checks on top of it (see docs/conventions section 1)."""
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    assert "" not in set(strings(document)), "GitHub rejects empty strings"
    assert len(document["runs"]) == 1
    run = document["runs"][0]
    assert run["automationDetails"]["id"].endswith("/")
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        assert len(rule["shortDescription"]["text"]) <= 1024 and len(rule["fullDescription"]["text"]) <= 1024
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in {"note", "warning", "error"}
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        physical = result["locations"][0]["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert not uri.startswith("/") and ":" not in uri.split("/")[0], uri
        assert physical["region"]["startLine"] >= 1


def test_golden_sarif_is_valid_for_github() -> None:
    document = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert_github_accepts(document)
    run = document["runs"][0]
    levels = {result["level"] for result in run["results"]}
    # What fails is an error, a moderate finding (MCP202 on an opaque parameter) a warning, the rest
    # a note; "warning" is written, not dropped as the serializer's default.
    assert levels == {"error", "warning", "note"}
    by_id = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert by_id["MCP301"]["properties"]["security-severity"] == "9.5"
    assert by_id["MCP302"]["properties"]["security-severity"] == "8.0"
    assert all(
        "security-severity" not in rule["properties"] for code, rule in by_id.items() if code[3] != "3"
    )
    assert by_id["MCP002"]["defaultConfiguration"] == {"level": "warning"}
    assert by_id["MCP202"]["defaultConfiguration"] == {"level": "warning"}


def test_every_result_carries_our_fingerprint_source_anchored_too() -> None:
    # A direct API upload computes no line hash: a source-anchored result needs ours as much as the
    # others (issue 22). The key is our own, never GitHub's reserved primaryLocationLineHash.
    run = json.loads(GOLDEN.read_text(encoding="utf-8"))["runs"][0]
    kinds = {result["properties"]["anchor"] for result in run["results"]}
    assert "source" in kinds, "the golden run has source-anchored results"
    for result in run["results"]:
        assert set(result["partialFingerprints"]) == {"mcpLint/v1"}


def test_builder_keeps_fields_equal_to_their_defaults() -> None:
    build = _Builder()
    result = build(om.Result, message=build(om.Message, text="x"), level="warning", kind="fail")
    config = build(om.ReportingConfiguration, level="warning")
    assert build.document(result) == {"message": {"text": "x"}, "level": "warning", "kind": "fail"}
    assert build.document(config) == {"level": "warning"}
    with pytest.raises(TypeError):
        build.document(om.Message(text="made elsewhere"))


def scored(rewrite: str | None) -> ToolScores:
    aggregate = dict.fromkeys(COMPONENTS, 2.0)
    return ToolScores(aggregate, {"judge": aggregate}, {}, (), {}, rewrite)


def run_result(
    server: str, tool: str, description: str, origin: str | None, rewrite: str | None
) -> RunResult:
    snapshot = ServerSnapshot(
        server, (Tool(tool, {"name": tool, "description": description}),), origin=origin
    )
    # The rubric findings of a tool carry its proposed description, as the propose stage writes it.
    proposal = Proposal(server, tool, description, ("guidelines", "length"), rewrite, clears=("guidelines",))
    suggestion = suggestion_text(proposal) if rewrite else None
    findings = (
        Finding(
            "MCP702",
            "missing-usage-guidelines",
            Severity.MODERATE,
            "No usage guidelines",
            server,
            tool,
            suggestion=suggestion,
            category=Category.RUBRIC,
            component="guidelines",
        ),
        Finding(
            "MCP705",
            "underspecified",
            Severity.MODERATE,
            "Underspecified",
            server,
            tool,
            suggestion=suggestion,
            category=Category.RUBRIC,
            component="length",
        ),
        Finding("MCP001", "stdout-pollution", Severity.HIGH, "Prints on stdout", server),
    )
    report = ServerReport(
        server,
        snapshot,
        findings,
        tool_scores={tool: scored(rewrite)} if rewrite else {},
        proposals={tool: proposal} if rewrite else {},
    )
    return RunResult(servers=(report,))


def placed(result: RunResult, options: ReportOptions) -> dict[str, Any]:
    """The SARIF of `result` once the locate and gate stages ran, as the CLI writes it."""
    return sarif_document(conclude(result, options.cwd), options)


def test_fix_replaces_the_exact_description_literal(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        '@mcp.tool()\ndef ping() -> str:\n    """Replies."""\n    return \'pong\'\n', encoding="utf-8"
    )
    rewrite = 'Replies "pong"; use it to check the server is alive.'
    document = placed(
        run_result("local", "ping", "Replies.", None, rewrite), ReportOptions(cwd=str(tmp_path))
    )
    assert_github_accepts(document)
    results = document["runs"][0]["results"]
    fixed = [result for result in results if "fixes" in result]
    assert len(fixed) == 1  # one suggestion per tool, not one per rubric finding
    replacement = fixed[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement["deletedRegion"] == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 19}
    # The docstring stays a docstring, escaped for Python: the fixed file defines the new description.
    inserted = replacement["insertedContent"]["text"]
    assert inserted.startswith('"""')
    fixed_source = (tmp_path / "server.py").read_text(encoding="utf-8").replace('"""Replies."""', inserted)
    function = ast.parse(fixed_source).body[0]
    assert isinstance(function, ast.FunctionDef) and ast.get_docstring(function, clean=False) == rewrite
    assert rewrite in fixed[0]["message"]["text"] and fixed[0]["properties"]["rewrite"] == rewrite
    assert "Suggested description:" not in fixed[0]["message"]["text"]  # said once, as the suggestion
    assert fixed[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "server.py"


def test_unverified_source_gets_no_fix(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "@mcp.tool()\ndef ping() -> str:\n    'Other text.'\n", encoding="utf-8"
    )
    document = placed(run_result("local", "ping", "Replies.", None, "New."), ReportOptions(cwd=str(tmp_path)))
    assert_github_accepts(document)
    assert all("fixes" not in result for result in document["runs"][0]["results"])


def test_config_entry_line_then_placeholder(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(
        '{\n  "mcpServers": {\n    "other": {"command": "a"},\n    "weird:name": {"command": "b"}\n  }\n}\n',
        encoding="utf-8",
    )
    options = ReportOptions(cwd=str(tmp_path))
    configured = placed(run_result("weird:name", "t", "D.", ".mcp.json", None), options)
    assert_github_accepts(configured)
    for result in configured["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]
        assert location == {"artifactLocation": {"uri": ".mcp.json"}, "region": {"startLine": 4}}
    unplaced = placed(run_result("weird:name", "t", "D.", "stdin", None), options)
    assert_github_accepts(unplaced)
    run = unplaced["runs"][0]
    uris = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in run["results"]
    }
    assert uris == {"mcp-lint/servers/weird%3Aname"}
    assert run["artifacts"][0]["location"]["uri"] == "mcp-lint/servers/weird%3Aname"
    # Stable across runs, distinct per rule.
    again = placed(run_result("weird:name", "t", "D.", "stdin", None), options)["runs"][0]
    prints = [result["partialFingerprints"]["mcpLint/v1"] for result in run["results"]]
    assert prints == [result["partialFingerprints"]["mcpLint/v1"] for result in again["results"]]
    assert len(set(prints)) == len(prints)


def test_a_server_that_could_not_be_linted_is_a_notification(tmp_path: Path) -> None:
    result = RunResult(servers=(ServerReport("down", None, error="could not start: boom"),))
    document = sarif_document(result, ReportOptions(cwd=str(tmp_path)))
    assert_github_accepts(document)
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "boom" in invocation["toolExecutionNotifications"][0]["message"]["text"]


WEATHER = Path(__file__).resolve().parents[2] / "examples" / "weather_server.py"


def sarif_of(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    from mcp_lint.cli import main

    main(["check", "--isolated", "--format", "sarif", *args])
    results: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    return results


def test_a_parameter_finding_points_at_the_parameter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 22: "`period` has no description" pointed at the docstring, not at `period`.
    monkeypatch.chdir(tmp_path)
    shutil.copy(WEATHER, tmp_path / "weather.py")
    results = sarif_of(capsys, "--", sys.executable, "weather.py")
    source = (tmp_path / "weather.py").read_text(encoding="utf-8").splitlines()
    period = next(
        r for r in results if r["ruleId"] == "MCP202" and r["properties"].get("path", "").endswith(".period")
    )
    region = period["locations"][0]["physicalLocation"]["region"]
    line = source[region["startLine"] - 1]
    assert line.startswith("def get_forecast(")
    assert line[region["startColumn"] - 1 : region["endColumn"] - 1] == "period: str"
    # A finding about the tool as a whole stays at its description.
    rubric = next(r for r in results if r["ruleId"] == "MCP704" and r["properties"]["tool"] == "get_forecast")
    assert (
        source[rubric["locations"][0]["physicalLocation"]["region"]["startLine"] - 1]
        .strip()
        .startswith('"""')
    )


def test_a_live_server_is_not_anchored_on_a_snapshot_in_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_lint.cli import main

    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    shutil.copy(WEATHER, elsewhere / "weather.py")
    monkeypatch.chdir(project)
    assert main(["snapshot", "-o", "tools.json", "--", sys.executable, "../elsewhere/weather.py"]) == 0
    capsys.readouterr()
    live = sarif_of(capsys, "--", sys.executable, "../elsewhere/weather.py")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in live}
    assert "tools.json" not in uris and uris == {"mcp-lint/servers/weather"}
    # Replaying the snapshot itself still points into it.
    replayed = sarif_of(capsys, "tools.json")
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in replayed} == {
        "tools.json"
    }
