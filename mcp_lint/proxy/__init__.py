"""The MCP proxies: `mcp-lint record` (traces every tools/call) and `mcp-lint proxy` (serves
description overrides), one relay in front of a stdio server or an HTTP one."""

from __future__ import annotations

from mcp_lint.proxy.identity import ServerIdentity
from mcp_lint.proxy.jsonrpc import Frame
from mcp_lint.proxy.record import TraceRecorder, trace_record
from mcp_lint.proxy.relay import ClientSide, PendingRequest, Relay, ResponseHook, Upstream, run_relay
from mcp_lint.proxy.rewrite import DescriptionRouter

__all__ = [
    "ClientSide",
    "DescriptionRouter",
    "Frame",
    "PendingRequest",
    "Relay",
    "ResponseHook",
    "ServerIdentity",
    "TraceRecorder",
    "Upstream",
    "run_relay",
    "trace_record",
]
