"""Helpers for the proxy tests: the proxy as a real subprocess, driven by the SDK's own client."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from mcp import Client

from mcp_lint.reflect.stdio import ProcessMonitor, bounded_stdio
from mcp_lint.traces import TraceRecord, read_traces

ROOT = Path(__file__).resolve().parents[2]
SERVERS = ROOT / "tests" / "servers"
TRACE_SERVER = (sys.executable, str(SERVERS / "trace_server.py"))
TIMEOUT = 30.0


def environment(**extra: str) -> dict[str, str]:
    """What the proxy is started with: this environment, with this worktree's mcp_lint importable."""
    path = os.pathsep.join(part for part in (str(ROOT), os.environ.get("PYTHONPATH", "")) if part)
    return {**os.environ, "PYTHONPATH": path, **extra}


def mcp_lint(*args: str) -> list[str]:
    return [sys.executable, "-m", "mcp_lint", *args]


@contextlib.asynccontextmanager
async def proxied(
    args: Sequence[str], mode: str = "auto", monitor: ProcessMonitor | None = None, **options: Any
) -> AsyncIterator[Client]:
    """An SDK client connected to `mcp-lint ARGS...` running as a subprocess (its stdio server)."""
    watched = monitor if monitor is not None else ProcessMonitor(command="mcp-lint")
    transport = bounded_stdio(sys.executable, ["-m", "mcp_lint", *args], environment(), None, watched)
    async with Client(transport, mode=mode, read_timeout_seconds=TIMEOUT, cache=None, **options) as client:
        yield client


def traces(path: Path) -> list[TraceRecord]:
    # Every line must be one whole JSON object: parse them one by one before the module reads them.
    for line in path.read_text(encoding="utf-8").splitlines():
        assert isinstance(json.loads(line), dict)
    return read_traces(path)


def proxy_lines(stderr: str) -> list[str]:
    """The lines the proxy itself wrote to stderr (the server's own pass through as they come)."""
    return [line for line in stderr.splitlines() if line.startswith("mcp-lint")]
