"""Shared helpers for the reflect tests: fixture-server targets that record their pid, liveness checks."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mcp_lint.reach.targets import StdioTarget

SERVERS = Path(__file__).resolve().parent.parent / "servers"


def server_script(name: str) -> str:
    return str(SERVERS / name)


class Spawner:
    """Builds StdioTargets for `tests/servers/*.py`, each writing its pid to a file under tmp_path."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.pid_files: dict[str, Path] = {}

    def target(self, name: str, script: str, *args: str, **kwargs: object) -> StdioTarget:
        pid_file = self.directory / f"{name}.pid"
        self.pid_files[name] = pid_file
        return StdioTarget(
            name,
            sys.executable,
            (server_script(script), "--pid-file", str(pid_file), *args),
            **kwargs,  # type: ignore[arg-type]
        )

    def pid(self, name: str) -> int:
        return int(self.pid_files[name].read_text(encoding="utf-8"))

    def assert_gone(self, *names: str) -> None:
        for name in names or tuple(self.pid_files):
            assert_not_running(self.pid(name))


def assert_not_running(pid: int) -> None:
    """The process was started by this test process, so once reaped its pid no longer exists."""
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
