"""Golden files for every output format: the exact bytes a user sees.

Regenerate after an intended change with `MCP_LINT_UPDATE_GOLDEN=1 pytest tests/report`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from mcp_lint.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "golden"
SCHEMA = Path(__file__).resolve().parents[2] / "mcp_lint" / "data" / "report.schema.json"
UPDATE = os.environ.get("MCP_LINT_UPDATE_GOLDEN") == "1"

CASES = {
    "smelly.txt": ["check", "smelly-snapshot.json", "--isolated", "--format", "text", "--no-color"],
    "smelly.json": ["check", "smelly-snapshot.json", "--isolated", "--format", "json"],
    "smelly.sarif": ["check", "smelly-snapshot.json", "--isolated", "--format", "sarif"],
    "smelly-github.txt": ["check", "smelly-snapshot.json", "--isolated", "--format", "github"],
    "smelly.md": ["check", "smelly-snapshot.json", "--isolated", "--format", "markdown"],
    "smelly-static.txt": ["check", "smelly-snapshot.json", "--isolated", "--ignore", "MCP7", "--no-color"],
    # A jury that could not score anything: frozen with an empty cache is a miss for every pair, no call made.
    "smelly-unscored.txt": [
        "check",
        "smelly-snapshot.json",
        "--isolated",
        "--no-color",
        *("--jury", "openai/judge-a", "--jury", "openai/judge-b"),
        *("--frozen", "--cache-file", "no-such-jury-cache.json"),
    ],
    "smelly-unscored.json": [
        "check",
        "smelly-snapshot.json",
        "--isolated",
        "--format",
        "json",
        *("--jury", "openai/judge-a", "--frozen", "--cache-file", "no-such-jury-cache.json"),
    ],
    "unreachable.json": [
        "check",
        "unreachable.mcp.json",
        "smelly-snapshot.json",
        "--isolated",
        "--format",
        "json",
    ],
}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def _in_fixtures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    monkeypatch.delenv("MCP_LINT_GOLDEN_UNSET_TOKEN", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_matches_golden_file(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(CASES[name], capsys)
    golden = FIXTURES / name
    if UPDATE:
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")
    # The smelly server fails the gate; the unreachable one wins with exit 3, an unscored jury with 4.
    assert code == (3 if name.startswith("unreachable") else 4 if "unscored" in name else 1)


@pytest.mark.parametrize("name", [name for name in sorted(CASES) if name.endswith(".json")])
def test_json_golden_files_match_the_published_schema(name: str) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    document = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)


def test_unreachable_server_is_reported_beside_the_linted_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(CASES["unreachable.json"], capsys)
    document = json.loads(out)
    by_name = {server["name"]: server for server in document["servers"]}
    assert code == 3
    assert "MCP_LINT_GOLDEN_UNSET_TOKEN" in by_name["needs-token"]["error"]
    assert by_name["smelly"]["error"] is None and by_name["smelly"]["tools"]
    assert document["summary"]["serversFailed"] == 1
    assert err.count("\n") == 1 and "MCP_LINT_GOLDEN_UNSET_TOKEN" in err
