"""`mcp-lint proxy` serves description overrides to a real SDK client, and records while it does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from proxy_support import SERVERS, TRACE_SERVER, environment, mcp_lint, proxied, proxy_lines, traces

from mcp_lint.overrides import Override, read_overrides, served_description, write_overrides

ECHO = Override(
    server="trace-server",
    tool="echo",
    description=(
        "Return the text it is given, unchanged. Use it to test a connection. "
        "Example: text='hi' returns 'hi'."
    ),
    original="Returns `text` unchanged.",
    parts={
        "purpose": "Return the text it is given, unchanged.",
        "guidelines": "Use it to test a connection.",
        "examples": "Example: text='hi' returns 'hi'.",
    },
)
LOGIN = Override(server="*", tool="login", description="Sign in with a user name and an API key.")


def overrides_file(tmp_path: Path, *overrides: Override) -> Path:
    path = tmp_path / "overrides.json"
    write_overrides(path, {(item.server, item.tool): item for item in overrides})
    return path


def served(args: list[str]) -> dict[str, str]:
    async def main() -> dict[str, str]:
        async with proxied(args) as client:
            return {tool.name: tool.description or "" for tool in (await client.list_tools()).tools}

    return anyio.run(main)


def direct_descriptions() -> dict[str, str]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    async def main() -> dict[str, str]:
        params = StdioServerParameters(command=TRACE_SERVER[0], args=list(TRACE_SERVER[1:]))
        async with Client(params) as client:
            return {tool.name: tool.description or "" for tool in (await client.list_tools()).tools}

    return anyio.run(main)


def test_the_router_serves_whole_overrides_and_leaves_other_tools_alone(tmp_path: Path) -> None:
    path = overrides_file(tmp_path, ECHO, LOGIN)
    descriptions = served(["proxy", "--overrides", str(path), "--", *TRACE_SERVER])
    original = direct_descriptions()
    assert descriptions["echo"] == ECHO.description != original["echo"]
    assert descriptions["login"] == LOGIN.description  # the "*" server applies to any server
    assert {name: text for name, text in descriptions.items() if name not in {"echo", "login"}} == {
        name: text for name, text in original.items() if name not in {"echo", "login"}
    }


@pytest.mark.parametrize("components", ["purpose", "guidelines,examples", "purpose,guidelines"])
def test_the_router_serves_only_the_chosen_components(tmp_path: Path, components: str) -> None:
    path = overrides_file(tmp_path, ECHO)
    descriptions = served(
        ["proxy", "--overrides", str(path), "--components", components, "--", *TRACE_SERVER]
    )
    expected = served_description(read_overrides(path)[("trace-server", "echo")], components.split(","))
    assert descriptions["echo"] == expected
    assert ("Return the text it is given" in expected) == ("purpose" in components)
    assert ("Example:" in expected) == ("examples" in components)


def test_overrides_are_looked_up_by_server_name(tmp_path: Path) -> None:
    # Filed under another server's name, the override is not served, unless --server-name says so.
    other = Override(server="weather", tool="echo", description="Weather echo.")
    path = overrides_file(tmp_path, other)
    assert (
        served(["proxy", "--overrides", str(path), "--", *TRACE_SERVER])["echo"]
        == "Returns `text` unchanged."
    )
    renamed = ["proxy", "--overrides", str(path), "--server-name", "weather", "--", *TRACE_SERVER]
    assert served(renamed)["echo"] == "Weather echo."


def test_the_router_records_when_asked(tmp_path: Path) -> None:
    path = overrides_file(tmp_path, ECHO)
    trace_file = tmp_path / "calls.jsonl"

    async def main() -> str:
        args = ["proxy", "--overrides", str(path), "--traces", str(trace_file), "--", *TRACE_SERVER]
        async with proxied(args) as client:
            await client.list_tools()
            result = await client.call_tool("echo", {"text": "through the router"})
        return result.content[0].text  # type: ignore[union-attr]

    assert anyio.run(main) == "through the router"
    [record] = traces(trace_file)
    assert (record.tool, record.result_text(), record.server) == (
        "echo",
        "through the router",
        "trace-server",
    )


BAD_OVERRIDES: list[tuple[Any, str]] = [
    ("{not json", "not JSON"),
    ({"version": 1}, "not an overrides file"),
    ({"version": 1, "servers": {"s": {"t": {"description": 3}}}}, "servers.s.t.description"),
    (
        {"version": 1, "servers": {"s": {"t": {"description": "d", "parts": {"intro": "x"}}}}},
        "unknown component",
    ),
]


@pytest.mark.parametrize(("content", "message"), BAD_OVERRIDES)
def test_a_bad_overrides_file_is_exit_2_before_the_server_starts(
    tmp_path: Path, content: Any, message: str
) -> None:
    path = tmp_path / "overrides.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    pid_file = tmp_path / "server.pid"
    server = [sys.executable, str(SERVERS / "trace_server.py"), "--pid-file", str(pid_file)]
    done = subprocess.run(
        mcp_lint("proxy", "--overrides", str(path), "--", *server),
        input=b"",
        capture_output=True,
        env=environment(),
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == b""
    [line] = done.stderr.decode().splitlines()
    assert line.startswith("mcp-lint: error:") and message in line and str(path) in line
    assert not pid_file.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--components", "purpose,tone"], "unknown component 'tone'"),
        (["--overrides", "missing.json"], "no such overrides file"),
    ],
)
def test_bad_router_options_are_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    path = overrides_file(tmp_path, ECHO)
    options = ["--overrides", str(path), *args] if "--overrides" not in args else args
    done = subprocess.run(
        mcp_lint("proxy", *options, "--", *TRACE_SERVER),
        input=b"",
        capture_output=True,
        env=environment(),
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert message in " ".join(proxy_lines(done.stderr.decode()))


def lint(command: list[str]) -> dict[str, Any]:
    """`mcp-lint check --format json` of one server: its tools' finding codes, and its rubric score."""
    done = subprocess.run(
        mcp_lint(
            "check",
            "--isolated",
            "--format",
            "json",
            "--env",
            f"PYTHONPATH={environment()['PYTHONPATH']}",
            "--",
            *command,
        ),
        capture_output=True,
        env=environment(),
        timeout=120,
    )
    [server] = json.loads(done.stdout)["servers"]
    return server


def test_the_linter_itself_sees_the_overrides_through_the_router(tmp_path: Path) -> None:
    # What a team does before committing a rewrite: lint the server as a client would see it.
    weather = [sys.executable, str(SERVERS.parent.parent / "examples" / "weather_server.py")]
    rewrite = Override(
        server="weather-example",
        tool="get_forecast",
        description=(
            "Returns the weather forecast for one city on one date. Use it for future days; for present "
            "conditions use current_conditions. `city` is the city name, `period` is 'day' or 'week', `date` "
            "is YYYY-MM-DD. Example: city='Lisbon', period='day', date='2026-12-02'."
        ),
    )
    path = overrides_file(tmp_path, rewrite)
    before = lint(weather)
    after = lint(mcp_lint("proxy", "--overrides", str(path), "--", *weather))

    def codes(server: dict[str, Any], tool: str) -> set[str]:
        [found] = [item for item in server["tools"] if item["name"] == tool]
        return {finding["code"] for finding in found["findings"]}

    assert "MCP203" in codes(before, "get_forecast")  # "use start and end": no such parameters
    assert "MCP203" not in codes(after, "get_forecast")
    assert codes(after, "get_forcast") == codes(before, "get_forcast")  # no override, same findings
    assert after["score"]["overall"] > before["score"]["overall"]
