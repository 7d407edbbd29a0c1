"""The relay core `mcp-lint record` and `mcp-lint proxy` share: move frames both ways, watch the answers.

Every frame is forwarded as the bytes that came unless a hook replaces one of its responses (the
description router rewriting a tools/list result). Requests are matched to their responses by id,
per direction: the client's requests are remembered when they pass and looked up when the server
answers; the server's own requests (sampling, elicitation, roots) and the client's answers to them
pass through untouched, since nothing the proxy does depends on them.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Protocol

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from mcp_lint.errors import McpLintError, ServerError
from mcp_lint.proxy.jsonrpc import Frame, id_key, id_keys, is_notification, is_request, is_response

# After the client has closed its side, how long the server may take no message at all before the
# proxy stops waiting to deliver the rest and ends the session (a server that never reads its stdin).
STALLED_SECONDS = 5.0

# JSON-RPC's "connection closed" code, as the SDKs use it for a request that can never be answered.
CONNECTION_CLOSED = -32000


@dataclass(frozen=True)
class PendingRequest:
    """A request of the client's that the server has not answered yet."""

    method: str
    params: Any
    started: float  # time.monotonic() when it passed, for the duration
    time: str  # when it passed, ISO-8601 UTC, for the trace

    @property
    def elapsed_ms(self) -> float:
        return (time.monotonic() - self.started) * 1000.0


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ResponseHook(Protocol):
    """Looks at each answer to a client request; may return a replacement for it."""

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> dict[str, Any] | None: ...


class ClientSide(Protocol):
    """The client the proxy serves: where requests come from and answers go."""

    def frames(self) -> AsyncIterator[Frame]: ...

    async def write(self, frame: Frame) -> None: ...

    async def input_closed(self) -> None:
        """Returns once the client has closed its side, even while its last frames wait to be sent."""


class Upstream(Protocol):
    """The server the proxy fronts. Its frames arrive on the stream given to `Connect`, which it
    closes when the server is gone."""

    async def send(self, frame: Frame) -> None: ...

    async def finish(self) -> None:
        """The client has closed its side: end the session the way the transport ends one."""

    async def failure(self) -> str:
        """Why the server side ended, when it ended while the client was still connected."""


Connect = Callable[[MemoryObjectSendStream[Frame]], contextlib.AbstractAsyncContextManager[Upstream]]


@dataclass
class Relay:
    """The bookkeeping between the two sides: what is in flight, and the hooks that see answers."""

    hooks: Sequence[ResponseHook] = ()
    pending: dict[str, PendingRequest] = field(default_factory=dict)
    # Ids the client reused while a request of the same id was in flight, with how many answers are
    # still owed: which answer goes with which request cannot be known, so they pass unseen by hooks.
    ambiguous: dict[str, int] = field(default_factory=dict)

    def from_client(self, frame: Frame) -> None:
        now = time.monotonic()
        stamp = utc_now()
        for message in frame.messages():
            if is_request(message):
                key = id_key(message["id"])
                if key in self.pending or key in self.ambiguous:
                    owed = self.ambiguous.get(key, 0) + (1 if self.pending.pop(key, None) else 0)
                    self.ambiguous[key] = owed + 1
                    continue
                self.pending[key] = PendingRequest(message["method"], message.get("params"), now, stamp)
            elif is_notification(message) and message["method"] == "notifications/cancelled":
                # A cancelled request may never be answered; an answer that still comes passes unrecorded.
                params = message.get("params")
                if isinstance(params, dict) and "requestId" in params:
                    key = id_key(params["requestId"])
                    self.pending.pop(key, None)
                    self._settle_ambiguous((key,))

    def _settle_ambiguous(self, keys: Sequence[str]) -> bool:
        """Count one answer against a reused id; True when `keys` named one."""
        for key in keys:
            if key in self.ambiguous:
                self.ambiguous[key] -= 1
                if self.ambiguous[key] <= 0:
                    del self.ambiguous[key]
                return True
        return False

    def from_server(self, frame: Frame) -> Frame:
        """The frame to give the client: the same bytes, or the frame rebuilt around replaced answers."""
        if not self.hooks and not self.pending and not self.ambiguous:
            return frame
        if frame.own:
            # The proxy's own error answer (the server could not be reached): it settles the request,
            # but no hook may take it for what the tool said.
            for message in frame.messages():
                if is_response(message):
                    keys = id_keys(message["id"])
                    if not self._settle_ambiguous(keys):
                        for key in keys:
                            self.pending.pop(key, None)
            return frame
        replaced = False
        rebuilt: list[Any] = []
        items = frame.data if isinstance(frame.data, list) else [frame.data]
        for item in items:
            replacement = self._answer(item) if isinstance(item, dict) and is_response(item) else None
            replaced = replaced or replacement is not None
            rebuilt.append(item if replacement is None else replacement)
        if not replaced:
            return frame
        return Frame.encode(rebuilt if isinstance(frame.data, list) else rebuilt[0])

    def _answer(self, response: dict[str, Any]) -> dict[str, Any] | None:
        keys = id_keys(response["id"])
        if not any(key in self.pending for key in keys) and self._settle_ambiguous(keys):
            return None
        request = next(
            (self.pending.pop(key) for key in id_keys(response["id"]) if key in self.pending), None
        )
        if request is None:
            return None
        current = response
        for hook in self.hooks:
            current = hook.on_response(request, current) or current
        return current if current is not response else None

    def abandoned(self, reason: str) -> list[Frame]:
        """Error answers for every request still in flight when the server went away."""
        frames = [
            Frame.encode(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "error": {"code": CONNECTION_CLOSED, "message": f"mcp-lint proxy: {reason}"},
                }
            )
            for request_id in (Frame.parse(key.encode()).data for key in [*self.pending, *self.ambiguous])
        ]
        self.pending.clear()
        self.ambiguous.clear()
        return frames


async def run_relay(client: ClientSide, connect: Connect, relay: Relay) -> None:
    """Serve `client` until it closes (then end the server's session) or the server goes away.

    A server that goes away first is a ServerError after every request in flight has been given an
    error answer, so the client learns why instead of waiting forever.
    """
    sink, source = anyio.create_memory_object_stream[Frame](64)
    failure: McpLintError | None = None
    client_closed = False
    forwarding = anyio.CancelScope()
    watching = anyio.CancelScope()
    sent = 0
    async with connect(sink) as upstream, anyio.create_task_group() as group:

        async def forward_client() -> None:
            nonlocal client_closed, failure, sent
            with forwarding:
                try:
                    async for frame in client.frames():
                        relay.from_client(frame)
                        await upstream.send(frame)
                        sent += 1
                except McpLintError as error:
                    failure = error
                    group.cancel_scope.cancel()
                    return
            watching.cancel()
            client_closed = True
            await upstream.finish()

        async def watch_input() -> None:
            # The client closed its side while a send to the server is stuck (it reads nothing):
            # once the server has taken nothing for STALLED_SECONDS, stop delivering and end.
            with watching:
                await client.input_closed()
                while True:
                    before = sent
                    await anyio.sleep(STALLED_SECONDS)
                    if sent == before:
                        forwarding.cancel()
                        return

        group.start_soon(forward_client)
        group.start_soon(watch_input)
        async with source:
            async for frame in source:
                await client.write(relay.from_server(frame))
        watching.cancel()
        if not client_closed and failure is None:
            reason = await upstream.failure()
            for frame in relay.abandoned(reason):
                await client.write(frame)
            failure = ServerError(reason)
            group.cancel_scope.cancel()
    if failure is not None:
        raise failure
