"""Sentence analysis: a text split into units (sentences and lines), de-repeated, with boilerplate,
restatements and units not specific to the tool dropped (`_UnitState`), and what the kept units
add (`Units`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from operator import attrgetter

from mcp_lint.jury.features.lexicon import (
    _SENT_SPLIT_NO_CJK_STOP,
    PARAM_LINE,
    SENT_SPLIT,
    WORD,
)
from mcp_lint.jury.features.specificity import Anchors, specific_units
from mcp_lint.jury.features.tokens import tokens
from mcp_lint.jury.features.unitmemo import unit_words
from mcp_lint.lazyre import lazy


# A plain class with a written `__init__`, not a dataclass: making a dataclass `exec`s generated source
# at import (every default lint pays it), and nothing compares, hashes or prints it (identity
# equality, `object`'s repr). Not frozen, though never changed once made: a frozen `__init__` (an
# `object.__setattr__` per field) costs several times a plain one's, and one is made per tool scored.
class Units:
    """The informative, de-duplicated units of a text and what they add."""

    __slots__ = ("filler", "kept", "novel", "vocab")
    kept: tuple[str, ...]  # informative units, duplicates (same word sequence) removed, in order
    novel: int  # kept units that add >= 1 content token not seen in an earlier unit
    vocab: frozenset[str]  # distinct content tokens over kept units
    filler: int  # distinct units dropped as boilerplate

    def __init__(self, kept: tuple[str, ...], novel: int, vocab: frozenset[str], filler: int) -> None:
        self.kept = kept
        self.novel = novel
        self.vocab = vocab
        self.filler = filler


def split_units(text: str) -> list[str]:
    """The text's units: the pieces the sentence splitter leaves, stripped, the empty ones dropped."""
    cjk_stop = "。" in text or "！" in text or "？" in text or "；" in text
    splitter = SENT_SPLIT if cjk_stop else _SENT_SPLIT_NO_CJK_STOP
    if "\n" in text:
        # Each line's margin (the whitespace after a newline) dropped first: the same units, without
        # the splitter's attempt at every space of an indented margin (a third of the schema docs'
        # spaces; none is ever split at). Exact: a newline always ends a unit (its own alternative
        # matches there unless an earlier match took it), and no alternative matches at a margin
        # space, since each needs a stop, a closing mark or a word character before its whitespace,
        # or is the newline run; so a margin only ever opens a unit, whose strip drops it.
        # (tests/jury/test_unitmemo.py holds it to the split of the text as given.)
        text = "\n".join(map(str.lstrip, text.split("\n")))
    # (the pieces stripped and the empty ones dropped in C loops, no interpreted step per piece; the
    # splitters have no group, so every piece is a string)
    return list(filter(None, map(str.strip, splitter.split(text))))


def strip_repetition(text: str) -> str:
    """If the whole text is k >= 2 copies of one block (whatever separates them), keep one copy.

    Unit-level de-duplication already neutralises repeated sentences; this catches the case where a
    copy is glued to an unterminated last sentence ("... last line First sentence ..."), which would
    otherwise form a new unit.
    """
    low = text.lower()
    # k >= 2 copies repeat the first word, so a first word that occurs once rules out a repetition
    # without listing every word (the common case)
    first = WORD.search(low)
    if first is None or low.count(first.group()) < 2:
        return text
    words = tokens(text) if text.isascii() else WORD.findall(low)  # (the same words, faster)
    n = len(words)
    if n < 2:
        return text
    for period in range(1, n // 2 + 1):
        # (a period's copy starts with the first word: tested before the copies are built)
        if n % period == 0 and words[period] == words[0] and words == words[:period] * (n // period):
            matches = list(WORD.finditer(text))
            return text[: matches[period].start()]
    return text


_LIST_NUMBER = re.compile(r"\s*\d{1,3}[.)]\s*")  # "1." split off its item by the sentence splitter
# A heading line ("Returns:", "## Examples") made of vacuous words introduces what follows it: it is
# kept only when a unit after it in the same text is.
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S.*|[^\n]{1,40}[:：])\s*$")
# A unit that opens with a label announcing a restatement or an aside ("Note:", "In other words,").
_LABELLED = lazy(
    r"^\s*(?:\*\*)?(?:notes?|important|remember|reminder|tip|summary|tl;?dr|in other words|in short|"
    r"again|basically|essentially|to summari[sz]e)\b",
    re.IGNORECASE,
)
# What keeps a unit that says no more than the tool's name or, behind a label, than the units before
# it: a literal, a negation or a restriction ("Note: only 100 per page", "This does NOT delete").
_KEEPS_RESTATEMENT = lazy(
    r"[(=`\"'\d]|\b(?:not|no|never|only|cannot|can't|don't|doesn't|without|unless|except)\b", re.IGNORECASE
)


_NAME_WORD = lazy(r"[^\W_]+")
_KEY = attrgetter("key")  # a `UnitWords`' key


def _is_heading(unit: str) -> bool:
    """`_HEADING.match(unit) is not None`, tried only on a unit with a "#" or a colon, which a heading
    has: the regex backtracks through up to 40 characters of any unit looking for a colon."""
    return ("#" in unit or ":" in unit or "：" in unit) and _HEADING.match(unit) is not None


# (a plain class, as `Units` is; changed in place by `add`)
class _UnitState:
    """De-duplication state carried from the description into appended prose (schema docs)."""

    __slots__ = ("anchors", "filler", "name_words", "novel", "seen", "specific", "specific_words", "vocab")
    seen: set[str]
    filler: set[str]
    vocab: set[str]
    novel: int
    # the specific words (content words that are not VACUOUS) of each kept unit
    specific: set[frozenset[str]]
    # the words of the tool's name: once a unit is kept, one that says no more than the name restates it
    name_words: frozenset[str]
    # every specific word of the kept units
    specific_words: set[str]
    # what the tool vouches for; None (a text on its own) skips the specificity test
    anchors: Anchors | None

    def __init__(
        self,
        seen: set[str],
        filler: set[str],
        vocab: set[str],
        novel: int = 0,
        specific: set[frozenset[str]] | None = None,
        name_words: frozenset[str] = frozenset(),
        specific_words: set[str] | None = None,
        anchors: Anchors | None = None,
    ) -> None:
        self.seen = seen
        self.filler = filler
        self.vocab = vocab
        self.novel = novel
        self.specific = set() if specific is None else specific  # a new set each (default_factory=set)
        self.name_words = name_words
        self.specific_words = set() if specific_words is None else specific_words
        self.anchors = anchors

    def copy(self) -> _UnitState:
        return _UnitState(
            set(self.seen),
            set(self.filler),
            set(self.vocab),
            self.novel,
            set(self.specific),
            self.name_words,
            set(self.specific_words),
            self.anchors,
        )

    def add(
        self, units: Iterable[str], *, appended: bool = False, groups: Sequence[Sequence[int]] | None = None
    ) -> list[str]:
        """Keep the informative units; `appended` prose (the schema's docs) has no title to drop.
        `groups` is `specificity._groups(units)` when the caller has it."""
        kept: list[str] = []
        headings: list[tuple[str, str, frozenset[str]]] = []  # vacuous headings waiting for a kept unit
        seen, filler = self.seen, self.filler
        # appended prose is the schema's own documentation: specific by construction
        units = list(units)
        facts = list(map(unit_words, units))  # (C loops, where a comprehension is a call and a step per unit)
        words = list(map(_KEY, facts))
        about_tool = (
            None if appended or self.anchors is None else specific_units(units, self.anchors, groups, words)
        )
        passed_over = False  # a unit with content was dropped as not specific to the tool
        for index, unit in enumerate(units):
            fact = facts[index]
            item = fact.item
            size = fact.size  # the item's tokens
            # (a list number's item is 1-3 digits, which are one to three tokens: the regex is asked
            # only of such an item)
            if 0 < size <= 3 and _LIST_NUMBER.fullmatch(item):
                continue
            key = words[index] if size else item.strip()
            if key in seen or key in filler:
                continue
            if about_tool is not None and index not in about_tool:  # says nothing about this tool
                filler.add(key)
                passed_over = passed_over or bool(fact.specific)
                continue
            # A unit without a word says nothing, whether decoration ("- ✅", "---") or a bare line of
            # code ("```", "{", "});"): the code inside a fence is what counts.
            if not size:
                filler.add(key)
                continue
            content = fact.content
            if not content:  # boilerplate: only stopwords and generic words
                filler.add(key)
                continue
            specific = fact.specific
            if not specific:  # "Returns the result.", "Note: results may vary."
                # a heading before anything was kept is a title ("## Overview"), not structure
                if _is_heading(unit) and (appended or self.specific):
                    if all(key != k for _, k, _ in headings):
                        headings.append((unit, key, content))
                else:
                    filler.add(key)
                continue
            if specific <= self.name_words and _is_heading(unit):  # a title: "# get_weather"
                filler.add(key)
                continue
            # restates an earlier unit ("Note: <an earlier sentence>"); or, after the first, says no
            # more than the name ("Use this tool to get weather." for get_weather) or, behind a label,
            # than the units before it ("Note: <half an earlier sentence>") - unless it documents a
            # parameter ("city: Name of the city"), is a list item, a negation or restriction, or
            # carries a literal: "- Formatted address", "Note: only 10 calls a day"
            # (`_restates` is asked only of a unit whose words the name or the kept units all give:
            # its first test, here without a call for the many units that say something new)
            if specific in self.specific or (
                (self.specific or passed_over)
                and item == unit
                and (specific <= self.name_words or specific <= self.specific_words)
                and self._restates(unit, specific)
            ):
                seen.add(key)
                continue
            if headings:  # (most kept units have none waiting)
                for heading, heading_key, heading_content in headings:
                    self._keep(kept, heading, heading_key, heading_content)
                headings.clear()
            self._keep(kept, unit, key, content)
            self.specific.add(specific)
            self.specific_words |= specific
        return kept

    def _restates(self, unit: str, specific: frozenset[str]) -> bool:
        """`unit`, not the first, says no more than the name or, behind a label, than the units before
        it, and is no parameter line, negation, restriction or literal (see `add`)."""
        names_only = specific <= self.name_words
        if not names_only and not specific <= self.specific_words:  # says something new: no label needed
            return False
        labelled = _LABELLED.match(unit) is not None
        return (
            (names_only or labelled)
            and not _KEEPS_RESTATEMENT.search(self._without_name(unit))
            and (labelled or PARAM_LINE.match(unit) is None)
        )

    def _without_name(self, unit: str) -> str:
        """`unit` without the words of the tool's name: a digit in the name ("base64") is not a
        literal of the unit's own."""
        words = self.name_words
        return _NAME_WORD.sub(lambda m: " " if m.group().lower() in words else m.group(), unit)

    def _keep(self, kept: list[str], unit: str, key: str, content: frozenset[str]) -> None:
        self.seen.add(key)
        kept.append(unit)
        if not content <= self.vocab:  # a unit that says nothing new adds no sentence count
            self.novel += 1
            self.vocab |= content


def informative_units(text: str, extra: str = "") -> Units:
    """Informative units of `text` (de-repeated), then of `extra` (e.g. rendered schema docs)."""
    state = _UnitState(set(), set(), set())
    kept = state.add(split_units(strip_repetition(text)))
    kept += state.add(split_units(extra), appended=True)
    return Units(tuple(kept), state.novel, frozenset(state.vocab), len(state.filler))
