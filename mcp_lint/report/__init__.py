"""Reporters: one module per format, each a `render(result, options) -> str` function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from mcp_lint.model import RunResult


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False
    # Where the run started, so reports can show paths relative to it.
    cwd: str = "."


class Reporter(Protocol):
    def __call__(self, result: RunResult, options: ReportOptions) -> str: ...


def reporters() -> dict[str, Reporter]:
    # Imported here so `mcp-lint --version` does not pay for every reporter.
    from mcp_lint.report import json_report, text

    return {"text": text.render, "json": json_report.render}
