"""Secret inputs a server echoes back: masked in what it listed before anything checks or reports it.

A server started with a secret (an `isSecret` environment variable, argument or header) may put it
in a tool's name, description or schema, its instructions or its stderr. The gate replaces every
occurrence in the reflection itself, so the findings, every report format and the verdict are built
from masked text, and the reporters need to know nothing about the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mcp_lint.model import Observation, ServerSnapshot, Tool

if TYPE_CHECKING:  # the reflect stage (anyio, the SDK) is imported only when a gate reflects
    from mcp_lint.reflect import Reflection

Redact = Callable[[str], str]


def _value(value: Any, redact: Redact) -> Any:
    """A JSON value with `redact` applied to every string in it, keys included."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {
            redact(key) if isinstance(key, str) else key: _value(item, redact) for key, item in value.items()
        }
    if isinstance(value, list):
        return [_value(item, redact) for item in value]
    if isinstance(value, tuple):
        return tuple(_value(item, redact) for item in value)
    return value


def _optional(text: str | None, redact: Redact) -> str | None:
    return None if text is None else redact(text)


def _tool(tool: Tool, redact: Redact) -> Tool:
    return Tool(
        name=redact(tool.name),
        raw=_value(tool.raw, redact),
        sdk_rejection=_optional(tool.sdk_rejection, redact),
        named=tool.named,
    )


def _snapshot(snapshot: ServerSnapshot, redact: Redact) -> ServerSnapshot:
    return replace(
        snapshot,
        name=redact(snapshot.name),
        tools=tuple(_tool(tool, redact) for tool in snapshot.tools),
        protocol_version=_optional(snapshot.protocol_version, redact),
        server_info=_value(snapshot.server_info, redact),
        instructions=_optional(snapshot.instructions, redact),
        observations=tuple(
            Observation(observation.kind, redact(observation.detail)) for observation in snapshot.observations
        ),
        origin=_optional(snapshot.origin, redact),
    )


def redact_reflection(reflection: Reflection, redact: Redact) -> Reflection:
    """The reflection with `redact` applied to every text the server sent or caused."""
    return replace(
        reflection,
        name=redact(reflection.name),
        snapshot=None if reflection.snapshot is None else _snapshot(reflection.snapshot, redact),
        error=_optional(reflection.error, redact),
    )
