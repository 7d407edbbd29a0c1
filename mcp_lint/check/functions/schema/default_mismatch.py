"""MCP209 default-mismatch: the prose states one default, the schema's `default` another."""

from __future__ import annotations

import json
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._prose import (
    default_disagrees,
    mentions_value,
    parameter_prose,
    stated_defaults,
)
from mcp_lint.schema_walk import walk_parameters


@check_function("default_mismatch")
def default_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        root = tool.input_schema
        top = set(tool.properties)
        for name, path, prop in walk_parameters(root):
            if "default" not in prop:
                continue
            default = prop["default"]
            text = parameter_prose(tool, name, prop, top_level=name in top and path.count(".") == 2)
            if not text:
                continue
            for stated in stated_defaults(text):
                if not default_disagrees(stated, default) or mentions_value(text, default, stated.span):
                    continue
                shown = trim(json.dumps(default), 40)
                said = trim(text[stated.span[0] : stated.span[1]].strip(" ()"), 40)
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "stated": said, "default": shown},
                    evidence=f"{path}: default {shown}; prose: " + trim(text, 90),
                    path=f"{path}.default",
                    suggestion=(
                        f"Make them agree: set `{name}`'s schema default to what the server really uses, "
                        "and say the same in the description (or drop the number from the prose)."
                    ),
                )
                break
