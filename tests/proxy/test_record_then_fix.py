"""The whole loop of the fixer, as a team runs it: record real calls through `mcp-lint record` with
the SDK's own client, `check --fix` with those traces, then start the fixed server and reflect it.
Then try a rewrite in an agent without committing it: `mcp-lint proxy` serves it to a real client."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import anyio
from proxy_support import SERVERS, environment, mcp_lint, proxied, traces

from mcp_lint.config import JurySettings
from mcp_lint.jury.run import score_servers
from mcp_lint.model import ServerSnapshot
from mcp_lint.overrides import read_overrides
from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import reflect_all

NOTES = SERVERS / "notes_server.py"


def _reflect(server: Path) -> ServerSnapshot:
    [reflection] = reflect_all([StdioTarget("notes", sys.executable, (str(server),))], 30)
    assert reflection.snapshot is not None, reflection.error
    return reflection.snapshot


def _smells(snapshot: ServerSnapshot) -> dict[str, set[str]]:
    outcome = score_servers([snapshot], JurySettings())
    return {
        tool: {name for name, value in scores.aggregate.items() if value < 3}
        for (_, tool), scores in outcome.tools.items()
    }


def _record(server: Path, trace_file: Path) -> None:
    async def calls() -> None:
        command = ["record", "--traces", str(trace_file), "--", sys.executable, str(server)]
        async with proxied(command) as client:
            found = await client.call_tool("get_note", {"note_id": "n2"})
            assert not found.is_error
            missing = await client.call_tool("get_note", {"note_id": "n9"})
            assert missing.is_error
            listed = await client.call_tool("search_notes", {"query": "milk", "limit": 3})
            assert not listed.is_error

    anyio.run(calls)


def _check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = mcp_lint("check", "--no-color", *args, "--", sys.executable, "notes_server.py")
    return subprocess.run(
        command, cwd=cwd, env=environment(), capture_output=True, text=True, timeout=180, check=False
    )


def test_recorded_calls_ground_the_fix_and_the_fixed_server_smells_less(tmp_path: Path) -> None:
    server = tmp_path / "notes_server.py"
    shutil.copy(NOTES, server)
    trace_file = tmp_path / "traces.jsonl"
    _record(server, trace_file)
    records = traces(trace_file)
    assert [(record.tool, record.succeeded) for record in records] == [
        ("get_note", True),
        ("get_note", False),
        ("search_notes", True),
    ]
    before = _reflect(server)

    fixed = _check(tmp_path, "--fix", "--traces", "traces.jsonl")
    assert fixed.returncode in (0, 1), fixed.stderr
    assert "Fixed" in fixed.stderr
    compile(server.read_text(encoding="utf-8"), str(server), "exec")

    after = _reflect(server)
    old = {tool.name: tool.description for tool in before.tools}
    new = {tool.name: tool.description for tool in after.tools}
    assert new != old
    for name, text in new.items():
        assert text.startswith(old[name].rstrip(".")), f"{name}: the original text was not kept"
    # Grounded in what the proxy recorded: the example is the real call and its result, the
    # limitation the real error; nothing the traces do not hold, nothing the schema already says.
    assert 'get_note(note_id="n2") returned "Call Ann' in new["get_note"]
    assert "No note with id n9" in new["get_note"]
    assert "required" not in new["get_note"]
    assert "n1" not in new["get_note"]
    smelly_before, smelly_after = _smells(before), _smells(after)
    assert sum(map(len, smelly_after.values())) < sum(map(len, smelly_before.values()))
    for tool, found in smelly_after.items():
        assert found <= smelly_before[tool], f"{tool} got a new smell: {found - smelly_before[tool]}"


def test_rewrites_without_a_source_are_served_by_the_router(tmp_path: Path) -> None:
    """The server is run from elsewhere (its source is not in the project): --fix writes overrides,
    and the router serves them to a client while the server stays as it was."""
    elsewhere = tmp_path / "installed"
    elsewhere.mkdir()
    server = elsewhere / "notes_server.py"
    shutil.copy(NOTES, server)
    project = tmp_path / "project"
    project.mkdir()
    trace_file = project / "traces.jsonl"
    _record(server, trace_file)
    original = server.read_text(encoding="utf-8")

    command = mcp_lint(
        "check", "--no-color", "--fix", "--traces", "traces.jsonl", "--", sys.executable, str(server)
    )
    fixed = subprocess.run(
        command, cwd=project, env=environment(), capture_output=True, text=True, timeout=180, check=False
    )
    assert fixed.returncode in (0, 1), fixed.stderr
    assert server.read_text(encoding="utf-8") == original
    overrides = read_overrides(project / ".mcp-lint" / "overrides.json")
    assert overrides, "no override written"
    served_by_file = {tool: override.description for (_, tool), override in overrides.items()}

    async def listing() -> dict[str, str]:
        args = ["proxy", "--overrides", str(project / ".mcp-lint" / "overrides.json")]
        async with proxied([*args, "--", sys.executable, str(server)]) as client:
            result = await client.list_tools()
            return {tool.name: tool.description or "" for tool in result.tools}

    served = anyio.run(listing)
    for tool, description in served_by_file.items():
        assert served[tool] == description
    assert "No note with id n9" in served["get_note"]
