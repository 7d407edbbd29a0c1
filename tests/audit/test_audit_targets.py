"""Which jobs an audit finds in its targets: server.json files, snapshots, registry exports, folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from audit_support import entries, snapshots

from mcp_lint.audit.targets import ENTRY, SNAPSHOT, discover
from mcp_lint.errors import UsageError


def test_files_are_told_apart_by_what_they_hold(tmp_path: Path) -> None:
    entry, *_ = entries(tmp_path / "entries", tmp_path / "cache")
    snapshot = snapshots(1)[0]
    found = discover([str(entry), str(snapshot)])
    assert [(job.target, job.kind) for job in found.jobs] == [(str(entry), ENTRY), (str(snapshot), SNAPSHOT)]
    assert found.jobs[0].text == entry.read_text(encoding="utf-8")


@pytest.mark.parametrize("wrapped", [False, True])
def test_a_registry_export_is_one_job_per_entry(tmp_path: Path, wrapped: bool) -> None:
    paths = entries(tmp_path / "entries", tmp_path / "cache")
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in paths]
    if (
        wrapped
    ):  # the registry's list answer: {"servers": [{"server": {...}, "_meta": {...}}], "metadata": {...}}
        export = {"servers": [{"server": item, "_meta": {}} for item in documents], "metadata": {"count": 4}}
    else:
        export = documents
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    found = discover([str(path)])
    assert [job.target for job in found.jobs] == [
        f"{path}#io.github.example/good@1.0.0",
        f"{path}#io.github.example/smelly@1.0.0",
        f"{path}#io.github.example/dotnet@1.0.0",
        f"{path}#no-slash@latest",
    ]
    assert all(job.kind == ENTRY for job in found.jobs)
    assert json.loads(found.jobs[0].text) == documents[0]


def test_the_same_entry_listed_twice_is_told_apart_by_position(tmp_path: Path) -> None:
    entry = json.loads(entries(tmp_path / "e", tmp_path / "c")[0].read_text(encoding="utf-8"))
    path = tmp_path / "export.json"
    path.write_text(json.dumps([entry, entry]), encoding="utf-8")
    targets = [job.target for job in discover([str(path)]).jobs]
    assert targets == [f"{path}#io.github.example/good@1.0.0", f"{path}#io.github.example/good@1.0.0[1]"]


def test_a_folder_is_walked_and_its_other_json_files_are_skipped_and_named(tmp_path: Path) -> None:
    paths = entries(tmp_path / "corpus", tmp_path / "cache")
    (tmp_path / "corpus" / "package.json").write_text('{"name": "x", "version": "1.0.0"}', encoding="utf-8")
    (tmp_path / "corpus" / ".hidden").mkdir()
    (tmp_path / "corpus" / ".hidden" / "server.json").write_text("{}", encoding="utf-8")
    found = discover([str(tmp_path / "corpus")])
    assert sorted(job.target for job in found.jobs) == sorted(str(path) for path in paths)
    assert len(found.skipped) == 1 and "package.json: neither a server.json" in found.skipped[0]


def test_a_file_named_twice_runs_once(tmp_path: Path) -> None:
    snapshot = str(snapshots(1)[0])
    assert len(discover([snapshot, snapshot]).jobs) == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "no such file or folder"),
        ('{"name": "x", "version": "1.0.0"}', "neither a server.json, a snapshot"),
        ("{not json", "not valid JSON"),
    ],
)
def test_a_target_that_is_missing_or_no_target_is_a_usage_error(
    tmp_path: Path, content: str | None, expected: str
) -> None:
    path = tmp_path / "target.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match=expected) as raised:
        discover([str(path)])
    assert "\n" not in str(raised.value) and str(path) in str(raised.value)


def test_an_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"a folder with no \.json file"):
        discover([str(tmp_path)])
