"""Issue 20: the HTTP bridge against a hostile server (another origin, an endless JSON body)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hostile_http import hostile_server
from proxy_support import environment, proxy_lines

from mcp_lint.proxy.jsonrpc import MAX_MESSAGE_BYTES

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2024-11-05",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def record(tmp_path: Path, url: str, *extra: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    command = [
        sys.executable,
        "-m",
        "mcp_lint",
        "record",
        "--traces",
        str(tmp_path / "t.jsonl"),
        "--url",
        url,
    ]
    return subprocess.run([*command, *extra], input=stdin, capture_output=True, env=environment(), timeout=60)


def test_an_sse_endpoint_on_another_origin_is_refused(tmp_path: Path) -> None:
    with hostile_server({"/messages": "record"}) as elsewhere:
        with hostile_server({"/sse": f"sse-endpoint:{elsewhere.origin}/messages"}) as stream:
            done = record(
                tmp_path,
                f"{stream.origin}/sse",
                "--transport",
                "sse",
                "--header",
                "Authorization: Bearer abcdef-123456",
                stdin=(json.dumps(INITIALIZE) + "\n").encode(),
            )
        assert elsewhere.seen == []  # the user's Authorization never went to the other origin
    assert done.returncode == 3, done.stderr.decode()
    [line] = proxy_lines(done.stderr.decode())
    assert "another origin" in line and elsewhere.origin in line


def test_a_json_answer_larger_than_the_cap_is_refused_and_the_request_answered(tmp_path: Path) -> None:
    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "x", "arguments": {}}}
    with hostile_server({"/mcp": f"json:{MAX_MESSAGE_BYTES + (8 << 20)}"}) as server:
        done = record(tmp_path, f"{server.origin}/mcp", stdin=(json.dumps(call) + "\n").encode())
    assert done.returncode == 0, done.stderr.decode()
    [answer] = done.stdout.splitlines()
    assert len(answer) < 10_000
    message = json.loads(answer)
    assert message["id"] == 5 and "32 MiB" in message["error"]["message"]
    assert (tmp_path / "t.jsonl").read_bytes() == b""


def test_the_session_delete_answer_is_not_read(tmp_path: Path) -> None:
    legacy = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": "2025-06-18"}}
    size = MAX_MESSAGE_BYTES + (64 << 20)
    with hostile_server({"/mcp": f"session-delete:{size}"}) as server:
        done = record(tmp_path, f"{server.origin}/mcp", stdin=(json.dumps(legacy) + "\n").encode())
        deleted = [seen for seen in server.seen if seen[0] == "DELETE"]
    assert done.returncode == 0, done.stderr.decode()
    assert deleted and deleted[0][2].get("mcp-session-id") == "s-1"
    assert server.sent < MAX_MESSAGE_BYTES  # the proxy closed the answer instead of buffering 96 MiB


CALL = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "x", "arguments": {}}}


def test_a_pretty_printed_event_stream_answer_reaches_the_client_as_one_line(tmp_path: Path) -> None:
    """For real, over HTTP: the JSON of an event spread over several `data:` lines is one line on stdout."""
    with hostile_server({"/mcp": "sse-pretty"}) as server:
        done = record(tmp_path, f"{server.origin}/mcp", stdin=(json.dumps(CALL) + "\n").encode())
    assert done.returncode == 0, done.stderr.decode()
    [answer] = done.stdout.splitlines()
    assert json.loads(answer)["result"]["content"][0]["text"] == "two\nlines"
    [recorded] = (tmp_path / "t.jsonl").read_bytes().splitlines()
    assert json.loads(recorded)["structuredContent"] == {"a": [1, 2]}


def test_an_event_larger_than_the_cap_is_refused_and_the_request_answered(tmp_path: Path) -> None:
    with hostile_server({"/mcp": "sse-endless"}) as server:
        done = record(tmp_path, f"{server.origin}/mcp", stdin=(json.dumps(CALL) + "\n").encode())
        sent = server.sent
    assert done.returncode == 0, done.stderr.decode()
    [answer] = done.stdout.splitlines()
    message = json.loads(answer)
    assert message["id"] == 5 and "33554432 byte limit" in message["error"]["message"]
    assert sent < 2 * MAX_MESSAGE_BYTES  # the proxy stopped reading at the cap, not at the end
    assert (tmp_path / "t.jsonl").read_bytes() == b""
