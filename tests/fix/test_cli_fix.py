"""`check --fix` through the CLI on a committed snapshot: the JSON tool list is the source it edits."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mcp_lint.cli import main

SNAPSHOT = Path(__file__).parents[1] / "fixtures" / "golden" / "smelly-snapshot.json"
RUBRIC = {"MCP701", "MCP702", "MCP703", "MCP704", "MCP705", "MCP706"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", "--isolated", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def rubric_count(capsys: pytest.CaptureFixture[str], path: str) -> int:
    _, out, _ = run(capsys, path, "--format", "json")
    document = json.loads(out)
    return sum(
        1
        for server in document["servers"]
        for tool in server["tools"]
        for finding in tool["findings"]
        if finding["code"] in RUBRIC
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(SNAPSHOT, tmp_path / "tools.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_fix_edits_the_json_tool_list_and_the_report_is_of_the_fixed_tools(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = rubric_count(capsys, "tools.json")
    code, out, err = run(capsys, "tools.json", "--fix", "--format", "json")
    assert "Fixed " in err and "descriptions" in err
    fixed = json.loads((project / "tools.json").read_text(encoding="utf-8"))  # still JSON
    assert isinstance(fixed["tools"], list)
    reported = sum(
        1
        for server in json.loads(out)["servers"]
        for tool in server["tools"]
        for finding in tool["findings"]
        if finding["code"] in RUBRIC
    )
    after = rubric_count(capsys, "tools.json")
    assert reported == after < before  # the report after --fix is the lint of what was written
    assert code == 1  # the poisoned tool is still there: the remaining findings decide (ruff's way)


def test_components_limit_the_parts(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = {tool["name"]: tool["description"] for tool in json.loads(SNAPSHOT.read_text())["tools"]}
    _, _, err = run(capsys, "tools.json", "--diff", "--components", "parameters")
    assert "adds parameters;" in err and "adds guidelines" not in err
    assert {
        tool["name"]: tool["description"]
        for tool in json.loads((project / "tools.json").read_text())["tools"]
    } == original


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--traces", "t.jsonl"), "--traces only applies with --fix or --diff"),
        (("--components", "purpose"), "--components only applies with --fix or --diff"),
        (("--fix", "--unsafe-fixes"), "--unsafe-fixes lets an LLM write the rewrites: pass --jury MODEL"),
        (("--fix", "--components", "tone"), "--components: unknown component 'tone'"),
        (("--fix", "--traces", "missing.jsonl"), "missing.jsonl"),
    ],
)
def test_wrong_fix_flags_are_usage_errors(
    project: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, "tools.json", *args)
    assert code == 2 and message in err
