"""`mcp-lint audit --fresh-installs` installs a real PyPI server into a folder of the job's own, every
time, and leaves no folder behind. Needs PyPI: runs where MCP_LINT_THIRDPARTY=1 (`bash .ci/run`)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from audit_support import entry_document, package, write_entry

pytestmark = [
    pytest.mark.thirdparty,
    pytest.mark.skipif(
        os.environ.get("MCP_LINT_THIRDPARTY") != "1",
        reason="installs from PyPI: run `bash .ci/run` (MCP_LINT_THIRDPARTY=1)",
    ),
    pytest.mark.timeout(900),
]

ROOT = Path(__file__).resolve().parents[2]
TIME_VERSION = "2026.10.19"  # as pinned in .ci/run


def test_fresh_installs_install_each_time_and_leave_nothing(tmp_path: Path) -> None:
    document = entry_document(
        name="io.github.modelcontextprotocol/time",
        version=TIME_VERSION,
        packages=[package(identifier="mcp-server-time", version=TIME_VERSION, runtimeHint="uvx")],
    )
    entry = write_entry(tmp_path, document)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temp)}
    store = tmp_path / "audit.sqlite"
    for _ in range(2):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "mcp_lint",
                "audit",
                str(entry),
                "--store",
                str(store),
                "--fresh-installs",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=800,
        )
        assert done.returncode == 0, done.stderr
        assert not list(temp.glob("mcp-lint-audit-*"))
    db = sqlite3.connect(store)
    (status, installed, report), *_ = db.execute(
        "SELECT status, install_seconds, report FROM results"
    ).fetchall()
    db.close()
    assert status == "passed" and installed > 1.0
    assert json.loads(report)["servers"][0]["tools"]
