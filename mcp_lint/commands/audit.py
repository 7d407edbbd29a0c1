"""`mcp-lint audit`: every input is read and refused first (targets, store, report path, engine);
then the jobs run, each row is stored as it comes back, a progress bar shows on a terminal, and the
report is written from the store."""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import mcp_lint
from mcp_lint.audit.engines import EngineOptions, make_engine
from mcp_lint.audit.job import ERROR, FAILED, PASSED, UNREACHABLE, JobResult, JobSettings, run_settings
from mcp_lint.audit.store import DEFAULT_STORE, Store
from mcp_lint.audit.targets import discover
from mcp_lint.commands.output import Output, writing
from mcp_lint.commands.reports import check_output
from mcp_lint.errors import EXIT_CLEAN, EXIT_FINDINGS, UsageError
from mcp_lint.files import write_text_atomic

PROGRESS_CELLS = 30


@dataclass(frozen=True)
class AuditOptions:
    targets: tuple[str, ...] = ()
    engine: str = "local"
    workers: int | None = None
    ray_address: str | None = None
    job_cpus: float = 1.0
    store: str | None = None
    resume: bool = False
    report: str | None = None
    profile: str = "registry"
    min_score: float | None = None
    timeout: float | None = None
    job_timeout: float = 900.0
    max_retries: int = 2
    cache_dir: str | None = None
    fresh_installs: bool = False
    allow_private_network: bool = False
    allow_install_scripts: bool = False


class Progress:
    """`[#####.....] 12/40  passed 9  failed 2  unreachable 1  error 0` on stderr, redrawn in place;
    only on a terminal (a log gets the summary line at the end and nothing else)."""

    def __init__(self, total: int, out: Output, shown: bool) -> None:
        self.total = total
        self.out = out
        self.shown = shown and total > 0
        self.counts: Counter[str] = Counter()
        self.done = 0

    def __call__(self, result: JobResult) -> None:
        self.done += 1
        self.counts[result.status] += 1
        if self.shown:
            filled = round(self.done / self.total * PROGRESS_CELLS)
            statuses = "  ".join(
                f"{status} {self.counts[status]}" for status in (PASSED, FAILED, UNREACHABLE, ERROR)
            )
            line = f"\r[{'#' * filled}{'.' * (PROGRESS_CELLS - filled)}] {self.done}/{self.total}  {statuses}"
            self.out.echo(line, nl=self.done == self.total, err=True)


def _job_settings(options: AuditOptions) -> JobSettings:
    defaults = JobSettings()
    return JobSettings(
        profile=options.profile,
        min_score=options.min_score,
        timeout=options.timeout if options.timeout is not None else defaults.timeout,
        # A job's install may take all of its time, never more.
        install_timeout=min(defaults.install_timeout, options.job_timeout),
        # Absolute: a worker's working folder is not this one.
        cache_dir=str(Path(options.cache_dir).resolve()) if options.cache_dir else None,
        fresh_installs=options.fresh_installs,
        allow_private_network=options.allow_private_network,
        allow_install_scripts=options.allow_install_scripts,
    )


def run_audit_command(options: AuditOptions, out: Output) -> int:
    from mcp_lint.audit.report import render
    from mcp_lint.audit.run import run_audit
    from mcp_lint.check.rules import load_catalogue

    if options.engine != "ray" and options.ray_address:
        raise UsageError("--ray-address needs --engine ray")
    if options.fresh_installs and options.cache_dir:
        raise UsageError(
            "--fresh-installs and --cache-dir contradict each other: fresh installs use no cache"
        )
    store_path = Path(options.store) if options.store else DEFAULT_STORE
    check_output(options.report, [*options.targets, store_path], "--report")
    discovery = discover(options.targets)
    for reason in discovery.skipped:
        out.warning(f"skipped {reason}")
    settings = _job_settings(options)
    engine_options = EngineOptions(
        workers=options.workers,
        timeout=options.job_timeout,
        max_retries=options.max_retries,
        ray_address=options.ray_address,
        job_cpus=options.job_cpus,
    )
    engine = make_engine(options.engine, engine_options)
    store = Store(store_path)
    try:
        progress = Progress(len(discovery.jobs), out, sys.stderr.isatty() and not os.environ.get("CI"))
        audited = run_audit(
            discovery.jobs,
            engine,
            settings,
            store,
            resume=options.resume,
            workers=options.workers,
            on_result=progress,
        )
    finally:
        store.close()
    statuses = Counter(row.status for row in audited.rows)
    out.note(
        f"mcp-lint: audited {len(audited.rows)} target(s) ({audited.ran} run, {audited.skipped} already "
        f"recorded): {statuses[PASSED]} passed, {statuses[FAILED]} failed, {statuses[UNREACHABLE]} "
        f"unreachable, {statuses[ERROR]} error; rule set {audited.rule_set}, store {store_path}"
    )
    if options.report:
        names = {rule.code: rule.name for rule in load_catalogue().rules}
        text = render(
            audited.rows, audited.rule_set, mcp_lint.__version__, run_settings(settings).profile, names
        )
        with writing(f"--report {options.report}", "the report"):
            write_text_atomic(Path(options.report), text)
    return EXIT_CLEAN if statuses[PASSED] == len(audited.rows) else EXIT_FINDINGS
