"""Two readers, and the offline jury, on the same 80 tools: is people's yardstick reproducible?

    python -m lab.second_rater

Per rubric component: the mean absolute difference (MAD), the bias (mean of the first minus the
second) and how often both call the tool smelly or not (score below 3), for the second rater
(lab/data/second-rater.yaml) against the first (tests/precision/human_scores.yaml), and for the
offline jury against each. A parameters score of n/a on either side leaves the tool out of that row.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "precision"))

import labelled_set as ls  # noqa: E402

from mcp_lint.jury.offline import OfflineJury  # noqa: E402
from mcp_lint.model import COMPONENTS, Tool  # noqa: E402

SECOND = ROOT / "lab" / "data" / "second-rater.yaml"
Key = tuple[str, str]
Scores = Mapping[str, Any]


def jury_scores(keys: Sequence[Key]) -> dict[Key, Scores]:
    jury = OfflineJury()
    listed: dict[str, list[dict[str, Any]]] = {}
    found: dict[Key, Scores] = {}
    for server, name in keys:
        if server not in listed:
            document = json.loads((ls.SNAPSHOTS / f"{server}.json").read_text(encoding="utf-8"))
            listed[server] = document["tools"]
        tools = listed[server]
        raw = next(tool for tool in tools if tool["name"] == name)
        siblings = [tool["name"] for tool in tools if tool["name"] != name]
        scores, _, _ = jury.scores(Tool(name, raw), siblings)
        found[(server, name)] = {component: int(value) for component, value in scores.items()}
    return found


def table(
    title: str, keys: Sequence[Key], first: Callable[[Key], Scores], second: Callable[[Key], Scores]
) -> None:
    print(f"== {title}")
    print(f"{'component':12s} {'n':>3s}  {'MAD':>4s}  {'bias':>5s}  smell agree")
    for component in COMPONENTS:
        pairs = [(first(key).get(component, "n/a"), second(key).get(component, "n/a")) for key in keys]
        kept = [(a, b) for a, b in pairs if isinstance(a, int) and isinstance(b, int)]
        gaps = [a - b for a, b in kept]
        agree = sum((a < 3) == (b < 3) for a, b in kept) / len(kept)
        mad = statistics.fmean(abs(gap) for gap in gaps)
        print(f"{component:12s} {len(kept):3d}  {mad:4.2f}  {statistics.fmean(gaps):+5.2f}  {agree:6.0%}")


def main() -> int:
    second = {
        (entry["server"], entry["tool"]): entry
        for entry in yaml.safe_load(SECOND.read_text(encoding="utf-8"))
    }
    first = {(score.server, score.tool): score.scores for score in ls.load_human_scores()}
    keys = list(second)
    part = ls.parts()
    jury = jury_scores(keys)
    for name in ls.PARTS:
        chosen = [key for key in keys if part[key[0]] == name]
        table(
            f"second rater - first rater, {name} ({len(chosen)} tools)",
            chosen,
            second.__getitem__,
            first.__getitem__,
        )
    table("offline jury - first rater", keys, jury.__getitem__, first.__getitem__)
    table("offline jury - second rater", keys, jury.__getitem__, second.__getitem__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
