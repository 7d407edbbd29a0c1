"""Reflect the pinned reference MCP servers (PyPI and npm) exactly as a user's config would start them.

Observed with the pins in .ci/run: the Python servers (built on the v2 SDK) negotiate 2026-07-28
through server/discover; the TypeScript servers refuse discover and fall back to the 2025-11-25
handshake. No tool of any of them is rejected by the SDK and none needs the network to list tools.
"""

from __future__ import annotations

import pytest

from mcp_lint.model import ServerSnapshot
from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import reflect_all

pytestmark = pytest.mark.thirdparty

TIMEOUT = 15.0

EXPECTED: dict[str, tuple[str, list[str]]] = {
    "time": ("2026-07-28", ["get_current_time", "convert_time"]),
    "git": (
        "2026-07-28",
        [
            "git_status",
            "git_diff_unstaged",
            "git_diff_staged",
            "git_diff",
            "git_commit",
            "git_add",
            "git_reset",
            "git_log",
            "git_create_branch",
            "git_checkout",
            "git_show",
            "git_branch",
        ],
    ),
    "fetch": ("2026-07-28", ["fetch"]),
    "everything": (
        "2025-11-25",
        [
            "echo",
            "get-annotated-message",
            "get-env",
            "get-resource-links",
            "get-resource-reference",
            "get-structured-content",
            "get-sum",
            "get-tiny-image",
            "gzip-file-as-resource",
            "toggle-simulated-logging",
            "toggle-subscriber-updates",
            "trigger-long-running-operation",
            "simulate-research-query",
        ],
    ),
    "filesystem": (
        "2025-11-25",
        [
            "read_file",
            "read_text_file",
            "read_media_file",
            "read_multiple_files",
            "write_file",
            "edit_file",
            "create_directory",
            "list_directory",
            "list_directory_with_sizes",
            "directory_tree",
            "move_file",
            "search_files",
            "get_file_info",
            "list_allowed_directories",
        ],
    ),
    "memory": (
        "2025-11-25",
        [
            "create_entities",
            "create_relations",
            "add_observations",
            "delete_entities",
            "delete_observations",
            "delete_relations",
            "read_graph",
            "search_nodes",
            "open_nodes",
        ],
    ),
}


@pytest.fixture(scope="module")
def snapshots(
    time_server: StdioTarget,
    git_server: StdioTarget,
    fetch_server: StdioTarget,
    everything_server: StdioTarget,
    filesystem_server: StdioTarget,
    memory_server: StdioTarget,
) -> dict[str, ServerSnapshot]:
    targets = [time_server, git_server, fetch_server, everything_server, filesystem_server, memory_server]
    results = reflect_all(targets, TIMEOUT)
    errors = {result.name: result.error for result in results if result.error is not None}
    assert not errors, errors
    return {result.name: result.snapshot for result in results if result.snapshot is not None}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_tools_and_protocol_version(snapshots: dict[str, ServerSnapshot], name: str) -> None:
    version, tools = EXPECTED[name]
    snapshot = snapshots[name]
    assert [tool.name for tool in snapshot.tools] == tools
    assert snapshot.protocol_version == version
    assert snapshot.server_info is not None and snapshot.server_info.get("name")


@pytest.mark.parametrize("name", list(EXPECTED))
def test_no_sdk_rejections_or_observations(snapshots: dict[str, ServerSnapshot], name: str) -> None:
    snapshot = snapshots[name]
    assert {tool.name: tool.sdk_rejection for tool in snapshot.tools if tool.sdk_rejection} == {}
    assert snapshot.observations == ()


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_tool_has_an_object_input_schema(snapshots: dict[str, ServerSnapshot], name: str) -> None:
    for tool in snapshots[name].tools:
        assert isinstance(tool.input_schema, dict) and tool.input_schema.get("type") == "object", tool.name
