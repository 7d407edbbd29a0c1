"""Table tests for the deterministic rules: one YAML file of cases per rule in tests/check/cases/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_lint.check.functions import FUNCTIONS, CheckContext, Hit
from mcp_lint.check.rules import Rule, load_catalogue
from mcp_lint.model import Observation, ServerSnapshot, Tool

CASES_DIR = Path(__file__).parent / "cases"
SERVER = "demo-server"


def deterministic_rules() -> list[Rule]:
    # MCP7xx are the rubric's rules, scored by the jury and tested with it.
    return [rule for rule in load_catalogue().rules if not rule.code.startswith("MCP7")]


def load_cases() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("MCP*.yaml")):
        code = path.stem
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            params.append(pytest.param(code, case, id=f"{code}-{case['name']}"))
    return params


def build_server(case: dict[str, Any]) -> ServerSnapshot:
    rejections = case.get("sdk_rejections") or {}
    tools = tuple(
        Tool(
            name=raw.get("name", "") if isinstance(raw.get("name"), str) else "",
            raw=raw,
            sdk_rejection=rejections.get(raw.get("name")),
        )
        for raw in case["tools"]
    )
    observations = tuple(
        Observation(kind=item["kind"], detail=item["detail"]) for item in case.get("observations") or ()
    )
    return ServerSnapshot(name=SERVER, tools=tools, observations=observations)


def run_rule(
    rule: Rule, server: ServerSnapshot, options: dict[str, Any] | None = None
) -> list[tuple[Hit, str]]:
    context = CheckContext(server=server, options={**rule.options, **(options or {})})
    hits = list(FUNCTIONS[rule.function](context))
    return [(hit, rule.message.format(tool=hit.tool, server=server.name, **hit.fields)) for hit in hits]


def describe(results: list[tuple[Hit, str]]) -> str:
    return "\n".join(
        f"  {hit.tool}: {message} | evidence={hit.evidence!r} | suggestion={hit.suggestion!r}"
        for hit, message in results
    )


@pytest.mark.parametrize(("code", "case"), load_cases())
def test_rule_case(code: str, case: dict[str, Any]) -> None:
    rule = load_catalogue().find(code)
    assert rule is not None, f"{code}.yaml: no rule with that code"
    results = run_rule(rule, build_server(case), case.get("options"))
    expected = case["expect"] or []
    assert len(results) == len(expected), (
        f"expected {len(expected)} hits, got {len(results)}:\n{describe(results)}"
    )
    for (hit, message), want in zip(results, expected, strict=True):
        assert hit.tool == want.get("tool"), describe(results)
        if "message" in want:
            assert want["message"] in message, describe(results)
        if "evidence" in want:
            assert want["evidence"] in (hit.evidence or ""), describe(results)
        if "suggestion" in want:
            assert want["suggestion"] in (hit.suggestion or ""), describe(results)
        if "path" in want:
            assert hit.path == want["path"], describe(results)


@pytest.mark.parametrize("rule", deterministic_rules(), ids=lambda rule: rule.code)
def test_every_rule_has_pass_and_fail_cases(rule: Rule) -> None:
    path = CASES_DIR / f"{rule.code}.yaml"
    assert path.is_file(), f"{rule.code} ({rule.name}) has no case file {path}"
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert any(not case["expect"] for case in cases), f"{path}: no passing case (expect: [])"
    assert any(case["expect"] for case in cases), f"{path}: no failing case"
