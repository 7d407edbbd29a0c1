"""Where the jobs of an audit run: engines behind one Protocol, chosen by name from ENGINES.

Both run the same function (`mcp_lint.audit.job.run_job`) and hand each `JobResult` to `record` in
this process as soon as it is back, so the store is written by one process, one row at a time.

- `local`: a process pool on this machine (`--workers N`). A worker that dies is an infrastructure
  failure: the jobs that were running run again one at a time, and a job whose lone worker dies is
  run again up to `max_retries` times. A job past its timeout has the pool killed and is recorded as
  an error; the other jobs running then are started again, uncharged.
- `ray`: one Ray task per job, with a resource request (`--job-cpus`), Ray's own `max_retries` for a
  worker or node that dies (never `retry_exceptions`: a verdict is not retried), and the same per-job
  timeout (`ray.cancel(force=True)`). Without `--ray-address`, a local Ray instance bound to
  127.0.0.1 only, with no dashboard and no usage reporting.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from mcp_lint.audit.job import JobResult, JobSettings, infrastructure_failure, run_job
from mcp_lint.audit.targets import Job
from mcp_lint.errors import McpLintError, UsageError

RAY_INSTALL = "pip install 'mcp-lint[distributed]'"

Record = Callable[[JobResult], None]


@dataclass(frozen=True)
class EngineOptions:
    workers: int | None = None  # local: pool size [CPUs]; ray: jobs in flight [the cluster's CPUs / job_cpus]
    timeout: float = 900.0  # seconds a job may run, install included
    max_retries: int = 2  # reruns after an infrastructure failure (a worker or node that died)
    ray_address: str | None = None
    job_cpus: float = 1.0


class Engine(Protocol):
    name: str

    def run(self, jobs: Sequence[Job], settings: JobSettings, record: Record) -> None:
        """Run every job and pass each result to `record` as it arrives (in any order)."""


def _timed_out(job: Job, seconds: float) -> JobResult:
    return infrastructure_failure(job, f"timed out after {seconds:g}s (--job-timeout)", seconds)


def _gave_up(job: Job, tries: int, reason: str) -> JobResult:
    return infrastructure_failure(job, f"the worker died {tries} time(s) running it: {reason}")


def _pool_context() -> Any:
    # forkserver: each worker starts from a clean interpreter, not a copy of this one with its threads.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


class LocalEngine:
    name = "local"

    def __init__(self, options: EngineOptions) -> None:
        self.options = options
        self.workers = options.workers or os.cpu_count() or 1

    def run(self, jobs: Sequence[Job], settings: JobSettings, record: Record) -> None:
        queue: deque[Job] = deque(jobs)
        # The jobs that were running when a worker of a shared pool died: one of them killed it, so
        # they run again one at a time, where a death is charged to the only job running.
        suspects: deque[Job] = deque()
        tries: dict[str, int] = {}
        while queue or suspects:
            if suspects:
                self._one_pool(suspects, 1, tries, settings, record, None)
            else:
                self._one_pool(
                    queue, self.workers, tries, settings, record, suspects if self.workers > 1 else None
                )

    def _one_pool(
        self,
        queue: deque[Job],
        workers: int,
        tries: dict[str, int],
        settings: JobSettings,
        record: Record,
        suspects: deque[Job] | None,
    ) -> None:
        """Run from `queue` on a pool of `workers` until the queue is empty or the pool must be replaced
        (a worker died or was killed). A death with several jobs running sends them all to `suspects`,
        uncharged; with one, it is that job's (a retry, or past the retries its record). Jobs still
        running when a job past its timeout has the pool killed go back to the queue, uncharged."""
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context())
        running: dict[Future[JobResult], tuple[Job, float]] = {}
        replace_pool = False
        lost: list[Job] = []
        try:
            while (queue or running) and not replace_pool:
                while queue and len(running) < workers:
                    job = queue.popleft()
                    running[pool.submit(run_job, job, settings)] = (job, time.monotonic())
                done, _ = wait(running, timeout=1.0, return_when=FIRST_COMPLETED)
                for future in done:
                    job, _started = running.pop(future)
                    try:
                        record(future.result())
                    except BrokenProcessPool as error:  # a worker died: every running job is lost
                        replace_pool = True
                        if suspects is None:
                            self._retry(
                                job, tries, str(error) or "worker process ended abruptly", queue, record
                            )
                        else:
                            lost.append(job)
                now = time.monotonic()
                for future, (job, started) in list(running.items()):
                    if now - started > self.options.timeout:
                        del running[future]
                        record(_timed_out(job, self.options.timeout))
                        replace_pool = True
        finally:
            if replace_pool or running:
                _kill_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)
        still = [job for job, _started in running.values()]
        if lost and suspects is not None:
            suspects.extend([*lost, *still])
        else:
            queue.extendleft(reversed(still))

    def _retry(self, job: Job, tries: dict[str, int], reason: str, queue: deque[Job], record: Record) -> None:
        tries[job.target] = tries.get(job.target, 0) + 1
        if tries[job.target] > self.options.max_retries:
            record(_gave_up(job, tries[job.target], reason))
        else:
            queue.append(job)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """SIGKILL the pool's worker processes (a job past its timeout cannot be stopped any other way), and
    what they started: a server or an installer runs in a session of its own and would outlive them."""
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    started = [child for pid in processes for child in _descendants(pid)]  # before the links are gone
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    for pid in started:
        with contextlib.suppress(OSError):
            # A session leader's whole group (npm and its scripts); never a group this process is in.
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)


def _descendants(root: int) -> list[int]:
    """The processes under `root`, read from /proc (Linux); elsewhere none are known."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    children: dict[int, list[int]] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


# -- Ray ----------------------------------------------------------------------------------------------

# Set before Ray is imported (it reads them then) and inherited by every process it starts: a local
# instance takes 127.0.0.1 as its node address instead of resolving it to the machine's outward
# address, and Ray reports no usage to the network.
_RAY_LOCAL_ENVIRONMENT = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
}


def import_ray(address: str | None) -> Any:
    """The ray module, or a UsageError (exit 2) that gives the install line."""
    if address is None:
        for key, value in _RAY_LOCAL_ENVIRONMENT.items():
            os.environ[key] = value
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise UsageError(f"--engine ray needs Ray, an optional extra: {RAY_INSTALL}") from None
    return ray


def start_ray(ray: Any, address: str | None, cpus: int | None) -> bool:
    """Connect to the cluster at `address`, or start a local instance bound to 127.0.0.1 (no dashboard);
    True when this call started or joined it (and so must shut it down). Already connected: False."""
    if ray.is_initialized():
        return False
    quiet = {"log_to_driver": False, "configure_logging": False}
    if address is not None:
        try:
            ray.init(address=address, **quiet)
        except Exception as error:  # ConnectionError, or Ray's own when nothing answers there
            raise UsageError(
                f"--ray-address {address}: cannot connect to a Ray cluster there ({error}); start one with "
                "`ray start --head` or fix the address"
            ) from None
        return True
    ray.init(num_cpus=cpus, include_dashboard=False, _node_ip_address="127.0.0.1", **quiet)
    gcs = str(ray.get_runtime_context().gcs_address)
    if not gcs.startswith("127.0.0.1:"):
        # Ray read its settings when first imported: imported earlier in this process without ours, it
        # took the machine's outward address. Never run jobs on an instance others could reach.
        ray.shutdown()
        raise McpLintError(
            f"the local Ray instance listens on {gcs}, not 127.0.0.1 (Ray was imported before mcp-lint "
            "could set it up); run the audit in a process of its own"
        )
    return True


def _unanswered(address: str, seconds: float = 5.0) -> str | None:
    """Why a `host:port` address takes no TCP connection, else None (other forms, such as `auto` or a
    `ray://` client address, are left to Ray)."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or not host or "://" in host:
        return None
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
            return None
    except OSError as error:
        return error.strerror or str(error) or type(error).__name__


class RayEngine:
    name = "ray"

    def __init__(self, options: EngineOptions) -> None:
        self.options = options
        self.ray = import_ray(options.ray_address)
        address = options.ray_address
        refused = _unanswered(address) if address is not None else None
        if refused is not None:
            # Checked before anything is stored: Ray itself would retry for minutes before giving up.
            raise UsageError(
                f"--ray-address {address}: nothing answers there ({refused}); start the head with "
                "`ray start --head` or fix the address"
            )

    def run(self, jobs: Sequence[Job], settings: JobSettings, record: Record) -> None:
        ray = self.ray
        started = start_ray(ray, self.options.ray_address, self.options.workers)
        try:
            self._run(ray, jobs, settings, record)
        finally:
            if started:
                ray.shutdown()

    def _run(self, ray: Any, jobs: Sequence[Job], settings: JobSettings, record: Record) -> None:
        task = ray.remote(run_job).options(
            num_cpus=self.options.job_cpus,
            max_retries=self.options.max_retries,
            retry_exceptions=False,
        )
        window = self.options.workers or max(
            1, int(ray.cluster_resources().get("CPU", 1) / self.options.job_cpus)
        )
        shared = ray.put(settings)
        queue: deque[Job] = deque(jobs)
        running: dict[Any, tuple[Job, float]] = {}
        while queue or running:
            # Jobs are submitted as slots free up, so a job's timeout counts from when it can start.
            while queue and len(running) < window:
                job = queue.popleft()
                running[task.remote(job, shared)] = (job, time.monotonic())
            ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
            for ref in ready:
                job, _started = running.pop(ref)
                try:
                    record(ray.get(ref))
                except ray.exceptions.RayError as error:  # the worker or node died past the retries
                    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                    record(_gave_up(job, self.options.max_retries + 1, first))
            now = time.monotonic()
            for ref, (job, begun) in list(running.items()):
                if now - begun > self.options.timeout:
                    del running[ref]
                    ray.cancel(ref, force=True)
                    record(_timed_out(job, self.options.timeout))


ENGINES: dict[str, Callable[[EngineOptions], Engine]] = {"local": LocalEngine, "ray": RayEngine}


def make_engine(name: str, options: EngineOptions) -> Engine:
    try:
        factory = ENGINES[name]
    except KeyError:
        raise UsageError(f"--engine {name}: unknown; use one of: {', '.join(ENGINES)}") from None
    return factory(options)
