"""A working legacy server that leaves a SIGTERM-ignoring grandchild in its process group.

The grandchild writes its pid to `--child-pid-file` before the server answers anything, so a test
can check it is gone once mcp-lint returns. `--hang-on tools/list` never answers the listing (the
timeout path); otherwise the server answers and exits when its stdin closes (the normal path).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

from _common import base_parser, parse

GRANDCHILD = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1] + ".tmp", "w") as handle:
    handle.write(str(os.getpid()))
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)
"""


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--child-pid-file", required=True, help="where the grandchild writes its pid")
    parser.add_argument("--hang-on", help="never answer this method (e.g. tools/list)")
    args = parse(parser)
    subprocess.Popen(
        [sys.executable, "-c", GRANDCHILD, args.child_pid_file],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while not os.path.exists(args.child_pid_file) and time.monotonic() < deadline:
        time.sleep(0.02)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None or method == args.hang_on:
            continue
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "orphan-server", "version": "0"},
            }
        elif method == "tools/list":
            result = {
                "tools": [
                    {
                        "name": "get_weather",
                        "description": "Returns the current weather for one city.",
                        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
                    }
                ]
            }
        else:
            send(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}}
            )
            continue
        send({"jsonrpc": "2.0", "id": request_id, "result": result})


if __name__ == "__main__":
    main()
