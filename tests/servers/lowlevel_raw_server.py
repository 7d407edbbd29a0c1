"""A misbehaving server that sends tool payloads no SDK server would produce.

`MCPServer` and the low-level `Server` both build their `tools/list` answer from the SDK's own
models, so they cannot emit a tool whose `inputSchema` lacks `"type": "object"`. This fixture is
therefore a tiny hand-written stdio JSON-RPC responder: it answers `server/discover` (`--era 2026`)
or refuses it so the client falls back to `initialize` (`--era legacy`), then serves the raw page.
`--era crash` is an old SDK (mcp 1.6) that dies on a method it does not know, `server/discover`
included: a client must start it again and use `initialize` alone.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _common import base_parser, parse

HANDSHAKE_VERSION = "2025-11-25"
MODERN_VERSION = "2026-07-28"
SERVER_INFO = {"name": "raw-server", "version": "0.0.1"}

BASE_TOOLS: list[dict[str, Any]] = [
    {
        "name": "well_formed",
        "description": "A valid tool, served on the same page as the broken ones.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}}},
    },
    {
        "name": "schema_without_type",
        "description": 'inputSchema has properties but no "type": "object"; the SDK client raises on it.',
        "inputSchema": {"properties": {"path": {"type": "string"}}},
    },
    {
        "name": "required_not_a_property",
        "description": "`required` names a property that does not exist.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a", "missing"],
        },
    },
    {
        "name": "bad tool name",
        "description": "The name has spaces in it.",
        "inputSchema": {"type": "object"},
    },
    {
        "name": "duplicate",
        "description": "First of two tools with this name.",
        "inputSchema": {"type": "object"},
    },
    {
        "name": "duplicate",
        "description": "Second of two tools with this name.",
        "inputSchema": {"type": "object"},
    },
]

HEADER_TOOL: dict[str, Any] = {
    "name": "invalid_header",
    "description": "Its x-mcp-header is not an RFC 9110 token; 2026-07-28 clients must drop this tool.",
    "inputSchema": {
        "type": "object",
        "properties": {"region": {"type": "string", "x-mcp-header": "bad header"}},
    },
}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id: Any, value: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def error(request_id: Any, code: int, text: str) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}})


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--era", choices=("2026", "legacy", "crash"), default="legacy")
    args = parse(parser)
    modern = False
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method = message.get("method")
        request_id = message.get("id")
        if request_id is None:  # a notification (notifications/initialized, cancelled, ...)
            continue
        if method == "server/discover":
            if args.era == "crash":
                sys.stderr.write("ValidationError: 1 validation error for ClientRequest\n")
                sys.exit(1)
            if args.era == "legacy":
                error(request_id, -32601, "Method not found")
                continue
            modern = True
            result(
                request_id,
                {
                    "resultType": "complete",
                    "supportedVersions": [MODERN_VERSION],
                    "capabilities": {"tools": {}},
                    "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO},
                },
            )
        elif method == "initialize":
            result(
                request_id,
                {
                    "protocolVersion": HANDSHAKE_VERSION,
                    "capabilities": {"tools": {}},
                    "serverInfo": SERVER_INFO,
                },
            )
        elif method == "tools/list":
            tools = [*BASE_TOOLS, HEADER_TOOL] if modern else list(BASE_TOOLS)
            page: dict[str, Any] = {"tools": tools}
            if modern:
                page.update({"resultType": "complete", "cacheScope": "private", "ttlMs": 0})
            result(request_id, page)
        elif method == "ping":
            result(request_id, {})
        else:
            error(request_id, -32601, f"Method not found: {method}")


if __name__ == "__main__":
    main()
