"""Plain records passed between the pipeline stages: reach -> reflect -> check -> report -> gate."""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.IntEnum):
    """npm audit's severity levels, ordered so that comparisons read naturally."""

    INFO = 0
    LOW = 1
    MODERATE = 2
    HIGH = 3
    CRITICAL = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            allowed = ", ".join(level.label for level in cls)
            raise ValueError(f"unknown severity {text!r}; use one of: {allowed}") from None


@dataclass(frozen=True)
class Tool:
    """One tool exactly as the server sent it, with the fields rules read most often pulled out.

    `raw` is the JSON object from `tools/list`; it is kept so nothing the server sent is lost,
    even fields this version of mcp-lint does not know. `sdk_rejection` says why the MCP SDK
    would refuse or silently drop this tool (None when it accepts it).

    `named` is False when the server sent no name to call the tool by: the entry is not a JSON
    object, or its `name` is not a string. `name` is then a placeholder ("<tool #3>") to report
    the entry under, and only the server rules (sdk-rejected-tool) look at the entry.
    """

    name: str
    raw: Mapping[str, Any]
    sdk_rejection: str | None = None
    named: bool = True

    # The accessors below are cached: rules read them hundreds of thousands of times on a large
    # server, and each would otherwise repeat its type checks. `raw` is never mutated.

    @functools.cached_property
    def description(self) -> str:
        value = self.raw.get("description")
        return value if isinstance(value, str) else ""

    @functools.cached_property
    def title(self) -> str | None:
        value = self.raw.get("title")
        if isinstance(value, str):
            return value
        annotations = self.annotations
        nested = annotations.get("title") if annotations else None
        return nested if isinstance(nested, str) else None

    @functools.cached_property
    def input_schema(self) -> Any:
        return self.raw.get("inputSchema")

    @functools.cached_property
    def properties(self) -> Mapping[str, Any]:
        schema = self.input_schema
        if isinstance(schema, (dict, Mapping)):
            props = schema.get("properties")
            if isinstance(props, (dict, Mapping)):
                return props
        return {}

    @functools.cached_property
    def required(self) -> tuple[str, ...]:
        schema = self.input_schema
        if isinstance(schema, (dict, Mapping)):
            names = schema.get("required")
            if isinstance(names, list):
                return tuple(name for name in names if isinstance(name, str))
        return ()

    @functools.cached_property
    def annotations(self) -> Mapping[str, Any] | None:
        value = self.raw.get("annotations")
        return value if isinstance(value, (dict, Mapping)) else None


@dataclass(frozen=True)
class Observation:
    """Something the server did while being reflected that is worth a server-level finding.

    `kind` matches the check function that turns it into a finding (for example
    `stdout-pollution`); `detail` is the evidence, already trimmed for display.
    """

    kind: str
    detail: str


@dataclass(frozen=True)
class ServerSnapshot:
    """The normalized reflection of one server: everything the checks need, nothing live."""

    name: str
    tools: tuple[Tool, ...]
    protocol_version: str | None = None
    server_info: Mapping[str, Any] | None = None
    instructions: str | None = None
    observations: tuple[Observation, ...] = ()
    origin: str | None = None


@dataclass(frozen=True)
class Finding:
    """One rule violation. `tool` is None for server-level findings."""

    code: str
    rule: str
    severity: Severity
    message: str
    server: str
    tool: str | None = None
    evidence: str | None = None
    path: str | None = None
    suggestion: str | None = None


@dataclass(frozen=True)
class ServerReport:
    """What the pipeline knows about one server after checking: findings, or why it failed.

    `tool_scores` maps a tool name to the jury's scores for it (see `mcp_lint.jury.run`);
    `score` is the server-level rubric score; both are empty when the rubric was not scored.
    """

    name: str
    snapshot: ServerSnapshot | None
    findings: tuple[Finding, ...] = ()
    error: str | None = None
    exit_code: int = 0
    tool_scores: Mapping[str, Any] = field(default_factory=dict)
    score: Any = None


@dataclass(frozen=True)
class RunResult:
    """Everything a reporter needs; reporters read this and nothing else."""

    servers: tuple[ServerReport, ...]
    fail_on: str = "low"
    # Plain data about the jury run (judges, calls, cache, tokens, cost, unscored tools), or None.
    jury: Mapping[str, Any] | None = None

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(finding for server in self.servers for finding in server.findings)

    def counts(self) -> dict[str, int]:
        counts = {level.label: 0 for level in Severity}
        for finding in self.findings:
            counts[finding.severity.label] += 1
        counts["total"] = sum(counts.values())
        return counts
