"""mcp-lint's reflection next to a bare MCP SDK reflection of the same 120-tool stdio server.

    python benchmarks/reflect_overhead.py [--rounds 5] [--tools 120] [--page-size 25]

Both sides run in this one process (imports already paid), rounds interleaved so machine noise
hits both alike: (a) `mcp.Client(StdioServerParameters(...))` + `list_tools` over every page;
(b) `mcp_lint.reflect.reflect_all([StdioTarget(...)])`. Prints the medians and the ratio b/a
(target <= 1.3), plus where (b) spends its time: connect + handshake, listing, and shutdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import reflect_all
from mcp_lint.reflect import stdio as lint_stdio

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "servers" / "paginated_server.py"


def bare_sdk(args: list[str]) -> int:
    async def main() -> int:
        params = StdioServerParameters(command=sys.executable, args=args)
        async with Client(params) as client:
            cursor: str | None = None
            count = 0
            while True:
                page = await client.list_tools(cursor=cursor)
                count += len(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    return count

    return anyio.run(main)


def mcp_lint(args: list[str]) -> int:
    [result] = reflect_all([StdioTarget("bench", sys.executable, tuple(args))], 30)
    if result.snapshot is None:
        raise SystemExit(f"mcp-lint failed: {result.error}")
    return len(result.snapshot.tools)


class StopTimer:
    """Wraps the transport's `_stop` to measure how long closing the server takes."""

    def __init__(self) -> None:
        self.original: Any = lint_stdio._stop
        self.seconds: list[float] = []

    async def __call__(self, process: Any, monitor: Any) -> None:
        started = time.perf_counter()
        try:
            await self.original(process, monitor)
        finally:
            self.seconds.append(time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tools", type=int, default=120)
    parser.add_argument("--page-size", type=int, default=25)
    options = parser.parse_args()
    args = [str(SERVER), "--tools", str(options.tools), "--page-size", str(options.page_size)]

    # Warm-up: first imports and file-system caches count for neither side.
    assert bare_sdk(args) == options.tools and mcp_lint(args) == options.tools

    stop_timer = StopTimer()
    lint_stdio._stop = stop_timer  # type: ignore[assignment]
    bare: list[float] = []
    ours: list[float] = []
    try:
        for _ in range(options.rounds):
            for side, samples in ((bare_sdk, bare), (mcp_lint, ours)):
                started = time.perf_counter()
                count = side(args)
                samples.append(time.perf_counter() - started)
                assert count == options.tools, f"{side.__name__} saw {count} tools"
    finally:
        lint_stdio._stop = stop_timer.original

    a, b = statistics.median(bare), statistics.median(ours)
    stop = statistics.median(stop_timer.seconds)
    print(
        f"server: {options.tools} tools, pages of {options.page_size}; {options.rounds} rounds, interleaved"
    )
    print(f"(a) bare SDK Client + list_tools : median {a:.3f}s  {[round(x, 3) for x in bare]}")
    print(f"(b) mcp-lint reflect_all         : median {b:.3f}s  {[round(x, 3) for x in ours]}")
    print(f"    of which shutdown (_stop)    : median {stop:.3f}s")
    print(f"ratio b/a = {b / a:.2f} (target <= 1.3)")


if __name__ == "__main__":
    main()
