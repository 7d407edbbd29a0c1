"""A well-behaved MCPServer: a few precisely described, annotated tools. mcp-lint should stay quiet."""

from __future__ import annotations

from typing import Annotated

from _common import base_parser, parse
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

DATE: dict[str, object] = {"format": "date"}
server = MCPServer("good-server", version="1.0.0", instructions="Unit conversion and arithmetic helpers.")


@server.tool(
    description=(
        "Converts a length between metric and imperial units. Use it whenever the user gives a length in "
        "one unit and wants it in another. `value` is the number to convert; `from_unit` and `to_unit` are "
        "one of 'm', 'km', 'ft', 'mi'. Example: value=1, from_unit='mi', to_unit='km' returns '1.609 km'."
    ),
    annotations=ToolAnnotations(
        title="Convert length",
        readOnlyHint=True,
        destructiveHint=False,
        idempotentHint=True,
        openWorldHint=False,
    ),
)
def convert_length(
    value: Annotated[float, Field(description="The length to convert, in `from_unit`.")],
    from_unit: Annotated[str, Field(description="Unit of `value`: one of 'm', 'km', 'ft', 'mi'.")],
    to_unit: Annotated[str, Field(description="Unit of the result: one of 'm', 'km', 'ft', 'mi'.")],
) -> str:
    factors = {"m": 1.0, "km": 1000.0, "ft": 0.3048, "mi": 1609.344}
    return f"{value * factors[from_unit] / factors[to_unit]:.3f} {to_unit}"


@server.tool(
    description=(
        "Adds two integers and returns their sum as text. Use it for exact integer arithmetic instead of "
        "estimating. `a` and `b` are the two addends. Example: a=2, b=3 returns '5'."
    ),
    annotations=ToolAnnotations(
        title="Add integers",
        readOnlyHint=True,
        destructiveHint=False,
        idempotentHint=True,
        openWorldHint=False,
    ),
)
def add(
    a: Annotated[int, Field(description="The first addend.")],
    b: Annotated[int, Field(description="The second addend.")],
) -> str:
    return str(a + b)


@server.tool(
    description=(
        "Returns the number of whole days between two calendar dates. `start` and `end` are ISO 8601 dates "
        "in the form YYYY-MM-DD; the result is negative when `end` is before `start`. Example: "
        "start='2024-01-01', end='2024-03-01' returns '60'."
    ),
    annotations=ToolAnnotations(
        title="Days between dates",
        readOnlyHint=True,
        destructiveHint=False,
        idempotentHint=True,
        openWorldHint=False,
    ),
)
def days_between(
    start: Annotated[str, Field(description="First date, ISO 8601 YYYY-MM-DD.", json_schema_extra=DATE)],
    end: Annotated[str, Field(description="Second date, ISO 8601 YYYY-MM-DD.", json_schema_extra=DATE)],
) -> str:
    from datetime import date

    return str((date.fromisoformat(end) - date.fromisoformat(start)).days)


TOOL_NAMES = ("convert_length", "add", "days_between")

if __name__ == "__main__":
    parse(base_parser(__doc__ or ""))
    server.run()
