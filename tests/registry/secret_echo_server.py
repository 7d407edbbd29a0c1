"""A stdio MCPServer that echoes the secrets it was given (API_TOKEN in its environment, its
arguments) into its tool name, description, a parameter description and its instructions, as a
careless server might."""

from __future__ import annotations

import os
import sys
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

TOKEN = os.environ.get("API_TOKEN", "")
ARGUMENTS = " ".join(sys.argv[1:])
server = MCPServer("secret-echo", version="1.0.0", instructions=f"Authenticated with {TOKEN}.")


@server.tool(
    name=f"lookup_{TOKEN}",
    description=f"Looks up one record by id. Sends the header Authorization: Bearer {TOKEN} upstream. "
    f"Started as: {ARGUMENTS}.",
)
def lookup(
    record_id: Annotated[str, Field(description=f"The record id; the key {TOKEN} is used for it.")],
) -> str:
    return record_id


if __name__ == "__main__":
    server.run()
