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
from collections import Counter
from collections.abc import Iterator, Sequence

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._text import analysis, shingle_hashes
from mcp_lint.check.functions._util import name_words, text_tokens
from mcp_lint.model import Tool
from mcp_lint.words import singular

_NAME_SUFFIXES = frozenset(
    {"v1", "v2", "v3", "new", "old", "tool", "all", "by", "id", "ids", "list", "one", "2", "3"}
)
_SHINGLE = 3  # words per shingle; _text.shingle_hashes builds them with a three-way zip


def shingles(text: str) -> frozenset[int]:
    """Hashes of the description's word 3-grams; under six words, of its single words.

    Hashes rather than the 3-grams themselves: ints are cheap to hash again in every set and dict
    operation below, and a 64-bit collision is too rare to matter for a similarity score.
    """
    return _shingles(text_tokens(text))


_shingles = shingle_hashes


def _jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    shared = len(left & right)
    return shared / (len(left) + len(right) - shared) if shared else 0.0


def name_key(name: str) -> str:
    """`get_users`, `getUser`, `get-user-v2` -> `get user`: names that differ only by plural or suffix."""
    words = [singular(word) for word in name_words(name)]
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
    ordered = sorted(groups.items(), key=lambda item: len(item[0]))
    # Prefix filtering is exact for any global order of the shingles, as long as every set uses the
    # same one; rarest first keeps the prefixes, and so the candidate lists, shortest. The order is
    # by document frequency (one C-level count over every shingle), ties by hash value. A shingle
    # found in one set only can never be shared: it takes its place in the prefix but is not
    # indexed, so a set with as many of those as its prefix is long needs no index entry at all.
    # Asking for two shared prefix shingles instead of one (the k-prefix lemma: sets that share at
    # least `overlap` shingles share their first k in prefixes of |s| - overlap + k) removes nearly
    # all chance candidates before any set is intersected.
    frequency = Counter(itertools.chain.from_iterable(tokens for tokens, _ in ordered))
    repeated = frozenset(itertools.compress(frequency, map((1).__lt__, frequency.values())))
    index: dict[int, list[int]] = {}
    needs: list[int] = []
    for rank, (tokens, _) in enumerate(ordered):
        overlap = math.ceil(threshold * len(tokens) - 1e-9)
        need = 2 if overlap >= 2 else 1
        needs.append(need)
        shared_ones = tokens & repeated
        # The first len(tokens) - len(shared_ones) places of the prefix hold shingles no other set has.
        take = len(tokens) - overlap + need - (len(tokens) - len(shared_ones))
        if take <= 0:
            continue
        # The global order (frequency, hash): two C-level sorts, the second one stable.
        prefix = sorted(shared_ones)
        prefix.sort(key=frequency.__getitem__)
        for token in prefix[:take]:
            index.setdefault(token, []).append(rank)
    candidates = sorted(_candidates(index, needs))
    for earlier, later in candidates:
        theirs, their_members = ordered[earlier]
        tokens, members = ordered[later]
        # `later` is no smaller than `earlier`; the length filter is cheap.
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


def _candidates(index: dict[int, list[int]], needs: Sequence[int]) -> set[tuple[int, int]]:
    """(earlier, later) ranks that share at least min(need, need) indexed prefix shingles.

    Counting every pair of every bucket is quadratic whenever thousands of sets index one common
    shingle (5,000 tools "Get item N." all index "get"), although no such pair can qualify: a set
    that needs two shared shingles but sits in one shared bucket only can never share two with
    anything. Such sets are left out of the pair count and paired only with the sets that need one
    (one-shingle sets; identical sets were merged, so a bucket holds few of those).
    """
    shared_buckets = [bucket for bucket in index.values() if len(bucket) > 1]
    buckets_of = Counter(itertools.chain.from_iterable(shared_buckets))
    pairs: set[tuple[int, int]] = set()
    counted: Counter[tuple[int, int]] = Counter()
    for bucket in shared_buckets:
        counted.update(
            itertools.combinations([rank for rank in bucket if needs[rank] == 1 or buckets_of[rank] > 1], 2)
        )
        lonely = [rank for rank in bucket if needs[rank] == 2 and buckets_of[rank] == 1]
        for one in (rank for rank in bucket if needs[rank] == 1):
            pairs.update((min(one, rank), max(one, rank)) for rank in lonely)
    pairs.update(pair for pair, count in counted.items() if count >= min(needs[pair[0]], needs[pair[1]]))
    return pairs


def _set_apart(
    first_name: set[str], second_name: set[str], first_words: set[str], second_words: set[str]
) -> bool:
    """Each description names the word that sets its own tool's name apart from the other's.

    `fetch_html` / `fetch_markdown` ("... as HTML" / "... as Markdown") or `iframe_click` /
    `iframe_fill` are alternatives a model tells apart, however alike the rest of the sentence. One
    side alone is not enough: `read_file` / `read_text_file` ("a text file") overlap.
    Arguments: each name's singular words, then each description's singular words.
    """
    if not (first_name - second_name and second_name - first_name):
        return False
    return bool((first_name - second_name) & (first_words - second_words)) and bool(
        (second_name - first_name) & (second_words - first_words)
    )


@check_function("ambiguous_tools")
def ambiguous_tools(ctx: CheckContext) -> Iterator[Hit]:
    threshold = float(ctx.options.get("similarity", 0.85))
    name_threshold = float(ctx.options.get("similar-name-similarity", 0.5))
    tools: list[Tool] = []
    tokens: list[list[str]] = []
    sets: list[frozenset[int]] = []
    for tool in ctx.server.tools:
        text = analysis(tool)
        found = text.tokens
        # Too little text to call two tools alike: "No description" twice is missing-description's finding.
        if len(text.words) < 2 or text.placeholder:
            continue
        tools.append(tool)
        tokens.append(found)
        sets.append(text.shingles)
    best: dict[int, tuple[float, int]] = {}
    # Singular words of each name and description, computed once per tool that meets a sibling.
    singular_names: dict[int, set[str]] = {}
    singular_words: dict[int, set[str]] = {}

    def singular_sets(position: int) -> tuple[set[str], set[str]]:
        name = singular_names.get(position)
        if name is None:
            name = singular_names[position] = {singular(word) for word in name_words(tools[position].name)}
            singular_words[position] = {singular(word) for word in analysis(tools[position]).words}
        return name, singular_words[position]

    def note(first: int, second: int, score: float) -> None:
        if tools[first].name == tools[second].name:
            return  # same name: duplicate-tool-name reports it
        first_name, first_words = singular_sets(first)
        second_name, second_words = singular_sets(second)
        if _set_apart(first_name, second_name, first_words, second_words):
            return
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
            word_sets = {position: frozenset(tokens[position]) for position in members}
            for offset, first in enumerate(members):
                for second in members[offset + 1 :]:
                    score = _jaccard(word_sets[first], word_sets[second])
                    if score >= name_threshold:
                        note(first, second, score)
    for me in sorted(best):
        score, other = best[me]
        yield Hit(
            tool=tools[me].name,
            subject=tools[other].name,
            fields={"other": tools[other].name, "similarity": round(score * 100)},
            evidence=f"{tools[me].name} vs {tools[other].name}: {round(score * 100)}% similar",
            path="description",
        )
