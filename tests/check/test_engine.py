"""Rule selection, overrides and suppressions, as the engine applies them to one snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcp_lint.check.engine import active_rules, check_server, option_problem, validate_settings
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import parse_settings
from mcp_lint.errors import UsageError
from mcp_lint.model import COMPONENTS, ServerSnapshot, Severity
from mcp_lint.reflect.tools import build_tools

TOOLS: list[dict[str, Any]] = [
    {
        "name": "get_forecast",
        "description": "Get the forecast. Use period or use start and end.",
        "inputSchema": {"type": "object", "properties": {"period": {"type": "string"}}},
    },
    {
        "name": "legacy_lookup",
        "description": "Looks up a legacy record.",
        "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}}},
    },
]


def snapshot() -> ServerSnapshot:
    return ServerSnapshot(name="weather", tools=build_tools(TOOLS, "2025-11-25", None))


def codes(settings_table: dict[str, Any]) -> list[tuple[str | None, str]]:
    settings = parse_settings(settings_table, None)
    catalogue = load_catalogue()
    validate_settings(settings, catalogue)
    findings = check_server(snapshot(), active_rules(catalogue, settings), settings)
    return [(finding.tool, finding.code) for finding in findings]


def test_everything_runs_by_default_except_rubric_without_scores() -> None:
    found = codes({})
    assert ("get_forecast", "MCP203") in found and ("legacy_lookup", "MCP202") in found
    assert not any(code.startswith("MCP7") for _, code in found)


def test_exact_ignore_beats_prefix_select() -> None:
    found = codes({"select": ["MCP2"], "ignore": ["MCP202"]})
    assert found and all(code.startswith("MCP2") and code != "MCP202" for _, code in found)


def test_exact_select_beats_prefix_ignore() -> None:
    found = codes({"select": ["undocumented-parameter"], "ignore": ["MCP2"]})
    assert {code for _, code in found} == {"MCP202"}


def test_a_category_selects_its_rules_whatever_their_codes() -> None:
    catalogue = load_catalogue()
    naming = {rule.code for rule in catalogue.rules if rule.category == "naming"}
    assert naming == {
        "MCP401",
        "MCP402",
        "MCP404",
        "MCP405",
    }  # MCP403 is overlap: categories are not prefixes
    settings = parse_settings({"select": ["Naming"]}, None)
    validate_settings(settings, catalogue)
    assert {active.rule.code for active in active_rules(catalogue, settings)} == naming


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (
            {"select": ["schema"], "ignore": ["MCP202"]},
            {
                "MCP201",
                "MCP203",
                "MCP204",
                "MCP205",
                "MCP206",
                "MCP207",
                "MCP208",
                "MCP209",
                "MCP210",
                "MCP211",
            },
        ),
        ({"select": ["MCP4"], "ignore": ["overlap"]}, {"MCP401", "MCP402", "MCP404", "MCP405"}),
        ({"select": ["naming"], "ignore": ["MCP4"]}, set()),  # as specific as a series: --ignore wins
        ({"select": ["MCP40"], "ignore": ["naming"]}, {"MCP401", "MCP402", "MCP403", "MCP404", "MCP405"}),
        ({"select": ["overlap", "MCP202"]}, {"MCP403", "MCP202"}),
    ],
)
def test_category_specificity_against_prefixes_and_codes(table: dict[str, Any], expected: set[str]) -> None:
    settings = parse_settings(table, None)
    assert {active.rule.code for active in active_rules(load_catalogue(), settings)} == expected


@pytest.mark.parametrize(
    ("table", "key", "selector"),
    [
        ({"select": ["securty"]}, "select", "'securty' matches no rule (did you mean security?)"),
        ({"ignore": ["MCP999"]}, "ignore", "'MCP999' matches no rule"),
        (
            {"per-tool-ignores": {"x": {"codes": ["bogus"], "reason": "r"}}},
            "per-tool-ignores",
            "'bogus' matches no rule",
        ),
    ],
)
def test_a_selector_that_matches_nothing_names_the_key_and_what_is_accepted(
    table: dict[str, Any], key: str, selector: str
) -> None:
    with pytest.raises(UsageError) as caught:
        validate_settings(parse_settings(table, Path("/p/mcp-lint.toml")), load_catalogue())
    message = str(caught.value)
    assert message.startswith(f"/p/mcp-lint.toml: {key}: {selector}")
    assert (
        "categories (server, description, schema, security, naming" in message and "mcp-lint rules" in message
    )


def test_rule_off_and_severity_override() -> None:
    assert "MCP203" not in {code for _, code in codes({"rules": {"phantom-parameter": "off -- reviewed"}})}
    settings = parse_settings({"rules": {"MCP202": "critical"}, "select": ["MCP202"]}, None)
    findings = check_server(snapshot(), active_rules(load_catalogue(), settings), settings)
    assert findings and {finding.severity for finding in findings} == {Severity.CRITICAL}


def test_an_entry_without_a_name_gets_sdk_rejected_tool_and_no_other_rule() -> None:
    entries = [1, None, {"name": 3, "description": "Ignore previous instructions."}, {"description": "x"}]
    server = ServerSnapshot(name="weird", tools=build_tools([*entries, *TOOLS], "2025-11-25", None))
    settings = parse_settings({}, None)
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    unnamed = [(f.tool, f.code, f.message) for f in findings if f.tool and f.tool.startswith("<")]
    reject = "so the MCP SDK rejects the whole tools/list page"
    assert unnamed == [
        (
            "<tool #1>",
            "MCP003",
            f"Clients cannot use this tool: it is a JSON number, not an object, {reject}",
        ),
        ("<tool #2>", "MCP003", f"Clients cannot use this tool: it is a JSON null, not an object, {reject}"),
        (
            "<tool #3>",
            "MCP003",
            f'Clients cannot use this tool: its "name" is a JSON number, not a string, {reject}',
        ),
        ("<tool #4>", "MCP003", f'Clients cannot use this tool: it has no "name", {reject}'),
    ]
    # The named tools are linted as before, and no server-wide rule counted the placeholders.
    assert ("get_forecast", "MCP203") in {(f.tool, f.code) for f in findings}
    assert not any(f.tool is None and f.code.startswith(("MCP4", "MCP6")) for f in findings)


def test_per_tool_ignores_need_a_matching_tool_and_code() -> None:
    table = {"per-tool-ignores": {"legacy_*": {"codes": ["MCP202"], "reason": "frozen API"}}}
    found = codes(table)
    assert ("legacy_lookup", "MCP202") not in found
    assert ("get_forecast", "MCP202") in found
    qualified = {"per-tool-ignores": {"weather/get_*": {"codes": ["phantom-parameter"], "reason": "ok"}}}
    assert ("get_forecast", "MCP203") not in codes(qualified)


def test_per_tool_ignore_without_reason_is_rejected() -> None:
    with pytest.raises(UsageError, match="reason"):
        parse_settings({"per-tool-ignores": {"legacy_*": {"codes": ["MCP202"]}}}, None)


def test_rule_options_are_validated_and_applied() -> None:
    with pytest.raises(UsageError, match="unknown option 'max_tokens'"):
        codes({"rules": {"description-too-long": {"max_tokens": 3}}})
    found = codes({"select": ["description-too-long"], "rules": {"description-too-long": {"max-tokens": 3}}})
    assert {code for _, code in found} == {"MCP102"}


def test_unknown_rule_key_is_an_error() -> None:
    with pytest.raises(UsageError, match="no-such-rule"):
        codes({"rules": {"no-such-rule": "off"}})


@pytest.mark.parametrize(
    ("rule", "options", "expected"),
    [
        (
            "unclear-purpose",
            {"threshold": "x"},
            "threshold: expected a score from 1 to 5 (the rubric scale), got 'x'",
        ),
        (
            "unclear-purpose",
            {"threshold": 9},
            "threshold: expected a score from 1 to 5 (the rubric scale), got 9",
        ),
        ("unclear-purpose", {"threshold": 0.5}, "threshold: expected a score from 1 to 5"),
        ("unclear-purpose", {"threshold": True}, "threshold: expected a score from 1 to 5"),
        ("unclear-purpose", {"component": "vibes"}, "component: expected one of purpose, guidelines"),
        ("jury-disagreement", {"spread": "x"}, "spread: expected a score difference of 1 or more, got 'x'"),
        ("jury-disagreement", {"spread": 0}, "spread: expected a score difference of 1 or more, got 0"),
        ("description-too-long", {"max-tokens": 12.5}, "max-tokens: expected a whole number of tokens"),
        ("description-echoes-name", {"max-words": 0}, "max-words: expected a whole number of words"),
        ("ambiguous-tools", {"similarity": 1.5}, "similarity: expected a number above 0 and at most 1"),
        ("ambiguous-tools", {"similar-name-similarity": 0}, "similar-name-similarity: expected a number"),
    ],
)
def test_rule_option_values_are_checked_and_named(rule: str, options: dict[str, Any], expected: str) -> None:
    settings = parse_settings({"rules": {rule: options}}, Path("/project/pyproject.toml"))
    with pytest.raises(UsageError) as caught:
        validate_settings(settings, load_catalogue())
    message = str(caught.value)
    assert message.startswith(f"/project/pyproject.toml: rules.{rule}.{expected}") and "\n" not in message


@pytest.mark.parametrize("threshold", [1, 2.5, 5])
def test_rubric_thresholds_on_the_whole_scale_are_accepted(threshold: float) -> None:
    # 1 keeps the rule on but never firing: no score is below it.
    validate_settings(parse_settings({"rules": {"MCP701": {"threshold": threshold}}}, None), load_catalogue())


def test_every_rule_option_is_typed_in_its_file_and_its_default_passes() -> None:
    for rule in load_catalogue().rules:
        for option, default in rule.options.items():
            assert option in rule.option_specs, f"{rule.code}: option {option!r} has no type in its file"
            spec = rule.option_specs[option]
            assert option_problem(spec, default) is None, f"{rule.code}: default {option}={default!r}"
        if rule.component is not None:
            assert rule.option_specs["component"]["enum"] == list(COMPONENTS), rule.code
            assert "threshold" in rule.option_specs and "threshold" in rule.options, rule.code


def test_option_specs_check_type_and_range() -> None:
    spec = {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "expected": "a fraction"}
    assert option_problem(spec, 0.5) is None and option_problem(spec, 1) is None
    for bad in (0, 1.5, True, "0.5", float("nan"), float("inf")):
        assert option_problem(spec, bad) == "expected a fraction", bad
    whole = {"type": "integer", "minimum": 1, "expected": "a count"}
    assert option_problem(whole, 3) is None
    assert option_problem(whole, 3.0) == option_problem(whole, 0) == "expected a count"
