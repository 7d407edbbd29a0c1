"""The matching behind the precision set: a label follows its finding through a reworded message."""

from __future__ import annotations

import labelled_set as ls  # beside this file; pytest puts its folder on sys.path

from mcp_lint.model import Finding, Severity

KINDS = {"MCP202": "deterministic", "MCP203": "deterministic", "MCP702": "rubric"}


def finding(code: str, message: str, tool: str = "get_forecast", path: str | None = "description") -> Finding:
    rule = {"MCP202": "undocumented-parameter", "MCP203": "phantom-parameter", "MCP702": "x"}[code]
    return Finding(code, rule, Severity.parse("moderate"), message, "weather", tool, None, path)


def label(code: str, subject: str, verdict: str, tool: str = "get_forecast") -> ls.Label:
    return ls.Label(ls.Key("weather", tool, code, subject), "r", verdict, "why", "", "deterministic")


def test_subject_survives_rewording() -> None:
    before = finding("MCP203", "Description mentions parameter `start`, which the input schema does not have")
    after = finding(
        "MCP203", "`start` is used as a parameter but the schema has no `start` (did you mean `begin`?)"
    )
    assert ls.subject_of(before) == ls.subject_of(after) == "start"
    schema = finding("MCP202", "Parameter `city` has no description", path="inputSchema.properties.city")
    assert ls.subject_of(schema) == "inputSchema.properties.city"
    # A rule whose template names nothing in backticks is one finding per tool, whatever it quotes.
    assert ls.subject_of(finding("MCP702", "No usage guidelines: say `when`")) == ""


def test_compare_counts_precision_and_reports_what_changed() -> None:
    findings = [
        finding("MCP203", "Description mentions parameter `start`"),
        finding("MCP203", "Description mentions parameter `end`"),
        finding("MCP203", "Description mentions parameter `IMPORTANT`", tool="search"),
        finding("MCP202", "Parameter `city` has no description", path="inputSchema.properties.city"),
    ]
    labels = [
        label("MCP203", "start", "right"),
        label("MCP203", "end", "wrong"),
        label("MCP203", "Important", "wrong", tool="search"),  # its subject moved: matched loosely
        label("MCP203", "gone", "right", tool="other"),  # its finding is no longer reported
    ]
    result = ls.compare(findings, labels, KINDS)
    [undocumented, phantom] = result.tallies  # sorted by code
    assert (phantom.code, phantom.findings, phantom.right, phantom.wrong) == ("MCP203", 3, 1, 2)
    assert phantom.precision == 1 / 3
    assert (undocumented.unlabelled, undocumented.precision) == (1, None)
    assert [match.key.subject for match in result.loose] == ["IMPORTANT"]
    assert [stale.key.tool for stale in result.stale] == ["other"]
    assert [match.key.subject for match in result.unlabelled] == ["inputSchema.properties.city"]


def test_loose_match_needs_exactly_one_candidate_each_side() -> None:
    findings = [finding("MCP203", "mentions `a`"), finding("MCP203", "mentions `b`")]
    result = ls.compare(findings, [label("MCP203", "c", "wrong")], KINDS)
    assert len(result.unlabelled) == 2 and [stale.key.subject for stale in result.stale] == ["c"]
