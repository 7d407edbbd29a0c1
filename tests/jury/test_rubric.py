"""The rubric file: schema, wording hash pinned to the version, and the loader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from mcp_lint.jury.base import COMPONENTS
from mcp_lint.jury.rubric import (
    RUBRIC_SCHEMA,
    RubricError,
    load_rubric,
    parse_rubric,
    rubric_path,
    text_sha256,
)

# One line per published rubric version. Changing the wording changes the hash: bump `version` in
# rules/rubric.yaml, update its `text_sha256`, and add the new pair here (cached verdicts are keyed by
# version, so reusing a version for new wording would silently serve stale scores).
KNOWN_VERSIONS = {1: "ab9ccd111b6c65b86161ec5260b84d9aac07edbfc091e15d3d58a467858b4e82"}


def raw() -> dict[str, Any]:
    data = yaml.safe_load(rubric_path().read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_rubric_loads_with_all_components() -> None:
    rubric = load_rubric()
    assert isinstance(rubric.version, int)
    assert tuple(rubric.components) == COMPONENTS
    for name, comp in rubric.components.items():
        assert comp.name == name and comp.title and comp.question
        assert "\n" not in comp.question
        assert sorted(comp.anchors) == [1, 2, 3, 4, 5]
        assert comp.threshold == 3
        assert rubric.threshold(name) == 3


def test_text_hash_matches_and_is_pinned_to_the_version() -> None:
    data = raw()
    computed = text_sha256(data["components"])
    assert data["text_sha256"] == computed, "rubric wording changed: update text_sha256 and bump version"
    assert KNOWN_VERSIONS.get(data["version"]) == computed, (
        "rubric wording changed without a version bump (or a new version is missing from KNOWN_VERSIONS)"
    )


def test_rendered_rubric_names_every_anchor() -> None:
    rendered = load_rubric().render()
    for name in COMPONENTS:
        assert f"## {name} " in rendered
    assert rendered.count("\n  5: ") == len(COMPONENTS)


def test_rubric_path_points_at_the_checkout_or_the_wheel() -> None:
    path = rubric_path()
    assert path.is_file()
    assert path.parent.name in ("rules", "_rules")


def test_rubric_schema_is_a_valid_schema() -> None:
    # parse_rubric validates with a validator built once, without checking the schema on each call
    jsonschema.validators.validator_for(RUBRIC_SCHEMA).check_schema(RUBRIC_SCHEMA)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["components"].pop("examples"),
        lambda d: d["components"]["purpose"]["anchors"].pop("3"),
        lambda d: d["components"]["purpose"].update(threshold=7),
        lambda d: d["components"]["purpose"].update(question="two\nlines"),
        lambda d: d.update(version="1"),
        lambda d: d["components"].update(extra=d["components"]["purpose"]),
    ],
)
def test_schema_rejects_broken_rubrics(mutate: Callable[[dict[str, Any]], object]) -> None:
    data = raw()
    mutate(data)
    with pytest.raises(RubricError) as caught:
        parse_rubric(data, Path("rubric.yaml"))
    # the error jsonschema.validate (schema checked on every call) would have reported
    with pytest.raises(jsonschema.ValidationError) as expected:
        jsonschema.validate(data, RUBRIC_SCHEMA)
    where = "/".join(str(part) for part in expected.value.absolute_path) or "<root>"
    assert str(caught.value) == f"rubric.yaml: {where}: {expected.value.message}"


def test_loader_reports_missing_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="cannot read"):
        load_rubric(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: [1\n", encoding="utf-8")
    with pytest.raises(RubricError, match="invalid YAML"):
        load_rubric(bad)
