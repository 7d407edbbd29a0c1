"""What a whole `mcp-lint check` costs next to the bare SDK reflection of the same server.

    python benchmarks/lint_overhead.py [--rounds 5] [--tools 120]

Both sides run as fresh processes, as users and CI run them, so interpreter start-up and imports
count: a slow import (litellm, gitpython) shows up here. Rounds alternate between the two sides so
machine noise hits both alike. Target: lint / bare <= 1.3.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "servers" / "paginated_server.py"

BARE_SDK = """
import sys
import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

async def main() -> None:
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with Client(params) as client:
        cursor = None
        count = 0
        while True:
            page = await client.list_tools(cursor=cursor)
            count += len(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
    print(count)

anyio.run(main)
"""


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"{command[:3]} failed with {result.returncode}: {result.stderr.strip()[-400:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tools", type=int, default=120)
    options = parser.parse_args()
    server = [sys.executable, str(SERVER), "--tools", str(options.tools), "--page-size", "25"]
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bare_sdk.py"
        script.write_text(BARE_SDK, encoding="utf-8")
        bare_command = [sys.executable, str(script), *server]
        lint_command = [
            sys.executable,
            "-m",
            "mcp_lint",
            "check",
            "--isolated",
            "--format",
            "json",
            "--",
            *server,
        ]
        static_command = [*lint_command[:4], "--ignore", "MCP7", *lint_command[4:]]
        timed(bare_command)  # warm the file cache so the first measured round is not special
        bare, lint, static = [], [], []
        for _ in range(options.rounds):
            bare.append(timed(bare_command))
            lint.append(timed(lint_command))
            static.append(timed(static_command))
    bare_median = statistics.median(bare)
    lint_median = statistics.median(lint)
    static_median = statistics.median(static)
    print(f"{options.tools}-tool stdio server, {options.rounds} rounds, medians:")
    print(f"  bare SDK reflection (spawn, handshake, every page)   {bare_median:.3f} s   1.00x")
    print(
        f"  mcp-lint check, deterministic rules only              {static_median:.3f} s   "
        f"{static_median / bare_median:.2f}x"
    )
    print(
        f"  mcp-lint check, rules + offline jury (the default)    {lint_median:.3f} s   "
        f"{lint_median / bare_median:.2f}x   (target <= 1.30x)"
    )
    share = (lint_median - static_median) / static_median
    print(f"  offline jury share of the default run                 {share:+.1%}   (target < 10%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
