"""An audit, wired: discover the jobs, leave out those already recorded (--resume), run the rest on
an engine, and store each result the moment it is back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mcp_lint.audit.engines import Engine
from mcp_lint.audit.job import JobResult, JobSettings
from mcp_lint.audit.ruleset import rule_set_hash
from mcp_lint.audit.store import Row, Store
from mcp_lint.audit.targets import Job


@dataclass(frozen=True)
class Audited:
    rule_set: str
    ran: int
    skipped: int  # recorded earlier under the same rule set (--resume)
    rows: tuple[Row, ...]  # every target of the audit, in the order discovered


def run_audit(
    jobs: Sequence[Job],
    engine: Engine,
    settings: JobSettings,
    store: Store,
    *,
    resume: bool = False,
    workers: int | None = None,
    on_result: Callable[[JobResult], None] | None = None,
) -> Audited:
    rule_set = rule_set_hash(settings)
    done = store.recorded(rule_set) if resume else set()
    todo = [job for job in jobs if job.target not in done]
    run_id = store.start_run(engine.name, workers, rule_set, len(todo), len(jobs) - len(todo))

    def record(result: JobResult) -> None:
        store.record(result, rule_set, run_id)
        if on_result is not None:
            on_result(result)

    if todo:
        engine.run(todo, settings, record)
    rows = store.rows(rule_set, [job.target for job in jobs])
    return Audited(rule_set, len(todo), len(jobs) - len(todo), tuple(rows))
