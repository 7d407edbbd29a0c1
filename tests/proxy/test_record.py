"""`mcp-lint record` in front of a real stdio server, driven by the real SDK client."""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import anyio
import mcp_types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from proxy_support import (
    SERVERS,
    TRACE_SERVER,
    environment,
    mcp_lint,
    proxied,
    proxy_lines,
    traces,
)

from mcp_lint.reflect.stdio import ProcessMonitor
from mcp_lint.traces import MAX_RESULT_CHARACTERS, REDACTED

SECRET_TOKEN = "tok-4f9a7c1e2b8d"  # passed with --env SERVICE_TOKEN=...: never in a trace
API_KEY = "hunter2-correct-horse"  # an `api_key` argument: never in a trace


def record_args(path: Path, *extra: str) -> list[str]:
    return ["record", "--traces", str(path), *extra, "--", *TRACE_SERVER]


def tool_dump(tools: list[Any]) -> list[dict[str, Any]]:
    return [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_tools_list_is_unchanged_through_record(tmp_path: Path, mode: str) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with proxied(record_args(tmp_path / "t.jsonl"), mode=mode) as client:
            through = tool_dump((await client.list_tools()).tools)
        direct_params = StdioServerParameters(command=TRACE_SERVER[0], args=list(TRACE_SERVER[1:]))
        async with Client(direct_params, mode=mode) as direct:
            return through, tool_dump((await direct.list_tools()).tools)

    through, direct = anyio.run(main)
    assert through == direct
    assert {tool["name"] for tool in through} >= {"echo", "slow_echo", "login", "crash"}


RAW_SESSION = {
    "legacy": [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "two", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "no/such/method"},
    ],
    "2026": [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ],
}


def run_raw(command: list[str], messages: list[dict[str, Any]]) -> bytes:
    stdin = b"".join(json.dumps(message).encode() + b"\n" for message in messages)
    done = subprocess.run(command, input=stdin, capture_output=True, env=environment(), timeout=60)
    return done.stdout


@pytest.mark.parametrize("era", ["legacy", "2026"])
def test_payloads_the_sdk_rejects_pass_byte_for_byte(tmp_path: Path, era: str) -> None:
    # The raw server sends tools the SDK refuses (a schema without "type", a name with spaces): a
    # relay that validated with SDK models would drop or alter them.
    server = [sys.executable, str(SERVERS / "lowlevel_raw_server.py"), "--era", era]
    direct = run_raw(server, RAW_SESSION[era])
    through = run_raw(
        mcp_lint("record", "--traces", str(tmp_path / "t.jsonl"), "--", *server), RAW_SESSION[era]
    )
    assert direct.count(b"\n") == len([m for m in RAW_SESSION[era] if "id" in m])
    assert through == direct
    assert b"schema_without_type" in through


def test_calls_are_recorded_with_arguments_result_error_flag_and_duration(tmp_path: Path) -> None:
    path = tmp_path / "traces" / "calls.jsonl"
    before = datetime.now(timezone.utc)

    async def main() -> list[mcp_types.CallToolResult]:
        async with proxied(record_args(path)) as client:
            return [
                await client.call_tool("echo", {"text": "hello"}),
                await client.call_tool("slow_echo", {"text": "late", "delay": 0.3}),
                await client.call_tool("fail", {"reason": "the disk is full"}),
                await client.call_tool("big", {"size": MAX_RESULT_CHARACTERS * 3}),
            ]

    results = anyio.run(main)
    assert results[3].content[0].text == "x" * (MAX_RESULT_CHARACTERS * 3)  # type: ignore[union-attr]
    echo, slow, failed, large = traces(path)
    assert (echo.tool, dict(echo.arguments), echo.result_text()) == ("echo", {"text": "hello"}, "hello")
    assert echo.server == "trace-server" and echo.succeeded and not echo.truncated
    assert slow.duration_ms >= 300 > echo.duration_ms
    assert failed.is_error and "the disk is full" in failed.result_text() and not failed.succeeded
    assert large.truncated and len(large.result_text()) == MAX_RESULT_CHARACTERS
    stamp = datetime.fromisoformat(echo.time.replace("Z", "+00:00"))
    assert echo.time.endswith("Z") and before <= stamp <= datetime.now(timezone.utc)


def test_secrets_never_reach_the_trace_file(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"

    async def main() -> tuple[str, str]:
        args = record_args(path, "--env", f"SERVICE_TOKEN={SECRET_TOKEN}")
        async with proxied(args) as client:
            config = await client.call_tool("read_config", {})
            login = await client.call_tool("login", {"user": "ada", "api_key": API_KEY})
        return config.content[0].text, login.content[0].text  # type: ignore[union-attr]

    config_text, login_text = anyio.run(main)
    assert SECRET_TOKEN in config_text and login_text == "welcome ada"  # the client sees the real answer
    text = path.read_text(encoding="utf-8")
    assert SECRET_TOKEN not in text and API_KEY not in text
    config, login = traces(path)
    assert config.result_text() == f"connected with token {REDACTED}"
    assert dict(login.arguments) == {"user": "ada", "api_key": REDACTED}


def test_concurrent_calls_are_all_answered_and_all_recorded(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    count = 24
    answers: dict[int, str] = {}

    async def main() -> None:
        async with proxied(record_args(path)) as client:

            async def call(number: int) -> None:
                # Later calls finish first: answers come back out of order and must still be matched.
                delay = (count - number) * 0.02
                result = await client.call_tool("slow_echo", {"text": f"call {number}", "delay": delay})
                answers[number] = result.content[0].text  # type: ignore[union-attr]

            async with anyio.create_task_group() as group:
                for number in range(count):
                    group.start_soon(call, number)

    anyio.run(main)
    assert answers == {number: f"call {number}" for number in range(count)}
    records = traces(path)
    assert len(records) == count
    assert sorted(record.result_text() for record in records) == sorted(answers.values())
    assert all(record.arguments["text"] == record.result_text() for record in records)


def test_notifications_and_server_requests_pass(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    progress: list[tuple[float, str | None]] = []
    asked: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async def on_elicit(context: Any, params: Any) -> mcp_types.ElicitResult:
        asked.append(params.message)
        return mcp_types.ElicitResult(action="accept", content={"ok": True})

    async def main() -> tuple[str, str]:
        # Elicitation as a server-to-client request is the handshake era's; 2026 asks in a result.
        async with proxied(record_args(path), mode="legacy", elicitation_callback=on_elicit) as client:
            done = await client.call_tool("progress", {"steps": 3}, progress_callback=on_progress)
            confirmed = await client.call_tool("confirm", {})
        return done.content[0].text, confirmed.content[0].text  # type: ignore[union-attr]

    done, confirmed = anyio.run(main)
    assert done == "done" and progress == [(1, "step 1"), (2, "step 2"), (3, "step 3")]
    assert asked == ["Proceed?"] and confirmed.startswith("accept")
    assert [record.tool for record in traces(path)] == ["progress", "confirm"]


def test_a_server_crash_ends_the_session_with_an_error_and_one_line(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    monitor = ProcessMonitor(command="mcp-lint record")
    raised: list[BaseException] = []

    async def main() -> None:
        async with proxied(record_args(path), monitor=monitor) as client:
            await client.call_tool("echo", {"text": "before"})
            try:
                await client.call_tool("crash", {})
            except MCPError as error:
                raised.append(error)

    anyio.run(main)
    assert raised and "exited with code 1" in str(raised[0])
    assert monitor.returncode == 3 and not monitor.signalled
    [line] = proxy_lines(monitor.stderr_tail.decode())
    assert line.startswith("mcp-lint: error: server 'trace-server'") and "exited with code 1" in line
    assert [record.tool for record in traces(path)] == ["echo"]


def test_an_unknown_command_is_exit_3_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        mcp_lint("record", "--traces", str(tmp_path / "t.jsonl"), "--", "mcp-lint-no-such-server-xyz"),
        input=b"",
        capture_output=True,
        env=environment(),
        timeout=60,
    )
    assert done.returncode == 3 and done.stdout == b""
    [line] = done.stderr.decode().splitlines()
    assert "mcp-lint-no-such-server-xyz" in line and "not found on PATH" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["record", "--", sys.executable], "missing option '--traces'"),
        (["record", "--traces", "t.jsonl"], "needs the server to front"),
        (["record", "--traces", "t.jsonl", "--url", "ftp://x", "--", "srv"], "either"),
        (["record", "--traces", "t.jsonl", "--header", "A: b", "--", "srv"], "--header is for --url"),
        (["record", "--traces", "t.jsonl", "--env", "NOVALUE", "--", "srv"], "expected KEY=VALUE"),
    ],
)
def test_usage_errors_are_exit_2_with_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    done = subprocess.run(mcp_lint(*args), capture_output=True, env=environment(), timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == b""
    [line] = done.stderr.decode().splitlines()
    assert message in line


def test_stdout_carries_only_protocol_messages_from_a_polluting_server(tmp_path: Path) -> None:
    server = [sys.executable, str(SERVERS / "garbage_stdout_server.py")]
    messages = [*RAW_SESSION["legacy"][:2], {"jsonrpc": "2.0", "id": 9, "method": "tools/list"}]
    process = subprocess.Popen(
        mcp_lint("record", "--traces", str(tmp_path / "t.jsonl"), "--", *server),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
    process.stdin.flush()
    # An SDK server drops what is in flight when its stdin closes: keep it open until both answers came.
    answers = [json.loads(process.stdout.readline()), json.loads(process.stdout.readline())]
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0 and stdout == b""
    assert [answer["id"] for answer in answers] == [1, 9]
    assert "ping_host" in json.dumps(answers[1])
    assert any(
        "not JSON-RPC, not forwarded: Starting server" in line for line in proxy_lines(stderr.decode())
    )


def test_a_terminated_proxy_stops_the_server(tmp_path: Path) -> None:
    # The server writes its pid into a FIFO: reading it waits for the server to run, no polling.
    pid_file = tmp_path / "server.pid"
    os.mkfifo(pid_file)
    process = subprocess.Popen(
        mcp_lint(
            "record", "--traces", str(tmp_path / "t.jsonl"), "--", *TRACE_SERVER, "--pid-file", str(pid_file)
        ),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
    )
    server_pid = int(pid_file.read_text(encoding="utf-8"))
    # The server is not our child: a pidfd becomes readable when it exits, whoever reaps it.
    server = os.pidfd_open(server_pid)
    try:
        process.terminate()
        _, stderr = process.communicate()
        assert process.returncode == 143 and "mcp-lint: terminated" in stderr.decode()
        # Waits for the server's exit; pytest-timeout is the only guard if it outlived the proxy.
        select.select([server], [], [])
    finally:
        os.close(server)


@pytest.mark.parametrize("special", ["fifo", "/dev/stdout", "/dev/null"])
def test_a_special_trace_path_is_refused_in_one_line(tmp_path: Path, special: str) -> None:
    target = special
    if special == "fifo":
        target = str(tmp_path / "traces.fifo")
        os.mkfifo(target)
    # Nothing reads the FIFO: opening it for writing would wait forever.
    done = subprocess.run(
        mcp_lint("record", "--traces", target, "--", *TRACE_SERVER),
        input=b"",
        capture_output=True,
        env=environment(),
        timeout=30,
    )
    assert done.returncode == 2 and done.stdout == b""
    [line] = done.stderr.decode().splitlines()
    assert line.startswith(f"mcp-lint: error: --traces {target}: ") and "regular file" in line


def test_client_eof_is_noticed_while_the_server_does_not_read(tmp_path: Path) -> None:
    # 300 KB of notifications fill the pipe to a server that never reads, so the proxy's send to it
    # blocks; the client then closes its side and the proxy must still end the session.
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "x" * 1000}})
    stdin = (note + "\n").encode() * 300
    done = subprocess.run(
        mcp_lint(
            "record",
            "--traces",
            str(tmp_path / "t.jsonl"),
            "--",
            sys.executable,
            str(Path(__file__).parent / "deaf_server.py"),
        ),
        input=stdin,
        capture_output=True,
        env=environment(),
        timeout=90,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == b""


# --- what held in issue 20 and must keep holding (s28 audit) ------------------------------------------


def _listening_tcp_sockets(pid: int) -> list[str]:
    """The TCP sockets process `pid` listens on, as the inodes /proc shows for them."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text(encoding="ascii").splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes and fields[3] == "0A":  # 0A: LISTEN
                listening.append(fields[9])
    return listening


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the socket tables of Linux /proc")
def test_a_thousand_pipelined_calls_are_answered_and_recorded_and_nothing_listens(tmp_path: Path) -> None:
    """A client that writes 1,000 calls at once, before reading any answer: each gets its answer
    and its trace line, and the proxy opens no listening socket while it relays them."""
    path = tmp_path / "t.jsonl"
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    messages = [initialize, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    messages += [
        {
            "jsonrpc": "2.0",
            "id": number,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": f"n{number}"}},
        }
        for number in range(1, 1001)
    ]
    process = subprocess.Popen(
        mcp_lint(*record_args(path)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
    process.stdin.flush()
    answers = {}
    for _ in range(1001):
        answer = json.loads(process.stdout.readline())
        answers[answer["id"]] = answer
    assert _listening_tcp_sockets(process.pid) == []
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr.decode()
    assert all(answers[number]["result"]["content"][0]["text"] == f"n{number}" for number in range(1, 1001))
    recorded = traces(path)
    assert sorted(record.arguments["text"] for record in recorded) == sorted(f"n{n}" for n in range(1, 1001))
    assert all(record.result_text() == record.arguments["text"] for record in recorded)


def test_a_request_id_reused_in_flight_is_never_recorded_with_the_other_calls_answer(tmp_path: Path) -> None:
    """Through a real proxy and server: id 1 is reused while a slow call with it is in flight. Both
    answers reach the client; no trace line pairs one call's arguments with the other's result."""
    path = tmp_path / "t.jsonl"
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    slow = {"name": "slow_echo", "arguments": {"text": "first", "delay": 1.0}}
    fast = {"name": "echo", "arguments": {"text": "second"}}
    messages = [
        initialize,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": slow},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": fast},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "third"}},
        },
    ]
    process = subprocess.Popen(
        mcp_lint(*record_args(path)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in messages))
    process.stdin.flush()
    answers = [json.loads(process.stdout.readline()) for _ in range(4)]
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr.decode()
    texts = sorted(answer["result"]["content"][0]["text"] for answer in answers if answer["id"] != 0)
    assert texts == ["first", "second", "third"]
    recorded = traces(path)
    assert all(record.result_text() == record.arguments["text"] for record in recorded), recorded
    assert "third" in [record.arguments["text"] for record in recorded]
