"""The local engine: a process pool that stores each row as it comes back, stops a job past its
timeout, and runs again a job whose worker died (up to --max-retries) without retrying verdicts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from audit_support import HERE, fixture_server, runs, seeded_entry, snapshots, stored_rows

from mcp_lint.audit.engines import ENGINES, EngineOptions, LocalEngine, make_engine
from mcp_lint.audit.job import ERROR, PASSED, JobSettings
from mcp_lint.audit.run import run_audit
from mcp_lint.audit.store import Store
from mcp_lint.audit.targets import discover
from mcp_lint.errors import UsageError


def _audit(tmp_path: Path, targets: list[str], options: EngineOptions, settings: JobSettings) -> Path:
    store_path = tmp_path / "audit.sqlite"
    store = Store(store_path)
    try:
        run_audit(discover(targets).jobs, LocalEngine(options), settings, store)
    finally:
        store.close()
    return store_path


def test_the_engines_are_an_explicit_registry() -> None:
    assert list(ENGINES) == ["local", "ray"]
    assert make_engine("local", EngineOptions(workers=3)).name == "local"
    with pytest.raises(UsageError, match="--engine nope: unknown; use one of: local, ray"):
        make_engine("nope", EngineOptions())


@pytest.mark.timeout(240)
def test_a_job_past_its_timeout_is_stopped_and_recorded_the_others_go_on(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    mark = f"AUDIT_TEST_MARK={tmp_path}"  # in the hung server's environment, to find it afterwards
    hung = seeded_entry(
        tmp_path / "entries",
        cache,
        "hung",
        fixture_server("hang_server.py"),
        environment={"AUDIT_TEST_MARK": str(tmp_path)},
    )
    quick = [str(path) for path in snapshots(3)]
    settings = JobSettings(timeout=120, cache_dir=str(cache))
    store = _audit(tmp_path, [str(hung), *quick], EngineOptions(workers=2, timeout=25), settings)
    rows = stored_rows(store)
    assert rows[str(hung)]["status"] == ERROR and rows[str(hung)]["exit_code"] is None
    assert rows[str(hung)]["error"] == "timed out after 25s (--job-timeout)"
    assert all(rows[path]["report"] for path in quick) and len(rows) == 4
    # The server the killed worker started (in a session of its own) was killed with it.
    assert _processes_with(mark) == []


def _processes_with(variable: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and variable.encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.timeout(300)
@pytest.mark.parametrize("workers", [1, 2])
def test_a_job_whose_worker_dies_is_run_again_then_recorded_as_an_error(tmp_path: Path, workers: int) -> None:
    cache = tmp_path / "cache"
    killer = seeded_entry(
        tmp_path / "entries", cache, "killer", [sys.executable, str(HERE / "worker_killer_server.py")]
    )
    others = [str(path) for path in snapshots(3)]
    settings = JobSettings(cache_dir=str(cache))
    store = _audit(tmp_path, [str(killer), *others], EngineOptions(workers=workers, max_retries=1), settings)
    rows = stored_rows(store)
    assert rows[str(killer)]["status"] == ERROR
    assert rows[str(killer)]["error"].startswith("the worker died 2 time(s) running it: ")
    # The jobs that shared the pool with it when it died ran again, uncharged, to their verdicts.
    assert all(rows[path]["status"] in {PASSED, "failed"} and rows[path]["report"] for path in others)
    assert runs(store) == [(1, 4, 0)]
