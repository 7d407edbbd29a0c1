"""Saved reflections: the document round-trips, bare arrays load, bad files fail with a usable message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reflect_support import Spawner

from mcp_lint.config import Settings
from mcp_lint.errors import UsageError
from mcp_lint.model import ServerSnapshot
from mcp_lint.reach.resolve import Request, resolve_targets
from mcp_lint.reach.targets import SnapshotTarget
from mcp_lint.reflect import reflect_all
from mcp_lint.reflect.snapshot import (
    SNAPSHOT_FORMAT,
    parse_snapshot,
    snapshot_document,
    write_json_atomic,
)

MODERN = "2026-07-28"


def load_snapshot(path: Path) -> ServerSnapshot:
    """A saved file as a run reads it: reach parses it once, reflect builds the snapshot from that."""
    [target] = resolve_targets(Request(paths=(str(path),)), Settings())
    assert isinstance(target, SnapshotTarget)
    [result] = reflect_all([target], 1)
    assert result.snapshot is not None, result.error
    return result.snapshot


def saved(name: str, path: Path) -> SnapshotTarget:
    return SnapshotTarget(name, path, json.loads(path.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ServerSnapshot]:
    spawner = Spawner(tmp_path_factory.mktemp("snapshot"))
    targets = [
        spawner.target("smelly", "smelly_server.py"),
        spawner.target("raw-2026", "lowlevel_raw_server.py", "--era", "2026"),
        spawner.target("garbage", "garbage_stdout_server.py"),
    ]
    snapshots: dict[str, ServerSnapshot] = {}
    for result in reflect_all(targets, 10):
        assert result.snapshot is not None, result.error
        snapshots[result.name] = result.snapshot
    return snapshots


@pytest.mark.parametrize("name", ["smelly", "raw-2026", "garbage"])
def test_round_trip_through_a_file(live: dict[str, ServerSnapshot], tmp_path: Path, name: str) -> None:
    original = live[name]
    path = tmp_path / f"{name}.json"
    write_json_atomic(path, snapshot_document(original))
    assert [entry.name for entry in tmp_path.iterdir()] == [path.name], "no temp file left behind"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == SNAPSHOT_FORMAT
    [result] = reflect_all([saved("replayed", path)], 1)
    assert result.error is None, result.error
    replayed = result.snapshot
    assert replayed is not None
    assert replayed.name == "replayed", "the target's name wins over the saved one"
    assert load_snapshot(path).name == name, "a file named by no config: the name saved in it"
    assert replayed.protocol_version == original.protocol_version == MODERN
    assert replayed.server_info == original.server_info
    assert replayed.instructions == original.instructions
    assert replayed.observations == original.observations
    assert replayed.origin == str(path)
    assert [tool.name for tool in replayed.tools] == [tool.name for tool in original.tools]
    assert [dict(tool.raw) for tool in replayed.tools] == [dict(tool.raw) for tool in original.tools]
    assert [tool.sdk_rejection for tool in replayed.tools] == [tool.sdk_rejection for tool in original.tools]
    assert snapshot_document(replayed) == {**document, "name": "replayed"}


def test_round_trip_keeps_exotic_text(live: dict[str, ServerSnapshot], tmp_path: Path) -> None:
    path = tmp_path / "smelly.json"
    write_json_atomic(path, snapshot_document(live["smelly"]))
    assert "\u200b" in path.read_text(encoding="utf-8"), "written as UTF-8, not escaped"
    tools = {tool.name: tool for tool in load_snapshot(path).tools}
    assert "\u200b" in tools["translate_text"].description
    assert "<IMPORTANT>" in tools["add_numbers"].description


def test_round_trip_keeps_pollution_observation(live: dict[str, ServerSnapshot]) -> None:
    document = snapshot_document(live["garbage"])
    assert [item["kind"] for item in document["observations"]] == ["stdout-pollution"]
    replayed = parse_snapshot(json.loads(json.dumps(document)), "x", "mem")
    assert replayed.observations == live["garbage"].observations


def test_x_mcp_header_rejection_follows_the_saved_protocol_version(live: dict[str, ServerSnapshot]) -> None:
    document = snapshot_document(live["raw-2026"])
    modern = parse_snapshot(document, "x", "mem")
    assert modern.tools[-1].name == "invalid_header" and modern.tools[-1].sdk_rejection is not None
    legacy = parse_snapshot({**document, "protocolVersion": "2025-06-18"}, "x", "mem")
    assert legacy.tools[-1].sdk_rejection is None


def test_tools_list_result_without_metadata(tmp_path: Path) -> None:
    path = tmp_path / "listing.json"
    path.write_text(
        json.dumps({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}), encoding="utf-8"
    )
    snapshot = load_snapshot(path)
    assert snapshot.name == "listing"
    assert [tool.name for tool in snapshot.tools] == ["a"]
    assert snapshot.protocol_version is None and snapshot.observations == ()


@pytest.mark.parametrize("result", [{"tools": [{"name": "a"}], "nextCursor": None}, [{"name": "a"}]])
def test_json_rpc_response_is_read_as_its_result(tmp_path: Path, result: object) -> None:
    path = tmp_path / "response.json"
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}), encoding="utf-8")
    snapshot = load_snapshot(path)
    assert snapshot.name == "response" and [tool.name for tool in snapshot.tools] == ["a"]


def test_bare_array(tmp_path: Path) -> None:
    path = tmp_path / "bare.json"
    tools = [
        {"name": "one", "description": "First.", "inputSchema": {"type": "object"}},
        {"name": "two", "inputSchema": {"type": "object"}},
        "not a tool",
        {"description": "no name", "inputSchema": {"type": "object"}},
    ]
    path.write_text(json.dumps(tools), encoding="utf-8")
    [result] = reflect_all([saved("bare", path)], 1)
    assert result.error is None
    snapshot = result.snapshot
    assert snapshot is not None
    assert snapshot.name == "bare"
    assert [tool.name for tool in snapshot.tools] == ["one", "two", "<tool #3>", "<tool #4>"]
    assert snapshot.tools[0].sdk_rejection is None
    assert [tool.named for tool in snapshot.tools] == [True, True, False, False]
    assert snapshot.tools[2].sdk_rejection == (
        "it is a JSON string, not an object, so the MCP SDK rejects the whole tools/list page"
    )
    assert (
        snapshot.tools[3].sdk_rejection
        == 'it has no "name", so the MCP SDK rejects the whole tools/list page'
    )


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "tools": [\n    {"name" "a"}\n  ]\n}\n', encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_snapshot(path)
    assert str(caught.value).startswith(f"{path}:3:13: not valid JSON")


def test_comments_and_trailing_commas_are_read_like_a_client_config(tmp_path: Path) -> None:
    """One rule for every JSON input: reach reads the file once, as JSONC, and reflect uses that."""
    plain = tmp_path / "plain.json"
    plain.write_text(
        json.dumps({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}), encoding="utf-8"
    )
    commented = tmp_path / "commented.json"
    commented.write_text(
        '// saved by hand\n{"tools": [\n'
        '  {"name": "a", "inputSchema": {"type": "object",},}, /* one */\n]}\n',
        encoding="utf-8",
    )
    assert [dict(tool.raw) for tool in load_snapshot(commented).tools] == [
        dict(tool.raw) for tool in load_snapshot(plain).tools
    ]


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.json"
    with pytest.raises(UsageError, match="no such file"):
        load_snapshot(path)


@pytest.mark.parametrize(
    "data", [{"tool": []}, {"tools": {}}, 42, "tools"], ids=["typo", "object", "int", "str"]
)
def test_not_a_snapshot(data: object) -> None:
    with pytest.raises(UsageError, match="not a snapshot"):
        parse_snapshot(data, "x", "file.json")
