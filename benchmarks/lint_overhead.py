"""What `mcp-lint check` costs next to its floor, on both paths users run, measured in the same run.

    python benchmarks/lint_overhead.py [--rounds 5] [--tools 120]

Snapshot path (pre-commit): `mcp-lint check tools.json` on a saved snapshot of N tools, against a bare
interpreter that imports `mcp.types` (which the SDK-acceptance checks need) and loads the same JSON.

Live path: `mcp-lint check -- python raw_stdio_server.py` against bare SDK reflection of the same server
(a `ClientSession` over `stdio_client`: initialize, then list_tools). The server is raw JSON-RPC with no
SDK (benchmarks/servers/raw_stdio_server.py), so it starts and answers at once and what is left is
client cost; an SDK server's own start-up would hide that.

Every command runs as a fresh process, as users and CI run it, so interpreter start-up and imports count:
a slow import (litellm, the live client on the snapshot path) shows up here. Rounds alternate between
the commands so machine noise hits each alike. Goal: both ratios <= 1.3.

Each command's CPU time (user + system, of the process and of the processes it waited for: the server
it started) is printed beside its wall time: on a shared machine the CPU figures are the steady ones.
`--mcpscore PATH` times the peer (`mcpscore --json --stdio`) on the live path in the same rounds.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAW_SERVER = Path(__file__).resolve().parent / "servers" / "raw_stdio_server.py"
GOAL = 1.3

SNAPSHOT_FLOOR = "import json, sys, mcp.types; json.load(open(sys.argv[1], encoding='utf-8'))"

LIVE_FLOOR = """
import sys
import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

async def main() -> None:
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        print(len((await session.list_tools()).tools))

anyio.run(main)
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: Sequence[str], env: Mapping[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `command`; the CPU time counts the process and every
    process it waited for (the server it started included)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    used = _children_cpu() - cpu
    if result.returncode not in (0, 1):  # 1: mcp-lint found something, which is a finished run
        raise SystemExit(f"{' '.join(command[:4])} failed with {result.returncode}: {result.stderr[-400:]}")
    return elapsed, used


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tools", type=int, default=120)
    parser.add_argument(
        "--mcpscore",
        metavar="PATH",
        help="an installed mcpscore executable (the peer), timed on the live path in the same rounds",
    )
    options = parser.parse_args()
    python = sys.executable
    server = [python, str(RAW_SERVER), "--tools", str(options.tools)]
    lint = [python, "-m", "mcp_lint", "check", "--isolated", "--format", "json"]
    with tempfile.TemporaryDirectory() as folder:
        # Every command runs with compiled bytecode, as an installed package does (pip writes it):
        # with PYTHONDONTWRITEBYTECODE set, each run would compile mcp-lint's sources anew while the
        # floor's site-packages have theirs. The warm-up round writes it under a private prefix.
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        snapshot = Path(folder) / "tools.json"
        # The snapshot the pre-commit path reads is the one `mcp-lint snapshot` writes.
        subprocess.run(
            [python, "-m", "mcp_lint", "snapshot", "--isolated", "-o", str(snapshot), "--", *server],
            check=True,
            capture_output=True,
            env=env,
        )
        live_floor_script = Path(folder) / "bare_sdk.py"
        live_floor_script.write_text(LIVE_FLOOR, encoding="utf-8")
        commands = {
            "snapshot floor": [python, "-c", SNAPSHOT_FLOOR, str(snapshot)],
            "snapshot lint": [*lint, str(snapshot)],
            "live floor": [python, str(live_floor_script), *server],
            "live lint": [*lint, "--", *server],
            "live lint, rules only": [*lint, "--ignore", "MCP7", "--", *server],
        }
        if options.mcpscore:
            commands["mcpscore"] = [options.mcpscore, "--json", "--stdio", *server]
        for command in commands.values():
            timed(command, env)  # warm the file cache so the first measured round is not special
        wall: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(options.rounds):
            for name, command in commands.items():
                elapsed, used = timed(command, env)
                wall[name].append(elapsed)
                cpu[name].append(used)
    print(f"{options.tools} tools, {options.rounds} rounds, medians (goal <= {GOAL:.2f}x):")
    rows = [
        ("snapshot: python -c 'import mcp.types' + load the JSON", "snapshot floor", "snapshot floor"),
        ("snapshot: mcp-lint check tools.json", "snapshot lint", "snapshot floor"),
        ("live: bare SDK reflection of the raw stdio server", "live floor", "live floor"),
        ("live: mcp-lint check, deterministic rules only", "live lint, rules only", "live floor"),
        ("live: mcp-lint check, rules + offline jury (default)", "live lint", "live floor"),
    ]
    if options.mcpscore:
        rows.append(("live: mcpscore --json --stdio (the peer)", "mcpscore", "live floor"))
    verdicts: dict[str, dict[str, float]] = {}
    for measure, times in (("CPU", cpu), ("wall", wall)):
        median = {name: statistics.median(values) for name, values in times.items()}
        note = " (the process and the processes it waited for)" if measure == "CPU" else ""
        print(f"{measure} time{note}:")
        for label, name, floor in rows:
            spread = f"{min(times[name]):.3f}-{max(times[name]):.3f}"
            print(f"  {label:<56} {median[name]:.3f} s ({spread})   {median[name] / median[floor]:.2f}x")
        share = (median["live lint"] - median["live lint, rules only"]) / median["live lint, rules only"]
        print(f"  offline jury + proposals share of the default live run   {share:+.1%}   (target < 10%)")
        verdicts[measure] = {
            "snapshot": median["snapshot lint"] / median["snapshot floor"],
            "live": median["live lint"] / median["live floor"],
        }
    for measure, ratios in verdicts.items():
        print(f"  {measure}: " + ", ".join(f"{path} {ratio:.2f}x" for path, ratio in ratios.items()), end="")
        print("  -> goal met" if all(r <= GOAL for r in ratios.values()) else "  -> goal NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
