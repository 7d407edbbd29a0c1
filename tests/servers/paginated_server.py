"""A low-level `Server` listing many tools over cursor pages (defaults: 120 tools, pages of 25)."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from _common import base_parser, parse
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def make_tools(count: int) -> list[types.Tool]:
    return [
        types.Tool(
            name=f"tool_{index:03d}",
            description=f"Tool number {index}: returns the text it is given, unchanged.",
            input_schema={
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The text to echo back."}},
                "required": ["text"],
            },
            annotations=types.ToolAnnotations(readOnlyHint=True, openWorldHint=False),
        )
        for index in range(count)
    ]


def build_server(count: int, page_size: int) -> Server[Any]:
    tools = make_tools(count)

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + page_size
        next_cursor = str(end) if end < len(tools) else None
        return types.ListToolsResult(tools=tools[start:end], next_cursor=next_cursor)

    return Server("paginated-server", version="1.0.0", on_list_tools=list_tools)


async def serve(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--tools", type=int, default=120)
    parser.add_argument("--page-size", type=int, default=25)
    args = parse(parser)
    anyio.run(serve, build_server(args.tools, args.page_size))


if __name__ == "__main__":
    main()
