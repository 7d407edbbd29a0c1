"""Tokens and stems: the word tokens every feature counts, content tokens, and the crude stems
that match a word with its name or schema form (tasks/task, updated/update)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from mcp_lint.jury.features.lexicon import CJK, GENERIC, STOPWORDS, VACUOUS, WORD, _words
from mcp_lint.jury.regex_scan import ASCII_WORD_BYTES

# WORD on ASCII text, where `[^\W_]` is `[A-Za-z0-9]` and the only apostrophe is "'": a plain
# character set, which `re` tests much faster than the Unicode word category
_ASCII_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# ... and without an apostrophe, a WORD token is a maximal run of letters and digits: lower-case
# the letters, blank everything else, and split - all in C, no match object per token, with the
# word gates' byte table (`regex_scan.ASCII_WORD_BYTES`; `str.translate` with a mapping costs ~3x
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
_STEM_SUFFIXES = ("ing", "ed", "es", "s")


@functools.lru_cache(maxsize=16384)
def _stem(word: str) -> str:
    """A crude stem, enough to match a word with its name or schema form (tasks/task,
    updated/update, queries/query).

    Not `mcp_lint.words.stem` (which strips every final "e" and tries "ies" first): the offline jury's
    weights were fitted on this one, so unifying the two is a refit, not a clean-up."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _stems_of(words: Iterable[str], excluded: frozenset[str]) -> frozenset[str]:
    """`{_stem(w) for w in words if w not in excluded}`, each distinct word stemmed once, in C loops
    (set difference, `map` over the `lru_cache`d `_stem`): no interpreted step per token."""
    kept = set(words)
    kept -= excluded
    return frozenset(map(_stem, kept))


def _specific_stems(text: str, excluded: frozenset[str] = _NOT_SPECIFIC) -> frozenset[str]:
    return _stems_of(tokens(text), excluded)
