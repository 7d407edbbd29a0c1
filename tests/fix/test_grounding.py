"""What a rival's own description says it does: the verb phrase a when-to-use sentence is made from."""

from __future__ import annotations

import pytest

from mcp_lint.fix.grounding import purpose
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
