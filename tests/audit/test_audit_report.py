"""The audit's Markdown report against its golden file (regenerate after an intended change with
`MCP_LINT_UPDATE_GOLDEN=1 pytest tests/audit/test_audit_report.py`), and its edge cases."""

from __future__ import annotations

import os
from pathlib import Path

from mcp_lint.audit.report import render
from mcp_lint.audit.store import Row

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden" / "audit-report.md"
UPDATE = os.environ.get("MCP_LINT_UPDATE_GOLDEN") == "1"
NAMES = {"MCP001": "stdout-pollution", "MCP101": "tool-missing-description", "MCP201": "name-format"}


def _row(target: str, status: str, score: float | None, codes: tuple[str, ...] = (), **extra: object) -> Row:
    counts = {"critical": 0, "high": len(codes), "moderate": 1, "low": 2, "info": 0}
    values: dict[str, object] = {
        "target": target,
        "kind": "server.json" if target.endswith("server.json") else "snapshot",
        "package": "io.github.example/" + target.split("/")[0],
        "version": "1.0.0",
        "status": status,
        "exit_code": {"passed": 0, "failed": 1, "unreachable": 3}.get(status),
        "score": score,
        "counts": counts,
        "failing_codes": codes,
        "error": None,
        "duration": 1.0,
    }
    values.update(extra)
    return Row(**values)  # type: ignore[arg-type]


ROWS = [
    _row("weather/server.json", "passed", 3.1),
    _row("notes/server.json", "failed", 1.9, ("MCP101", "MCP201")),
    _row("pipes|and[links](x)/server.json", "failed", 1.05, ("MCP101",)),
    _row("search.json", "passed", 4.6),
    _row("maps.json", "passed", 2.2),
    _row(
        "dotnet/server.json", "unreachable", None, error="packages[0] (nuget Example.Mcp): not supported yet"
    ),
    _row("broken/server.json", "error", None, error="invalid entry: (entry).name: " + "x" * 300),
    _row("five.json", "passed", 5.0),
]


def test_the_report_matches_its_golden_file() -> None:
    text = render(ROWS, "0123456789abcdef", "0.1.0", "registry", NAMES)
    if UPDATE:
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_an_audit_where_everything_passed_or_nothing_was_scored() -> None:
    passed = render([ROWS[0]], "hash", "0.1.0", "registry", NAMES)
    assert "**Pass rate: 100.0%**" in passed and "Every target passed." in passed
    assert "No finding fails any target." in passed
    unscored = render([ROWS[5]], "hash", "0.1.0", "registry", NAMES)
    assert "No server was scored" in unscored and "```mermaid" not in unscored
    empty = render([], "hash", "0.1.0", "registry", NAMES)
    assert "**Pass rate: n/a**" in empty
