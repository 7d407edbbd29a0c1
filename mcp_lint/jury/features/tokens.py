"""Tokens and stems: the word tokens every feature counts, content tokens, and the crude stems
that match a word with its name or schema form (tasks/task, updated/update)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from itertools import filterfalse

from mcp_lint.jury.features.lexicon import CJK, GENERIC, STOPWORDS, VACUOUS, WORD, _words
from mcp_lint.words import ASCII_WORD_BYTES

# WORD on ASCII text, where `[^\W_]` is `[A-Za-z0-9]` and the only apostrophe is "'": a plain
# character set, which `re` tests much faster than the Unicode word category
_ASCII_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# ... and without an apostrophe, a WORD token is a maximal run of letters and digits: lower-case
# the letters, blank everything else, and split - all in C, no match object per token, with the
# word gates' byte table (`words.ASCII_WORD_BYTES`; `str.translate` with a mapping costs ~3x
# the whole tokenisation of a typical unit).


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; each CJK character counts as its own token. (Not the rules'
    `_util.text_tokens`, which counts CJK bigrams: the weights were fitted on these tokens.)"""
    if text.isascii():  # `WORD.findall(text.lower())`, faster (see `_ASCII_WORD`)
        if "'" in text:
            ascii_words: list[str] = _ASCII_WORD.findall(text.lower())
            return ascii_words
        return text.encode("ascii").translate(ASCII_WORD_BYTES).decode("ascii").split()
    words: list[str] = WORD.findall(text.lower())
    if not CJK.search(text):
        return words
    out: list[str] = []
    for word in words:
        if CJK.search(word):
            out.extend(ch for ch in word if not ch.isspace())
        else:
            out.append(word)
    return out


_NOT_CONTENT = STOPWORDS | GENERIC

_FUNCTION_WORDS = STOPWORDS | _words("function_words")
_NOT_SPECIFIC = _FUNCTION_WORDS | GENERIC | VACUOUS
# What a tool's own name can anchor on: any word but grammar, the rubric's vocabulary ("examples" of
# list_component_examples is in every "For example") and words for a tool itself.
_NOT_NAME_ANCHOR = (
    _FUNCTION_WORDS | VACUOUS | frozenset({"tool", "tools", "function", "functions", "utility", "utilities"})
)


@functools.lru_cache(maxsize=16384)
def _stem(word: str) -> str:
    """A crude stem, enough to match a word with its name or schema form (tasks/task,
    updated/update, queries/query).

    Not `mcp_lint.words.stem` (which strips every final "e" and tries "ies" first): the offline jury's
    weights were fitted on this one, so unifying the two is a refit, not a clean-up.

    The rule: "ies" -> "y" (more than 4 letters); else the first of "ing", "ed", "es", "s" the word
    ends with that leaves 3+ letters is cut; then a final "e" goes from a word of 4+ letters. Written
    as a choice on the last letter, which decides which suffix can apply (each stem is computed once
    per word, but a verdict meets ~1,800 new words, and `str.endswith` parses its arguments on each
    of the six calls the rule made for a word that ends otherwise); tests/jury/test_unitmemo.py holds
    it to the rule over every calibration word and random strings."""
    n = len(word)
    last = word[-1:]
    if last == "s":
        if n > 4 and word[-3:] == "ies":
            return word[:-3] + "y"
        if n >= 5 and word[-2:] == "es":
            word = word[:-2]
        elif n >= 4:
            word = word[:-1]
    elif last == "g":
        if n >= 6 and word[-3:] == "ing":
            word = word[:-3]
    elif last == "d":
        if n >= 5 and word[-2:] == "ed":
            word = word[:-2]
    elif last == "e":
        return word[:-1] if n > 3 else word
    else:  # no suffix of the rule ends with another letter
        return word
    return word[:-1] if word[-1:] == "e" and len(word) > 3 else word  # (the cut word's final "e")


def _stems_of(words: Iterable[str], excluded: frozenset[str]) -> frozenset[str]:
    """`{_stem(w) for w in words if w not in excluded}` in C loops, with no interpreted step per token:
    `filterfalse` over the excluded set's own look-up, `map` over the `lru_cache`d `_stem` (a word
    that recurs is a cache hit; no set of the kept words is built first)."""
    return frozenset(map(_stem, filterfalse(excluded.__contains__, words)))


def _specific_stems(text: str, excluded: frozenset[str] = _NOT_SPECIFIC) -> frozenset[str]:
    return _stems_of(tokens(text), excluded)
