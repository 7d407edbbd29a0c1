"""One lookup finds the rules folder (rule files and the rubric), in a wheel and in a checkout."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from mcp_lint import resources
from mcp_lint.check.rules import load_catalogue
from mcp_lint.jury.rubric import rubric_path


def test_the_checkout_rules_folder_holds_the_rules_and_the_rubric() -> None:
    folder = resources.rules_dir()
    assert folder == resources.PACKAGE_DIR.parent / "rules" or folder.name == "_rules"
    assert rubric_path() == folder / "rubric.yaml"
    assert {rule.source for rule in load_catalogue().rules} == {str(p) for p in folder.glob("MCP*.yaml")}


def test_a_wheel_layout_prefers_the_bundled_rules(tmp_path: Path) -> None:
    # The wheel's layout: the module inside the package, `rules` force-included as `mcp_lint/_rules`.
    package = tmp_path / "site-packages" / "mcp_lint"
    (package / "_rules").mkdir(parents=True)
    (tmp_path / "site-packages" / "rules").mkdir()  # a stray folder beside it must not win
    shutil.copy(resources.__file__, package / "resources.py")
    spec = importlib.util.spec_from_file_location("wheel_resources", package / "resources.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.rules_dir() == package / "_rules"
