"""Servers that crash, hang, pollute or flood stdout: a clear one-line error or a finding, never a hang."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from reflect_support import SERVERS, Spawner

from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import Reflection, reflect_all

TIMEOUT = 2.0
Batch = tuple[Spawner, dict[str, Reflection]]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    """Every misbehaving server at once, plus a good one: one failure must not stop the others."""
    spawner = Spawner(tmp_path_factory.mktemp("failures"))
    targets = [
        spawner.target("crash", "crash_server.py"),
        spawner.target("hang", "hang_server.py"),
        spawner.target("hang-list", "hang_server.py", "--hang-on", "tools/list"),
        spawner.target("stubborn", "hang_server.py", "--hang-on", "tools/list", "--ignore-sigterm"),
        spawner.target("garbage", "garbage_stdout_server.py"),
        spawner.target("runaway", "runaway_stdout_server.py"),
        spawner.target("good", "good_server.py"),
    ]
    # A server that hung mcp-lint would hang this fixture: pytest-timeout is the guard, not a stopwatch.
    results = reflect_all(targets, TIMEOUT)
    return spawner, {result.name: result for result in results}


def failed(batch: Batch, name: str) -> str:
    result = batch[1][name]
    assert result.snapshot is None
    assert result.error is not None
    assert "\n" not in result.error, "errors are one line"
    assert f"server {name!r}" in result.error
    return result.error


def test_the_whole_batch_returns_a_result_for_every_server(batch: Batch) -> None:
    assert set(batch[1]) == {"crash", "hang", "hang-list", "stubborn", "garbage", "runaway", "good"}


def test_one_failure_does_not_stop_the_others(batch: Batch) -> None:
    good = batch[1]["good"]
    assert good.error is None and good.snapshot is not None and len(good.snapshot.tools) == 3


def test_crash_reports_exit_code_and_last_stderr_line(batch: Batch) -> None:
    error = failed(batch, "crash")
    assert "exit code 1" in error
    assert "RuntimeError: DATABASE_URL is not set; cannot start the inventory server" in error
    assert "crash_server.py" in error
    assert "raise --timeout" not in error  # it exited on its own: more time would not help


def test_hang_before_handshake_times_out(batch: Batch) -> None:
    error = failed(batch, "hang")
    assert "no answer after" in error and f"--timeout {TIMEOUT:g}s" in error
    assert "exit code" not in error  # mcp-lint stopped it; the signal is not the server's own exit
    assert "raise --timeout" in error


def test_hang_on_tools_list_times_out(batch: Batch) -> None:
    error = failed(batch, "hang-list")
    assert "tools/list" in error and "timed out" in error


def test_server_ignoring_sigterm_is_killed(batch: Batch) -> None:
    error = failed(batch, "stubborn")
    assert "timed out" in error
    # mcp-lint had to SIGKILL it; that status is ours, so it is not shown as the server's exit code.
    assert "exit code" not in error


def test_garbage_stdout_is_tolerated_and_reported(batch: Batch) -> None:
    result = batch[1]["garbage"]
    assert result.error is None, result.error
    snapshot = result.snapshot
    assert snapshot is not None
    assert [tool.name for tool in snapshot.tools] == ["ping_host", "uptime"]
    assert snapshot.protocol_version == "2026-07-28"
    [observation] = snapshot.observations
    assert observation.kind == "stdout-pollution"
    assert "Starting server v1.2..." in observation.detail
    assert "[debug] sending message #1" in observation.detail


def test_runaway_stdout_stops_at_the_cap(batch: Batch) -> None:
    error = failed(batch, "runaway")
    assert "a message larger than 32 MiB on stdout" in error


def test_no_process_is_left_running(batch: Batch) -> None:
    batch[0].assert_gone()


def test_runaway_stdout_does_not_blow_up_memory() -> None:
    """Measured in a child interpreter, so the peak RSS is the reflection's alone. On Linux it is read
    from /proc/self/status (VmHWM, this process's own high-water mark): getrusage's ru_maxrss survives
    exec, so a child of a pytest process that has grown to 500 MiB would report the parent's peak."""
    script = textwrap.dedent(
        f"""
        import resource, sys
        from pathlib import Path
        from mcp_lint.reach.targets import StdioTarget
        from mcp_lint.reflect import reflect_all
        server = {str(SERVERS / "runaway_stdout_server.py")!r}
        [result] = reflect_all([StdioTarget("runaway", sys.executable, (server,))], 5)
        assert result.error and "a message larger than 32 MiB" in result.error, result.error
        status = Path("/proc/self/status")
        lines = status.read_text().splitlines() if status.exists() else []
        peak = [line.split()[1] for line in lines if line.startswith("VmHWM:")]
        print(peak[0] if peak else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        """
    )
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    peak_kib = int(completed.stdout.strip().splitlines()[-1])
    # The cap is 32 MiB of buffered line; the interpreter with the SDK loaded is ~100 MiB.
    assert peak_kib < 400 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB"


def test_server_exiting_cleanly_without_answering() -> None:
    [result] = reflect_all([_python_target("quiet", "import sys; sys.exit(0)")], TIMEOUT)
    assert result.snapshot is None and result.error is not None
    assert "server 'quiet'" in result.error and "\n" not in result.error
    assert "Connection closed" in result.error


def test_server_answering_malformed_json_rpc() -> None:
    """Truncated JSON-RPC lines are dropped by the SDK session, so this ends as a timeout, bounded."""
    reply = '{"jsonrpc": "2.0", "id": 1, "result"'
    code = f"import sys; [print({reply!r}, flush=True) for line in sys.stdin]"
    [result] = reflect_all([_python_target("malformed", code)], 1.0)
    assert result.snapshot is None and result.error is not None
    assert "server 'malformed'" in result.error and "\n" not in result.error


def _python_target(name: str, code: str) -> StdioTarget:
    return StdioTarget(name, sys.executable, ("-c", code))
