"""Hostile input gets a specific answer: a finding, or one line with exit 2 or 3, never a crash,
never a report that is not UTF-8 or strict JSON, never a control character a server chose."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main

REPORTS = ("text", "json", "sarif", "github", "markdown")


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _tool(name: str = "fetch_page", schema: Any = None) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Fetches one web page and returns its text.",
        "inputSchema": schema if schema is not None else {"type": "object"},
    }


def _lint(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *extra: str) -> tuple[int, str, str]:
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text(text, encoding="utf-8", errors="surrogatepass")
    code = main(["check", "--isolated", str(snapshot), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line_error(err: str, *needles: str) -> None:
    assert "internal error" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcp-lint: error: "), err[:500]
    for needle in needles:
        assert needle in lines[0], lines[0][:500]


# 1. Lone surrogates ---------------------------------------------------------------------------

SURROGATE_SNAPSHOTS = {
    "tool name": '{"tools": [{"name": "fetch\\ud800", "description": "Fetches one page.", '
    '"inputSchema": {"type": "object"}}]}',
    "tool name dcff": '{"tools": [{"name": "fetch\\udcff", "description": "Fetches one page.", '
    '"inputSchema": {"type": "object"}}]}',
    "server name": '{"serverInfo": {"name": "srv\\ud800", "version": "1"}, "tools": [{"name": "fetch", '
    '"description": "Fetches one page.", "inputSchema": {"type": "object"}}]}',
    "parameter name": '{"tools": [{"name": "fetch", "description": "Fetches one page.", "inputSchema": '
    '{"type": "object", "properties": {"u\\udcffrl": {"type": "string"}}}}]}',
}


@pytest.mark.parametrize("where", list(SURROGATE_SNAPSHOTS))
@pytest.mark.parametrize("report", REPORTS)
def test_a_lone_surrogate_is_linted_and_every_report_stays_utf8(
    where: str, report: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _lint(tmp_path, capsys, SURROGATE_SNAPSHOTS[where], "--format", report)
    assert code == 1, err
    assert "internal error" not in err
    out.encode("utf-8")  # raises on a lone surrogate
    if report in ("json", "sarif"):
        _strict_json(out)


@pytest.mark.parametrize(
    ("where", "rule"), [("tool name", "MCP401"), ("parameter name", "MCP302"), ("tool name", "MCP302")]
)
def test_a_lone_surrogate_in_a_name_is_a_finding(
    where: str, rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _lint(tmp_path, capsys, SURROGATE_SNAPSHOTS[where], "--format", "json")
    servers = _strict_json(out)["servers"]
    codes = {
        finding["code"]
        for server in servers
        for entry in (server, *server["tools"])
        for finding in entry["findings"]
    }
    assert code == 1 and rule in codes, codes
