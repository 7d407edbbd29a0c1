"""The audit store: a row per target and rule set, replaced when the same target runs again under
the same rules, kept beside the rows of other rule sets; a store of another schema is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from mcp_lint.audit.job import JobResult, Timings
from mcp_lint.audit.store import SCHEMA_VERSION, Store
from mcp_lint.errors import McpLintError, UsageError


def _result(target: str, status: str = "passed", score: float | None = 2.5) -> JobResult:
    return JobResult(
        target=target,
        kind="snapshot",
        status=status,
        exit_code=0 if status == "passed" else 1,
        package="example",
        version="1.0.0",
        score=score,
        counts={"high": 1, "low": 3},
        failing_codes=("MCP101",) if status == "failed" else (),
        report='{"version": 1}\n',
        duration=1.25,
        timings=Timings(install=0.5, start=0.25, lint=0.5),
    )


def test_a_row_is_replaced_under_the_same_rule_set_and_kept_under_another(tmp_path: Path) -> None:
    store = Store(tmp_path / "audit.sqlite")
    run = store.start_run("local", 2, "aaaa", 1, 0)
    store.record(_result("a.json"), "aaaa", run)
    store.record(_result("a.json", "failed", 1.1), "aaaa", run)
    store.record(_result("a.json"), "bbbb", run)
    assert store.recorded("aaaa") == {"a.json"} and store.recorded("cccc") == set()
    (row,) = store.rows("aaaa", ["a.json", "missing.json"])
    assert (row.status, row.score, row.failing_codes, row.counts["high"], row.counts["critical"]) == (
        "failed",
        1.1,
        ("MCP101",),
        1,
        0,
    )
    store.close()
    db = sqlite3.connect(tmp_path / "audit.sqlite")
    stored = db.execute(
        "SELECT rule_set_hash, install_seconds, start_seconds, lint_seconds, duration FROM results ORDER BY 1"
    ).fetchall()
    assert stored == [("aaaa", 0.5, 0.25, 0.5, 1.25), ("bbbb", 0.5, 0.25, 0.5, 1.25)]


def test_a_row_is_in_the_file_when_record_returns(tmp_path: Path) -> None:
    store = Store(tmp_path / "audit.sqlite")
    store.record(_result("a.json"), "aaaa", store.start_run("local", 1, "aaaa", 1, 0))
    # Another connection (another process, after a kill) sees it: nothing waits for a commit.
    reader = sqlite3.connect(tmp_path / "audit.sqlite")
    assert reader.execute("SELECT target FROM results").fetchall() == [("a.json",)]
    store.close()


def test_a_store_of_another_schema_is_refused(tmp_path: Path) -> None:
    Store(tmp_path / "audit.sqlite").close()
    db = sqlite3.connect(tmp_path / "audit.sqlite")
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    with pytest.raises(UsageError, match="written by another mcp-lint"):
        Store(tmp_path / "audit.sqlite")


def test_a_row_that_cannot_be_written_is_one_line_saying_resume_goes_on(tmp_path: Path) -> None:
    store = Store(tmp_path / "audit.sqlite")
    run = store.start_run("local", 1, "aaaa", 1, 0)
    other = sqlite3.connect(tmp_path / "audit.sqlite")
    other.execute("DROP TABLE results")  # the file changed under the audit
    other.commit()
    other.close()
    with pytest.raises(McpLintError, match=r"cannot record a\.json \(no such table: results\)") as raised:
        store.record(_result("a.json"), "aaaa", run)
    assert "--resume" in str(raised.value) and "\n" not in str(raised.value)
    store.close()
