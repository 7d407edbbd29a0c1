"""A low-level `Server` whose `tools/list` always returns another cursor.

Default: every page has a fresh cursor, forever. `--repeat`: the cursor cycles between two values,
so a client that remembers cursors can see the loop. Each page has `--page-size` distinct tools.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from _common import base_parser, parse
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def build_server(repeat: bool, page_size: int) -> Server[Any]:
    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        page = int(params.cursor.split("-")[1]) if params is not None and params.cursor else 0
        tools = [
            types.Tool(
                name=f"page{page}_tool{index}",
                description=f"Tool {index} of page {page}.",
                input_schema={"type": "object", "properties": {}},
            )
            for index in range(page_size)
        ]
        following = (page + 1) % 2 if repeat else page + 1
        return types.ListToolsResult(tools=tools, next_cursor=f"page-{following}")

    return Server("infinite-pages-server", version="1.0.0", on_list_tools=list_tools)


async def serve(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--repeat", action="store_true", help="cycle between two cursors")
    parser.add_argument("--page-size", type=int, default=2)
    args = parse(parser)
    anyio.run(serve, build_server(args.repeat, args.page_size))


if __name__ == "__main__":
    main()
