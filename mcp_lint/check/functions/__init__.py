"""Check functions, registered by name; rule files in `rules/` say which one they use.

A check function takes a `CheckContext` (one server's snapshot plus the rule's resolved options)
and yields `Hit`s. Functions are pure: no I/O, no global state, so 10,000 tools check fast.
"""

from __future__ import annotations

import importlib
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


# Explicit list keeps the registry greppable; each module exposes a `FUNCTIONS` dict. Imported by
# name because `annotations` would otherwise resolve to this package's `from __future__` feature.
FUNCTION_MODULES = (
    "annotations",
    "budget",
    "description",
    "naming",
    "overlap",
    "poisoning",
    "rubric",
    "schema",
    "server",
)


def _register_all() -> None:
    for module_name in FUNCTION_MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        FUNCTIONS.update(module.FUNCTIONS)


_register_all()
