"""ambiguous-tools (MCP403) against brute force: every pair compared, no index, no prefix filter.

The oracle here is written from the rule's documented definition (rules/MCP403-ambiguous-tools.yaml),
not from the implementation: a description's shingles are its word 3-grams, or its single words when it
has under six; two tools are reported when those sets reach `copy-similarity` (Jaccard), or when their
names mean the same action on the same object, their inputs agree and their descriptions reach `similar-
name-similarity` (singular words) or `similarity` (shingles), as the rule's docs say; each tool in such
a pair is reported once, naming its closest sibling. Descriptions of fewer than two distinct words, and
placeholders, are left out. Words are `text_tokens` (the tokenizer every text rule shares); what a name
means (`name_meaning`, after a first word of `namespaces`), when two meanings are one (`same_meaning`),
when inputs agree (`same_inputs`), which texts are placeholders (`is_placeholder`) and when two tools
are set apart by the words of their names (`_set_apart`) are the rule's own predicates on one pair,
reused as such. What is checked is that the candidate index (`similar_pairs`) loses no pair and invents
none, on real and generated servers.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from mcp_lint.check.functions import FUNCTIONS, CheckContext
from mcp_lint.check.functions._util import is_placeholder, name_words, text_tokens
from mcp_lint.check.functions.overlap import (
    _ACTIONS,
    _MAX_GROUP,
    _PREPOSITIONS,
    _set_apart,
    name_meaning,
    namespaces,
    same_inputs,
    same_meaning,
    shingles,
    similar_pairs,
)
from mcp_lint.check.rules import load_catalogue
from mcp_lint.model import ServerSnapshot, Tool
from mcp_lint.words import singular as _singular

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = ROOT / "lab" / "data" / "jury-calibration.jsonl"
THRESHOLDS = (0.5, 0.55, 0.7, 0.85, 0.95)


def brute_shingles(text: str) -> frozenset[object]:
    """The documented shingles, as strings: word 3-grams, or the single words under six words."""
    words = text_tokens(text)
    if len(words) < 6:
        return frozenset(words)
    return frozenset(" ".join(words[start : start + 3]) for start in range(len(words) - 2))


def jaccard(left: frozenset[object], right: frozenset[object]) -> float:
    union = len(left | right)
    return len(left & right) / union if union else 0.0


def all_pairs(descriptions: Sequence[str], threshold: float) -> dict[tuple[int, int], float]:
    """Every pair i < j whose shingle sets reach `threshold`, by comparing each with each."""
    sets = [brute_shingles(text) for text in descriptions]
    found: dict[tuple[int, int], float] = {}
    for first, second in itertools.combinations(range(len(sets)), 2):
        score = jaccard(sets[first], sets[second])
        if score >= threshold:
            found[(first, second)] = score
    return found


def closest(pairs: dict[tuple[int, int], float]) -> dict[int, float]:
    """Each tool's best similarity over the pairs it is in."""
    best: dict[int, float] = {}
    for (first, second), score in pairs.items():
        for me in (first, second):
            best[me] = max(best.get(me, 0.0), score)
    return best


def assert_index_matches_brute_force(descriptions: Sequence[str], threshold: float, name: str) -> int:
    """`similar_pairs` yields only true pairs with their exact score, and every tool that has a sibling
    at `threshold` meets its closest one (it may skip some pairs among identical descriptions: only
    each tool's closest sibling is reported, and a neighbour in the group is as close as any)."""
    # The rule compares only descriptions of two distinct words or more (see the module doc).
    descriptions = [text for text in descriptions if len(set(text_tokens(text))) >= 2]
    expected = all_pairs(descriptions, threshold)
    yielded: dict[tuple[int, int], float] = {}
    for first, second, score in similar_pairs([shingles(text) for text in descriptions], threshold):
        assert first < second, (name, first, second)
        pair = (first, second)
        assert pair in expected, f"{name}: {pair} is {score:.3f} similar, brute force says below {threshold}"
        assert score == pytest.approx(expected[pair], abs=1e-12), (name, pair)
        yielded[pair] = score
    assert closest(yielded) == pytest.approx(closest(expected), abs=1e-12), name
    return len(expected)


def _calibration() -> list[dict[str, str]]:
    with CALIBRATION.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@functools.cache
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


@functools.cache
def generated_servers() -> dict[str, list[str]]:
    """Servers with near-duplicates, exact copies, templates and minimal tools: many pairs near the
    threshold, many shingles common to all, groups of identical sets next to groups of near copies."""
    rng = random.Random(20261201)
    real = [record["description"] for record in _calibration()]
    sentences = [part.strip() + "." for text in real for part in text.split(".") if len(part.split()) > 3]
    vocabulary = sorted({word for text in real for word in text.split()})
    servers: dict[str, list[str]] = {
        "minimal": [f"Get item {number}." for number in range(300)],
        "template": [
            f"Query the {word} table and return its rows as JSON objects, newest first, at most one hundred."
            for word in vocabulary[:150]
        ],
        "one word apart": [
            "Returns the rows of one table as JSON objects, newest first, with at most one hundred rows "
            f"per call; use the cursor for more. Table {number}."
            for number in range(150)
        ],
    }
    for round_ in range(8):
        descriptions: list[str] = []
        for _ in range(150):
            roll = rng.random()
            if descriptions and roll < 0.1:
                descriptions.append(rng.choice(descriptions))  # an exact copy
            elif descriptions and roll < 0.4:
                words = rng.choice(descriptions).split()
                for _ in range(rng.randint(0, 3)):  # a near-duplicate: a few words swapped
                    words[rng.randrange(len(words))] = rng.choice(vocabulary)
                descriptions.append(" ".join(words))
            elif roll < 0.5:
                descriptions.append(
                    " ".join(rng.sample(vocabulary, rng.randint(1, 6)))
                )  # short: single words
            else:
                descriptions.append(" ".join(rng.sample(sentences, rng.randint(1, 4))))
        servers[f"generated {round_}"] = descriptions
    return servers


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_the_index_finds_what_comparing_all_pairs_finds_on_real_servers(threshold: float) -> None:
    servers = real_servers()
    assert len(servers) > 50
    found = sum(assert_index_matches_brute_force(texts, threshold, name) for name, texts in servers.items())
    assert found > 0  # the comparison covers servers that do have similar tools


@pytest.mark.parametrize("threshold", (0.5, 0.7, 0.85))
def test_the_index_finds_what_comparing_all_pairs_finds_on_generated_servers(threshold: float) -> None:
    found = sum(
        assert_index_matches_brute_force(texts, threshold, name)
        for name, texts in generated_servers().items()
    )
    assert found > 100


# --- the whole rule against brute force -------------------------------------------------------

VERBS = ("get", "list", "fetch", "read", "search", "find", "delete", "create", "update")
NOUNS = ("user", "file", "note", "page", "issue", "html", "markdown", "table", "row", "event")
SUFFIXES = ("", "s", "_v2", "_by_id", "_all", "_text", "_history")
PROPERTIES = ("id", "query", "path", "user_id", "limit")


def brute_force_rule(tools: Sequence[Tool], options: dict[str, float]) -> dict[str, tuple[int, set[str]]]:
    """tool name -> (similarity in %, the names of its closest siblings), comparing every pair.

    From the documented definition: copies (3-gram Jaccard >= copy-similarity) whatever the names;
    names of one meaning (same action and object, other words equal or one a subset) with the same
    inputs and descriptions sharing similar-name-similarity of their singular words but verbs (other words
    equal) or similarity of their 3-grams (one name adds words, which its description alone does not
    name); never a pair set apart by its descriptions; a meaning shared by more than `_MAX_GROUP`
    tools is not compared.
    """
    kept = [
        tool
        for tool in tools
        if len(set(text_tokens(tool.description))) >= 2 and not is_placeholder(tool.description)
    ]
    words = [name_words(tool.name) for tool in kept]
    namespace = namespaces(words)
    meanings = [name_meaning(name, namespace) for name in words]
    group_size: dict[tuple[str, str], int] = {}
    for meaning in meanings:
        key = (meaning.action, meaning.head)
        group_size[key] = group_size.get(key, 0) + 1
    best: dict[int, tuple[float, set[str]]] = {}
    for first, second in itertools.combinations(range(len(kept)), 2):
        one, other = kept[first], kept[second]
        if one.name == other.name:
            continue
        names = [
            {_singular(word) for word in name_words(tool.name) if word not in _ACTIONS}
            for tool in (one, other)
        ]
        texts = [{_singular(word) for word in text_tokens(tool.description)} for tool in (one, other)]
        if _set_apart(names[0], names[1], texts[0], texts[1]):
            continue
        if all("deprecat" in tool.description.lower() for tool in (one, other)):
            continue  # two deprecated shims
        scores = []
        copy = jaccard(brute_shingles(one.description), brute_shingles(other.description))
        mine, theirs = meanings[first], meanings[second]
        # A copy counts unless each description says its own name's different action (Get / Delete).
        said = [
            {_ACTIONS[word] for word in text_tokens(tool.description) if word in _ACTIONS}
            for tool in (one, other)
        ]
        verbs_apart = (
            bool(mine.action and theirs.action)
            and mine.action != theirs.action
            and mine.action in said[0] - said[1]
            and theirs.action in said[1] - said[0]
        )
        # ... or each name's extra words come up more often in its own description.
        counted_names = [Counter(name_words(tool.name)) for tool in (one, other)]
        counted_texts = [Counter(text_tokens(tool.description)) for tool in (one, other)]
        surplus = [counted_names[0] - counted_names[1], counted_names[1] - counted_names[0]]
        worded_apart = bool(surplus[0] or surplus[1]) and all(
            counted_texts[side][word] > counted_texts[1 - side][word]
            for side in (0, 1)
            for word in surplus[side]
        )
        if copy >= options["copy-similarity"] and not verbs_apart and not worded_apart:
            scores.append(copy)
        if (
            same_meaning(mine, theirs)
            and group_size[(mine.action, mine.head)] <= _MAX_GROUP
            and same_inputs(one, other)
        ):
            if mine.others == theirs.others:
                score = jaccard(frozenset(texts[0] - _ACTIONS.keys()), frozenset(texts[1] - _ACTIONS.keys()))
                if score >= options["similar-name-similarity"]:
                    scores.append(score)
            else:
                # A variant whose description alone names what its extra words add is a choice.
                longer, shorter = (0, 1) if len(mine.others) > len(theirs.others) else (1, 0)
                extra = (mine.others ^ theirs.others) - _PREPOSITIONS
                # Stop words kept ("Reply to all recipients").
                raw = [{_singular(word) for word in text_tokens(tool.description)} for tool in (one, other)]
                explained = extra & (texts[longer] - texts[shorter]) or extra & (raw[longer] - raw[shorter])
                if not explained and copy >= options["similarity"]:
                    scores.append(copy)
        if not scores:
            continue
        score = max(scores)
        for me, sibling in ((first, second), (second, first)):
            current = best.get(me)
            if current is None or score > current[0] + 1e-12:
                best[me] = (score, {kept[sibling].name})
            elif abs(score - current[0]) <= 1e-12:
                current[1].add(kept[sibling].name)
    return {kept[me].name: (round(score * 100), siblings) for me, (score, siblings) in best.items()}


def generated_tool_sets(count: int) -> list[list[Tool]]:
    """Servers of 2 to 60 tools: names that differ by a synonym, a plural or a suffix, descriptions
    copied, edited a little, naming their tool's words or not, short, empty or placeholders, and
    inputs drawn from a few parameter names."""
    rng = random.Random(403)
    real = [record["description"] for record in _calibration()]
    sentences = [part.strip() + "." for text in real for part in text.split(".") if len(part.split()) > 3]
    servers: list[list[Tool]] = []
    for _ in range(count):
        names: list[str] = []
        while len(names) < rng.randint(2, 60):
            name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}{rng.choice(SUFFIXES)}"
            if name not in names:
                names.append(name)
        descriptions: list[str] = []
        for name in names:
            roll = rng.random()
            noun = name.split("_")[1]
            if descriptions and roll < 0.15:
                text = rng.choice(descriptions)
            elif descriptions and roll < 0.45:
                words = rng.choice(descriptions).split() or ["x"]
                for _ in range(rng.randint(0, 2)):
                    words[rng.randrange(len(words))] = rng.choice((noun, "the", "a", "record", "text"))
                text = " ".join(words)
            elif roll < 0.55:
                text = rng.choice(("", "TODO", "No description", "Gets.", f"Gets {noun}s."))
            elif roll < 0.8:
                text = f"{name.split('_')[0].capitalize()} the {noun} and return it as JSON."
            else:
                text = " ".join(rng.sample(sentences, rng.randint(1, 2)))
            descriptions.append(text)
        servers.append(
            [
                Tool(
                    name,
                    {
                        "name": name,
                        "description": text,
                        "inputSchema": {
                            "type": "object",
                            "properties": {
                                key: {"type": "string"} for key in rng.sample(PROPERTIES, rng.randint(0, 2))
                            },
                        },
                    },
                )
                for name, text in zip(names, descriptions, strict=True)
            ]
        )
    return servers


def test_the_rule_reports_what_comparing_every_pair_reports_on_generated_tool_sets() -> None:
    rule = next(rule for rule in load_catalogue().rules if rule.code == "MCP403")
    defaults = {key: float(value) for key, value in rule.options.items()}
    reported = 0
    for number, tools in enumerate(generated_tool_sets(150)):
        for changed in (
            {},
            {"similarity": 0.5, "similar-name-similarity": 0.3, "copy-similarity": 0.7},
            {"similarity": 0.9, "similar-name-similarity": 0.8},
        ):
            options = {**defaults, **changed}
            hits = list(FUNCTIONS[rule.function](CheckContext(ServerSnapshot("s", tuple(tools)), options)))
            expected = brute_force_rule(tools, options)
            where = f"server {number} at {options}"
            assert sorted(hit.tool for hit in hits) == sorted(expected), where
            for hit in hits:
                percent, siblings = expected[hit.tool]
                assert hit.fields["similarity"] == percent, (where, hit.tool)
                assert hit.fields["other"] in siblings, (where, hit.tool, hit.fields["other"], siblings)
            reported += len(hits)
    assert reported > 500
