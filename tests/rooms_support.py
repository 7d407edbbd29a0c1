"""A two-tool room-booking server, as the rubric rule's and the propose stage's tests both judge it:
`book_room` says little, `cancel_booking` is the sibling a proposal may point to."""

from __future__ import annotations

from mcp_lint.model import ServerSnapshot
from mcp_lint.reflect.tools import build_tools

TOOLS = build_tools(
    [
        {
            "name": "book_room",
            "description": "Books a room.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "slot": {"type": "string"},
                    "size": {"type": "integer", "description": "Seats."},
                },
                "required": ["slot"],
            },
        },
        {"name": "cancel_booking", "description": "Cancels a booking by id."},
    ],
    "2025-11-25",
    None,
)
SERVER = ServerSnapshot("rooms", TOOLS)
