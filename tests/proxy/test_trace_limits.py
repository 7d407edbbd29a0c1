"""Issue 20: what a trace record may hold (caps, strict JSON) and what a failing trace file does."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from proxy_support import TRACE_SERVER, environment, mcp_lint, proxy_lines

from mcp_lint.proxy.record import trace_record
from mcp_lint.proxy.relay import PendingRequest
from mcp_lint.traces import MAX_RESULT_CHARACTERS, TraceWriter, read_traces

HUGE = 20 * 1024 * 1024


def call(arguments: dict[str, Any]) -> PendingRequest:
    return PendingRequest("tools/call", {"name": "t", "arguments": arguments}, time.monotonic(), "now")


def test_error_messages_and_arguments_are_capped(tmp_path: Path) -> None:
    big = "e" * HUGE
    record = trace_record(call({"path": "/a", "body": big}), {"error": {"code": 1, "message": big}}, "s")
    assert record is not None and record.truncated
    assert record.error is not None and len(record.error) <= MAX_RESULT_CHARACTERS
    assert record.arguments["path"] == "/a" and len(json.dumps(dict(record.arguments))) < 20_000
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as writer:
        writer.write(record)
        writer.write(record)
    assert path.stat().st_size < 100_000


def test_trace_lines_are_strict_json(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as writer:
        writer.write(call_record({"x": float("inf"), "y": float("nan")}))
    line = path.read_text(encoding="utf-8")
    json.loads(line, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    assert "Infinity" not in line and "NaN" not in line


def call_record(arguments: dict[str, Any]) -> Any:
    record = trace_record(call(arguments), {"result": {"content": []}}, "s")
    assert record is not None
    return record


LIMITED_WRITER = """
import resource, signal, sys
from pathlib import Path
from mcp_lint.traces import TraceRecord, TraceWriter
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
writer = TraceWriter(Path(sys.argv[1]))
failures = 0
for number in range(12):
    try:
        writer.write(TraceRecord("t", {"n": number, "pad": "p" * 150}))
    except OSError as error:
        failures += 1
print(failures)
"""


def test_a_short_write_leaves_no_half_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", LIMITED_WRITER, str(path)],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0  # the file size limit was hit
    data = path.read_bytes()
    assert data.endswith(b"\n") and len(data) <= 1000
    assert [record.arguments["n"] for record in read_traces(path)] == list(range(len(data.splitlines())))


def _limit_file_size() -> None:
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def test_a_failing_trace_file_is_a_warning_and_the_relay_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    messages = [
        INITIALIZE,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "big", "arguments": {"size": 3000}},
        },
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"}},
        },
    ]
    process = subprocess.Popen(
        mcp_lint("record", "--traces", str(path), "--", *TRACE_SERVER),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
        preexec_fn=_limit_file_size,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
    process.stdin.flush()
    answers = [json.loads(process.stdout.readline()) for _ in range(3)]
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0 and stdout == b"", stderr.decode()
    # Answers may come in any order (JSON-RPC pairs them by id; the big call can finish after echo).
    by_id = {answer["id"]: answer for answer in answers}
    assert sorted(by_id) == [0, 1, 2]
    assert by_id[2]["result"]["content"][0]["text"] == "hi"
    assert path.read_bytes() == b"" or path.read_bytes().endswith(b"\n")
    lines = proxy_lines(stderr.decode())
    assert any("cannot write to the trace file" in line for line in lines), lines
    assert any("1 could not be written" in line for line in lines), lines
    assert "Traceback" not in stderr.decode()
