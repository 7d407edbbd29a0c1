"""good_server's tools over HTTP on 127.0.0.1: Streamable HTTP (default) or SSE only.

The server binds the port itself (`--port 0`, the default, picks a free one) and prints
`LISTENING <port>` on stdout once it accepts connections. `--bearer TOKEN` makes every request
without `Authorization: Bearer TOKEN` fail with 401.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import anyio
import uvicorn
from _common import base_parser, parse
from good_server import server
from starlette.types import ASGIApp, Receive, Scope, Send


class RequireBearer:
    """Answer 401 to any HTTP request that lacks the expected bearer token."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and dict(scope["headers"]).get(b"authorization") != self.expected:
            body = b'{"error": "unauthorized", "error_description": "missing or wrong bearer token"}'
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"www-authenticate", b"Bearer"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def build_app(transport: str, bearer: str | None) -> Any:
    app: Any = server.sse_app() if transport == "sse" else server.streamable_http_app()
    return RequireBearer(app, bearer) if bearer else app


async def serve(app: Any, port: int) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    # Listening before uvicorn starts: a client that connects on the LISTENING line waits in the
    # backlog until uvicorn (lifespan started) accepts it, so the line needs no polling of `started`.
    sock.listen(128)
    print(f"LISTENING {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock])


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--transport", choices=("streamable-http", "sse"), default="streamable-http")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--bearer", help="require this bearer token (401 otherwise)")
    args = parse(parser)
    anyio.run(serve, build_app(args.transport, args.bearer), args.port)
    sys.exit(0)


if __name__ == "__main__":
    main()
