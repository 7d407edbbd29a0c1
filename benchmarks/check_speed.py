"""How fast do the deterministic checks run? 10,000 tools, every non-rubric rule, two tool sets.

Run: .venv/bin/python benchmarks/check_speed.py [--tools N] [--set realistic|salad|both]

Both sets are generated deterministically (fixed seed):

* realistic (the set the "10,000 tools in under a second" requirement is judged on): each tool is
  composed from 2-4 sentences of the 408 real tool descriptions in
  `lab/data/jury-calibration.jsonl`, each sentence taken from a different real tool, with
  about one content word in four replaced by a word drawn from the vocabulary of the whole real
  corpus (descriptions and schemas, ~2,500 words), so that the copies are real English but not
  near-duplicates of each other. The input schema and name stem are those of the tool the first
  sentence came from. The real tools carry no annotations, so neither do these.
* worst case: word salad: a verb_noun name, "Verbs nouns in the workspace." and 55 words drawn at
  random from a 90-word vocabulary, 3-5 parameters from a fixed list, annotations on two tools in
  three. Far more shared word 3-grams than real text: the worst case for ambiguous-tools (MCP403).

Every run is cold: the per-run text analysis cache the rules share (`_text.clear_cache`) is emptied
before each repetition, so its cost is counted once per run, in the first rule that needs it.
The baseline is a loop that only reads each tool's description and schema, so the ratio says how
much the rules cost over touching the data at all.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.functions import FUNCTIONS, CheckContext
from mcp_lint.check.functions._text import clear_cache
from mcp_lint.check.functions._util import words
from mcp_lint.check.rules import Rule, load_catalogue
from mcp_lint.config import Settings
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


CORPUS = Path(__file__).resolve().parent.parent / "lab" / "data" / "jury-calibration.jsonl"
# A sentence ends before a capital, a quote or a bracket; a blank line ends a block (an Args section).
_UNIT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])|\n\s*\n")
_WORD = re.compile(r"[A-Za-z]{4,}")


def make_tools(count: int, seed: int = 1234) -> tuple[Tool, ...]:
    """Worst case: word salad (see the module docstring)."""
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


def make_realistic_tools(count: int, seed: int = 1234) -> tuple[Tool, ...]:
    """Real sentences, recombined and reworded (see the module docstring)."""
    rng = random.Random(seed)
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    units = [
        [unit.strip() for unit in _UNIT_SPLIT.split(row["description"].strip()) if unit.strip()]
        for row in rows
    ]
    frequency: Counter[str] = Counter()
    vocabulary: set[str] = set()
    for row in rows:
        frequency.update({word.lower() for word in _WORD.findall(row["description"])})
        vocabulary.update(word.lower() for word in _WORD.findall(row["description"]))
        vocabulary.update(word.lower() for word in _WORD.findall(json.dumps(row["input_schema"])))
    # The most frequent words ("this", "with", "returns") keep the sentences grammatical.
    keep = {word for word, _ in frequency.most_common(150)}
    pool = sorted(vocabulary - keep)

    def reword(text: str) -> str:
        def swap(match: re.Match[str]) -> str:
            word = match.group()
            if word.lower() in keep or rng.random() >= 0.25:
                return word
            new = rng.choice(pool)
            return new.capitalize() if word[0].isupper() else new

        return _WORD.sub(swap, text)

    usable = [index for index, found in enumerate(units) if found]
    tools = []
    for index in range(count):
        sources = rng.sample(usable, rng.randint(2, 4))
        first = rows[sources[0]]
        parts = [units[sources[0]][0]] + [rng.choice(units[source]) for source in sources[1:]]
        description = " ".join(reword(part) for part in parts)
        name = f"{first['tool']}_{index}"
        raw: dict[str, Any] = {
            "name": name,
            "description": description,
            "inputSchema": json.loads(json.dumps(first["input_schema"])),
        }
        tools.append(Tool(name=name, raw=raw))
    return tuple(tools)


def baseline(server: ServerSnapshot) -> int:
    """Touch each tool's description and schema, nothing more: the floor any rule pays."""
    total = 0
    for tool in server.tools:
        total += len(tool.description) + len(tool.properties) + len(tool.required)
    return total


def measure(label: str, server: ServerSnapshot, rules: list[Rule]) -> float:
    """Best of three cold runs of every rule over `server`; prints the per-rule table, returns seconds."""
    base_seconds = min(_timed(lambda: baseline(server))[0] for _ in range(3))

    # Best of three runs, wall clock and CPU time: on a shared machine the CPU time of this
    # process is the fairer figure, since wall clock includes waiting for a core.
    best: tuple[float, float, list[tuple[float, str, int]]] | None = None
    for _ in range(3):
        clear_cache()  # cold: the shared text analysis is rebuilt and paid for in every run
        timings: list[tuple[float, str, int]] = []
        wall_started, cpu_started = time.perf_counter(), time.process_time()
        for rule in rules:
            context = CheckContext(server=server, options=dict(rule.options))
            rule_seconds, hits = _timed(lambda: len(list(FUNCTIONS[rule.function](context))))  # noqa: B023
            timings.append((rule_seconds, f"{rule.code} {rule.name}", hits))
        run = (time.perf_counter() - wall_started, time.process_time() - cpu_started, timings)
        if best is None or run[0] < best[0]:
            best = run
    clear_cache()
    assert best is not None
    seconds, cpu_seconds, timings = best

    count = len(server.tools)
    print(f"{label}:")
    for rule_seconds, rule_label, hits in sorted(timings, reverse=True):
        print(f"  {rule_seconds * 1000:8.1f} ms  {rule_label:40} {hits:6d} hits")
    print(
        f"{len(rules)} rules over {count} tools: {seconds:.3f} s wall, {cpu_seconds:.3f} s CPU "
        f"({count / seconds:,.0f} tools/s)"
    )
    print(
        f"baseline (read description and schema): {base_seconds * 1000:.1f} ms; "
        f"ratio {seconds / base_seconds:.0f}x"
    )
    # What a user pays: the engine runs every rule, suppressions and messages included.
    settings = Settings()
    active = [item for item in active_rules(load_catalogue(), settings) if item.rule.category != "rubric"]
    engine_runs = []
    for _ in range(3):
        wall_started, cpu_started = time.perf_counter(), time.process_time()
        findings = check_server(server, active, settings)
        engine_runs.append((time.perf_counter() - wall_started, time.process_time() - cpu_started))
    engine_wall, engine_cpu = min(engine_runs)
    print(
        f"whole check (engine, {len(findings)} findings): {engine_wall:.3f} s wall, {engine_cpu:.3f} s CPU; "
        f"ratio {engine_wall / base_seconds:.0f}x baseline"
    )
    verdict = "under" if min(engine_wall, engine_cpu) < 1.0 else "OVER"
    print(f"{verdict} 1 second\n")
    return min(engine_wall, engine_cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--set", choices=("realistic", "salad", "both"), default="both")
    args = parser.parse_args()
    rules = [rule for rule in load_catalogue().rules if rule.category != "rubric"]
    if args.set in ("realistic", "both"):
        server = ServerSnapshot(name="realistic", tools=make_realistic_tools(args.tools))
        measure("realistic: real sentences recombined (the requirement is judged on this set)", server, rules)
    if args.set in ("salad", "both"):
        server = ServerSnapshot(name="synthetic", tools=make_tools(args.tools))
        measure("worst case: word salad", server, rules)


def _timed(action: Callable[[], int]) -> tuple[float, int]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


if __name__ == "__main__":
    main()
