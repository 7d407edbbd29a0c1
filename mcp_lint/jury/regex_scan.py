"""Cue families: many cue patterns scanned as one regex whose match says which pattern it is.

The offline jury counts, per family (usage, limitation, example cues, kinds of limitation), which of
its patterns match and in which units. One regex per family finds them in a single `re` scan, and
each match says which pattern it is (`Family.finditer`). Plain `re` throughout.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple


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


class Hit(NamedTuple):
    """A match of a `Family`: where it starts and ends, and which of the family's patterns it is."""

    start: int
    end: int
    pattern: int  # its index in the patterns given


def _no_leading_boundary(alternative: str) -> str:
    """An alternative tried right after a `\\b` needs no `\\b` of its own at its start (the same
    assertion at the same position), and without it `re` can skip the alternative on its first
    character."""
    return alternative[2:] if alternative.startswith(r"\b") else alternative


def presence(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """A regex that matches somewhere in a text exactly when `pattern` does, for `search(...) is not
    None`: the top-level alternatives that start with `\\b` gathered behind one `\\b` (the order
    of alternatives decides which match is found, not whether there is one), so that `re` skips
    most of them on their first character."""
    alternatives = _top_alternatives(pattern.pattern)
    bounded = [a[2:] for a in alternatives if a.startswith(r"\b")]
    if len(bounded) < 2:
        return pattern
    rest = [a for a in alternatives if not a.startswith(r"\b")]
    return re.compile("|".join([r"\b(?:" + "|".join(bounded) + ")", *rest]), pattern.flags)


class Family:
    """One scan per cue family: the patterns as one alternation, a match of which names the pattern
    it is. Matched on lower-cased text (IGNORECASE is slow in `re`). Latin alternatives are tried
    only at word starts (one leading `\\b`, so the engine skips mid-word positions at once); those
    with a character `unspaced` finds (CJK, whose words have no boundaries), everywhere, after the
    Latin ones. The weights were fitted with this reading of the patterns.

    The alternation has no groups: a group around each pattern (to read which one matched off the
    match) makes `re` enter every alternative at every word start, where an alternative that starts
    with a literal is skipped on its first character. So a match is scanned for without them, then
    told apart by trying the patterns one by one where it starts, in the alternation's order (the
    first that matches there is the one the alternation took; matches are few)."""

    def __init__(self, patterns: Iterable[str], unspaced: re.Pattern[str]) -> None:
        latin: list[tuple[int, str]] = []
        cjk: list[tuple[int, str]] = []
        for i, p in enumerate(patterns):
            alts = _top_alternatives(p)
            lat = [a for a in alts if not unspaced.search(a)]
            han = [a for a in alts if unspaced.search(a)]
            if lat:
                latin.append((i, "|".join(_no_leading_boundary(a) for a in lat)))
            if han:
                cjk.append((i, "|".join(han)))
        scan = ([r"\b(?:" + "|".join(p for _, p in latin) + ")"] if latin else []) + [p for _, p in cjk]
        self.scan = re.compile("|".join(scan))
        # each pattern on its own, compiled when a match first needs it (a lint that never meets a
        # pattern's predecessors' cues does not pay for compiling them)
        self._sources = tuple((i, r"\b(?:" + p + ")") for i, p in latin) + tuple(cjk)
        self._parts: list[Callable[[str, int], re.Match[str] | None] | None] = [None] * len(self._sources)

    def _which(self, text: str, start: int) -> int:
        """The index of the first pattern that matches `text` at `start`."""
        parts = self._parts
        for k, (index, source) in enumerate(self._sources):
            match = parts[k]
            if match is None:
                match = parts[k] = re.compile(source).match
            if match(text, start):
                return index
        raise AssertionError("a family match that no pattern of the family makes")

    def finditer(self, text: str) -> list[Hit]:
        """The family's matches in `text`, as `finditer` over the alternation of its patterns finds
        them, each with the index (in the patterns given) of the pattern it is."""
        return [Hit(m.start(), m.end(), self._which(text, m.start())) for m in self.scan.finditer(text)]

    def search(self, text: str) -> bool:
        """Some pattern of the family matches in `text`."""
        return self.scan.search(text) is not None


def family(patterns: Iterable[str], unspaced: re.Pattern[str]) -> Family:
    """The patterns as one `Family` scan."""
    return Family(patterns, unspaced)
