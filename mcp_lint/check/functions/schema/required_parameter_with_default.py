"""MCP205 required-parameter-with-default: a required parameter that has a default."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._common import prop_path


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
                    evidence=f"{prop_path(name)}.default = {trim(repr(default), 60)}",
                    path=prop_path(name),
                    suggestion=f"Remove {name!r} from `required` (the default applies when it is omitted).",
                )
