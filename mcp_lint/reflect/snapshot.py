"""Read and write saved reflections (`mcp-lint snapshot`), so a run can be replayed offline."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError
from mcp_lint.files import write_text_atomic
from mcp_lint.model import Observation, ServerSnapshot
from mcp_lint.reach.targets import snapshot_listing, snapshot_problem
from mcp_lint.reflect.tools import build_tools

SNAPSHOT_FORMAT = "mcp-lint-snapshot/1"


def parse_snapshot(data: Any, name: str, origin: str) -> ServerSnapshot:
    """Accept a `tools/list` result (`{"tools": [...]}`, extra keys used when known) or a bare array,
    either one also inside the JSON-RPC response it came in."""
    listing = snapshot_listing(data)
    if listing is None:
        raise UsageError(
            f"{origin}: not a snapshot: expected a JSON object with a 'tools' array, or an array of tools"
        )
    data = listing
    if isinstance(data, list):
        return ServerSnapshot(name=name, tools=build_tools(data, None, origin), origin=origin)
    info = data.get("serverInfo")
    version = data.get("protocolVersion")
    instructions = data.get("instructions")
    problem = snapshot_problem(data)
    if problem is not None:  # the resolver refuses such a file first; a document from elsewhere too
        raise UsageError(f"{origin}: {problem}")
    saved = data.get("observations") or ()
    observations = tuple(
        Observation(kind=str(item.get("kind")), detail=str(item.get("detail", "")))
        for item in saved
        if isinstance(item, Mapping) and item.get("kind")
    )
    return ServerSnapshot(
        name=name,
        tools=build_tools(data["tools"], version if isinstance(version, str) else None, origin),
        protocol_version=version if isinstance(version, str) else None,
        server_info=info if isinstance(info, Mapping) else None,
        instructions=instructions if isinstance(instructions, str) else None,
        observations=observations,
        origin=origin,
    )


def snapshot_document(snapshot: ServerSnapshot) -> dict[str, Any]:
    """The normalized, replayable form of a reflection: the tools exactly as the server sent them."""
    document: dict[str, Any] = {"format": SNAPSHOT_FORMAT, "name": snapshot.name}
    if snapshot.protocol_version:
        document["protocolVersion"] = snapshot.protocol_version
    if snapshot.server_info is not None:
        document["serverInfo"] = dict(snapshot.server_info)
    if snapshot.instructions is not None:
        document["instructions"] = snapshot.instructions
    if snapshot.observations:
        document["observations"] = [
            {"kind": item.kind, "detail": item.detail} for item in snapshot.observations
        ]
    document["tools"] = [dict(tool.raw) for tool in snapshot.tools]
    return document


def write_json_atomic(path: Path, document: Any) -> None:
    from mcp_lint.sanitize import dumps_strict

    # Strict JSON that encodes as UTF-8, as the reports: a lone surrogate reads back as itself.
    write_text_atomic(path, dumps_strict(document) + "\n")
