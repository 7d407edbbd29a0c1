"""The plural and stem folding in mcp_lint.words, shared by the naming, overlap and schema rules."""

from __future__ import annotations

import pytest

from mcp_lint.words import _WORD_SPLIT, name_words, singular, stem


@pytest.mark.parametrize(
    ("word", "expected"),
    [("users", "user"), ("entries", "entry"), ("class", "class"), ("ids", "ids"), ("ties", "tie")],
)
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


def test_stem_meets_the_forms_of_a_verb() -> None:
    assert {stem(word) for word in ("creates", "created", "create", "creating")} == {"creat"}
    assert stem("queries") == stem("query") == "query"


def test_a_lower_case_name_splits_as_the_regex_splits_it() -> None:
    """`name_words` of an ASCII name without capitals translates its separators to spaces and splits:
    the words `_WORD_SPLIT` gives, for the calibration tools' names and random ASCII strings (every
    character but the capitals, which take the regex path)."""
    import random

    from lab.corpus import load_rows

    rng = random.Random(35)
    alphabet = [chr(code) for code in range(128) if not "A" <= chr(code) <= "Z"]
    names = [row["tool"] for row in load_rows()] + ["", "_", "a__b", "get-user.v2", "x\ty"]
    names += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12))) for _ in range(20_000)]
    fast = 0
    for name in names:
        assert name_words(name) == [word.lower() for word in _WORD_SPLIT.split(name) if word], name
        fast += name.isascii() and name.islower()
    assert fast > 10_000
