"""Overlap rules (MCP403): sibling tools a model cannot tell apart.

Comparing every pair is O(n²): 50 million pairs for 10,000 tools. Instead each description becomes
a set of word 3-grams (shingles), and prefix filtering (Chaudhuri et al., "A primitive operator for similarity
joins") finds every pair that can reach the threshold: with words sorted rarest first, two sets
whose Jaccard similarity is at least t must share a word among the first |s| - ceil(t·|s|) + 1 of
each. Those prefixes are short and made of rare shingles, so the candidate lists stay small. Word
3-grams rather than single words because single words repeat across unrelated descriptions ("the",
"returns", "file") while 3-grams rarely do, which is what keeps the index sparse.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence

from mcp_lint.check.functions import CheckContext, CheckFunction, Hit
from mcp_lint.check.functions._util import name_words

_WORDS = re.compile(r"[a-z0-9]+")
_NAME_SUFFIXES = frozenset(
    {"v1", "v2", "v3", "new", "old", "tool", "all", "by", "id", "ids", "list", "one", "2", "3"}
)


_SHINGLE = 3  # words per shingle; shingles() builds them with a three-way zip


def _word_set(text: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(text.lower()))


def shingles(text: str) -> frozenset[Hashable]:
    """Word 3-grams of the description; descriptions too short for 3-grams keep their words."""
    found = _WORDS.findall(text.lower())
    if len(found) < 2 * _SHINGLE:
        return frozenset(found)
    return frozenset(zip(found, found[1:], found[2:], strict=False))


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


def similar_pairs(
    token_sets: Sequence[frozenset[Hashable]], threshold: float
) -> Iterator[tuple[int, int, float]]:
    """(i, j, similarity) pairs with Jaccard >= threshold; every tool in such a pair appears in one.

    Only each tool's closest sibling is reported, so within a group of identical sets neighbours
    are enough, which keeps a server that repeats one description many times linear.
    """
    frequency = Counter(itertools.chain.from_iterable(token_sets))
    # One global order, rarest first, ties broken once: prefix filtering is exact only if all sets
    # agree on the order.
    rank = {token: position for position, token in enumerate(sorted(frequency, key=frequency.__getitem__))}
    sets = [frozenset(map(rank.__getitem__, tokens)) for tokens in token_sets]
    groups: dict[frozenset[int], list[int]] = {}
    for position, ranks in enumerate(sets):
        groups.setdefault(ranks, []).append(position)
    for members in groups.values():
        for first, second in itertools.pairwise(members):
            yield first, second, 1.0
    index: dict[int, list[int]] = {}
    for ranks, members in sorted(groups.items(), key=lambda item: len(item[0])):
        ordered = sorted(ranks)
        prefix = ordered[: len(ordered) - math.ceil(threshold * len(ordered) - 1e-9) + 1]
        me = members[0]
        candidates: set[int] = set()
        for token in prefix:
            bucket = index.get(token)
            if bucket is not None:
                candidates.update(bucket)
        minimum = threshold * len(ranks)
        for other in candidates:
            # Sets are visited by size, so `other` is no larger; the length filter is cheap.
            theirs = sets[other]
            if len(theirs) < minimum:
                continue
            shared = len(ranks & theirs)
            score = shared / (len(ranks) + len(theirs) - shared)
            if score >= threshold:
                for mine in members:
                    yield min(mine, other), max(mine, other), score
                for sibling in groups[theirs][1:]:
                    yield min(me, sibling), max(me, sibling), score
        for token in prefix:
            index.setdefault(token, []).append(me)


def ambiguous_tools(ctx: CheckContext) -> Iterator[Hit]:
    threshold = float(ctx.options.get("similarity", 0.85))
    name_threshold = float(ctx.options.get("similar-name-similarity", 0.5))
    tools = [tool for tool in ctx.server.tools if tool.description.strip()]
    sets = [shingles(tool.description) for tool in tools]
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
                    score = _jaccard(
                        _word_set(tools[first].description), _word_set(tools[second].description)
                    )
                    if score >= name_threshold:
                        note(first, second, score)
    for me in sorted(best):
        score, other = best[me]
        yield Hit(
            tool=tools[me].name,
            fields={"other": tools[other].name, "similarity": round(score * 100)},
            evidence=f"{tools[me].name} vs {tools[other].name}: {round(score * 100)}% similar",
            path="description",
        )


FUNCTIONS: dict[str, CheckFunction] = {"ambiguous_tools": ambiguous_tools}
