"""`mcp-lint bench` output, every format, as golden files: BM25 over a slice of LiveMCPBench with a
fixed set of rewrites (mcp-lint's own rewrites change as the proposer does, so they are not golden).

Regenerate after an intended change with `MCP_LINT_UPDATE_GOLDEN=1 pytest tests/bench`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mcp_lint.cli import main

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "fixtures" / "golden"
UPDATE = os.environ.get("MCP_LINT_UPDATE_GOLDEN") == "1"
ARGS = [
    "bench",
    *("--rewrites", str(HERE / "rewrites-small.json")),
    *("--server", "wikipedia", "--server", "mcp-simple-arxiv"),
    *("--retriever", "bm25", "--resamples", "2000", "--seed", "5"),
]
FORMATS = {"bench.txt": "text", "bench.md": "markdown", "bench.json": "json"}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_output_matches_golden_file(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([*ARGS, "--format", FORMATS[name]])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    # the rewrites file is named by its path: keep the golden files free of the checkout's location
    out = captured.out.replace(str(HERE) + os.sep, "")
    golden = GOLDEN / name
    if UPDATE:
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_json_report_has_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["tasks"] == 11
    assert [item["rewrites"] for item in document["measured"]] == [
        "rewrites-small.json",
        "filler control (rewrites-small.json)",
    ]
    [bm25] = document["measured"][0]["retrievers"]
    low, high = bm25["mrrChangeCI95"]
    before, after = bm25["mrr"]
    assert low <= after - before <= high
    assert sum(bm25["tasks"].values()) == 11


def test_no_control_measures_the_rewrites_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--format", "json", "--no-control"]) == 0
    assert len(json.loads(capsys.readouterr().out)["measured"]) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--unsafe-fixes"], "--unsafe-fixes lets an LLM write the rewrites: pass --jury MODEL as well"),
        (["--server", "nowhere"], "--server nowhere: no such server in the catalogue"),
        (["--rewrites", str(HERE / "rewrites-small.json"), "--save-rewrites", "x.json"], "add --fix"),
        (["--catalogue", str(HERE / "rewrites-small.json")], "expected LiveMCPBench's tools.json"),
        (["--retriever", "tfidf"], "invalid value for '--retriever'"),
    ],
)
def test_usage_errors_are_one_line_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["bench", "--retriever", "bm25", *args] if "--retriever" not in args else ["bench", *args]) == 2
    )
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert message in line


def test_save_rewrites_writes_what_rewrites_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "mine.json"
    args = ["bench", "--server", "wikipedia", "--retriever", "bm25", "--resamples", "200", "--no-control"]
    assert main([*args, "--save-rewrites", str(saved), "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)["measured"][0]
    assert first["rewrites"] == "mcp-lint --fix (offline augmentor)"
    assert main([*args, "--rewrites", str(saved), "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)["measured"][0]
    assert again["rewrites"] == "mine.json"
    assert again["retrievers"] == first["retrievers"]
    assert again["toolsListTokens"] == first["toolsListTokens"]
