"""The baseline of `check`: read (or prepared for --update-baseline) before any server starts, then
written and applied to the result, so that recorded findings are reported but fail nothing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_lint.baseline import DEFAULT_BASELINE_PATH, apply_baseline, load_baseline, refusal, write_baseline
from mcp_lint.check.engine import active_rules
from mcp_lint.check.rules import load_catalogue
from mcp_lint.commands.output import Output, shown_path, writing
from mcp_lint.config import Settings
from mcp_lint.errors import UsageError
from mcp_lint.model import BaselineEntry, Category, RunResult

if TYPE_CHECKING:
    from mcp_lint.commands.check_options import CheckOptions


@dataclass(frozen=True, eq=False, repr=False)
class Baseline:
    path: Path
    entries: tuple[BaselineEntry, ...]  # what the file holds now (empty when it does not exist yet)
    update: bool


def read_baseline(options: CheckOptions, settings: Settings) -> Baseline | None:
    """The baseline this run reads or writes, read before any server starts so a broken file is exit 2
    at once: --baseline FILE, else the default file next to the config when it exists."""
    if options.no_baseline and (options.baseline or options.update_baseline):
        flag = "--baseline" if options.baseline else "--update-baseline"
        raise UsageError(f"--no-baseline and {flag} contradict each other; pass one of them")
    if options.update_baseline and options.since:
        raise UsageError(
            "--update-baseline records every finding and --since lints only changed tools; "
            "update the baseline without --since"
        )
    if options.no_baseline:
        return None
    path = Path(options.baseline) if options.baseline else settings.base_dir / DEFAULT_BASELINE_PATH
    if options.update_baseline:
        entries = load_baseline(path) if path.exists() else ()
        return Baseline(path, entries, update=True)
    if options.baseline is None and not path.exists():
        return None
    return Baseline(path, load_baseline(path), update=False)


def use_baseline(
    result: RunResult, baseline: Baseline, options: CheckOptions, settings: Settings, out: Output
) -> RunResult:
    entries = baseline.entries
    if baseline.update:
        refused = refusal(result)
        if refused is not None:
            out.error(refused)
        else:
            with writing(baseline.path, "the baseline"):
                write_baseline(baseline.path, result, entries)
            count = len(result.findings)
            out.note(f"wrote {baseline.path} ({count} finding{'s' if count != 1 else ''})")
            entries = load_baseline(baseline.path)
    ran = active_rules(load_catalogue(), settings)
    checked = {
        active.rule.code
        for active in ran
        if result.jury is not None or active.rule.category is not Category.RUBRIC
    }
    return apply_baseline(
        result, entries, shown_path(baseline.path), checked_codes=checked, every_tool=options.since is None
    )
