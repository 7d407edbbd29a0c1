"""Dump the proposals and checklists `check` makes on the tuning part of the precision corpus, for a
review by hand (issue 21): every proposed description and, separately, every checklist.

Run: python -m lab.propose_review OUT.jsonl [--half tune|hold|all]

The tuning servers (tests/precision/labelled_set.part_of == "tuning") are split in two halves by a
seeded shuffle of their names: `tune` is the half looked at while writing the proposals, `hold` the
half kept for the final self-check. Sealed servers are never read.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "precision"))

from labelled_set import parts  # noqa: E402

from mcp_lint.config import JurySettings, Settings  # noqa: E402
from mcp_lint.pipeline import check_reflections  # noqa: E402
from mcp_lint.reflect import Reflection  # noqa: E402
from mcp_lint.reflect.snapshot import parse_snapshot  # noqa: E402

SNAPSHOTS = ROOT / "tests" / "precision" / "snapshots"
SEED = 29


def halves() -> dict[str, list[str]]:
    """The tuning servers split by a seeded shuffle: `tune` and `hold`."""
    tuning = sorted(name for name, part in parts().items() if part == "tuning")
    random.Random(SEED).shuffle(tuning)
    middle = len(tuning) // 2
    return {"tune": sorted(tuning[:middle]), "hold": sorted(tuning[middle:])}


def main() -> None:
    out = Path(sys.argv[1])
    half = sys.argv[2] if len(sys.argv) > 2 else "tune"
    split = halves()
    names = split["tune"] + split["hold"] if half == "all" else split[half]
    rows = []
    for name in names:
        path = SNAPSHOTS / f"{name}.json"
        snapshot = parse_snapshot(json.loads(path.read_text(encoding="utf-8")), name, str(path))
        result = check_reflections([Reflection(name, snapshot)], Settings(), JurySettings())
        for report in result.servers:
            tools = {tool.name: tool for tool in report.snapshot.tools} if report.snapshot else {}
            for tool_name, proposal in sorted(report.proposals.items()):
                tool = tools[tool_name]
                rows.append(
                    {
                        "server": name,
                        "tool": tool_name,
                        "original": proposal.original,
                        "proposed": proposal.description,
                        "repairs": list(proposal.repairs),
                        "checklist": list(proposal.checklist),
                        "refused": proposal.refused,
                        "targets": list(proposal.targets),
                        "params": {
                            key: (value.get("description") if isinstance(value, dict) else None)
                            for key, value in tool.properties.items()
                        },
                        "required": list(tool.input_schema.get("required") or []),
                        "annotations": tool.annotations,
                        "findings": [f"{f.code} {f.message}" for f in report.findings if f.tool == tool_name],
                    }
                )
    out.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    described = sum(row["proposed"] is not None for row in rows)
    print(f"{len(names)} servers, {len(rows)} tools with a proposal record, {described} with a description")


if __name__ == "__main__":
    main()
