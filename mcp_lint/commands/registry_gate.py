"""`mcp-lint gate`: validate a registry entry, install and start what it describes, lint it under the
registry profile, write the reports and the verdict, and map the outcome to an exit code."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mcp_lint.commands.output import Output, explain_outcome, writing
from mcp_lint.commands.reports import ReportRequest, check_output, write_reports
from mcp_lint.commands.targets import env_pairs, load_run_settings
from mcp_lint.config import JurySettings, Settings, jury_settings
from mcp_lint.errors import EXIT_USAGE, UsageError
from mcp_lint.gate import exit_code
from mcp_lint.jury.run import validate_jury_settings
from mcp_lint.model import RunResult
from mcp_lint.pipeline import conclude
from mcp_lint.registry.entry import Problem, RegistryEntry, load_entry
from mcp_lint.registry.launch import Inputs, Launch, default_cache_dir, launch_all, plan
from mcp_lint.registry.lint import check_launched, reflect_launches
from mcp_lint.registry.verdict import Judged, verdict_document, write_verdict

DEFAULT_ENTRY = "server.json"
REGISTRY_PROFILE = "registry"


@dataclass(frozen=True)
class GateOptions:
    entry: str | None = None
    output_format: str | None = None
    output: str | None = None
    verdict: str | None = None
    env: tuple[str, ...] = ()
    timeout: float | None = None
    min_score: float | None = None
    jury_models: tuple[str, ...] = ()
    frozen: bool = False
    cache_file: str | None = None
    cache_dir: str | None = None
    config_file: str | None = None
    color: bool | None = None
    allow_private_network: bool = False
    allow_install_scripts: bool = False


def run_gate(options: GateOptions, out: Output) -> int:
    path = Path(options.entry or DEFAULT_ENTRY)
    settings = _settings(options)
    jury = _jury(settings, options)
    inputs = [path, settings.config_path, jury.cache_path]
    check_output(options.output, inputs)
    check_output(options.verdict, [*inputs, options.output], "--verdict")
    given = env_pairs(options.env, None)
    cache_dir = Path(options.cache_dir) if options.cache_dir else default_cache_dir()

    validation = load_entry(path)
    for warning in validation.warnings:
        out.warning(f"{path}: {warning}")
    entry = validation.entry
    if entry is None:
        for problem in validation.problems:
            out.error(f"{path}: {problem}")
        _verdict(options, EXIT_USAGE, None, path, problems=validation.problems)
        return EXIT_USAGE
    try:
        launch_plan = plan(entry, given, allow_private_network=options.allow_private_network)
    except UsageError as error:
        _verdict(options, EXIT_USAGE, entry, path, error=str(error))
        raise UsageError(f"{path}: {error}") from None
    for note in launch_plan.notes:
        out.warning(f"{path}: {note}")
    launches = launch_all(
        launch_plan.items, cache_dir, str(path), allow_scripts=options.allow_install_scripts
    )
    for launched in launches:
        if launched.install_time_code is not None:
            ran = launched.install_time_code
            out.warning(f"{launched.path}: install-time code ran (--allow-install-scripts): {ran}")
        if launched.cached:
            out.note(f"mcp-lint: {launched.path}: started from the install cache ({cache_dir})")
    request = ReportRequest(options.output_format, options.output, options.color, config_hints=False)
    result = conclude(
        _lint(launches, settings, jury, launch_plan.inputs), os.getcwd() if request.needs_places else None
    )
    write_reports(result, request, out)
    explain_outcome(result, out)
    code = exit_code(result)
    _verdict(options, code, entry, path, launches=launches, result=result, inputs=launch_plan.inputs)
    return code


def _settings(options: GateOptions) -> Settings:
    """The registry profile, over no config file unless --config names one: every entry a registry
    gates is judged by the same rules, whatever its repository configures."""
    if options.config_file:
        settings = load_run_settings(options.config_file, isolated=False, timeout=options.timeout)
    else:
        settings = load_run_settings(None, isolated=True, timeout=options.timeout)
    settings = replace(settings, profile=REGISTRY_PROFILE, fail_on="low")
    if options.min_score is not None:
        settings = replace(settings, min_score=options.min_score)
    return settings


def _jury(settings: Settings, options: GateOptions) -> JurySettings:
    jury = jury_settings(settings, options.jury_models, cache_file=options.cache_file, frozen=options.frozen)
    if jury.models and not jury.frozen:
        raise UsageError(
            f"the {REGISTRY_PROFILE} profile calls no model: use the offline jury (the default), or "
            "--frozen with a jury cache that holds every verdict"
        )
    validate_jury_settings(jury)
    return jury


def _lint(launches: Sequence[Launch], settings: Settings, jury: JurySettings, inputs: Inputs) -> RunResult:
    reflections = reflect_launches(launches, settings.timeout, inputs)
    return check_launched(reflections, settings, jury, inputs)


def _verdict(
    options: GateOptions,
    code: int,
    entry: RegistryEntry | None,
    path: Path,
    *,
    problems: Sequence[Problem] = (),
    error: str | None = None,
    launches: Sequence[Launch] = (),
    result: RunResult | None = None,
    inputs: Inputs | None = None,
) -> None:
    if options.verdict is None:
        return
    packages: list[Judged] = []
    remotes: list[Judged] = []
    reports = list(result.servers) if result is not None else []
    if entry is not None:
        by_path = {launched.path: index for index, launched in enumerate(launches)}
        for package in entry.packages:
            index = by_path.get(package.path)
            report = reports[index] if index is not None and index < len(reports) else None
            describe = {
                "registryType": package.registry_type,
                "identifier": package.identifier,
                "version": package.version,
            }
            packages.append(Judged(package.path, describe, report))
        for remote in entry.remotes:
            index = by_path.get(remote.path)
            report = reports[index] if index is not None and index < len(reports) else None
            describe = {"type": remote.transport.type, "url": remote.transport.url}
            remotes.append(Judged(remote.path, describe, report))
    document = verdict_document(
        exit_code=code,
        entry=entry,
        source=str(path),
        packages=packages,
        remotes=remotes,
        result=result,
        problems=problems,
        error=error,
        redact=inputs.redact if inputs is not None else str,
    )
    with writing(f"--verdict {options.verdict}", "the verdict"):
        write_verdict(Path(options.verdict), document)
