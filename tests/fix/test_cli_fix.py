"""`check --fix` through the CLI on a committed snapshot: the JSON tool list is the source it edits."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fake_llm_server import FakeLLM

from mcp_lint.cli import main
from mcp_lint.traces import TraceRecord, TraceWriter

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
    # Recorded calls: what a rewrite adds beyond the listing comes from them.
    with TraceWriter(tmp_path / "calls.jsonl") as writer:
        for tool, arguments, text, failed in CALLS:
            writer.write(TraceRecord(tool, arguments, ({"type": "text", "text": text},), is_error=failed))
    monkeypatch.chdir(tmp_path)
    return tmp_path


CALLS = [
    ("get_forecast", {"city": "Oslo", "period": "today"}, "Oslo today: 3 C, light snow", False),
    ("get_forecast", {"city": "Atlantis"}, "Unknown city: Atlantis", True),
    ("current_conditions", {"city": "Oslo"}, '{"temp": 3, "humidity": 80, "wind": 5}', False),
    ("delete_alert", {"alert_id": "a1"}, "No alert a1", True),
]
TRACES = ("--traces", "calls.jsonl")


def test_fix_edits_the_json_tool_list_and_the_report_is_of_the_fixed_tools(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = rubric_count(capsys, "tools.json")
    code, out, err = run(capsys, "tools.json", "--fix", *TRACES, "--format", "json")
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
    _, _, err = run(capsys, "tools.json", "--diff", *TRACES, "--components", "examples")
    assert "(adds examples;" in err and "limitations" not in err
    assert {
        tool["name"]: tool["description"]
        for tool in json.loads((project / "tools.json").read_text())["tools"]
    } == original


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--traces", "t.jsonl"), "--traces only applies with --fix or --diff"),
        (("--components", "purpose"), "--components only applies with --fix or --diff"),
        (("--unsafe-fixes",), "--unsafe-fixes only applies with --fix or --diff"),
        (("--fix", "--components", "tone"), "--components: unknown component 'tone'"),
        (("--fix", "--traces", "missing.jsonl"), "missing.jsonl"),
    ],
)
def test_wrong_fix_flags_are_usage_errors(
    project: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, "tools.json", *args)
    assert code == 2 and message in err


def test_with_a_jury_model_the_safe_fix_is_rescored_by_it_and_only_unsafe_fixes_ask_it_to_write(
    project: Path, capsys: pytest.CaptureFixture[str], fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the CLI, with real litellm calls to the local fake: `--fix --jury MODEL` applies the
    offline, grounded rewrites once the model's verdicts say they clear their smells (no rewrite is
    asked of the model); `--unsafe-fixes` asks the model to write them, cached beside the jury cache."""
    monkeypatch.setenv("OPENAI_API_BASE", fake_llm.api_base)
    jury = ("--jury", "openai/rewriter", "--cache-file", "jury-cache.json")
    code, _, err = run(capsys, "tools.json", "--fix", *TRACES, *jury)
    assert code == 1  # the poisoned tool is still there
    assert fake_llm.calls() > 0  # the model judged the originals and the rewrites
    assert "Fixed " in err
    assert not (project / "rewrite-cache.json").exists()  # nothing was written by the model
    judged = fake_llm.calls()

    code, _, err = run(capsys, "tools.json", "--fix", "--unsafe-fixes", *TRACES, *jury)
    assert code == 1
    assert fake_llm.calls() > judged
    assert (project / "rewrite-cache.json").is_file()
    assert "Fixed " in err


def test_the_summary_counts_the_tools_it_did_not_fix_and_says_why(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 22: "Fixed N descriptions" alone hid the smelly tools no rewrite was written for.
    _, _, err = run(capsys, "tools.json", "--diff")
    summary = err.splitlines()[-1]
    assert summary.startswith("Would fix 0 descriptions; 5 not fixed: "), summary
    assert "sync_notes: the description carries hidden instructions (MCP301)" in summary
    # A reason shared by several tools is said once, after their names.
    shared = "nothing is known of it that an agent cannot already see"
    assert summary.count(shared) == 1, summary
    assert "delete_alert and 1 more: " + shared in summary, summary


def test_a_second_fix_of_the_snapshot_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, first = run(capsys, "tools.json", "--fix", *TRACES)
    assert "Fixed " in first and "Fixed 0 " not in first, first
    written = (project / "tools.json").read_text(encoding="utf-8")
    json.loads(written)  # still JSON
    _, _, second = run(capsys, "tools.json", "--fix", *TRACES)
    assert "Fixed 0 descriptions" in second, second
    assert (project / "tools.json").read_text(encoding="utf-8") == written


def test_a_snapshot_description_the_locator_cannot_reach_is_still_edited_in_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by a review on fresh servers: a description 12,000 characters after its tool's name, and a
    # tool with no description key at all, went to the overrides file although the snapshot named on
    # the command line is what --fix edits.
    far = {
        "name": "export_rows",
        "inputSchema": {
            "type": "object",
            "properties": {"table": {"type": "string", "description": "x" * 12000}},
            "required": ["table"],
        },
        "description": "Exports rows.\u200b",
    }
    bare = {
        "name": "delete_product",
        "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "integer", "description": "The product's id."}},
            "required": ["id"],
        },
    }
    document = {"tools": [far, bare]}
    (tmp_path / "tools.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, _, err = run(capsys, "tools.json", "--fix")
    written = json.loads((tmp_path / "tools.json").read_text(encoding="utf-8"))
    by_name = {tool["name"]: tool for tool in written["tools"]}
    assert by_name["export_rows"]["description"] == "Exports rows.", err
    assert by_name["delete_product"]["description"].startswith("Delete a product"), err
    assert not (tmp_path / ".mcp-lint" / "overrides.json").exists(), err
    # Everything else of each entry is as it was, and a second --fix writes nothing.
    assert by_name["export_rows"]["inputSchema"] == far["inputSchema"]
    text = (tmp_path / "tools.json").read_text(encoding="utf-8")
    _, _, second = run(capsys, "tools.json", "--fix")
    assert "Fixed 0 descriptions" in second, second
    assert (tmp_path / "tools.json").read_text(encoding="utf-8") == text


def test_a_snapshot_outside_the_repository_never_has_its_fixes_written_into_a_copy_inside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Run from inside a repository that holds a copy of the snapshot (another JSON listing the run
    # does not read): the fixes of the snapshot named on the command line are not that copy's.
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "copies").mkdir()
    shutil.copy(SNAPSHOT, repository / "copies" / "tools.json")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copy(SNAPSHOT, outside / "tools.json")
    with TraceWriter(outside / "calls.jsonl") as writer:
        for tool, arguments, text, failed in CALLS:
            writer.write(TraceRecord(tool, arguments, ({"type": "text", "text": text},), is_error=failed))
    monkeypatch.chdir(repository)
    _, _, err = run(capsys, str(outside / "tools.json"), "--fix", "--traces", str(outside / "calls.jsonl"))
    assert "Fixed " in err
    assert (repository / "copies" / "tools.json").read_bytes() == SNAPSHOT.read_bytes()
    assert (outside / "tools.json").read_bytes() == SNAPSHOT.read_bytes()  # outside the repository
    assert "copies/tools.json" not in err
