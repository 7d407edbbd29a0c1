"""mcp_lint.bench.livemcpbench: the vendored test bed and how task tool names meet the catalogue."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mcp_lint.bench.livemcpbench import annotated_needs, build, catalogue_servers, load, match, restrict
from mcp_lint.errors import UsageError

VENDORED = Path(__file__).resolve().parents[2] / "mcp_lint" / "bench" / "data" / "livemcpbench"


def test_the_vendored_catalogue_and_tasks_load_whole() -> None:
    bed = load()
    assert len(bed.servers) == 70
    assert len(bed.keys) == 527
    assert len(set(bed.keys)) == 527  # a (server, tool) pair names one document
    # 95 annotated tasks; one names only a tool the catalogue does not have, so 94 are measured
    assert len(bed.tasks) == 94
    assert set(bed.unmatched) == {
        "ddg-search",
        "execute_command",
        "get_maven_latest_version",
        "open_document",
    }
    assert all(task.relevant <= set(bed.keys) for task in bed.tasks)


def test_the_vendored_files_carry_their_attribution() -> None:
    notice = (VENDORED / "NOTICE.md").read_text(encoding="utf-8")
    assert "a928e57d1ee7a25579b9a7036030faffff72d15b" in notice
    assert "Apache License 2.0" in notice
    assert "Apache License" in (VENDORED / "LICENSE").read_text(encoding="utf-8")


def test_annotated_needs_strips_the_numbering() -> None:
    entry = {"Annotator Metadata": {"Tools": "1. load\n2. beat_track\n\n3) mfcc\n2. load"}}
    assert annotated_needs(entry) == ("load", "beat_track", "mfcc")
    assert annotated_needs({}) == ()


def test_a_name_matches_exactly_then_loosely_then_by_a_unique_longer_name() -> None:
    catalogue = {
        "read_file": [("filesystem", "read_file"), ("desktop", "read_file")],
        "get_weread_rank": [("weread", "get_weread_rank")],
        "trial_references_getter": [("bio", "trial_references_getter")],
        "search_a": [("x", "search_a")],
        "search_b": [("x", "search_b")],
    }
    assert match("read_file", catalogue) == {("filesystem", "read_file"), ("desktop", "read_file")}
    assert match("get-weread-rank", catalogue) == {("weread", "get_weread_rank")}
    assert match("trial_references", catalogue) == {("bio", "trial_references_getter")}
    assert match("search", catalogue) == frozenset()  # two longer names: not guessed
    assert match("nothing", catalogue) == frozenset()


def test_every_tool_of_a_shared_name_is_relevant() -> None:
    bed = load()
    tasks = [task for task in bed.tasks if "read_file" in task.needs]
    assert tasks
    servers = {server for task in tasks for server, tool in task.relevant if tool == "read_file"}
    assert len(servers) == 2


def test_restrict_keeps_the_tasks_with_a_tool_left() -> None:
    bed = restrict(load(), ["wikipedia", "mcp-simple-arxiv"])
    assert [server.name for server in bed.servers] == ["wikipedia", "mcp-simple-arxiv"]
    assert len(bed.tasks) == 11
    assert all(
        server in {"wikipedia", "mcp-simple-arxiv"} for task in bed.tasks for server, _ in task.relevant
    )
    with pytest.raises(UsageError, match=r"--server nowhere: no such server in the catalogue"):
        restrict(bed, ["nowhere"])


def test_malformed_files_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"expected LiveMCPBench.s tools\.json"):
        catalogue_servers({"tools": []}, "tools.json")
    with pytest.raises(UsageError, match="entry 0 has no 'tools' object"):
        catalogue_servers([{"name": "x"}], "tools.json")
    with pytest.raises(UsageError, match="task 0 has no 'Question' text"):
        build((), [{"task_id": "a"}], "tasks.json")
    broken = tmp_path / "tools.json.gz"
    broken.write_bytes(gzip.compress(b"[{"))
    with pytest.raises(UsageError, match=r"tools.json.gz: not JSON .*pass LiveMCPBench's file as it is"):
        load(broken)
    with pytest.raises(UsageError, match="cannot read it"):
        load(tmp_path / "missing.json")


def test_a_plain_json_catalogue_is_read_too(tmp_path: Path) -> None:
    catalogue = tmp_path / "tools.json"
    catalogue.write_text(
        json.dumps([{"tools": {"s": {"tools": [{"name": "load", "description": "Load a file."}]}}}]),
        encoding="utf-8",
    )
    tasks = tmp_path / "tasks.json"
    tasks.write_text(
        json.dumps([{"task_id": "t", "Question": "Load it", "Annotator Metadata": {"Tools": "1. load"}}]),
        encoding="utf-8",
    )
    bed = load(catalogue, tasks)
    assert bed.keys == (("s", "load"),)
    assert [task.relevant for task in bed.tasks] == [{("s", "load")}]
