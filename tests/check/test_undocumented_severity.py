"""undocumented-parameter (MCP202): a self-explanatory name reports at low, an opaque one at its rule's.

A hit's `severity_cap` lowers its finding below the rule's severity and never raises it: a rule raised
by the configuration keeps its weak findings at the cap.
"""

from __future__ import annotations

from typing import Any

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import parse_settings
from mcp_lint.model import ServerSnapshot, Severity
from mcp_lint.reflect.tools import build_tools


def _tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"{name.replace('_', ' ')}.",
        "inputSchema": {"type": "object", "properties": properties},
    }


STRING = {"type": "string"}
TOOLS = [
    _tool(
        "list_issues",
        {
            "owner": STRING,
            "repo": STRING,
            "page": {"type": "integer"},
            "per_page": {"type": "integer"},
            "direction": {"type": "string", "enum": ["asc", "desc"]},
            "includeClosed": {"type": "boolean"},
            "timeout_ms": {"type": "integer"},
            "issue_number": {"type": "integer"},
            # opaque: an enum of codes, a time without a unit, a query syntax, a choice with no enum,
            # an object nobody describes, a boolean named for no action
            "origin": {"type": "string", "enum": ["ui", "llm"]},
            "timeout": {"type": "number"},
            "q": STRING,
            "operation": STRING,
            "options": {"type": "object"},
            "lockdown": {"type": "boolean"},
        },
    ),
    _tool("get_issue", {"owner": STRING, "repo": STRING, "since": STRING}),
    _tool("close_issue", {"owner": STRING, "repo": STRING, "shell": STRING}),
    _tool(
        "edit_document",
        {
            "paragraph_index": {"type": "integer"},
            "start_row": {"type": "integer"},
            "latitude": {"type": "number"},
            "title": STRING,
            "email": STRING,
            "wind_speed_unit": {"type": "string", "enum": ["kmh", "ms", "mph"]},
            # opaque: free text whose head says it has a syntax, a width with no unit
            "scheduleText": STRING,
            "row_width": {"type": "integer"},
        },
    ),
    _tool("rename_sheet", {"sheet": STRING, "width": {"type": "number"}}),
    _tool("resize_sheet", {"width": {"type": "number"}}),
    _tool("move_sheet", {"width": {"type": "number"}}),
]
SELF_EXPLANATORY = {
    ("list_issues", "owner"),
    ("list_issues", "repo"),
    ("list_issues", "page"),
    ("list_issues", "per_page"),
    ("list_issues", "direction"),
    ("list_issues", "includeClosed"),
    ("list_issues", "timeout_ms"),
    ("list_issues", "issue_number"),
    ("get_issue", "owner"),
    ("get_issue", "repo"),
    ("close_issue", "owner"),
    ("close_issue", "repo"),
    ("rename_sheet", "sheet"),
    ("edit_document", "paragraph_index"),
    ("edit_document", "start_row"),
    ("edit_document", "latitude"),
    ("edit_document", "title"),
    ("edit_document", "email"),
    ("edit_document", "wind_speed_unit"),
}


def _severities(table: dict[str, Any]) -> dict[tuple[str | None, str | None], Severity]:
    settings = parse_settings({"select": ["MCP202"], **table}, None)
    server = ServerSnapshot(name="tracker", tools=build_tools(TOOLS, "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    return {(finding.tool, finding.subject): finding.severity for finding in findings}


def test_self_explanatory_names_report_at_low_and_opaque_ones_at_the_rules_severity() -> None:
    # 97.2% on the fresh sealed round 3 (docs/precision.md): over the bar, so the rule reports at
    # moderate again; a self-explanatory name stays at low.
    found = _severities({})
    assert {key for key, severity in found.items() if severity is Severity.LOW} == SELF_EXPLANATORY
    assert {severity for key, severity in found.items() if key not in SELF_EXPLANATORY} == {Severity.MODERATE}


def test_self_explanatory_names_report_at_low_and_opaque_ones_at_moderate() -> None:
    found = _severities({"rules": {"MCP202": "moderate"}})
    low = {key for key, severity in found.items() if severity is Severity.LOW}
    moderate = {key for key, severity in found.items() if severity is Severity.MODERATE}
    assert low == SELF_EXPLANATORY
    # a number shared by three tools still needs its unit: no vocabulary for numbers
    assert {
        ("list_issues", "origin"),
        ("list_issues", "timeout"),
        ("list_issues", "q"),
        ("list_issues", "operation"),
        ("list_issues", "options"),
        ("list_issues", "lockdown"),
        ("get_issue", "since"),
        ("close_issue", "shell"),
        ("edit_document", "scheduleText"),
        ("edit_document", "row_width"),
        ("rename_sheet", "width"),
        ("resize_sheet", "width"),
    } <= moderate
    assert low | moderate == set(found)


def test_the_cap_holds_when_the_rule_is_raised_and_never_raises_a_lowered_rule() -> None:
    raised = _severities({"rules": {"MCP202": "high"}})
    assert raised[("list_issues", "owner")] is Severity.LOW
    assert raised[("list_issues", "origin")] is Severity.HIGH
    lowered = _severities({"rules": {"MCP202": "info"}})
    assert set(lowered.values()) == {Severity.INFO}
