"""Cue families (`regex_scan.py`): one regex per family finds, match for match, what its patterns
find on their own (each Latin one from a word start), and says which pattern matched."""

from __future__ import annotations

import random
import re

from jury_support import sample_texts

from mcp_lint.jury.features import lexicon as F
from mcp_lint.jury.features.cues import EXPLICIT_CUES
from mcp_lint.jury.features.vector import FEATURE_NAMES
from mcp_lint.jury.regex_scan import _top_alternatives, family, presence


def test_top_alternatives_split_outside_groups_and_classes_only() -> None:
    assert _top_alternatives(r"a|b(?:c|d)|[|x]|\|e") == ["a", "b(?:c|d)", "[|x]", r"\|e"]
    for pattern in (*F.USAGE_CUES, *F.LIMIT_CUES, *F.EXAMPLE_CUES, *F.LIMIT_KINDS):
        assert "|".join(_top_alternatives(pattern)) == pattern


def _first_at(patterns: list[re.Pattern[str]], text: str, pos: int) -> tuple[int, int] | None:
    """(pattern index, end) of the first pattern that matches at `pos`, as the alternation tries them."""
    for i, regex in enumerate(patterns):
        m = regex.match(text, pos)
        if m is not None:
            return i, m.end()
    return None


def _check_family(patterns: tuple[str, ...], texts: list[str]) -> None:
    """Each family match starts where some pattern matches, is the match of the first pattern (in the
    family's order: Latin alternatives before CJK ones) that matches there, and the scan resumes
    after it, as `finditer` over the alternation of the patterns would."""
    joined = family(patterns, F.CJK)
    latin: list[tuple[int, re.Pattern[str]]] = []
    cjk: list[tuple[int, re.Pattern[str]]] = []
    for i, p in enumerate(patterns):
        alts = _top_alternatives(p)
        lat = [a for a in alts if not F.CJK.search(a)]
        han = [a for a in alts if F.CJK.search(a)]
        if lat:
            latin.append((i, re.compile(r"\b(?:" + "|".join(lat) + ")")))
        if han:
            cjk.append((i, re.compile("|".join(han))))
    order = latin + cjk
    for text in texts:
        pos = 0
        want: list[tuple[int, int, int]] = []
        while pos <= len(text):
            found = _first_at([r for _, r in order], text, pos)
            if found is None:
                pos += 1
                continue
            k, end = found
            want.append((pos, end, order[k][0]))
            pos = end if end > pos else pos + 1
        got = [(h.start, h.end, h.pattern) for h in joined.finditer(text)]
        assert got == want, (text[:80], got[:5], want[:5])


def test_cue_families_match_their_patterns_one_by_one() -> None:
    texts = [t.lower() for t in sample_texts()[::7]]
    rng = random.Random(5)
    words = [
        "use",
        "it",
        "when",
        "you",
        "need",
        "do",
        "not",
        "only",
        "returns",
        "max",
        "5",
        "e.g.",
        "例如",
        "仅",
        "失败",
        "note:",
        "instead",
        "of",
        "fails",
    ]
    texts += [" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(300)]
    for patterns in (F.USAGE_CUES, F.LIMIT_CUES, F.EXAMPLE_CUES, F.LIMIT_KINDS):
        _check_family(patterns, texts)


def test_limit_kinds_are_named_in_feature_order() -> None:
    kinds = [n for n in FEATURE_NAMES if n in F.LIMIT_KIND_NAMES]
    assert (
        kinds
        == list(F.LIMIT_KIND_NAMES)
        == ["lim_scope", "lim_fail", "lim_quant", "lim_negation", "lim_prereq", "lim_effect", "lim_note"]
    )


def test_presence_regexes_match_where_their_patterns_do() -> None:
    """`presence` reorders a pattern's alternatives: it must find a match in exactly the texts the
    pattern finds one in (explicit cues, searched on whole texts and on each of their units)."""
    texts = [t.lower() for t in sample_texts()]
    units = [u for t in texts[::3] for u in t.split("\n")]
    extra = ["when to use: x", "use this tool when you need it", "max 5 items", "for example: {", "e.g"]
    assert any(presence(cue).pattern != cue.pattern for cue in EXPLICIT_CUES.values())  # some rewritten
    for cue in EXPLICIT_CUES.values():
        fast = presence(cue)
        for text in (*texts, *units, *extra):
            assert (fast.search(text) is None) == (cue.search(text) is None), (cue.pattern[:40], text[:80])
