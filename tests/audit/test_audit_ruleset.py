"""The rule-set hash covers what decides a verdict: rule files, rule code and jury data, not bytecode."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_lint.audit import ruleset
from mcp_lint.audit.job import JobSettings


def _copy_of_package(tmp_path: Path) -> Path:
    copy = tmp_path / "mcp_lint"
    shutil.copytree(ruleset._PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_an_edit_to_a_rule_function_changes_the_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_of_package(tmp_path)
    monkeypatch.setattr(ruleset, "_PACKAGE", copy)
    before = ruleset.rule_set_hash(JobSettings())
    rule_code = copy / "check" / "functions" / "naming.py"
    rule_code.write_text(rule_code.read_text() + "\n# a changed rule\n")
    assert ruleset.rule_set_hash(JobSettings()) != before


def test_bytecode_does_not_change_the_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_of_package(tmp_path)
    monkeypatch.setattr(ruleset, "_PACKAGE", copy)
    before = ruleset.rule_set_hash(JobSettings())
    cache = copy / "check" / "__pycache__"
    cache.mkdir()
    (cache / "engine.cpython-311.pyc").write_bytes(b"\x00compiled")
    assert ruleset.rule_set_hash(JobSettings()) == before
