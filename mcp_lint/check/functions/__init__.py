"""Check functions, registered by name; rule files in `rules/` say which one they use.

A check function takes a `CheckContext` (one server's snapshot plus the rule's resolved options)
and yields `Hit`s. Functions are pure: no I/O, no global state, so 10,000 tools check fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_lint.model import ServerSnapshot


@dataclass(frozen=True)
class Hit:
    """One violation found by a function; the rule turns it into a Finding.

    `tool` is None for server-level hits. `fields` fill the rule's message template.
    `evidence` quotes the offending span (or names the schema path); `suggestion` is a
    mechanical fix when there is one.
    """

    tool: str | None
    fields: Mapping[str, Any] = field(default_factory=dict)
    evidence: str | None = None
    path: str | None = None
    suggestion: str | None = None


@dataclass(frozen=True)
class CheckContext:
    server: ServerSnapshot
    options: Mapping[str, Any]
    # tool name -> the jury's ToolScores (see mcp_lint.jury.run); empty when the rubric is not scored.
    scores: Mapping[str, Any] = field(default_factory=dict)


CheckFunction = Callable[[CheckContext], Iterable[Hit]]

FUNCTIONS: dict[str, CheckFunction] = {}


def _register_all() -> None:
    # Explicit imports keep the registry greppable; each module exposes a `FUNCTIONS` dict.
    from mcp_lint.check.functions import (
        annotations,
        budget,
        description,
        naming,
        overlap,
        poisoning,
        rubric,
        schema,
        server,
    )

    for module in (annotations, budget, description, naming, overlap, poisoning, rubric, schema, server):
        FUNCTIONS.update(module.FUNCTIONS)


_register_all()
