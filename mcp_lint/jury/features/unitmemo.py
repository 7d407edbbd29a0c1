"""What the offline jury derives from one unit (a sentence or line) on its own, computed once per
distinct unit text.

The same units recur: a proposal's candidates all start with the original description and end with
templated parts ("It only reads, so it is safe to call to look things up."), the schema's rendered
docs repeat under every text of a tool, and one analysis reads a unit's words up to three times (the
filler test, the specificity test and its fallback). Everything here is a pure function of the
unit's text, so a memo keyed by the text returns exactly what computing it again would.

Each memo is bounded (emptied when full) and `clear` empties them all (benchmarks start each
repetition from nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import filterfalse
from typing import Any, TypeVar

from mcp_lint.jury.features.lexicon import _LIST_MARKER, CJK, VACUOUS
from mcp_lint.jury.features.tokens import (
    _FUNCTION_WORDS,
    _NOT_CONTENT,
    _NOT_NAME_ANCHOR,
    _NOT_SPECIFIC,
    _stem,
    _stems_of,
    tokens,
)
from mcp_lint.lazyre import lazy

MEMO_SIZE = 8192

# A literal no filler carries by accident: an identifier (`snake_case`, `camelCase`, `a.b`), a
# number, an acronym, a quoted or code span, a path (see `specificity`). `SELF_SPECIFIC` joins the
# alternatives, and a search of the joined regex tries all ten at every position of a text, the
# slowest step of the unit filter. So `has_literal` searches them one by one (a search finds a match
# exactly when one of the alternatives matches somewhere), each behind a gate: a pattern the
# alternative cannot match without, which sre finds by scanning for its first character ("" for
# none). Same answer (tests/jury/test_unitmemo.py) in less than half the time.
_UPPER_AFTER_LETTER = r"[A-Z](?<=[A-Za-z][A-Z])"  # needed by camelCase and acronyms
_LITERAL_PARTS: tuple[tuple[str, str], ...] = (  # (gate, alternative)
    ("_", r"\b[A-Za-z0-9]+_\w+"),
    ("", r"\d"),
    (_UPPER_AFTER_LETTER, r"\b[A-Z]{2,}\b"),
    (_UPPER_AFTER_LETTER, r"\b[A-Za-z]*[a-z][A-Z]\w*"),
    ('"', r"(?<!\w)\"[^\"\n]+\""),
    ("'", r"(?<!\w)'[^'\n]+'(?!\w)"),
    ("`", r"`[^`\n]+`"),
    ("“", r"“[^”\n]+”"),
    ("", r"[/\\]\w"),
    (r"\.\w", r"\b\w{2,}\.\w{2,}\b"),
)
SELF_SPECIFIC = lazy("|".join(pattern for _, pattern in _LITERAL_PARTS))
_GATED_LITERALS = tuple((lazy(gate) if gate else None, lazy(pattern)) for gate, pattern in _LITERAL_PARTS)
# A capitalised word after a lower-case word or a comma: a name ("... results from Yahoo Finance").
PROPER_NOUN = re.compile(r"(?<=[a-z0-9,;] )[A-Z][a-z]+")


_MARKER_STARTS = frozenset("-*•>#")  # how a `_LIST_MARKER` starts but for a digit (`\\d`: `str.isdecimal`)
_NO_WORDS: frozenset[str] = frozenset()  # the words of every unit without a content word
_IS_NOT_CONTENT = _NOT_CONTENT.__contains__


class UnitWords:
    """A unit's words: the unit without a leading list marker (`item`), the number of that item's
    tokens (`size`), the tokens joined by spaces (`key`, what tells a unit's copies apart), its
    content words (`content`: not stopwords or generic words) and of those the specific ones
    (`specific`: not VACUOUS)."""

    __slots__ = ("content", "item", "key", "size", "specific")

    def __init__(self, unit: str) -> None:
        # (a marker starts, after any whitespace, with one of these or a digit: `sub` is skipped for
        # the other units, whose item is the unit itself)
        first = unit.lstrip()[:1]
        marked = first in _MARKER_STARTS or first.isdecimal()
        item = self.item = _LIST_MARKER.sub("", unit, count=1) if marked else unit
        # (the tokens themselves are not kept: `key` holds them, and every object a record keeps is one
        # more for the garbage collector's young generation, which these records fill)
        toks = tokens(item)
        self.size = len(toks)
        self.key = " ".join(toks)
        # (the content words in one set, each token looked up once in C, not a set of every token
        # less the stopwords; equal sets shared, not made twice: most units have no vacuous word, so
        # their specific words are their content words)
        content = frozenset(filterfalse(_IS_NOT_CONTENT, toks))
        if not content:
            self.content = self.specific = _NO_WORDS
        else:
            self.content = content
            self.specific = content if content.isdisjoint(VACUOUS) else content - VACUOUS


V = TypeVar("V")


class Memo(dict[str, V]):
    """A bounded memo of one pure function of a text: `memo[text]` computes `make(text)` the first
    time (a miss is `__missing__`; a hit is a plain dict lookup) and empties itself when full.
    `clear` empties every memo made here."""

    def __init__(self, make: Callable[[str], V]) -> None:
        super().__init__()
        self._make = make
        _MEMOS.append(self)

    def __missing__(self, text: str) -> V:
        if len(self) >= MEMO_SIZE:
            self.clear()
        found = self[text] = self._make(text)
        return found


_MEMOS: list[Memo[Any]] = []


# What one of the gates above (or, for an alternative without a gate, the alternative itself) cannot
# match without: a text with none of these has no literal, which half the units are. One search in C
# over a character set, instead of the ten gates one by one (tests/jury/test_unitmemo.py holds every
# gate to it).
_ANY_GATE = lazy(r"[_\"'`“\d/\\]|[A-Z](?<=[A-Za-z][A-Z])|\.\w")


def _self_specific(text: str) -> bool:
    """`SELF_SPECIFIC.search(text) is not None`, alternative by alternative behind their gates."""
    if _ANY_GATE.search(text) is None:
        return False
    for gate, part in _GATED_LITERALS:
        if (gate is None or gate.search(text) is not None) and part.search(text) is not None:
            return True
    return False


# An ASCII text (93% of the units asked) is tested with the same patterns compiled with `re.ASCII`:
# on ASCII input `\w`, `\d` and `\b` match exactly what they match in Unicode mode, and a class of
# plain characters is then a bitmap `re` tests in one step (`\d` in Unicode mode is a call per
# character). "“" cannot occur in an ASCII text, so its alternative is left out.
_ASCII_GATED_LITERALS = tuple(
    (lazy(gate, re.ASCII) if gate else None, lazy(pattern, re.ASCII))
    for gate, pattern in _LITERAL_PARTS
    if (gate + pattern).isascii()
)
# What any literal of an ASCII text, a proper noun included, cannot match without, as one pattern that
# starts with a class of single characters: `re` skips to the characters of the class in a tight loop
# instead of trying three alternatives (and PROPER_NOUN its look-behind) at every position. One hit
# asks the alternatives one by one; the half of the units without any answer with this one search.
# After the class: one of `_ANY_GATE`'s characters; an upper-case letter after a letter (acronyms,
# camelCase); one after "[a-z0-9,;] " followed by a lower-case letter (PROPER_NOUN); a dot before a
# word character. (tests/jury/test_unitmemo.py holds every alternative and PROPER_NOUN to it.)
_ASCII_GATE = lazy(
    r"[_\"'`0-9/\\.A-Z](?:(?<=[_\"'`0-9/\\])|(?<=[A-Za-z][A-Z])|(?<=[a-z0-9,;] [A-Z])[a-z]|(?<=\.)\w)",
    re.ASCII,
)
# PROPER_NOUN's existence test for an ASCII text, in the same form: the upper-case letter first (a
# class `re` skips to), the two characters before it and the lower-case letter after it checked there.
_ASCII_PROPER_NOUN = lazy(r"[A-Z](?<=[a-z0-9,;] [A-Z])[a-z]", re.ASCII)


def _has_literal(text: str) -> bool:
    if text.isascii():  # (CJK has no ASCII character)
        if _ASCII_GATE.search(text) is None:
            return False
        for gate, part in _ASCII_GATED_LITERALS:
            if (gate is None or gate.search(text) is not None) and part.search(text) is not None:
                return True
        return _ASCII_PROPER_NOUN.search(text) is not None
    return CJK.search(text) is not None or _self_specific(text) or PROPER_NOUN.search(text) is not None


def _unit_tokens(words: UnitWords | None, text: str) -> list[str]:
    """`tokens(text)`, read back from the text's `UnitWords` when it has one and is its own item (no
    list marker): its key is its tokens joined by spaces, and no token holds a character `str.split`
    splits at (tests/jury/test_unitmemo.py)."""
    if words is not None and words.item == text:
        return words.key.split()
    return tokens(text)


_WORDS: Memo[UnitWords] = Memo(UnitWords)
_get_words = _WORDS.get


def _specific_stems_of_unit(text: str) -> frozenset[str]:
    """`tokens._specific_stems(text)`. A unit that is its own item has its content words less the
    vacuous ones in its `UnitWords` (the words filtered by `_NOT_SPECIFIC` but for the function words
    outside STOPWORDS): only those are left to drop, from a smaller set than the tokens."""
    words = _get_words(text)
    if words is not None and words.item == text:
        return _stems_of(words.specific, _FUNCTION_WORDS)
    return _stems_of(tokens(text), _NOT_SPECIFIC)


_SPECIFIC: Memo[frozenset[str]] = Memo(_specific_stems_of_unit)
_ANCHORABLE: Memo[frozenset[str]] = Memo(
    lambda text: _stems_of(_unit_tokens(_get_words(text), text), _NOT_NAME_ANCHOR)
)
_LITERAL: Memo[bool] = Memo(_has_literal)


# The accessors are the memos' own look-ups: a hit is one call in C, with no Python frame around it
# (each is asked once or more for every unit of every text).

# `UnitWords(unit)`, computed once per distinct text.
unit_words: Callable[[str], UnitWords] = _WORDS.__getitem__
# `tokens._specific_stems(text)` (stems of the words that are not function, generic or vacuous words),
# computed once per distinct text.
specific_stems: Callable[[str], frozenset[str]] = _SPECIFIC.__getitem__
# `tokens._specific_stems(text, _NOT_NAME_ANCHOR)` (the stems a tool's own words can match), computed
# once per distinct text.
anchorable_stems: Callable[[str], frozenset[str]] = _ANCHORABLE.__getitem__
# The text is CJK prose or carries a literal of its own (`SELF_SPECIFIC`, a proper noun): what
# `specificity._says_specific` tests before the tool's own words, computed once per distinct text.
has_literal: Callable[[str], bool] = _LITERAL.__getitem__


def clear() -> None:
    """Forget every memoised unit, and every word's stem (`tokens._stem`'s cache): a benchmark that
    starts a repetition from nothing must not find the words of the last one stemmed."""
    for memo in _MEMOS:
        memo.clear()
    _stem.cache_clear()
