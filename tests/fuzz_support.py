"""What the fuzz suites share to mutate a JSON document and write it the way a hostile peer would:
every path into it, a copy with one path replaced, and serialization that splices in what json.dumps
cannot write itself (nesting thousands of levels deep, integers of thousands of digits)."""

from __future__ import annotations

import json
import re
from typing import Any

# A marker string json.dumps writes, replaced in the text by an integer of that many digits.
BIG_MARK = "__mcp_lint_fuzz_big_"
BIG_NUMBER = re.compile(rf'"{BIG_MARK}(\d+)"')
# A marker string replaced in the text by nesting `levels` deep (json.dumps itself would recurse).
DEEP_MARK = "__mcp_lint_fuzz_deep__"


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into `value` (keys and indexes), the empty path to the whole first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(paths(item, (*prefix, index)))
    return found


def replace_at(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `document` with the value at `path` replaced (the original is left as it was)."""
    if not path:
        return value
    head, *rest = path
    if isinstance(document, dict):
        return {**document, head: replace_at(document[head], tuple(rest), value)}
    copy = list(document)
    copy[head] = replace_at(document[head], tuple(rest), value)
    return copy


def big_numbers(text: str) -> str:
    """Each BIG_MARK string of `text` as the integer of that many digits."""
    return BIG_NUMBER.sub(lambda match: "9" * int(match.group(1)), text)


def serialize(document: Any, levels: int) -> str:
    """`document` as JSON text (NaN and the infinities allowed, lone surrogates as escapes), its
    first DEEP_MARK nested `levels` deep and the others `{}`, its BIG_MARKs long integers."""
    text = big_numbers(json.dumps(document, allow_nan=True))
    if DEEP_MARK in text:
        text = text.replace(json.dumps(DEEP_MARK), "[" * levels + "]" * levels, 1).replace(
            json.dumps(DEEP_MARK), "{}"
        )
    return text
