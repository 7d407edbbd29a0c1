"""The reflect stage: turn a target into a ServerSnapshot, live or from a saved file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import anyio

from mcp_lint.errors import McpLintError, ServerError
from mcp_lint.model import ServerSnapshot
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import HttpTarget, SnapshotTarget, StdioTarget, Target


@dataclass(frozen=True)
class Reflection:
    """One target's outcome: a snapshot, or the one-line reason it could not be reflected."""

    name: str
    snapshot: ServerSnapshot | None
    error: str | None = None


async def reflect_one(target: Target | UnreachableTarget, timeout: float) -> ServerSnapshot:
    # Imported per branch: the live client stack (the SDK client, its transports, httpx) takes about
    # half a second to import, and a run over saved snapshots never starts a server.
    if isinstance(target, UnreachableTarget):
        raise ServerError(target.reason)
    if isinstance(target, SnapshotTarget):
        from mcp_lint.reflect.snapshot import parse_snapshot

        return parse_snapshot(target.document, target.name, target.origin or str(target.path))
    if isinstance(target, StdioTarget):
        from mcp_lint.reflect.live import reflect_stdio

        return await reflect_stdio(target, timeout)
    if isinstance(target, HttpTarget):
        from mcp_lint.reflect.live import reflect_http

        return await reflect_http(target, timeout)
    raise TypeError(f"unknown target {target!r}")


def reflect_all(targets: Sequence[Target | UnreachableTarget], timeout: float) -> list[Reflection]:
    """Reflect every target concurrently; one failing server does not stop the others."""
    results: list[Reflection | None] = [None] * len(targets)

    async def run(index: int, target: Target | UnreachableTarget) -> None:
        try:
            snapshot = await reflect_one(target, timeout)
        except McpLintError as error:
            results[index] = Reflection(target.name, None, str(error))
        else:
            # A target named only after its script takes the name the server reported (see reflect_stdio).
            results[index] = Reflection(snapshot.name, snapshot)

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for index, target in enumerate(targets):
                group.start_soon(run, index, target)

    anyio.run(main)
    return [result for result in results if result is not None]
