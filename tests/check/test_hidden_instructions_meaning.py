"""hidden-instructions (MCP301) on poisoning without markup and on usage guidance that looks like it.

The texts are in data/MCP301-meaning.yaml: each goes into a tool's description or one parameter's
description, and the rule must report every poisoned one (in that field) and none of the others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_lint.check.functions import FUNCTIONS, CheckContext
from mcp_lint.check.rules import load_catalogue
from mcp_lint.model import ServerSnapshot, Tool

DATA = yaml.safe_load((Path(__file__).parent / "data" / "MCP301-meaning.yaml").read_text(encoding="utf-8"))


def tool_with(entry: dict[str, Any]) -> Tool:
    raw: dict[str, Any] = {"name": "sample", "inputSchema": {"type": "object", "properties": {}}}
    if entry["where"] == "description":
        raw["description"] = entry["text"]
    else:
        raw["description"] = "Does one ordinary thing."
        raw["inputSchema"]["properties"]["extra"] = {"type": "string", "description": entry["text"]}
    return Tool("sample", raw)


def reported(entry: dict[str, Any]) -> list[str]:
    """The fields the rule reports on a one-tool server holding `entry`."""
    rule = load_catalogue().find("MCP301")
    assert rule is not None
    server = ServerSnapshot("demo", (tool_with(entry),))
    return [hit.path or "" for hit in FUNCTIONS[rule.function](CheckContext(server, dict(rule.options)))]


@pytest.mark.parametrize("entry", DATA["poisoned"], ids=lambda entry: entry["text"][:50])
def test_poisoning_without_markup_is_reported(entry: dict[str, Any]) -> None:
    where = "description" if entry["where"] == "description" else "inputSchema.properties.extra.description"
    assert reported(entry) == [where]


@pytest.mark.parametrize("entry", DATA["benign"], ids=lambda entry: entry["text"][:50])
def test_usage_guidance_is_not_reported(entry: dict[str, Any]) -> None:
    assert reported(entry) == []


def test_explicit_attacks_name_real_pattern_reasons_and_the_rest_report_at_low() -> None:
    from mcp_lint.check.functions import poisoning

    reasons = {entry[0] for entry in poisoning._PATTERNS}
    assert reasons >= poisoning.EXPLICIT_ATTACKS
    # the classes read by meaning, and the weaker patterns, are not among the explicit attacks
    assert "asks to hide something from the user" not in poisoning.EXPLICIT_ATTACKS
    assert "gives instructions about other tools" not in poisoning.EXPLICIT_ATTACKS
