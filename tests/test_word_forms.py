"""The plural and stem folding in mcp_lint.words, shared by the naming, overlap and schema rules."""

from __future__ import annotations

import pytest

from mcp_lint.words import singular, stem


@pytest.mark.parametrize(
    ("word", "expected"),
    [("users", "user"), ("entries", "entry"), ("class", "class"), ("ids", "ids"), ("ties", "tie")],
)
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


def test_stem_meets_the_forms_of_a_verb() -> None:
    assert {stem(word) for word in ("creates", "created", "create", "creating")} == {"creat"}
    assert stem("queries") == stem("query") == "query"
