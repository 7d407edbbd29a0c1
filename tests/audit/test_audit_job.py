"""One audit job gives the report `mcp-lint check` or `mcp-lint gate` writes for the same target, and
a record that says what happened even when nothing could be linted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from audit_support import entries, snapshots

from mcp_lint.audit.job import ERROR, PASSED, UNREACHABLE, JobSettings, run_job
from mcp_lint.audit.targets import discover
from mcp_lint.cli import main


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MCP_LINT_CACHE_DIR", raising=False)
    return tmp_path


def test_a_snapshot_job_reports_what_check_reports(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(snapshots(1)[0], here / "server.json.snapshot")
    target = "server.json.snapshot"
    (job,) = discover([target]).jobs
    result = run_job(job, JobSettings(profile="default"))
    code = main(["check", target, "--isolated", "--format", "json"])
    assert result.report == capsys.readouterr().out
    assert result.exit_code == code and result.status == ("passed" if code == 0 else "failed")
    report = json.loads(result.report or "")
    assert result.score == round(report["servers"][0]["score"]["overall"], 3)
    assert dict(result.counts) == {
        key: value for key, value in report["summary"].items() if key in result.counts
    }
    assert sum(result.counts.values()) == report["summary"]["total"]
    assert result.package == report["servers"][0]["serverInfo"]["name"]
    assert result.timings.lint > 0 and result.timings.install == 0


def test_a_server_json_job_reports_what_gate_reports(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, smelly, *_ = entries(here, here / "cache")
    for path in (good, smelly):
        relative = str(path.relative_to(here))
        (job,) = discover([relative]).jobs
        result = run_job(job, JobSettings(cache_dir=str(here / "cache")))
        code = main(["gate", relative, "--cache-dir", str(here / "cache"), "--format", "json"])
        assert result.report == capsys.readouterr().out
        assert result.exit_code == code
        report = json.loads(result.report or "")
        failing = sorted(
            {
                finding["code"]
                for server in report["servers"]
                for finding in [
                    *server["findings"],
                    *(f for tool in server["tools"] for f in tool["findings"]),
                ]
                if finding["fails"]
            }
        )
        assert list(result.failing_codes) == failing
        assert (result.package, result.version) == (json.loads(path.read_text())["name"], "1.0.0")
        assert result.timings.start > 0


def test_an_entry_the_gate_cannot_install_is_unreachable(here: Path) -> None:
    nuget = entries(here, here / "cache")[2]
    (job,) = discover([str(nuget)]).jobs
    result = run_job(job, JobSettings(cache_dir=str(here / "cache")))
    assert (result.status, result.exit_code) == (UNREACHABLE, 3)
    assert result.error is not None and "nuget packages (dnx) are not supported" in result.error
    assert result.report is not None  # the server is in the report, with its error


def test_an_invalid_entry_is_an_error_with_its_problems_and_no_report(here: Path) -> None:
    invalid = entries(here, here / "cache")[3]
    (job,) = discover([str(invalid)]).jobs
    result = run_job(job, JobSettings(cache_dir=str(here / "cache")))
    assert (result.status, result.exit_code, result.report) == (ERROR, 2, None)
    assert (
        result.error is not None and result.error.startswith("invalid entry: ") and "\n" not in result.error
    )


def test_a_passing_snapshot_has_no_failing_codes(here: Path) -> None:
    for path in snapshots(3):
        (job,) = discover([str(path)]).jobs
        result = run_job(job, JobSettings())
        if result.status == PASSED:
            assert result.failing_codes == () and result.exit_code == 0
        else:
            assert result.failing_codes or (result.score is not None and result.score < 1.2)
