"""A hostile HTTP server for the bridge tests, run in a thread of the test process on 127.0.0.1.

`routes` maps a path to what the server does for it: "sse-endpoint:URL" (an SSE stream whose
endpoint event names URL, then kept open), "json:N" (a 200 application/json body of N bytes, one
JSON-RPC answer padded with spaces), "record" (answer 202 and remember the request's headers), or
"session-delete:N" (initialize answered with a session id, then a DELETE answered with a body of N
bytes; `sent` counts what of it the client took), "sse-pretty" (each request answered on an event
stream whose JSON is pretty-printed over several `data:` lines) or "sse-endless" (each request answered
with one event that never ends; `sent` counts what the client took).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, routes: dict[str, str]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes = routes
        self.seen: list[tuple[str, str, dict[str, str]]] = []  # (method, path, headers)
        self.stopping = threading.Event()
        self.sent = 0  # bytes of a large body written before the client stopped reading

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: HostileServer

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _route(self) -> str:
        self.server.seen.append((self.command, self.path, dict(self.headers.items())))
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.body = body
        return self.server.routes.get(self.path.partition("?")[0], "")

    def do_GET(self) -> None:
        route = self._route()
        if route.startswith("sse-endpoint:"):
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()
            self.wfile.write(f"event: endpoint\ndata: {route.partition(':')[2]}\n\n".encode())
            self.wfile.flush()
            # Held open like a real stream, with keep-alive comments that notice a client gone.
            with contextlib.suppress(OSError):
                while not self.server.stopping.wait(0.2):
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
            return
        self.send_error(404)

    def do_POST(self) -> None:
        route = self._route()
        if route.startswith("json:"):
            size = int(route.partition(":")[2])
            request = json.loads(self.body)
            answer = json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "result": {}}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(size))
            self.end_headers()
            with contextlib.suppress(OSError):
                self.wfile.write(answer[:-1])
                padding = b" " * (1 << 20)
                left = size - len(answer)
                while left > 0:
                    self.wfile.write(padding[: min(left, len(padding))])
                    left -= len(padding)
                self.wfile.write(b"}")
            return
        if route.startswith("session-delete:"):
            request = json.loads(self.body)
            result = {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "serverInfo": {"name": "h", "version": "1"},
            }
            answer = json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "result": result}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("mcp-session-id", "s-1")
            self.send_header("content-length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            return
        if route in ("sse-pretty", "sse-endless"):
            request = json.loads(self.body)
            if "id" not in request:
                self.send_response(202)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            result = {"content": [{"type": "text", "text": "two\nlines"}], "structuredContent": {"a": [1, 2]}}
            answer = {"jsonrpc": "2.0", "id": request["id"], "result": result}
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()
            with contextlib.suppress(OSError):
                if route == "sse-pretty":
                    lines = json.dumps(answer, indent=2).split("\n")
                    self.wfile.write(
                        ("event: message\n" + "".join(f"data: {line}\n" for line in lines) + "\n").encode()
                    )
                    return
                self.wfile.write(
                    b'event: message\ndata: {"jsonrpc":"2.0","id":%d,"result":{"t":"' % request["id"]
                )
                chunk = b"x" * (1 << 20)
                while not self.server.stopping.is_set():  # one event that never ends
                    self.wfile.write(chunk)
                    self.server.sent += len(chunk)
            return
        if route == "record":
            self.send_response(202)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        self.send_error(404)

    def do_DELETE(self) -> None:
        route = self._route()
        if not route.startswith("session-delete:"):
            self.send_error(404)
            return
        size = int(route.partition(":")[2])
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(size))
        self.end_headers()
        chunk = b" " * (1 << 16)
        with contextlib.suppress(OSError):
            while self.server.sent < size:
                self.wfile.write(chunk)
                self.server.sent += len(chunk)


@contextlib.contextmanager
def hostile_server(routes: dict[str, str]) -> Iterator[HostileServer]:
    server = HostileServer(routes)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
