"""How much of the schema docs' `_segment` work repeats within one offline-jury pass, and what a memo
of it could save at most (issue 20, session 34, lab/speed_s34_docs5.md).

    PYTHONPATH=. python -m lab.docs_repeat
    PYTHONPATH=. python -m lab.docs_repeat --once N   # only row N (0-4) run once, or none (-1):
                                                     # for callgrind, row N minus none

Runs one jury pass over the 408 calibration tools (as benchmarks/offline_jury_speed.py does, memos
emptied first) and records the `segment` calls `Analysis.with_extra` makes (the units of the
appended docs that the unit filter kept, with the tool's property names). The recording wraps
`vector.segment` and `Analysis.with_extra` and passes every call through unchanged. Then it times
`_segment` (best of 9, CPU time) over the recorded calls read several ways: whole (what a pass
does), one unit a call, one call per distinct (unit, property names), one call per distinct unit
without property names (a lower bound for any per-line memo of the name-free part), and the whole
runs without property names (what the name-dependent part adds).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.offline_jury_speed import _tools
from lab.corpus import load_rows
from mcp_lint.jury.features import segment as seg_mod
from mcp_lint.jury.features import vector
from mcp_lint.jury.features.schema import _PropNames
from mcp_lint.jury.features.segment import segment as real_segment
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool


def _record() -> tuple[int, int, int, list[tuple[tuple[str, ...], _PropNames]]]:
    """(with_extra calls, distinct docs texts, calls the segment memo already answered, the docs'
    segment calls)."""
    jury = OfflineJury()
    jury.judge(Tool(name="warm", raw={"name": "warm", "description": "Load the weights."}), [])
    calls: list[tuple[tuple[str, ...], _PropNames]] = []
    extras: list[str] = []
    memo_hits = [0]
    inside = [False]
    real_with_extra = vector.Analysis.with_extra

    def segment(kept: Sequence[str], props: _PropNames) -> Any:
        if inside[0]:
            key = (tuple(kept), props)
            memo_hits[0] += key in seg_mod._MEMO
            calls.append(key)
        return real_segment(kept, props)

    def with_extra(self: vector.Analysis, extra: str, *, consume: bool = False) -> vector.Analysis:
        extras.append(extra)
        inside[0] = True
        try:
            return real_with_extra(self, extra, consume=consume)
        finally:
            inside[0] = False

    vector.segment = segment  # type: ignore[attr-defined]
    vector.Analysis.with_extra = with_extra  # type: ignore[method-assign]
    try:
        seg_mod.clear_memo()
        for tool, siblings in _tools(load_rows()):
            jury.judge(tool, siblings)
    finally:
        vector.segment = real_segment  # type: ignore[attr-defined]
        vector.Analysis.with_extra = real_with_extra  # type: ignore[method-assign]
    return len(extras), len(set(extras)), memo_hits[0], calls


def _best_ms(fn: Callable[[], object], repeat: int = 9) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()  # (each run starts from the same heap; a collection inside it still counts)
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best * 1e3


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--once", type=int, help="run only this row once (-1: none), print nothing")
    options = parser.parse_args(argv)
    n_extra, n_distinct, memo_hits, calls = _record()
    units = [u for kept, _ in calls for u in kept]
    pairs = sorted({(u, props) for kept, props in calls for u in kept}, key=lambda p: p[0])
    distinct = sorted(set(units))
    none = _PropNames.of(())
    run = seg_mod._segment
    rows = (
        ("whole runs (a pass)", lambda: [run(k, p) for k, p in calls]),
        ("one unit a call", lambda: [run((u,), p) for k, p in calls for u in k]),
        ("one call per distinct (unit, names)", lambda: [run((u,), p) for u, p in pairs]),
        ("one call per distinct unit, no names", lambda: [run((u,), none) for u in distinct]),
        ("whole runs, no names", lambda: [run(k, none) for k, _ in calls]),
    )
    if options.once is not None:
        if options.once >= 0:
            rows[options.once][1]()
        return 0
    print(f"with_extra calls {n_extra}, distinct docs texts {n_distinct}, docs segment calls {len(calls)}")
    print(f"  of which the segment memo already answered {memo_hits}")
    print(f"docs units {len(units)}, distinct {len(distinct)} ('Args:' {units.count('Args:')} times),")
    print(f"  distinct (unit, property names) {len(pairs)}")
    for label, fn in rows:
        print(f"  _segment, {label}: {_best_ms(fn):.1f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
