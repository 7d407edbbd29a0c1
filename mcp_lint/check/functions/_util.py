"""Helpers shared by the check function modules (no rules live here)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

EVIDENCE_LIMIT = 120

_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def trim(text: str, limit: int = EVIDENCE_LIMIT) -> str:
    """One line of at most `limit` characters, for evidence."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def snippet(text: str, start: int, end: int, limit: int = EVIDENCE_LIMIT) -> str:
    """The span text[start:end] with some context around it, trimmed to `limit` characters."""
    span = end - start
    pad = max(0, (limit - span) // 2)
    left = max(0, start - pad)
    right = min(len(text), end + pad)
    prefix = "…" if left > 0 else ""
    suffix = "…" if right < len(text) else ""
    return trim(prefix + text[left:right] + suffix, limit + 2)


def name_words(name: str) -> list[str]:
    """Lower-case words of an identifier: `getUserInfo`, `get_user-info` -> get, user, info."""
    return [word.lower() for word in _WORD_SPLIT.split(name) if word]


def schema_texts(schema: Any, path: str = "inputSchema") -> Iterator[tuple[str, str]]:
    """Every `description` and `title` string anywhere in a JSON Schema, with its dotted path."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key in ("description", "title") and isinstance(value, str):
                yield f"{path}.{key}", value
            elif isinstance(value, (Mapping, list)) and key not in ("enum", "const", "default", "examples"):
                yield from schema_texts(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from schema_texts(item, f"{path}[{index}]")


def resolve_local_ref(root: Any, node: Any) -> Any:
    """Follow one local `$ref` (`#/$defs/X`) so a property's documentation can live in its definition."""
    if not isinstance(node, Mapping):
        return node
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    target: Any = root
    for part in ref[2:].split("/"):
        if not isinstance(target, Mapping):
            return node
        target = target.get(part.replace("~1", "/").replace("~0", "~"))
    return target if isinstance(target, Mapping) else node


def property_variants(root: Any, prop: Any) -> list[Mapping[str, Any]]:
    """The property schema plus what it wraps: a `$ref`, or `anyOf`/`oneOf`/`allOf` branches.

    Pydantic emits `Optional[X]` as `anyOf: [X, null]` and models as `$ref`s, so keywords such
    as `format` or `description` are often one level down.
    """
    if not isinstance(prop, Mapping):
        return []
    found: list[Mapping[str, Any]] = [prop]
    resolved = resolve_local_ref(root, prop)
    if resolved is not prop:
        found.append(resolved)
    for key in ("anyOf", "oneOf", "allOf"):
        branches = prop.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if isinstance(branch, Mapping):
                    found.append(branch)
                    target = resolve_local_ref(root, branch)
                    if target is not branch:
                        found.append(target)
    return found


def words(text: str) -> list[str]:
    """Whitespace-separated words: keeps long vocabulary lists readable in the source."""
    return text.split()
