"""What a rewrite may say about a tool: facts read from its schema, annotations, siblings and traces.

Every sentence the offline augmentor writes is one of these facts in a fixed phrasing, so nothing in a
rewrite is made up: parameter names, types, defaults, enums, ranges and formats come from the input
schema (nested properties included), examples from successful recorded calls (their real arguments
and a trimmed real result), limitations from recorded errors and schema constraints, and guidelines
from annotations, required parameters and sibling tools whose names share a subject word.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_lint.check.functions._util import words
from mcp_lint.model import Tool
from mcp_lint.schema_walk import Walked, nested_objects, property_variants, walk_schema
from mcp_lint.traces import REDACTED, TraceRecord
from mcp_lint.words import name_words

# How much of a recorded result or error a description quotes: enough to show the shape.
QUOTE_LIMIT = 80
# How many parameters one sentence lists before it says "and N more".
MAX_LISTED = 6
_MAX_ENUM = 5

# Verbs of a name whose subject words tell nothing about which sibling is related.
_VERBS = frozenset(
    words(
        "get list read search find fetch query create add insert update edit set delete remove send run make "
        "show view open close start stop check describe"
    )
)
# Verbs that only look: a tool named with one is no alternative to one that changes something.
_READ_VERBS = frozenset(words("get list read search find fetch query show view describe lookup look count"))
# Verbs that change something: a readOnlyHint on such a tool contradicts it (contradictory-annotations
# reports that), so a rewrite must not repeat the claim.
_WRITE_VERBS = frozenset(
    words(
        "create add insert update edit set delete remove send write drop post put move rename cancel "
        "upload publish submit merge push reset clear destroy kill"
    )
)


@dataclass(frozen=True)
class Parameter:
    """One input parameter as its schema states it (`path` is dotted for nested fields)."""

    path: str
    kinds: tuple[str, ...]
    required: bool
    documented: bool
    default: Any = None
    has_default: bool = False
    enum: tuple[Any, ...] = ()
    fmt: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    max_items: int | None = None
    pattern: str | None = None
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Grounding:
    """Everything the rewrite of one tool may draw on."""

    tool: Tool
    parameters: tuple[Parameter, ...]
    siblings: Mapping[str, str] = field(default_factory=dict)  # related sibling -> its first sentence
    successes: tuple[TraceRecord, ...] = ()
    failures: tuple[TraceRecord, ...] = ()
    output_fields: tuple[tuple[str, str | None], ...] = ()  # (field, JSON type) of what it returns

    @property
    def names(self) -> frozenset[str]:
        """Every parameter path and the last segment of each: what a rewrite may name as a parameter."""
        found: set[str] = set()
        for parameter in self.parameters:
            found.add(parameter.path)
            found.add(parameter.path.rsplit(".", 1)[-1].removesuffix("[]"))
        return frozenset(found)


def literal(value: Any) -> str:
    """A value as JSON (what the agent sends), compact."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _first(variants: Sequence[Mapping[str, Any]], key: str) -> Any:
    return next((variant[key] for variant in variants if key in variant), None)


def _kinds(variants: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    kinds: list[str] = []
    for variant in variants:
        kind = variant.get("type")
        for item in [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []:
            if isinstance(item, str) and item != "null" and item not in kinds:
                kinds.append(item)
    return tuple(kinds)


def _parameter(root: Any, item: Walked, path: str) -> Parameter:
    variants = property_variants(root, item.schema)
    # the fields of the object (or array of objects) it is: the first one that declares some
    objects = nested_objects(root, item.schema)
    nested: Mapping[str, Any] = next(
        (schema["properties"] for schema, _ in objects if schema["properties"]), {}
    )
    enum = _first(variants, "enum")
    const = _first(variants, "const")
    if enum is None and const is not None:
        enum = [const]
    return Parameter(
        path=path,
        kinds=_kinds(variants),
        required=item.name in _names(item.owner.get("required")),
        documented=any(str(variant.get("description") or "").strip() for variant in variants),
        default=_first(variants, "default"),
        has_default=any("default" in variant for variant in variants),
        enum=tuple(enum) if isinstance(enum, list) else (),
        fmt=_first(variants, "format") if isinstance(_first(variants, "format"), str) else None,
        minimum=_number(_first(variants, "minimum")),
        maximum=_number(_first(variants, "maximum")),
        min_length=_count(_first(variants, "minLength")),
        max_length=_count(_first(variants, "maxLength")),
        max_items=_count(_first(variants, "maxItems")),
        pattern=_first(variants, "pattern") if isinstance(_first(variants, "pattern"), str) else None,
        fields=tuple(str(key) for key in nested),
    )


def _names(value: Any) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def schema_parameters(tool: Tool) -> tuple[Parameter, ...]:
    """Every parameter of the input schema, nested object fields after their parent (`a.b`, `a[].b`)
    and four levels deep at most; of a field that may be several objects, the first one's fields."""
    root = tool.input_schema
    found: list[Parameter] = []
    paths: dict[int, tuple[Walked, str]] = {}  # id of a parameter met -> (it, its dotted path)
    for item in walk_schema(root, depth_first=True, first_object=True, descend=lambda item: item.depth < 3):
        path = item.name
        if item.parent is not None:
            path = f"{paths[id(item.parent)][1]}{'[]' * len(item.through)}.{item.name}"
        paths[id(item)] = (item, path)
        found.append(_parameter(root, item, path))
    return tuple(found)


def subjects(name: str) -> set[str]:
    """The first four letters of each subject word of a tool name (its verbs left out)."""
    return {word[:4] for word in name_words(name) if len(word) >= 3 and word not in _VERBS}


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def first_sentence(text: str, limit: int = QUOTE_LIMIT) -> str:
    flat = " ".join(text.split())
    head = _SENTENCE_END.split(flat, 1)[0]
    return trimmed(head, limit)


def trimmed(text: str, limit: int = QUOTE_LIMIT) -> str:
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0] if " " in flat[: limit - 1] else flat[: limit - 1]
    return cut.rstrip(",;:") + "…"


def _kind(name: str) -> str | None:
    """Whether a verb of the name says the tool writes or reads; None when none does (`book_room`)."""
    named = set(name_words(name))
    if named & _WRITE_VERBS:
        return "writes"
    return "reads" if named & _READ_VERBS else None


def related_siblings(tool: Tool, siblings: Mapping[str, str], limit: int = 2) -> dict[str, str]:
    """Siblings whose names share a subject word with this tool's (`get_forecast`, `get_forecast_map`),
    most shared first, each with the first sentence of its own description (never an empty one).

    Only siblings of the same kind are alternatives: one that changes something is never the tool to
    use "instead" of one that only reads (`create_directory` for `list_directory`), nor the reverse.
    """
    own = subjects(tool.name)
    if not own:
        return {}
    kind = _kind(tool.name)
    if kind is None and (tool.annotations or {}).get("readOnlyHint") is True:
        kind = "reads"
    ranked = sorted(
        (
            (-len(own & subjects(name)), name)
            for name, description in siblings.items()
            if name != tool.name
            and description.strip()
            and own & subjects(name)
            and (kind is None or _kind(name) in (None, kind))
        ),
    )
    # Quoted without code style: a sibling's own parameter in backticks would read as one of this tool's.
    return {name: first_sentence(siblings[name]).replace("`", "") for _, name in ranked[:limit]}


def _usable(record: TraceRecord) -> bool:
    """A success worth quoting: no redacted argument, and a result with some text."""
    return REDACTED not in json.dumps(record.arguments, default=str) and bool(record.result_text().strip())


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"))


# Not json_types.json_type: a sampled result field's type tells an integer from a number, and a null
# sample says nothing about the field's type (None).
def _sampled_type(value: Any) -> str | None:
    if isinstance(value, Mapping):
        return "object"
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), None)


def _output_fields(tool: Tool, successes: Sequence[TraceRecord]) -> tuple[tuple[str, str | None], ...]:
    schema = tool.raw.get("outputSchema")
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        return tuple(
            (str(key), (_kinds(property_variants(schema, value)) or (None,))[0])
            for key, value in schema["properties"].items()
        )
    for record in successes:
        value = record.structured
        if not isinstance(value, Mapping):
            try:
                value = json.loads(record.result_text())
            except ValueError:
                continue
        if isinstance(value, Mapping) and value:
            return tuple((str(key), _sampled_type(item)) for key, item in value.items())
    return ()


def ground(tool: Tool, siblings: Mapping[str, str], traces: Sequence[TraceRecord] = ()) -> Grounding:
    """The facts about `tool`; `siblings` maps the server's other tools to their descriptions and
    `traces` are this tool's recorded calls."""
    mine = [record for record in traces if record.tool == tool.name]
    successes = tuple(record for record in mine if record.succeeded and _usable(record))
    failures = tuple(record for record in mine if not record.succeeded)
    return Grounding(
        tool=tool,
        parameters=schema_parameters(tool),
        siblings=related_siblings(tool, siblings),
        successes=successes,
        failures=failures,
        output_fields=_output_fields(tool, successes),
    )


def writes(tool: Tool) -> bool:
    """Whether the tool's name says it changes something."""
    return bool(set(name_words(tool.name)) & _WRITE_VERBS)


def max_enum() -> int:
    return _MAX_ENUM
