"""Overlap rules (MCP403): sibling tools a model cannot tell apart.

Two tools are confused when they do the same thing to the same thing: `search_issues` and
`find_issues` with the same inputs, or two tools that carry one copied description. Tools on
different objects (`get_file` / `get_file_history`, `get_task` / `get_task_list`), one item against
a list (`get_user` / `get_users`) and different actions (`create_page` / `update_page`) are not,
however alike their descriptions: the name already tells the model which is which. So a name is
read as an action (its verb, with synonyms folded: get/fetch/retrieve/read) and an object (its head
noun, plural kept, with modifiers before it and qualifiers after a preposition), and only tools
whose names agree on both are compared by description and inputs.

Copied descriptions are found whatever the names, by an index. Comparing every pair is O(n²):
50 million pairs for 10,000 tools. Instead each description becomes
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
from dataclasses import dataclass
from typing import TypeVar

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._text import analysis, shingle_hashes
from mcp_lint.check.functions._util import name_words, text_tokens
from mcp_lint.model import Tool
from mcp_lint.words import singular

T = TypeVar("T")
# Tools of one meaning compared pair by pair; a larger group (a generated server) is left alone.
_MAX_GROUP = 30

_SHINGLE = 3  # words per shingle; _text.shingle_hashes builds them with a three-way zip


def shingles(text: str) -> frozenset[int]:
    """Hashes of the description's word 3-grams; under six words, of its single words.

    Hashes rather than the 3-grams themselves: ints are cheap to hash again in every set and dict
    operation below, and a 64-bit collision is too rare to matter for a similarity score.
    """
    return _shingles(text_tokens(text))


_shingles = shingle_hashes


def _jaccard(left: frozenset[T], right: frozenset[T]) -> float:
    shared = len(left & right)
    return shared / (len(left) + len(right) - shared) if shared else 0.0


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


# Verbs a name starts with (or, in `userSelect` style, ends with), folded to one action each: two
# names with verbs of one group do the same thing. A verb not listed is an action of its own.
_VERB_GROUPS = {
    "get": "get fetch retrieve read obtain",
    "search": "search find query lookup locate seek",
    "list": "list enumerate",
    "create": "create add new make insert",
    "update": "update edit modify patch change set",
    "delete": "delete remove destroy drop erase del rm",
    "run": "run execute exec invoke call",
    "select": "select choose pick",
}
_ACTIONS = {verb: group for group, verbs in _VERB_GROUPS.items() for verb in verbs.split()}


def is_action(word: str) -> bool:
    """Whether a lower-case word is one of the verbs a tool name starts with (`get`, `search`, ...)."""
    return word in _ACTIONS


# Words after which a name qualifies its object (`list_directory_with_sizes`, `get_user_by_id`).
_PREPOSITIONS = frozenset(
    ("with", "by", "from", "for", "in", "on", "to", "as", "using", "via", "at", "into", "of")
)
# Trailing words that version or label a name without changing what it does.
_NOISE = frozenset({"v1", "v2", "v3", "v4", "new", "old", "tool", "2", "3"})


@dataclass(frozen=True, eq=False, repr=False)
class NameMeaning:
    """What a tool name says it does: an action, the object's head noun and the other words."""

    action: str  # the verb's group ("get" for fetch_x), the verb itself if unlisted, "" for none
    head: str  # the object's head noun as written (a plural is another object: one item vs a list)
    others: frozenset[str]  # modifiers and qualifiers, singular
    # The first word read as a namespace and set aside (`nfs` of `nfs-snapshot-get`), "" for none: when
    # it is all that tells two names apart, it names what they act on (`volume-snapshot-get`).
    space: str = ""


def name_meaning(words: Sequence[str], namespace: frozenset[str] = frozenset()) -> NameMeaning:
    """Read a name's words as an action on an object, after a first word in `namespace`."""
    space = ""
    if len(words) > 1 and words[0] in namespace and (len(words) > 2 or words[1] in _ACTIONS):
        # `notebook_rename` / `source_rename`: a prefix followed by one word that is no known verb is
        # the object, though it starts many tools.
        space, words = words[0], words[1:]
    words = list(words)
    while len(words) > 1 and words[-1] in _NOISE:
        words.pop()
    action = ""
    prefix: list[str] = []
    verbs = [index for index, word in enumerate(words) if word in _ACTIONS]
    if verbs and verbs[0] == 0:
        action, words = _ACTIONS[words[0]], words[1:]
    elif len(words) > 1 and words[-1] in _ACTIONS:
        action, words = _ACTIONS[words[-1]], words[:-1]
    elif verbs and verbs[0] <= 2:
        # A verb after words the server does not put on every tool: they qualify the action
        # (`batch_update_cells` is not `update_cells`) or name a product (`notion_get_page`).
        prefix = words[: verbs[0]]
        action, words = _ACTIONS[words[verbs[0]]], words[verbs[0] + 1 :]
    cut = next((index for index, word in enumerate(words) if word in _PREPOSITIONS), len(words))
    before, after = words[:cut], words[cut + 1 :]
    head = before[-1] if before else ""
    others = frozenset(singular(word) for word in (*prefix, *before[:-1], *after))
    return NameMeaning(action, head, others, space)


def namespaces(names: Sequence[list[str]]) -> frozenset[str]:
    """First words that prefix a server's tools rather than name an object: `kubectl_get`, `API-get-page`.

    A first word that is not a verb and starts three tools or more (or every tool of a server of two)
    is a namespace: `kubectl_get` and `kubectl_describe` do not act on a "kubectl".
    """
    counts = Counter(words[0] for words in names if len(words) > 1 and words[0] not in _ACTIONS)
    needed = min(3, len(names))
    return frozenset(word for word, count in counts.items() if count >= max(needed, 2))


def _property_key(name: object) -> str:
    return singular(str(name).lower().replace("_", "").replace("-", ""))


def same_inputs(first: Tool, second: Tool) -> bool:
    """Would one call fit both tools: both take nothing, or at least half their parameters agree, and
    neither requires a parameter the other lacks (`release_dates(release_id)` is not `releases_dates()`:
    the model holding an id knows which to call)?"""
    mine = {_property_key(name) for name in first.properties}
    theirs = {_property_key(name) for name in second.properties}
    if not mine and not theirs:
        return True
    required = {_property_key(name) for name in (*first.required, *second.required)}
    if required - (mine & theirs):
        return False
    return len(mine & theirs) * 2 >= len(mine | theirs)


def _raw_words(tool: Tool) -> set[str]:
    """A description's singular words, stop words kept ("all", "each")."""
    return {singular(word) for word in text_tokens(tool.description or "")}


# Words that widen what an action covers: a variant named by one says so when its opening does.
_SCOPE_WORDS = frozenset({"all", "every", "each", "multiple", "many", "batch", "bulk"})


def _opening_words(tool: Tool) -> set[str]:
    """The singular words of a description's first sentence."""
    text = tool.description or ""
    end = min((pos for pos in (text.find(". "), text.find("\n")) if pos >= 0), default=len(text))
    return {singular(word) for word in text_tokens(text[:end])}


def _retired(tool: Tool) -> bool:
    """Whether the description says the tool is deprecated (a shim that points to its replacement)."""
    text = tool.description or ""
    return "deprecat" in text.lower()


def same_meaning(first: NameMeaning, second: NameMeaning) -> bool:
    """The same action on the same object; one name may add words the other lacks, not replace them
    (`read_file` / `read_text_file` are one action, `fetch_html` / `fetch_markdown` alternatives)."""
    if first.action != second.action or first.head != second.head or first.space != second.space:
        return False
    if not (first.head or first.others or second.others):
        return False  # a bare verb on both sides names no object to compare
    return first.others <= second.others or second.others <= first.others


@check_function("ambiguous_tools")
def ambiguous_tools(ctx: CheckContext) -> Iterator[Hit]:
    threshold = float(ctx.options.get("similarity", 0.7))
    name_threshold = float(ctx.options.get("similar-name-similarity", 0.5))
    copy_threshold = float(ctx.options.get("copy-similarity", 0.95))
    tools: list[Tool] = []
    sets: list[frozenset[int]] = []
    for tool in ctx.server.tools:
        text = analysis(tool)
        # Too little text to call two tools alike: "No description" twice is missing-description's finding.
        if len(text.words) < 2 or text.placeholder:
            continue
        tools.append(tool)
        sets.append(text.shingles)
    best: dict[int, tuple[float, int, str]] = {}
    # Singular words of each name (verbs left out: synonyms such as `search_x` / `find_x` set nothing
    # apart) and of each description, computed once per tool that meets a sibling.
    singular_sets: dict[int, tuple[set[str], set[str]]] = {}

    def singulars(position: int) -> tuple[set[str], set[str]]:
        found = singular_sets.get(position)
        if found is None:
            name = {singular(word) for word in name_words(tools[position].name) if word not in _ACTIONS}
            text = {singular(word) for word in analysis(tools[position]).words}
            found = singular_sets[position] = (name, text)
        return found

    def content_words(position: int) -> frozenset[str]:
        # Verbs left out: "Fetch the weather" and "Get the weather" say the same thing.
        return frozenset(word for word in singulars(position)[1] if word not in _ACTIONS)

    def set_apart(first: int, second: int) -> bool:
        (first_name, first_words), (second_name, second_words) = singulars(first), singulars(second)
        return _set_apart(first_name, second_name, first_words, second_words)

    def variant_explained(first: int, second: int, mine: NameMeaning, theirs: NameMeaning) -> bool:
        """Does the longer name's description alone name what its extra words add?

        `list_directory_with_sizes` ("... including sizes") is a variant the model can choose; in
        `read_text_file` / `read_file` both descriptions speak of text, so nothing sets them apart.
        """
        longer, shorter = (first, second) if len(mine.others) > len(theirs.others) else (second, first)
        extra = (mine.others ^ theirs.others) - _PREPOSITIONS
        if extra & (singulars(longer)[1] - singulars(shorter)[1]):
            return True
        # A word the analysis drops as too common ("Reply to all recipients" / "Reply to the sender").
        if extra & (_raw_words(tools[longer]) - _raw_words(tools[shorter])):
            return True
        # The opening sentences, where a reader tells tools apart: "Reply to all recipients of a
        # message" / "Reply to the sender of a message", though "all" comes later in both. Each must
        # say something the other does not: "Read the contents of a text file" / "Read the contents
        # of a file" leaves the plain one open to text files too, unless the word widens the scope
        # ("reply to the sender and all recipients").
        longer_opening, shorter_opening = _opening_words(tools[longer]), _opening_words(tools[shorter])
        said = extra & (longer_opening - shorter_opening)
        return bool(said) and bool(shorter_opening - longer_opening or said & _SCOPE_WORDS)

    def verbs_apart(first: int, second: int) -> bool:
        mine, theirs = meanings[first].action, meanings[second].action
        if not (mine and theirs) or mine == theirs:
            return False
        said = [
            {_ACTIONS[word] for word in text_tokens(tools[side].description or "") if word in _ACTIONS}
            for side in (first, second)
        ]
        return mine in said[0] - said[1] and theirs in said[1] - said[0]

    def worded_apart(first: int, second: int) -> bool:
        """A near copy whose words differ where the names do: "Update an initiative" for
        `updateInitiative`, "Update an initiative update" for `updateInitiativeUpdate`.

        The name that has words the other lacks (counted, so a repeated word counts too) must have
        each of them more often in its own description, and so must the other name if it has any.
        A description copied whole ("Create a new UptimeCheck" for `uptimecheck-alert-create`) says
        nothing of the extra word and stays a copy.
        """
        names = [Counter(name_words(tools[side].name)) for side in (first, second)]
        texts = [Counter(text_tokens(tools[side].description or "")) for side in (first, second)]
        surplus = [names[0] - names[1], names[1] - names[0]]
        if not (surplus[0] or surplus[1]):
            return False
        for mine, theirs in ((0, 1), (1, 0)):
            if any(texts[mine][word] <= texts[theirs][word] for word in surplus[mine]):
                return False
        return True

    def note(first: int, second: int, score: float, reason: str) -> None:
        if tools[first].name == tools[second].name or set_apart(first, second):
            return  # same name: duplicate-tool-name reports it
        if _retired(tools[first]) and _retired(tools[second]):
            return  # two deprecated shims that send the model elsewhere: it is not asked to choose
        for me, other in ((first, second), (second, first)):
            current = best.get(me)
            if current is None or (score, -other) > (current[0], -current[1]):
                best[me] = (score, other, reason)

    words = [name_words(tool.name) for tool in tools]
    namespace = namespaces(words)
    meanings = [name_meaning(name, namespace) for name in words]
    # Copied descriptions, unless the names say different actions (`resources_get` /
    # `resources_delete`): the name then tells the model what the shared sentence does not.
    # Copied descriptions, unless each says its own name's action and not the other's
    # (`resources_get`, "Get a resource ..." / `resources_delete`, "Delete a resource ..."): the one
    # word that differs is the one that matters.
    for first, second, score in similar_pairs(sets, copy_threshold):
        if verbs_apart(first, second) or worded_apart(first, second):
            continue
        note(first, second, score, "the same description")
    # Names that mean the same action on the same object, compared by inputs and description.
    groups: dict[tuple[str, str], list[tuple[int, NameMeaning]]] = {}
    for position, meaning in enumerate(meanings):
        groups.setdefault((meaning.action, meaning.head), []).append((position, meaning))
    for members in groups.values():
        if not 1 < len(members) <= _MAX_GROUP:
            continue
        for (first, mine), (second, theirs) in itertools.combinations(members, 2):
            if not same_meaning(mine, theirs) or not same_inputs(tools[first], tools[second]):
                continue
            if mine.others == theirs.others:
                # Synonyms (`search_x` / `find_x`): sharing half their words is enough.
                score = _jaccard(content_words(first), content_words(second))
                if score >= name_threshold:
                    note(first, second, score, "the same action on the same object, with the same inputs")
            elif not variant_explained(first, second, mine, theirs):
                score = _jaccard(sets[first], sets[second])
                if score >= threshold:
                    note(first, second, score, "a variant of the same action, described alike")
    for me in sorted(best):
        score, other, reason = best[me]
        yield Hit(
            tool=tools[me].name,
            subject=tools[other].name,
            fields={"other": tools[other].name, "similarity": round(score * 100), "reason": reason},
            evidence=f"{tools[me].name} vs {tools[other].name}: {reason}, {round(score * 100)}% similar",
            path="description",
        )
