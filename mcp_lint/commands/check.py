"""`mcp-lint check`: its options, and the run: resolve the targets, lint them, apply --fix and the
baseline (mcp_lint.commands.fixing, .baselines), write the reports (.reports), map the result to an
exit code."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mcp_lint.check.engine import selector_problem
from mcp_lint.check.rules import load_catalogue
from mcp_lint.commands.baselines import read_baseline, use_baseline
from mcp_lint.commands.check_options import CheckOptions
from mcp_lint.commands.fixing import apply_fixes, fix_request
from mcp_lint.commands.output import Output, explain_outcome
from mcp_lint.commands.reports import ReportRequest, check_output, write_reports
from mcp_lint.commands.targets import load_run_settings, resolve
from mcp_lint.config import JurySettings, Settings, jury_settings
from mcp_lint.errors import UsageError
from mcp_lint.gate import exit_code
from mcp_lint.jury.run import validate_jury_settings
from mcp_lint.pipeline import conclude, lint
from mcp_lint.since import base_definitions, base_paths


def run_check(options: CheckOptions, out: Output) -> int:
    """Everything the command line asks for is read and refused first (settings, output paths, the
    baseline, fix inputs); then the pipeline runs, --fix and the baseline apply, and the concluded
    result is reported."""
    settings = _settings(options)
    jury = check_jury_settings(settings, options)
    if options.show_settings:
        out.line(json.dumps(settings_document(settings, jury), indent=2))
        return 0
    inputs = [*options.targets.paths, settings.config_path, jury.cache_path]
    request = report_request(options)
    check_output(options.output, inputs)
    for kind, path in request.extra:
        check_output(path, inputs, f"--{kind}")
    baseline = read_baseline(options, settings)
    if baseline is not None and baseline.update:
        check_output(str(baseline.path), inputs, "--baseline")
    fixing = fix_request(options)
    targets = resolve(options.targets, settings)
    bases = _since_bases(options, targets)
    result = lint(targets, settings, jury, bases=bases)
    if fixing is not None:
        fixed = apply_fixes(result, fixing, settings, jury, options, out)
        if isinstance(fixed, bool):  # --diff: the diff is the output; 1 when there is one (like ruff)
            return 1 if fixed else 0
        result = fixed
    if baseline is not None:
        result = use_baseline(result, baseline, options, settings, out)
    result = conclude(result, os.getcwd() if request.needs_places else None)
    write_reports(result, request, out)
    explain_outcome(result, out)
    return exit_code(result, exit_zero=options.exit_zero)


def report_request(options: CheckOptions) -> ReportRequest:
    extra = [("sarif", path) for path in options.sarif_files]
    extra += [("markdown", path) for path in options.markdown_files]
    extra += [("json", path) for path in options.json_files]
    return ReportRequest(options.output_format, options.output, options.color, tuple(extra))


def _settings(options: CheckOptions) -> Settings:
    """The config's settings with the command line's --timeout, --fail-on, --select and --ignore."""
    settings = load_run_settings(
        options.targets.config_file, options.targets.isolated, options.targets.timeout
    )
    if options.fail_on:
        settings = replace(settings, fail_on=options.fail_on.lower())
    if options.profile:
        settings = replace(settings, profile=options.profile.lower())
    if options.min_score is not None:
        settings = replace(settings, min_score=options.min_score)
    if options.select:
        settings = replace(settings, select=selectors("--select", options.select))
    if options.ignore:
        settings = replace(settings, ignore=(*settings.ignore, *selectors("--ignore", options.ignore)))
    return settings


def _since_bases(options: CheckOptions, targets: Sequence[Any]) -> dict[str, Counter[str]] | None:
    """For --since, each server's tool definitions at REF, read before any server starts."""
    if options.since is None:
        if options.since_snapshot:
            raise UsageError("--since-snapshot needs --since REF: the commit to compare the snapshot at")
        return None
    since_snapshot = Path(options.since_snapshot) if options.since_snapshot else None
    paths = base_paths(targets, options.since, since_snapshot)
    return {name: base_definitions(path, options.since) for name, path in paths.items()}


def comma_list(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def selectors(option: str, values: Sequence[str]) -> tuple[str, ...]:
    """The rule selectors of --select or --ignore; one that matches nothing is an error naming the option."""
    chosen = comma_list(values)
    for selector in chosen:
        problem = selector_problem(selector, load_catalogue())
        if problem is not None:
            raise UsageError(f"{option} {problem}")
    return chosen


def check_jury_settings(settings: Settings, options: CheckOptions) -> JurySettings:
    """The jury settings of `check`, refused before any server starts when the flags contradict."""
    jury = jury_settings(
        settings,
        options.jury_models,
        cache_file=options.cache_file,
        no_cache=options.no_cache,
        refresh=options.refresh,
        frozen=options.frozen,
    )
    validate_jury_settings(jury)
    return jury


def settings_document(settings: Settings, jury: JurySettings) -> dict[str, Any]:
    """The settings as the run will use them: the config's, with the jury flags applied."""
    document: dict[str, Any] = settings.as_document()
    document["jury"].update(
        {
            "models": list(jury.models),  # empty: the embedded offline jury
            "cache": None if jury.cache_path is None else str(jury.cache_path),
            "frozen": jury.frozen,
            "refresh": jury.refresh,
        }
    )
    return document
