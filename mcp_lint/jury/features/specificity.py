"""Specificity: a sentence earns coverage only by saying something about *this* tool.

Word lists always have edges (any ordinary word outside them made filler count), so the test is
not another list. A unit is specific when it carries a token the tool itself vouches for: a word
of its name or of its input schema (property names, their descriptions, titles and enum values),
or a literal no filler carries by accident (a number, a quoted or code span, an identifier such
as `snake_case`, `camelCase` or `a.b`, a path, an acronym, a capitalised name mid-sentence). A
unit that shares a word with a specific unit is specific too (the domain's nouns spread from the
sentences that name the tool's things), and a heading, a list item or a line continuing a
sentence stands or falls with the sentence it belongs to. Generic filler, made of ordinary words
the tool never uses, has none of these, so it is dropped like boilerplate however it is phrased.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Iterable, Sequence
from itertools import chain, compress
from typing import Any

from mcp_lint.jury.features.lexicon import STOPWORDS, is_bullet
from mcp_lint.jury.features.schema import _schema_texts
from mcp_lint.jury.features.tokens import _NOT_NAME_ANCHOR, _specific_stems, _stem, tokens
from mcp_lint.jury.features.unitmemo import (
    MEMO_SIZE,
    SELF_SPECIFIC,
    anchorable_stems,
    has_literal,
    specific_stems,
    unit_words,
)
from mcp_lint.jury.siblings import SiblingNames
from mcp_lint.lazyre import lazy
from mcp_lint.words import name_words

_SELF_SPECIFIC = SELF_SPECIFIC  # a literal of the unit's own (see `unitmemo`)
# A line that continues an unterminated sentence starts, whitespace aside, with one of these (what
# `^\s*[a-z(]` matches: a look-up, not a regex call per unit).
_CONTINUES = frozenset("abcdefghijklmnopqrstuvwxyz(")
_STOPS = frozenset(".!?。！？")
_CLOSERS = frozenset("'\"”’)")
# a heading, a fence or an "e.g." cut off by the sentence splitter: the unit after it belongs to it
_INTRO = lazy(r"[:：]\s*$|^\s*```|\b(?:e\.g|i\.e)\.\s*$", re.IGNORECASE)
_E_OR_G = frozenset("eEgG")  # what `(?:e\.g|i\.e)` ends with, case-insensitively


def _is_intro(unit: str) -> bool:
    """`_INTRO.search(unit) is not None` without the search where its alternatives are plain string
    tests: the regex scans the whole unit for an ending. What `\\s` matches is what `str.strip` strips,
    and `$` (at the end, or before a final newline) ends a `\\s*` run either way."""
    end = unit.rstrip()
    if end[-1:] in ("：", ":") or unit.lstrip().startswith("```"):  # [:：]\s*$ or ^\s*```
        return True
    # \b(?:e\.g|i\.e)\.\s*$ is left to the regex (its word boundary and case-folding), asked only of a
    # unit that ends with ".g." or ".e." (one in 25 units ends with "e." as "page." does, and the
    # search, case-folded at every position, costs ten times the rest of this test)
    return end[-1:] == "." and end[-2:-1] in _E_OR_G and end[-3:-2] == "." and _INTRO.search(unit) is not None


def _is_terminated(unit: str) -> bool:
    """The unit ends, whitespace aside, with a stop or a stop and a closing mark: what
    `[.!?。！？]['"”’)]?\\s*$` finds, without the regex's scan of the whole unit for a stop (`\\s` is
    what `str.rstrip` strips)."""
    end = unit.rstrip()
    last = end[-1:]
    return last in _STOPS or (last in _CLOSERS and end[-2:-1] in _STOPS)


_NO_STEMS: frozenset[str] = frozenset()


def name_domain(name: str) -> frozenset[str]:
    """The domain nouns a tool's name gives its siblings: the objects it is named after ("staged" of
    git_diff_staged), not its leading verb; generic words ("info", "data") are left out."""
    words = name_words(name)
    return _specific_stems(" ".join(words[1:])) if len(words) > 1 else _NO_STEMS


class DomainIndex:
    """The domain nouns of every name of one server, each counted by the names that give it: built
    once per server, so that a tool's domain (the nouns of all the other names) is a look-up, not a
    pass over its siblings. `names` are distinct."""

    def __init__(self, names: Iterable[str]) -> None:
        self.own: dict[str, frozenset[str]] = {}
        self.counts: dict[str, int] = {}
        counts = self.counts
        for name in names:
            stems = self.own[name] = name_domain(name)
            for stem in stems:
                counts[stem] = counts.get(stem, 0) + 1

    def given_by_others(self, stem: str, name: str) -> bool:
        """`stem` is a domain noun of a name other than `name`."""
        count = self.counts.get(stem, 0)
        return count > 1 or (count == 1 and stem not in self.own.get(name, _NO_STEMS))


class Domain:
    """The server's domain nouns, the objects its other tools are named after, for a text that names
    nothing of its own tool ("Unstages all staged changes" is about git_reset, a sibling of
    git_diff_staged): the union of `name_domain` over the siblings.

    Only a text with nothing specific of its own asks, so nothing is computed before the first
    question. Siblings given as a server's view (`SiblingNames`, what the jury stage passes) are
    answered from the server's `DomainIndex`, built once for all its tools; any other sequence is
    read once, on the first question."""

    __slots__ = ("_index", "_name", "_siblings", "_stems")

    def __init__(self, name: str, siblings: Sequence[str]) -> None:
        self._name = name
        self._siblings = siblings
        self._index: DomainIndex | None = None
        self._stems: frozenset[str] | None = None

    def __contains__(self, stem: object) -> bool:
        if not isinstance(stem, str):
            return False
        if self._index is None and self._stems is None:
            siblings = self._siblings
            # (the type first: `isinstance` of an ABC's subclass runs the ABC's Python-level check)
            if type(siblings) is SiblingNames or isinstance(siblings, SiblingNames):
                self._index = siblings.server.derived(DomainIndex)
                self._name = siblings.name
            else:
                self._stems = frozenset().union(*map(name_domain, siblings))
        if self._index is not None:
            return self._index.given_by_others(stem, self._name)
        return self._stems is not None and stem in self._stems


class _Stems:
    """A set of stems a unit's stems are matched against (see `Anchors.match`), prepared for it."""

    __slots__ = ("long", "long5", "stems")

    def __init__(self, stems: set[str] | frozenset[str]) -> None:
        self.stems = frozenset(stems)
        # the stems of 4+ letters, sorted: they also match a longer word (see `match`) ...
        # (list comprehensions: one call each, where a generator is resumed once per stem)
        self.long = tuple(sorted([s for s in stems if len(s) >= 4]))
        # ... and those of 5+ letters, which also match as the end of a word
        self.long5 = tuple([s for s in self.long if len(s) >= 5])

    def match(self, stems: Iterable[str]) -> bool:
        own, long, long5 = self.stems, self.long, self.long5
        for stem in stems:
            if stem in own:
                return True
            if len(stem) >= 4:
                # `long` is sorted, so the long stems that start with `stem` start at its insertion point
                at = bisect.bisect_left(long, stem)
                if (
                    (at < len(long) and long[at].startswith(stem))
                    or stem.startswith(long)
                    or stem.endswith(long5)
                ):
                    return True
        return False


class Anchors:
    """The stems of the words a tool vouches for: its name's (but for a leading verb) and its input
    schema's. They are read off the name and schema when first asked for (a `Tool`'s schema never
    changes), the name's first: a tool whose units all carry a literal of their own never asks (a
    third of the calibration tools), and half of those that ask are answered by the name's stems
    alone, without the walk through the schema and the stems of its texts."""

    __slots__ = ("_name_own", "_name_stems", "_schema_own", "domain", "name", "said", "schema")

    def __init__(self, name: str, schema: Any, siblings: Sequence[str] = ()) -> None:
        self.name = name  # the tool's name: restating it ("# get_weather") is no literal of the text's own
        self.schema = schema
        # the nouns of the server's other tools' names: tested only when nothing else is specific, so
        # filler that happens to use one cannot make a text count that already says something
        self.domain = Domain(name, siblings)
        # unit -> `_says_specific(unit, self)`: a tool's texts (the propose stage's candidates) repeat units
        self.said: dict[str, bool] = {}
        self._name_own: _Stems | None = None
        self._schema_own: _Stems | None = None
        self._name_stems: frozenset[str] | None = None

    @classmethod
    def of(cls, name: str, schema: Any, siblings: Sequence[str] = ()) -> Anchors:
        return cls(name, schema, siblings)

    def name_own(self) -> _Stems:
        """The name's objects, not its leading verb ("get" of get_weather is in any filler). They
        anchor even when generic elsewhere: "task" is filler in most texts but the domain of
        get_next_task. Read on the first call."""
        if self._name_own is None:
            words = name_words(self.name)
            self._name_own = _Stems(
                _specific_stems(" ".join(words[1:] if len(words) > 1 else words), _NOT_NAME_ANCHOR)
            )
        return self._name_own

    def schema_own(self) -> _Stems:
        """The stems of the schema's texts (property names, descriptions, titles, enum values), read on
        the first call."""
        if self._schema_own is None:
            # the texts' stems in one tokenisation: no token runs across the space that joins two texts
            self._schema_own = _Stems(_specific_stems(" ".join(_schema_texts(self.schema))))
        return self._schema_own

    @property
    def stems(self) -> frozenset[str]:
        """Every stem the tool vouches for: its name's and its schema's."""
        return self.name_own().stems | self.schema_own().stems

    @property
    def long(self) -> tuple[str, ...]:
        """The stems of 4+ letters, sorted."""
        return tuple(sorted(s for s in self.stems if len(s) >= 4))

    @property
    def name_stems(self) -> frozenset[str]:
        """Every word of the name, its verb and rubric words included (delete_note: delete, note):
        what a text that names nothing stronger is tested against."""
        if self._name_stems is None:
            self._name_stems = frozenset(_stem(w) for w in name_words(self.name) if w not in STOPWORDS)
        return self._name_stems

    def match(self, stems: Collection[str]) -> bool:
        """A stem is the tool's, or (4+ letters) starts with a long stem of the tool's or starts one
        ("repo" and "repository"), or ends with one of 5+ letters ("board" in "chessboard"): a 4-letter
        stem only as a prefix ("rang" is in "arrang"). Each test pairs one stem with one of the tool's,
        so the name's stems are tried first and the schema's only when they do not match."""
        # (the prepared stems read directly once made: each unit of each tool asks)
        if (self._name_own or self.name_own()).match(stems):
            return True
        return (self._schema_own or self.schema_own()).match(stems)


def specific_units(
    units: Sequence[str],
    anchors: Anchors,
    groups: Sequence[Sequence[int]] | None = None,
    keys: Sequence[str] | None = None,
) -> frozenset[int]:
    """Indices of the units of a text that say something specific to the tool (see above); `groups`
    is `_groups(units)` and `keys` each unit's tokens without a list marker, joined by spaces, when
    the caller has them."""
    if not units:
        return frozenset()
    if groups is None:
        groups = _groups(units)
    if keys is None:
        keys = [unit_words(unit).key for unit in units]
    # a copy of an earlier unit (bulleted, numbered, in another case) is neutral: it neither makes
    # its group specific nor spreads its words back to the original
    copies: set[int] = set()
    if len(set(keys)) < len(keys):  # (most texts repeat nothing)
        firsts: set[str] = set()
        for i, key in enumerate(keys):
            if key and key in firsts:
                copies.add(i)
            firsts.add(key)
    # (loops, not `any` over a generator per group: a verdict reads every group of every text)
    specific: list[bool] = []
    for group in groups:
        found = False
        for i in group:
            if i not in copies and _says_specific(units[i], anchors):
                found = True
                break
        specific.append(found)
    if not any(specific):
        # Nothing names the tool's objects or literals: fall back on every word of its name, a label
        # ("Note:") aside, so "Delete a note by title" still speaks of delete_note, and on the nouns
        # of its siblings' names. Nothing at all: as good as no description.
        name_stems, domain = anchors.name_stems, anchors.domain
        specific = [
            any(
                i not in copies and any(s in name_stems or s in domain for s in _named_stems(units[i]))
                for i in group
            )
            for group in groups
        ]
        if not any(specific):
            return frozenset()
    if all(specific):  # nothing left to spread to, so no unit's words are needed
        return frozenset(range(len(units)))  # (the groups partition the units' indices)
    stems = [_NO_STEMS if i in copies else specific_stems(unit) for i, unit in enumerate(units)]
    # (the units' stems gathered by `map` and `compress` in C, not a generator per group)
    group_stems = [set().union(*map(stems.__getitem__, group)) for group in groups]
    spread: set[str] = set().union(*compress(group_stems, specific))
    changed = True
    while changed:  # a unit sharing a word with a specific one is about the same things
        changed = False
        for k, ok in enumerate(specific):
            if not ok and group_stems[k] & spread:
                specific[k] = changed = True
                spread |= group_stems[k]
    return frozenset(chain.from_iterable(compress(groups, specific)))  # (the specific groups' units)


_LABEL = lazy(r"^\W*\w+\s*[:：]")


def _named_stems(unit: str) -> set[str]:
    """Stems of a unit's words but for a leading label, for the fallback on the name's words."""
    return {_stem(t) for t in tokens(_LABEL.sub(" ", unit, count=1)) if t not in STOPWORDS}


def _says_specific(unit: str, anchors: Anchors) -> bool:
    """A unit that carries a token of its own specific to the tool (not one spread from another)."""
    said = anchors.said
    found = said.get(unit)
    if found is None:
        if len(said) >= MEMO_SIZE:
            said.clear()
        found = said[unit] = _unit_says_specific(unit, anchors)
    return found


def _unit_says_specific(unit: str, anchors: Anchors) -> bool:
    # restating an identifier name ("# get_weather") is no literal of the text's own; a one-word name
    # ("show") used as a word in a sentence is just the word
    if anchors.name and not anchors.name.isalpha() and anchors.name in unit:
        unit = unit.replace(anchors.name, " ")
    # CJK prose is not tested (one token per character); the tool's own words count even when
    # generic elsewhere ("tasks" for get_next_task)
    return has_literal(unit) or anchors.match(anchorable_stems(unit))


def _groups(units: Sequence[str]) -> list[list[int]]:
    """Units grouped as the sentences they belong to: a heading or fence with the unit after it, a
    list with its intro, a line with the lines that continue it."""
    groups: list[list[int]] = []
    for i, unit in enumerate(units):
        prev = units[i - 1] if i else ""
        # a list item belongs to the list's intro ("Returns:" / "It includes:"), not to a sentence
        joins = bool(groups) and (
            _is_intro(prev)
            or (is_bullet(unit) and is_bullet(prev) and _is_intro(units[groups[-1][0]]))
            or (unit.lstrip()[:1] in _CONTINUES and not _is_terminated(prev))
        )
        if joins:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups
