"""`check --fix` end to end: a real server whose descriptions live in its source, real recorded calls,
the fix written into the source, and the fixed server started and reflected again."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

# Imported when the module is collected, not inside a test: the SDK's stdio client binds
# `errlog=sys.stderr` as a default argument at import, and imported while an earlier test had
# swapped sys.stderr (click's CliRunner does) it kept a stream with no file descriptor, so every
# spawn here failed with "fileno" when this file ran after tests/test_docs.py.
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from mcp_lint.config import JurySettings
from mcp_lint.jury.run import score_servers
from mcp_lint.model import ServerSnapshot
from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import reflect_all
from mcp_lint.traces import TraceRecord, TraceWriter, read_traces

SERVER = Path(__file__).parents[1] / "servers" / "notes_server.py"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("get_note", {"note_id": "n1"}),
    ("get_note", {"note_id": "missing"}),
    ("search_notes", {"query": "milk", "limit": 5}),
]


def record_calls(server: Path, traces: Path) -> None:
    """Call the server with the SDK's own client and write each answered call as a trace line."""

    async def main() -> None:
        params = StdioServerParameters(command=sys.executable, args=[str(server)])
        with TraceWriter(traces) as writer:
            async with Client(params) as client:
                for tool, arguments in CALLS:
                    started = time.monotonic()
                    result = await client.call_tool(tool, arguments)
                    content = [item.model_dump(by_alias=True, exclude_none=True) for item in result.content]
                    writer.write(
                        TraceRecord(
                            tool=tool,
                            arguments=arguments,
                            content=tuple(content),
                            is_error=bool(result.is_error),
                            duration_ms=(time.monotonic() - started) * 1000,
                            server="notes",
                        )
                    )

    anyio.run(main)


def reflect(server: Path) -> ServerSnapshot:
    [reflection] = reflect_all([StdioTarget("notes", sys.executable, (str(server),))], 30)
    assert reflection.snapshot is not None, reflection.error
    return reflection.snapshot


def smells(snapshot: ServerSnapshot) -> dict[str, list[str]]:
    outcome = score_servers([snapshot], JurySettings())
    return {
        tool: sorted(name for name, value in scores.aggregate.items() if value < 3)
        for (_, tool), scores in outcome.tools.items()
    }


def run_check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mcp_lint",
            "check",
            "--no-color",
            *args,
            "--",
            sys.executable,
            "notes_server.py",
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The calls recorded once for the module: recording starts the server, the same for every test."""
    folder = tmp_path_factory.mktemp("recorded")
    shutil.copy(SERVER, folder / "notes_server.py")
    record_calls(folder / "notes_server.py", folder / "traces.jsonl")
    return folder / "traces.jsonl"


@pytest.fixture
def project(tmp_path: Path, recorded: Path) -> Path:
    shutil.copy(SERVER, tmp_path / "notes_server.py")
    shutil.copy(recorded, tmp_path / "traces.jsonl")
    return tmp_path


def test_fix_rewrites_the_source_grounded_and_the_fixed_server_has_fewer_smells(project: Path) -> None:
    records = read_traces(project / "traces.jsonl")
    assert [record.succeeded for record in records] == [True, False, True]
    before = reflect(project / "notes_server.py")
    smelly_before = smells(before)

    done = run_check(project, "--fix", "--traces", "traces.jsonl")
    assert done.returncode in (0, 1), done.stderr
    # delete_note has no recorded call and no rival: nothing grounded to add, so it is left alone.
    assert "Fixed 2 descriptions" in done.stderr
    source = (project / "notes_server.py").read_text(encoding="utf-8")
    compile(source, "notes_server.py", "exec")  # still Python
    assert not (project / ".mcp-lint" / "overrides.json").exists()  # every literal was found

    after = reflect(project / "notes_server.py")
    described = {tool.name: tool.description for tool in after.tools}
    originals = {tool.name: tool.description for tool in before.tools}
    for name, text in described.items():
        assert text.startswith(originals[name])  # the original kept word for word
    # Grounded: the example is the recorded call and its real result, the limitation the recorded
    # error; nothing the schema states (type, required) is repeated.
    assert 'get_note(note_id="n1") returned "Buy milk"' in described["get_note"]
    assert "No note with id missing" in described["get_note"]
    assert "required" not in described["get_note"] and "string" not in described["get_note"]
    assert described["delete_note"] == originals["delete_note"]
    # A code-styled name is a parameter, a tool, or a field of a declared result (outputSchema).
    outputs = {
        name
        for tool in after.tools
        if isinstance(tool.raw.get("outputSchema"), dict)
        for name in tool.raw["outputSchema"].get("properties", {})
    }
    names = {name for tool in after.tools for name in tool.properties} | set(described) | outputs
    for text in described.values():
        for quoted in (part.split("`")[0] for part in text.split("`")[1::2]):
            assert quoted in names, f"{quoted!r} is not a parameter or tool of the server"

    smelly_after = smells(after)
    assert sum(map(len, smelly_after.values())) < sum(map(len, smelly_before.values()))
    for tool, found in smelly_after.items():
        assert set(found) <= set(smelly_before[tool]), f"{tool} got a new smell: {found}"


def test_diff_prints_the_change_and_writes_nothing(project: Path) -> None:
    original = (project / "notes_server.py").read_text(encoding="utf-8")
    done = run_check(project, "--diff", "--traces", "traces.jsonl")
    assert done.returncode == 1, done.stderr  # like ruff: a diff means there is something to fix
    assert done.stdout.startswith("--- a/notes_server.py\n+++ b/notes_server.py\n")
    assert '+    """Gets a note.' in done.stdout
    assert (project / "notes_server.py").read_text(encoding="utf-8") == original
    assert not (project / ".mcp-lint").exists()
    assert "Would fix 2 descriptions" in done.stderr


def test_without_source_the_rewrites_go_to_the_overrides_file(project: Path, tmp_path: Path) -> None:
    # Linted from another folder, the server's source is not in the repository being fixed.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    server = project / "notes_server.py"
    original = server.read_text(encoding="utf-8")
    traces = str(project / "traces.jsonl")

    def check(flag: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "mcp_lint",
                "check",
                flag,
                "--traces",
                traces,
                "--",
                sys.executable,
                str(server),
            ],
            cwd=elsewhere,
            capture_output=True,
            text=True,
            check=False,
        )

    shown = check("--diff")
    assert not (elsewhere / ".mcp-lint").exists(), shown.stderr
    done = check("--fix")
    assert "Fixed 2 descriptions" in done.stderr, done.stderr
    assert server.read_text(encoding="utf-8") == original
    written = (elsewhere / ".mcp-lint" / "overrides.json").read_text(encoding="utf-8")
    # --diff showed the overrides file --fix then wrote, line for line
    added = [
        line[1:] for line in shown.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")
    ]
    assert added == written.splitlines(), shown.stdout
    document = json.loads(written)
    entry = document["servers"]["notes_server"]["get_note"]
    assert entry["original"] == "Gets a note." and entry["description"].startswith("Gets a note. ")
    assert set(entry["parts"]) <= {"purpose", "guidelines", "limitations", "parameters", "examples"}


def test_a_second_fix_changes_nothing(project: Path) -> None:
    """--fix is idempotent on the real server: what the first run added is not added again, and a
    second run with the same recorded calls leaves the source as the first one wrote it."""
    first = run_check(project, "--fix", "--traces", "traces.jsonl")
    assert "Fixed 2 descriptions" in first.stderr, first.stderr
    written = (project / "notes_server.py").read_text(encoding="utf-8")
    second = run_check(project, "--fix", "--traces", "traces.jsonl")
    assert second.returncode in (0, 1), second.stderr
    assert "Fixed 0 descriptions" in second.stderr, second.stderr
    assert (project / "notes_server.py").read_text(encoding="utf-8") == written
