"""MCP202 undocumented-parameter: a parameter (or a field inside one) that nothing describes."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim
from mcp_lint.check.functions.schema._common import identifier_shaped, prop_path
from mcp_lint.schema_walk import Walked, property_variants, walk_schema


def _has_description(root: Any, prop: Any) -> bool:
    for variant in property_variants(root, prop):
        text = variant.get("description")
        if isinstance(text, str) and text.strip():
            return True
    return False


# levels (objects and arrays) below a top-level parameter whose fields are looked at
_MAX_DEPTH = 6
_MAX_LISTED_FIELDS = 4


def _own(root: Any, schema: Any) -> str:
    return " ".join(str(v.get("description") or "") for v in property_variants(root, schema))


def _nested_undocumented(root: Any, description: str) -> dict[str, list[tuple[str, str]]]:
    """Top-level parameter -> (short name, JSON path) of the fields inside it (object properties,
    array items' properties, `_MAX_DEPTH` levels down) that have no description and that no
    enclosing description names.

    The descriptions around a field (its parent's, the arrays' it is in, the tool's `description`)
    count: "each with `name` and `type`" documents both fields as well as a description of their own
    would.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    # id of a parameter met -> (it, the descriptions around its fields, its short name, its top-level name)
    outer: dict[int, tuple[Walked, str, str, str]] = {}
    for item in walk_schema(
        root, depth_first=True, distinct=True, descend=lambda item: item.level < _MAX_DEPTH
    ):
        if item.parent is None:
            outer[id(item)] = (item, f"{_own(root, item.schema)} {description}", item.name, item.name)
            continue
        if item.level > _MAX_DEPTH:
            continue
        _, context, short, top = outer[id(item.parent)]
        context += "".join(f" {_own(root, items)}" for items in item.through)
        short = f"{short}{'[]' * len(item.through)}.{item.name}"
        own = _own(root, item.schema).strip()
        if not own and not _names(context, item.name):
            found.setdefault(top, []).append((short, item.path))
        outer[id(item)] = (item, f"{context} {own}", short, top)
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
    if identifier_shaped(name):
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
        undocumented = _nested_undocumented(root, tool.description)
        for name, prop in tool.properties.items():
            documented = (
                _has_description(root, prop)
                or explained_in_description(tool.description, str(name))
                or _documented_by_fields(root, prop)
            )
            nested = undocumented.get(str(name), [])
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
                path = prop_path(name)
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
