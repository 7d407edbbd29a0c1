"""An MCPServer that prints log lines on stdout before and among its JSON-RPC answers.

A common bug: `print()` debugging left in a stdio server. Clients that treat every stdout line as
JSON-RPC fail on it; mcp-lint tolerates it and reports stdout-pollution.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
from _common import base_parser, parse
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp_types import ToolAnnotations

BANNER = "Starting server v1.2..."
server = MCPServer("garbage-stdout-server", version="1.2.0")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def ping_host(host: str) -> str:
    """Checks whether a host name resolves and answers, returning 'up' or 'down'."""
    return "up"


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def uptime() -> str:
    """Returns how long this server has been running, in seconds."""
    return "42"


class NoisyStdout:
    """Wraps the real stdout so a log line is printed in front of every JSON-RPC message."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self._count = 0

    async def write(self, text: str) -> int:
        self._count += 1
        await self._inner.write(f"[debug] sending message #{self._count}\n")
        return int(await self._inner.write(text))

    async def flush(self) -> None:
        await self._inner.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


async def serve() -> None:
    stdout = anyio.wrap_file(sys.stdout)
    async with stdio_server(stdout=NoisyStdout(stdout)) as (read_stream, write_stream):  # type: ignore[arg-type]
        lowlevel = server._lowlevel_server
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


if __name__ == "__main__":
    parse(base_parser(__doc__ or ""))
    print(BANNER, flush=True)
    print("Loaded 2 tools", flush=True)
    anyio.run(serve)
