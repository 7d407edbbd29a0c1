"""Where do some rules fire on real tools nobody labelled? Every finding, to read and judge by hand.

Run: python benchmarks/rule_firings.py [--codes MCP301 MCP403] [--livemcpbench PATH]

Lints, with the chosen rules only (hidden-instructions and ambiguous-tools by default):

* the calibration tools (`lab/data/jury-calibration.jsonl`, one server per `server`);
* LiveMCPBench's catalogue when `--livemcpbench` names its `tools.json` (70 real servers, not in
  this repository);
* the precision set's snapshots (`tests/precision/snapshots`).

and prints every finding with its evidence, then the count per source and rule. Almost all of these
tools are ordinary, so each finding is a candidate false alarm: read it. A calibration tool that
LiveMCPBench also lists is linted twice when both are given.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp_lint.check.functions import FUNCTIONS, CheckContext
from mcp_lint.check.rules import load_catalogue
from mcp_lint.model import ServerSnapshot, Tool

ROOT = Path(__file__).resolve().parent.parent
CALIBRATION = ROOT / "lab" / "data" / "jury-calibration.jsonl"
SNAPSHOTS = ROOT / "tests" / "precision" / "snapshots"


def _server(name: str, tools: list[dict[str, Any]]) -> ServerSnapshot:
    return ServerSnapshot(name, tuple(Tool(str(raw.get("name", "")), raw) for raw in tools))


def servers(livemcpbench: Path | None) -> Iterator[tuple[str, ServerSnapshot]]:
    """(source, server) for every server of every source."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    with CALIBRATION.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            schema = record["input_schema"] or {"type": "object"}
            grouped.setdefault(record["server"], []).append(
                {"name": record["tool"], "description": record["description"], "inputSchema": schema}
            )
    for name, tools in grouped.items():
        yield "calibration", _server(name, tools)
    if livemcpbench is not None:
        for entry in json.loads(livemcpbench.read_text(encoding="utf-8")):
            for name, listing in (entry.get("tools") or {}).items():
                yield "livemcpbench", _server(name, listing.get("tools") or [])
    for path in sorted(SNAPSHOTS.glob("*.json")):
        yield "precision set", _server(path.stem, json.loads(path.read_text(encoding="utf-8"))["tools"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", nargs="+", default=["MCP301", "MCP403"], help="rule codes to run")
    parser.add_argument("--livemcpbench", type=Path, help="LiveMCPBench's tools.json")
    args = parser.parse_args()
    catalogue = load_catalogue()
    rules = [rule for rule in catalogue.rules if rule.code in args.codes]
    counts: Counter[tuple[str, str]] = Counter()
    tools: Counter[str] = Counter()
    for source, server in servers(args.livemcpbench):
        tools[source] += len(server.tools)
        for rule in rules:
            for hit in FUNCTIONS[rule.function](CheckContext(server, dict(rule.options))):
                counts[(source, rule.code)] += 1
                message = rule.message.format(tool=hit.tool, server=server.name, **hit.fields)
                print(f"{rule.code}  {source}: {server.name} / {hit.tool}: {message}\n    {hit.evidence}")
    print()
    for source, count in tools.items():
        found = ", ".join(f"{rule.code} {counts[(source, rule.code)]}" for rule in rules)
        print(f"{source}: {count} tools; findings: {found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
