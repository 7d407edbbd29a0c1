"""phantom-parameter (MCP203): a name the text declares a parameter, or one the schema spells with the
same words another way, reports at the rule's severity; a name merely used in a sentence, a key
spelt like one inside another parameter and a spelling a letter or two away report at low, however
high the rule is raised (the same words name result fields, item keys and ordinary nouns).
"""

from __future__ import annotations

from typing import Any

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import parse_settings
from mcp_lint.model import ServerSnapshot, Severity
from mcp_lint.reflect.tools import build_tools

TOOLS: list[dict[str, Any]] = [
    {
        "name": "think",
        "description": "Record a thought. You can adjust total_thoughts as you go.",
        "inputSchema": {
            "type": "object",
            "properties": {"thought": {"type": "string"}, "totalThoughts": {"type": "integer"}},
        },
    },
    {
        "name": "send_note",
        "description": "Send a note.\n\nArgs:\n    recipient: who gets it.\n    body: the text.",
        "inputSchema": {"type": "object", "properties": {"body": {"type": "string"}}},
    },
    {
        "name": "update_rows",
        "description": "Update rows. Each update reports its row_id when it succeeds.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "updates": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"rowId": {"type": "string"}}},
                }
            },
        },
    },
    {
        "name": "filter_report",
        "description": "Run a report. Narrow it with `numeric_filter` when needed.",
        "inputSchema": {"type": "object", "properties": {"metric_filter": {"type": "object"}}},
    },
    {
        "name": "schedule",
        "description": "Schedule a job. Set `start` and `finish` to choose the window.",
        "inputSchema": {"type": "object", "properties": {"start": {"type": "string"}}},
    },
]


def _severities(table: dict[str, Any]) -> dict[tuple[str | None, str | None], Severity]:
    settings = parse_settings({"select": ["MCP203"], **table}, None)
    server = ServerSnapshot(name="notes", tools=build_tools(TOOLS, "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    return {(finding.tool, finding.subject): finding.severity for finding in findings}


def test_declared_and_respelt_names_report_at_the_rule_and_weaker_evidence_at_low() -> None:
    found = _severities({"rules": {"MCP203": "moderate"}})
    assert found == {
        ("think", "total_thoughts"): Severity.MODERATE,
        ("send_note", "recipient"): Severity.MODERATE,
        ("update_rows", "row_id"): Severity.LOW,
        ("filter_report", "numeric_filter"): Severity.LOW,
        ("schedule", "finish"): Severity.LOW,
    }


def test_the_low_cap_holds_when_the_rule_is_raised() -> None:
    raised = _severities({"rules": {"MCP203": "high"}})
    assert raised[("think", "total_thoughts")] is Severity.HIGH
    assert raised[("schedule", "finish")] is Severity.LOW
