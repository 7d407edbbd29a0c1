"""A notes server whose thin descriptions live in its own source: the fixture `check --fix` rewrites.

Docstrings and a `description=` string, each with a rubric smell; `get_note` fails on an unknown id,
so recorded calls hold both a success and a failure to ground examples and limitations on.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

server = MCPServer("notes-server", version="1.0.0")
NOTES = {"n1": "Buy milk", "n2": "Call Ann about the 3 tickets"}


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False))
def get_note(note_id: str) -> str:
    """Gets a note."""
    if note_id not in NOTES:
        raise ToolError(f"No note with id {note_id}")
    return NOTES[note_id]


@server.tool(
    description="Searches notes.",
    annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False),
)
def search_notes(query: str, limit: Annotated[int, Field(ge=1, le=50)] = 10) -> str:
    found = [f"{key}: {text}" for key, text in NOTES.items() if query.lower() in text.lower()]
    return "\n".join(found[:limit]) or "no match"


@server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def delete_note(note_id: str) -> str:
    """Deletes a note; it cannot be undone."""
    NOTES.pop(note_id, None)
    return f"deleted {note_id}"


if __name__ == "__main__":
    server.run()
