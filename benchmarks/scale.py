"""How `mcp-lint check` scales with the number of tools: time and peak memory per size, as ratios
against the smallest size measured in the same run.

    python benchmarks/scale.py [--case minimal near-identical] [--sizes N ...] [--format json|text]

Two cases, each a table of generated snapshots (empty object schemas):

* `minimal` (500, 5,000, 50,000 tools): `get_item_N`, "Get item N.": every name shares two words
  and every description two of its three words with every other tool, the case that made the
  all-pairs comparisons of ambiguous-tools (MCP403) and the offline jury's "similar tools" reason
  quadratic.
* `near-identical` (500, 2,000, 5,000 tools): `get_item_N`, "Returns item number N of the
  catalogue.": names and descriptions that differ only by the number, the case that made the offline
  jury's specificity test quadratic (every tool re-read the names of all its siblings).

`--sizes` replaces the sizes of every case asked for. Each run is a fresh process, as CI runs it (so
interpreter start-up and imports count), with the default rules and the default (offline) jury, and
its CPU time (user + system) and peak memory (maximum resident set size) are the child's own
(os.wait4): on a shared machine the CPU time is the steadier figure. Goal: 5,000 tools within 12x
the time of 500 in both cases, and memory that grows with the input only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# The description of tool N in each case.
DESCRIPTIONS = {
    "minimal": "Get item {number}.",
    "near-identical": "Returns item number {number} of the catalogue.",
}
DEFAULT_SIZES = {"minimal": [500, 5000, 50000], "near-identical": [500, 2000, 5000]}


def write_snapshot(path: Path, count: int, case: str = "minimal") -> None:
    description = DESCRIPTIONS[case]
    tools = [
        {
            "name": f"get_item_{number}",
            "description": description.format(number=number),
            "inputSchema": {"type": "object"},
        }
        for number in range(count)
    ]
    snapshot = {"format": "mcp-lint-snapshot/1", "name": f"scale-{count}", "tools": tools}
    path.write_text(json.dumps(snapshot), encoding="utf-8")


def lint(snapshot: Path, report: Path, output_format: str) -> tuple[float, float, int, int]:
    """(seconds, CPU seconds, peak resident set in bytes, exit code) of one `mcp-lint check` process."""
    command = [sys.executable, "-m", "mcp_lint", "check", "--isolated", "--format", output_format]
    command += ["-o", str(report), str(snapshot)]
    environment = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        error = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
        raise SystemExit(f"mcp-lint exited {process.returncode}: {error.strip()}")
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    peak = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return elapsed, usage.ru_utime + usage.ru_stime, peak, process.returncode


def table(case: str, sizes: list[int], folder: Path, output_format: str) -> None:
    """Lint each size of `case` and print its row, then the ratios against the first size."""
    print(f"{case} tools")
    results: list[tuple[int, float, float, int]] = []
    for count in sizes:
        snapshot = folder / f"{case}-{count}.json"
        write_snapshot(snapshot, count, case)
        report = folder / f"report-{case}-{count}.{output_format}"
        seconds, cpu, peak, _ = lint(snapshot, report, output_format)
        results.append((count, seconds, cpu, peak))
        size = snapshot.stat().st_size / 2**20
        print(
            f"{count:>7} tools  {seconds:8.1f} s  (CPU {cpu:6.1f} s)  peak {peak / 2**20:8.0f} MiB  "
            f"(snapshot {size:.1f} MiB)"
        )
        sys.stdout.flush()
    first_count, first_seconds, first_cpu, first_peak = results[0]
    for count, seconds, cpu, peak in results[1:]:
        print(
            f"{count} / {first_count} tools ({count / first_count:g}x):  "
            f"time {seconds / first_seconds:.1f}x  CPU time {cpu / first_cpu:.1f}x  "
            f"peak memory {peak / first_peak:.1f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--case", choices=list(DESCRIPTIONS), nargs="+", default=list(DESCRIPTIONS))
    parser.add_argument("--sizes", type=int, nargs="+", help="sizes for every case [each case's own]")
    parser.add_argument("--format", choices=["json", "text"], default="json", dest="output_format")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcp-lint-scale-") as folder:
        for number, case in enumerate(args.case):
            if number:
                print()
            table(case, args.sizes or DEFAULT_SIZES[case], Path(folder), args.output_format)


if __name__ == "__main__":
    main()
