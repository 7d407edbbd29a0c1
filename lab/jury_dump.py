"""Every offline-jury output on a fixed set of tools, one JSON line per tool, for diffing before and
after a change meant to make the jury faster without changing what it says.

    python -m lab.jury_dump > before.jsonl                    # on the old code
    python -m lab.jury_dump --replay before.jsonl > after.jsonl  # on the new code
    cmp before.jsonl after.jsonl

The tools: the 408 calibration tools (with their servers' other tools as siblings, passed both as
the jury stage passes them, a view of one `ServerNames`, and as a plain list), every snapshot of
tests/precision/snapshots and of tests/fixtures/golden, and for each of those tools the candidate
descriptions the propose stage composes. `--replay` scores exactly the tools of an earlier dump
(so a change to which candidates the augmentor tries does not change what is compared).

Each line has the tool and its siblings, the prose feature vector, the prose+schema vector, the
explicit cues, the six scores and the reasons; floats are written with `repr`, so a change in the
last bit shows. Each tool is also scored the way the propose stage scores candidates
(`OfflineJury.text_scorer`), which must agree with `judge`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from lab.corpus import load_rows
from mcp_lint.jury.features import analyze, schema_as_prose
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.jury.siblings import ServerNames
from mcp_lint.model import Tool
from mcp_lint.reflect.snapshot import parse_snapshot

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = (
    *sorted((ROOT / "tests" / "precision" / "snapshots").glob("*.json")),
    ROOT / "tests" / "fixtures" / "golden" / "smelly-snapshot.json",
)


def _floats(values: Sequence[float]) -> list[str]:
    return [repr(v) for v in values]


# (source, tool, the names of all of its server's tools when siblings are a `ServerNames` view
# (None for a plain list), siblings)
Item = tuple[str, Tool, "list[str] | None", Sequence[str]]


def record(jury: OfflineJury, item: Item) -> dict[str, Any]:
    """Everything the offline jury derives from one tool, as JSON-ready values."""
    source, tool, server, siblings = item
    analysis = analyze(tool.name, tool.description, tool.input_schema, siblings)
    extra = schema_as_prose(tool.input_schema)
    verdict = jury.judge(tool, siblings)
    # the propose stage's path (the tool's context derived once) must say the same
    if jury.text_scorer(tool, siblings)(tool.description) != verdict.scores:
        raise AssertionError(f"{source}: {tool.name}: text_scorer disagrees with judge")
    return {
        "source": source,
        "raw": tool.raw,
        "server": server,
        "siblings": list(siblings),
        "prose": _floats(analysis.values()),
        "with_schema": _floats(analysis.with_extra(extra).values()),
        "cues": sorted(analysis.cues),
        "scores": {name: repr(value) for name, value in verdict.scores.items()},
        "reasons": verdict.reasons,
    }


def calibration_tools() -> Iterator[Item]:
    rows = load_rows()
    names: dict[str, list[str]] = {}
    for row in rows:
        names.setdefault(str(row["server"]), []).append(str(row["tool"]))
    servers = {server: ServerNames(tools) for server, tools in names.items()}
    for row in rows:
        raw: dict[str, Any] = {"name": row["tool"], "description": row["description"]}
        if row["input_schema"] is not None:
            raw["inputSchema"] = row["input_schema"]
        tool = Tool(name=str(row["tool"]), raw=raw)
        server = str(row["server"])
        yield f"calibration:{server}", tool, names[server], servers[server].without(tool.name)
        yield f"calibration-list:{server}", tool, None, [n for n in names[server] if n != tool.name]


def snapshot_tools() -> Iterator[Item]:
    for path in SNAPSHOTS:
        snapshot = parse_snapshot(json.loads(path.read_text(encoding="utf-8")), path.stem, str(path))
        tools = [tool for tool in snapshot.tools if tool.named]
        all_names = [tool.name for tool in tools]
        server = ServerNames(all_names)
        for tool in tools:
            yield f"snapshot:{path.stem}", tool, all_names, server.without(tool.name)


Scorer = Callable[[str], dict[str, float]]


def _recording(score: Scorer, asked: list[str]) -> Scorer:
    """`score`, noting in `asked` each text it is asked about (once)."""

    def recorded(text: str) -> dict[str, float]:
        if text not in asked:
            asked.append(text)
        return score(text)

    return recorded


def candidate_tools() -> Iterator[Item]:
    """The descriptions the offline augmentor composes for each snapshot tool (every candidate
    `compose` asks the jury about), scored as the propose stage scores them."""
    from mcp_lint.fix.compose import compose
    from mcp_lint.fix.grounding import ground
    from mcp_lint.fix.propose import thresholds
    from mcp_lint.model import COMPONENTS

    limits = thresholds()
    jury = OfflineJury()
    for path in SNAPSHOTS:
        snapshot = parse_snapshot(json.loads(path.read_text(encoding="utf-8")), path.stem, str(path))
        tools = [tool for tool in snapshot.tools if tool.named]
        all_names = [tool.name for tool in tools]
        server = ServerNames(all_names)
        for tool in tools:
            names = server.without(tool.name)
            scores = jury.scores(tool, names)[0]
            targets = tuple(c for c in COMPONENTS if scores.get(c, 5.0) < limits.get(c, 3.0))
            if not targets:
                continue
            asked: list[str] = []
            score = _recording(jury.text_scorer(tool, names), asked)
            compose(ground(tool, tools, ()), targets, limits, score, None)
            for text in asked:
                raw = dict(tool.raw)
                raw["description"] = text
                yield f"candidate:{path.stem}", Tool(tool.name, raw), all_names, names


def replayed(path: Path) -> Iterator[Item]:
    """The tools of an earlier dump, with their siblings given the same way."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            raw = row["raw"]
            tool = Tool(name=str(raw["name"]), raw=raw)
            server = row["server"]
            siblings = ServerNames(server).without(tool.name) if server is not None else row["siblings"]
            yield row["source"], tool, server, siblings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--replay", type=Path, help="score the tools of this earlier dump")
    options = parser.parse_args(argv)
    jury = OfflineJury()
    items = (
        replayed(options.replay)
        if options.replay
        else itertools.chain(calibration_tools(), snapshot_tools(), candidate_tools())
    )
    for item in items:
        sys.stdout.write(json.dumps(record(jury, item), ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
