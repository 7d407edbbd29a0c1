"""Is a JSON Schema valid against its dialect's meta-schema? A fast path for the common case.

`jsonschema`'s `check_schema` costs about 3 ms per tool schema against the 2020-12 meta-schema
(dynamic references), which is 30 s for 10,000 tools. Tool schemas use a small set of keywords,
so `_surely_valid` checks those directly and answers True only when it is certain; anything it
does not fully understand goes to `jsonschema`, which stays the source of truth and writes the
message.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DRAFT_07 = "http://json-schema.org/draft-07/schema"
# Draft-07 (what many Python and TypeScript servers still declare) constrains the keywords
# `_surely_valid` checks in the same way; the keywords it lacks are unknown there, so accepting any
# value, and the fast path is only ever stricter about them. Its one extra schema keyword,
# `additionalItems`, is checked as a schema for both dialects (unknown, so stricter, in 2020-12).
_FAST_DIALECTS = frozenset({DEFAULT_DIALECT, DEFAULT_DIALECT + "#", DRAFT_07, DRAFT_07 + "#"})

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
_SCHEMA_KEYS = frozenset(
    {
        "not",
        "if",
        "then",
        "else",
        "items",
        "contains",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
        "additionalItems",
    }
)
_SCHEMA_MAP_KEYS = frozenset({"properties", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_LIST_KEYS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_NUMBER_KEYS = frozenset({"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"})
_COUNT_KEYS = frozenset(
    {
        "maxLength",
        "minLength",
        "maxItems",
        "minItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
    }
)
_STRING_KEYS = frozenset(
    {"title", "description", "format", "$comment", "contentEncoding", "contentMediaType"}
)
_BOOL_KEYS = frozenset({"uniqueItems", "deprecated", "readOnly", "writeOnly"})
_ANY_KEYS = frozenset({"default", "const"})
# Vocabulary keywords whose constraints the fast path does not check: always ask jsonschema.
_DEFER_KEYS = frozenset(
    {
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$dynamicRef",
        "$vocabulary",
        "$recursiveAnchor",
        "$recursiveRef",
        "patternProperties",
        "dependencies",
        "dependentRequired",
    }
)
_SIMPLE_REF = re.compile(r"#(?:/[$A-Za-z0-9_.~\-]+)*")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return value.is_integer() and value >= 0
    return isinstance(value, int) and value >= 0


def _unique_strings(value: Any) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(item, str) for item in value)
        and len(set(value)) == len(value)
    )


def _surely_valid(schema: Any) -> bool:
    """True only if `schema` is certainly valid 2020-12; False means "ask jsonschema"."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, Mapping):
        return False
    for key, value in schema.items():
        if key in _STRING_KEYS:
            ok = isinstance(value, str)
        elif key == "type":
            if isinstance(value, str):
                ok = value in _SIMPLE_TYPES
            else:
                ok = (
                    isinstance(value, list)
                    and len(value) > 0
                    and all(isinstance(item, str) and item in _SIMPLE_TYPES for item in value)
                    and len(set(value)) == len(value)
                )
        elif key in _SCHEMA_MAP_KEYS:
            ok = isinstance(value, Mapping) and all(_surely_valid(item) for item in value.values())
        elif key in _SCHEMA_KEYS:
            ok = _surely_valid(value)
        elif key in _SCHEMA_LIST_KEYS:
            ok = isinstance(value, list) and len(value) > 0 and all(_surely_valid(item) for item in value)
        elif key == "required":
            ok = _unique_strings(value)
        elif key == "enum" or key == "examples":
            ok = isinstance(value, list)
        elif key in _NUMBER_KEYS:
            ok = _is_number(value)
        elif key in _COUNT_KEYS:
            ok = _is_count(value)
        elif key == "multipleOf":
            ok = _is_number(value) and value > 0
        elif key in _BOOL_KEYS:
            ok = isinstance(value, bool)
        elif key == "pattern":
            ok = isinstance(value, str) and _compiles(value)
        elif key == "$ref":
            ok = isinstance(value, str) and _SIMPLE_REF.fullmatch(value) is not None
        elif key == "$schema":
            # isinstance first: `{}` or `[]` here is an invalid schema, not a reason to crash.
            ok = isinstance(value, str) and value in _FAST_DIALECTS
        elif key in _DEFER_KEYS:
            ok = False
        else:
            # Keywords outside the vocabularies (x-*, example, nullable...) are allowed with any value.
            ok = key in _ANY_KEYS or not key.startswith("$")
        if not ok:
            return False
    return True


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


@functools.lru_cache(maxsize=16)
def _meta_validator(cls: Any) -> Any:
    """One validator per dialect for the whole run: it resolves the meta-schema's `$ref`s and
    `$dynamicRef`s once and keeps them, instead of resolving them again for every schema."""
    return cls(cls.META_SCHEMA, format_checker=cls.FORMAT_CHECKER)


def metaschema_error(schema: Mapping[str, Any]) -> tuple[str, str] | None:
    """(path inside the schema, message) of the most relevant meta-schema error, or None."""
    dialect = schema.get("$schema", DEFAULT_DIALECT)
    if isinstance(dialect, str) and dialect in _FAST_DIALECTS and _surely_valid(schema):
        return None
    import jsonschema  # only for a schema the fast path is not sure of (some 45 ms to import)
    from jsonschema import validators

    default = jsonschema.Draft202012Validator
    cls = validators.validator_for(schema, default=default) if isinstance(dialect, str) else default
    meta_validator = _meta_validator(cls)
    try:
        error = jsonschema.exceptions.best_match(meta_validator.iter_errors(schema))
    except TypeError:
        # Draft 3's meta-schema hashes what it meets (a `{"type": [5]}`, `{"extends": 5}`...) and
        # raises on it: the schema is invalid, only the path is lost.
        return "", "a keyword has a value of the wrong type, which the draft-03 meta-schema cannot check"
    if error is None:
        return None
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)
    return where, error.message
