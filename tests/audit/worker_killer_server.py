"""An MCP "server" whose start kills the process that started it: an audit worker dying under a job
(the out-of-memory killer, a crash in native code). It kills only an audit worker (a multiprocessing
worker forked from the forkserver, or a Ray worker), never a test process or a shell that runs it by
mistake."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

parent = os.getppid()
try:
    command = Path(f"/proc/{parent}/cmdline").read_bytes().replace(b"\0", b" ")
except OSError:
    command = b""
if b"multiprocessing" in command or command.startswith(b"ray::"):
    os.kill(parent, signal.SIGKILL)
sys.exit(1)
