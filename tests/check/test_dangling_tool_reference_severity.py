"""dangling-tool-reference (MCP405): a tool named in the tool's description or in a parameter's
description reports at the rule's severity, and points at the text it was found in. (A parameter's
description was held at low until the tuning corpus showed those findings: 21 right, 1 debatable and
none wrong once methods of an API, `db.collection.deleteMany()`, were left alone.)
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
        "name": "list_emails",
        "description": "List emails. Call `list_folders` first.",
        "inputSchema": {"type": "object"},
    },
    {
        "name": "flag_email",
        "description": "Flag an email.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "email_id": {"type": "string", "description": "The id, from list_emails_metadata."}
            },
        },
    },
]


def _severities(table: dict[str, Any]) -> dict[str | None, tuple[Severity, str | None]]:
    settings = parse_settings({"select": ["MCP405"], **table}, None)
    server = ServerSnapshot(name="mail", tools=build_tools(TOOLS, "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    return {finding.subject: (finding.severity, finding.path) for finding in findings}


def test_the_rule_reports_at_low_until_the_sealed_corpus_shows_its_precision() -> None:
    # 97.4% on the fresh sealed round 3, then 83.3% on the fresh round 4 (docs/precision.md): under
    # the bar on the sealed corpus as a whole, so low again, never a warning a user is asked to act on.
    assert {severity for severity, _ in _severities({}).values()} == {Severity.LOW}
    rule = load_catalogue().find("MCP405")
    assert rule is not None and rule.severity is Severity.LOW and not rule.breaking


def test_a_parameter_description_reports_at_the_rules_severity_and_points_at_that_description() -> None:
    found = _severities({"rules": {"MCP405": "high"}})
    assert found == {
        "list_folders": (Severity.HIGH, "description"),
        "list_emails_metadata": (Severity.HIGH, "inputSchema.properties.email_id.description"),
    }


def test_a_kebab_case_name_on_a_kebab_case_server_reports_at_the_rules_severity() -> None:
    tools: list[dict[str, Any]] = [
        {
            "name": "list-webhook-deliveries",
            "description": "List webhook deliveries. For the account's activity use list-activity instead.",
            "inputSchema": {"type": "object"},
        },
        {"name": "list-webhooks", "description": "List webhooks.", "inputSchema": {"type": "object"}},
    ]
    settings = parse_settings({"select": ["MCP405"], "rules": {"MCP405": "moderate"}}, None)
    server = ServerSnapshot(name="hooks", tools=build_tools(tools, "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    assert [(finding.subject, finding.severity) for finding in findings] == [
        ("list-activity", Severity.MODERATE)
    ]
