"""The JSON copies of the package's YAML data (`mcp_lint.parsed_yaml`): fresh, and what PyYAML gives."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import yaml

from mcp_lint.parsed_yaml import (
    PARSED_FILE,
    _copies,
    _same,
    load_yaml,
    package_yaml_folders,
    parse_yaml,
    render_copies,
)


def test_each_committed_copy_is_what_the_yaml_files_render_now() -> None:
    for folder, paths in package_yaml_folders().items():
        committed = (folder / PARSED_FILE).read_text(encoding="utf-8")
        assert committed == render_copies(paths), (
            f"{folder / PARSED_FILE} is stale: run `python -m mcp_lint.parsed_yaml`"
        )


def test_every_package_yaml_file_comes_from_its_copy_and_equals_pyyaml() -> None:
    paths = [path for group in package_yaml_folders().values() for path in group]
    assert len(paths) >= 30  # the rule files, the rubric and the lexicon
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert path.name in _copies(path.parent / PARSED_FILE), f"{path.name} has no JSON copy"
        assert _same(load_yaml(path, text), parse_yaml(text)), path


def test_a_text_the_copy_does_not_hold_is_parsed_as_yaml() -> None:
    path = next(iter(package_yaml_folders().values()))[0]
    edited = path.read_text(encoding="utf-8") + "\nadded_by_the_test: 7\n"
    assert load_yaml(path, edited)["added_by_the_test"] == 7
    with pytest.raises(yaml.YAMLError):
        load_yaml(path, "a: [unclosed\n")


def test_a_document_json_cannot_hold_is_left_to_pyyaml(tmp_path: Path) -> None:
    dated = tmp_path / "dated.yaml"
    dated.write_text("when: 2024-01-02\n", encoding="utf-8")
    keyed = tmp_path / "keyed.yaml"
    keyed.write_text("1: one\n", encoding="utf-8")
    plain = tmp_path / "plain.yaml"
    plain.write_text("name: x\nweights: [1, 2.5, true, null]\n", encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [unclosed\n", encoding="utf-8")
    (tmp_path / PARSED_FILE).write_text(render_copies([dated, keyed, plain, broken]), encoding="utf-8")
    held = _copies(tmp_path / PARSED_FILE)
    assert set(held) == {"plain.yaml"}
    assert load_yaml(dated, dated.read_text(encoding="utf-8")) == {"when": datetime.date(2024, 1, 2)}
    assert load_yaml(keyed, keyed.read_text(encoding="utf-8")) == {1: "one"}
    assert _same(
        load_yaml(plain, plain.read_text(encoding="utf-8")), {"name": "x", "weights": [1, 2.5, True, None]}
    )


def test_same_tells_types_and_key_order_apart() -> None:
    assert _same({"a": [1, 2.5]}, {"a": [1, 2.5]})
    assert not _same({"a": 1}, {"a": 1.0})
    assert not _same({"a": 1}, {"a": True})
    assert not _same({"a": 1, "b": 2}, {"b": 2, "a": 1})
