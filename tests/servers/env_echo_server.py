"""An MCPServer whose one tool lists, in its description, the environment variable names it sees."""

from __future__ import annotations

import os

from _common import base_parser, parse
from mcp.server.mcpserver import MCPServer

server = MCPServer("env-echo-server", version="1.0.0")
PREFIX = "Environment variables visible to this server: "


def environment_names() -> str:
    return ",".join(sorted(os.environ))


@server.tool(description=PREFIX + environment_names())
def show_environment() -> str:
    return environment_names()


if __name__ == "__main__":
    parse(base_parser(__doc__ or ""))
    server.run()
