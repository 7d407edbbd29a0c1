"""Server and protocol level rules (MCP0xx): what the server did while being reflected."""

from __future__ import annotations

from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema.invalid_input_schema import schema_problems


def _observed(ctx: CheckContext, kind: str) -> Iterator[Hit]:
    for observation in ctx.server.observations:
        if observation.kind == kind:
            first = observation.detail.strip().splitlines()[0] if observation.detail.strip() else ""
            yield Hit(tool=None, fields={"detail": trim(first, 80)}, evidence=trim(observation.detail))


@check_function("stdout_pollution")
def stdout_pollution(ctx: CheckContext) -> Iterator[Hit]:
    yield from _observed(ctx, "stdout-pollution")


@check_function("broken_pagination")
def broken_pagination(ctx: CheckContext) -> Iterator[Hit]:
    yield from _observed(ctx, "broken-pagination")


@check_function("sdk_rejected_listing")
def sdk_rejected_listing(ctx: CheckContext) -> Iterator[Hit]:
    # The reflect stage records one observation per server: the first page the SDK would refuse.
    for observation in ctx.server.observations:
        if observation.kind == "sdk-rejected-listing":
            detail = observation.detail.strip()
            first = detail.splitlines()[0] if detail else "(no detail)"
            yield Hit(tool=None, fields={"detail": trim(first, 100)}, evidence=trim(detail or first))


@check_function("sdk_rejected_tool")
def sdk_rejected_tool(ctx: CheckContext) -> Iterator[Hit]:
    # A rejection caused by a broken input schema is MCP201's finding, with a precise path;
    # this rule reports only the reasons schema validation cannot see (x-mcp-header, names...).
    # An entry without a name is seen by no other rule, so it is always reported here.
    for tool in ctx.server.tools:
        if tool.sdk_rejection and (not tool.named or not schema_problems(tool)):
            yield Hit(
                tool=tool.name,
                fields={"reason": trim(tool.sdk_rejection, 100)},
                evidence=trim(tool.sdk_rejection),
            )
