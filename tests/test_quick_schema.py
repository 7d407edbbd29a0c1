"""The quick schema check never calls a document valid that jsonschema finds invalid, and is certain
of every rule file and of the rubric as shipped (so a run never imports jsonschema for them)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from mcp_lint.check.rules import _rule_schema
from mcp_lint.jury.rubric import RUBRIC_SCHEMA, rubric_path
from mcp_lint.quick_schema import surely_valid
from mcp_lint.resources import rules_dir

RULE_FILES = sorted(rules_dir().glob("MCP*.yaml"))


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _documents() -> Iterator[tuple[str, Any, dict[str, Any]]]:
    for path in RULE_FILES:
        yield path.name, _load(path), _rule_schema()
    yield "rubric.yaml", _load(rubric_path()), RUBRIC_SCHEMA


# Values put in place of a field's value: wrong types, empty and odd strings, out-of-range numbers,
# repeated items, a float where an integer belongs, a bool where a number belongs.
_REPLACEMENTS: tuple[Any, ...] = (
    "",
    "x",
    "MCP1",
    "Bad Name",
    "a\nb",
    0,
    7,
    1.0,
    2.5,
    True,
    None,
    [],
    ["a", "a"],
    {},
)


def _mutations(document: Any) -> Iterator[Any]:
    """The document with one field replaced, removed, or an unknown one added, at every depth."""

    def walk(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        yield path
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, (*path, index))

    for path in walk(document, ()):
        if not path:
            continue
        for replacement in (*_REPLACEMENTS, "__drop__", "__extra__"):
            changed = copy.deepcopy(document)
            parent = changed
            for part in path[:-1]:
                parent = parent[part]
            last = path[-1]
            if replacement == "__drop__":
                if isinstance(parent, dict):
                    del parent[last]
                else:
                    parent.pop(last)
            elif replacement == "__extra__":
                if not isinstance(parent, dict):
                    continue
                parent["unknown-field"] = "x"
            else:
                parent[last] = replacement
            yield changed


@pytest.mark.parametrize(("name", "document", "schema"), list(_documents()), ids=lambda v: str(v)[:20])
def test_shipped_documents_are_certainly_valid(name: str, document: Any, schema: dict[str, Any]) -> None:
    assert surely_valid(document, schema), name


def test_no_invalid_document_is_called_valid() -> None:
    checked = rejected = 0
    for name, document, schema in _documents():
        validator = jsonschema.validators.validator_for(schema)(schema)
        for changed in _mutations(document):
            checked += 1
            if next(validator.iter_errors(changed), None) is not None:
                rejected += 1
                assert not surely_valid(changed, schema), (name, changed)
    assert rejected > 1000  # the mutations do reach the schemas' constraints
    assert checked > rejected


@pytest.mark.parametrize(
    ("value", "schema"),
    [
        (1.0, {"type": "integer"}),  # integral float: jsonschema's call
        (True, {"type": "number"}),
        (1, {"enum": [1, True]}),  # non-string enum values
        (["a", 1], {"type": "array", "uniqueItems": True}),
        ({"a": 1}, {"type": "object", "patternProperties": {}}),  # a keyword it does not know
    ],
)
def test_what_it_does_not_handle_exactly_is_left_to_jsonschema(value: Any, schema: dict[str, Any]) -> None:
    assert not surely_valid(value, schema)
