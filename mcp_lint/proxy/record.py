"""The trace recorder: one TraceRecord per answered tools/call, appended as the answer passes."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_lint.limits import document_problem
from mcp_lint.proxy.identity import ServerIdentity
from mcp_lint.proxy.relay import PendingRequest
from mcp_lint.sanitize import printable
from mcp_lint.traces import (
    MAX_RESULT_CHARACTERS,
    TraceRecord,
    TraceWriteError,
    TraceWriter,
    capped_arguments,
    capped_content,
    capped_text,
)

# A 2026-07-28 result that asks the client for more input before the tool can run: not an answer yet.
_UNFINISHED_RESULT_TYPES = frozenset({"input_required"})


def trace_record(request: PendingRequest, response: Mapping[str, Any], server: str) -> TraceRecord | None:
    """The record of one tools/call and its answer, or None when there is nothing to record."""
    params = request.params if isinstance(request.params, Mapping) else {}
    tool = params.get("name")
    if not isinstance(tool, str) or not tool:
        return None
    raw_arguments = params.get("arguments")
    arguments, cut = capped_arguments(raw_arguments if isinstance(raw_arguments, Mapping) else {})
    common: dict[str, Any] = {
        "tool": tool,
        "arguments": arguments,
        "duration_ms": request.elapsed_ms,
        "time": request.time,
        "server": server,
    }
    error = response.get("error")
    if error is not None:
        message = error.get("message") if isinstance(error, Mapping) else None
        text, cut_error = capped_text(str(message if message is not None else error))
        return TraceRecord(error=text, truncated=cut or cut_error, **common)
    result = response.get("result")
    if not isinstance(result, Mapping) or result.get("resultType") in _UNFINISHED_RESULT_TYPES:
        return None
    raw_content = result.get("content")
    items = (
        [item for item in raw_content if isinstance(item, Mapping)] if isinstance(raw_content, list) else []
    )
    content, truncated = capped_content(items)
    structured = result.get("structuredContent")
    if structured is not None and (
        document_problem(structured) is not None or _size(structured) > MAX_RESULT_CHARACTERS
    ):
        # Structured output is kept whole or not at all: half a JSON document is no example.
        structured, truncated = None, True
    return TraceRecord(
        content=content,
        truncated=truncated or cut,
        is_error=result.get("isError") is True,
        structured=structured,
        **common,
    )


def _size(value: Any) -> int:
    try:
        return len(json.dumps(value, default=str))
    except (ValueError, TypeError, RecursionError):
        return MAX_RESULT_CHARACTERS + 1


def _warn(text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, f"mcp-lint: warning: {printable(text)}\n".encode())


@dataclass
class TraceRecorder:
    """A response hook that writes each answered tools/call to the trace file; it changes nothing."""

    writer: TraceWriter
    identity: ServerIdentity
    recorded: int = 0
    failed: int = 0  # calls that could not be written: the relay goes on without them

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> None:
        if request.method != "tools/call":
            return None
        try:
            record = trace_record(request, response, self.identity.name)
            if record is not None:
                self.writer.write(record)
                self.recorded += 1
        except (TraceWriteError, ValueError, TypeError, RecursionError) as error:
            self.failed += 1
            if self.failed == 1:
                _warn(
                    f"cannot write to the trace file {self.writer.path} ({error}); "
                    "calls go on unrecorded until it can be written"
                )
        return None
