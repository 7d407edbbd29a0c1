"""Fuzzing the proxy's frame handling: the line splitter, Frame.parse, the relay with every hook
(identity, description router, trace recorder) and the trace file they write. Whatever the two
sides send, nothing raises, every frame leaves as one line, every rebuilt frame and every trace line
is strict JSON, and the trace file reads back. Deterministic (derandomize) and bounded."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcp_lint.overrides import Override  # noqa: E402
from mcp_lint.proxy import DescriptionRouter, Frame, Relay, ServerIdentity, TraceRecorder  # noqa: E402
from mcp_lint.proxy.jsonrpc import LineSplitter, MessageTooLarge  # noqa: E402
from mcp_lint.traces import TraceWriter, read_traces  # noqa: E402

FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=80,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def strict(raw: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


# Raw JSON the standard encoder cannot produce: kept as text and spliced into messages.
HOSTILE_VALUES = [
    "1e400",
    "-1e400",
    "NaN",
    "-Infinity",
    "9" * 4400,
    '"\\ud800"',
    '"\\udfff tail"',
    '"Bearer abcdef.ghijkl"',
    '"postgres://ada:s3cret@db/app"',
    "[" * 500 + "]" * 500,
    '{"a":' * 500 + "1" + "}" * 500,
    "[" * 1200 + "]" * 1200,
    '"\\u0000mcp-lint-number-0000:1e400"',
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["text", "token", "tokens", "max_tokens", "x", "api_key"]), inner, max_size=3
        ),
    ),
    max_leaves=8,
)
ids = st.one_of(st.integers(min_value=-3, max_value=3), st.sampled_from(["1", "a", None]), st.booleans())
METHODS = ["tools/call", "tools/list", "initialize", "server/discover", "notifications/cancelled", "ping"]


def message_text(kind: str, request_id: Any, method: str, payload: Any, hostile: str | None) -> str:
    value = hostile if hostile is not None else json.dumps(payload)
    rid = json.dumps(request_id)
    if kind == "request":
        params = f'{{"name":"echo","arguments":{{"text":{value}}},"requestId":{rid}}}'
        return f'{{"jsonrpc":"2.0","id":{rid},"method":"{method}","params":{params}}}'
    if kind == "notification":
        return f'{{"jsonrpc":"2.0","method":"{method}","params":{{"requestId":{rid}}}}}'
    if kind == "error":
        return f'{{"jsonrpc":"2.0","id":{rid},"error":{{"code":1,"message":{value}}}}}'
    tools = f'[{{"name":"echo","description":{value}}}]'
    content = f'[{{"type":"text","text":{value}}}]'
    result = (
        f'{{"tools":{tools},"content":{content},"structuredContent":{value},'
        f'"serverInfo":{{"name":{value}}},"isError":{value}}}'
    )
    return f'{{"jsonrpc":"2.0","id":{rid},"result":{result}}}'


def hostile_value(index: int) -> str:
    return HOSTILE_VALUES[index]


def pretty(text: str) -> bytes:
    """The message pretty-printed over several lines, as an event stream may carry it."""
    try:
        return json.dumps(json.loads(text), indent=2).encode()
    except (ValueError, RecursionError):
        return text.encode()


messages = st.builds(
    message_text,
    st.sampled_from(["request", "notification", "error", "result"]),
    ids,
    st.sampled_from(METHODS),
    json_values,
    st.one_of(st.none(), st.integers(min_value=0, max_value=len(HOSTILE_VALUES) - 1).map(hostile_value)),
)
raw_frames = st.one_of(
    messages.map(str.encode),
    st.lists(messages, min_size=1, max_size=3).map(lambda items: ("[" + ",".join(items) + "]").encode()),
    messages.map(pretty),
    st.binary(max_size=60),
    st.sampled_from([b"\xff\xfe{}", b'{"jsonrpc":"2.0","id":1,"result":"\xed\xa0\x80"}', b"[INFO] log"]),
)


def exchange(
    request_id: Any, method: str, payload: Any, hostile: str | None, kind: str
) -> list[tuple[bool, bytes]]:
    """A client request and the server's answer to it (so the hooks see them paired)."""
    return [
        (True, message_text("request", request_id, method, payload, None).encode()),
        (False, message_text(kind, request_id, method, payload, hostile).encode()),
    ]


exchanges_ = st.builds(
    exchange,
    ids,
    st.sampled_from(["tools/call", "tools/list", "initialize"]),
    json_values,
    st.one_of(st.none(), st.integers(min_value=0, max_value=len(HOSTILE_VALUES) - 1).map(hostile_value)),
    st.sampled_from(["result", "result", "error"]),
)
traffic = st.lists(
    st.one_of(exchanges_, st.tuples(st.booleans(), raw_frames).map(lambda item: [item])),
    min_size=1,
    max_size=8,
).map(lambda groups: [item for group in groups for item in group])


@FUZZ
@given(traffic)
# The shapes of the attacks in issue 20, always run: a huge number and a lone surrogate in a rebuilt
# tools/list answer, 500-deep structured output of a recorded call, a pretty-printed answer.
@example(exchange(1, "tools/list", {}, "1e400", "result"))
@example(exchange(2, "tools/list", {}, '"\\ud800"', "result"))
@example(exchange(3, "tools/call", {}, '{"a":' * 500 + "1" + "}" * 500, "result"))
@example(exchange(5, "tools/call", {}, "[" * 500 + "]" * 500, "result"))
@example(
    [
        (True, b'{"jsonrpc":"2.0","id":4,"method":"ping"}'),
        (False, b'{\n"jsonrpc": "2.0",\n"id": 4,\n"result": {}}'),
    ]
)
def test_the_relay_survives_any_traffic_and_writes_strict_lines(exchanges: list[tuple[bool, bytes]]) -> None:
    overrides = {("s", "echo"): Override(server="s", tool="echo", description="Echoes the text back.")}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "calls.jsonl"
        with TraceWriter(path) as writer:
            identity = ServerIdentity("s")
            relay = Relay([identity, DescriptionRouter(overrides, identity), TraceRecorder(writer, identity)])
            for from_client, raw in exchanges:
                frame = Frame.parse(raw)
                assert b"\n" not in frame.line and b"\r" not in frame.line
                if from_client:
                    relay.from_client(frame)
                    continue
                out = relay.from_server(frame)
                assert b"\n" not in out.line and b"\r" not in out.line
                if out is not frame:
                    strict(out.raw)
        for line in path.read_bytes().splitlines():
            assert isinstance(strict(line), dict)
        read_traces(path)


@FUZZ
@given(st.lists(st.binary(max_size=50), max_size=10), st.integers(min_value=8, max_value=64))
def test_the_line_splitter_yields_whole_lines_or_refuses(chunks: list[bytes], limit: int) -> None:
    splitter = LineSplitter(limit=limit)
    lines: list[bytes] = []
    try:
        for chunk in chunks:
            lines += splitter.feed(chunk)
        lines += splitter.rest()
    except MessageTooLarge as error:
        assert "without a newline" in str(error)
        return
    assert all(b"\n" not in line and line.strip() for line in lines)
    expected = [part.rstrip(b"\r").strip() for part in b"".join(chunks).split(b"\n")]
    assert [line.strip() for line in lines] == [part for part in expected if part]
