"""default-mismatch (MCP209): two defaults that disagree report at the rule's severity (low until it
shows its precision on the sealed corpus; a user may raise it); a default the prose states
where the schema carries none (null, "" for "defaults to null", a required parameter) reports at low.
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
        "name": "list_events",
        "description": "List events.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "default": 20, "description": "How many (defaults to 10)."},
                "depth": {
                    "anyOf": [{"type": "integer"}, {"type": "null"}],
                    "default": None,
                    "description": "Tree depth (default: 5).",
                },
                "context": {"type": "string", "default": "", "description": "Context (defaults to null)."},
                "coin": {"type": "string", "description": "The coin. Defaults to 'BTC'."},
            },
            "required": ["coin"],
        },
    }
]


def _severities(table: dict[str, Any]) -> dict[str | None, Severity]:
    settings = parse_settings({"select": ["MCP209"], **table}, None)
    server = ServerSnapshot(name="calendar", tools=build_tools(TOOLS, "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    return {finding.subject: finding.severity for finding in findings}


def test_a_contradiction_reports_at_the_rule_and_a_missing_schema_default_at_low() -> None:
    found = _severities({"rules": {"MCP209": "moderate"}})
    assert found == {
        "limit": Severity.MODERATE,
        "depth": Severity.LOW,
        "context": Severity.LOW,
        "coin": Severity.LOW,
    }


def test_the_low_cap_holds_when_the_rule_is_raised() -> None:
    raised = _severities({"rules": {"MCP209": "high"}})
    assert raised["limit"] is Severity.HIGH
    assert raised["depth"] is Severity.LOW
