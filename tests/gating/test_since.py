"""--since REF: only tools whose definition changed since a commit, read from a real git repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main
from mcp_lint.config import Settings, ToolIgnore
from mcp_lint.errors import UsageError
from mcp_lint.pipeline import check_reflections
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import SnapshotTarget, StdioTarget
from mcp_lint.reflect import Reflection
from mcp_lint.reflect.snapshot import parse_snapshot
from mcp_lint.since import base_definitions, base_paths, changed_tools, definition
from mcp_lint.suppressions import describe


def tool(name: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}, **extra}


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    done = subprocess.run([*command, *args], cwd=repo, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def commit(repo: Path, tools: list[dict[str, Any]], message: str) -> str:
    (repo / "tools.json").write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    git(repo, "add", "tools.json")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q")
    return tmp_path


def changed_names(path: Path, ref: str) -> list[str]:
    document = json.loads(path.read_text(encoding="utf-8"))
    snapshot = parse_snapshot(document, "s", str(path))
    return [item.name for item in changed_tools(snapshot, base_definitions(path, ref)).tools]


def test_only_changed_and_new_tools_are_kept(repo: Path) -> None:
    base = commit(repo, [tool("a", "Reads."), tool("b", "Writes."), tool("c", "Deletes.")], "base")
    commit(
        repo,
        [
            tool("a", "Reads."),  # untouched
            tool("b", "Writes a file."),  # description edited
            tool("c", "Deletes.", annotations={"destructiveHint": True}),  # annotations added
            tool("d", "New."),
        ],
        "change",
    )
    assert changed_names(repo / "tools.json", base) == ["b", "c", "d"]
    assert changed_names(repo / "tools.json", "HEAD") == []


def test_key_order_and_output_schema_do_not_count(repo: Path) -> None:
    base = commit(repo, [tool("a", "Reads.")], "base")
    reordered = {"inputSchema": {"type": "object"}, "description": "Reads.", "name": "a", "outputSchema": {}}
    commit(repo, [reordered], "cosmetic")
    assert changed_names(repo / "tools.json", base) == []
    assert definition(reordered) == definition(tool("a", "Reads."))


def test_a_snapshot_new_since_the_ref_is_all_new(repo: Path) -> None:
    (repo / "README").write_text("x", encoding="utf-8")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "first")
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, [tool("a", "Reads.")], "add tools")
    assert changed_names(repo / "tools.json", base) == ["a"]


def test_unknown_ref_and_no_repository_are_one_line(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    commit(repo, [tool("a", "Reads.")], "base")
    with pytest.raises(UsageError, match=r"--since nope: no such commit .*fetch-depth: 0"):
        base_definitions(repo / "tools.json", "nope")
    outside = tmp_path_factory.mktemp("plain") / "tools.json"
    outside.write_text("{}", encoding="utf-8")
    with pytest.raises(UsageError, match="is not in a git repository"):
        base_definitions(outside, "HEAD")


def test_live_targets_need_a_committed_snapshot(tmp_path: Path) -> None:
    live = StdioTarget("srv", "python", ("server.py",))
    saved = SnapshotTarget("saved", tmp_path / "tools.json", {"tools": []})
    with pytest.raises(UsageError, match=r"srv is a live server; .*--since-snapshot tools\.json"):
        base_paths([live], "main", None)
    assert base_paths([live, saved], "main", tmp_path / "base.json") == {
        "srv": tmp_path / "base.json",
        "saved": tmp_path / "tools.json",
    }
    assert base_paths([UnreachableTarget("down", "no command")], "main", None) == {}
    with pytest.raises(UsageError, match="holds one server"):
        base_paths([live, StdioTarget("other", "node")], "main", tmp_path / "base.json")
    with pytest.raises(UsageError, match="stdin has no history"):
        base_paths([SnapshotTarget("s", Path("-"), {})], "main", None)


def test_an_ignore_for_a_tool_since_left_out_is_not_called_unused(repo: Path) -> None:
    """With --since, an unchanged tool is not linted, so the ignore that silences its finding silences
    nothing in this run: that says nothing about the ignore, and it must not be reported as unused."""
    base = commit(repo, [tool("a", "Reads."), tool("b", "Writes.")], "base")
    commit(repo, [tool("a", "Reads."), tool("b", "Writes a file.")], "change b")
    path = repo / "tools.json"
    snapshot = parse_snapshot(json.loads(path.read_text(encoding="utf-8")), "s", str(path))
    ignore = ToolIgnore("a", ("MCP501",), "a reads a public file")
    settings = Settings(per_tool_ignores=(ignore,))

    full = check_reflections([Reflection("s", snapshot)], settings, None)
    assert [(f.tool, f.code) for f in full.findings] == [("b", "MCP501")]  # the ignore silences `a`
    assert full.unused_suppressions == ()
    dangling = Settings(per_tool_ignores=(ToolIgnore("c", ("MCP501",), "gone"),))
    unused = check_reflections([Reflection("s", snapshot)], dangling, None).unused_suppressions
    assert [describe(item) for item in unused] != []  # outside --since an ignore of nothing is reported

    since = check_reflections(
        [Reflection("s", snapshot)], settings, None, bases={"s": base_definitions(path, base)}
    )
    assert [(f.tool, f.code) for f in since.findings] == [("b", "MCP501")]  # only `b` changed
    assert since.unused_suppressions == ()
    since_dangling = check_reflections(
        [Reflection("s", snapshot)], dangling, None, bases={"s": base_definitions(path, base)}
    )
    assert since_dangling.unused_suppressions == ()  # `c` may be among the tools left out


@pytest.mark.parametrize("ref", ["--output=pwned.txt", "-p", "--exec-path=.", "-oHEAD"])
def test_an_option_like_ref_is_no_commit_and_runs_nothing(
    repo: Path, ref: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Held in issue 20: a --since value that git would read as one of its own options (`git show
    --output=FILE` writes FILE) is refused as no commit, in one line, and writes nothing."""
    commit(repo, [tool("a", "Reads.")], "base")
    monkeypatch.chdir(repo)
    code = main(["check", "--isolated", f"--since={ref}", "tools.json"])
    err = capsys.readouterr().err
    assert code == 2 and err == (
        f"mcp-lint: error: --since {ref}: no such commit in {repo.resolve()}; fetch it first "
        "(actions/checkout needs fetch-depth: 0)\n"
    )
    assert sorted(path.name for path in repo.iterdir()) == [".git", "tools.json"]
