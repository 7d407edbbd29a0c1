"""Fuzzing the trace reader: whatever a trace file holds (hostile JSON lines, deep nesting, huge
numbers, invalid UTF-8, stray bytes), reading it gives records or one clear UsageError line naming
the file, never a traceback. Deterministic (derandomize) and bounded, like tests/test_fuzz.py."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcp_lint.errors import UsageError  # noqa: E402
from mcp_lint.traces import TraceRecord, read_traces  # noqa: E402

FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=60,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

GOOD = json.dumps({"tool": "echo", "arguments": {"text": "hi"}, "content": [{"type": "text", "text": "hi"}]})

HOSTILE_LINES = [
    GOOD,
    "[" * 5000 + "]" * 5000,
    '{"tool": "t", "arguments": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}",
    '{"tool": "t", "arguments": {}, "time": ' + "[" * 900 + "]" * 900 + "}",
    '{"tool": "t", "arguments": {}, "server": ' + '{"a":' * 900 + "1" + "}" * 900 + "}",
    '{"tool": "t", "arguments": {"n": ' + "9" * 5000 + "}}",
    '{"tool": "t", "arguments": {"n": 1e400}, "durationMs": 1e400}',
    '{"tool": "t", "arguments": {"n": NaN}, "durationMs": -Infinity}',
    '{"tool": "t", "arguments": {}, "durationMs": ' + "1" * 5000 + "}",
    '{"tool": "\\ud800", "arguments": {"x": "\\udfff"}}',
    '{"tool": "t", "arguments": {}, "content": [{"type": "text", "text": ' + "[" * 900 + "]" * 900 + "}]}",
    '{"tool": "t", "arguments": {}, "error": ' + "[" * 900 + "]" * 900 + "}",
    '{"tool": "t", "arguments": {}, "structuredContent": ' + "[" * 900 + "]" * 900 + "}",
    '{"tool": null}',
    "[]",
    '"just a string"',
    "{",
    "\x00\x1b[31m",
]


def hostile_bytes() -> st.SearchStrategy[bytes]:
    line = st.one_of(
        st.sampled_from(HOSTILE_LINES).map(str.encode),
        st.binary(max_size=40),
        st.sampled_from([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\r", b"\x00"]),
        st.text(max_size=30).map(lambda text: text.encode("utf-8", "surrogatepass")),
    )
    return st.lists(line, min_size=1, max_size=6).map(lambda lines: b"\n".join(lines))


def read(data: bytes) -> list[TraceRecord] | str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "calls.jsonl"
        path.write_bytes(data)
        try:
            return read_traces(path)
        except UsageError as error:
            message = str(error)
            assert message.startswith(str(path)) and "\n" not in message and "Traceback" not in message
            return message


@FUZZ
@given(hostile_bytes())
def test_the_trace_reader_gives_records_or_one_clear_line(data: bytes) -> None:
    outcome = read(data)
    if isinstance(outcome, list):
        assert all(isinstance(record, TraceRecord) and record.tool for record in outcome)


@pytest.mark.parametrize("line", HOSTILE_LINES)
def test_each_hostile_line_alone(line: str) -> None:
    outcome = read(line.encode("utf-8", "surrogatepass"))
    assert isinstance(outcome, list | str)
