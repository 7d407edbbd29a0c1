"""Is a document certainly valid against one of our own data schemas? A check that needs no `jsonschema`.

Every run reads the rule files and the rubric and checks them against their schemas
(`data/rule.schema.json`, `jury.rubric.RUBRIC_SCHEMA`). Importing `jsonschema` for that costs about
45 ms of CPU on every run, more than the check itself. Those schemas use a handful of keywords, so
`surely_valid` checks them directly: it answers True only when it is certain the document is valid,
and False whenever it is not sure (a keyword it does not know, a value it does not handle exactly as
`jsonschema` does), never deciding that a document is invalid. On False the caller asks `jsonschema`,
which stays the source of truth and writes the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# Keywords that only annotate: they never make a document invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples"})

_TYPES: Mapping[str, tuple[type, ...]] = {
    "string": (str,),
    "object": (dict,),
    "array": (list,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


def _of_type(value: Any, name: object) -> bool:
    """Certainly an instance of JSON type `name` (a bool is no number; an integral float is left to
    `jsonschema`)."""
    if not isinstance(name, str) or name not in _TYPES:
        return False
    kinds = _TYPES[name]
    if isinstance(value, bool):
        return name == "boolean"
    return type(value) in kinds


def _strings(values: list[Any]) -> list[str]:
    return [value for value in values if isinstance(value, str)]


def surely_valid(value: Any, schema: Any) -> bool:
    """True only if `value` is certainly valid against `schema`; False means "ask jsonschema"."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, Mapping):
        return False
    for keyword, rule in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        if not _keyword_holds(keyword, rule, value, schema):
            return False
    return True


def _keyword_holds(keyword: str, rule: Any, value: Any, schema: Mapping[str, Any]) -> bool:
    """Whether `value` certainly meets one keyword of `schema`; False when unsure."""
    if keyword == "type":
        names = rule if isinstance(rule, list) else [rule]
        return any(_of_type(value, name) for name in names)
    if keyword == "enum":
        # strings only: jsonschema's equality tells 1 from True and 1.0, which `in` does not
        return (
            isinstance(value, str)
            and isinstance(rule, list)
            and value in [r for r in rule if isinstance(r, str)]
        )
    if keyword in ("properties", "additionalProperties", "required"):
        return not isinstance(value, dict) or _object_holds(keyword, rule, value, schema)
    if keyword in ("minLength", "pattern"):
        return not isinstance(value, str) or _string_holds(keyword, rule, value)
    if keyword in ("items", "uniqueItems", "minItems"):
        return not isinstance(value, list) or _array_holds(keyword, rule, value)
    if keyword in ("minimum", "maximum"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return True
        if isinstance(rule, bool) or not isinstance(rule, (int, float)):
            return False
        return value >= rule if keyword == "minimum" else value <= rule
    return False  # a keyword this check does not know


def _object_holds(keyword: str, rule: Any, value: dict[Any, Any], schema: Mapping[str, Any]) -> bool:
    if not all(isinstance(key, str) for key in value):
        return False
    if keyword == "required":
        return isinstance(rule, list) and all(isinstance(name, str) and name in value for name in rule)
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        return False
    if keyword == "properties":
        return all(surely_valid(value[name], sub) for name, sub in properties.items() if name in value)
    extra = [key for key in value if key not in properties]
    if rule is False:
        return not extra
    return all(surely_valid(value[key], rule) for key in extra)


def _string_holds(keyword: str, rule: Any, value: str) -> bool:
    if keyword == "minLength":
        return isinstance(rule, int) and not isinstance(rule, bool) and len(value) >= rule
    return isinstance(rule, str) and re.search(rule, value) is not None


def _array_holds(keyword: str, rule: Any, value: list[Any]) -> bool:
    if keyword == "items":
        return all(surely_valid(item, rule) for item in value)
    if keyword == "minItems":
        return isinstance(rule, int) and not isinstance(rule, bool) and len(value) >= rule
    if rule is not True:
        return rule is False
    # unique strings only: jsonschema's equality of other values is its own
    return all(isinstance(item, str) for item in value) and len(set(value)) == len(value)
