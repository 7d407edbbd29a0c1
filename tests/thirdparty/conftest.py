"""Locate the pinned third-party MCP servers that `bash .ci/run` installs under `.ci/work/`.

A missing server FAILS the test, so a CI run cannot go green without having exercised them;
set MCP_LINT_SKIP_THIRD_PARTY=1 to skip them instead (e.g. offline development).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mcp_lint.reach.targets import StdioTarget

WORK = Path(__file__).resolve().parents[2] / ".ci" / "work"
INSTALL_HINT = "run `bash .ci/run` to install the third-party test servers"


def _require(path: Path) -> str:
    if path.is_file() and os.access(path, os.X_OK):
        return str(path)
    if os.environ.get("MCP_LINT_SKIP_THIRD_PARTY") == "1":
        pytest.skip(f"{path.name} not installed (MCP_LINT_SKIP_THIRD_PARTY=1)")
    pytest.fail(f"{path} is missing: {INSTALL_HINT}", pytrace=False)


def _pypi(name: str) -> str:
    return _require(WORK / "venvs" / name / "bin" / name)


def _npm(name: str) -> str:
    return _require(WORK / "npm" / "node_modules" / ".bin" / name)


@pytest.fixture(scope="session")
def time_server() -> StdioTarget:
    return StdioTarget("time", _pypi("mcp-server-time"), ("--local-timezone", "UTC"))


@pytest.fixture(scope="session")
def git_server(tmp_path_factory: pytest.TempPathFactory) -> StdioTarget:
    command = _pypi("mcp-server-git")
    repository = tmp_path_factory.mktemp("git-repo")
    subprocess.run(["git", "init", "--quiet", str(repository)], check=True)
    return StdioTarget("git", command, ("--repository", str(repository)))


@pytest.fixture(scope="session")
def fetch_server() -> StdioTarget:
    return StdioTarget("fetch", _pypi("mcp-server-fetch"))


@pytest.fixture(scope="session")
def everything_server() -> StdioTarget:
    return StdioTarget("everything", _npm("mcp-server-everything"))


@pytest.fixture(scope="session")
def filesystem_server(tmp_path_factory: pytest.TempPathFactory) -> StdioTarget:
    command = _npm("mcp-server-filesystem")
    return StdioTarget("filesystem", command, (str(tmp_path_factory.mktemp("allowed")),))


@pytest.fixture(scope="session")
def memory_server(tmp_path_factory: pytest.TempPathFactory) -> StdioTarget:
    command = _npm("mcp-server-memory")
    memory_file = tmp_path_factory.mktemp("memory") / "memory.jsonl"
    return StdioTarget("memory", command, env={"MEMORY_FILE_PATH": str(memory_file)})
