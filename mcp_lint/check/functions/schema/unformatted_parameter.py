"""MCP204 unformatted-parameter: a date, duration or code parameter with no format."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim
from mcp_lint.check.functions.schema._common import prop_path
from mcp_lint.lazyre import lazy
from mcp_lint.schema_walk import property_variants

# Only kinds whose shape a model really gets wrong: points in time, durations, time zones and the
# code lists (ISO 4217, ISO 639 / BCP 47, ISO 3166). Left out on purpose because their shape is
# self-evident or comes from another call: URLs, emails, file paths, IP addresses, UUIDs and ids
# (an id is copied from a previous result, and "Map ID in Valorant" is all a model can use anyway).

# kind -> (what to add, an example for the message, a shape in the description that already answers it)
_DATE_SHAPE = r"yyyy|iso[ -]?8601|rfc ?3339|\d{4}-\d{2}|\bformat\b|unix|epoch|timestamp in|seconds|millis"
_KINDS: dict[str, tuple[str, str, str]] = {
    "date": ('"format": "date"', "YYYY-MM-DD", _DATE_SHAPE),
    "date-time": ('"format": "date-time"', "2024-01-31T09:00:00Z", _DATE_SHAPE),
    "time": (
        '"format": "time"',
        "HH:MM",
        r"hh|iso[ -]?8601|rfc ?3339|\d{1,2}:\d{2}|\bformat\b|unix|epoch|24.hour",
    ),
    "duration": (
        '"format": "duration" or a unit',
        "PT30M, or a number of seconds",
        r"iso[ -]?8601|\bpt\d|\d+\s*(?:ms|s|m|h|d)\b|seconds|minutes|hours|days|millis|\bformat\b",
    ),
    "currency": ('"pattern": "^[A-Z]{3}$" (ISO 4217)', "USD", r"iso[ -]?4217|(?-i:\b[A-Z]{3}\b)|\bformat\b"),
    "language": (
        'a "pattern" for BCP 47 tags',
        "en or en-US",
        r"iso[ -]?639|bcp[ -]?47|\b[a-z]{2}(?:[-_][A-Z]{2})?\b['\")]|\bformat\b",
    ),
    "country": (
        '"pattern": "^[A-Z]{2}$" (ISO 3166-1 alpha-2)',
        "US",
        r"iso[ -]?3166|alpha-?[23]|(?-i:\b[A-Z]{2}\b)|\bformat\b",
    ),
    "timezone": (
        "an IANA zone name example",
        "Europe/Paris",
        r"iana|tz database|[A-Z][a-z]+/[A-Z]|utc|gmt|\bformat\b",
    ),
}
_KIND_LABELS = {
    "date": "a date",
    "date-time": "a date-time",
    "time": "a time of day",
    "duration": "a duration",
    "currency": "a currency code",
    "language": "a language code",
    "country": "a country code",
    "timezone": "a time zone",
}
_SHAPE_COMPILED = {kind: lazy(shape, re.IGNORECASE) for kind, (_, _, shape) in _KINDS.items()}
# Shapes that answer for any kind: an example or an explicit format statement.
_GENERIC_SHAPE = lazy(
    r"\be\.g\.|\beg\b|\bfor example\b|\bexample\b|\bsuch as\b|\blike ['\"`]|`[^`]+`|'[^'\s]+'|\"[^\"\s]+\"",
    re.IGNORECASE,
)
_SHAPE_KEYS = ("format", "pattern", "enum", "examples", "example", "const", "contentMediaType", "oneOf")

_NAME_KINDS: dict[str, str] = {
    "date": "date",
    "dob": "date",
    "birthday": "date",
    "datetime": "date-time",
    "timestamp": "date-time",
    "time": "time",
    "duration": "duration",
    "currency": "currency",
    "locale": "language",
    "timezone": "timezone",
    "tz": "timezone",
}
# `country_code`, `lang_code`: a code list only when the name or the description says "code".
_CODE_KINDS = {
    "country": "country",
    "language": "language",
    "lang": "language",
    "currency": "currency",
    "locale": "language",
}
_SAYS_CODE = lazy(r"\bcodes?\b", re.IGNORECASE)
# `created_at`, `due_on`: the trailing preposition marks a point in time.
_TIME_SUFFIX = {"at": "date-time", "on": "date"}
_DESC_KIND = lazy(
    r"^\s*(?:(?:the|an?|optional|required)\s+)?(?:[\w-]+\s+){0,2}?"
    r"(date-?time|date|timestamp|duration|currency code|language code|country code|time ?zone)\b",
    re.IGNORECASE,
)
_DESC_WORD_KIND = {
    "datetime": "date-time",
    "date-time": "date-time",
    "date": "date",
    "timestamp": "date-time",
    "duration": "duration",
    "currency code": "currency",
    "language code": "language",
    "country code": "country",
    "timezone": "timezone",
    "time zone": "timezone",
}
_FIRST_CLAUSE = lazy(r"[.;:(\n]")


def _is_string_variant(variants: list[Mapping[str, Any]]) -> bool:
    for variant in variants:
        kind = variant.get("type")
        if kind == "string" or (isinstance(kind, list) and "string" in kind):
            return True
    return False


def _param_kind(name: str, description: str) -> str | None:
    words = name_words(name)
    if words:
        last = words[-1]
        if last in _NAME_KINDS:
            return _NAME_KINDS[last]
        if last in _CODE_KINDS and _SAYS_CODE.search(description):
            return _CODE_KINDS[last]
        if len(words) > 1 and last in ("code", "codes") and words[-2] in _CODE_KINDS:
            return _CODE_KINDS[words[-2]]
        if len(words) > 1 and last in _TIME_SUFFIX:
            return _TIME_SUFFIX[last]
        if len(words) > 1 and words[-2:] == ["time", "zone"]:
            return "timezone"
        if len(words) > 1 and words[-2] in ("date", "time") and last in ("from", "to", "start", "end"):
            return "date"
    head = _FIRST_CLAUSE.split(description, 1)[0]
    match = _DESC_KIND.match(head)
    if match:
        word = " ".join(match.group(1).lower().split())
        return _DESC_WORD_KIND.get(word, _DESC_WORD_KIND.get(word.replace(" ", "")))
    return None


# A "timestamp" is a date-time only when the text talks about dates or times; Slack's message `ts`
# ("1712.123456") is an id, and `"format": "date-time"` on it would break every call.
_DATE_WORDING = lazy(
    r"\bdates?\b|\bdatetime\b|\bdate-time\b|\btime of day\b|\bpoint in time\b|\bday\b|\bhours?\b|"
    r"\bstart|\bend\b|\branges?\b|\bsince\b|\buntil\b|\bbefore\b|\bafter\b|\bcreated\b|\bexpir|"
    r"\bwhen\b|\boldest\b|\blatest\b|\bnewest\b|\bfrom\b",
    re.IGNORECASE,
)
_ID_EXAMPLE = lazy(r"\b\d{6,}\.\d+\b|\bids?\b|\bidentifier\b|\bmessage\b", re.IGNORECASE)


def _opaque_timestamp(name: str, description: str) -> bool:
    """Called a timestamp, but nothing says it is a date or time (or its example looks like an id)."""
    parts = name_words(name)
    if "timestamp" not in parts and "ts" not in parts and "timestamp" not in description.lower():
        return False
    if any(word in parts for word in ("date", "datetime", "time")) and "timestamp" not in parts:
        return False
    return _ID_EXAMPLE.search(description) is not None or _DATE_WORDING.search(description) is None


@check_function("unformatted_parameter")
def unformatted_parameter(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, prop in tool.properties.items():
            if type(prop) is not dict and not isinstance(prop, Mapping):
                continue
            variants = property_variants(root, prop)
            if not _is_string_variant(variants):
                continue
            if any(key in variant for variant in variants for key in _SHAPE_KEYS):
                continue
            texts = [v["description"] for v in variants if isinstance(v.get("description"), str)]
            description = " ".join(texts)
            kind = _param_kind(name, description)
            if kind is None:
                continue
            if kind == "date-time" and _opaque_timestamp(name, description):
                continue
            if _SHAPE_COMPILED[kind].search(description) or _GENERIC_SHAPE.search(description):
                continue
            advice, example, _ = _KINDS[kind]
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={"parameter": name, "kind": _KIND_LABELS[kind], "example": example},
                evidence=f"{prop_path(name)}: " + trim(description or "(no description)", 90),
                path=prop_path(name),
                suggestion=f"Add {advice} to `{name}`.",
            )
