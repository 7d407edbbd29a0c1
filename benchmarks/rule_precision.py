"""How often is each rule right? Per-rule precision on the hand-labelled precision set.

Run: python benchmarks/rule_precision.py [--no-rubric] [--stubs] [--write-floors]

Lints every snapshot in tests/precision/snapshots (real servers from PyPI and npm, pinned in
tests/precision/servers.yaml) with the default rules and the offline jury, keeps the findings at
moderate or above, pairs each with its hand label in tests/precision/labels.yaml, and prints per rule:
findings, right / wrong / debatable / unlabelled, and precision = right / (right + wrong).

* `--stubs` prints a labels.yaml entry for every unlabelled finding (verdict TODO), to fill in by hand.
* `--write-floors` records today's precision of each deterministic rule in tests/precision/floors.yaml,
  the bar tests/precision/test_precision.py holds every rule to. Raise it after a fix; lower it only
  with a reason in the commit message.

Labels whose finding is no longer reported are listed too: a "right" one gone is a defect the rule
stopped finding (recall lost), a "wrong" one gone is a false alarm fixed.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "precision"))

import labelled_set as ls  # the shared module lives beside the test that uses it

from mcp_lint.model import Severity


def _percent(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.1%}"


def _table(tallies: tuple[ls.RuleTally, ...], floors: dict[str, float]) -> list[str]:
    lines = [
        f"{'code':<7} {'rule':<28} {'kind':<13} {'found':>5} {'right':>5} {'wrong':>5} {'debat':>5} "
        f"{'unlab':>5} {'precision':>9} {'floor':>6}"
    ]
    for row in tallies:
        floor = floors.get(row.code)
        lines.append(
            f"{row.code:<7} {row.rule:<28} {row.kind:<13} {row.findings:>5} {row.right:>5} {row.wrong:>5} "
            f"{row.debatable:>5} {row.unlabelled:>5} {_percent(row.precision):>9} "
            f"{'' if floor is None else f'{floor:.3f}':>6}"
        )
    for kind in ("deterministic", "rubric"):
        rows = [row for row in tallies if row.kind == kind]
        right, wrong = sum(row.right for row in rows), sum(row.wrong for row in rows)
        lines.append(
            f"{'all':<7} {kind:<28} {'':<13} {sum(row.findings for row in rows):>5} {right:>5} {wrong:>5} "
            f"{sum(row.debatable for row in rows):>5} {sum(row.unlabelled for row in rows):>5} "
            f"{_percent(right / (right + wrong) if right + wrong else None):>9}"
        )
    return lines


def _recall_table(rows: tuple[ls.RecallRow, ...]) -> list[str]:
    lines = [f"{'rule':<36} {'defects':>7} {'found':>5} {'recall':>7} {'at moderate+':>12}"]
    for row in rows:
        lines.append(
            f"{row.rule:<36} {row.defects:>7} {row.found:>5} {_percent(row.found / row.defects):>7} "
            f"{row.found_moderate:>5} {_percent(row.found_moderate / row.defects):>6}"
        )
    defects, found = sum(row.defects for row in rows), sum(row.found for row in rows)
    moderate = sum(row.found_moderate for row in rows)
    if defects:
        lines.append(
            f"{'all':<36} {defects:>7} {found:>5} {_percent(found / defects):>7} "
            f"{moderate:>5} {_percent(moderate / defects):>6}"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--no-rubric", action="store_true", help="deterministic rules only (no jury)")
    parser.add_argument(
        "--stubs", action="store_true", help="print labels.yaml stubs for unlabelled findings"
    )
    parser.add_argument("--write-floors", action="store_true", help="record today's precision as the floor")
    parser.add_argument(
        "--part",
        choices=("all", *ls.PARTS),
        default="all",
        help="only the servers of this part of the fixed split (default: tables for both parts)",
    )
    parser.add_argument(
        "--servers", help="comma-separated server names: only these (for labelling in batches)"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    part_of = ls.parts()
    wanted = set(args.servers.split(",")) if args.servers else None
    snapshots = [
        snapshot
        for snapshot in ls.load_snapshots()
        if (args.part == "all" or part_of.get(snapshot.name) == args.part)
        and (wanted is None or snapshot.name in wanted)
    ]
    every = ls.lint(snapshots, rubric=not args.no_rubric, lowest=Severity.parse("info"))
    findings = [finding for finding in every if finding.severity >= ls.LOWEST]
    kinds = ls.rule_kinds()
    names = {snapshot.name for snapshot in snapshots}
    labels = [label for label in ls.load_labels() if label.key.server in names]
    comparison = ls.compare(findings, labels, kinds)
    if args.no_rubric:
        stale = tuple(label for label in comparison.stale if label.kind != "rubric")
    else:
        stale = comparison.stale
    elapsed = time.perf_counter() - started

    tools = sum(len(snapshot.tools) for snapshot in snapshots)
    print(f"precision set: {len(snapshots)} servers, {tools} tools, {len(findings)} findings at moderate+")
    print(f"({elapsed:.1f}s; labels: {ls.LABELS.relative_to(ls.HERE.parent.parent)})")
    print()
    floors = ls.load_floors()
    shown = [args.part] if args.part != "all" else ["all", *ls.PARTS]
    for part in shown:
        members = {name for name in names if part == "all" or part_of.get(name) == part}
        if not members:
            continue
        in_part = [match for match in comparison.matches if match.key.server in members]
        servers = [snapshot for snapshot in snapshots if snapshot.name in members]
        print(
            f"== {part}: {len(servers)} servers, {sum(len(s.tools) for s in servers)} tools"
            + ("  (the figure to claim)" if part == "sealed" else "")
        )
        for line in _table(ls.tally(in_part, kinds), floors):
            print(line)
        defects = [defect for defect in ls.load_defects() if defect.server in members]
        if defects:
            print(f"-- recall on {len(defects)} defects found by reading ({part})")
            for line in _recall_table(ls.recall(every, defects)):
                print(line)
        print()

    if comparison.loose:
        print(f"\n{len(comparison.loose)} finding(s) matched a label by server/tool/code only:")
        for match in comparison.loose:
            assert match.label is not None
            print(
                f"  {match.key.server}/{match.key.tool} {match.key.code}: label {match.label.key.subject!r} "
                f"-> now {match.key.subject!r}"
            )
    if stale:
        print(f"\n{len(stale)} label(s) whose finding is no longer reported:")
        for label in stale:
            effect = {"right": "recall lost", "wrong": "false alarm fixed"}.get(
                label.verdict, "debatable gone"
            )
            print(
                f"  {label.key.server}/{label.key.tool} {label.key.code} {label.key.subject!r}: "
                f"{label.verdict} ({effect})"
            )
    unlabelled = comparison.unlabelled
    if unlabelled:
        print(f"\n{len(unlabelled)} unlabelled finding(s); `--stubs` prints entries to fill in.")
        if args.stubs:
            by_kind: dict[str, list[dict[str, str]]] = {}
            for match in unlabelled:
                by_kind.setdefault(kinds.get(match.finding.code, "deterministic"), []).append(
                    ls.label_stub(match)
                )
            print(yaml.safe_dump(by_kind, sort_keys=False, allow_unicode=True, width=120))

    if args.write_floors:
        recorded = {
            # Rounded down, so that the precision it was written from passes.
            row.code: math.floor(row.precision * 1000) / 1000
            for row in comparison.tallies
            if row.kind == "deterministic" and row.precision is not None
        }
        header = (
            "# Per-rule precision (right / (right + wrong)) on the labelled set, deterministic rules at\n"
            "# moderate+. tests/precision/test_precision.py fails when a rule drops below its number.\n"
            "# Written by `python benchmarks/rule_precision.py --write-floors`.\n"
        )
        ls.FLOORS.write_text(
            header + yaml.safe_dump({"precision": recorded}, sort_keys=True), encoding="utf-8"
        )
        print(f"\nwrote {ls.FLOORS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
