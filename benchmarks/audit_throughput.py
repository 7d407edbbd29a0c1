"""`mcp-lint audit` throughput: jobs per minute for 1, 2 and 4 local workers, and what one job costs.

    python benchmarks/audit_throughput.py [--snapshots 24] [--entries 8] [--workers 1,2,4] [--install]

Two workloads, each audited once per worker count into a fresh store, in the same run:

- snapshots: the first N real snapshots of tests/precision (a job is a lint: no process started);
- server.json entries: fixture servers seeded in a fresh install cache (a job starts a real stdio
  server, lists its tools and lints them; no network). With --install, three real PyPI servers (the
  versions .ci/run pins) are gated too, each round with an empty cache, so a job also installs.

Prints wall-clock jobs per minute and the speed-up over one worker (a ratio of the same run, so it
compares across machines), then the median per-job cost of each step as the store records it
(install, start, lint), and what one row costs the driver to store (the ceiling of one audit driver).
On a machine shared with other work, wall times move from run to run: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp_lint.audit.engines import EngineOptions, LocalEngine
from mcp_lint.audit.job import JobResult, JobSettings, Timings
from mcp_lint.audit.run import run_audit
from mcp_lint.audit.store import Store
from mcp_lint.audit.targets import Job, discover
from mcp_lint.registry.entry import LATEST_SCHEMA, validate_entry
from mcp_lint.registry.launch import cache_entry, installer_for, write_manifest

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "precision" / "snapshots"
SERVERS = ROOT / "tests" / "servers"
FIXTURES = ["good_server.py", "smelly_server.py", "notes_server.py", "paginated_server.py"]
# The pinned versions of .ci/run.
REAL = [
    ("mcp-server-time", "2026.10.19"),
    ("mcp-server-fetch", "2026.10.24"),
    ("mcp-server-git", "2026.10.19"),
]


def _entry(name: str, identifier: str, version: str = "1.0.0") -> dict[str, object]:
    return {
        "$schema": LATEST_SCHEMA,
        "name": f"io.github.bench/{name}",
        "description": "benchmark entry",
        "version": version,
        "packages": [
            {
                "registryType": "pypi",
                "identifier": identifier,
                "version": version,
                "transport": {"type": "stdio"},
            }
        ],
    }


def seeded_entries(folder: Path, cache: Path, count: int) -> list[Path]:
    """`count` server.json files whose packages start the fixture servers from a seeded cache."""
    paths = []
    for index in range(count):
        script = FIXTURES[index % len(FIXTURES)]
        document = _entry(f"fixture-{index}", f"fixture-{index}-mcp")
        validation = validate_entry(document)
        assert validation.entry is not None, validation.problems
        package = validation.entry.packages[0]
        installer = installer_for(package)
        assert installer is not None
        where = cache_entry(cache, package, installer.name)
        where.mkdir(parents=True)
        write_manifest(where, package, installer.name, [sys.executable, str(SERVERS / script)])
        path = folder / f"fixture-{index}" / "server.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(path)
    return paths


def real_entries(folder: Path) -> list[Path]:
    paths = []
    for identifier, version in REAL:
        path = folder / identifier / "server.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(_entry(identifier, identifier, version)), encoding="utf-8")
        paths.append(path)
    return paths


def audit(jobs: tuple[Job, ...], workers: int, settings: JobSettings, store_path: Path) -> float:
    store = Store(store_path)
    try:
        began = time.perf_counter()
        run_audit(jobs, LocalEngine(EngineOptions(workers=workers)), settings, store)
        return time.perf_counter() - began
    finally:
        store.close()


def step_costs(store_path: Path) -> tuple[float, float, float, list[str]]:
    db = sqlite3.connect(store_path)
    try:
        rows = db.execute(
            "SELECT install_seconds, start_seconds, lint_seconds, status FROM results"
        ).fetchall()
    finally:
        db.close()
    medians = [statistics.median(row[index] for row in rows) for index in range(3)]
    return medians[0], medians[1], medians[2], sorted({row[3] for row in rows})


def store_cost(folder: Path, rows: int = 500) -> float:
    """Seconds the driver spends storing one row (one transaction each, as an audit does)."""
    store = Store(folder / "rows.sqlite")
    report = (SNAPSHOTS.parent / "servers.yaml").read_text(encoding="utf-8")[:20000]  # a report-sized text
    run = store.start_run("local", 1, "bench", rows, 0)
    began = time.perf_counter()
    for index in range(rows):
        result = JobResult(
            target=f"t{index}",
            kind="snapshot",
            status="passed",
            exit_code=0,
            report=report,
            timings=Timings(),
        )
        store.record(result, "bench", run)
    seconds = (time.perf_counter() - began) / rows
    store.close()
    return seconds


def workload(
    name: str, jobs: tuple[Job, ...], counts: list[int], settings_for: dict[int, JobSettings], folder: Path
) -> None:
    print(f"\n{name}: {len(jobs)} jobs")
    print(f"{'workers':>8} {'wall s':>8} {'jobs/min':>9} {'speed-up':>9}   median install / start / lint s")
    base: float | None = None
    for workers in counts:
        store_path = folder / f"{name.split()[0]}-{workers}.sqlite"
        seconds = audit(jobs, workers, settings_for[workers], store_path)
        rate = len(jobs) / seconds * 60
        base = base or rate
        install, start, lint, statuses = step_costs(store_path)
        print(
            f"{workers:>8} {seconds:>8.1f} {rate:>9.1f} {rate / base:>8.2f}x   "
            f"{install:.3f} / {start:.3f} / {lint:.3f}   ({', '.join(statuses)})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--snapshots", type=int, default=24)
    parser.add_argument("--entries", type=int, default=8)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument(
        "--install", action="store_true", help="also gate 3 real PyPI servers, installing each"
    )
    args = parser.parse_args()
    counts = [int(part) for part in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        snapshot_jobs = discover(
            [str(path) for path in sorted(SNAPSHOTS.glob("*.json"))[: args.snapshots]]
        ).jobs
        workload("snapshots (lint only)", snapshot_jobs, counts, dict.fromkeys(counts, JobSettings()), folder)
        cache = folder / "cache"
        entries = seeded_entries(folder / "entries", cache, args.entries)
        entry_jobs = discover([str(path) for path in entries]).jobs
        seeded = dict.fromkeys(counts, JobSettings(cache_dir=str(cache)))
        workload("server.json (start + lint)", entry_jobs, counts, seeded, folder)
        if args.install:
            real_jobs = discover([str(path) for path in real_entries(folder / "real")]).jobs
            fresh = {
                workers: JobSettings(cache_dir=str(folder / f"real-cache-{workers}")) for workers in counts
            }
            workload("pypi (install + start + lint)", real_jobs, counts, fresh, folder)
        print(f"\nstoring one row (one transaction, a 20 kB report): {store_cost(folder) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
