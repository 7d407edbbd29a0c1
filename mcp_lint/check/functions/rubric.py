"""Rubric findings: a component the jury scored below its threshold is a smell."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, property_variants, schema_texts, text_tokens, words
from mcp_lint.model import Tool

# A format's shape, as a placeholder: a value of that shape is the schema's promise, not an invention.
_FORMAT_PLACEHOLDERS = {
    "date": "<YYYY-MM-DD>",
    "date-time": "<ISO 8601 date-time>",
    "time": "<HH:MM:SS>",
    "duration": "<ISO 8601 duration>",
    "email": "<email>",
    "uri": "<url>",
    "uuid": "<uuid>",
}


def _example_value(root: Any, name: str, schema: Any) -> str:
    """A value the schema itself gives (`examples`, `enum`, `const`, `default`), else a placeholder.

    Never a made-up number: `tail=1.5` or `max_length=10` (where the default is 5000) mislead more
    than `<tail>` does.
    """
    variants = property_variants(root, schema)
    for key in ("examples", "enum"):
        values = _first(variants, key)
        if isinstance(values, list) and values:
            return _python_literal(values[0])
    for key in ("const", "default", "example"):
        for variant in variants:
            if key in variant and variant[key] is not None:
                return _python_literal(variant[key])
    fmt = _first(variants, "format")
    if isinstance(fmt, str) and fmt in _FORMAT_PLACEHOLDERS:
        return _FORMAT_PLACEHOLDERS[fmt]
    return f"<{name}>"


def _python_literal(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "True", False: "False", None: "None"}[value]
    if isinstance(value, (int, float, str)):
        return repr(value)
    return json.dumps(value)


def _example_call(tool: Tool) -> str:
    # Required parameters first: they are what every call has to get right.
    names = list(tool.properties)
    required = [name for name in tool.required if name in tool.properties]
    chosen = (required + [name for name in names if name not in required])[:3]
    arguments = [
        f"{name}={_example_value(tool.input_schema, name, tool.properties[name])}" for name in chosen
    ]
    return f"{tool.name}({', '.join(arguments)})"


# Words of a description or parameter description that show an example is already there.
_HAS_EXAMPLE = re.compile(
    r"\bexamples?\s*(?:usage\s*)?:|\be\.g\.|\bfor (?:example|instance)\b|\bexample call\b|\busage example\b",
    re.IGNORECASE,
)


def has_example(tool: Tool) -> bool:
    """Whether the description or a parameter already shows an example (a call, "e.g.", `examples`)."""
    if _HAS_EXAMPLE.search(tool.description) or f"{tool.name}(" in tool.description:
        return True
    for _, text in schema_texts(tool.input_schema):
        if _HAS_EXAMPLE.search(text):
            return True
    return _has_key(tool.input_schema, ("examples", "example"))


def _has_key(schema: Any, keys: tuple[str, ...]) -> bool:
    if isinstance(schema, Mapping):
        return any(key in schema for key in keys) or any(_has_key(value, keys) for value in schema.values())
    if isinstance(schema, list):
        return any(_has_key(item, keys) for item in schema)
    return False


_STEM = 4
_VERB_WORDS = frozenset(
    words(
        "get list read search find fetch query create add insert update edit set delete remove send run "
        "make show view open close start stop check"
    )
)


def _stems(name: str) -> set[str]:
    return {word[:_STEM] for word in name_words(name) if len(word) >= 3 and word not in _VERB_WORDS}


def related_sibling(
    tool: Tool, siblings: list[str], descriptions: Mapping[str, str] | None = None
) -> str | None:
    """The sibling a "use X instead" may name: the one sharing the most of this tool's subject words.

    `create_directory` and `read_file` share nothing, so neither is named for the other; a sibling
    is named only when it works on the same thing (`book_room` and `cancel_booking`). Siblings as
    close by name are told apart by their descriptions (given in `descriptions`), the way
    ambiguous-tools finds a look-alike; still tied, none is named.
    """
    own = _stems(tool.name)
    if not own:
        return None
    ranked = sorted(
        ((len(own & _stems(name)), name) for name in siblings if name != tool.name),
        key=lambda item: -item[0],
    )
    if not ranked or ranked[0][0] == 0:
        return None
    tied = [name for count, name in ranked if count == ranked[0][0]]
    if len(tied) == 1:
        return tied[0]
    if not descriptions:
        return None  # two siblings as close: naming either would be a guess
    mine = set(text_tokens(tool.description))
    if not mine:
        return None
    overlap = sorted(
        ((len(mine & set(text_tokens(descriptions.get(name, "")))) / len(mine), name) for name in tied),
        reverse=True,
    )
    best, runner_up = overlap[0][0], overlap[1][0]
    return overlap[0][1] if best >= 0.5 and best > runner_up else None


# Formats whose shape JSON Schema itself defines, so saying it adds nothing the schema does not promise.
_FORMAT_SHAPES = {
    "date": "a date, YYYY-MM-DD",
    "date-time": "a date-time, e.g. 2024-01-31T09:00:00Z",
    "time": "a time, HH:MM:SS",
    "duration": "an ISO 8601 duration, e.g. PT30M",
    "email": "an email address",
    "uri": "an absolute URI",
    "uuid": "a UUID",
}
# By JSON type, what an agent most often has to guess about such a parameter.
_TYPE_HINTS = {
    "integer": "its range and unit",
    "number": "its range and unit",
    "boolean": "what true changes",
    "array": "what each item is and how many are allowed",
    "object": "the fields it expects",
}
_MAX_PARAMETERS = 4
_MAX_ENUM = 5


def _first(variants: list[Mapping[str, Any]], key: str) -> Any:
    return next((variant[key] for variant in variants if key in variant), None)


def _parameter_hint(variants: list[Mapping[str, Any]], name: str) -> str:
    """What to say about one parameter, from what its schema already tells (nothing made up)."""
    enum = _first(variants, "enum")
    fmt = _first(variants, "format")
    kinds = [kind for variant in variants for kind in _types(variant) if kind != "null"]
    parts = name_words(name)
    if isinstance(enum, list) and enum:
        shown = ", ".join(json.dumps(value) for value in enum[:_MAX_ENUM])
        hint = f"what each of {shown}{', ...' if len(enum) > _MAX_ENUM else ''} means"
    elif isinstance(fmt, str):
        hint = _FORMAT_SHAPES.get(fmt, f"what it is (format {fmt})")
    elif parts and parts[-1] in ("id", "ids"):
        hint = "where to get the id (which tool or result returns it)"
    elif kinds and kinds[0] in _TYPE_HINTS:
        hint = _TYPE_HINTS[kinds[0]]
    elif "date" in parts:
        hint = "its format, e.g. YYYY-MM-DD"
    else:
        hint = "what it is, with an example value"
    default = _first(variants, "default")
    if default is not None:
        hint += f" (default {json.dumps(default)}: say what it means)"
    return hint


def _types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    return [item for item in kind if isinstance(item, str)] if isinstance(kind, list) else []


def _parameters_template(tool: Tool, undocumented: list[str]) -> str:
    names = undocumented or list(tool.properties)
    if not names:
        return "Say that it takes no parameters, or document each one in the input schema."
    # Parameters that need the same advice share one entry: the suggestion should stay a line or two.
    by_hint: dict[str, list[str]] = {}
    for name in names[:_MAX_PARAMETERS]:
        hint = _parameter_hint(property_variants(tool.input_schema, tool.properties[name]), name)
        by_hint.setdefault(hint, []).append(f"`{name}`")
    hints = [f"{', '.join(group)}: {hint}" for hint, group in by_hint.items()]
    more = f"; and {len(names) - _MAX_PARAMETERS} more" if len(names) > _MAX_PARAMETERS else ""
    if len(names) == 1:
        return f"Explain {hints[0]}."
    return f"Explain each parameter. {'; '.join(hints)}{more}."


_COUNT_WORDS = frozenset(words("limit max count size top n k num number per page length depth results"))
_PATH_WORDS = frozenset(words("path paths file files dir directory folder filename filepath"))
_URL_WORDS = frozenset(words("url urls uri link endpoint host domain"))
_QUERY_WORDS = frozenset(words("query q search term terms keyword keywords sql"))


def _limitations_template(tool: Tool) -> str:
    """What this tool's limits would be about, read from its parameters; a generic line without them."""
    found: list[str] = []
    for name, schema in tool.properties.items():
        variants = property_variants(tool.input_schema, schema)
        kinds = {kind for variant in variants for kind in _types(variant)}
        parts = set(name_words(name))
        bounded = any(
            key in variant for variant in variants for key in ("maximum", "exclusiveMaximum", "enum")
        )
        if kinds & {"integer", "number"} and parts & _COUNT_WORDS and not bounded:
            found.append(f"the largest `{name}` it accepts")
        elif parts & _PATH_WORDS:
            found.append(f"which files or folders `{name}` may point to")
        elif parts & _URL_WORDS:
            found.append(f"which sites `{name}` may reach")
        elif parts & _QUERY_WORDS:
            found.append(f"what `{name}` searches and how many results come back")
        elif "array" in kinds and not any("maxItems" in variant for variant in variants):
            found.append(f"how many items `{name}` takes in one call")
        if len(found) == 2:
            break
    if not found:
        return "State in one sentence what it does not do and the largest input or result it handles."
    return "State its limits: " + "; ".join(found) + "."


def template_suggestion(
    component: str, tool: Tool, siblings: list[str], descriptions: Mapping[str, str] | None = None
) -> str:
    """A skeleton for the missing part when no judge proposed a rewrite: what to add, not filler.

    The embedded jury scores but does not write; a concrete shape to fill in still saves the
    author a trip to the rubric docs.
    """
    sibling = related_sibling(tool, siblings, descriptions)
    undocumented = [
        name
        for name, schema in tool.properties.items()
        if not (isinstance(schema, Mapping) and str(schema.get("description") or "").strip())
    ]
    templates: dict[str, str] = {
        "purpose": "Open with what it does and what it returns: '<Does X> and returns <Y, its shape>.'",
        "guidelines": "Add when to use it and when not: 'Use this to <task>; "
        + (f"for <other task> use {sibling} instead.'" if sibling else "do not use it for <case>.'"),
        "limitations": _limitations_template(tool),
        "parameters": _parameters_template(tool, undocumented),
        "length": "Cover purpose, when to use it, limits and parameters in three to five plain sentences.",
        "examples": (
            f"Add one short example after the prose: 'Example: {_example_call(tool)} returns <result>.'"
            if not has_example(tool)
            else "Keep its example next to prose that says when to use the tool and what the call returns."
        ),
    }
    return templates.get(component, "")


def _format_score(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _excerpt(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    if not flat:
        return "(no description)"
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


@check_function("rubric_component")
def rubric_component(context: CheckContext) -> Iterator[Hit]:
    component = str(context.options["component"])
    # No fallback here: the default lives in rules/rubric.yaml and the catalogue always supplies it.
    threshold = float(context.options["threshold"])
    names = [item.name for item in context.server.tools]
    descriptions = {item.name: item.description for item in context.server.tools}
    # opaque-parameters: a tool that takes no parameters has none to explain.
    needs_parameters = bool(context.options.get("only-with-parameters", False))
    for tool in context.server.tools:
        scores: Any = context.scores.get(tool.name)
        if scores is None or (needs_parameters and not tool.properties):
            continue
        value = scores.aggregate.get(component)
        if value is None or value >= threshold:
            continue
        judges = ", ".join(
            f"{judge} {_format_score(per_judge[component])}"
            for judge, per_judge in sorted(scores.judges.items())
            if component in per_judge
        )
        reason = scores.reasons.get(component) or "no reason given"
        yield Hit(
            tool=tool.name,
            fields={
                "score": _format_score(value),
                "threshold": _format_score(threshold),
                "reason": reason.rstrip("."),
                "judges": judges,
            },
            evidence=_excerpt(tool.description),
            path="description",
            suggestion=scores.rewrite or template_suggestion(component, tool, names, descriptions),
        )


@check_function("jury_disagreement")
def jury_disagreement(context: CheckContext) -> Iterator[Hit]:
    spread_limit = float(context.options.get("spread", 2))
    for tool in context.server.tools:
        scores = context.scores.get(tool.name)
        if scores is None or len(scores.judges) < 2:
            continue
        wide = [name for name, spread in sorted(scores.spread.items()) if spread >= spread_limit]
        if wide:
            detail = "; ".join(
                f"{name}: "
                + ", ".join(
                    f"{judge} {_format_score(per[name])}" for judge, per in sorted(scores.judges.items())
                )
                for name in wide
            )
            yield Hit(
                tool=tool.name, fields={"components": ", ".join(wide)}, evidence=detail, path="description"
            )
