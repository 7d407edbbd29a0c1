"""The candidate index of ambiguous-tools (MCP403) finds exactly the pairs that comparing all pairs does.

The oracle below is the implementation the index replaced (it counted every pair of every bucket,
which is quadratic when thousands of tools share one common shingle); it is kept here only to prove
the new candidate generation yields the same pairs, in the same order, on real and generated servers.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
import yaml

from mcp_lint.check.functions.overlap import shingles, similar_pairs

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = ROOT / "lab" / "data" / "jury-calibration.jsonl"
THRESHOLDS = (0.5, 0.55, 0.85, 0.95)


def oracle_pairs(sets: Sequence[frozenset[int]], threshold: float) -> Iterator[tuple[int, int, float]]:
    groups: dict[frozenset[int], list[int]] = {}
    for position, tokens in enumerate(sets):
        groups.setdefault(tokens, []).append(position)
    for members in groups.values():
        for first, second in itertools.pairwise(members):
            yield first, second, 1.0
    ordered = sorted(groups.items(), key=lambda item: len(item[0]))
    frequency = Counter(itertools.chain.from_iterable(tokens for tokens, _ in ordered))
    repeated = frozenset(itertools.compress(frequency, map((1).__lt__, frequency.values())))
    index: dict[int, list[int]] = {}
    needs: list[int] = []
    for rank, (tokens, _) in enumerate(ordered):
        overlap = math.ceil(threshold * len(tokens) - 1e-9)
        need = 2 if overlap >= 2 else 1
        needs.append(need)
        shared_ones = tokens & repeated
        take = len(tokens) - overlap + need - (len(tokens) - len(shared_ones))
        if take <= 0:
            continue
        prefix = sorted(shared_ones)
        prefix.sort(key=frequency.__getitem__)
        for token in prefix[:take]:
            index.setdefault(token, []).append(rank)
    shared = Counter(
        itertools.chain.from_iterable(
            itertools.combinations(bucket, 2) for bucket in index.values() if len(bucket) > 1
        )
    )
    candidates = sorted(
        pair for pair, count in shared.items() if count >= min(needs[pair[0]], needs[pair[1]])
    )
    for earlier, later in candidates:
        theirs, their_members = ordered[earlier]
        tokens, members = ordered[later]
        if len(theirs) < threshold * len(tokens):
            continue
        common_count = len(tokens & theirs)
        score = common_count / (len(tokens) + len(theirs) - common_count)
        if score >= threshold:
            me, other = members[0], their_members[0]
            for mine in members:
                yield min(mine, other), max(mine, other), score
            for sibling in their_members[1:]:
                yield min(me, sibling), max(me, sibling), score


def _calibration() -> list[dict[str, str]]:
    with CALIBRATION.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def real_servers() -> dict[str, list[str]]:
    """Descriptions per server: the golden snapshot, the MCP403 cases, the calibration set's servers."""
    servers: dict[str, list[str]] = {}
    for path in sorted(ROOT.glob("tests/**/*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(data, dict) and isinstance(data.get("tools"), list):
            servers[str(path)] = [str(tool.get("description") or "") for tool in data["tools"]]
    for path in sorted((ROOT / "tests" / "check" / "cases").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            tools = case.get("tools") or []
            descriptions = [tool.get("description") for tool in tools if isinstance(tool, dict)]
            servers[f"{path.stem}: {case['name']}"] = [text for text in descriptions if isinstance(text, str)]
    records = _calibration()
    for record in records:
        servers.setdefault(f"calibration: {record['server']}", []).append(record["description"])
    servers["calibration: all in one"] = [record["description"] for record in records]
    return servers


def generated_servers() -> dict[str, list[str]]:
    """Big servers with near-duplicates, templates and minimal tools: many pairs, many common shingles."""
    rng = random.Random(20261201)
    real = [record["description"] for record in _calibration()]
    sentences = [part.strip() + "." for text in real for part in text.split(".") if len(part.split()) > 3]
    vocabulary = sorted({word for text in real for word in text.split()})
    servers: dict[str, list[str]] = {
        "minimal": [f"Get item {number}." for number in range(1000)],
        "template": [
            f"Query the {word} table and return its rows as JSON objects, newest first, at most one hundred."
            for word in vocabulary[:300]
        ],
        "one word apart": [
            "Returns the rows of one table as JSON objects, newest first, with at most one hundred rows "
            f"per call; use the cursor for more. Table {number}."
            for number in range(300)
        ],
    }
    for round_ in range(6):
        descriptions: list[str] = []
        for _ in range(300):
            if descriptions and rng.random() < 0.3:
                words = rng.choice(descriptions).split()
                for _ in range(rng.randint(0, 3)):  # a near-duplicate: a few words swapped
                    words[rng.randrange(len(words))] = rng.choice(vocabulary)
                descriptions.append(" ".join(words))
            else:
                descriptions.append(" ".join(rng.sample(sentences, rng.randint(1, 4))))
        servers[f"generated {round_}"] = descriptions
    return servers


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_the_index_finds_the_same_pairs_as_all_pairs_on_real_servers(threshold: float) -> None:
    servers = real_servers()
    assert len(servers) > 50
    found = 0
    for name, descriptions in servers.items():
        sets = [shingles(text) for text in descriptions]
        expected = list(oracle_pairs(sets, threshold))
        assert list(similar_pairs(sets, threshold)) == expected, name
        found += len(expected)
    assert found > 0  # the comparison covers servers that do have similar tools


@pytest.mark.parametrize("threshold", (0.5, 0.85))
def test_the_index_finds_the_same_pairs_as_all_pairs_on_generated_servers(threshold: float) -> None:
    found = 0
    for name, descriptions in generated_servers().items():
        sets = [shingles(text) for text in descriptions]
        expected = list(oracle_pairs(sets, threshold))
        assert list(similar_pairs(sets, threshold)) == expected, name
        found += len(expected)
    assert found > 0
