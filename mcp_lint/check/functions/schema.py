"""Rules about a tool's `inputSchema` and its parameters (MCP2xx)."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._metaschema import metaschema_error
from mcp_lint.check.functions._text import analysis
from mcp_lint.check.functions._util import (
    name_words,
    property_variants,
    resolve_local_ref,
    snippet,
    trim,
    words,
)
from mcp_lint.model import Tool


def _prop_path(name: str) -> str:
    return f"inputSchema.properties.{name}"


# --- MCP201 invalid-input-schema ---------------------------------------------------------------


def schema_problems(tool: Tool) -> list[tuple[str, str]]:
    """(path, problem) pairs that make the tool's input schema invalid; shared with MCP003."""
    schema = tool.input_schema
    if schema is None:
        return [("inputSchema", "inputSchema is missing")]
    if not isinstance(schema, Mapping):
        return [("inputSchema", f"inputSchema is a JSON {_json_type(schema)}, not an object")]
    problems: list[tuple[str, str]] = []
    kind = schema.get("type")
    if kind != "object":
        shown = "missing" if kind is None else repr(kind)
        problems.append(("inputSchema.type", f'"type" must be "object", found {shown}'))
    props = schema.get("properties")
    if props is not None and not isinstance(props, Mapping):
        problems.append(("inputSchema.properties", '"properties" must be an object'))
    names = schema.get("required")
    if isinstance(names, list) and isinstance(props, Mapping) and not schema.get("additionalProperties"):
        for index, name in enumerate(names):
            if isinstance(name, str) and name not in props:
                problems.append(
                    (f"inputSchema.required[{index}]", f'"required" names {name!r}, which is not a property')
                )
    error = metaschema_error(schema)
    if error is not None:
        where, message = error
        problems.append((f"inputSchema{where}", trim(message)))
    return problems


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "null"


@check_function("invalid_input_schema")
def invalid_input_schema(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        for path, problem in schema_problems(tool):
            yield Hit(tool=tool.name, fields={"problem": problem}, evidence=path, path=path)


# --- MCP202 undocumented-parameter --------------------------------------------------------------


def _has_description(root: Any, prop: Any) -> bool:
    for variant in property_variants(root, prop):
        text = variant.get("description")
        if isinstance(text, str) and text.strip():
            return True
    return False


_MAX_DEPTH = 6
# parameters walked at most in one schema (nested ones included): real tools have a few dozen
MAX_WALKED = 2_000
_MAX_LISTED_FIELDS = 4


def _nested_undocumented(
    root: Any,
    prop: Any,
    short: str,
    path: str,
    context: str,
    depth: int = 0,
    entered: frozenset[int] = frozenset(),
) -> list[tuple[str, str]]:
    """(short name, JSON path) of the fields inside `prop` (object properties, array items'
    properties) that have no description and that no enclosing description names.

    `context` is the text of the descriptions around the field: "each with `name` and `type`"
    documents both fields as well as a description of their own would.
    """
    if depth >= _MAX_DEPTH:
        return []
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    variants = [v for v in property_variants(root, prop) if id(v) not in entered]
    inside = entered.union(id(v) for v in variants)
    for variant in variants:
        inner = variant.get("properties")
        if isinstance(inner, Mapping):
            for name, child in inner.items():
                if name in seen or not isinstance(child, Mapping):
                    continue
                seen.add(name)
                child_short, child_path = f"{short}.{name}", f"{path}.properties.{name}"
                own = " ".join(
                    str(v.get("description") or "") for v in property_variants(root, child)
                ).strip()
                if not own and not _names(context, str(name)):
                    found.append((child_short, child_path))
                found += _nested_undocumented(
                    root, child, child_short, child_path, f"{context} {own}", depth + 1, inside
                )
        items = variant.get("items")
        if isinstance(items, Mapping) and "items" not in seen:
            seen.add("items")
            own = " ".join(str(v.get("description") or "") for v in property_variants(root, items))
            found += _nested_undocumented(
                root, items, f"{short}[]", f"{path}.items", f"{context} {own}", depth + 1, inside
            )
    return found


def _names(text: str, name: str) -> bool:
    """Whether `text` names `name` as a word (any case style: `entityType` or "entity type")."""
    if not text:
        return False
    if re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text):
        return True
    spaced = " ".join(name_words(name))
    return len(spaced) > 2 and spaced in " ".join(name_words(text))


# Where an entry of a parameter list starts: a line (after a bullet), a sentence or clause, an
# "Args:" header, an opening bracket ("Args: query: ...", "- depth (int): ...", "offset: 0, length: 10").
_ENTRY_START = r"(?:^|[.;:,(\u2022*>-])[ \t]*(?:[-*\u2022][ \t]*)?"
# What follows the name of such an entry: "name: meaning", "name (int): meaning", "name - meaning".
_ENTRY_TAIL = r"""\s*(?:\([^)\n]{1,80}\)\s*)?(?::|\s[-\u2013\u2014]\s)\s*[\w"'`\[{(~./-]"""
_QUOTE = r"""[`'"]?"""


def explained_in_description(description: str, name: str) -> bool:
    """Whether the tool's description explains parameter `name` by name, so the model is told.

    These count: an Args:/Parameters: entry or a bullet ("query: The search query", "- depth (int):
    ..."), a quoted name with its explanation in brackets ("'offset' (start line)"), an example value
    ("offset=0", "search(query='x')"), the name in code style ("pass a JSON `schema`"), and a
    snake_case / camelCase name used verbatim in prose ("set verbose_timing to true"). A plain word
    that merely occurs ("the range", "Default shell: bash") does not: that is the word, not the
    parameter. Nor does a path into it ("`pdfOptions.maxPages`"), which explains one field only.
    """
    if not description or not name:
        return False
    bare = re.escape(name)
    before = r"(?<![A-Za-z0-9_.])"
    after = r"(?![A-Za-z0-9_]|\.[A-Za-z_])"
    patterns = [
        rf"`{bare}`",
        rf"{_ENTRY_START}{_QUOTE}{bare}{_QUOTE}{after}{_ENTRY_TAIL}",
        rf"""[`'"]{bare}[`'"]\s*\([^)\n]{{2,120}}\)""",
        rf"""{before}{bare}\s*=(?!=)\s*[\w"'\[{{.-]""",
    ]
    if _identifier_shaped(name):
        patterns.append(rf"{before}{bare}{after}")
    return any(re.search(pattern, description, re.MULTILINE) for pattern in patterns)


def _documented_by_fields(root: Any, prop: Any) -> bool:
    """An object whose every field has a description of its own says what it is through them."""
    fields: list[Any] = []
    for variant in property_variants(root, prop):
        inner = variant.get("properties")
        if isinstance(inner, Mapping):
            fields.extend(inner.values())
    return bool(fields) and all(_has_description(root, field) for field in fields)


@check_function("undocumented_parameter")
def undocumented_parameter(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, prop in tool.properties.items():
            documented = (
                _has_description(root, prop)
                or explained_in_description(tool.description, str(name))
                or _documented_by_fields(root, prop)
            )
            context = (
                " ".join(str(v.get("description") or "") for v in property_variants(root, prop))
                + " "
                + tool.description
            )
            nested = _nested_undocumented(root, prop, str(name), _prop_path(name), context)
            if documented and not nested:
                continue
            shown = ", ".join(f"`{short}`" for short, _ in nested[:_MAX_LISTED_FIELDS])
            if len(nested) > _MAX_LISTED_FIELDS:
                shown += f" and {len(nested) - _MAX_LISTED_FIELDS} more"
            if not documented:
                subject = (
                    f"Parameter `{name}` has"
                    if not nested
                    else f"Parameter `{name}` and its fields {shown} have"
                )
                path = _prop_path(name)
            else:
                plural = "s" if len(nested) > 1 else ""
                subject = f"Field{plural} {shown} of parameter `{name}` {'have' if plural else 'has'}"
                path = nested[0][1]
            evidence = ", ".join(where for _, where in nested[:_MAX_LISTED_FIELDS]) if documented else path
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={"parameter": name, "subject": subject},
                evidence=trim(evidence, 200),
                path=path,
            )


# --- MCP205 required-parameter-with-default -----------------------------------------------------


@check_function("required_parameter_with_default")
def required_parameter_with_default(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        props = tool.properties
        for name in tool.required:
            prop = props.get(name)
            if isinstance(prop, Mapping) and "default" in prop:
                default = prop["default"]
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "default": trim(repr(default), 40)},
                    evidence=f"{_prop_path(name)}.default = {trim(repr(default), 60)}",
                    path=_prop_path(name),
                    suggestion=f"Remove {name!r} from `required` (the default applies when it is omitted).",
                )


# --- MCP204 unformatted-parameter ---------------------------------------------------------------

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
_SHAPE_COMPILED = {kind: re.compile(shape, re.IGNORECASE) for kind, (_, _, shape) in _KINDS.items()}
# Shapes that answer for any kind: an example or an explicit format statement.
_GENERIC_SHAPE = re.compile(
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
_SAYS_CODE = re.compile(r"\bcodes?\b", re.IGNORECASE)
# `created_at`, `due_on`: the trailing preposition marks a point in time.
_TIME_SUFFIX = {"at": "date-time", "on": "date"}
_DESC_KIND = re.compile(
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
_FIRST_CLAUSE = re.compile(r"[.;:(\n]")


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
_DATE_WORDING = re.compile(
    r"\bdates?\b|\bdatetime\b|\bdate-time\b|\btime of day\b|\bpoint in time\b|\bday\b|\bhours?\b|"
    r"\bstart|\bend\b|\branges?\b|\bsince\b|\buntil\b|\bbefore\b|\bafter\b|\bcreated\b|\bexpir|"
    r"\bwhen\b|\boldest\b|\blatest\b|\bnewest\b|\bfrom\b",
    re.IGNORECASE,
)
_ID_EXAMPLE = re.compile(r"\b\d{6,}\.\d+\b|\bids?\b|\bidentifier\b|\bmessage\b", re.IGNORECASE)


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
                evidence=f"{_prop_path(name)}: " + trim(description or "(no description)", 90),
                path=_prop_path(name),
                suggestion=f"Add {advice} to `{name}`.",
            )


# --- MCP203 phantom-parameter -------------------------------------------------------------------

_INJECTED = frozenset({"ctx", "context", "self", "cls", "args", "kwargs", "request", "progress"})
# Words that sit before "parameter" without naming one ("the optional parameter").
_NOT_NAMES = frozenset(
    words(
        "a an the this that these those each every any all other same first second third last next "
        "previous following above below optional required additional extra named input output query "
        "path header headers body url search filter filters tool tools function json string boolean "
        "integer number array object valid invalid new old custom default specific single multiple "
        "various several given different mandatory relevant corresponding appropriate such its their "
        "your his her our my one two both which what no some more config configuration request "
        "response form sort sorting filtering pagination per with without as of to in on or and for "
        "by from is are be use using set pass provide specify supply either omit it them you we http "
        "get post api cli command line environment env template type value values data key keys name "
        "names true false null none then also only just not instead first later now here there when "
        "where while if unless so but yet more less most least all none once again always never other "
        "otherwise"
    )
)
_CUE = re.compile(
    r"`?([A-Za-z_][A-Za-z0-9_]*)`?\s+(parameter|argument|param|arg|field|option|flag)s?\b", re.IGNORECASE
)
_IDENT = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)\b")
_USAGE_BEFORE = re.compile(
    r"\b(?:use|set|pass|provide|specify|supply|omit|if|when|unless)\s+(?:the\s+|a\s+|an\s+)?$", re.I
)
_USAGE_AFTER = re.compile(
    r"^\s*(?:is\s+(?:set|true|false|provided|given|omitted|empty|null|not|required|optional)|must\b|should\b|=|"
    r"can be\b|defaults? to\b|are (?:set|provided|given|omitted))",
    re.IGNORECASE,
)
_CHAIN_TRIGGER = re.compile(
    r"\b(?:[Uu]se|[Ss]et|[Pp]ass|[Pp]rovide|[Ss]pecify|[Ss]upply|[Ee]ither|[Oo]mit)\s+"
)
# The words _CHAIN_TRIGGER starts from, lower-cased: a description without one of them has no chain.
_CHAIN_VERBS = frozenset({"use", "set", "pass", "provide", "specify", "supply", "either", "omit"})
_CHAIN_TOKEN = re.compile(r"\s*(`?[A-Za-z_][A-Za-z0-9_]*`?|,|and/or)")
_CHAIN_CONNECT = frozenset({",", "or", "and", "and/or"})
_CHAIN_FILLER = frozenset(
    {"use", "provide", "specify", "pass", "set", "supply", "the", "a", "an", "either", "both"}
)
_SECTION = re.compile(
    r"^\s*(?:(?:input|key|tool|function)\s+)?(?:args|arguments|parameters|params|inputs)"
    r"(?:\s+explained)?\s*:\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_SECTION_ITEM = re.compile(r"^\s*[-*]?\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:\([^)]*\))?\s*(?::|—|–|-\s)")
_SECTION_END = re.compile(r"^\s*(?:returns?|raises|yields|examples?|notes?|usage)\s*:", re.IGNORECASE)
# Searched in the lower-cased sentence: case-insensitive patterns are several times slower.
_OUTPUT_SENTENCE = re.compile(
    r"\b(?:returns?|returned|response|results?|outputs?|yields|contains|includes|available|provides|shows"
    # "when `is_truncated` is true, call again": a retry depends on what came back
    r"|again|carry|carries)\b"
)
# Cue words that name an input for sure; a "field", "option" or "flag" is as often part of the output.
_INPUT_CUES = frozenset({"parameter", "argument", "param", "arg"})
_SENTENCE_SPLIT = re.compile(r"[.!?]\s+|\n")
_FILE_EXT = re.compile(r"\.(?:json|ya?ml|py|js|ts|md|txt|csv|toml)\b")
_URLS = re.compile(r"https?://\S+|\S+\.(?:json|ya?ml|py|js|ts|md|txt|csv|toml)\b")
_CAMEL = re.compile(r"[a-z][A-Z]")
_CUE_WORDS = ("param", "arg", "field", "option", "flag")


def _norm(name: str) -> str:
    return "".join(name_words(name))


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") and len(key) > 3 else key


def _schema_names(schema: Any, into: set[str], exact: set[str] | None = None) -> None:
    """Every property name at any depth plus enum, const and default strings: all legitimate mentions.

    `into` gets the normalized forms; `exact`, when given, the names as spelled.
    """
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key in ("properties", "$defs", "definitions") and isinstance(value, Mapping):
                into.update(_norm(str(name)) for name in value)
                if exact is not None:
                    exact.update(str(name) for name in value)
            elif key in ("enum", "examples") and isinstance(value, list):
                into.update(_norm(item) for item in value if isinstance(item, str))
                if exact is not None:
                    exact.update(item for item in value if isinstance(item, str))
                continue
            elif key in ("const", "default") and isinstance(value, str):
                into.add(_norm(value))
                if exact is not None:
                    exact.add(value)
                continue
            _schema_names(value, into, exact)
    elif isinstance(schema, list):
        for item in schema:
            _schema_names(item, into, exact)


def _property_names(schema: Any, into: set[str]) -> None:
    """Property names only, at any depth (`$defs` included): what a near miss may be a misspelling of."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, Mapping):
                into.update(str(name) for name in value)
            if key not in ("enum", "examples", "const", "default"):
                _property_names(value, into)
    elif isinstance(schema, list):
        for item in schema:
            _property_names(item, into)


def _section_names(text: str) -> Iterator[tuple[str, int, int]]:
    """Names the Args section lists at its own level; deeper lines describe a parameter's keys.

    `template_sequence: list of configurations, each containing:` followed by an indented
    `- template_id: ...` lists the keys of the items, not parameters of the tool.
    """
    for header in _SECTION.finditer(text):
        offset = header.end() + 1
        level: int | None = None
        for line in text[offset:].split("\n"):
            if not line.strip() or _SECTION_END.match(line):
                break
            item = _SECTION_ITEM.match(line)
            if item:
                indent = len(line) - len(line.lstrip())
                if level is None:
                    level = indent
                if indent <= level:
                    yield item.group(1), offset + item.start(1), offset + item.end(1)
            offset += len(line) + 1


def _chains(sentence: str) -> Iterator[tuple[list[str], bool]]:
    """Coordinated names after a usage verb: `use period or use start and end` -> [period, start, end]."""
    for trigger in _CHAIN_TRIGGER.finditer(sentence):
        items: list[str] = []
        pos = trigger.end()
        expect_item = True
        while (token := _CHAIN_TOKEN.match(sentence, pos)) is not None:
            word = token.group(1)
            bare = word.strip("`").lower()
            if bare in _CHAIN_CONNECT:
                if not items:
                    break
                expect_item = True
            elif bare not in _CHAIN_FILLER:
                if not expect_item:
                    break
                if sentence[token.end(1) : token.end(1) + 1] == "-":
                    break  # "a natural-language `prompt`": half of a compound word
                items.append(word)
                expect_item = False
            pos = token.end()
        if len(items) < 2:
            continue  # popping below only shortens it
        rest = sentence[pos:].lstrip().lower()
        if rest.startswith("of ") or rest.startswith("instead"):
            # "use the start of the range": the last word heads a noun phrase, not a name;
            # "use a or b instead" names tools to call, not parameters.
            items.pop()
        if len(items) < 2 or rest.startswith("instead") or rest.startswith("tool"):
            continue
        cued = re.match(r"(?:parameter|argument|param|arg|field|option)s?\b", rest) is not None
        yield items, cued


def _looks_like_identifier(word: str) -> bool:
    return word.startswith("`") or "_" in word or (word[:1].islower() and any(c.isupper() for c in word))


def _identifier_shaped(name: str) -> bool:
    """snake_case or camelCase: a spelling only code uses (not `Title`, `THREE` or `incomplete`)."""
    return ("_" in name.strip("_") and not name.isupper()) or _CAMEL.search(name) is not None


def _ordinary_word(name: str) -> bool:
    """A word of prose set in code style: `THREE`, `Omitted`; never a parameter name on its own."""
    if "_" in name or any(char.isdigit() for char in name):
        return False
    return name.isupper() or (name[:1].isupper() and name[1:].islower())


def _has_identifiers(sentence: str) -> bool:
    # Cheap gate before the identifier regex: backticks, snake_case or camelCase must be present.
    return "`" in sentence or "_" in sentence or _CAMEL.search(sentence) is not None


# After "pass `arXiv`": a following word of these kinds keeps the name a name; any other word makes
# it a modifier of that noun ("pass `arXiv` ids").
_NAME_FOLLOWERS = frozenset(
    words(
        "to as and or is are was be with when if for in on at by from must should can may will "
        "defaults default parameter parameters argument arguments param params arg args option flag "
        "set accepts takes then but not only also which that so instead"
    )
)
_NEXT_WORD = re.compile(r"\s*([A-Za-z]+)")
# "when `judgment` is present": a condition on the result, not on an input.
_PRESENCE_AFTER = re.compile(
    r"^\s*(?:is|are)\s+(?:present|included|returned|available|populated|missing|absent|shown|listed)\b",
    re.IGNORECASE,
)
_CONDITION_BEFORE = re.compile(r"\b(?:if|when|unless)\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_TOOL_AFTER = re.compile(r"^\s*(?:tool|instead|function|command|endpoint)\b", re.IGNORECASE)
# `read_file(path="a.txt", head=10)`: keyword arguments of an example call of this tool.
_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.-]*)\(([^()]{0,300})\)")
_KWARG = re.compile(r"(?:^|[,\s])([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)")
# `params.originalUserMessage`: a property path into an object parameter.
_DOTTED = re.compile(r"`?\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\b`?")


def _object_branches(root: Any, prop: Any) -> list[Mapping[str, Any]]:
    """The object schemas a value of `prop` may be: itself, its `$ref`, its branches, its items."""
    found: list[Mapping[str, Any]] = []
    for variant in property_variants(root, prop):
        found.append(variant)
        items = variant.get("items")
        if isinstance(items, Mapping):
            found.extend(property_variants(root, items))
    return found


def dotted_phantom(root: Any, path: str) -> tuple[str, list[str]] | None:
    """(missing segment path, names it could have meant) for `a.b.c` when `a` is a parameter and some
    later segment is not a property of the object before it; None when the path resolves or the
    object does not declare its properties (then anything may be in it).
    """
    parts = path.split(".")
    props = root.get("properties") if isinstance(root, Mapping) else None
    if not isinstance(props, Mapping) or parts[0] not in props:
        return None
    current: Any = props[parts[0]]
    for index, part in enumerate(parts[1:], start=1):
        declared: dict[str, Any] = {}
        open_ended = False
        for branch in _object_branches(root, current):
            inner = branch.get("properties")
            if isinstance(inner, Mapping):
                declared.update(inner)
            if branch.get("additionalProperties") not in (None, False) or "patternProperties" in branch:
                open_ended = True
        if not declared or open_ended:
            return None
        if part not in declared:
            return ".".join(parts[: index + 1]), list(declared)
        current = declared[part]
    return None


def _about_result(text: str, position: int) -> bool:
    """Whether the sentence of `text` around `position` talks about what the tool returns."""
    starts = [match.end() for match in _SENTENCE_SPLIT.finditer(text, 0, position)]
    following = _SENTENCE_SPLIT.search(text, position)
    sentence = text[starts[-1] if starts else 0 : following.start() if following else len(text)]
    return _OUTPUT_SENTENCE.search(sentence.lower()) is not None


def _names_a_property_in_words(sentence: str, word: str, props: set[str]) -> bool:
    """Whether `word` and the word after it spell a property: "job ID" for `jobId`."""
    following = re.search(rf"\b{re.escape(word)}\s+([A-Za-z][A-Za-z0-9]*)", sentence)
    return following is not None and _norm(word + following.group(1)) in props


def _containing(name: str, choices: list[str]) -> list[str]:
    """The one property whose name holds the mention's words in order: `depth` -> `max_depth`."""
    wanted = name_words(name)
    size = len(wanted)
    hits = [
        choice
        for choice in choices
        if any(name_words(choice)[i : i + size] == wanted for i in range(len(name_words(choice)) - size + 1))
    ]
    return hits if len(hits) == 1 else []


def phantom_mentions(
    tool: Tool, tool_names: set[str], elsewhere: frozenset[str] = frozenset()
) -> list[tuple[str, str, str | None]]:
    """(name, evidence, what it probably meant) of names the description uses as parameters that the
    schema does not have, or spells differently (`total_thoughts` for `totalThoughts`).

    `tool_names` holds every tool name of the server (normalized): a mention of a tool is not a
    parameter, and a sentence that names another tool is about that tool's parameters. `elsewhere`
    holds other normalized names the server legitimately uses: its other tools' parameters ("skip if
    search used abstract_mode=full") and the result fields its descriptions pass as values
    (`start=next_start`); only a misspelling of this tool's own parameter is reported for those.
    """
    text = tool.description
    if not text:
        return []
    known: set[str] = set()
    exact: set[str] = set()
    spelled: dict[str, str] = {}
    loaded = False
    found: dict[str, tuple[str, str | None]] = {}

    def load() -> None:
        nonlocal loaded
        if loaded:
            return
        loaded = True
        _schema_names(tool.input_schema, known, exact)
        # Fields of the declared result are legitimate mentions too ("when `judgment` is present").
        output: set[str] = set()
        _schema_names(tool.raw.get("outputSchema"), output)
        known.update(output)
        # Code-styled names in the result's own descriptions are fields of it too ("each with `endDate`").
        known.update(_norm(name) for name in _output_prose_names(tool.raw.get("outputSchema")))
        known.update(elsewhere)
        known.add(_norm(tool.name))
        names: set[str] = set()
        _property_names(tool.input_schema, names)
        for name in sorted(names):
            spelled.setdefault(_norm(name), name)

    def consider(raw: str, evidence: str, near_only: bool = False) -> None:
        """Record `raw` if the schema lacks it; `near_only` records only a misspelt property."""
        name = raw.strip("`")
        key = _norm(name)
        if len(name) < 2 or name.lower() in _INJECTED or key in tool_names or name.isdigit():
            return
        if _ordinary_word(name) or name in found:
            return
        load()
        if name in exact:
            return
        if key in known:
            meant = spelled.get(key)
            if meant is not None and meant != name and _identifier_shaped(name):
                found[name] = (evidence, meant)
            return
        plural = spelled.get(_singular(key)) or spelled.get(key + "s")
        if plural is not None:
            found[name] = (evidence, plural)
            return
        if near_only:
            close = difflib.get_close_matches(name, list(spelled.values()), n=1, cutoff=0.85)
            if close and _identifier_shaped(name):
                found[name] = (evidence, close[0])
            return
        close = _containing(name, list(spelled.values()))
        if not close:
            close = difflib.get_close_matches(name, list(spelled.values()), n=1, cutoff=0.75)
        if not close:
            by_key = difflib.get_close_matches(key, list(spelled), n=1, cutoff=0.8)
            close = [spelled[by_key[0]]] if by_key else []
        found[name] = (evidence, close[0] if close else None)

    if ":\n" in text:
        for name, start, end in _section_names(text):
            consider(name, snippet(text, start, end))
    if "=" in text and "(" in text:
        own = _norm(tool.name)
        for call in _CALL.finditer(text):
            if _norm(call.group(1).rsplit(".", 1)[-1]) != own:
                continue  # an example of another tool, or of a function in the tool's domain
            for kwarg in _KWARG.finditer(call.group(2)):
                consider(kwarg.group(1), trim(call.group(0)))
    if "." in text and tool.properties:
        for match in _DOTTED.finditer(text):
            missing = dotted_phantom(tool.input_schema, match.group(1))
            if missing is not None and _about_result(text, match.start()):
                # "The status result's `exchange.skippedProviders`": a path into what comes back.
                continue
            if missing is not None and missing[0] not in found:
                path, choices = missing
                close = difflib.get_close_matches(path.rsplit(".", 1)[-1], choices, n=1, cutoff=0.6)
                meant = path.rsplit(".", 1)[0] + "." + close[0] if close else None
                found[path] = (snippet(text, match.start(), match.end()), meant)
    # A sentence is looked at only for an identifier, a cue word or a chain after a usage verb; a
    # description with none of them anywhere (most) is never split. The shared analysis has the
    # lower-cased text and its words; URL removal below can only take those away, never add them.
    # A sentence is a piece of `clean`, whose URL removal leaves a space, so it can hold an
    # identifier or a cue word only if the whole text does.
    shared = analysis(tool)
    text_identifiers = _has_identifiers(text)
    text_cue = any(map(shared.lowered.__contains__, _CUE_WORDS))
    if not (text_identifiers or text_cue or not _CHAIN_VERBS.isdisjoint(shared.words)):
        return [(name, evidence, meant) for name, (evidence, meant) in found.items()]
    clean = _URLS.sub(" ", text) if "://" in text or _FILE_EXT.search(text) else text
    props: set[str] | None = None
    for sentence in _SENTENCE_SPLIT.split(clean):
        if not sentence:
            continue
        identifiers = text_identifiers and _has_identifiers(sentence)
        lowered = sentence.lower()
        has_cue = text_cue and any(map(lowered.__contains__, _CUE_WORDS))
        # A chain needs a connector and a usage verb: the trigger _chains() starts from.
        has_chain = (" or " in lowered or " and " in lowered or "," in lowered) and _CHAIN_TRIGGER.search(
            sentence
        ) is not None
        if not (identifiers or has_cue or has_chain):
            continue
        if identifiers and any(tool_mentioned(sentence, tool_names)):
            continue
        output = _OUTPUT_SENTENCE.search(lowered) is not None
        if has_cue:
            for match in _CUE.finditer(sentence):
                word = match.group(1)
                cue = match.group(2).lower()
                if word.lower() in _NOT_NAMES or cue == "field":
                    continue  # "the `weakCounters` field": a field is as often output as input
                if cue not in _INPUT_CUES and (output or not _looks_like_identifier(word)):
                    continue
                if output and not _looks_like_identifier(match.group(0)):
                    continue
                plural = match.group(0).rstrip().lower().endswith("s")
                if plural and not _identifier_shaped(word):
                    continue  # "with `incomplete` parameters": an adjective of the parameters
                consider(word, snippet(sentence, match.start(), match.end()))
        if has_chain:
            for items, cued in _chains(sentence):
                if props is None:
                    props = {_norm(name) for name in tool.properties}
                anchored = cued or any(_norm(item.strip("`")) in props for item in items)
                for item in items:
                    if item.strip("`").lower() in _NOT_NAMES:
                        continue
                    if _names_a_property_in_words(sentence, item.strip("`"), props):
                        continue  # "job ID" is `jobId` in words, not a parameter named `job`
                    if anchored or (_looks_like_identifier(item) and not output):
                        consider(item, trim(sentence))
        if not identifiers:
            continue
        # Keyword arguments of example calls were read above, for this tool's calls only.
        calls = [call.span(2) for call in _CALL.finditer(sentence)] if "(" in sentence else []
        for match in _IDENT.finditer(sentence):
            if any(start <= match.start() < end for start, end in calls):
                continue
            word = match.group(1) or match.group(2)
            if sentence[match.end() : match.end() + 1] == ".":
                continue  # a dotted path, checked above against the wrapper's properties
            before = sentence[max(0, match.start() - 30) : match.start()]
            after = sentence[match.end() : match.end() + 40]
            if _TOOL_AFTER.match(after) or _PRESENCE_AFTER.match(after):
                continue
            used_after = _USAGE_AFTER.match(after) is not None
            used_before = _USAGE_BEFORE.search(before) is not None
            if used_before and not used_after:
                if _CONDITION_BEFORE.search(before):
                    continue  # "if `x`" without "is set/true/...": a condition on anything
                follower = _NEXT_WORD.match(after)
                if follower and follower.group(1).lower() not in _NAME_FOLLOWERS:
                    continue  # "pass `arXiv` ids": the name qualifies the noun after it
            if used_before or used_after:
                # In a sentence about the result a name may be a field of it: only a misspelt
                # parameter is reported there ("narrow results with `results_filter`").
                consider(word, snippet(sentence, match.start(), match.end()), near_only=output)
    return [(name, evidence, meant) for name, (evidence, meant) in found.items()]


def tool_mentioned(sentence: str, tool_names: set[str]) -> Iterable[bool]:
    for match in _IDENT.finditer(sentence):
        yield _norm(match.group(1) or match.group(2)) in tool_names


_VALUE_NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\s*=\s*`?([A-Za-z_][A-Za-z0-9_]*)")
_OUTPUT_PROSE_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def _output_prose_names(schema: Any) -> set[str]:
    """Code-styled names in the descriptions of a result schema, at any depth."""
    found: set[str] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            text = node.get("description")
            if isinstance(text, str) and "`" in text:
                found.update(_OUTPUT_PROSE_NAME.findall(text))
            stack.extend(value for value in node.values() if isinstance(value, (Mapping, list)))
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _server_names(tools: Sequence[Tool]) -> frozenset[str]:
    """The normalized names the server uses besides a tool's own: every tool's parameters and the
    result fields its descriptions pass as values (`start=next_start`). One set for the server: a
    tool's own parameters in it change nothing, since those are known to it anyway."""
    names: set[str] = set()
    for tool in tools:
        if "=" in tool.description:
            names.update(_norm(name) for name in _VALUE_NAME.findall(tool.description))
        names.update(_norm(name) for name in tool.properties)
    return frozenset(names)


@check_function("phantom_parameter")
def phantom_parameter(ctx: CheckContext) -> Iterator[Hit]:
    # The tool's own name is also in this set; it is a legitimate mention either way.
    all_names = {_norm(tool.name) for tool in ctx.server.tools}
    elsewhere = _server_names(ctx.server.tools)
    for tool in ctx.server.tools:
        for name, evidence, meant in phantom_mentions(tool, all_names, elsewhere):
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={"parameter": name, "hint": f"; did you mean `{meant}`?" if meant else ""},
                evidence=evidence,
                path="description",
                suggestion=f"Did you mean `{meant}`?" if meant else None,
            )


# --- parameters at any depth, shared by MCP206-MCP208 ----------------------------------------------


def walk_parameters(root: Any) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """(name, JSON path, schema) of every property of the input schema, nested ones included.

    Object properties and array items' properties are followed (through `$ref` and `anyOf`/`oneOf`
    branches). A schema object already entered on the way down is never entered again, whatever
    keyword (`items`, a branch, a `$ref`) leads back to it, so a recursive model cannot loop; and the
    walk stops after `MAX_WALKED` parameters, so a schema that shares definitions many ways cannot
    blow up either.
    """
    if not isinstance(root, Mapping):
        return
    walked = 0
    stack: list[tuple[Mapping[str, Any], str, frozenset[int]]] = [(root, "inputSchema", frozenset())]
    while stack:
        node, path, entered = stack.pop(0)
        props = node.get("properties")
        if not isinstance(props, Mapping):
            continue
        inside = entered | {id(node)}
        for name, prop in props.items():
            if not isinstance(prop, Mapping):
                continue
            walked += 1
            if walked > MAX_WALKED:
                return
            where = f"{path}.properties.{name}"
            yield str(name), where, prop
            for variant in property_variants(root, prop):
                if "properties" in variant and id(variant) not in inside:
                    stack.append((variant, where, inside))
                items = variant.get("items")
                if isinstance(items, Mapping):
                    for inner in property_variants(root, items):
                        if "properties" in inner and id(inner) not in inside:
                            stack.append((inner, f"{where}.items", inside))


def _allowed_types(root: Any, prop: Mapping[str, Any]) -> set[str] | None:
    """Every JSON type a value of `prop` may have; None when some branch leaves the type open."""
    found: set[str] = set()
    variants = property_variants(root, prop)
    branches = [v for v in variants if v is not prop and "$ref" not in v] or variants
    if any(key in prop for key in ("anyOf", "oneOf")):
        branches = [v for v in variants if v is not prop]
    for variant in branches:
        kind = variant.get("type")
        if isinstance(kind, str):
            found.add(kind)
        elif isinstance(kind, list) and all(isinstance(item, str) for item in kind):
            found.update(kind)
        elif "const" in variant or "enum" in variant:
            continue
        elif "$ref" in variant and resolve_local_ref(root, variant) is not variant:
            continue  # its target is one of the variants too
        else:
            return None
    return found or None


def _fits(value: Any, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return not isinstance(value, bool) and (
            isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        )
    if kind == "number":
        return not isinstance(value, bool) and isinstance(value, (int, float))
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, Mapping)
    return True  # a type this check does not know: give it the benefit of the doubt


# --- MCP206 invalid-default ------------------------------------------------------------------------


@check_function("invalid_default")
def invalid_default(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, path, prop in walk_parameters(root):
            if "default" not in prop:
                continue
            default = prop["default"]
            shown = trim(json.dumps(default), 40)
            types = _allowed_types(root, prop)
            enum = prop.get("enum")
            if types is not None and not any(_fits(default, kind) for kind in types):
                expected = " or ".join(sorted(types))
                if default is None:
                    nullable = json.dumps([*sorted(types), "null"])
                    fix = f'Remove "default": null, or allow null: "type": {nullable}.'
                else:
                    fix = f"Give `{name}` a default of type {expected}, or remove it."
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={
                        "parameter": name,
                        "default": shown,
                        "reason": f"is not of its type ({expected})",
                    },
                    evidence=f"{path}: type {expected}, default {shown}",
                    path=f"{path}.default",
                    suggestion=fix,
                )
            elif isinstance(enum, list) and enum and default not in enum:
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "default": shown, "reason": "is not one of its enum values"},
                    evidence=trim(f"{path}: enum {json.dumps(enum)}, default {shown}"),
                    path=f"{path}.default",
                    suggestion=f"Make the default one of {trim(json.dumps(enum), 60)}, or remove it.",
                )


# --- MCP207 unenforced-range -----------------------------------------------------------------------

_NUMBER = r"(-?\d{1,9}(?:\.\d+)?)"
# A unit right after the number: "max 512KB" bounds a size in other units than the value's.
_UNIT_AFTER = (
    r"(?!\s*(?:[kmgt]i?b\b|kb|mb|gb|%|k\b|chars?\b|characters\b|bytes?\b|tokens?\b|words?\b|lines?\b|"
    r"m?s\b|secs?\b|seconds?\b|mins?\b|minutes?\b|h\b|hrs?\b|hours?\b|days?\b|weeks?\b|months?\b|"
    r"years?\b|px\b|pixels?\b|[.,]\d))"
)
_RANGES = re.compile(
    rf"\bbetween\s+{_NUMBER}\s+and\s+{_NUMBER}{_UNIT_AFTER}"
    rf"|\bfrom\s+{_NUMBER}\s+to\s+{_NUMBER}{_UNIT_AFTER}"
    rf"|(?:\(|\brange:?\s*|\brange of\s+|\bvalues?:?\s+){_NUMBER}\s*(?:-|–|\.\.|to)\s*{_NUMBER}{_UNIT_AFTER}",
    re.IGNORECASE,
)
_MAXIMA = re.compile(
    r"\b(?:max(?:imum)?(?:\s+(?:value|is|of))?:?|at most|no more than|must not exceed|cannot exceed|<=|≤)"
    rf"\s*{_NUMBER}\b{_UNIT_AFTER}",
    re.IGNORECASE,
)
_MINIMA = re.compile(
    rf"\b(?:min(?:imum)?(?:\s+(?:value|is|of))?:?|at least|no less than|>=|≥)\s*{_NUMBER}\b{_UNIT_AFTER}",
    re.IGNORECASE,
)
_ONE_OF = re.compile(
    r"\b(?:one of|must be either|either|(?:possible|valid|allowed) values(?: are)?)"
    r":?\s+((?:[`'\"]?[\w./-]{1,30}[`'\"]?\s*(?:,\s*(?:or\s+)?|\s+or\s+|\s*\|\s*))+"
    r"[`'\"]?[\w./-]{1,30}[`'\"]?)",
    re.IGNORECASE,
)
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*(?:or\s+)?|\s+or\s+|\|)\s*")
# Words a set is never made of: "one of the following", "either this or that tool".
_NOT_VALUES = frozenset(
    words("the a an these those them this that it its following above below other your our")
)


def _as_number(text: str) -> float:
    return float(text)


def _param_texts(tool: Tool, name: str, prop: Mapping[str, Any]) -> str:
    texts = [
        v["description"]
        for v in property_variants(tool.input_schema, prop)
        if isinstance(v.get("description"), str)
    ]
    return " ".join(texts)


def _stated_set(text: str) -> list[str] | None:
    match = _ONE_OF.search(text)
    if match is None:
        return None
    items = [item.strip("`'\"").rstrip(".") for item in _ITEM_SPLIT.split(match.group(1).strip())]
    items = [item for item in items if item]
    if len(items) < 2 or any(item.lower() in _NOT_VALUES for item in items):
        return None
    quoted = any(char in match.group(1) for char in "`'\"")
    if not quoted and any(not re.fullmatch(r"[a-z0-9_.-]+", item) for item in items):
        return None  # unquoted values must look like values (lower-case tokens), not prose
    return items


@check_function("unenforced_range")
def unenforced_range(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, path, prop in walk_parameters(root):
            variants = property_variants(root, prop)
            if any(key in v for v in variants for key in ("enum", "const")):
                continue
            text = _param_texts(tool, name, prop)
            if not text:
                continue
            kinds: set[str] = set()
            for variant in variants:
                kind = variant.get("type")
                kinds.update([kind] if isinstance(kind, str) else kind if isinstance(kind, list) else [])
            numeric = bool(kinds & {"integer", "number"})
            if numeric:
                has_min = any(k in v for v in variants for k in ("minimum", "exclusiveMinimum"))
                has_max = any(k in v for v in variants for k in ("maximum", "exclusiveMaximum"))
                stated_min: str | None = None
                stated_max: str | None = None
                evidence = ""
                span = _RANGES.search(text)
                if span is not None:
                    low, high = [group for group in span.groups() if group is not None][:2]
                    if _as_number(low) < _as_number(high):
                        stated_min, stated_max, evidence = low, high, span.group(0)
                if stated_max is None and (top := _MAXIMA.search(text)) is not None:
                    stated_max, evidence = top.group(1), top.group(0)
                if stated_min is None and (bottom := _MINIMA.search(text)) is not None:
                    stated_min, evidence = bottom.group(1), evidence or bottom.group(0)
                missing = []
                if stated_min is not None and not has_min:
                    missing.append(f'"minimum": {stated_min}')
                if stated_max is not None and not has_max:
                    missing.append(f'"maximum": {stated_max}')
                if missing:
                    yield Hit(
                        tool=tool.name,
                        subject=name,
                        fields={
                            "parameter": name,
                            "stated": trim(evidence.strip("( "), 40),
                            "missing": "minimum/maximum",
                        },
                        evidence=f"{path}.description: " + trim(text, 90),
                        path=path,
                        suggestion=f"Add {', '.join(missing)} to `{name}`.",
                    )
            elif "string" in kinds and not any("pattern" in v or "format" in v for v in variants):
                values = _stated_set(text)
                if values:
                    yield Hit(
                        tool=tool.name,
                        subject=name,
                        fields={
                            "parameter": name,
                            "stated": "one of " + trim(", ".join(values), 40),
                            "missing": "enum",
                        },
                        evidence=f"{path}.description: " + trim(text, 90),
                        path=path,
                        suggestion=f'Add "enum": {json.dumps(values)} to `{name}`.',
                    )


# --- MCP208 required-mismatch ----------------------------------------------------------------------

# "Required.", "(required)", "REQUIRED:", "This parameter is required"; not "required if/when/for ...".
_SAYS_REQUIRED = re.compile(
    r"^\s*\(?required\b\)?"
    r"(?!\s+(?:if|when|for|unless|only|to|by|in|with|fields?|parameters?|permissions?|scopes?))"
    r"|\(required\)|\[required\]"
    r"|\b(?:this (?:parameter|field|argument|value) is|is always) required\b"
    r"(?!\s+(?:if|when|for|unless|only))"
    r"|[.;]\s+required[.!]?\s*$",
    re.IGNORECASE,
)
_SAYS_OPTIONAL = re.compile(
    r"^\s*\(?optional\b\)?|\(optional\)|\[optional\]"
    r"|\b(?:this (?:parameter|field|argument) is) optional\b|[.;]\s+optional[.!]?\s*$",
    re.IGNORECASE,
)
_NOT_STATED = re.compile(
    r"\bnot required\b|\bif required\b|\bas required\b|\bwhere required\b", re.IGNORECASE
)


@check_function("required_mismatch")
def required_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        required = set(tool.required)
        root = tool.input_schema
        for name, prop in tool.properties.items():
            if not isinstance(prop, Mapping):
                continue
            text = _param_texts(tool, str(name), prop)
            if not text or _NOT_STATED.search(text):
                continue
            if name not in required and _SAYS_REQUIRED.search(text) and _SAYS_OPTIONAL.search(text) is None:
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "says": "required", "schema": "optional"},
                    evidence=f"{_prop_path(name)}.description: " + trim(text, 90),
                    path=_prop_path(name),
                    suggestion=f'Add "{name}" to `required`, or stop calling it required.',
                )
            elif name in required and _SAYS_OPTIONAL.search(text) and _SAYS_REQUIRED.search(text) is None:
                has_default = any("default" in v for v in property_variants(root, prop))
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "says": "optional", "schema": "required"},
                    evidence=f"{_prop_path(name)}.description: " + trim(text, 90),
                    path=_prop_path(name),
                    suggestion=f'Remove "{name}" from `required`'
                    + (" (it has a default)." if has_default else ", or stop calling it optional."),
                )
