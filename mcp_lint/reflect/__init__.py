"""The reflect stage: turn a target into a ServerSnapshot, live or from a saved file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mcp_lint.errors import McpLintError, ServerError
from mcp_lint.model import ServerSnapshot, value_record
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import HttpTarget, SnapshotTarget, StdioTarget, Target


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Reflection:
    """One target's outcome: a snapshot, or the one-line reason it could not be reflected."""

    name: str
    snapshot: ServerSnapshot | None
    error: str | None = None


def _reflect_saved(target: SnapshotTarget | UnreachableTarget) -> ServerSnapshot:
    """A target that starts no server: a saved snapshot, or the reason it cannot be reached."""
    if isinstance(target, UnreachableTarget):
        raise ServerError(target.reason)
    from mcp_lint.reflect.snapshot import parse_snapshot

    return parse_snapshot(target.document, target.name, target.origin or str(target.path))


async def reflect_one(target: Target | UnreachableTarget, timeout: float) -> ServerSnapshot:
    # Imported per branch: the live client stack (the SDK client, its transports, httpx) takes about
    # half a second to import, and a run over saved snapshots never starts a server.
    if isinstance(target, (SnapshotTarget, UnreachableTarget)):
        return _reflect_saved(target)
    if isinstance(target, StdioTarget):
        from mcp_lint.reflect.live import reflect_stdio

        return await reflect_stdio(target, timeout)
    if isinstance(target, HttpTarget):
        from mcp_lint.reflect.live import reflect_http

        return await reflect_http(target, timeout)
    raise TypeError(f"unknown target {target!r}")


def reflect_all(targets: Sequence[Target | UnreachableTarget], timeout: float) -> list[Reflection]:
    """Reflect every target concurrently; one failing server does not stop the others. A run that
    starts no server (saved snapshots only) reads them in turn, without an event loop (or importing
    one: anyio and asyncio are a good part of a snapshot lint's start-up)."""
    results: list[Reflection | None] = [None] * len(targets)

    def done(index: int, target: Target | UnreachableTarget, snapshot: ServerSnapshot) -> None:
        # A target named only after its script takes the name the server reported (see reflect_stdio).
        results[index] = Reflection(snapshot.name, snapshot)

    saved = [t for t in targets if isinstance(t, (SnapshotTarget, UnreachableTarget))]
    if len(saved) == len(targets):
        for index, target in enumerate(saved):
            try:
                done(index, target, _reflect_saved(target))
            except McpLintError as error:
                results[index] = Reflection(target.name, None, str(error))
        return [result for result in results if result is not None]

    import anyio

    async def run(index: int, target: Target | UnreachableTarget) -> None:
        try:
            snapshot = await reflect_one(target, timeout)
        except McpLintError as error:
            results[index] = Reflection(target.name, None, str(error))
        else:
            done(index, target, snapshot)

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for index, target in enumerate(targets):
                group.start_soon(run, index, target)

    anyio.run(main)
    return [result for result in results if result is not None]
