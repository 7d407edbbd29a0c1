"""A working legacy server that leaves a SIGTERM-ignoring grandchild in its process group.

The grandchild writes its pid, one line, to `--child-pid-file` before the server answers anything,
so a test can check it is gone once mcp-lint returns; the server waits for that on a pipe the
grandchild closes. The file may be a FIFO the test reads: then the test waits for the line, no
polling. `--hang-on tools/list` never answers the listing (the timeout path) and writes
`hanging tools/list` to `--hang-file` when the request arrives; otherwise the server answers and exits
when its stdin closes (the normal path).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from _common import base_parser, parse

GRANDCHILD = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1], "w") as handle:
    handle.write(f"{os.getpid()}\\n")
os.close(int(sys.argv[2]))  # tells the server the pid is out
time.sleep(600)
"""


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--child-pid-file", required=True, help="where the grandchild writes its pid")
    parser.add_argument("--hang-on", help="never answer this method (e.g. tools/list)")
    parser.add_argument("--hang-file", help="write `hanging METHOD` here when the hung request arrives")
    args = parse(parser)
    readable, writable = os.pipe()
    subprocess.Popen(
        [sys.executable, "-c", GRANDCHILD, args.child_pid_file, str(writable)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(writable,),
    )
    os.close(writable)
    os.read(readable, 1)  # end of file once the grandchild has written its pid (or died)
    os.close(readable)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == args.hang_on:
            if args.hang_file:
                with open(args.hang_file, "w", encoding="utf-8") as handle:
                    handle.write(f"hanging {method}\n")
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
