"""Never answers. Default: reads requests and ignores them all. `--hang-on METHOD`: behaves as a
normal legacy server (discover refused, initialize answered) but ignores requests for METHOD."""

from __future__ import annotations

import json
import signal
import sys
import time
from typing import Any

from _common import base_parser, parse


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--hang-on", help="answer everything except this method (e.g. tools/list)")
    parser.add_argument(
        "--ignore-sigterm", action="store_true", help="also ignore SIGTERM, so only SIGKILL stops it"
    )
    parser.add_argument(
        "--notify", action="store_true", help="answer the hung request with endless notifications instead"
    )
    args = parse(parser)
    if args.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.hang_on is None:
        while True:  # ignore stdin entirely, even its end
            time.sleep(3600)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == args.hang_on:
            while args.notify:  # a log line after another, never the answer
                send(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/message",
                        "params": {"level": "info", "data": "busy"},
                    }
                )
            continue
        if method == "initialize":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "result": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "hang-server", "version": "0"},
                    },
                }
            )
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": []}})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})
        else:
            send(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}}
            )
    while True:  # stdin closed: keep hanging until signalled
        time.sleep(3600)


if __name__ == "__main__":
    main()
