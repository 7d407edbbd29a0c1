"""The offline jury's unit filter alone, over the 408 calibration tools: what `analyze` and
`Analysis.with_extra` do with units (split, de-repeat, group, `_UnitState.add` with the specificity
test, then the schema's rendered docs appended), nothing else of a verdict.

    python lab/units_speed.py --passes N      # N passes, nothing printed (for callgrind)
    python lab/units_speed.py --best N        # best CPU time of N passes

Each pass builds fresh tools and their `ToolContext`s *before* the counted work (under callgrind,
`--passes 3` minus `--passes 1` still includes them, so the script builds them three times
whatever N is, and runs the filter N times), and the memos are emptied before each pass, as in
`benchmarks/offline_jury_speed.py`. One pass's instructions: (3 passes - 1 pass) / 2.

`STAGE` (environment) stops each tool early, for the parts: A = split, de-repeat and group only;
B = A and every unit's `UnitWords`; D = everything but the specificity test; C (default) = all.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from offline_jury_speed import _tools

from lab.corpus import load_rows
from mcp_lint.jury.features.segment import clear_memo
from mcp_lint.jury.features.specificity import _groups
from mcp_lint.jury.features.unitmemo import unit_words
from mcp_lint.jury.features.units import _UnitState, split_units, strip_repetition
from mcp_lint.jury.features.vector import ToolContext
from mcp_lint.model import Tool

STAGE = os.environ.get("STAGE", "C")


def _contexts(rows: list[dict[str, object]]) -> list[tuple[Tool, ToolContext]]:
    return [(tool, ToolContext.of(tool.name, tool.input_schema, sibs)) for tool, sibs in _tools(rows)]


def _filter(tools: list[tuple[Tool, ToolContext]]) -> None:
    for tool, context in tools:
        state = _UnitState(set(), set(), set(), name_words=context.unit_name_words, anchors=context.anchors)
        text = tool.description if isinstance(tool.description, str) else ""
        units = split_units(strip_repetition(text))
        groups = _groups(units) if units else None
        if STAGE == "A":
            if context.schema_prose:
                split_units(context.schema_prose)
            continue
        if STAGE == "B":
            for unit in units:
                unit_words(unit)
            if context.schema_prose:
                for unit in split_units(context.schema_prose):
                    unit_words(unit)
            continue
        if STAGE == "D":
            state.anchors = None
        state.add(units, groups=groups)
        if context.schema_prose:
            state.add(split_units(context.schema_prose), appended=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--passes", type=int, help="run the filter this many times (at most 3), print nothing")
    group.add_argument("--best", type=int, help="print the best CPU time of this many passes")
    options = parser.parse_args(argv)
    rows = load_rows()
    if options.passes is not None:
        for i in range(3):  # the same set-up whatever the number of passes
            clear_memo()
            tools = _contexts(rows)
            if i < options.passes:
                _filter(tools)
        return 0
    best = float("inf")
    for _ in range(options.best):
        clear_memo()
        tools = _contexts(rows)
        start = time.process_time()
        _filter(tools)
        best = min(best, time.process_time() - start)
    print(f"unit filter, stage {STAGE}: best pass {best * 1000:.1f} ms of CPU ({len(rows)} tools)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
