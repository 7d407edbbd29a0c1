"""`mcp-lint record --url`: a stdio-to-Streamable-HTTP bridge in front of a real HTTP server."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types
import pytest
from proxy_support import SERVERS, TRACE_SERVER, environment, proxied, proxy_lines, traces

from mcp_lint.reflect.stdio import ProcessMonitor
from mcp_lint.traces import REDACTED

BEARER = "Bearer abcdef-123456-secret"


@contextlib.contextmanager
def http_server(command: list[str], path: str) -> Iterator[str]:
    """Start a fixture server that prints `LISTENING <port>`; yield its URL; stop it."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=environment(),
    )
    stdout = process.stdout
    assert stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout=30)
    try:
        if not lines or not lines[0].startswith("LISTENING "):
            pytest.fail(f"the HTTP trace server did not start: {lines!r}")
        port = int(lines[0].split()[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with http_server([*TRACE_SERVER, "--http"], "/mcp") as found:
        yield found


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_http_bridge_relays_and_records(url: str, tmp_path: Path, mode: str) -> None:
    path = tmp_path / "calls.jsonl"
    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    versions: list[str | None] = []

    async def main() -> tuple[set[str], dict[int, str], str]:
        args = ["record", "--traces", str(path), "--url", url, "--header", f"Authorization: {BEARER}"]
        answers: dict[int, str] = {}
        async with proxied(args, mode=mode) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            versions.append(client.protocol_version)

            async def call(number: int) -> None:
                result = await client.call_tool("slow_echo", {"text": f"call {number}", "delay": 0.05})
                answers[number] = result.content[0].text  # type: ignore[union-attr]

            async with anyio.create_task_group() as group:
                for number in range(20):
                    group.start_soon(call, number)
            done = await client.call_tool("progress", {"steps": 2}, progress_callback=on_progress)
            # A token the server echoes back must not reach the trace, as it came through a header.
            echoed = await client.call_tool("echo", {"text": BEARER.split()[1]})
            assert echoed.content[0].text == BEARER.split()[1]  # type: ignore[union-attr]
        return names, answers, done.content[0].text  # type: ignore[union-attr]

    names, answers, done = anyio.run(main)
    # auto negotiates the stateless 2026 protocol (per-request headers), legacy the session handshake
    assert (versions[0] == "2026-07-28") == (mode == "auto")
    assert {"echo", "slow_echo", "crash"} <= names
    assert answers == {number: f"call {number}" for number in range(20)}
    assert done == "done" and progress == [1, 2]
    records = traces(path)
    assert len(records) == 22
    assert sorted(record.result_text() for record in records[:20]) == sorted(answers.values())
    assert records[-1].result_text() == REDACTED
    assert "abcdef-123456-secret" not in path.read_text(encoding="utf-8")
    assert {record.server for record in records} == {"trace-server"}


def test_the_bridge_speaks_the_older_sse_transport(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"

    async def main(url: str) -> str:
        args = ["record", "--traces", str(path), "--transport", "sse", "--url", url]
        async with proxied(args, mode="legacy") as client:
            result = await client.call_tool("add", {"a": 2, "b": 3})
        return result.content[0].text  # type: ignore[union-attr]

    with http_server([sys.executable, str(SERVERS / "http_server.py"), "--transport", "sse"], "/sse") as url:
        assert anyio.run(main, url) == "5"
    [record] = traces(path)
    assert (record.tool, dict(record.arguments), record.result_text()) == ("add", {"a": 2, "b": 3}, "5")
    assert record.server == "good-server"


def test_server_requests_reach_the_client_through_the_http_bridge(url: str, tmp_path: Path) -> None:
    # In the handshake era a server asks the client on the POST's event stream, and the client's
    # answer is a POST of its own: both legs go through the bridge.
    path = tmp_path / "calls.jsonl"
    asked: list[str] = []

    async def on_elicit(context: Any, params: Any) -> mcp_types.ElicitResult:
        asked.append(params.message)
        return mcp_types.ElicitResult(action="accept", content={"ok": True})

    async def main() -> str:
        args = ["record", "--traces", str(path), "--url", url]
        async with proxied(args, mode="legacy", elicitation_callback=on_elicit) as client:
            result = await client.call_tool("confirm", {})
        return result.content[0].text  # type: ignore[union-attr]

    assert anyio.run(main).startswith("accept") and asked == ["Proceed?"]
    [record] = traces(path)
    assert record.tool == "confirm" and record.result_text().startswith("accept")


def leaves(error: BaseException) -> list[BaseException]:
    inner = getattr(error, "exceptions", None)
    return [leaf for item in inner for leaf in leaves(item)] if inner else [error]


def test_an_unreachable_url_answers_each_request_with_an_error(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monitor = ProcessMonitor(command="mcp-lint record")
    raised: list[str] = []

    async def main() -> None:
        args = ["record", "--traces", str(tmp_path / "t.jsonl"), "--url", f"http://127.0.0.1:{port}/mcp"]
        try:
            async with proxied(args, mode="legacy", monitor=monitor):
                pass
        except Exception as error:  # the SDK client fails its handshake with the proxy's error answer
            raised.extend(str(leaf) for leaf in leaves(error))

    anyio.run(main)
    assert raised and f"127.0.0.1:{port}" in raised[0]
    assert monitor.returncode == 0 and not monitor.signalled
    # Said once however many requests failed, then the closing count.
    warning, summary = proxy_lines(monitor.stderr_tail.decode())
    assert warning.startswith(f"mcp-lint: cannot reach http://127.0.0.1:{port}/mcp")
    assert summary.startswith("mcp-lint: 0 tools/call recorded")


def test_a_cancelled_call_aborts_its_post_on_the_2026_protocol(url: str, tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    monitor = ProcessMonitor(command="mcp-lint record")

    async def main() -> str:
        args = ["record", "--traces", str(path), "--url", url]
        async with proxied(args, monitor=monitor) as client:
            with anyio.move_on_after(1.0):
                await client.call_tool("slow_echo", {"text": "never", "delay": 60})
            result = await client.call_tool("echo", {"text": "still here"})
        return result.content[0].text  # type: ignore[union-attr]

    assert anyio.run(main) == "still here"
    # The abandoned POST was closed, not left waiting a minute: the proxy exits as soon as asked.
    assert monitor.returncode == 0 and not monitor.signalled
    assert [record.tool for record in traces(path)] == ["echo"]


def test_url_credentials_are_secrets_and_the_proxys_own_errors_are_not_recorded(
    url: str, tmp_path: Path
) -> None:
    path = tmp_path / "calls.jsonl"
    keyed = url.replace("http://", "http://ada:pa55-w0rd-x@") + "?api_key=KEY-31337-abc&page=2"

    async def main() -> list[str]:
        args = ["record", "--traces", str(path), "--url", keyed]
        async with proxied(args, mode="legacy") as client:
            return [
                (await client.call_tool("echo", {"text": text})).content[0].text  # type: ignore[union-attr]
                for text in ("KEY-31337-abc", "pa55-w0rd-x")
            ]

    assert anyio.run(main) == ["KEY-31337-abc", "pa55-w0rd-x"]
    text = path.read_text(encoding="utf-8")
    assert "KEY-31337-abc" not in text and "pa55-w0rd-x" not in text
    assert [record.result_text() for record in traces(path)] == [REDACTED, REDACTED]


def test_the_proxys_own_errors_are_never_recorded_as_the_tools(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    path = tmp_path / "t.jsonl"
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mcp_lint",
            "record",
            "--traces",
            str(path),
            "--url",
            f"http://127.0.0.1:{port}/mcp?token=KEY-31337-abc",
        ],
        input=(json.dumps(call) + "\n").encode(),
        capture_output=True,
        env=environment(),
        timeout=60,
    )
    answer = json.loads(done.stdout)
    assert answer["id"] == 7 and "error" in answer
    assert done.returncode == 0 and path.read_bytes() == b""
    assert "KEY-31337-abc" not in done.stderr.decode() + done.stdout.decode()
