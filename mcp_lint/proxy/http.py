"""The server side of a stdio-to-HTTP bridge: Streamable HTTP (and the older HTTP+SSE transport).

Clients that speak only stdio reach a remote server through this bridge, so it does what the SDK's
HTTP transport would do on their behalf, on raw JSON-RPC: POST each message, read the answer from
a JSON body or an event stream, keep the `Mcp-Session-Id` the server assigns, and send the
negotiated `MCP-Protocol-Version` on every later request. On the stateless 2026-07-28 protocol each
request names its own version in `_meta`, and the routing headers that protocol requires
(`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) are derived from the message itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

import anyio
import anyio.abc
import httpx2
from anyio.streams.memory import MemoryObjectSendStream
from mcp.shared._httpx_utils import create_mcp_http_client, stream_within_origin
from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    encode_header_value,
    mcp_param_headers,
    x_mcp_header_map,
)

from mcp_lint.errors import ServerError
from mcp_lint.proxy.jsonrpc import MAX_MESSAGE_BYTES, Frame, id_key, id_keys, is_request, is_response
from mcp_lint.proxy.relay import CONNECTION_CLOSED
from mcp_lint.sanitize import printable
from mcp_lint.traces import redact_text

SESSION_HEADER = "mcp-session-id"
PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
# How long answers still in flight when the client closes may take to arrive (and be recorded).
FINISH_GRACE_SECONDS = 5.0


def _say(text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, f"mcp-lint: {printable(redact_text(text))}\n".encode())


def _error_answer(request_id: Any, message: str) -> Frame:
    """The proxy's own error answer to a request the server could not be asked or did not answer."""
    frame = Frame.encode(
        {"jsonrpc": "2.0", "id": request_id, "error": {"code": CONNECTION_CLOSED, "message": message}}
    )
    return dataclasses.replace(frame, own=True)


def shown_url(url: str) -> str:
    """`url` as messages show it: its password and secret query parameters redacted."""
    return redact_text(url)


class StreamableHttpUpstream:
    def __init__(
        self,
        url: str,
        http: httpx2.AsyncClient,
        sink: MemoryObjectSendStream[Frame],
        group: anyio.abc.TaskGroup,
    ) -> None:
        self._url = url
        self._shown = shown_url(url)  # in messages
        self._http = http
        self._sink = sink
        self._group = group
        self.session_id: str | None = None
        self.protocol_version: str | None = None  # negotiated by initialize (the handshake era)
        self._header_maps: dict[str, dict[tuple[str, ...], str]] = {}
        self._in_flight = 0
        self._listening = False
        self._warned = False
        # The tasks' own scopes, so finish() can stop them without cancelling the relay that
        # runs inside the task group's body.
        self._scopes: set[anyio.CancelScope] = set()
        self._posts: dict[str, anyio.CancelScope] = {}  # a request's id -> the scope of its POST
        self._modern = False  # a request has named a 2026-07-28 version in its _meta

    def _spawn(self, work: Callable[[], Awaitable[None]], requests: Collection[str] = ()) -> None:
        async def run() -> None:
            with anyio.CancelScope() as scope:
                self._scopes.add(scope)
                self._posts.update(dict.fromkeys(requests, scope))
                try:
                    await work()
                finally:
                    self._scopes.discard(scope)
                    for key in requests:
                        if self._posts.get(key) is scope:
                            del self._posts[key]

        self._group.start_soon(run)

    async def send(self, frame: Frame) -> None:
        requests = {id_key(message["id"]): message for message in frame.messages() if is_request(message)}
        if requests:
            # Each request's POST waits for its own answer: run them side by side, as a client would.
            self._in_flight += 1
            self._spawn(lambda: self._post_request(frame, requests), requests)
        elif self._modern and self._cancels(frame):
            # The 2026 HTTP wire has no client notifications: closing the request's stream cancels it.
            return
        else:
            await self._post(frame, {})
            if self._opens_listening(frame):
                self._listening = True
                self._spawn(self._listen)

    def _cancels(self, frame: Frame) -> bool:
        """Abort the POST of each request `frame` cancels; True when that is all `frame` says."""
        messages = list(frame.messages())
        cancels = [message for message in messages if message.get("method") == "notifications/cancelled"]
        for message in cancels:
            params = message.get("params")
            if isinstance(params, dict) and "requestId" in params:
                scope = self._posts.get(id_key(params["requestId"]))
                if scope is not None:
                    scope.cancel()
        return bool(messages) and len(cancels) == len(messages)

    async def finish(self) -> None:
        with anyio.move_on_after(FINISH_GRACE_SECONDS):
            while self._in_flight:
                await anyio.sleep(0.02)
        if self.session_id is not None:
            with contextlib.suppress(httpx2.HTTPError):
                # Its answer is never read: the session is over whatever it says (or however long).
                async with self._http.stream("DELETE", self._url, headers=self._headers(None)):
                    pass
        for scope in list(self._scopes):
            scope.cancel()
        self._sink.close()

    async def finish_now(self) -> None:
        for scope in list(self._scopes):
            scope.cancel()
        self._sink.close()

    async def failure(self) -> str:
        return f"the connection to {self._shown} ended"

    def _opens_listening(self, frame: Frame) -> bool:
        # The handshake era's GET stream carries what the server sends outside any request.
        return (
            not self._listening
            and self.session_id is not None
            and any(message.get("method") == "notifications/initialized" for message in frame.messages())
        )

    def _headers(self, frame: Frame | None) -> dict[str, str]:
        headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        if self.session_id is not None:
            headers[SESSION_HEADER] = self.session_id
        message: dict[str, Any] = frame.data if frame is not None and isinstance(frame.data, dict) else {}
        raw_params = message.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        meta = params.get("_meta")
        modern = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
        method = message.get("method")
        if isinstance(modern, str):
            self._modern = True
            headers[MCP_PROTOCOL_VERSION_HEADER] = modern
            if isinstance(method, str):
                headers[MCP_METHOD_HEADER] = method
                name = params.get(NAME_BEARING_METHODS.get(method, ""))
                if isinstance(name, str):
                    headers[MCP_NAME_HEADER] = encode_header_value(name)
                arguments = params.get("arguments")
                if method == "tools/call" and isinstance(name, str) and isinstance(arguments, dict):
                    headers.update(mcp_param_headers(self._header_maps.get(name, {}), arguments))
        elif self.protocol_version is not None and method != "initialize":
            headers[MCP_PROTOCOL_VERSION_HEADER] = self.protocol_version
        return headers

    async def _post_request(self, frame: Frame, requests: dict[str, dict[str, Any]]) -> None:
        try:
            await self._post(frame, requests)
        finally:
            self._in_flight -= 1

    async def _post(self, frame: Frame, waiting: dict[str, dict[str, Any]]) -> None:
        try:
            async with stream_within_origin(
                self._http, "POST", self._url, content=frame.raw, headers=self._headers(frame)
            ) as response:
                if any(message.get("method") == "initialize" for message in waiting.values()):
                    self.session_id = response.headers.get(SESSION_HEADER) or self.session_id
                await self._read_answer(response, waiting)
        except (httpx2.HTTPError, httpx2.SSEError) as error:
            self._warn(f"cannot reach {self._shown}: {error or type(error).__name__}")
            for message in waiting.values():
                await self._sink.send(_error_answer(message["id"], f"mcp-lint proxy: {self._shown}: {error}"))
            return
        for message in waiting.values():
            await self._sink.send(
                _error_answer(message["id"], f"mcp-lint proxy: {self._shown} sent no answer to this request")
            )

    async def _read_answer(self, response: httpx2.Response, waiting: dict[str, dict[str, Any]]) -> None:
        """Forward what the POST's response holds, ticking off the requests it answers."""
        content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
        if content_type == "text/event-stream" and response.status_code < 400:
            async for event in httpx2.EventSource(response, max_event_size=MAX_MESSAGE_BYTES):
                if event.data:
                    await self._forward(Frame.parse(event.data.encode("utf-8")), waiting)
                    if not waiting:
                        return
            return
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > MAX_MESSAGE_BYTES:
                reason = (
                    f"{self._shown} sent an answer larger than {MAX_MESSAGE_BYTES // (1024 * 1024)} MiB, "
                    "the most mcp-lint reads; it stopped reading it"
                )
                self._warn(reason)
                for message in list(waiting.values()):
                    await self._sink.send(_error_answer(message["id"], f"mcp-lint proxy: {reason}"))
                waiting.clear()
                return
        if not waiting:
            return
        frame = Frame.parse(bytes(body))
        if content_type == "application/json" and frame.is_json_rpc:
            if response.status_code >= 400 and isinstance(frame.data, dict) and len(waiting) == 1:
                # An error sent with an HTTP error status may carry a null id: it answers this request.
                [message] = waiting.values()
                frame = Frame.encode({**frame.data, "id": message["id"]})
            await self._forward(frame, waiting)
            return
        if response.status_code >= 400:
            reason = f"HTTP {response.status_code} from {self._shown}"
            if response.status_code == 404 and self.session_id is not None:
                reason += " (the server ended the session)"
            self._warn(reason)
            for message in list(waiting.values()):
                await self._sink.send(_error_answer(message["id"], f"mcp-lint proxy: {reason}"))
            waiting.clear()

    async def _forward(self, frame: Frame, waiting: dict[str, dict[str, Any]]) -> None:
        for message in frame.messages():
            if not is_response(message):
                continue
            request = next((waiting.pop(key) for key in id_keys(message["id"]) if key in waiting), None)
            if request is not None:
                self._observe(request, message)
        await self._sink.send(frame)

    def _observe(self, request: Mapping[str, Any], response: Mapping[str, Any]) -> None:
        result = response.get("result")
        if not isinstance(result, dict):
            return
        if request.get("method") == "initialize" and isinstance(result.get("protocolVersion"), str):
            self.protocol_version = result["protocolVersion"]
        elif request.get("method") == "tools/list" and isinstance(result.get("tools"), list):
            for tool in result["tools"]:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    with contextlib.suppress(Exception):
                        self._header_maps[tool["name"]] = x_mcp_header_map(tool.get("inputSchema"))

    async def _listen(self) -> None:
        headers = self._headers(None)
        headers["accept"] = "text/event-stream"
        with contextlib.suppress(httpx2.HTTPError, httpx2.SSEError):
            async with stream_within_origin(self._http, "GET", self._url, headers=headers) as response:
                if response.status_code != 200:
                    return  # 405: the server sends nothing outside requests
                async for event in httpx2.EventSource(response, max_event_size=MAX_MESSAGE_BYTES):
                    if event.data:
                        await self._sink.send(Frame.parse(event.data.encode("utf-8")))

    def _warn(self, text: str) -> None:
        if not self._warned:
            self._warned = True
            _say(text)


class SseUpstream:
    """The HTTP+SSE transport of 2024-11-05: one GET event stream for everything the server sends,
    and a POST to the endpoint it names for everything the client sends."""

    def __init__(self, http: httpx2.AsyncClient, sink: MemoryObjectSendStream[Frame], endpoint: str) -> None:
        self._http = http
        self._sink = sink
        self._endpoint = endpoint
        self._shown = shown_url(endpoint)
        self._lock = anyio.Lock()

    async def send(self, frame: Frame) -> None:
        async with self._lock:  # in order: the endpoint answers 202 and the stream carries the rest
            try:
                # Streamed and never read: the answer comes on the event stream, whatever size this is.
                async with self._http.stream(
                    "POST", self._endpoint, content=frame.raw, headers={"content-type": "application/json"}
                ) as response:
                    status = response.status_code
            except httpx2.HTTPError as error:
                reason = f"{self._shown}: {error or type(error).__name__}"
            else:
                if status < 400:
                    return
                reason = f"HTTP {status} from {self._shown}"
        _say(reason)
        for message in frame.messages():
            if is_request(message):
                await self._sink.send(_error_answer(message["id"], f"mcp-lint proxy: {reason}"))

    async def finish(self) -> None:
        self._sink.close()

    async def failure(self) -> str:
        return "the server closed its event stream"


@contextlib.asynccontextmanager
async def http_upstream(
    url: str, headers: Mapping[str, str], sink: MemoryObjectSendStream[Frame], transport: str = "http"
) -> AsyncIterator[StreamableHttpUpstream | SseUpstream]:
    # No read timeout: a tool may take as long as it takes, and the client keeps its own deadline.
    timeout = httpx2.Timeout(30.0, read=None)
    async with create_mcp_http_client(headers=dict(headers), timeout=timeout) as http:
        if transport == "sse":
            async with _sse_session(url, http, sink) as upstream:
                yield upstream
            return
        async with anyio.create_task_group() as group:
            streamable = StreamableHttpUpstream(url, http, sink, group)
            try:
                yield streamable
            finally:
                await streamable.finish_now()


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        port = -1
    return scheme, (parts.hostname or "").lower(), port


def _origin_text(url: str) -> str:
    scheme, host, port = _origin(url)
    return f"{scheme}://{host}:{port}"


@contextlib.asynccontextmanager
async def _sse_session(
    url: str, http: httpx2.AsyncClient, sink: MemoryObjectSendStream[Frame]
) -> AsyncIterator[SseUpstream]:
    endpoint_found = anyio.Event()
    endpoint: list[str] = []
    refused: list[str] = []

    async def stream() -> None:
        async with sink:
            try:
                async with stream_within_origin(
                    http, "GET", url, headers={"accept": "text/event-stream"}
                ) as response:
                    if response.status_code != 200:
                        raise ServerError(
                            f"{shown_url(url)}: HTTP {response.status_code} opening the SSE stream"
                        )
                    async for event in httpx2.EventSource(response, max_event_size=MAX_MESSAGE_BYTES):
                        if event.event == "endpoint" and not endpoint and not refused:
                            named = urljoin(url, event.data.strip())
                            if _origin(named) != _origin(url):
                                # The user's headers (credentials) go to the stream's origin only,
                                # as the SDK's own SSE client insists.
                                refused.append(
                                    f"{shown_url(url)}: the SSE stream names an endpoint on another "
                                    f"origin ({shown_url(named)}); mcp-lint posts only to "
                                    f"{_origin_text(url)}"
                                )
                                endpoint_found.set()
                                return
                            endpoint.append(named)
                            endpoint_found.set()
                        elif event.data:
                            await sink.send(Frame.parse(event.data.encode("utf-8")))
            except (httpx2.HTTPError, httpx2.SSEError) as error:
                raise ServerError(f"cannot reach {shown_url(url)}: {error or type(error).__name__}") from None
            finally:
                endpoint_found.set()

    async with anyio.create_task_group() as group:
        group.start_soon(stream)
        await endpoint_found.wait()
        if refused:
            raise ServerError(refused[0])
        if not endpoint:
            raise ServerError(f"{shown_url(url)}: the SSE stream named no endpoint to post messages to")
        try:
            yield SseUpstream(http, sink, endpoint[0])
        finally:
            group.cancel_scope.cancel()
