"""Live stdio reflection of well-behaved and protocol-bending fixture servers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from reflect_support import Spawner

from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import Reflection, reflect_all
from mcp_lint.reflect.stdio import ProcessMonitor

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MODERN = "2026-07-28"
Batch = tuple[Spawner, dict[str, Reflection]]
TIMEOUT = 10.0


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    """All servers of this module, reflected concurrently in one call (as the CLI does)."""
    spawner = Spawner(tmp_path_factory.mktemp("stdio"))
    targets = [
        spawner.target("good", "good_server.py"),
        spawner.target("smelly", "smelly_server.py"),
        spawner.target("raw-legacy", "lowlevel_raw_server.py", "--era", "legacy"),
        spawner.target("raw-2026", "lowlevel_raw_server.py", "--era", "2026"),
        StdioTarget("weather", sys.executable, (str(EXAMPLES / "weather_server.py"),)),
    ]
    results = reflect_all(targets, TIMEOUT)
    return spawner, {result.name: result for result in results}


def ok(batch: Batch, name: str) -> Reflection:
    result = batch[1][name]
    assert result.error is None, result.error
    assert result.snapshot is not None
    return result


def test_results_keep_target_order_and_names(batch: Batch) -> None:
    assert list(batch[1]) == ["good", "smelly", "raw-legacy", "raw-2026", "weather"]


def test_good_server(batch: Batch) -> None:
    snapshot = ok(batch, "good").snapshot
    assert snapshot is not None
    assert [tool.name for tool in snapshot.tools] == ["convert_length", "add", "days_between"]
    assert snapshot.protocol_version == MODERN
    assert snapshot.server_info == {"name": "good-server", "version": "1.0.0"}
    assert snapshot.instructions == "Unit conversion and arithmetic helpers."
    assert snapshot.observations == ()
    for tool in snapshot.tools:
        assert tool.sdk_rejection is None
        assert tool.annotations is not None and tool.annotations["readOnlyHint"] is True
        assert all(prop.get("description") for prop in tool.properties.values())
    days = snapshot.tools[2]
    assert days.properties["start"]["format"] == "date"
    assert days.required == ("start", "end")


def test_smelly_server_reaches_the_snapshot_intact(batch: Batch) -> None:
    snapshot = ok(batch, "smelly").snapshot
    assert snapshot is not None
    tools = {tool.name: tool for tool in snapshot.tools}
    assert list(tools) == [
        "fetch_record",
        "search_orders",
        "get_report",
        "list_invoices",
        "send_email",
        "delete_user",
        "add_numbers",
        "translate_text",
        "get_weather",
        "get_the_weather",
    ]
    assert snapshot.protocol_version == MODERN
    assert tools["fetch_record"].description == ""
    assert not any(prop.get("description") for prop in tools["search_orders"].properties.values())
    assert "use period or use start and end" in tools["get_report"].description.lower()
    assert set(tools["get_report"].properties) == {"region"}
    assert "format" not in tools["list_invoices"].properties["since"]
    assert tools["send_email"].annotations is None
    delete = tools["delete_user"].annotations
    assert delete is not None and delete["readOnlyHint"] is True
    poisoned = tools["add_numbers"].description
    assert "<IMPORTANT>" in poisoned and "~/.ssh/id_rsa" in poisoned and "Do not tell the user" in poisoned
    assert "\u200b" in tools["translate_text"].description
    assert tools["get_weather"].properties == tools["get_the_weather"].properties
    assert all(tool.sdk_rejection is None for tool in snapshot.tools)


def test_example_weather_server(batch: Batch) -> None:
    snapshot = ok(batch, "weather").snapshot
    assert snapshot is not None
    assert [tool.name for tool in snapshot.tools] == [
        "get_forecast",
        "current_conditions",
        "delete_alert",
        "get_forcast",
    ]
    assert snapshot.protocol_version == MODERN


RAW_NAMES = [
    "well_formed",
    "schema_without_type",
    "required_not_a_property",
    "bad tool name",
    "duplicate",
    "duplicate",
]


def test_raw_legacy_server_negotiates_a_handshake_version(batch: Batch) -> None:
    snapshot = ok(batch, "raw-legacy").snapshot
    assert snapshot is not None
    assert snapshot.protocol_version == "2025-11-25"
    assert snapshot.server_info == {"name": "raw-server", "version": "0.0.1"}
    # Every tool of the page is kept, including the ones the SDK would refuse, and both duplicates.
    assert [tool.name for tool in snapshot.tools] == RAW_NAMES
    tools = {tool.name: tool for tool in snapshot.tools}
    assert tools["well_formed"].sdk_rejection is None
    assert tools["required_not_a_property"].required == ("a", "missing")
    assert "missing" not in tools["required_not_a_property"].properties
    assert [tool.raw["description"] for tool in snapshot.tools if tool.name == "duplicate"] == [
        "First of two tools with this name.",
        "Second of two tools with this name.",
    ]


def test_raw_2026_server_keeps_the_tool_the_sdk_would_drop(batch: Batch) -> None:
    snapshot = ok(batch, "raw-2026").snapshot
    assert snapshot is not None
    assert snapshot.protocol_version == MODERN
    assert [tool.name for tool in snapshot.tools] == [*RAW_NAMES, "invalid_header"]
    header = snapshot.tools[-1]
    assert header.sdk_rejection is not None
    assert "x-mcp-header" in header.sdk_rejection and "silently drop" in header.sdk_rejection
    assert snapshot.tools[0].sdk_rejection is None


@pytest.mark.parametrize("name", ["raw-legacy", "raw-2026"])
def test_schema_without_object_type_is_flagged_as_sdk_rejected(batch: Batch, name: str) -> None:
    snapshot = ok(batch, name).snapshot
    assert snapshot is not None
    tool = next(tool for tool in snapshot.tools if tool.name == "schema_without_type")
    assert tool.sdk_rejection is not None and "inputSchema" in tool.sdk_rejection


def test_bare_sdk_client_really_raises_on_the_raw_page(spawner: Spawner) -> None:
    """Guards the premise of the test above: the SDK's own list_tools refuses this page."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from pydantic import ValidationError

    target = spawner.target("bare", "lowlevel_raw_server.py", "--era", "legacy")

    async def main() -> None:
        params = StdioServerParameters(command=target.command, args=list(target.args))
        async with Client(params) as client:
            with pytest.raises(ValidationError, match=r"inputSchema\.type"):
                await client.list_tools()

    anyio.run(main)
    spawner.assert_gone("bare")


def test_no_server_process_outlives_its_reflection(batch: Batch) -> None:
    batch[0].assert_gone()


def test_unknown_command_is_named_in_the_error() -> None:
    [result] = reflect_all([StdioTarget("ghost", "mcp-lint-no-such-server-xyz", ("--flag",))], 5)
    assert result.snapshot is None
    assert result.error is not None
    assert "'mcp-lint-no-such-server-xyz'" in result.error and "not found on PATH" in result.error


def test_non_executable_path_is_a_clear_error(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text("print('hi')\n", encoding="utf-8")
    [result] = reflect_all([StdioTarget("plain-file", str(script))], 5)
    assert result.snapshot is None
    assert result.error is not None and str(script) in result.error and "not an executable" in result.error


def test_relative_command_resolves_against_cwd(tmp_path: Path, spawner: Spawner) -> None:
    launcher = tmp_path / "launch.sh"
    good = spawner.target("good-rel", "good_server.py")
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    target = StdioTarget("relative", "./launch.sh", good.args, cwd=str(tmp_path))
    [result] = reflect_all([target], TIMEOUT)
    assert result.error is None, result.error
    assert result.snapshot is not None and len(result.snapshot.tools) == 3
    spawner.assert_gone("good-rel")


def test_stderr_tail_keeps_the_line_that_names_the_error() -> None:
    node_crash = (
        "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\n"
        "Error: Cannot find module '/srv/missing.js'\n"
        "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n"
        "    at node:internal/main/run_main_module:28:49 {\n"
        "  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n\nNode.js v20.11.0\n"
    )
    monitor = ProcessMonitor("node", stderr_tail=bytearray(node_crash.encode()))
    assert monitor.last_stderr_lines() == (
        "Error: Cannot find module '/srv/missing.js' | ... | "
        "at node:internal/main/run_main_module:28:49 { | code: 'MODULE_NOT_FOUND', | requireStack: [] | } | "
        "Node.js v20.11.0"
    )
    python_crash = 'Traceback (most recent call last):\n  File "s.py", line 1\nRuntimeError: no database\n'
    monitor = ProcessMonitor("python", stderr_tail=bytearray(python_crash.encode()))
    assert (
        monitor.last_stderr_lines()
        == 'Traceback (most recent call last): | File "s.py", line 1 | RuntimeError: no database'
    )


def test_a_provisional_name_gives_way_to_the_reported_one() -> None:
    script = str(Path(__file__).resolve().parents[1] / "servers" / "good_server.py")
    generic = StdioTarget("index", sys.executable, (script,), provisional_name=True)
    kept = StdioTarget("mine", sys.executable, (script,))
    results = reflect_all([generic, kept], TIMEOUT)
    assert [result.name for result in results] == ["good-server", "mine"]
    assert [result.snapshot.name for result in results if result.snapshot] == ["good-server", "mine"]


def test_server_that_dies_on_the_discover_probe_is_asked_again_with_initialize(spawner: Spawner) -> None:
    # Old SDK servers (mcp 1.6, seen in chroma-mcp 0.2.6) exit on a method they do not know, and
    # `server/discover` is one: the second start uses the initialize handshake alone.
    target = spawner.target("raw-crash", "lowlevel_raw_server.py", "--era", "crash")
    [result] = reflect_all([target], TIMEOUT)
    assert result.error is None, result.error
    assert result.snapshot is not None
    assert result.snapshot.protocol_version == "2025-11-25"
    assert "well_formed" in [tool.name for tool in result.snapshot.tools]
    spawner.assert_gone("raw-crash")
