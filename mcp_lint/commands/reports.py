"""Writing the reports of `check` and `gate`: the main one on stdout or -o, each extra --sarif,
--markdown and --json file, and the GitHub job summary. Output paths are checked before any server
starts; every file is written whole or not at all."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mcp_lint.commands.output import Output, writing
from mcp_lint.errors import UsageError
from mcp_lint.files import append_text, unwritable_reason, write_text_atomic
from mcp_lint.model import RunResult
from mcp_lint.report import ReportOptions, reporter
from mcp_lint.sanitize import escape_surrogates

# The formats that show a finding at a file and line: the locate stage runs only for them.
PLACED_FORMATS = frozenset({"sarif", "github"})


@dataclass(frozen=True, eq=False, repr=False)
class ReportRequest:
    """Which reports a run writes: `output_format` (None: `github` under Actions, else `text`) on
    stdout or `output`, plus `extra` (format, path) files."""

    output_format: str | None = None
    output: str | None = None
    color: bool | None = None
    extra: tuple[tuple[str, str], ...] = ()
    # False for `gate`, which reads no config: its reports point at no config key.
    config_hints: bool = True

    @property
    def formats(self) -> frozenset[str]:
        return frozenset({report_format(self.output_format), *(kind for kind, _ in self.extra)})

    @property
    def needs_places(self) -> bool:
        """Whether some report shows findings at a file and line (so the locate stage must run)."""
        return bool(self.formats & PLACED_FORMATS)


def check_output(output: str | None, inputs: Sequence[str | Path | None], flag: str = "-o") -> None:
    """Refuse, before any server starts rather than after the lint, a report path that cannot be
    written or that is one of the run's `inputs` (a snapshot, the config, the jury cache): the report
    would destroy it."""
    if output is None or output == "-":
        return
    target = Path(output).resolve()
    for item in inputs:
        if item is not None and str(item) != "-" and Path(item).resolve() == target:
            raise UsageError(
                f"{flag} {output}: this run reads that file; the report would overwrite it, "
                "so give another path"
            )
    problem = unwritable_reason(Path(output))
    if problem is not None:
        example = f", e.g. {flag} {Path(output) / 'report.json'}" if Path(output).is_dir() else ""
        raise UsageError(
            f"{flag} {output}: {problem}; give a file path the report can be written to{example}"
        )


def write_output(text: str, output: str | None, out: Output, color: bool = False, flag: str = "-o") -> None:
    # Every report encodes as UTF-8, whatever lone surrogate a server put in a name.
    text = escape_surrogates(text)
    if output is None or output == "-":
        out.report(text, color=color)
        return
    with writing(f"{flag} {output}", "the report"):
        write_text_atomic(Path(output), text)


def use_color(option: bool | None, output: str | None) -> bool:
    if option is not None:
        return option
    if output is not None or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


def report_format(chosen: str | None) -> str:
    """--format, else `github` inside GitHub Actions (annotations), else `text`."""
    if chosen:
        return chosen
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def terminal_width(output: str | None, output_format: str) -> int | None:
    if output_format != "text" or (output is not None and output != "-") or not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def write_reports(result: RunResult, request: ReportRequest, out: Output) -> None:
    """The report on stdout or -o, each --sarif/--markdown file, and under GitHub Actions the job
    summary (appended to $GITHUB_STEP_SUMMARY when the format is `github`)."""
    output_format = report_format(request.output_format)
    color = use_color(request.color, request.output)
    width = terminal_width(request.output, output_format)
    report_options = ReportOptions(
        color=color, cwd=os.getcwd(), width=width, config_hints=request.config_hints
    )
    write_output(reporter(output_format)(result, report_options), request.output, out, color)
    plain = replace(report_options, color=False, width=None)
    for kind, path in request.extra:
        write_output(reporter(kind)(result, plain), path, out, flag=f"--{kind}")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if output_format == "github" and summary:
        from mcp_lint.report.github import step_summary

        try:
            append_text(Path(summary), step_summary(result, plain))
        except OSError as exc:
            out.warning(f"cannot append the job summary to {summary}: {exc}")
