"""How big and how deep an input mcp-lint reads: past these, one line names the limit (docs/targets.md).

Every walker over a tool (the checks, jsonschema, the reporters) recurses into it; a document no
deeper than MAX_JSON_DEPTH keeps them far from Python's recursion limit, so they need no guard of
their own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp_lint.errors import UsageError

# Objects and arrays inside each other, counted from the document's top. Real snapshots and client
# configs stay under 20; jsonschema needs about four stack frames per level of a schema.
MAX_JSON_DEPTH = 200
# Python's own cap on turning digits into an int (sys.get_int_max_str_digits()): a longer number is
# no identifier, count or version any client would send.
MAX_INT_DIGITS = 4300


def too_deep_message() -> str:
    return f"nested more than {MAX_JSON_DEPTH} levels deep, the most mcp-lint reads"


def too_long_number_message() -> str:
    return f"a number with more than {MAX_INT_DIGITS:,} digits, the most mcp-lint reads"


def _int_too_long(value: int) -> bool:
    # Without converting: str() itself would raise past the interpreter's limit.
    return value.bit_length() > MAX_INT_DIGITS * 3.33


def document_problem(document: Any, depth: int = 0) -> str | None:
    """Why an already parsed JSON value is past the limits (starting at nesting `depth`), or None.

    Iterative, so a value deep enough to break recursion is still measured."""
    stack: list[tuple[Any, int]] = [(document, depth)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, Mapping):
            children: Any = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            if isinstance(value, int) and not isinstance(value, bool) and _int_too_long(value):
                return too_long_number_message()
            continue
        if level >= MAX_JSON_DEPTH:
            return too_deep_message()
        stack.extend((child, level + 1) for child in children)
    return None


def load_json(text: str, where: str) -> Any:
    """`json.loads(text)` within the limits: a value nested deeper than MAX_JSON_DEPTH or a number
    longer than MAX_INT_DIGITS is a one-line UsageError naming `where` and the limit (the parser
    itself would raise RecursionError or a ValueError that reads as an internal error). Malformed
    JSON still raises json.JSONDecodeError, for the caller to say how to mend its file."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise UsageError(f"{where}: {too_deep_message()}") from None
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        raise UsageError(f"{where}: {too_long_number_message()}") from None
    problem = document_problem(document)
    if problem is not None:
        raise UsageError(f"{where}: {problem}")
    return document
