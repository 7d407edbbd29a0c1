"""Hostile inputs and outputs: the user's JSON files past the limits (one line and exit 2, never
"internal error"), server text that would be a workflow command or a Markdown link, and a job summary
that is a FIFO nobody reads."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from mcp_lint.cli import main

SNAPSHOT = Path(__file__).parent / "fixtures" / "golden" / "smelly-snapshot.json"
DEEP = "[" * 5000 + "]" * 5000
HUGE = '{"format": 1, "entries": [' + "9" * 5000 + "]}"


@pytest.fixture(autouse=True)
def _scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def lint(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check", "--isolated", "--no-color", *args, str(SNAPSHOT)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("text", "limit"), [(DEEP, "levels deep"), (HUGE, "digits")])
def test_a_baseline_past_the_limits_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, limit: str
) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(text, encoding="utf-8")
    code, err = lint(["--baseline", str(baseline)], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"mcp-lint: error: {baseline}: ") and limit in err and "internal" not in err


@pytest.mark.parametrize(("text", "limit"), [(DEEP, "levels deep"), ('{"a": ' + "7" * 5000 + "}", "digits")])
def test_an_overrides_file_past_the_limits_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, limit: str
) -> None:
    overrides = tmp_path / "overrides.json"
    overrides.write_text(text, encoding="utf-8")
    code = main(["proxy", "--overrides", str(overrides), "--", "true"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert str(overrides) in err and limit in err and "internal" not in err


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ('{"tool": "t", "arguments": ' + DEEP + "}", "nested more than 200 levels deep"),
        ('{"tool": "t", "arguments": {"n": ' + "9" * 5000 + "}}", "a number with more than 4,300 digits"),
    ],
)
def test_a_trace_file_past_the_limits_is_one_line_naming_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, limit: str
) -> None:
    """The limits of the config and snapshot readers, said the same way (not Python's own advice to
    call sys.set_int_max_str_digits)."""
    traces = tmp_path / "calls.jsonl"
    traces.write_text(text + "\n", encoding="utf-8")
    code, err = lint(["--diff", "--traces", str(traces)], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"mcp-lint: error: {traces}:1: a trace line ") and limit in err, err
    assert "sys." not in err and "internal" not in err


def test_no_line_of_the_text_report_is_a_workflow_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub Actions runs a log line that starts with `::` (spaces aside): a server's own text must
    never become one."""
    snapshot = tmp_path / "forged.json"
    tools = [
        {"name": "::warning file=x.py::forged", "description": "::add-mask::secret\n::stop-commands::t"},
        {"name": "ok", "description": "x"},
    ]
    snapshot.write_text(
        json.dumps({"serverInfo": {"name": "::error::forged"}, "tools": tools}), encoding="utf-8"
    )
    code = main(["check", "--isolated", "--no-color", "--format", "text", str(snapshot)])
    captured = capsys.readouterr()
    assert code in (0, 1)
    assert "forged" in captured.out
    for line in (captured.out + captured.err).splitlines():
        assert not line.lstrip().startswith("::"), line


def test_a_backtick_in_a_name_cannot_open_a_link_in_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = tmp_path / "links.json"
    evil = "q` ![pixel](https://evil.example/p.png) [click](https://evil.example) `"
    tool = {
        "name": "search",
        "description": "Searches.",
        "inputSchema": {"type": "object", "properties": {evil: {"type": "string"}}},
    }
    snapshot.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    code = main(["check", "--isolated", "--format", "markdown", str(snapshot)])
    out = capsys.readouterr().out
    assert code in (0, 1) and "evil.example" in out
    # Outside code fences (where nothing renders), every bracket of the server's text is escaped: no
    # `[text](url)` can render as a link or image.
    prose = re.sub(r"(?ms)^(`{3,})[a-z]*\n.*?^\1$", "", out)
    assert "evil.example" in prose
    assert re.search(r"(?<!\\)\]\(https://evil", prose) is None, prose


def test_a_job_summary_fifo_nobody_reads_is_a_warning_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "summary"
    os.mkfifo(fifo)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(fifo))
    code = main(["check", "--isolated", str(SNAPSHOT)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out.startswith("::")  # the annotations were written
    assert "cannot append the job summary" in captured.err and "no process is reading" in captured.err
