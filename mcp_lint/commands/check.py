"""`mcp-lint check`: resolve the targets, lint them, write the reports, map the result to an exit code."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mcp_lint.baseline import (
    DEFAULT_BASELINE_PATH,
    apply_baseline,
    load_baseline,
    refusal,
    write_baseline,
)
from mcp_lint.check.engine import active_rules, selector_problem
from mcp_lint.check.rules import load_catalogue
from mcp_lint.commands.output import Output, explain_outcome
from mcp_lint.commands.targets import TargetOptions, load_run_settings, resolve
from mcp_lint.config import JurySettings, Settings, jury_settings
from mcp_lint.errors import UsageError
from mcp_lint.files import unwritable_reason, write_text_atomic
from mcp_lint.gate import exit_code
from mcp_lint.jury.run import validate_jury_settings
from mcp_lint.model import BaselineEntry, RunResult
from mcp_lint.pipeline import lint
from mcp_lint.report import ReportOptions, reporter
from mcp_lint.report.safe import escape_surrogates
from mcp_lint.since import base_definitions, base_paths


@dataclass(frozen=True)
class CheckOptions:
    """The options of `check` as given; None or empty means "not given" (the config decides)."""

    targets: TargetOptions
    output_format: str | None = None
    output: str | None = None
    sarif_files: tuple[str, ...] = ()
    markdown_files: tuple[str, ...] = ()
    json_files: tuple[str, ...] = ()
    profile: str | None = None
    fail_on: str | None = None
    min_score: float | None = None
    exit_zero: bool = False
    baseline: str | None = None
    no_baseline: bool = False
    update_baseline: bool = False
    since: str | None = None
    since_snapshot: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    jury_models: tuple[str, ...] = ()
    frozen: bool = False
    no_cache: bool = False
    refresh: bool = False
    cache_file: str | None = None
    show_settings: bool = False
    color: bool | None = None
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False
    components: str | None = None
    trace_files: tuple[str, ...] = ()


def run_check(options: CheckOptions, out: Output) -> int:
    settings = _settings(options)
    jury = check_jury_settings(settings, options)
    if options.show_settings:
        out.line(json.dumps(settings_document(settings, jury), indent=2))
        return 0
    inputs = [*options.targets.paths, settings.config_path, jury.cache_path]
    extra_outputs = [("sarif", path) for path in options.sarif_files]
    extra_outputs += [("markdown", path) for path in options.markdown_files]
    extra_outputs += [("json", path) for path in options.json_files]
    check_output(options.output, inputs)
    for kind, path in extra_outputs:
        check_output(path, inputs, f"--{kind}")
    baseline = _baseline(options, settings)
    if baseline is not None and baseline.update:
        check_output(str(baseline.path), inputs, "--baseline")
    fixing = _fix_request(options)
    targets = resolve(options.targets, settings)
    bases = _since_bases(options, targets)
    result = lint(targets, settings, jury, bases=bases)
    if fixing is not None:
        fixed = _fix(result, fixing, settings, jury, options, out)
        if isinstance(fixed, bool):  # --diff: the diff is the output; 1 when there is one (like ruff)
            return 1 if fixed else 0
        result = fixed
    if baseline is not None:
        result = _apply_baseline(result, baseline, options, settings, out)
    write_reports(result, options, extra_outputs, out)
    explain_outcome(result, out)
    return exit_code(result, exit_zero=options.exit_zero)


@dataclass(frozen=True)
class _FixRequest:
    traces: tuple[Any, ...]
    components: tuple[Any, ...] | None


def _fix_request(options: CheckOptions) -> _FixRequest | None:
    """What --fix/--diff will use, read before any server starts so a bad trace file is exit 2 at once."""
    from mcp_lint.overrides import parse_components
    from mcp_lint.traces import read_traces

    if not (options.fix or options.diff):
        for flag, given in (
            ("--unsafe-fixes", options.unsafe_fixes),
            ("--components", options.components),
            ("--traces", options.trace_files),
        ):
            if given:
                raise UsageError(f"{flag} only applies with --fix or --diff")
        return None
    if options.unsafe_fixes and not [model for model in options.jury_models if model != "offline"]:
        raise UsageError("--unsafe-fixes lets an LLM write the rewrites: pass --jury MODEL as well")
    traces = tuple(record for path in options.trace_files for record in read_traces(Path(path)))
    components = parse_components(options.components) if options.components else None
    return _FixRequest(traces, components)


def _rule_limits(settings: Settings) -> tuple[dict[str, float], int]:
    """The rubric thresholds and the description token budget as this run's rules set them."""
    thresholds: dict[str, float] = {}
    max_tokens = 500
    for active in active_rules(load_catalogue(), settings):
        options = active.options
        if active.rule.category == "rubric" and "component" in options:
            thresholds[str(options["component"])] = float(options["threshold"])
        if active.rule.code == "MCP102":
            max_tokens = int(options.get("max-tokens", max_tokens))
    return thresholds, max_tokens


def _fix(
    result: RunResult,
    request: _FixRequest,
    settings: Settings,
    jury: JurySettings,
    options: CheckOptions,
    out: Output,
) -> RunResult | bool:
    """Plan the rewrites, then print them as a diff (returning whether there was one) or apply them
    and return the lint of the fixed descriptions, whose findings decide the exit code (as ruff's)."""
    from mcp_lint.fix.edit import unified_diff, write_plan
    from mcp_lint.fix.run import plan_fixes, preferred_files, summary
    from mcp_lint.overrides import DEFAULT_OVERRIDES_PATH, overrides_document, read_overrides

    augmentor = None
    if options.unsafe_fixes:
        from mcp_lint.fix.llm import LLMAugmentor

        augmentor = LLMAugmentor(jury)
    thresholds, max_tokens = _rule_limits(settings)
    overrides_path = settings.base_dir / DEFAULT_OVERRIDES_PATH
    plan = plan_fixes(
        result,
        traces=request.traces,
        components=request.components,
        jury=jury,
        augmentor=augmentor,
        unsafe=options.unsafe_fixes,
        thresholds=thresholds or None,
        max_tokens=max_tokens,
        root=Path.cwd(),
        overrides_path=overrides_path,
        prefer=preferred_files(
            options.targets.command, options.targets.paths, settings.servers, settings.base_dir
        ),
    )
    for verdict in plan.verdicts:
        if verdict.rewrite is not None and not verdict.kept:
            out.note(f"not kept: {verdict.server}/{verdict.tool}: {'; '.join(verdict.reasons)}")
        elif verdict.applied and verdict.rewrite is not None:
            touched = ", ".join(verdict.rewrite.touched)
            verb = "would fix" if options.diff else "fixed"
            out.note(
                f"{verb} {verdict.server}/{verdict.tool} in {verdict.where} "
                f"(adds {touched}; {verdict.tokens_before} -> {verdict.tokens_after} tokens)"
            )
    changes = {path: texts for path, texts in plan.files.items()}
    if plan.overrides:
        old = overrides_path.read_text(encoding="utf-8") if overrides_path.exists() else ""
        merged = dict(read_overrides(overrides_path)) if overrides_path.exists() else {}
        merged.update(plan.overrides)
        new = json.dumps(overrides_document(merged), indent=2, ensure_ascii=False) + "\n"
        changes[_shown(overrides_path)] = (old, new)
    if options.diff:
        text = unified_diff(changes)
        if text:
            out.report(text)
        out.note(summary(plan).replace("Fixed", "Would fix", 1))
        return bool(text)
    write_plan(plan, overrides_path, settings.base_dir)  # every target checked before any is written
    out.note(summary(plan))
    return _after_fixes(result, plan, settings, jury)


def _after_fixes(result: RunResult, plan: Any, settings: Settings, jury: JurySettings) -> RunResult:
    """The lint of the servers as they are now described: the fixed tools get their new descriptions."""
    from mcp_lint.fix.run import _with_descriptions
    from mcp_lint.pipeline import check_reflections
    from mcp_lint.reflect import Reflection

    new: dict[str, dict[str, str]] = {}
    for verdict in plan.applied:
        new.setdefault(verdict.server, {})[verdict.tool] = verdict.rewrite.description
    if not new:
        return result
    reflections = [
        Reflection(
            report.name,
            _with_descriptions(report.snapshot, new.get(report.name, {})) if report.snapshot else None,
            report.error,
        )
        for report in result.servers
    ]
    return check_reflections(reflections, settings, jury)


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


@dataclass(frozen=True)
class _Baseline:
    path: Path
    entries: tuple[BaselineEntry, ...]  # what the file holds now (empty when it does not exist yet)
    update: bool


def _baseline(options: CheckOptions, settings: Settings) -> _Baseline | None:
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
        return _Baseline(path, entries, update=True)
    if options.baseline is None and not path.exists():
        return None
    return _Baseline(path, load_baseline(path), update=False)


def _apply_baseline(
    result: RunResult, baseline: _Baseline, options: CheckOptions, settings: Settings, out: Output
) -> RunResult:
    entries = baseline.entries
    if baseline.update:
        refused = refusal(result)
        if refused is not None:
            out.error(refused)
        else:
            try:
                write_baseline(baseline.path, result, entries)
            except OSError as exc:
                raise UsageError(
                    f"{baseline.path}: cannot write the baseline: {exc.strerror or exc}"
                ) from None
            count = len(result.findings)
            out.note(f"wrote {baseline.path} ({count} finding{'s' if count != 1 else ''})")
            entries = load_baseline(baseline.path)
    ran = active_rules(load_catalogue(), settings)
    checked = {
        active.rule.code for active in ran if result.jury is not None or active.rule.category != "rubric"
    }
    return apply_baseline(
        result, entries, _shown(baseline.path), checked_codes=checked, every_tool=options.since is None
    )


def _shown(path: Path) -> str:
    """`path` relative to the working directory when it is under it, as the user would type it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


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
    try:
        write_text_atomic(Path(output), text)
    except OSError as exc:
        raise UsageError(f"{flag} {output}: cannot write the report: {exc.strerror or exc}") from None


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


def write_reports(
    result: RunResult, options: CheckOptions, extra_outputs: Sequence[tuple[str, str]], out: Output
) -> None:
    """The report on stdout or -o, each --sarif/--markdown file, and under GitHub Actions the job
    summary (appended to $GITHUB_STEP_SUMMARY when the format is `github`)."""
    output_format = report_format(options.output_format)
    color = use_color(options.color, options.output)
    width = terminal_width(options.output, output_format)
    report_options = ReportOptions(color=color, cwd=os.getcwd(), width=width)
    write_output(reporter(output_format)(result, report_options), options.output, out, color)
    plain = replace(report_options, color=False, width=None)
    for kind, path in extra_outputs:
        write_output(reporter(kind)(result, plain), path, out, flag=f"--{kind}")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if output_format == "github" and summary:
        from mcp_lint.report.github import write_step_summary

        try:
            write_step_summary(result, plain, Path(summary))
        except OSError as exc:
            out.warning(f"cannot append the job summary to {summary}: {exc}")
