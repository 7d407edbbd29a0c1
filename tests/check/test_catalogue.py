"""Meta tests for the rule catalogue: schema, unique keys, registered functions, docs, templates."""

from __future__ import annotations

import dataclasses
import json
import string
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from mcp_lint.check.functions import FUNCTIONS
from mcp_lint.check.rules import Rule, load_catalogue, with_rubric_defaults
from mcp_lint.errors import UsageError
from mcp_lint.jury.rubric import load_rubric
from mcp_lint.resources import PACKAGE_DIR, rules_dir

RULE_FILES = sorted(rules_dir().glob("MCP*.yaml"))
CASES_DIR = Path(__file__).parent / "cases"


def rule_schema() -> dict[str, Any]:
    with (PACKAGE_DIR / "data" / "rule.schema.json").open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda path: path.name)
def test_rule_file_validates_against_schema(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(rule_schema()).validate(data)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda path: path.name)
def test_file_name_matches_code_and_name(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert path.name == f"{data['code']}-{data['name']}.yaml"


def test_codes_and_names_are_unique() -> None:
    rules = load_catalogue().rules
    codes = [rule.code for rule in rules]
    names = [rule.name for rule in rules]
    assert len(set(codes)) == len(codes)
    assert len(set(names)) == len(names)


def test_every_function_is_registered() -> None:
    for rule in load_catalogue().rules:
        assert rule.function in FUNCTIONS, f"{rule.source}: {rule.function}"


@pytest.mark.parametrize("rule", load_catalogue().rules, ids=lambda rule: rule.code)
def test_docs_have_all_four_parts(rule: Rule) -> None:
    for part in ("what", "why", "example", "instead"):
        assert getattr(rule.docs, part).strip(), f"{rule.source}: docs.{part} is empty"
    rendered = rule.render_docs()
    assert "## What it does" in rendered and "## Use instead" in rendered


@pytest.mark.parametrize("rule", load_catalogue().rules, ids=lambda rule: rule.code)
def test_option_keys_are_kebab_case(rule: Rule) -> None:
    for key in rule.options:
        assert key == key.lower() and "_" not in key, f"{rule.source}: option {key!r} is not kebab-case"


def test_message_templates_use_only_fields_the_function_provides() -> None:
    # Run every failing case and compare the template's fields with those the hits carry.
    from test_rule_cases import build_server, run_rule

    checked = set()
    for path in sorted(CASES_DIR.glob("MCP*.yaml")):
        rule = load_catalogue().find(path.stem)
        assert rule is not None
        used = {name for _, name, _, _ in string.Formatter().parse(rule.message) if name}
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            if not case["expect"]:
                continue
            for hit, _ in run_rule(rule, build_server(case), case.get("options")):
                provided = set(hit.fields) | {"tool", "server"}
                assert used <= provided, f"{rule.code}: template uses {sorted(used - provided)}"
                checked.add(rule.code)
    assert len(checked) >= 20


def test_broken_rule_file_names_file_and_key(tmp_path: Path) -> None:
    source = rules_dir() / "MCP101-missing-description.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["severity"] = "error"
    broken = tmp_path / "MCP101-missing-description.yaml"
    broken.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_catalogue(tmp_path)
    assert str(broken) in str(caught.value)
    assert "severity" in str(caught.value)


def test_missing_docs_part_names_the_key(tmp_path: Path) -> None:
    source = rules_dir() / "MCP202-undocumented-parameter.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    del data["docs"]["why"]
    (tmp_path / "MCP202-undocumented-parameter.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(UsageError, match=r"MCP202-undocumented-parameter\.yaml: invalid rule at docs.*why"):
        load_catalogue(tmp_path)


def test_unknown_function_is_a_usage_error(tmp_path: Path) -> None:
    source = rules_dir() / "MCP401-invalid-tool-name.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["function"] = "no_such_function"
    (tmp_path / "MCP401-invalid-tool-name.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(UsageError, match="no_such_function"):
        load_catalogue(tmp_path)


RUBRIC_RULES = [rule for rule in load_catalogue().rules if rule.function == "rubric_component"]


@pytest.mark.parametrize("rule", RUBRIC_RULES, ids=lambda rule: rule.code)
def test_rubric_rule_threshold_has_one_source_the_rubric(rule: Rule) -> None:
    raw = yaml.safe_load(Path(rule.source).read_text(encoding="utf-8"))
    assert "default" not in raw["options"]["threshold"], (
        "the default belongs to the component in rules/rubric.yaml"
    )
    assert rule.options["threshold"] == load_rubric().threshold(str(rule.options["component"]))


def test_rubric_threshold_change_moves_the_rule_default_and_a_rule_may_not_set_its_own() -> None:
    rubric = load_rubric()
    [purpose] = [rule for rule in RUBRIC_RULES if rule.options["component"] == "purpose"]
    bare = dataclasses.replace(purpose, options={"component": "purpose"})
    stricter = dataclasses.replace(
        rubric,
        components={
            **rubric.components,
            "purpose": dataclasses.replace(rubric.components["purpose"], threshold=2.5),
        },
    )
    assert with_rubric_defaults(bare, stricter).options["threshold"] == 2.5
    with pytest.raises(UsageError, match=r"rules/rubric\.yaml"):
        with_rubric_defaults(purpose, rubric)


def _first_rule_by_scan(rules: tuple[Rule, ...], key: str) -> Rule | None:
    # Catalogue.find as it was written before its index: the first rule, in catalogue order, whose
    # code, name or alias the key is.
    wanted = key.strip()
    for rule in rules:
        if wanted.upper() == rule.code or wanted.lower() == rule.name or wanted in rule.aliases:
            return rule
    return None


def test_find_by_index_returns_the_rule_a_scan_in_catalogue_order_finds() -> None:
    catalogue = load_catalogue()
    keys = ["", "  ", "MCP", "nothing-such", "mcp7", "MCP9999"]
    for rule in catalogue.rules:
        keys += [rule.code, rule.code.lower(), f" {rule.code}\n", rule.name, rule.name.upper(), *rule.aliases]
        keys += [alias.upper() for alias in rule.aliases]
    for key in keys:
        assert catalogue.find(key) is _first_rule_by_scan(catalogue.rules, key), key
    # Where two rules answer to one key, the earlier wins, whichever lookup finds it.
    first, second = catalogue.rules[:2]
    clash = dataclasses.replace(second, aliases=(*second.aliases, first.name, "shared"))
    early = dataclasses.replace(first, aliases=("shared",))
    crafted = type(catalogue)((early, clash, *catalogue.rules[2:]))
    for key in (first.name, first.code, "shared", second.code, second.name):
        assert crafted.find(key) is _first_rule_by_scan(crafted.rules, key), key
    assert crafted.find(first.name) is early and crafted.find("shared") is early
