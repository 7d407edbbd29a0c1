"""Overlap rules (MCP403): sibling tools a model cannot tell apart.

Comparing every pair is O(n²): 50 million pairs for 10,000 tools. Instead each description becomes
a set of words, and prefix filtering (Chaudhuri et al., "A primitive operator for similarity
joins") finds every pair that can reach the threshold: with words sorted rarest first, two sets
whose Jaccard similarity is at least t must share a word among the first |s| - ceil(t·|s|) + 1 of
each. Those prefixes are short and made of rare words, so the candidate lists stay small.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, CheckFunction, Hit
from mcp_lint.check.functions._util import name_words

_WORDS = re.compile(r"[a-z0-9]+")
_NAME_SUFFIXES = frozenset({"v1", "v2", "v3", "new", "old", "tool", "all", "by", "id", "ids", "list", "one", "2", "3"})


def _word_set(text: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(text.lower()))


def _jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    shared = len(left & right)
    return shared / (len(left) + len(right) - shared) if shared else 0.0


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def name_key(name: str) -> str:
    """`get_users`, `getUser`, `get-user-v2` -> `get user`: names that differ only by plural or suffix."""
    words = [_singular(word) for word in name_words(name)]
    while len(words) > 1 and words[-1] in _NAME_SUFFIXES:
        words.pop()
    return " ".join(words)


def similar_pairs(sets: list[frozenset[str]], threshold: float) -> Iterator[tuple[int, int, float]]:
    """Every (i, j, similarity) with i < j and Jaccard(sets[i], sets[j]) >= threshold."""
    frequency = Counter(word for words in sets for word in words)
    index: dict[str, list[int]] = {}
    seen: set[tuple[int, int]] = set()
    # Identical sets are grouped first so a server that repeats one description many times stays linear.
    groups: dict[frozenset[str], list[int]] = {}
    for position, words in enumerate(sets):
        groups.setdefault(words, []).append(position)
    for members in groups.values():
        # Neighbours are enough: callers keep only each tool's closest sibling.
        for first, second in zip(members, members[1:]):
            yield first, second, 1.0
    representatives = sorted(groups.items(), key=lambda item: len(item[0]))
    for words, members in representatives:
        ordered = sorted(words, key=lambda word: (frequency[word], word))
        prefix = len(ordered) - math.ceil(threshold * len(ordered) - 1e-9) + 1
        me = members[0]
        candidates: set[int] = set()
        for word in ordered[:prefix]:
            candidates.update(index.get(word, ()))
        for other in candidates:
            # Sets were visited by size, so `other` is no larger; the length filter prunes cheaply.
            if len(sets[other]) < threshold * len(words):
                continue
            pair = (min(me, other), max(me, other))
            if pair in seen:
                continue
            seen.add(pair)
            score = _jaccard(words, sets[other])
            if score >= threshold:
                for mine in members:
                    yield min(mine, other), max(mine, other), score
                for theirs in groups[sets[other]][1:]:
                    yield min(me, theirs), max(me, theirs), score
        for word in ordered[:prefix]:
            index.setdefault(word, []).append(me)


def ambiguous_tools(ctx: CheckContext) -> Iterator[Hit]:
    threshold = float(ctx.options.get("similarity", 0.85))
    name_threshold = float(ctx.options.get("similar-name-similarity", 0.5))
    tools = [tool for tool in ctx.server.tools if tool.description.strip()]
    sets = [_word_set(tool.description) for tool in tools]
    best: dict[int, tuple[float, int]] = {}

    def note(first: int, second: int, score: float) -> None:
        if tools[first].name == tools[second].name:
            return  # same name: duplicate-tool-name reports it
        for me, other in ((first, second), (second, first)):
            current = best.get(me)
            if current is None or (score, -other) > (current[0], -current[1]):
                best[me] = (score, other)

    for first, second, score in similar_pairs(sets, threshold):
        note(first, second, score)
    # Names that differ only by plural or suffix (get_user / get_users) need less description overlap.
    by_key: dict[str, list[int]] = {}
    for position, tool in enumerate(tools):
        by_key.setdefault(name_key(tool.name), []).append(position)
    for members in by_key.values():
        if 1 < len(members) <= 20:
            for offset, first in enumerate(members):
                for second in members[offset + 1 :]:
                    score = _jaccard(sets[first], sets[second])
                    if score >= name_threshold:
                        note(first, second, score)
    for me in sorted(best):
        score, other = best[me]
        yield Hit(
            tool=tools[me].name,
            fields={"other": tools[other].name, "similarity": round(score * 100)},
            evidence=f"{tools[me].name} vs {tools[other].name}: {round(score * 100)}% of description words shared",
            path="description",
        )


FUNCTIONS: dict[str, CheckFunction] = {"ambiguous_tools": ambiguous_tools}
