"""Reporters: one module per format, each a `render(result, options) -> str` function."""

from __future__ import annotations

import importlib
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


# Format -> the module whose `render` writes it. Only the chosen formats are imported: a plain text
# lint must not pay for sarif-om and the source locator.
REPORTER_MODULES: dict[str, str] = {
    "text": "mcp_lint.report.text",
    "json": "mcp_lint.report.json_report",
    "sarif": "mcp_lint.report.sarif",
    "github": "mcp_lint.report.github",
    "markdown": "mcp_lint.report.markdown",
}


def reporter(name: str) -> Reporter:
    """The reporter of format `name` (a key of REPORTER_MODULES)."""
    render: Reporter = importlib.import_module(REPORTER_MODULES[name]).render
    return render


def reporters() -> dict[str, Reporter]:
    """Every reporter, by format (imports them all; the CLI asks for one with `reporter`)."""
    return {name: reporter(name) for name in REPORTER_MODULES}
