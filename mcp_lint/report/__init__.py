"""Reporters: one module per format, each a `render(result, options) -> str` function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from mcp_lint.model import RunResult

if TYPE_CHECKING:
    from mcp_lint.check.rules import Catalogue


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False
    # Where the run started, so reports can show paths relative to it; SARIF and GitHub annotations
    # also search the git repository holding it for where each tool is defined.
    cwd: str = "."
    # The rules SARIF describes; None loads the packaged catalogue.
    catalogue: Catalogue | None = None
    # Terminal columns to wrap the text report to; None does not wrap (files, pipes, golden tests).
    width: int | None = None


class Reporter(Protocol):
    def __call__(self, result: RunResult, options: ReportOptions) -> str: ...


def reporters() -> dict[str, Reporter]:
    # Imported here so `mcp-lint --version` does not pay for every reporter.
    from mcp_lint.report import github, json_report, markdown, sarif, text

    return {
        "text": text.render,
        "json": json_report.render,
        "sarif": sarif.render,
        "github": github.render,
        "markdown": markdown.render,
    }
