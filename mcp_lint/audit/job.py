"""One audit job, as a worker runs it: gate a server.json or lint a snapshot, and return its record.

`run_job` is the whole of what an engine runs, on this machine or on a Ray node: it takes the job and
the audit's settings (plain frozen records), returns a `JobResult`, and raises nothing but an
interrupt. Its report is the JSON report `mcp-lint gate ENTRY --format json` (or `mcp-lint check
SNAPSHOT --isolated --format json` under the same profile) writes, so it holds no time and no path of
the machine that ran it: the same job gives the same bytes on every engine. The time each step took is
returned beside it.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mcp_lint.audit.targets import ENTRY, Job
from mcp_lint.config import JurySettings, Settings
from mcp_lint.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREACHABLE, EXIT_USAGE, McpLintError
from mcp_lint.model import RunResult, Severity

PASSED = "passed"
FAILED = "failed"
UNREACHABLE = "unreachable"
ERROR = "error"

STATUS_OF_EXIT = {EXIT_CLEAN: PASSED, EXIT_FINDINGS: FAILED, EXIT_UNREACHABLE: UNREACHABLE}

SEVERITIES = tuple(level.label for level in sorted(Severity, reverse=True))


@dataclass(frozen=True)
class JobSettings:
    """What every job of one audit runs with; part of it makes the rule-set hash (mcp_lint.audit.ruleset)."""

    profile: str = "registry"
    min_score: float | None = None
    timeout: float = 30.0  # each server's start-up and each request
    install_timeout: float = 600.0
    cache_dir: str | None = None  # absolute; None: each machine's own default install cache
    # Install into a folder of this job's own, removed after it: no cache is shared, so no server a job
    # starts can write into what another job will start.
    fresh_installs: bool = False
    allow_private_network: bool = False
    allow_install_scripts: bool = False


@dataclass(frozen=True)
class Timings:
    """Seconds spent installing, starting (and listing the tools of) the servers, and linting."""

    install: float = 0.0
    start: float = 0.0
    lint: float = 0.0


@dataclass(frozen=True)
class JobResult:
    target: str
    kind: str
    status: str
    exit_code: int | None  # what `mcp-lint gate`/`check` would exit with; None: the job never ended
    package: str | None = None
    version: str | None = None
    score: float | None = None
    counts: Mapping[str, int] = field(default_factory=dict)
    failing_codes: tuple[str, ...] = ()
    report: str | None = None  # the JSON report; None when nothing was linted (an invalid entry)
    error: str | None = None
    duration: float = 0.0
    timings: Timings = field(default_factory=Timings)


def run_settings(settings: JobSettings) -> Settings:
    """The lint settings of every job: the defaults (no config file is read: every target of a
    registry is judged by the same rules), under the audit's profile, as `mcp-lint gate` runs."""
    chosen = Settings(profile=settings.profile, fail_on="low", timeout=settings.timeout)
    return chosen if settings.min_score is None else replace(chosen, min_score=settings.min_score)


def _jury() -> JurySettings:
    return JurySettings(models=(), cache_path=None)  # the offline jury: deterministic, never cached


def _summary(result: RunResult) -> dict[str, Any]:
    counted = {label: 0 for label in SEVERITIES}
    for finding in result.findings:
        counted[finding.severity.label] += 1
    scores = [server.score.overall for server in result.servers if server.score is not None]
    failing = sorted({finding.code for finding in result.failing})
    return {
        "score": round(min(scores), 3) if scores else None,
        "counts": counted,
        "failing_codes": tuple(failing),
    }


def _render(result: RunResult) -> str:
    from mcp_lint.report import ReportOptions
    from mcp_lint.report.json_report import render
    from mcp_lint.sanitize import escape_surrogates

    return escape_surrogates(render(result, ReportOptions()))


def _error_line(error: BaseException) -> str:
    from mcp_lint.sanitize import printable

    text = str(error) if isinstance(error, McpLintError) else f"{type(error).__name__}: {error}"
    return printable(" ".join(text.split()))


def _lint_snapshot(job: Job, settings: JobSettings) -> tuple[RunResult, Timings, dict[str, Any]]:
    from mcp_lint.pipeline import conclude, lint
    from mcp_lint.reach.client_config import parse_json_document
    from mcp_lint.reach.resolve import snapshot_name
    from mcp_lint.reach.targets import SnapshotTarget, snapshot_listing

    began = time.perf_counter()
    data = parse_json_document(job.text, job.label)
    listing = snapshot_listing(data)
    target = SnapshotTarget(
        name=snapshot_name(listing, Path(job.label).stem),
        path=Path(job.label),
        document=data,
        origin=job.label,
    )
    result = conclude(lint([target], run_settings(settings), _jury()))
    info = result.servers[0].snapshot.server_info if result.servers and result.servers[0].snapshot else None
    described = {
        "package": str(info.get("name")) if info and info.get("name") is not None else None,
        "version": str(info.get("version")) if info and info.get("version") is not None else None,
    }
    return result, Timings(lint=time.perf_counter() - began), described


class _Invalid(Exception):
    """The entry cannot be gated (invalid, or an input without a value): exit 2, nothing linted."""

    def __init__(self, message: str, described: dict[str, Any]) -> None:
        super().__init__(message)
        self.described = described


def _gate_entry(job: Job, settings: JobSettings) -> tuple[RunResult, Timings, dict[str, Any]]:
    from mcp_lint.errors import UsageError
    from mcp_lint.pipeline import conclude
    from mcp_lint.registry.entry import parse_entry
    from mcp_lint.registry.launch import default_cache_dir, launch_all, plan
    from mcp_lint.registry.lint import check_launched, reflect_launches

    validation = parse_entry(job.text.encode("utf-8", "surrogatepass"), Path(job.label))
    entry = validation.entry
    if entry is None:
        problems = "; ".join(str(problem) for problem in validation.problems[:3])
        more = len(validation.problems) - 3
        raise _Invalid(f"invalid entry: {problems}" + (f" (and {more} more)" if more > 0 else ""), {})
    described = {"package": entry.name, "version": entry.version}
    try:
        launch_plan = plan(entry, {}, allow_private_network=settings.allow_private_network)
    except UsageError as error:
        raise _Invalid(str(error), described) from None
    with contextlib.ExitStack() as stack:
        if settings.fresh_installs:
            cache_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mcp-lint-audit-")))
        else:
            cache_dir = Path(settings.cache_dir) if settings.cache_dir else default_cache_dir()
        began = time.perf_counter()
        launches = launch_all(
            launch_plan.items,
            cache_dir,
            job.label,
            settings.install_timeout,
            allow_scripts=settings.allow_install_scripts,
        )
        installed = time.perf_counter()
        reflections = reflect_launches(launches, settings.timeout, launch_plan.inputs)
        started = time.perf_counter()
    result = check_launched(reflections, run_settings(settings), _jury(), launch_plan.inputs)
    result = conclude(result)
    timings = Timings(
        install=installed - began, start=started - installed, lint=time.perf_counter() - started
    )
    return result, timings, described


def run_job(job: Job, settings: JobSettings) -> JobResult:
    """Run one job to its record. A bug or a bad input inside it is that job's `error`, never the
    audit's: the other jobs go on."""
    from mcp_lint.gate import exit_code

    began = time.perf_counter()
    try:
        if job.kind == ENTRY:
            result, timings, described = _gate_entry(job, settings)
        else:
            result, timings, described = _lint_snapshot(job, settings)
        code = exit_code(result)
        errors = [server.error for server in result.servers if server.error is not None]
        return JobResult(
            target=job.target,
            kind=job.kind,
            status=STATUS_OF_EXIT.get(code, ERROR),
            exit_code=code,
            report=_render(result),
            error=_error_line(McpLintError(errors[0])) if errors else None,
            duration=time.perf_counter() - began,
            timings=timings,
            **described,
            **_summary(result),
        )
    except _Invalid as invalid:
        return JobResult(
            target=job.target,
            kind=job.kind,
            status=ERROR,
            exit_code=EXIT_USAGE,
            error=_error_line(McpLintError(str(invalid))),
            duration=time.perf_counter() - began,
            **invalid.described,
        )
    except Exception as error:  # one target's bug or bad input: its record says so, the audit goes on
        return JobResult(
            target=job.target,
            kind=job.kind,
            status=ERROR,
            exit_code=EXIT_USAGE if isinstance(error, McpLintError) else None,
            error=_error_line(error)
            if isinstance(error, McpLintError)
            else f"internal error: {_error_line(error)}",
            duration=time.perf_counter() - began,
        )


def infrastructure_failure(job: Job, reason: str, duration: float = 0.0) -> JobResult:
    """The record of a job that no worker finished: timed out, or its worker died past the retries."""
    return JobResult(
        target=job.target, kind=job.kind, status=ERROR, exit_code=None, error=reason, duration=duration
    )
