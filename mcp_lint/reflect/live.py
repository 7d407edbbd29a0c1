"""Reflect a live server through the MCP SDK client: connect (either protocol era), list every page."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import anyio
import mcp_types
from mcp import Client
from mcp.client._transport import Transport
from mcp.client.stdio import get_default_environment
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from mcp_lint.errors import ServerError
from mcp_lint.limits import document_problem
from mcp_lint.model import Observation, ServerSnapshot, value_record
from mcp_lint.reach.targets import HttpTarget, StdioTarget, describe
from mcp_lint.reflect.stdio import ProcessMonitor, bounded_stdio
from mcp_lint.reflect.tools import build_tools, page_rejection

MAX_PAGES = 500


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Listing:
    tools: list[Any]
    observations: list[Observation]


async def _request_raw_page(client: Client, cursor: str | None, timeout: float) -> Mapping[str, Any]:
    """Send one tools/list request and return the result JSON exactly as the server sent it.

    `ClientSession.list_tools` validates the result, raising on a tool the SDK's models reject
    and (in 2026-07-28 sessions) dropping tools with an invalid x-mcp-header. A linter must see
    those tools, so the request goes through the session's own stamping and dispatcher and skips
    only the result validation.
    """
    session = client.session
    params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
    request = mcp_types.ListToolsRequest(params=params)
    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    stamp = getattr(session, "_stamp", None)
    dispatcher = getattr(session, "_dispatcher", None)
    if stamp is None or dispatcher is None:  # pragma: no cover - a future SDK without these internals
        result = await session.list_tools(params=params)
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)
    options: dict[str, Any] = {"timeout": timeout}
    stamp(data, options)
    raw: Mapping[str, Any] = await dispatcher.send_raw_request(data["method"], data.get("params"), options)
    return raw


async def list_all_tools(client: Client, timeout: float, max_pages: int = MAX_PAGES) -> Listing:
    tools: list[Any] = []
    observations: list[Observation] = []
    seen_cursors: set[str] = set()
    seen_tools: set[str] = set()
    cursor: str | None = None
    version = client.protocol_version
    for page in range(1, max_pages + 1):
        result = await _request_raw_page(client, cursor, timeout)
        page_tools = result.get("tools")
        if not isinstance(page_tools, list):
            raise ServerError(f"tools/list page {page} has no 'tools' array")
        rejection = page_rejection(result, version)
        if rejection is not None and not any(item.kind == "sdk-rejected-listing" for item in observations):
            observations.append(Observation("sdk-rejected-listing", f"page {page}: {rejection}"))
        fingerprints = [json.dumps(tool, sort_keys=True) for tool in page_tools]
        if page > 1 and fingerprints and all(print_ in seen_tools for print_ in fingerprints):
            # A cursor that leads back to tools already listed would report every one of them twice.
            observations.append(
                Observation(
                    "broken-pagination",
                    f"page {page} repeats tools already listed; stopped after {len(tools)} tools",
                )
            )
            return Listing(tools, observations)
        seen_tools.update(fingerprints)
        tools.extend(page_tools)
        next_cursor = result.get("nextCursor")
        if next_cursor is None:
            return Listing(tools, observations)
        if not isinstance(next_cursor, str):
            observations.append(
                Observation(
                    "broken-pagination", f"page {page} returned a non-string nextCursor {next_cursor!r}"
                )
            )
            return Listing(tools, observations)
        if next_cursor in seen_cursors:
            observations.append(
                Observation(
                    "broken-pagination",
                    f"nextCursor {next_cursor[:60]!r} repeated on page {page}; "
                    f"stopped after {len(tools)} tools",
                )
            )
            return Listing(tools, observations)
        seen_cursors.add(next_cursor)
        cursor = next_cursor
    observations.append(
        Observation(
            "broken-pagination",
            f"still returning a nextCursor after {max_pages} pages; stopped after {len(tools)} tools",
        )
    )
    return Listing(tools, observations)


def spawn_environment(target: StdioTarget) -> dict[str, str]:
    """What a real MCP client gives the server: the SDK's safe variables plus what was named."""
    return get_default_environment() | dict(target.env)


@contextlib.asynccontextmanager
async def _http_transport(
    target: HttpTarget, transport: str, timeout: float, statuses: list[int]
) -> AsyncIterator[Transport]:
    import httpx2
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = dict(target.headers)
    if transport == "sse":
        yield sse_client(target.url, headers=headers, timeout=timeout, sse_read_timeout=max(timeout, 30.0))
        return
    http_timeout = httpx2.Timeout(timeout, read=max(timeout, 30.0))

    async def remember_status(response: httpx2.Response) -> None:
        # The SDK turns a bare 401/404 into a generic JSON-RPC error; keep the status to say why.
        if response.status_code >= 400:
            statuses.append(response.status_code)

    async with create_mcp_http_client(headers=headers, timeout=http_timeout) as http_client:
        http_client.event_hooks["response"] = [*http_client.event_hooks.get("response", []), remember_status]
        yield streamable_http_client(target.url, http_client=http_client)


def _one_line(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return " ".join(first.split())


def _explain(exc: BaseException) -> str:
    return _one_line(_describe_exception(exc)) or type(exc).__name__


def _describe_exception(exc: BaseException) -> str:
    if isinstance(exc, MCPError):
        return exc.error.message if exc.error.message else str(exc)
    if isinstance(exc, ValidationError):
        return f"the server's answer is not valid MCP ({exc.error_count()} problems)"
    grouped = getattr(exc, "exceptions", None)  # an ExceptionGroup (a backport below Python 3.11)
    if isinstance(grouped, (list, tuple)):
        leaves = [leaf for leaf in grouped if not isinstance(leaf, anyio.get_cancelled_exc_class())]
        return _describe_exception(leaves[0]) if leaves else "cancelled"
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _reflect_with(
    client: Client, name: str, timeout: float, origin: str | None, connected: list[bool] | None = None
) -> ServerSnapshot:
    async with client:
        if connected is not None:
            connected.append(True)
        listing = await list_all_tools(client, timeout)
        info = client.server_info
        version = client.protocol_version
        # A result nested past MAX_JSON_DEPTH, or a 5,000-digit number, would crash the checks
        # (RecursionError) or the reports (ValueError): what the server sent is refused, exit 3.
        problem = document_problem(list(listing.tools), depth=2)
        if problem is not None:
            raise ServerError(f"{origin or name}: tools/list result {problem}")
        return ServerSnapshot(
            name=name,
            tools=build_tools(listing.tools, version, origin),
            protocol_version=version,
            server_info=info.model_dump(by_alias=True, mode="json", exclude_none=True) if info else None,
            instructions=client.instructions,
            observations=tuple(listing.observations),
            origin=origin,
        )


async def reflect_stdio(target: StdioTarget, timeout: float) -> ServerSnapshot:
    monitor, snapshot, failure, connected = await _attempt_stdio(target, timeout, "auto")
    exited_on_probe = (
        snapshot is None
        and not connected
        and monitor.returncode not in (None, 0)
        and not monitor.signalled  # a server that hung and was stopped is not asked twice
        and not monitor.overflow
    )
    if exited_on_probe:
        # An old SDK server (mcp 1.6 and the like) exits on a method it does not know, and the
        # server/discover probe is one: started again, it is asked with the initialize handshake alone.
        monitor, snapshot, failure, connected = await _attempt_stdio(target, timeout, "legacy")
    if snapshot is None or failure is not None:
        raise ServerError(_server_failure(target, failure or "the server closed the connection", monitor))
    if target.provisional_name:
        snapshot = replace(snapshot, name=reported_name(snapshot.server_info) or snapshot.name)
    if monitor.polluted_lines:
        detail = f"{monitor.polluted_lines} non-JSON-RPC line(s) on stdout, first: " + " | ".join(
            repr(line) for line in monitor.stdout_pollution[:3]
        )
        snapshot = ServerSnapshot(
            name=snapshot.name,
            tools=snapshot.tools,
            protocol_version=snapshot.protocol_version,
            server_info=snapshot.server_info,
            instructions=snapshot.instructions,
            observations=(Observation("stdout-pollution", detail), *snapshot.observations),
            origin=snapshot.origin,
        )
    return snapshot


async def _attempt_stdio(
    target: StdioTarget, timeout: float, mode: Literal["auto", "legacy"]
) -> tuple[ProcessMonitor, ServerSnapshot | None, str | None, bool]:
    """One start of the server: (its monitor, the snapshot or None, why it failed, whether the
    handshake completed)."""
    monitor = ProcessMonitor(command=describe(target))
    env = spawn_environment(target)
    failure: str | None = None
    snapshot: ServerSnapshot | None = None
    connected: list[bool] = []
    started = time.monotonic()
    # The whole reflection is bounded too, so a server that trickles answers cannot stall the run.
    with anyio.move_on_after(timeout * 4) as overall:
        try:
            transport = bounded_stdio(target.command, target.args, env, target.cwd, monitor)
            client = Client(transport, read_timeout_seconds=timeout, cache=None, mode=mode)
            with anyio.fail_after(timeout * 4):
                snapshot = await _reflect_with(client, target.name, timeout, target.origin, connected)
        except ServerError:
            raise
        except TimeoutError:
            failure = _no_answer(started, timeout)
        except Exception as exc:
            failure = _explain(exc)
    if overall.cancelled_caught:
        failure = _no_answer(started, timeout)
    if monitor.overflow:
        failure = monitor.overflow
    return monitor, snapshot, failure, bool(connected)


def reported_name(server_info: Mapping[str, Any] | None) -> str | None:
    """The name a server gives itself in `serverInfo`, when it is a usable one-line name."""
    name = server_info.get("name") if server_info else None
    if not isinstance(name, str):
        return None
    name = " ".join(name.split())
    return name if 0 < len(name) <= 100 else None


def _no_answer(started: float, timeout: float) -> str:
    return f"no answer after {time.monotonic() - started:.0f}s (--timeout {timeout:g}s per request)"


def _server_failure(target: StdioTarget, reason: str, monitor: ProcessMonitor) -> str:
    parts = [f"server {target.name!r} ({describe(target)}) failed: {reason}"]
    timed_out = reason.startswith("no answer after") or "timed out" in reason.lower()
    if timed_out and monitor.notifications:
        # Notifications are not progress: mcp-lint asks for no progress token, so nothing the server
        # sends unasked may extend --timeout, or a server that chatters could hold a CI job forever.
        parts.append(
            f"it sent {monitor.notifications:,} notification(s) meanwhile, which do not extend --timeout"
        )
    if monitor.returncode not in (None, 0) and not monitor.signalled and "exit" not in reason:
        parts.append(f"exit code {monitor.returncode}")
    stderr = monitor.last_stderr_lines()
    if stderr:
        parts.append(f"last stderr: {stderr}")
    elif monitor.stdout_pollution:
        parts.append("stdout: " + " | ".join(monitor.stdout_pollution[:3]))
    exited = monitor.returncode is not None and not monitor.signalled
    # --timeout only helps a server that is slow, not one that exited on its own
    parts.append(
        "run the command by hand to see its output"
        if exited
        else "run the command by hand to see its output, or raise --timeout"
    )
    return "; ".join(parts)


async def reflect_http(target: HttpTarget, timeout: float) -> ServerSnapshot:
    attempts = (
        ["sse"] if target.transport == "sse" else ["http"] if target.transport == "http" else ["http", "sse"]
    )
    errors: list[str] = []
    for transport in attempts:
        statuses: list[int] = []
        started = time.monotonic()
        try:
            with anyio.fail_after(timeout * 4):
                async with _http_transport(target, transport, timeout, statuses) as connection:
                    client = Client(connection, read_timeout_seconds=timeout, cache=None)
                    return await _reflect_with(client, target.name, timeout, target.origin)
        except TimeoutError:
            errors.append(f"{transport}: {_no_answer(started, timeout)}")
            break
        except Exception as exc:
            reason = _explain(exc)
            if statuses and str(statuses[-1]) not in reason:
                reason = f"HTTP {statuses[-1]}: {reason}"
            errors.append(f"{transport}: {reason}")
    raise ServerError(
        f"server {target.name!r} ({target.url}) could not be reflected: {'; '.join(errors)}; "
        "check the URL, the headers (--header NAME:VALUE) and that the server is running"
    )
