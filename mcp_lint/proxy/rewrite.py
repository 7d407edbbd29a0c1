"""The description router: tools/list results with each overridden tool's description replaced and its
schema/annotation patch (a JSON merge patch, written by `check --fix --unsafe-fixes`) applied."""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from mcp_lint.overrides import Override, find_override, merge_patch, served_description
from mcp_lint.proxy.identity import ServerIdentity
from mcp_lint.proxy.relay import PendingRequest


@dataclass
class DescriptionRouter:
    """A response hook serving `overrides` in place of the server's own descriptions.

    Only the `description`, `inputSchema` and `annotations` of a tool that has an override change;
    every other field of the result, and every tool without an override, is passed on as the server
    sent it.
    """

    overrides: Mapping[tuple[str, str], Override]
    identity: ServerIdentity
    components: Collection[str] | None = None
    served: int = 0  # descriptions replaced so far, for the closing summary

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> dict[str, Any] | None:
        result = response.get("result")
        if request.method != "tools/list" or not isinstance(result, dict):
            return None
        tools = result.get("tools")
        if not isinstance(tools, list):
            return None
        rewritten: list[Any] = []
        changed = False
        for tool in tools:
            name = tool.get("name") if isinstance(tool, dict) else None
            override = (
                find_override(self.overrides, self.identity.names, name) if isinstance(name, str) else None
            )
            if override is None or not isinstance(tool, dict):
                rewritten.append(tool)
                continue
            served = dict(tool)
            description = served_description(override, self.components)
            if description is not None:
                served["description"] = description
            for key, patch in override.patch.items():
                served[key] = merge_patch(served.get(key), patch)
            if served != tool:
                tool = served
                changed = True
                self.served += 1
            rewritten.append(tool)
        if not changed:
            return None
        replacement = copy.copy(response)
        replacement["result"] = {**result, "tools": rewritten}
        return replacement
