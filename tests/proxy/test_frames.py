"""Issue 20: frames the relay rebuilds or writes stay strict JSON, one line each, matched honestly."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio

from mcp_lint.proxy import Frame, PendingRequest, Relay, ServerIdentity, TraceRecorder
from mcp_lint.proxy.downstream import StdioClientSide
from mcp_lint.traces import TraceWriter, read_traces


def strict(raw: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


class Stamp:
    """A hook that replaces every answer (as the description router does), forcing a rebuild."""

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> dict[str, Any]:
        return {**response, "stamped": True}


def rebuilt(raw: bytes) -> Frame:
    relay = Relay([Stamp()])
    relay.from_client(Frame.parse(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))
    return relay.from_server(Frame.parse(raw))


def test_a_huge_number_is_rebuilt_as_a_number_not_infinity() -> None:
    out = rebuilt(b'{"jsonrpc":"2.0","id":1,"result":{"big":1e400,"small":-2.5e-400,"n":3}}')
    document = strict(out.raw)
    assert document["stamped"] is True
    assert float(out.raw.split(b'"big":')[1].split(b",")[0]) == float("inf")  # still the huge number
    assert document["result"]["n"] == 3


def test_nan_and_infinity_literals_are_not_written_back() -> None:
    out = rebuilt(b'{"jsonrpc":"2.0","id":1,"result":{"a":NaN,"b":-Infinity}}')
    assert strict(out.raw)["stamped"] is True


def test_a_lone_surrogate_is_rebuilt_escaped() -> None:
    out = rebuilt(b'{"jsonrpc":"2.0","id":1,"result":{"text":"\\ud800 x"}}')
    assert strict(out.raw)["result"]["text"] == "\ud800 x"


def test_a_pretty_printed_message_reaches_the_client_as_one_line() -> None:
    pretty = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"a": "b\nc"}}, indent=2).encode()
    read_fd, write_fd = os.pipe()
    try:
        anyio.run(StdioClientSide(-1, write_fd).write, Frame.parse(pretty.replace(b"\n", b"\r\n")))
        os.close(write_fd)
        written = os.read(read_fd, 1 << 16)
    finally:
        os.close(read_fd)
    assert written.count(b"\n") == 1 and written.endswith(b"\n")
    assert strict(written)["result"] == {"a": "b\nc"}


def call(request_id: Any, text: str) -> Frame:
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": text}},
    }
    return Frame.encode(message)


def result(request_id: Any, text: str) -> Frame:
    return Frame.encode(
        {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}}
    )


def test_a_reused_request_id_never_pairs_a_call_with_another_calls_answer(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as writer:
        relay = Relay([TraceRecorder(writer, ServerIdentity("s"))])
        relay.from_client(call(1, "first"))
        relay.from_client(call(1, "second"))  # the same id while the first is in flight
        relay.from_server(result(1, "first"))
        relay.from_server(result(1, "second"))
        relay.from_client(call(2, "third"))
        relay.from_server(result(2, "third"))
    records = read_traces(path)
    assert all(record.arguments["text"] == record.result_text() for record in records)
    assert [record.result_text() for record in records][-1:] == ["third"]
    assert relay.pending == {}
