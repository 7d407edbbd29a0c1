"""Check functions, registered by name with `@check_function`; rule files in `rules/` say which one they use.

A check function takes a `CheckContext` (one server's snapshot plus the rule's resolved options)
and yields `Hit`s. Functions are pure: no I/O, no global state, so 10,000 tools check fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from mcp_lint.model import SchemaFix, ServerSnapshot, Severity, ToolScores, value_record

# What `Hit` is given when no `fields` are: a new empty dict is stored in its place.
_NO_FIELDS: Mapping[str, Any] = MappingProxyType({})


@value_record
@dataclass(frozen=True, eq=False, repr=False, init=False)
class Hit:
    """One violation found by a function; the rule turns it into a Finding.

    `tool` is None for server-level hits. `fields` fill the rule's message template.
    `evidence` quotes the offending span (or names the schema path); `suggestion` is a
    mechanical fix when there is one. `subject` names what the hit is about inside the tool (a
    parameter, the other tool of a pair, a schema path); with server, tool and code it keys the
    finding in a baseline, so it never depends on how the message template names its fields. Left
    None, the hit's `path` is the subject. `severity_cap`, when set, is the highest severity the
    finding may report at: a rule's weaker evidence (a self-explanatory parameter name) reports
    lower than the rule, and never higher, whatever the configuration raises the rule to.
    """

    tool: str | None
    fields: Mapping[str, Any] = field(default_factory=dict)
    evidence: str | None = None
    path: str | None = None
    suggestion: str | None = None
    subject: str | None = None
    severity_cap: Severity | None = None
    fix: SchemaFix | None = None  # the schema/annotation edit its evidence calls for (an unsafe fix)

    def __init__(
        self,
        tool: str | None,
        fields: Mapping[str, Any] = _NO_FIELDS,
        evidence: str | None = None,
        path: str | None = None,
        suggestion: str | None = None,
        subject: str | None = None,
        severity_cap: Severity | None = None,
        fix: SchemaFix | None = None,
    ) -> None:
        # The generated `__init__`, the fields stored as one dict (as `Finding` does) rather than one
        # `object.__setattr__` call each: every finding of a run is made from a hit, four or five per
        # tool from the rubric rules alone. `fields` left out is a new empty dict, as
        # `default_factory=dict` makes it. Held to the generated one by tests/test_model_records.py.
        object.__setattr__(
            self,
            "__dict__",
            {
                "tool": tool,
                "fields": {} if fields is _NO_FIELDS else fields,
                "evidence": evidence,
                "path": path,
                "suggestion": suggestion,
                "subject": subject,
                "severity_cap": severity_cap,
                "fix": fix,
            },
        )


@dataclass(frozen=True, eq=False, repr=False)
class CheckContext:
    server: ServerSnapshot
    options: Mapping[str, Any]
    # tool name -> the jury's scores (see mcp_lint.jury.run); empty when the rubric is not scored.
    scores: Mapping[str, ToolScores] = field(default_factory=dict)


CheckFunction = Callable[[CheckContext], Iterable[Hit]]
_Function = TypeVar("_Function", bound=CheckFunction)

# Check-function name (what a rule file's `function:` says) -> the function. Filled by `@check_function`
# as the modules in FUNCTION_MODULES are imported below.
FUNCTIONS: dict[str, CheckFunction] = {}


def check_function(name: str) -> Callable[[_Function], _Function]:
    """Register the decorated function under `name`; the function itself is returned unchanged."""

    def register(function: _Function) -> _Function:
        if name in FUNCTIONS:
            raise ValueError(f"check function {name!r} is registered twice")
        FUNCTIONS[name] = function
        return function

    return register


# Every module that registers check functions, listed so the registry is complete and greppable. Imported
# by name because `annotations` would otherwise resolve to this package's `from __future__` feature.
FUNCTION_MODULES = (
    "annotations",
    "budget",
    "description",
    "naming",
    "overlap",
    "poisoning",
    "rubric",
    "schema.invalid_input_schema",
    "schema.undocumented_parameter",
    "schema.phantom_parameter",
    "schema.unformatted_parameter",
    "schema.required_parameter_with_default",
    "schema.invalid_default",
    "schema.unenforced_range",
    "schema.default_mismatch",
    "schema.missing_required",
    "schema.enum_mismatch",
    "schema.required_mismatch",
    "server",
)

for _module in FUNCTION_MODULES:
    importlib.import_module(f"{__name__}.{_module}")
