"""`--engine ray` gives the store the same rows as `--engine local`, and a Ray instance mcp-lint starts
listens on 127.0.0.1 only, talks to no other address and runs no dashboard.

One local Ray instance for the module, started by mcp-lint's own code (`start_ray`): starting Ray
takes tens of seconds on a loaded machine. Without Ray installed these tests skip, except where
MCP_LINT_THIRDPARTY=1 (`bash .ci/run`, which installs the `distributed` extra): there they fail.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from audit_support import HERE, entries, fixture_server, seeded_entry, snapshots, stored_rows

from mcp_lint.audit.engines import EngineOptions, LocalEngine, RayEngine, import_ray, start_ray
from mcp_lint.audit.job import JobSettings
from mcp_lint.audit.run import run_audit
from mcp_lint.audit.store import Store
from mcp_lint.audit.targets import discover

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None and os.environ.get("MCP_LINT_THIRDPARTY") != "1",
        reason="Ray is not installed: pip install -e '.[distributed]' (bash .ci/run does)",
    ),
    pytest.mark.timeout(900),
]


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    ray = import_ray(None)
    assert start_ray(ray, None, 2) is True
    try:
        yield ray
    finally:
        ray.shutdown()


def _audit(store_path: Path, jobs: Any, engine: Any, settings: JobSettings) -> None:
    store = Store(store_path)
    try:
        run_audit(jobs, engine, settings, store)
    finally:
        store.close()


def test_ray_and_local_store_the_same_rows(
    ray_instance: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    corpus = tmp_path / "snapshots"
    corpus.mkdir()
    for path in snapshots(40):
        shutil.copy(path, corpus / path.name)
    paths = entries(tmp_path / "entries", cache)
    export = tmp_path / "export.json"
    export.write_text(json.dumps([json.loads(path.read_text()) for path in paths[:2]]), encoding="utf-8")
    # Relative paths, as an operator types them: the reports name them so on both engines.
    jobs = discover(["snapshots", *(str(path.relative_to(tmp_path)) for path in paths), "export.json"]).jobs
    assert len(jobs) == 46
    settings = JobSettings(cache_dir=str(cache))
    _audit(tmp_path / "local.sqlite", jobs, LocalEngine(EngineOptions(workers=2)), settings)
    _audit(tmp_path / "ray.sqlite", jobs, RayEngine(EngineOptions(workers=2)), settings)
    local, distributed = stored_rows(tmp_path / "local.sqlite"), stored_rows(tmp_path / "ray.sqlite")
    assert len(local) == 46
    assert distributed == local
    statuses = {row["status"] for row in local.values()}
    assert statuses == {"passed", "failed", "unreachable", "error"}


def test_ray_stops_a_job_past_its_timeout_and_gives_up_on_one_that_kills_its_worker(
    ray_instance: Any, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    hung = seeded_entry(tmp_path / "entries", cache, "hung", fixture_server("hang_server.py"))
    killer = seeded_entry(
        tmp_path / "entries", cache, "killer", [sys.executable, str(HERE / "worker_killer_server.py")]
    )
    snapshot = str(snapshots(1)[0])
    jobs = discover([str(hung), str(killer), snapshot]).jobs
    engine = RayEngine(EngineOptions(workers=3, timeout=30, max_retries=1))
    _audit(tmp_path / "ray.sqlite", jobs, engine, JobSettings(timeout=300, cache_dir=str(cache)))
    rows = stored_rows(tmp_path / "ray.sqlite")
    assert rows[str(hung)]["error"] == "timed out after 30s (--job-timeout)"
    assert rows[str(killer)]["status"] == "error"
    assert rows[str(killer)]["error"].startswith("the worker died 2 time(s) running it: ")
    assert rows[snapshot]["report"] is not None


# -- what the Ray processes listen on and talk to ---------------------------------------------------


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found = {root}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in found and pid not in found:
                found.add(pid)
                grew = True
    return found


def _socket_inodes(pids: set[int]) -> set[str]:
    inodes: set[str] = set()
    for pid in pids:
        try:
            links = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for link in links:
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    return inodes


def _port(hex_address: str) -> int:
    return int(hex_address.split(":")[1], 16)


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    host = bytes.fromhex(hex_address.split(":")[0])
    # /proc/net/tcp{,6} write each 32-bit word of the address in host (little-endian) order.
    ordered = b"".join(host[index : index + 4][::-1] for index in range(0, len(host), 4))
    address = ipaddress.ip_address(ordered)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _tcp_sockets(inodes: set[str]) -> list[tuple[str, Any, Any, int]]:
    """(state, local address, remote address, local port) of every TCP socket among `inodes`."""
    sockets = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                sockets.append((fields[3], _address(fields[1]), _address(fields[2]), _port(fields[1])))
    return sockets


LISTEN = "0A"
DASHBOARD_PORT = 8265  # Ray's web UI


def test_every_ray_socket_is_on_127_0_0_1_and_no_dashboard_runs(ray_instance: Any) -> None:
    # Ray's own processes (GCS, raylet, agents, workers) are this process's descendants.
    pids = _descendants(os.getpid())
    sockets = _tcp_sockets(_socket_inodes(pids))
    listening = [local for state, local, _, _ in sockets if state == LISTEN]
    assert len(listening) >= 3, sockets  # the GCS, the raylet, a worker at least
    assert all(str(address) == "127.0.0.1" for address in listening), listening
    remote = {remote for state, _, remote, _ in sockets if state != LISTEN}
    assert all(address.is_loopback for address in remote), remote
    commands = []
    for pid in pids:
        try:
            commands.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            continue
    # include_dashboard=False: Ray still runs its head API process, but with no web frontend and only
    # the usage-stats module (which RAY_USAGE_STATS_ENABLED=0 keeps silent); nothing on the UI's port.
    heads = [command for command in commands if "dashboard/dashboard.py" in command]
    assert all("--disable-frontend" in head and "--modules-to-load=UsageStatsHead" in head for head in heads)
    assert all("--host=127.0.0.1" in head for head in heads)
    assert not [port for state, _, _, port in sockets if state == LISTEN and port == DASHBOARD_PORT]
    assert ray_instance.get_runtime_context().gcs_address.startswith("127.0.0.1:")


def test_the_command_line_runs_on_ray(
    ray_instance: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_lint.cli import main

    monkeypatch.chdir(tmp_path)
    targets = [str(path) for path in snapshots(3)]
    code = main(["audit", *targets, "--engine", "ray", "--workers", "2", "--report", "audit.md"])
    err = capsys.readouterr().err
    assert code in (0, 1) and "(3 run, 0 already recorded)" in err
    assert sorted(stored_rows(tmp_path / ".mcp-lint" / "audit.sqlite")) == sorted(targets)
    assert "# mcp-lint audit" in (tmp_path / "audit.md").read_text(encoding="utf-8")
    assert ray_instance.is_initialized()  # an instance the audit did not start is left running
