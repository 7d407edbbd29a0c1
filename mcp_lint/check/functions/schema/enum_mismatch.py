"""MCP210 enum-mismatch: the prose lists the allowed values, and the schema's `enum` disagrees."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._common import schema_pointer
from mcp_lint.check.functions.schema._prose import (
    NAMED_BRACKETS,
    NAMED_HEADER,
    StatedList,
    args_entry_block,
    bulleted_values,
    cued_and_uncued_lists,
    example_values,
    is_top_level,
    named_lists,
    other_values,
    parameter_prose,
    same_value,
)
from mcp_lint.lazyre import lazy
from mcp_lint.model import SchemaFix, Tool
from mcp_lint.schema_walk import property_variants, walk_parameters


def _enum(root: Any, prop: Mapping[str, Any], depth: int = 0) -> list[str] | None:
    """The string enum of a parameter, looking through its wrappers two levels down (Pydantic writes
    an optional choice as `anyOf: [{anyOf: [{enum}, {pattern}]}, {type: null}]`)."""
    for variant in property_variants(root, prop):
        values = variant.get("enum")
        if isinstance(values, list) and values and all(isinstance(value, str) for value in values):
            return values
        if depth == 0 and variant is not prop and ("anyOf" in variant or "oneOf" in variant):
            inner = _enum(root, variant, depth + 1)
            if inner is not None:
                return inner
    return None


def _in(value: str, values: list[str]) -> bool:
    return any(same_value(value, other) for other in values)


def _about_this_parameter(stated: StatedList, enum: list[str]) -> bool:
    """At least half of the listed values are this enum's: the list is about its values.

    A list that shares less with the enum is about something else (the kinds of another argument,
    the fields of the result), and says nothing about this parameter's values.
    """
    known = sum(_in(item, enum) for item in stated.items)
    return known >= 1 and 2 * known >= len(stated.items)


# A list in brackets after the parameter's name ("Raw-text sources (a, b, c)") may name a subset on
# purpose; one that names most of the enum ("commands (init, plan, validate, apply, destroy)" beside an
# enum of those and `output`) means to be whole and has fallen behind it.
_MOST = 2 / 3


def _most_of(stated: StatedList, enum: list[str]) -> bool:
    return len(stated.items) >= _MOST * len(enum)


def _shown(values: list[str]) -> str:
    return ", ".join(f"`{value}`" for value in values)


def _grown(tool: Tool, path: str, prop: Mapping[str, Any], unknown: list[str]) -> SchemaFix | None:
    """The parameter's own `enum` with the values the prose lists and it lacks added (an unsafe fix:
    the server may not accept them), when the enum is written on the parameter itself, of strings."""
    enum = prop.get("enum")
    pointer = schema_pointer(tool, path, prop)
    if pointer is None or not isinstance(enum, list) or not all(isinstance(value, str) for value in enum):
        return None
    return SchemaFix(pointer, {"enum": [*enum, *unknown]}, replace=True)


@check_function("enum_mismatch")
def enum_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        for name, path, prop in walk_parameters(root):
            enum = _enum(root, prop)
            if enum is None:
                continue
            text = parameter_prose(tool, name, prop, top_level=is_top_level(tool, name, path))
            tool_named = named_lists(tool.description, name) if is_top_level(tool, name, path) else []
            if not text and not tool_named:
                continue
            others = [value for value in other_values(tool, path) if not _in(value, enum)]
            block = text
            if name in tool.description and is_top_level(tool, name, path):
                block = f"{text}\n{args_entry_block(tool.description, name)}"
            bulleted = bulleted_values(block) if "\n" in block else []
            # Lists given under the parameter's name as a noun ("Domains:" bullets, "commands (init,
            # plan)"), in its own text or the tool's description: whole lists of its values.
            # Alternatives offered without a cue ("`json`, `yaml` or `toml`"): they do not say the list
            # is whole, but a value among them that the enum lacks is still offered and refused.
            cued, uncued = cued_and_uncued_lists(text)
            lists = sorted([*cued, *bulleted, *uncued], key=lambda stated: stated.span)
            own_named = named_lists(text, name)
            named = [*own_named, *tool_named]
            source = {id(stated): text for stated in own_named}
            source.update({id(stated): tool.description for stated in tool_named})
            seen = {stated.items for stated in lists}
            for stated in named:
                if stated.items not in seen:
                    lists.append(stated)
                    seen.add(stated.items)
            reported = False
            for stated in lists:
                if not _about_this_parameter(stated, enum) or any(_in(item, others) for item in stated.items):
                    continue  # "use either `path` or `url`": the names of parameters, not values
                unknown = [item for item in stated.items if not _in(item, enum)]
                fix = None
                if unknown:
                    problem = f"lists {_shown(unknown)} as allowed, which its enum does not have"
                    fix = _grown(tool, path, prop, unknown)
                    suggestion = (
                        f"Add {_shown(unknown)} to the enum of `{name}` if the server accepts them, "
                        "or correct the description."
                    )
                elif stated in uncued:
                    continue
                else:
                    missing = [value for value in enum if not _in(value, list(stated.items))]
                    closed = (
                        stated in bulleted
                        or stated.cue == NAMED_HEADER
                        or (stated.cue == NAMED_BRACKETS and _most_of(stated, enum))
                        or stated.cue.lower().startswith(("one of", "must be", "either"))
                    )
                    if not missing or not closed:
                        continue
                    listed = _shown(list(stated.items))
                    problem = f"allows only {listed}, but its enum also has {_shown(missing)}"
                    suggestion = f"List every enum value of `{name}` in its description, or drop stale ones."
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "problem": problem},
                    evidence=f"{path}: enum {trim(json.dumps(enum), 60)}; prose: "
                    + trim(source.get(id(stated), text)[stated.span[0] : stated.span[1]].strip(), 60),
                    path=f"{path}.enum",
                    suggestion=suggestion,
                    fix=fix,
                )
                reported = True
                break
            if reported:
                continue
            joined = _JOINED.search(text)
            if joined and len(enum) > 1 and not any("," in value for value in enum):
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={
                        "parameter": name,
                        "problem": "says several values may be joined with commas, but its enum accepts one "
                        "value per call",
                    },
                    evidence=f"{path}: enum {trim(json.dumps(enum), 60)}; prose: "
                    + trim(text[joined.start() :], 60),
                    path=f"{path}.enum",
                    suggestion=f"Make `{name}` an array of these values, or drop the comma-separated form.",
                )
                continue
            cased = _other_case(prop.get("description"), enum)
            if cased:
                yield _case_hit(tool.name, name, path, enum, cased)
                continue
            yield from _example_outside(tool.name, name, path, enum, text)


# "comma separated if needed", "a comma-delimited list": several values in one string, which an enum
# of single values refuses.
_JOINED = lazy(r"\bcomma[- ](?:separated|delimited)\b|\bseparated by (?:a )?commas?\b", re.IGNORECASE)
# A value set in quotes or backticks: how a description writes the literal to send.
_QUOTED_VALUE = lazy(r"(?<![\w])(['\"`])([A-Za-z][\w.-]{0,40})\1(?![\w])")


# After quoted names (and any coordinated with them), a noun that makes them names of keys.
_NAMES_KEYS = lazy(
    r"(?:\s*(?:,|\bor\b|\band\b)\s*(['\"`])[\w.-]+\1)*\s+"
    r"(?:propert(?:y|ies)|fields?|keys?|attributes?|columns?|parameters?|arguments?|headers?|sections?)\b",
    re.IGNORECASE,
)


def _other_case(text: Any, enum: list[str]) -> list[tuple[str, str]]:
    """(written, enum value) for each quoted value of the parameter's own text that is an enum value in
    another letter case, when the text never quotes an enum value as the enum spells it: `'credential'`
    beside an enum of `Credential`. A validating client compares values exactly, so the model sends
    what the text shows and is refused. One value quoted right shows the writer knew the spelling."""
    if not isinstance(text, str) or not any(quote in text for quote in "'\"`"):
        return []
    exact = set(enum)
    folded = {value.lower(): value for value in enum}
    pairs: list[tuple[str, str]] = []
    for match in _QUOTED_VALUE.finditer(text):
        written = match.group(2)
        if _NAMES_KEYS.match(text, match.end()):
            continue  # "the spec's `paths` or `tags` properties": names of keys, not values to send
        if written in exact:
            return []
        meant = folded.get(written.lower())
        if meant is not None and (written, meant) not in pairs:
            pairs.append((written, meant))
    return pairs


def _case_hit(tool: str, name: str, path: str, enum: list[str], cased: list[tuple[str, str]]) -> Hit:
    written = _shown([value for value, _ in cased])
    meant = _shown([value for _, value in cased])
    return Hit(
        tool=tool,
        subject=name,
        fields={
            "parameter": name,
            "problem": f"writes {written}, which its enum spells {meant} (values are compared exactly)",
        },
        evidence=f"{path}: enum {trim(json.dumps(enum), 60)}; prose: {written}",
        path=f"{path}.enum",
        suggestion=f"Write the values of `{name}` as its enum spells them ({meant}).",
    )


def _example_outside(tool: str, name: str, path: str, enum: list[str], text: str) -> Iterator[Hit]:
    """A quoted example the enum rejects, beside one it accepts: `Accepts a color key (e.g.
    "berry_red") or display name (e.g. "Berry Red")` offers a form of value validation refuses. An
    example list none of whose values the enum has is about something else and says nothing."""
    examples = example_values(text) if '"' in text or "'" in text or "`" in text else []
    if not any(_in(value, enum) for value, _ in examples):
        return
    unknown = list(dict.fromkeys(value for value, _ in examples if not _in(value, enum)))
    if not unknown:
        return
    span = next(where for value, where in examples if value == unknown[0])
    yield Hit(
        tool=tool,
        subject=name,
        fields={
            "parameter": name,
            "problem": f"gives {_shown(unknown)} as an example, which its enum does not have",
        },
        evidence=f"{path}: enum {trim(json.dumps(enum), 60)}; prose: " + trim(text[span[0] : span[1]], 60),
        path=f"{path}.enum",
        suggestion=(
            f"Add {_shown(unknown)} to the enum of `{name}` if the server accepts them, "
            "or correct the example."
        ),
    )
