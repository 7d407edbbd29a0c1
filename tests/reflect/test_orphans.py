"""A grandchild in the server's process group that ignores SIGTERM must not outlive mcp-lint.

Each path that ends a run is covered: the server answered and mcp-lint exits normally, the server
never answered (timeout), and mcp-lint itself was sent SIGTERM mid-run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from reflect_support import server_script

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")


def _running(pid: int) -> bool:
    """Whether `pid` is a live process; a zombie (reparented, not yet reaped) has stopped."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat_line.rsplit(")", 1)[1].split()[0] != "Z"


def _read(fifo: Path) -> str:
    """What the server side writes to `fifo`: opening it waits for the writer, reading for its close.
    A server that never writes leaves this waiting: pytest-timeout is the guard, not a stopwatch."""
    with fifo.open(encoding="utf-8") as handle:
        return handle.read()


def _wait_for(path: Path) -> int:
    return int(_read(path))


def _lint(tmp_path: Path, *server_args: str, timeout: str = "30") -> tuple[subprocess.Popen[str], Path]:
    child_pid_file = tmp_path / "grandchild.pid"
    os.mkfifo(child_pid_file)
    command = [
        sys.executable,
        "-m",
        "mcp_lint",
        "check",
        "--isolated",
        "--timeout",
        timeout,
        "--",
        sys.executable,
        server_script("orphan_server.py"),
        "--child-pid-file",
        str(child_pid_file),
        *server_args,
    ]
    lint = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return lint, child_pid_file


def _assert_gone_when_lint_returns(lint: subprocess.Popen[str], pid: int) -> str:
    try:
        _, err = lint.communicate()
        # No waiting here: the grandchild must already be gone when mcp-lint has returned.
        assert not _running(pid), "the grandchild outlived mcp-lint"
        return err
    finally:
        if lint.poll() is None:
            lint.kill()
            lint.wait()
        if _running(pid):
            os.kill(pid, signal.SIGKILL)


def test_normal_exit_leaves_no_grandchild(tmp_path: Path) -> None:
    lint, child_pid_file = _lint(tmp_path)
    pid = _wait_for(child_pid_file)
    err = _assert_gone_when_lint_returns(lint, pid)
    assert lint.returncode in (0, 1), err


def test_timeout_leaves_no_grandchild(tmp_path: Path) -> None:
    lint, child_pid_file = _lint(tmp_path, "--hang-on", "tools/list", timeout="1")
    pid = _wait_for(child_pid_file)
    err = _assert_gone_when_lint_returns(lint, pid)
    assert lint.returncode == 3 and "timed out" in err


def test_sigterm_to_mcp_lint_leaves_no_grandchild(tmp_path: Path) -> None:
    hang_file = tmp_path / "hanging"
    os.mkfifo(hang_file)
    lint, child_pid_file = _lint(tmp_path, "--hang-on", "tools/list", "--hang-file", str(hang_file))
    pid = _wait_for(child_pid_file)
    # The server has the listing request it will never answer: mcp-lint is mid-run.
    assert _read(hang_file) == "hanging tools/list\n"
    lint.send_signal(signal.SIGTERM)
    err = _assert_gone_when_lint_returns(lint, pid)
    assert lint.returncode == 143 and err.strip() == "mcp-lint: terminated"
