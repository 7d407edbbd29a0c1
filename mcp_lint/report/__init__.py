"""Reporters: one module per format, each a `render(result, options) -> str` function."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from mcp_lint.model import RunResult, ServerReport, value_record

if TYPE_CHECKING:
    from mcp_lint.check.rules import Catalogue


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ReportOptions:
    color: bool = False
    # Where the run started, so reports can show paths relative to it; SARIF and GitHub annotations
    # also search the git repository holding it for where each tool is defined.
    cwd: str = "."
    # The rules SARIF describes; None loads the packaged catalogue.
    catalogue: Catalogue | None = None
    # Terminal columns to wrap the text report to; None does not wrap (files, pipes, golden tests).
    width: int | None = None
    # Whether the footer may point at config keys (per-tool ignores, the baseline): not for `gate`,
    # which reads no config.
    config_hints: bool = True


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


def floor_line(server: ServerReport, floor: float) -> str:
    """The line that says a server's rubric score is under the floor."""
    score = server.score.overall if server.score is not None else 0.0
    return f"{server.name}: rubric score {score:g} is under the floor of {floor:g} (min-score)"
