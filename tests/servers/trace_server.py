"""A server to record through the proxies: tools that echo, wait, fail, overflow, report progress,
ask the client a question, read a secret from the environment and crash.

stdio by default; `--http` serves the same tools over Streamable HTTP on 127.0.0.1 and prints
`LISTENING <port>` once it accepts connections (as http_server.py does).
"""

from __future__ import annotations

import os

import anyio
from _common import base_parser, parse
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

server = MCPServer("trace-server", version="1.0.0")


@server.tool(description="Returns `text` unchanged.")
def echo(text: str) -> str:
    return text


@server.tool(description="Waits `delay` seconds, then returns `text`.")
async def slow_echo(text: str, delay: float) -> str:
    await anyio.sleep(delay)
    return text


@server.tool(description="Signs in as `user` with `api_key`.")
def login(user: str, api_key: str) -> str:
    return f"welcome {user}"


@server.tool(description="Says which credentials the server was started with.")
def read_config() -> str:
    return f"connected with token {os.environ.get('SERVICE_TOKEN', '')}"


@server.tool(description="Always fails with `reason`.")
def fail(reason: str) -> str:
    raise ToolError(reason)


@server.tool(description="Returns `size` characters.")
def big(size: int) -> str:
    return "x" * size


@server.tool(description="Reports `steps` progress notifications, then returns 'done'.")
async def progress(steps: int, ctx: Context) -> str:
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step}")
    return "done"


class Answer(BaseModel):
    ok: bool


@server.tool(description="Asks the client to confirm, then says what it answered.")
async def confirm(ctx: Context) -> str:
    answer = await ctx.elicit("Proceed?", Answer)
    return f"{answer.action}: {getattr(answer, 'data', None)}"


@server.tool(description="Kills the server process at once.")
def crash() -> str:
    os._exit(1)


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    args = parse(parser)
    if args.http:
        from http_server import serve

        anyio.run(serve, server.streamable_http_app(), 0)
    else:
        server.run()


if __name__ == "__main__":
    main()
