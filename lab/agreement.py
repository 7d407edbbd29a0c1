"""How well the offline jury agrees with the real LLM jury, and how fast it is.

    python -m lab.agreement [--repeats N] [--holdout]    (or benchmarks/offline_jury_agreement.py)

Per component: grouped-by-server cross-validated QWK against the jury median (each fold's model is
fitted without the held-out servers), smell agreement (score < 3 vs >= 3), the three real judges'
QWK against the other two, and the ratios ours/best-judge and ours/weakest-judge. The "runtime"
columns score `parameters` as the shipped jury does (prose + schema docs); the judges never saw the
schema, so lower agreement there is by design. Then the same CV repeated over N assignments of
servers to folds (default 5, the canonical one first): one assignment moves the figures by a few
hundredths, so the mean and range over assignments are the honest estimate. With --holdout, the
check a modelling change must pass before it ships: repeated CV on the development servers (about two
in three, fixed by a hash of the name), then a model fitted on them scored on the other servers, alone
and followed by the rubric's anchors (`mcp_lint/jury/anchors.py`), as the offline jury runs.
Last: OfflineJury.judge
throughput over the 408 calibration tools, against a trivial len(description) pass in the same process.
"""

from __future__ import annotations

import argparse
import time

from lab.calibration import (
    N_FOLDS,
    agreement_table,
    anchored_holdout,
    anchored_holdout_table,
    cross_validate,
    development_and_holdout,
    holdout_servers,
    holdout_table,
    repeated_cross_validate,
    repeated_table,
    schema_aware_predictor,
)
from lab.corpus import load_rows
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool


def _tools() -> list[Tool]:
    out = []
    for row in load_rows():
        raw = {"name": row["tool"], "description": row["description"]}
        if row["input_schema"] is not None:
            raw["inputSchema"] = row["input_schema"]
        out.append(Tool(name=row["tool"], raw=raw))
    return out


def _rate(fn: object, tools: list[Tool], min_seconds: float = 1.0) -> float:
    """Tools per second of `fn(tool)`, repeating passes until `min_seconds` have elapsed."""
    assert callable(fn)
    done = 0
    start = time.perf_counter()
    while True:
        for tool in tools:
            fn(tool)
        done += len(tools)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=5, help="fold assignments to average (1: canonical only)"
    )
    parser.add_argument(
        "--holdout", action="store_true", help="also print the development-subset and holdout figures"
    )
    args = parser.parse_args()
    rows = load_rows()
    print(
        f"offline jury vs LLM jury median: {len(rows)} tools, {len({r['server'] for r in rows})} servers, "
        f"grouped-by-server {N_FOLDS}-fold CV"
    )
    prose = cross_validate(rows)
    runtime = cross_validate(rows, predictor=schema_aware_predictor)
    print(agreement_table(prose, runtime))
    if args.repeats > 1:
        print(f"\nrepeated grouped CV over {args.repeats} fold assignments (prose features, as judged):")
        print(repeated_table(repeated_cross_validate(rows, args.repeats)))
    if args.holdout:
        held = holdout_servers([r["server"] for r in rows])
        n_held = sum(r["server"] in held for r in rows)
        print(
            f"\ndevelopment subset ({len(rows) - n_held} tools) and holdout ({n_held} tools, {len(held)} "
            "servers): the check a modelling change must pass on both"
        )
        print(holdout_table(development_and_holdout(rows, max(args.repeats, 1))))
        print(
            "\nthe same holdout, model alone and after the rubric's anchors (what the offline jury "
            "returns; parameters on the tools that take some, n/a elsewhere):"
        )
        print(anchored_holdout_table(anchored_holdout(rows)))
    tools = _tools()
    jury = OfflineJury()
    jury.judge(tools[0], [])  # load weights outside the timing
    baseline = _rate(lambda t: len(t.description), tools)
    ours = _rate(lambda t: jury.judge(t, []), tools)
    print(
        f"speed: OfflineJury.judge {ours:,.0f} tools/s over the {len(tools)} calibration tools; "
        f"baseline len(description) {baseline:,.0f} tools/s; ratio ours/baseline {ours / baseline:.5f} "
        f"({baseline / ours:,.0f}x slower than the trivial pass)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
