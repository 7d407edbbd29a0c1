"""Cue families: many cue patterns scanned as one regex whose match says which pattern it is.

The offline jury counts, per family (usage, limitation, example cues, kinds of limitation), which of
its patterns match and in which units. One regex of named alternatives per family finds them in a
single `re` scan; `group_index` reads the pattern's index off a match. Plain `re` throughout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def _top_alternatives(pattern: str) -> list[str]:
    """Split a regex at its top-level `|` (not inside groups or classes)."""
    out: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


def family(patterns: Iterable[str], unspaced: re.Pattern[str]) -> re.Pattern[str]:
    """One scan per cue family: the patterns as named alternatives, so a match says which pattern it
    is (`group_index`). Matched on lower-cased text (IGNORECASE is slow in `re`). Latin
    alternatives are tried only at word starts (one leading `\\b`, so the engine skips mid-word
    positions at once); those with a character `unspaced` finds (CJK, whose words have no
    boundaries), everywhere. The weights were fitted with this reading of the patterns."""
    latin: list[str] = []
    cjk: list[str] = []
    for i, p in enumerate(patterns):
        alts = _top_alternatives(p)
        lat = "|".join(a for a in alts if not unspaced.search(a))
        han = "|".join(a for a in alts if unspaced.search(a))
        if lat:
            latin.append(f"(?P<g{i}>{lat})")
        if han:
            cjk.append(f"(?P<c{i}>{han})")
    parts = ([r"\b(?:" + "|".join(latin) + ")"] if latin else []) + cjk
    return re.compile("|".join(parts))


def group_index(m: re.Match[str]) -> int:
    """The index, in the patterns given to `family`, of the pattern `m` matched."""
    return int((m.lastgroup or "g0")[1:])
