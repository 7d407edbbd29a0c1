"""Lint what a registry entry launched: reflect each target, mask the entry's secrets, check.

Two steps so that `mcp-lint audit` can time the start of the servers apart from the lint; `mcp-lint
gate` runs them back to back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mcp_lint.config import JurySettings, Settings
from mcp_lint.model import RunResult
from mcp_lint.reflect import Reflection
from mcp_lint.registry.launch import Inputs, Launch
from mcp_lint.registry.redact import redact_reflection


def reflect_launches(launches: Sequence[Launch], timeout: float, inputs: Inputs) -> list[Reflection]:
    """Start (or connect to) every launched target and list its tools."""
    from mcp_lint.reflect import reflect_all

    reflections = reflect_all([launched.target for launched in launches], timeout)
    # A server may echo a secret input into its tools: masked before any check or report sees it.
    return [redact_reflection(reflection, inputs.redact) for reflection in reflections]


def check_launched(
    reflections: Sequence[Reflection], settings: Settings, jury: JurySettings, inputs: Inputs
) -> RunResult:
    """Check, score and propose, as `check` does for the same servers."""
    from mcp_lint.pipeline import check_reflections

    result = check_reflections(reflections, settings, jury)
    # A server that failed to start may have had its secret arguments or environment in the message.
    servers = tuple(
        replace(server, error=inputs.redact(server.error)) if server.error is not None else server
        for server in result.servers
    )
    return replace(result, servers=servers)
