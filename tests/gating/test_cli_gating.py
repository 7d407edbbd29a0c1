"""The gate from the command line: real `mcp-lint check` runs on saved snapshots."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
SMELLY = FIXTURES / "smelly-snapshot.json"


def tool(name: str, description: str, **schema: Any) -> dict[str, Any]:
    properties = {key: {"type": "string", "description": text} for key, text in schema.items()}
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


# Smells only (terse descriptions), nothing that breaks a client: the shape of the reference servers.
TERSE = {"tools": [tool("get_time", "Get the current time in a timezone.", timezone="IANA timezone name")]}
# Tools that say nothing: the offline jury scores this server 1.0, under the default floor.
EMPTY = {
    "tools": [{"name": f"t{n}", "inputSchema": {"type": "object", "properties": {"x": {}}}} for n in range(3)]
}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "terse.json").write_text(json.dumps(TERSE), encoding="utf-8")
    (tmp_path / "empty.json").write_text(json.dumps(EMPTY), encoding="utf-8")
    return tmp_path


def test_smells_warn_under_default_and_fail_under_strict(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["check", "terse.json", "--no-color"], capsys)
    assert code == 0
    assert "no finding fails the run (profile default, fail-on low)" in out
    code, out, _ = run(["check", "terse.json", "--no-color", "--profile", "strict"], capsys)
    assert code == 1 and "fail the run (profile strict, fail-on low)" in out
    (project / "mcp-lint.toml").write_text('profile = "strict"\n', encoding="utf-8")
    assert run(["check", "terse.json"], capsys)[0] == 1, "the config's profile"
    assert run(["check", "terse.json", "--profile", "default"], capsys)[0] == 0, "the flag wins"


def test_breaking_findings_fail_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(SMELLY), "--isolated", "--format", "json"], capsys)
    report = json.loads(out)
    failing = {f["rule"] for t in report["servers"][0]["tools"] for f in t["findings"] if f["fails"]}
    assert code == 1
    # phantom-parameter and contradictory-annotations report at low and are not breaking until they
    # show their precision on the sealed corpus (docs/precision.md)
    assert failing == {"hidden-instructions", "invalid-input-schema", "invalid-tool-name"}
    assert run(["check", str(SMELLY), "--isolated", "--audit-level", "critical"], capsys)[0] == 1
    assert run(["check", str(SMELLY), "--isolated", "--fail-on", "none"], capsys)[0] == 0
    assert run(["check", str(SMELLY), "--isolated", "--exit-zero"], capsys)[0] == 0


def test_min_score_names_the_server_its_score_and_the_floor(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["check", "empty.json", "--no-color", "--ignore", "MCP101,MCP202,MCP2"], capsys)
    assert code == 1
    assert err == "mcp-lint: empty: rubric score 1 is under the floor of 1.2 (min-score)\n"
    assert "fails: empty: rubric score 1 is under the floor of 1.2 (min-score)" in out
    assert run(["check", "terse.json", "--min-score", "4"], capsys)[0] == 1
    assert run(["check", "terse.json", "--min-score", "1"], capsys)[0] == 0
    code, _, err = run(["check", "terse.json", "--min-score", "7"], capsys)
    assert code == 2 and "--min-score" in err


def test_exit_zero_never_masks_an_unreachable_server(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["check", str(FIXTURES / "unreachable.mcp.json"), "--isolated", "--exit-zero", "--fail-on", "none"]
    assert run(args, capsys)[0] == 3


def test_baseline_round_trip(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    smelly = project / "smelly.json"
    smelly.write_text(SMELLY.read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run(["check", "smelly.json", "--update-baseline"], capsys)
    assert code == 0 and err.startswith(f"wrote {project / '.mcp-lint' / 'baseline.json'} (")
    baseline = project / ".mcp-lint" / "baseline.json"
    first = baseline.read_text(encoding="utf-8")
    run(["check", "smelly.json", "--update-baseline"], capsys)
    assert baseline.read_text(encoding="utf-8") == first, "no timestamp: the same run writes the same file"

    code, out, _ = run(["check", "smelly.json", "--format", "json", "--profile", "strict"], capsys)
    report = json.loads(out)
    assert code == 0 and report["summary"]["baselined"] == report["summary"]["total"] > 0
    assert report["baseline"]["path"] == ".mcp-lint/baseline.json" and report["baseline"]["stale"] == []

    # A new phantom parameter fails (strict: it reports at low); a fixed finding leaves a stale entry,
    # which does not fail.
    document = json.loads(smelly.read_text(encoding="utf-8"))
    forecast = next(t for t in document["tools"] if t["name"] == "get_forecast")
    forecast["description"] += " Pass `units` for Fahrenheit."
    document["tools"] = [t for t in document["tools"] if t["name"] != "delete_alert"]
    smelly.write_text(json.dumps(document), encoding="utf-8")
    code, out, _ = run(["check", "smelly.json", "--no-color", "--profile", "strict"], capsys)
    assert code == 1
    assert "1 finding fails the run" in out and "parameter `units`" in out
    assert "prune with --update-baseline:" in out and "smelly/delete_alert MCP502" in out
    assert run(["check", "smelly.json", "--no-baseline"], capsys)[0] == 1


def test_baseline_errors_are_one_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", "terse.json", "--baseline", "missing.json"], capsys)
    assert (code, err) == (
        2,
        "mcp-lint: error: missing.json: no such baseline; create it with --update-baseline\n",
    )
    code, _, err = run(["check", "terse.json", "--no-baseline", "--update-baseline"], capsys)
    assert code == 2 and "contradict" in err
    code, _, err = run(["check", "terse.json", "--update-baseline", "--since", "HEAD"], capsys)
    assert code == 2 and "update the baseline without --since" in err
    down = str(FIXTURES / "unreachable.mcp.json")
    code, _, err = run(["check", down, "--isolated", "--update-baseline"], capsys)
    assert code == 3 and "not updating the baseline" in err
    assert not (project / ".mcp-lint" / "baseline.json").exists()


def test_unused_and_unexplained_suppressions(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "mcp-lint.toml").write_text(
        '[rules]\nMCP403 = "off"\n\n'
        '[per-tool-ignores]\n"gone_*" = { codes = ["MCP202"], reason = "renamed" }\n',
        encoding="utf-8",
    )
    code, out, _ = run(["check", "terse.json", "--format", "json"], capsys)
    report = json.loads(out)
    assert code == 0
    assert report["unusedSuppressions"] == [
        {"kind": "per-tool-ignores", "key": "gone_*", "reason": "renamed"},
        {"kind": "rules", "key": "MCP403", "reason": None},
    ]
    assert report["warnings"] == [
        f"{project / 'mcp-lint.toml'}: rules.MCP403 is turned off without a reason; "
        'write it as "off -- why it is fine"'
    ]
    _, text, _ = run(["check", "terse.json", "--no-color"], capsys)
    assert "  per-tool-ignores 'gone_*': silenced nothing" in text
    assert "  rules.MCP403 (off): the rule would find nothing" in text


def test_since_lints_only_changed_tools(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def git(*args: str) -> None:
        identity = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
        subprocess.run(["git", *identity, *args], cwd=project, check=True, capture_output=True)

    git("init", "-q")
    git("add", "terse.json")
    git("commit", "-q", "-m", "base")
    changed = {"tools": [*TERSE["tools"], tool("convert", "Convert.", value="x")]}
    (project / "terse.json").write_text(json.dumps(changed), encoding="utf-8")
    code, out, _ = run(["check", "terse.json", "--since", "HEAD", "--format", "json"], capsys)
    assert code == 0
    assert [t["name"] for t in json.loads(out)["servers"][0]["tools"]] == ["convert"]
    code, _, err = run(["check", "--since", "HEAD", "--", "python", "server.py"], capsys)
    assert code == 2 and "is a live server; commit a snapshot" in err and err.count("\n") == 1
    code, _, err = run(["check", "terse.json", "--since", "no-such-ref"], capsys)
    assert code == 2 and "no such commit" in err
