"""The trace recorder: one TraceRecord per answered tools/call, appended as the answer passes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_lint.proxy.identity import ServerIdentity
from mcp_lint.proxy.relay import PendingRequest
from mcp_lint.traces import MAX_RESULT_CHARACTERS, TraceRecord, TraceWriter, capped_content

# A 2026-07-28 result that asks the client for more input before the tool can run: not an answer yet.
_UNFINISHED_RESULT_TYPES = frozenset({"input_required"})


def trace_record(request: PendingRequest, response: Mapping[str, Any], server: str) -> TraceRecord | None:
    """The record of one tools/call and its answer, or None when there is nothing to record."""
    params = request.params if isinstance(request.params, Mapping) else {}
    tool = params.get("name")
    if not isinstance(tool, str) or not tool:
        return None
    arguments = params.get("arguments")
    common: dict[str, Any] = {
        "tool": tool,
        "arguments": dict(arguments) if isinstance(arguments, Mapping) else {},
        "duration_ms": request.elapsed_ms,
        "time": request.time,
        "server": server,
    }
    error = response.get("error")
    if error is not None:
        message = error.get("message") if isinstance(error, Mapping) else None
        return TraceRecord(error=str(message if message is not None else error), **common)
    result = response.get("result")
    if not isinstance(result, Mapping) or result.get("resultType") in _UNFINISHED_RESULT_TYPES:
        return None
    raw_content = result.get("content")
    items = (
        [item for item in raw_content if isinstance(item, Mapping)] if isinstance(raw_content, list) else []
    )
    content, truncated = capped_content(items)
    structured = result.get("structuredContent")
    if structured is not None and len(json.dumps(structured, default=str)) > MAX_RESULT_CHARACTERS:
        # Structured output is kept whole or not at all: half a JSON document is no example.
        structured, truncated = None, True
    return TraceRecord(
        content=content,
        truncated=truncated,
        is_error=result.get("isError") is True,
        structured=structured,
        **common,
    )


@dataclass
class TraceRecorder:
    """A response hook that writes each answered tools/call to the trace file; it changes nothing."""

    writer: TraceWriter
    identity: ServerIdentity
    recorded: int = 0

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> None:
        if request.method != "tools/call":
            return None
        record = trace_record(request, response, self.identity.name)
        if record is not None:
            self.writer.write(record)
            self.recorded += 1
        return None
