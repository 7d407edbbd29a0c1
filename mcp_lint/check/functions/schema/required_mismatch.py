"""MCP208 required-mismatch: the description says required (or optional) and the schema says otherwise."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._common import param_texts, prop_path
from mcp_lint.schema_walk import property_variants

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
            text = param_texts(tool, str(name), prop)
            if not text or _NOT_STATED.search(text):
                continue
            if name not in required and _SAYS_REQUIRED.search(text) and _SAYS_OPTIONAL.search(text) is None:
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "says": "required", "schema": "optional"},
                    evidence=f"{prop_path(name)}.description: " + trim(text, 90),
                    path=prop_path(name),
                    suggestion=f'Add "{name}" to `required`, or stop calling it required.',
                )
            elif name in required and _SAYS_OPTIONAL.search(text) and _SAYS_REQUIRED.search(text) is None:
                has_default = any("default" in v for v in property_variants(root, prop))
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "says": "optional", "schema": "required"},
                    evidence=f"{prop_path(name)}.description: " + trim(text, 90),
                    path=prop_path(name),
                    suggestion=f'Remove "{name}" from `required`'
                    + (" (it has a default)." if has_default else ", or stop calling it optional."),
                )
