"""Config suppressions: per-tool-ignores silence findings; the ones that silence nothing are reported."""

from __future__ import annotations

import json
from pathlib import Path

from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import Settings, ToolIgnore
from mcp_lint.pipeline import check_reflections
from mcp_lint.reflect import Reflection
from mcp_lint.reflect.snapshot import parse_snapshot
from mcp_lint.suppressions import RuleOff, describe, missing_reason_warnings, unused_rule_offs

SNAPSHOT = Path(__file__).parents[1] / "fixtures" / "golden" / "smelly-snapshot.json"


def lint(*ignores: ToolIgnore, select: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    snapshot = parse_snapshot(json.loads(SNAPSHOT.read_text(encoding="utf-8")), "smelly", str(SNAPSHOT))
    settings = Settings(per_tool_ignores=ignores, select=select)
    result = check_reflections([Reflection("smelly", snapshot)], settings, None)
    found = [f"{f.tool}:{f.code}" for f in result.findings]
    return found, [describe(item) for item in result.unused_suppressions]


def test_an_ignore_silences_its_codes_on_matching_tools_only() -> None:
    found, unused = lint(ToolIgnore("get_*", ("MCP202",), "generated schema"))
    assert "get_forecast:MCP202" not in found
    assert "get_forecast:MCP203" in found
    assert unused == []


def test_an_ignore_that_silences_nothing_is_reported() -> None:
    found, unused = lint(
        ToolIgnore("no_such_tool", ("MCP202",), "was renamed"),
        ToolIgnore("smelly/delete_alert", ("MCP502", "MCP101"), "reviewed"),
    )
    assert "delete_alert:MCP502" not in found
    assert unused == [
        "per-tool-ignores 'no_such_tool': silenced nothing",
        "per-tool-ignores 'smelly/delete_alert: MCP101': silenced nothing",
    ]


def test_an_ignore_of_a_rule_that_did_not_run_is_not_judged() -> None:
    _, unused = lint(ToolIgnore("get_forecast", ("MCP202",), "generated"), select=("MCP3",))
    assert unused == []


def test_rules_turned_off() -> None:
    catalogue = load_catalogue()
    phantom, budget = catalogue.find("MCP203"), catalogue.find("MCP601")
    assert phantom is not None and budget is not None
    offs = [RuleOff("MCP203", phantom, None), RuleOff("context-budget", budget, "one big server, on purpose")]
    unused = unused_rule_offs(offs, {"MCP203": 2, "MCP601": 0})
    assert [describe(item) for item in unused] == ["rules.context-budget (off): the rule would find nothing"]
    assert unused_rule_offs(offs, {}) == [], "a rule that was not shadow-run is not called unused"
    assert missing_reason_warnings(offs, "mcp-lint.toml") == [
        'mcp-lint.toml: rules.MCP203 is turned off without a reason; write it as "off -- why it is fine"'
    ]
