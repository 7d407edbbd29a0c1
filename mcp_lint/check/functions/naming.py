"""Rules about tool names (MCP40x, except overlap which lives in `overlap`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function

# SEP-986: 1-128 characters of A-Z a-z 0-9 _ . -
_VALID_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
_INVALID_CHAR = re.compile(r"[^A-Za-z0-9_.\-]")


@check_function("invalid_tool_name")
def invalid_tool_name(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        name = tool.name
        if _VALID_NAME.fullmatch(name):
            continue
        if not name:
            reason = "it is empty"
        elif len(name) > 128:
            reason = f"it is {len(name)} characters long (maximum 128)"
        else:
            bad = sorted(set(_INVALID_CHAR.findall(name)))
            reason = "it contains " + ", ".join(repr(char) for char in bad)
        fixed = _INVALID_CHAR.sub("_", name)[:128]
        yield Hit(
            tool=name,
            fields={"reason": reason},
            evidence=repr(name) if len(name) <= 120 else repr(name[:117]) + "…",
            path="name",
            suggestion=f"Rename to {fixed!r}." if fixed and fixed != name else None,
        )


@check_function("duplicate_tool_name")
def duplicate_tool_name(ctx: CheckContext) -> Iterator[Hit]:
    first_index: dict[str, int] = {}
    counts = Counter(tool.name for tool in ctx.server.tools)
    for index, tool in enumerate(ctx.server.tools):
        if tool.name not in first_index:
            first_index[tool.name] = index
            continue
        yield Hit(
            tool=tool.name,
            fields={"count": counts[tool.name]},
            evidence=f"tools[{index}] repeats the name of tools[{first_index[tool.name]}]",
            path="name",
        )


_STYLES = {
    "snake_case": re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+"),
    "kebab-case": re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+"),
    "camelCase": re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"),
    "PascalCase": re.compile(r"(?:[A-Z][a-z0-9]+){2,}"),
    "SCREAMING_CASE": re.compile(r"[A-Z0-9]+(?:_[A-Z0-9]+)+"),
}


def _style(name: str) -> str | None:
    # Namespaces (`github.create_issue`) are a convention of their own; the last segment carries the style.
    segment = name.rsplit(".", 1)[-1]
    for style, pattern in _STYLES.items():
        if pattern.fullmatch(segment):
            return style
    return None


@check_function("inconsistent_naming")
def inconsistent_naming(ctx: CheckContext) -> Iterator[Hit]:
    by_style: dict[str, list[str]] = {}
    for tool in ctx.server.tools:
        style = _style(tool.name)
        if style is not None:
            by_style.setdefault(style, []).append(tool.name)
    if len(by_style) < 2:
        return
    ranked = sorted(by_style.items(), key=lambda item: (-len(item[1]), item[0]))
    majority = ranked[0][0]
    styles = ", ".join(f"{style} ({len(names)})" for style, names in ranked)
    outliers = [name for style, names in ranked[1:] for name in names]
    yield Hit(
        tool=None,
        fields={"styles": styles, "majority": majority},
        evidence="not " + majority + ": " + ", ".join(outliers[:5]) + (" …" if len(outliers) > 5 else ""),
        suggestion=f"Rename the other tools to {majority}.",
    )
