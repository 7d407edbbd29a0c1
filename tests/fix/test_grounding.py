"""What a rival's own description says it does: the verb phrase a when-to-use sentence is made from."""

from __future__ import annotations

import pytest

from mcp_lint.fix.grounding import purpose, rivals
from mcp_lint.model import Tool


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("Gets a user by email address.", "get a user by email address"),
        ("Lists issues of a repo (paginated). Needs a token.", "list issues of a repo (paginated)"),
        ("This tool searches the web for pages.", "search the web for pages"),
        ("Use this to fetch a page.", "fetch a page"),
        ("Retrieves every open ticket", "retrieve every open ticket"),
        ("Weather report.", None),  # no verb: no phrase to build "To ..., use" from
        ("Gets items, e.g. books and films.", None),  # cut inside an abbreviation
        ("", None),
        ("Gets " + "very " * 20 + "many items.", None),  # a paragraph, not a reason
    ],
)
def test_purpose_is_the_first_sentence_verb_phrase_in_the_imperative(
    description: str, expected: str | None
) -> None:
    assert purpose(Tool("get_items", {"name": "get_items", "description": description})) == expected


def _tool(name: str, description: str, **extra: object) -> Tool:
    raw = {"name": name, "description": description, "inputSchema": {"type": "object"}, **extra}
    return Tool(name, raw)


def test_rivals_read_from_the_servers_index_match_those_read_per_tool() -> None:
    # "fs" starts three tools: a namespace, so fs_read_file and fs_read_file_v2 are one action on a file
    reader = _tool("fs_read_file", "Read a file.", annotations={"readOnlyHint": True})
    writer = _tool("fs_read_file_v2", "Read a file.", annotations={"readOnlyHint": False})
    other = _tool("fs_write_file", "Write a file.", annotations={"readOnlyHint": False})
    unnamed = Tool("", {"description": "Read a file."}, named=False)
    server = [reader, writer, other, unnamed]
    indexed = rivals(reader, server)  # the tool is one of its peers: the server's index is used
    assert [rival.name for rival in indexed] == ["fs_read_file_v2"]
    # read per tool (the tool is not among the peers, or its name is there twice): the same rivals
    assert rivals(reader, [writer, other, unnamed]) == indexed
    assert rivals(reader, [reader, *server]) == indexed
    assert rivals(writer, server)[0].name == "fs_read_file"
    assert rivals(other, server) == ()
