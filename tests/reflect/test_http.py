"""Reflection over Streamable HTTP, the SSE fallback, and header authentication."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from reflect_support import SERVERS, assert_not_running

from mcp_lint.reach.targets import HttpTarget
from mcp_lint.reflect import reflect_all

TIMEOUT = 5.0
TOOLS = ["convert_length", "add", "days_between"]


@dataclass
class HttpServer:
    process: subprocess.Popen[str]
    port: int

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def spawn_server(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(SERVERS / "http_server.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def await_server(process: subprocess.Popen[str]) -> HttpServer:
    """Wait for the `LISTENING <port>` line (or the end of stdout if it died), then for the port to
    accept a connection. A server that neither prints nor dies is pytest-timeout's."""
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("LISTENING "):
        process.kill()
        process.wait()
        pytest.fail(f"{process.args!r} did not start: {line!r}")
    port = int(line.split()[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    return HttpServer(process, port)


def stop_server(server: HttpServer) -> None:
    server.process.terminate()
    server.process.wait()
    assert_not_running(server.process.pid)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, HttpServer]]:
    modes = {"streamable": (), "sse": ("--transport", "sse"), "bearer": ("--bearer", "x")}
    processes = {name: spawn_server(*args) for name, args in modes.items()}
    started: dict[str, HttpServer] = {}
    try:
        for name, process in processes.items():
            started[name] = await_server(process)
        yield started
    finally:
        for name, process in processes.items():
            stop_server(started.get(name) or HttpServer(process, 0))


def test_streamable_http(servers: dict[str, HttpServer]) -> None:
    target = HttpTarget("streamable", servers["streamable"].url("/mcp"))
    [result] = reflect_all([target], TIMEOUT)
    assert result.error is None, result.error
    snapshot = result.snapshot
    assert snapshot is not None
    assert [tool.name for tool in snapshot.tools] == TOOLS
    assert snapshot.protocol_version == "2026-07-28"
    assert snapshot.server_info == {"name": "good-server", "version": "1.0.0"}
    assert snapshot.observations == ()


def test_streamable_http_forced(servers: dict[str, HttpServer]) -> None:
    [result] = reflect_all(
        [HttpTarget("forced", servers["streamable"].url("/mcp"), transport="http")], TIMEOUT
    )
    assert result.error is None, result.error
    assert result.snapshot is not None and [tool.name for tool in result.snapshot.tools] == TOOLS


@pytest.mark.parametrize("transport", ["auto", "sse"])
def test_sse_only_server(servers: dict[str, HttpServer], transport: str) -> None:
    target = HttpTarget(f"sse-{transport}", servers["sse"].url("/sse"), transport=transport)
    [result] = reflect_all([target], TIMEOUT)
    assert result.error is None, result.error
    assert result.snapshot is not None
    assert [tool.name for tool in result.snapshot.tools] == TOOLS


def test_sse_only_server_refuses_forced_streamable_http(servers: dict[str, HttpServer]) -> None:
    [result] = reflect_all([HttpTarget("sse-http", servers["sse"].url("/sse"), transport="http")], TIMEOUT)
    assert result.snapshot is None
    assert result.error is not None and result.error.startswith("server 'sse-http' (http://127.0.0.1:")
    assert "http:" in result.error and "sse:" not in result.error


def test_bearer_header_is_sent(servers: dict[str, HttpServer]) -> None:
    target = HttpTarget("auth", servers["bearer"].url("/mcp"), headers={"Authorization": "Bearer x"})
    [result] = reflect_all([target], TIMEOUT)
    assert result.error is None, result.error
    assert result.snapshot is not None and [tool.name for tool in result.snapshot.tools] == TOOLS


def test_missing_bearer_header_is_a_clear_error(servers: dict[str, HttpServer]) -> None:
    url = servers["bearer"].url("/mcp")
    [result] = reflect_all([HttpTarget("noauth", url)], TIMEOUT)
    assert result.snapshot is None
    assert result.error is not None
    assert url in result.error and "401" in result.error and "--header" in result.error


def test_missing_bearer_header_error_is_one_line(servers: dict[str, HttpServer]) -> None:
    [result] = reflect_all([HttpTarget("noauth", servers["bearer"].url("/mcp"))], TIMEOUT)
    assert result.error is not None and "\n" not in result.error


def test_missing_bearer_header_over_forced_http_mentions_401(servers: dict[str, HttpServer]) -> None:
    [result] = reflect_all([HttpTarget("noauth", servers["bearer"].url("/mcp"), transport="http")], TIMEOUT)
    assert result.error is not None and "401" in result.error


def test_wrong_bearer_token_is_refused(servers: dict[str, HttpServer]) -> None:
    target = HttpTarget("wrong", servers["bearer"].url("/mcp"), headers={"Authorization": "Bearer nope"})
    [result] = reflect_all([target], TIMEOUT)
    assert result.snapshot is None and result.error is not None


def test_nothing_listening() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    [result] = reflect_all([HttpTarget("dead", f"http://127.0.0.1:{port}/mcp")], TIMEOUT)
    assert result.snapshot is None
    assert result.error is not None and "ConnectError" in result.error and "server is running" in result.error


def test_stdio_and_http_targets_in_one_run(servers: dict[str, HttpServer]) -> None:
    from mcp_lint.reach.targets import StdioTarget

    targets = [
        HttpTarget("remote", servers["streamable"].url("/mcp")),
        StdioTarget("local", sys.executable, (str(SERVERS / "good_server.py"),)),
    ]
    results = reflect_all(targets, TIMEOUT)
    assert [result.name for result in results] == ["remote", "local"]
    assert all(result.error is None and result.snapshot is not None for result in results)
