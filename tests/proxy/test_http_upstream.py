"""`mcp-lint record --url`: a stdio-to-Streamable-HTTP bridge in front of a real HTTP server."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from proxy_support import SERVERS, TRACE_SERVER, environment, proxied, traces

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
