"""A fast MCP server for benchmarks: raw JSON-RPC over stdio, no SDK, every answer instant.

    python benchmarks/raw_stdio_server.py [--tools 120]

An SDK server spends most of a benchmark round importing the SDK and starting its task groups, which
hides what the client side costs. This one starts in a few tens of milliseconds (json, sys, argparse)
and answers the legacy handshake (it refuses `server/discover`, so a client falls back to `initialize`)
and one `tools/list` page holding every tool, so what a benchmark measures is the client.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HANDSHAKE_VERSION = "2025-11-25"
SERVER_INFO = {"name": "raw-benchmark-server", "version": "1.0.0"}


def make_tools(count: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"tool_{index:03d}",
            "description": f"Tool number {index}: returns the text it is given, unchanged.",
            "inputSchema": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The text to echo back."}},
                "required": ["text"],
            },
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        }
        for index in range(count)
    ]


def answer(message: dict[str, Any], tools: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The response to one request, or None for a notification (which gets none)."""
    request_id = message.get("id")
    if request_id is None:
        return None
    method = message.get("method")
    reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
    if method == "initialize":
        reply["result"] = {
            "protocolVersion": HANDSHAKE_VERSION,
            "capabilities": {"tools": {}},
            "serverInfo": SERVER_INFO,
        }
    elif method == "tools/list":
        reply["result"] = {"tools": tools}
    elif method == "ping":
        reply["result"] = {}
    else:  # server/discover included: the legacy handshake is the one every client speaks
        reply["error"] = {"code": -32601, "message": f"Method not found: {method}"}
    return reply


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tools", type=int, default=120)
    tools = make_tools(parser.parse_args().tools)
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line), tools)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
