"""How fast the embedded offline jury scores tools.

    python benchmarks/offline_jury_speed.py

Times `OfflineJury.judge(tool, siblings)` over the 408 calibration tools (with their schemas, and
their server's tool names as siblings), 5 repetitions. Each repetition builds fresh `Tool` objects
and fresh description strings, and the jury keeps no per-text cache, so no repetition reuses work
of an earlier one. Two trivial passes over the same tools are timed in the same repetitions as
baselines (`len(description)` and `re.findall(r"\\w+", description.lower())`): the ratios stay
comparable across machines and load, which the raw tools/s figure does not.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lab.corpus import load_rows
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool

REPS = 5
WORD = re.compile(r"\w+")


def _tools(rows: list[dict[str, Any]]) -> list[tuple[Tool, list[str]]]:
    """Fresh Tool objects and description strings (same text) for one repetition."""
    siblings: dict[str, list[str]] = {}
    for row in rows:
        siblings.setdefault(row["server"], []).append(row["tool"])
    out = []
    for row in rows:
        desc = (row["description"] + ".")[:-1]  # a new string object with the same text
        raw: dict[str, Any] = {"name": row["tool"], "description": desc}
        if row["input_schema"] is not None:
            raw["inputSchema"] = row["input_schema"]
        out.append((Tool(name=row["tool"], raw=raw), siblings[row["server"]]))
    return out


def _time(fn: Callable[[Tool, list[str]], object], tools: list[tuple[Tool, list[str]]]) -> float:
    start = time.perf_counter()
    for tool, sibs in tools:
        fn(tool, sibs)
    return time.perf_counter() - start


def main() -> int:
    rows = load_rows()
    jury = OfflineJury()
    jury.judge(Tool(name="warm", raw={"name": "warm", "description": "Load the weights."}), [])
    passes: dict[str, Callable[[Tool, list[str]], object]] = {
        "len": lambda t, s: len(t.description),
        "words": lambda t, s: WORD.findall(t.description.lower()),
        "jury": jury.judge,
    }
    seconds = dict.fromkeys(passes, 0.0)
    n = 0
    for _ in range(REPS):  # interleaved, so load changes hit all three passes alike
        for key, fn in passes.items():
            seconds[key] += _time(fn, _tools(rows))
        n += len(rows)
    rate = {key: n / s for key, s in seconds.items()}
    ours = rate["jury"]
    length, words = rate["len"], rate["words"]
    print(f"OfflineJury.judge: {ours:,.0f} tools/s ({len(rows)} calibration tools x {REPS} repetitions)")
    print(f"baseline len(description):          {length:,.0f} tools/s; ours/baseline {ours / length:.5f}")
    print(f"baseline re.findall(\\w+, lower()):  {words:,.0f} tools/s; ours/baseline {ours / words:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
