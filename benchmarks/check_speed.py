"""How fast do the deterministic checks run? 10,000 synthetic tools, every non-rubric rule.

Run: .venv/bin/python benchmarks/check_speed.py [--tools N]

The tools are generated deterministically (fixed seed) to look like real servers: a verb_noun name,
a ~60-word description, 3-5 parameters with descriptions, some formats, enums and annotations.
The baseline is a loop that only reads each tool's description and schema, so the ratio says how
much the rules cost over touching the data at all.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from mcp_lint.check.functions import FUNCTIONS, CheckContext
from mcp_lint.check.functions._util import words
from mcp_lint.check.rules import load_catalogue
from mcp_lint.model import ServerSnapshot, Tool

VERBS = words("get list search create update delete fetch read send archive export sync find count")
NOUNS = words(
    "issue user repository file invoice order customer ticket message channel event page record "
    "report comment branch commit project task document folder contact meeting payment product "
    "subscription alert dashboard metric deployment secret webhook team label release"
)
WORDS = words(
    "returns the matching items sorted by date with pagination and includes metadata such as owner "
    "status created time size permissions tags use this when you need current details about a single "
    "item or a filtered list results are limited to one hundred entries per call older entries "
    "require the cursor from a previous response the tool never modifies data outside the selected "
    "workspace errors are reported with a code and a short explanation rate limits apply per account "
    "region archived deleted hidden shared private public draft final pending approved rejected"
)
PARAMS: list[tuple[str, dict[str, Any]]] = [
    ("query", {"type": "string", "description": "Free-text search terms matched against titles and bodies."}),
    ("limit", {"type": "integer", "minimum": 1, "maximum": 100, "description": "Maximum results to return."}),
    ("cursor", {"type": "string", "description": "Opaque cursor from the previous page."}),
    ("start_date", {"type": "string", "format": "date", "description": "First day to include, YYYY-MM-DD."}),
    ("status", {"type": "string", "enum": ["open", "closed", "all"], "description": "Filter by status."}),
    ("owner", {"type": "string", "description": "Account that owns the item."}),
    ("include_archived", {"type": "boolean", "description": "Also return archived items."}),
    ("sort", {"type": "string", "enum": ["created", "updated"], "description": "Sort key."}),
    ("workspace_id", {"type": "string", "description": "Workspace id as returned by list_workspaces."}),
]


def make_tools(count: int, seed: int = 1234) -> tuple[Tool, ...]:
    rng = random.Random(seed)
    tools = []
    for index in range(count):
        verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
        name = f"{verb}_{noun}_{index}"
        sentence = f"{verb.capitalize()} {noun}s in the workspace."
        body = " ".join(rng.choice(WORDS) for _ in range(55))
        chosen = rng.sample(PARAMS, rng.randint(3, 5))
        raw: dict[str, Any] = {
            "name": name,
            "description": f"{sentence} {body}.",
            "inputSchema": {
                "type": "object",
                "properties": {key: dict(value) for key, value in chosen},
                "required": [chosen[0][0]],
            },
        }
        if index % 3:
            raw["annotations"] = {"readOnlyHint": verb in ("get", "list", "search", "fetch", "read", "find")}
        tools.append(Tool(name=name, raw=raw))
    return tuple(tools)


def baseline(server: ServerSnapshot) -> int:
    """Touch each tool's description and schema, nothing more: the floor any rule pays."""
    total = 0
    for tool in server.tools:
        total += len(tool.description) + len(tool.properties) + len(tool.required)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=10_000)
    args = parser.parse_args()
    rules = [rule for rule in load_catalogue().rules if rule.category != "rubric"]
    server = ServerSnapshot(name="synthetic", tools=make_tools(args.tools))

    base_seconds = min(_timed(lambda: baseline(server))[0] for _ in range(3))

    # Best of three runs, wall clock and CPU time: on a shared machine the CPU time of this
    # process is the fairer figure, since wall clock includes waiting for a core.
    best: tuple[float, float, list[tuple[float, str, int]]] | None = None
    for _ in range(3):
        timings: list[tuple[float, str, int]] = []
        wall_started, cpu_started = time.perf_counter(), time.process_time()
        for rule in rules:
            context = CheckContext(server=server, options=dict(rule.options))
            rule_seconds, hits = _timed(lambda: len(list(FUNCTIONS[rule.function](context))))  # noqa: B023
            timings.append((rule_seconds, f"{rule.code} {rule.name}", hits))
        run = (time.perf_counter() - wall_started, time.process_time() - cpu_started, timings)
        if best is None or run[0] < best[0]:
            best = run
    assert best is not None
    seconds, cpu_seconds, timings = best

    for rule_seconds, label, hits in sorted(timings, reverse=True):
        print(f"  {rule_seconds * 1000:8.1f} ms  {label:40} {hits:6d} hits")
    print(
        f"{len(rules)} rules over {args.tools} tools: {seconds:.3f} s wall, {cpu_seconds:.3f} s CPU "
        f"({args.tools / seconds:,.0f} tools/s)"
    )
    print(
        f"baseline (read description and schema): {base_seconds * 1000:.1f} ms; "
        f"ratio {seconds / base_seconds:.0f}x"
    )
    verdict = "under" if min(seconds, cpu_seconds) < 1.0 else "OVER"
    print(f"{verdict} 1 second")


def _timed(action: Callable[[], int]) -> tuple[float, int]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


if __name__ == "__main__":
    main()
