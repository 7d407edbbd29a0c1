"""Fixtures for the pinned third-party MCP servers; see thirdparty_support for when they skip or fail."""

from __future__ import annotations

import subprocess

import pytest
from thirdparty_support import npm_server, pypi_server

from mcp_lint.reach.targets import StdioTarget


@pytest.fixture(scope="session")
def time_server() -> StdioTarget:
    return StdioTarget("time", pypi_server("mcp-server-time"), ("--local-timezone", "UTC"))


@pytest.fixture(scope="session")
def git_server(tmp_path_factory: pytest.TempPathFactory) -> StdioTarget:
    command = pypi_server("mcp-server-git")
    repository = tmp_path_factory.mktemp("git-repo")
    subprocess.run(["git", "init", "--quiet", str(repository)], check=True)
    return StdioTarget("git", command, ("--repository", str(repository)))


@pytest.fixture(scope="session")
def fetch_server() -> StdioTarget:
    return StdioTarget("fetch", pypi_server("mcp-server-fetch"))


@pytest.fixture(scope="session")
def everything_server() -> StdioTarget:
    return StdioTarget("everything", npm_server("mcp-server-everything"))


@pytest.fixture(scope="session")
def filesystem_server(tmp_path_factory: pytest.TempPathFactory) -> StdioTarget:
    command = npm_server("mcp-server-filesystem")
    return StdioTarget("filesystem", command, (str(tmp_path_factory.mktemp("allowed")),))


@pytest.fixture(scope="session")
def memory_server(tmp_path_factory: pytest.TempPathFactory) -> StdioTarget:
    command = npm_server("mcp-server-memory")
    memory_file = tmp_path_factory.mktemp("memory") / "memory.jsonl"
    return StdioTarget("memory", command, env={"MEMORY_FILE_PATH": str(memory_file)})
