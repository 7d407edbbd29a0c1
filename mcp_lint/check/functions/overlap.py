"""Overlap rules (MCP403): sibling tools a model cannot tell apart.

Comparing every pair is O(n²): 50 million pairs for 10,000 tools. Instead each description becomes
a set of word 3-grams (shingles), and prefix filtering (Chaudhuri et al., "A primitive operator
for similarity joins") finds every pair that can reach the threshold: with shingles sorted rarest
first, two sets whose Jaccard similarity is at least t must share one among the first
|s| - ceil(t·|s|) + 1 of each. Those prefixes are short and made of rare shingles, so the candidate
lists stay small. Word 3-grams rather than single words because single words repeat across unrelated
descriptions ("the", "returns", "file") while 3-grams rarely do, which keeps the index sparse.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence

from mcp_lint.check.functions import CheckContext, CheckFunction, Hit
from mcp_lint.check.functions._util import name_words

_WORDS = re.compile(r"[a-z0-9]+")
_NAME_SUFFIXES = frozenset(
    {"v1", "v2", "v3", "new", "old", "tool", "all", "by", "id", "ids", "list", "one", "2", "3"}
)
_SHINGLE = 3  # words per shingle; shingles() builds them with a three-way zip


def _word_set(text: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(text.lower()))


def shingles(text: str) -> frozenset[int]:
    """Hashes of the description's word 3-grams; under six words, of its single words.

    Hashes rather than the 3-grams themselves: ints are cheap to hash again in every set and dict
    operation below, and a 64-bit collision is too rare to matter for a similarity score.
    """
    found = _WORDS.findall(text.lower())
    if len(found) < 2 * _SHINGLE:
        return frozenset(map(hash, found))
    return frozenset(map(hash, zip(found, found[1:], found[2:], strict=False)))


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


def similar_pairs(sets: Sequence[frozenset[int]], threshold: float) -> Iterator[tuple[int, int, float]]:
    """(i, j, similarity) pairs with Jaccard >= threshold; every tool in such a pair appears in one.

    Only each tool's closest sibling is reported, so within a group of identical sets neighbours
    are enough, which keeps a server that repeats one description many times linear.
    """
    groups: dict[frozenset[int], list[int]] = {}
    for position, tokens in enumerate(sets):
        groups.setdefault(tokens, []).append(position)
    for members in groups.values():
        for first, second in itertools.pairwise(members):
            yield first, second, 1.0
    # Prefix filtering is exact only if every set sorts its shingles in the same global order:
    # rarest first, ties broken by value. Template phrases ("in the workspace") come last, so they
    # rarely reach a prefix.
    frequency = Counter(itertools.chain.from_iterable(groups))
    index: dict[int, list[int]] = {}
    for tokens, members in sorted(groups.items(), key=lambda item: len(item[0])):
        size = len(tokens) - math.ceil(threshold * len(tokens) - 1e-9) + 1
        if list(map(frequency.__getitem__, tokens)).count(1) >= size:
            # The whole prefix is shingles no other description has: no pair can reach the
            # threshold. Most distinct descriptions stop here, before any sorting.
            continue
        prefix = sorted(tokens, key=lambda token: (frequency[token], token))[:size]
        me = members[0]
        candidates: set[int] = set()
        for token in prefix:
            bucket = index.get(token)
            if bucket is None:
                index[token] = [me]
            else:
                candidates.update(bucket)
                bucket.append(me)
        minimum = threshold * len(tokens)
        for other in candidates:
            # Sets are visited by size, so `other` is no larger; the length filter is cheap.
            theirs = sets[other]
            if len(theirs) < minimum:
                continue
            shared = len(tokens & theirs)
            score = shared / (len(tokens) + len(theirs) - shared)
            if score >= threshold:
                for mine in members:
                    yield min(mine, other), max(mine, other), score
                for sibling in groups[theirs][1:]:
                    yield min(me, sibling), max(me, sibling), score


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
