"""A room-booking server, as the rubric rule's and the propose stage's tests both judge it: `book_room`
says little; `book_meeting_room` does the same thing to the same object with other inputs (the rival a
proposal tells it apart from), `cancel_booking` is another action (never pointed to)."""

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
        {
            "name": "book_meeting_room",
            "description": "Books a room for a team, with a video link.",
            "inputSchema": {
                "type": "object",
                "properties": {"slot": {"type": "string"}, "attendees": {"type": "array"}},
                "required": ["slot", "attendees"],
            },
        },
    ],
    "2025-11-25",
    None,
)
SERVER = ServerSnapshot("rooms", TOOLS)
