"""What `check --fix` does to real servers: rubric smells and description tokens before and after.

Run: python benchmarks/fix_rewrites.py [--no-traces] [--verbose]

Every snapshot in tests/precision/snapshots (175 real servers) and tests/fixtures/golden/smelly-snapshot.json
is linted with the default rules and the offline jury, then given the offline augmentor's rewrites
(the safe fixes `--fix` applies) exactly as `check --fix` plans them: faithfulness check, re-score by
the jury, description token budget. The notes server of tests/servers is started and driven with the
SDK's client, so its rewrites are grounded in real recorded calls as well (skip with --no-traces).

Printed: rubric smells (MCP701-MCP706 findings) before and after, description tokens and the whole
tools/list's tokens before and after, rewrites kept / not kept / rejected with reasons, and the
components each rewrite touched. The whole tools/list may grow by at most ALLOWED_GROWTH (a share of
its size): the research behind the rubric found bloated rewrites cost agents steps, and a rewrite adds
only what an agent cannot already see. It also plans `--fix` again on the fixed descriptions, which
must change nothing more. The script exits 1 when the growth is over the limit or the second run
would change something.

--verbose prints each rewrite, but never one of a server of the precision corpus's sealed part
(tests/precision/labelled_set.part_of): those are kept for blind review.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcp_lint.check.tokens import estimate_tokens  # noqa: E402
from mcp_lint.config import JurySettings, Settings  # noqa: E402
from mcp_lint.fix.plan import FixPlan, plan_fixes, with_descriptions  # noqa: E402
from mcp_lint.fix.propose import rubric_codes  # noqa: E402
from mcp_lint.model import RunResult, ServerSnapshot  # noqa: E402
from mcp_lint.pipeline import check_reflections  # noqa: E402
from mcp_lint.reflect import Reflection  # noqa: E402
from mcp_lint.reflect.snapshot import parse_snapshot  # noqa: E402
from mcp_lint.traces import TraceRecord  # noqa: E402

# The whole tools/list may grow by at most this share of its size (issue 21's bar on LiveMCPBench).
ALLOWED_GROWTH = 0.10
RUBRIC = frozenset(rubric_codes().values())
SNAPSHOTS = [
    *sorted((ROOT / "tests" / "precision" / "snapshots").glob("*.json")),
    ROOT / "tests" / "fixtures" / "golden" / "smelly-snapshot.json",
]
NOTES_SERVER = ROOT / "tests" / "servers" / "notes_server.py"
NOTES_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("get_note", {"note_id": "n1"}),
    ("get_note", {"note_id": "missing"}),
    ("search_notes", {"query": "milk", "limit": 5}),
    ("delete_note", {"note_id": "n2"}),
]


def load(path: Path) -> ServerSnapshot:
    return parse_snapshot(json.loads(path.read_text(encoding="utf-8")), path.stem, str(path))


def notes_server() -> tuple[ServerSnapshot, list[TraceRecord]]:
    """The notes fixture server reflected and driven with the SDK client: a snapshot and its traces."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from mcp_lint.reach.targets import StdioTarget
    from mcp_lint.reflect import reflect_all

    [reflection] = reflect_all([StdioTarget("notes", sys.executable, (str(NOTES_SERVER),))], 30)
    assert reflection.snapshot is not None, reflection.error
    records: list[TraceRecord] = []

    async def main() -> None:
        params = StdioServerParameters(command=sys.executable, args=[str(NOTES_SERVER)])
        async with Client(params) as client:
            for tool, arguments in NOTES_CALLS:
                result = await client.call_tool(tool, arguments)
                content = tuple(item.model_dump(by_alias=True, exclude_none=True) for item in result.content)
                records.append(
                    TraceRecord(tool, arguments, content, is_error=bool(result.is_error), server="notes")
                )

    anyio.run(main)
    return reflection.snapshot, records


def tools_list_tokens(snapshot: ServerSnapshot) -> int:
    return estimate_tokens(json.dumps({"tools": [dict(tool.raw) for tool in snapshot.tools]}, default=str))


def description_tokens(snapshot: ServerSnapshot) -> int:
    return sum(estimate_tokens(tool.description) for tool in snapshot.tools)


def rubric_smells(result: RunResult) -> int:
    return sum(1 for finding in result.findings if finding.code in RUBRIC)


def fixed_snapshot(snapshot: ServerSnapshot, plan: FixPlan) -> ServerSnapshot:
    new = {
        outcome.tool: outcome.rewrite.description
        for outcome in plan.applied
        if outcome.rewrite is not None and outcome.server == snapshot.name
    }
    return with_descriptions(snapshot, new)


def lint(snapshots: list[ServerSnapshot]) -> RunResult:
    return check_reflections([Reflection(item.name, item) for item in snapshots], Settings(), JurySettings())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--no-traces", action="store_true", help="skip the notes server and its recorded calls"
    )
    parser.add_argument("--verbose", action="store_true", help="print every rewrite and every reason")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    snapshots = [load(path) for path in SNAPSHOTS]
    traces: list[TraceRecord] = []
    if not args.no_traces:
        notes, traces = notes_server()
        snapshots.append(notes)
    before = lint(snapshots)
    with tempfile.TemporaryDirectory() as empty:
        # An empty folder: no source literal is found, so nothing is edited; the plan writes nothing.
        plan = plan_fixes(before, traces=traces, root=Path(empty))
    fixed = [fixed_snapshot(item, plan) for item in snapshots]
    after = lint(fixed)
    with tempfile.TemporaryDirectory() as empty:
        # --fix run again on what the first one wrote: idempotent when it changes nothing more.
        again = plan_fixes(after, traces=traces, root=Path(empty))

    tools = sum(len(item.tools) for item in snapshots)
    list_before = sum(tools_list_tokens(item) for item in snapshots)
    list_after = sum(tools_list_tokens(item) for item in fixed)
    desc_before = sum(description_tokens(item) for item in snapshots)
    desc_after = sum(description_tokens(item) for item in fixed)
    growth = (list_after - list_before) / list_before if list_before else 0.0
    rewrites = [outcome for outcome in plan.outcomes if outcome.rewrite is not None]
    kept = [outcome for outcome in rewrites if outcome.kept]
    rejected = [outcome for outcome in rewrites if outcome.rejected]
    not_kept = [outcome for outcome in rewrites if not outcome.kept and not outcome.rejected]
    no_rewrite = [outcome for outcome in plan.outcomes if outcome.rewrite is None]
    smells_before, smells_after = rubric_smells(before), rubric_smells(after)

    print(f"{len(snapshots)} servers, {tools} tools ({len(traces)} recorded calls)")
    print(
        f"rubric smells (MCP701-MCP706): {smells_before} -> {smells_after} "
        f"({smells_after - smells_before:+d})"
    )
    by_code_before = Counter(f.code for f in before.findings if f.code in RUBRIC)
    by_code_after = Counter(f.code for f in after.findings if f.code in RUBRIC)
    for component, code in rubric_codes().items():
        print(f"  {code} {component:<12} {by_code_before[code]:>4} -> {by_code_after[code]:>4}")
    print(f"description tokens: {desc_before} -> {desc_after} ({desc_after - desc_before:+d})")
    print(
        f"whole tools/list tokens: {list_before} -> {list_after} ({growth:+.1%}; "
        f"allowed growth {ALLOWED_GROWTH:.0%}: {'ok' if growth <= ALLOWED_GROWTH else 'OVER'})"
    )
    print(
        f"tools with smells: {len(plan.outcomes)}; rewrites: {len(rewrites)} "
        f"(kept {len(kept)}, not kept after re-scoring {len(not_kept)}, "
        f"rejected as unfaithful {len(rejected)}); "
        f"no rewrite: {len(no_rewrite)}"
    )
    changed_again = [outcome for outcome in again.applied if outcome.rewrite is not None]
    print(f"a second --fix on the fixed descriptions: {len(changed_again)} more rewrites (0 is idempotent)")
    for title, group in (("rejected", rejected), ("not kept", not_kept), ("no rewrite", no_rewrite)):
        reasons = Counter(_reason_kind(reason) for outcome in group for reason in outcome.reasons[:1])
        if reasons:
            print(f"  {title}: " + "; ".join(f"{count} {reason}" for reason, count in reasons.most_common()))
    touched = Counter(", ".join(outcome.rewrite.touched) for outcome in kept if outcome.rewrite)
    parts = [len(outcome.rewrite.touched) for outcome in kept if outcome.rewrite]
    if parts:
        print(f"components touched per kept rewrite: mean {sum(parts) / len(parts):.2f} of 5")
        for combination, count in touched.most_common():
            print(f"  {count:>4}  {combination}")
    if args.verbose:
        from tests.precision.labelled_set import parts

        sealed = {name for name, part in parts().items() if part == "sealed"}
        hidden = [outcome for outcome in rewrites if outcome.server in sealed]
        print(f"\n({len(hidden)} rewrites on sealed servers not printed)")
        for outcome in rewrites:
            if outcome.server in sealed:
                continue
            state = "kept" if outcome.kept else "rejected" if outcome.rejected else "not kept"
            assert outcome.rewrite is not None
            print(f"\n[{state}] {outcome.server}/{outcome.tool}: {'; '.join(outcome.reasons)}")
            print(f"  {outcome.rewrite.description}")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0 if growth <= ALLOWED_GROWTH and not changed_again else 1


def _reason_kind(reason: str) -> str:
    """A reason without the tool-specific details, to count alike reasons together."""
    for prefix in (
        "does not clear",
        "makes",
        "is about",
        "names a parameter",
        "shows an example",
        "drops the",
    ):
        if reason.startswith(prefix):
            return prefix + " ..."
    return reason.split(" (")[0]


if __name__ == "__main__":
    sys.exit(main())
