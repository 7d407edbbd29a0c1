"""A missing third-party server skips its tests on a developer's machine and fails them under .ci/run."""

from __future__ import annotations

from pathlib import Path

import pytest
from thirdparty_support import REQUIRED_ENV, require_executable


def test_missing_server_skips_with_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRED_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"bash \.ci/run"):
        require_executable(tmp_path / "mcp-server-time")


def test_missing_server_fails_where_ci_requires_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRED_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="mcp-server-time is missing"):
        require_executable(tmp_path / "mcp-server-time")


def test_installed_server_is_returned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRED_ENV, "1")
    server = tmp_path / "mcp-server-time"
    server.write_text("#!/bin/sh\n", encoding="utf-8")
    server.chmod(0o755)
    assert require_executable(server) == str(server)


def test_ci_run_requires_the_servers() -> None:
    script = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {REQUIRED_ENV}=1" in script
