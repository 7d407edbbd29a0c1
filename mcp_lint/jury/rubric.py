"""The rubric as data: load `rubric.yaml`, check it against its schema, expose it as frozen records."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_lint.jury.base import COMPONENTS
from mcp_lint.parsed_yaml import load_yaml, yaml_error
from mcp_lint.quick_schema import surely_valid
from mcp_lint.resources import rules_dir

_ANCHOR_KEYS = ("1", "2", "3", "4", "5")

_COMPONENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "question", "anchors", "threshold"],
    "properties": {
        "title": {"type": "string", "minLength": 1},
        "question": {"type": "string", "minLength": 1, "pattern": "^[^\\n]*$"},
        "threshold": {"type": "number", "minimum": 1, "maximum": 5},
        "anchors": {
            "type": "object",
            "additionalProperties": False,
            "required": list(_ANCHOR_KEYS),
            "properties": {key: {"type": "string", "minLength": 1} for key in _ANCHOR_KEYS},
        },
    },
}

RUBRIC_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "mcp-lint rubric",
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "text_sha256", "components"],
    "properties": {
        "version": {"type": "integer", "minimum": 1},
        "text_sha256": {"type": "string"},
        "components": {
            "type": "object",
            "additionalProperties": False,
            "required": list(COMPONENTS),
            "properties": {name: _COMPONENT_SCHEMA for name in COMPONENTS},
        },
    },
}


class RubricError(ValueError):
    """The rubric file is missing or does not match its schema."""


@dataclass(frozen=True)
class RubricComponent:
    name: str
    title: str
    question: str
    anchors: Mapping[int, str]
    threshold: float


@dataclass(frozen=True)
class Rubric:
    version: int
    text_sha256: str
    components: Mapping[str, RubricComponent]
    path: Path

    def threshold(self, component: str) -> float:
        return self.components[component].threshold

    def render(self) -> str:
        """The rubric as prompt text, in report order."""
        blocks: list[str] = []
        for name in COMPONENTS:
            comp = self.components[name]
            lines = [f"## {name} ({comp.title})", comp.question]
            lines.extend(f"  {score}: {comp.anchors[score]}" for score in sorted(comp.anchors))
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)


def rubric_path() -> Path:
    return rules_dir() / "rubric.yaml"


def text_sha256(components: Mapping[str, Any]) -> str:
    """Hash of the rubric's wording, independent of YAML formatting and comments."""
    canonical = json.dumps(components, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=1)
def _validator() -> Any:
    """A validator for RUBRIC_SCHEMA, built once. `jsonschema.validate` would first check the schema
    itself against its meta-schema on every call (30 ms, every run: the catalogue loads the rubric);
    `tests/jury/test_rubric.py` checks RUBRIC_SCHEMA once instead."""
    import jsonschema

    return jsonschema.validators.validator_for(RUBRIC_SCHEMA)(RUBRIC_SCHEMA)


def parse_rubric(data: Any, path: Path) -> Rubric:
    # jsonschema (some 45 ms to import) only for a rubric the quick check is not certain of
    if not surely_valid(data, RUBRIC_SCHEMA):
        import jsonschema

        # the error `jsonschema.validate` raises: the best match among the errors
        error = jsonschema.exceptions.best_match(_validator().iter_errors(data))
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path) or "<root>"
            raise RubricError(f"{path}: {where}: {error.message}")
    components = {
        name: RubricComponent(
            name=name,
            title=raw["title"],
            question=raw["question"],
            anchors={int(key): text for key, text in raw["anchors"].items()},
            threshold=float(raw["threshold"]),
        )
        for name, raw in ((name, data["components"][name]) for name in COMPONENTS)
    }
    return Rubric(version=data["version"], text_sha256=data["text_sha256"], components=components, path=path)


def load_rubric(path: Path | None = None) -> Rubric:
    if path is None:
        return _load_default()
    return _load(path)


@functools.lru_cache(maxsize=1)
def _load_default() -> Rubric:
    return _load(rubric_path())


def _load(path: Path) -> Rubric:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RubricError(f"cannot read rubric {path}: {exc.strerror or exc}") from None
    try:
        data = load_yaml(path, text)
    except yaml_error() as exc:
        raise RubricError(f"{path}: invalid YAML: {exc}") from None
    return parse_rubric(data, path)
