"""Cue families: many cue patterns scanned as one regex whose match says which pattern it is.

The offline jury counts, per family (usage, limitation, example cues, kinds of limitation), which of
its patterns match and in which units. One regex per family finds them in a single `re` scan, and
each match says which pattern it is (`Family.finditer`). Plain `re` throughout.

A family (and any other `Gated` pattern) is not even scanned: its word gate, read off the pattern,
says which words or prefixes every match starts with, and the pattern is tried only where those
occur (`Gated.starts`).
"""

from __future__ import annotations

import importlib
import json
import re
import string
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from mcp_lint.lazyre import lazy, source_of
from mcp_lint.resources import PACKAGE_DIR
from mcp_lint.words import ASCII_NOT_ALNUM, ASCII_WORD_BYTES

# What `_top_alternatives` and `_closing` must look at in a regex: an escape pair, a whole character
# class (escapes inside it skipped; an unclosed one runs to the end), or a group's bracket or a bar.
# Everything else is skipped by `re` in C rather than read character by character.
_STRUCTURE = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]?|[()|]", re.DOTALL)


def _top_alternatives(pattern: str) -> list[str]:
    """Split a regex at its top-level `|` (not inside groups or classes). (Run on every cue family's
    patterns at import, ~760 times per lint: hence one C scan for the structure.)"""
    out: list[str] = []
    depth = 0
    start = 0
    for m in _STRUCTURE.finditer(pattern):
        token = m.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif token == "|" and depth == 0:
            out.append(pattern[start : m.start()])
            start = m.end()
    out.append(pattern[start:])
    return out


# What `by_first_character` reads as an alternative's first character: a plain letter, digit or
# space (not escaped, not repeated)
_PLAIN_FIRST = frozenset(string.ascii_lowercase + string.digits + " ")
_REPEATS = ("?", "*", "+", "{")
_MAX_SPREAD = 16  # `(?:a|b|...)rest` is spread into at most this many alternatives
# a capturing group or a backreference (an escaped parenthesis too: not spread either)
_CAPTURES = lazy(r"\((?!\?)|\(\?P|\\[1-9]")  # (only when a family is derived, not shipped)


def _closing(pattern: str, start: int) -> int:
    """The offset of the `)` that closes the group opened at `pattern[start]`, or -1."""
    depth = 0
    for m in _STRUCTURE.finditer(pattern, start):
        token = m.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def _led(alternative: str) -> list[tuple[str | None, str]]:
    """`alternative` as alternatives tried in the same order, each with the plain character it
    starts with (None: not told). A leading non-capturing group is spread over what follows it,
    `(?:a|b)c` -> `ac|bc`, and an optional one, `(?:a)?c` -> `ac|c`, which a backtracking matcher
    tries in the same order."""
    first = alternative[:1]
    if first and first in _PLAIN_FIRST and not alternative[1:2].startswith(_REPEATS):
        return [(first, alternative)]
    if not alternative.startswith("(?:"):
        return [(None, alternative)]
    end = _closing(alternative, 0)
    if end < 0 or _CAPTURES.search(alternative):
        return [(None, alternative)]
    inner, rest = alternative[3:end], alternative[end + 1 :]
    optional = rest[:1] == "?"
    if optional:
        rest = rest[1:]
    if rest.startswith((*_REPEATS, "?")):
        return [(None, alternative)]  # repeated, or lazy or possessive
    spread = [a + rest for a in _top_alternatives(inner)] + ([rest] if optional else [])
    out = [led for a in spread for led in _led(a)] if len(spread) <= _MAX_SPREAD else []
    return out if 0 < len(out) <= _MAX_SPREAD else [(None, alternative)]


def by_first_character(alternatives: Iterable[str]) -> str:
    """The alternation of `alternatives` (tried in this order), rewritten so that `re` skips most of
    it at a position on one character test: alternatives that start with the same plain character
    are gathered behind it, `use x|when y|used z` -> `use(?: x|d z)|when y` (recursively).

    The same matches: at any position only the alternatives that start with the character there can
    match, and those keep their order, so the first that matches is the one the alternation takes.
    An alternative whose first character is not told (an escape, a class, a repeat) is a barrier:
    nothing is moved across it. `re` tests an alternative's first literal before entering it, so a
    word start costs one test per first character instead of one per alternative (the cue families'
    alternations have 20 to 90 alternatives)."""
    led = [pair for a in alternatives for part in _top_alternatives(a) for pair in _led(part)]
    out: list[str] = []
    run: dict[str, list[str]] = {}  # first character -> the rests of its alternatives, in order

    def flush() -> None:
        for first, rests in run.items():
            inner = rests[0] if len(rests) == 1 else by_first_character(rests)
            out.append(first + (inner if len(_top_alternatives(inner)) == 1 else "(?:" + inner + ")"))
        run.clear()

    for first, alternative in led:
        if first is None:
            flush()
            out.append(alternative)
        else:
            run.setdefault(first, []).append(alternative[1:])
    flush()
    return "|".join(out)


if TYPE_CHECKING:  # (only annotations name it: making a Protocol class costs every lint's import)

    class Searcher(Protocol):
        """What a family asks of `unspaced`: `search(text)`, truthy when the text has such a
        character."""

        def search(self, text: str, /) -> object: ...


class Hit(NamedTuple):
    """A match of a `Family`: where it starts and ends, and which of the family's patterns it is."""

    start: int
    end: int
    pattern: int  # its index in the patterns given


# A `Hit` made as its tuple (`_new_hit(Hit, (start, end, pattern))`): `Hit(...)` runs the named
# tuple's `__new__`, a Python frame, ~1,300 instructions more a hit (~730 hits a jury pass)
_new_hit = tuple.__new__


def _no_leading_boundary(alternative: str) -> str:
    """An alternative tried right after a `\\b` needs no `\\b` of its own at its start (the same
    assertion at the same position), and without it `re` can skip the alternative on its first
    character."""
    return alternative[2:] if alternative.startswith(r"\b") else alternative


def presence_parts(pattern: re.Pattern[str]) -> list[re.Pattern[str]]:
    """Regexes one of which matches somewhere in a text exactly when `pattern` does, for
    `search(...) is not None`: the top-level alternatives that start with `\\b` gathered behind one
    `\\b` (the order of alternatives decides which match is found, not whether there is one), so
    that `re` skips most of them on their first character, then each other alternative on its own
    (so that each has a word gate of its own, and the first says where its matches start). A
    pattern with fewer than two such alternatives, or with global inline flags, is its own part."""
    source, flags = source_of(pattern)
    alternatives = _top_alternatives(source)
    bounded = [a[2:] for a in alternatives if a.startswith(r"\b")]
    if len(bounded) < 2 or re.match(r"\(\?[aiLmsux]+\)", source):
        return [pattern]
    rest = [a for a in alternatives if not a.startswith(r"\b")]
    return [lazy(r"\b(?:" + "|".join(bounded) + ")", flags), *(lazy(a, flags) for a in rest)]


def presence(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`presence_parts(pattern)` as one regex: it matches somewhere in a text exactly when `pattern`
    does."""
    parts = presence_parts(pattern)
    if len(parts) == 1:
        return parts[0]
    return lazy("|".join(source_of(part)[0] for part in parts), source_of(pattern)[1])


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

    def __init__(
        self, scan: str, sources: Iterable[tuple[int, str]], digits: tuple[str, str] | None = None
    ) -> None:
        """A family whose alternation is `scan`, whose patterns on their own are `sources` and, if it
        has alternatives that start with a digit, `digits` (those alone, and all the others), as
        `family_sources` derives them."""
        # compiled when a text first gets past the family's word gate
        self.scan = lazy(scan)
        # each pattern on its own, compiled when a match first needs it (a lint that never meets a
        # pattern's predecessors' cues does not pay for compiling them)
        self._sources = tuple(sources)
        self._parts: list[Callable[[str, int], re.Match[str] | None] | None] = [None] * len(self._sources)
        self._gated = Gated(self.scan)
        # Which sources a match may be, by the character it starts with (`_candidates`; read when a
        # match first needs it, not at every lint's import)
        self._by_first: dict[str, tuple[int, ...]] | None = None
        self._untold: tuple[int, ...] = ()
        # the alternatives that start with a digit, and the others behind their own gate, until a text
        # needs the whole scan (`_by_digits`)
        self._digits = None if digits is None else (lazy(digits[0]), Gated(lazy(digits[1])))
        self._whole = digits is None

    def _candidates(self) -> dict[str, tuple[int, ...]]:
        """Which sources a match may be, by the character it starts with: a source whose alternatives
        all start with a plain character (`_led`) is a candidate only for those characters; one that
        does not tell (an escape, a class; CJK) for every character. In the sources' order, so the
        first that matches is still the one the alternation took."""
        # (the Latin sources are first, each `\b(?:` + its alternatives + `)`: `family_sources`)
        latin: list[str] = []
        for _, source in self._sources:
            if not (source.startswith(_LATIN_OPEN) and source.endswith(")")):
                break
            latin.append(source[len(_LATIN_OPEN) : -1])
        firsts = [_first_characters(latin, k) for k in range(len(latin))]
        firsts += [None] * (len(self._sources) - len(firsts))
        told = sorted({c for f in firsts if f is not None for c in f})
        self._untold = tuple(k for k, f in enumerate(firsts) if f is None)
        by_first = {c: tuple(k for k, f in enumerate(firsts) if f is None or c in f) for c in told}
        self._by_first = by_first
        return by_first

    def _which(self, text: str, start: int) -> int:
        """The index of the first pattern that matches `text` at `start` (only those that may start
        with the character there are tried: `_by_first`)."""
        parts = self._parts
        sources = self._sources
        by_first = self._by_first
        if by_first is None:
            by_first = self._candidates()
        for k in by_first.get(text[start], self._untold):
            index, source = sources[k]
            match = parts[k]
            if match is None:
                match = parts[k] = re.compile(source).match
            if match(text, start):
                return index
        raise AssertionError("a family match that no pattern of the family makes")

    def finditer(self, text: str, words: TextWords | None = None) -> list[Hit]:
        """The family's matches in `text`, as `finditer` over the alternation of its patterns finds
        them, each with the index (in the patterns given) of the pattern it is. `words` is
        `gate_words(text)` when the caller has it (the text is then matched only where its gate's
        words occur: `Gated`)."""
        found = self._gated.finditer(text, words)
        return [_new_hit(Hit, (m.start(), m.end(), self._which(text, m.start()))) for m in found]

    def search(self, text: str, words: TextWords | None = None) -> bool:
        """Some pattern of the family matches in `text` (`words` as for `finditer`)."""
        return self._gated.search(text, words)

    @property
    def gated(self) -> Gated:
        """The family's alternation behind its word gate (for a `GateSet`)."""
        return self._gated

    def open_finditer(self, text: str, words: TextWords, shared: frozenset[str]) -> list[Hit]:
        """`finditer` for a text the family's gate lets through (`GateSet.opened`, which gives
        `shared`)."""
        found = None if self._whole else self._by_digits(text, words)
        if found is None:
            found = self._gated.open_finditer(text, words, shared)
        return [_new_hit(Hit, (m.start(), m.end(), self._which(text, m.start()))) for m in found]

    def _by_digits(self, text: str, words: TextWords) -> Iterable[re.Match[str]] | None:
        """The family's matches in `text`, found by its alternatives that start with a digit alone
        when the gate of all the others turns `text` away: none of those can match anywhere in it,
        so at every position the alternation takes what the digits' alternatives take there. None
        when that gate lets `text` through: the whole scan is read, and from then on always. A lint
        whose texts open a family only with a number ("Tool number 0: ...") then never compiles the
        whole alternation (the kinds of limitation: 1,382 characters, ~15 M instructions)."""
        assert self._digits is not None
        digits, others = self._digits
        if others.passes(text, words):
            self._whole = True
            return None
        return digits.finditer(text)


# What a family scans with, derived from its patterns: `Family` above, and why it is read this way.
FamilySources = tuple[str, tuple[tuple[int, str], ...], tuple[str, str] | None]


_LATIN_OPEN = r"\b(?:"  # how `family_sources` opens a Latin pattern


def family_sources(patterns: Iterable[str], unspaced: Searcher) -> FamilySources:
    """The source of a `Family`'s alternation of `patterns`, each pattern's own source with its
    index, in the order `Family._which` tries them (see `Family`), and, when some Latin alternatives
    start with a digit (`\\d`) and others do not, the alternation of those alone and that of all the
    others (`Family._by_digits`)."""
    latin: list[tuple[int, str]] = []
    cjk: list[tuple[int, str]] = []
    digit_led: list[str] = []
    others: list[str] = []  # (the Latin alternatives that do not start with a digit)
    for i, p in enumerate(patterns):
        alts = _top_alternatives(p)
        # (an ASCII alternative has no CJK character: not searched, so that a lazy `unspaced`
        # compiles only for a family with CJK alternatives)
        han = [a for a in alts if not a.isascii() and unspaced.search(a)]
        lat = [_no_leading_boundary(a) for a in alts if a not in han]
        if lat:
            latin.append((i, "|".join(lat)))
            digit_led += [a for a in lat if a.startswith(r"\d")]
            others += [a for a in lat if not a.startswith(r"\d")]
        if han:
            cjk.append((i, "|".join(han)))
    # (the Latin alternatives gathered by first character: `by_first_character`)
    lead = r"\b(?:" + by_first_character(p for _, p in latin) + ")"
    scan = ([lead] if latin else []) + [p for _, p in cjk]
    digits = None
    if digit_led and others:
        rest = [r"\b(?:" + by_first_character(others) + ")"] + [p for _, p in cjk]
        digits = (r"\b(?:" + "|".join(digit_led) + ")", "|".join(rest))
    return "|".join(scan), tuple((i, _LATIN_OPEN + p + ")") for i, p in latin) + tuple(cjk), digits


def family(
    patterns: Iterable[str],
    unspaced: Searcher,
    shipped: Mapping[tuple[str, ...], FamilySources] | None = None,
) -> Family:
    """The patterns as one `Family` scan. `shipped`: `family_sources` of some pattern tuples with this
    `unspaced`, derived before (`FAMILIES_FILE`); patterns it does not have are derived now."""
    patterns = tuple(patterns)
    sources = None if shipped is None else shipped.get(patterns)
    return Family(*(family_sources(patterns, unspaced) if sources is None else sources))


FAMILIES_FILE = "data/cue-families.json"


def shipped_families() -> dict[tuple[str, ...], FamilySources]:
    """`FAMILIES_FILE`: the `family_sources` that `lab/word_gates.py` derived for the lexicon's cue
    families, by their patterns. Deriving them splits every cue pattern into its alternatives and
    regroups them (~20 M instructions of each default lint's start-up); reading them is one
    small JSON load. A family whose patterns the file lacks (the lexicon changed since) is derived as
    before; tests/jury/test_regex_scan.py checks that the file is what the derivation gives today."""
    try:
        document = json.loads((PACKAGE_DIR / "jury" / FAMILIES_FILE).read_text(encoding="utf-8"))
        return {
            tuple(entry["patterns"]): (
                entry["scan"],
                tuple((i, source) for i, source in entry["sources"]),
                None if entry["digits"] is None else tuple(entry["digits"]),
            )
            for entry in document["families"]
        }
    except (OSError, ValueError, LookupError, TypeError):
        return {}  # no file, or not one `families_document` wrote: every family is derived


def families_document(families: Iterable[tuple[Sequence[str], Searcher]]) -> dict[str, Any]:
    """`family_sources` of each (patterns, unspaced), derived now, as `FAMILIES_FILE` holds them."""
    entries = []
    for patterns, unspaced in families:
        scan, sources, digits = family_sources(patterns, unspaced)
        entries.append(
            {
                "patterns": list(patterns),
                "scan": scan,
                "sources": [list(s) for s in sources],
                "digits": None if digits is None else list(digits),
            }
        )
    about = "written by python -m lab.word_gates; see mcp_lint/jury/regex_scan.py"
    return {"about": about, "families": entries}


def _first_characters(latin: Sequence[str], k: int) -> frozenset[str] | None:
    """The characters a match of the k-th of the Latin sources (`Family._sources`: the alternatives
    without their leading `\\b`, behind one `\\b`) can start with, or None when `_led` cannot tell
    them for every alternative."""
    firsts: set[str] = set()
    for alternative in _top_alternatives(latin[k]):
        for first, _ in _led(alternative):
            if first is None:
                return None
            firsts.add(first)
    return frozenset(firsts)


# ---------------------------------------------------------------------------------------------------
# Word gates: what a text must contain for a pattern to match somewhere in it, read off the pattern
# once, so that a text that lacks it is not scanned at all.

_PARSER: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")
# An ASCII text's words as a gate reads them: maximal runs of letters and digits, lower-cased (any
# other character, `_` and `'` included, ends a word). Read through `words.ASCII_WORD_BYTES`, a byte
# table: `bytes.translate` is a plain table look-up per byte, where `str.translate` with a mapping
# costs ~20x as much (a 100-character text: ~2 us); `_GATE_WORDS` is the same as a `str` table, which
# tests hold it equal to.
_GATE_WORDS = str.maketrans(
    string.ascii_uppercase + ASCII_NOT_ALNUM, string.ascii_lowercase + " " * len(ASCII_NOT_ALNUM)
)
_WORD_CHARS = frozenset(string.ascii_lowercase + string.digits)
_DIGIT_BYTES = string.digits.encode("ascii")
# what `\d` matches besides 0-9 (in a text that is not ASCII)
# (one class, "not a non-digit, not 0-9": `re` runs a class over the text in its own loop, where the
# look-ahead form `(?![0-9])\d` is tried position by position, ~3x the cost; compiled only for a
# text with a digit outside ASCII)
_WIDE_DIGIT = lazy(r"[^\D0-9]")
# a word that starts with a digit 0-9, in `TextWords.padded` (at the space before it)
# (the space and the digit taken, not a look-ahead, which costs `re` ~25% more per space: such spaces
# are never next to each other, so the matches, which do not overlap, still find each)
_DIGIT_START = re.compile(r" [0-9]")
_MAX_NEEDS = 400  # past this many ways to start, a pattern is not gated (always scanned)
_MAX_PHRASES = 8  # past this many ways to go on after a word and a space, the word alone is the gate
# ... and past this many phrases after one first word (`derive_word_gate`; 6 read fewest instructions
# over a pass of the calibration tools, against 3 and 8)
_MAX_PHRASES_PER_WORD = 6


class TextWords(frozenset[str]):
    """The words of a text as a `WordGate` reads them (`gate_words`), and `padded`: the text with
    every character that is not an ASCII letter or digit made a space, lower-cased, between two more
    spaces. Offset i of the text is offset i + 1 of `padded`, so `padded.find(" when ")` finds the
    word "when" standing on its own, and only there (`Gated.starts`). `wide`: None for an ASCII
    text, else the offsets of its digits outside ASCII (which `\\d` matches too)."""

    __slots__ = ("_digit_starts", "digits", "padded", "wide")
    padded: str
    wide: tuple[int, ...] | None
    digits: bool  # the text has a digit 0-9 (one test for the ten digit prefixes of a `\d` gate)
    _digit_starts: list[int] | None

    def digit_starts(self) -> list[int]:
        """The offsets of the words that start with a digit 0-9: where `padded` has " 0" ... " 9"
        (one scan for the ten, read once, when a gate with `\\b\\d` first asks)."""
        found = self._digit_starts
        if found is None:
            found = self._digit_starts = [m.start() for m in _DIGIT_START.finditer(self.padded)]
        return found


def gate_words(text: str) -> TextWords:
    """The words of `text` as a `WordGate` reads them: its maximal runs of ASCII letters and digits,
    lower-cased."""
    if text.isascii():
        raw = text.encode("ascii")
        wide = None
    else:
        # every character outside ASCII becomes one "?" (which the byte table makes a space, as it
        # ends a word): the same offsets, and the byte table's speed (`str.translate` with a mapping
        # cost ~30 us for a 190-character description)
        raw = text.encode("ascii", "replace")
        wide = tuple(m.start() for m in _WIDE_DIGIT.finditer(text))
    spaced = raw.translate(ASCII_WORD_BYTES).decode("ascii")
    digits = len(raw.translate(None, _DIGIT_BYTES)) != len(raw)
    words = TextWords(spaced.split())
    words.padded = " " + spaced + " "
    words.wide = wide
    words.digits = digits
    words._digit_starts = None
    return words


class WordGate:
    """What every match of a pattern starts with: one of `words` as a whole word of the text
    (`gate_words`), or one of `prefixes` somewhere in it, or in a text that is not ASCII one of
    `wide_prefixes` (characters outside ASCII: CJK cues) or a digit outside ASCII when `prefixes`
    has the digits (`\\d`). A text with none of them has no match: the scan would find nothing
    (`Gated` skips it).

    `at_start`: the word or prefix is where the match itself starts (false when the pattern may
    first take non-word characters, `^\\W*when`), so a match can only start where one of them
    occurs (`Gated` then tries just those places); `word_prefixes`: those of the prefixes that a
    match starts with only where a word starts (after `\\b` or `^`), such as a digit for `\\b\\d+`.

    `phrases`: words a match starts with followed by a literal space (or another character that
    `TextWords.padded` makes a space: `case[- ]sensitive`, `e\\.g\\.`) and more letters
    (`\\bfor example\\b`, `\\bif you\\b`), as they stand in the padded text: " for example "
    (the last word whole) or " up to" (ending in a prefix). A phrase is read instead of its first word
    when that word does not open the gate on its own: "for" is in most texts, "for example" in few."""

    __slots__ = ("at_start", "phrases", "prefixes", "wide_prefixes", "word_prefixes", "words")

    def __init__(
        self,
        words: frozenset[str],
        prefixes: tuple[str, ...],
        at_start: bool = False,
        word_prefixes: tuple[str, ...] = (),
        wide_prefixes: tuple[str, ...] = (),
        phrases: tuple[str, ...] = (),
    ) -> None:
        self.words = words
        self.prefixes = prefixes
        self.at_start = at_start
        self.word_prefixes = word_prefixes
        self.wide_prefixes = wide_prefixes
        self.phrases = phrases


_WORD_STARTS = frozenset({"AT_BOUNDARY", "AT_BEGINNING", "AT_BEGINNING_LINE", "AT_BEGINNING_STRING"})
_NON_WORD_CLASSES = frozenset({"CATEGORY_NOT_WORD", "CATEGORY_SPACE"})


def _non_word(data: list[Any]) -> bool:
    """The parsed `data` is one character class of non-word characters only (`\\W`, `\\s`)."""
    if len(data) != 1 or str(data[0][0]) != "IN":
        return False
    return all(str(kind) == "CATEGORY" and str(value) in _NON_WORD_CLASSES for kind, value in data[0][1])


# (whole word, its letters and digits, where the match starts, where a word starts): see `_needs`
_Need = tuple[bool, str, bool, bool]


def _needs(items: list[Any], bounded: bool, out: set[_Need], run: str = "", skipped: bool = False) -> bool:
    """Add to `out` what a match of the parsed sequence `items` starts with: (True, w, s, True) a
    whole word w, (False, p, s, b) the substring p (a character outside ASCII, or ASCII letters and
    digits: then in a text that is not ASCII, `\\d` may also take another digit); s telling whether the
    match starts there (false when non-word characters may come first: `skipped`), b whether a word
    starts there. False when that cannot be told (or there are too many ways): the pattern is then
    not gated. `bounded`: a word boundary precedes the match; `run`: the letters and digits the
    match has already taken (from its start)."""
    i = 0
    while i < len(items):
        op, av = items[i]
        name = str(op)
        rest = items[i + 1 :]
        if name == "LITERAL" and av < 128 and chr(av) in _WORD_CHARS:
            run += chr(av)
            i += 1
            continue
        if name == "SUBPATTERN" and not av[1] and not av[2]:  # a group that sets no flag
            return _needs([*av[3].data, *rest], bounded, out, run, skipped)
        if name == "BRANCH":
            return (
                all(_needs([*alt.data, *rest], bounded, out, run, skipped) for alt in av[1])
                and len(out) <= _MAX_NEEDS
            )
        if name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] == 0 and av[1] == 1:  # `(...)?`: taken or not
            return _needs([*av[2].data, *rest], bounded, out, run, skipped) and _needs(
                rest, bounded, out, run, skipped
            )
        if run:
            break
        if name == "AT":
            # after `\b`, or at the start of the text or of a line, a word character starts a word
            bounded = str(av) in _WORD_STARTS
            i += 1
            continue
        if name in ("MAX_REPEAT", "MIN_REPEAT") and _non_word(av[2].data):
            # `\W*`, `\s+`: a word after them starts a word if one did before, or if they took one
            bounded = bounded or av[0] >= 1
            skipped = True
            i += 1
            continue
        if name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] >= 1 and len(av[2].data) == 1:
            op, av = av[2].data[0]  # what the first of at least one repeat starts with
            name = str(op)
        if name == "IN" and [(str(k), str(v)) for k, v in av] == [("CATEGORY", "CATEGORY_DIGIT")]:
            # `\d`: a digit (0-9, or one outside ASCII: see `Gated`)
            out.update((False, digit, not skipped, bounded) for digit in string.digits)
            return True
        if name == "LITERAL" and av > 127:
            # a character outside ASCII (CJK cues): a wide prefix, which no ASCII text has
            out.add((False, chr(av), not skipped, False))
            return True
        # anything else (another class, punctuation, an optional part) is not told
        return False
    if not run:
        return False  # the empty string matches
    after = items[i] if i < len(items) else None
    whole = (
        bounded
        and after is not None
        and (
            (str(after[0]) == "AT" and str(after[1]) == "AT_BOUNDARY")
            or (str(after[0]) == "LITERAL" and after[1] < 128 and not chr(after[1]).isalnum())
        )
    )
    if bounded and after is not None and _one_space(after) and not skipped:
        # a word, a space (or another character the padded text makes one: "-" of "read-only",
        # `[- ]` of `case[- ]sensitive`) and more: what follows, read at a word start, gives the
        # phrases (only plain letters, each at the start of the match's next word, not too many)
        more: set[_Need] = set()
        if (
            _needs(items[i + 1 :], True, more)
            and len(more) <= _MAX_PHRASES
            and all(
                at and word_start and w.replace(" ", "").isalpha() and w.isascii()
                for _, w, at, word_start in more
            )
        ):
            out.update((w_whole, run + " " + w, True, True) for w_whole, w, _, _ in more)
            return True
    out.add((whole, run, not skipped, bounded))
    return True


def _phrase_first(key: str) -> str:
    """The first word of a phrase as `WordGate.phrases` holds it (" for example ")."""
    return key[1:].split(" ", 1)[0]


def _one_space(item: Any) -> bool:
    """The parsed `item` matches one character, always an ASCII one that is not a letter or digit
    (which `TextWords.padded` has as a space): a literal, or a class of such literals."""
    op, av = item
    if str(op) == "LITERAL":
        return bool(av < 128 and not chr(av).isalnum())
    return str(op) == "IN" and all(
        str(kind) == "LITERAL" and value < 128 and not chr(value).isalnum() for kind, value in av
    )


GATES_FILE = "data/word-gates.json"
_SHIPPED: dict[str, WordGate | None] | None = None


def _gate_key(pattern: re.Pattern[str]) -> str:
    source, flags = source_of(pattern)  # a lazy pattern is not compiled to be looked up
    return f"{flags}:{source}"


def _shipped() -> dict[str, WordGate | None]:
    """The gates `lab/word_gates.py` derived for the jury's patterns, by pattern and flags: reading
    them costs a JSON load, deriving them parses every pattern again (milliseconds of each lint's
    start-up). A pattern not in the file (the lexicon changed since) is derived when first used;
    tests/jury/test_regex_scan.py checks that the file is what the derivation gives today."""
    global _SHIPPED
    if _SHIPPED is None:
        text = (PACKAGE_DIR / "jury" / GATES_FILE).read_text(encoding="utf-8")
        _SHIPPED = {
            entry["key"]: None
            if entry["gate"] is None
            else WordGate(
                frozenset(entry["gate"]["words"]),
                tuple(entry["gate"]["prefixes"]),
                entry["gate"]["at_start"],
                tuple(entry["gate"]["word_prefixes"]),
                tuple(entry["gate"]["wide_prefixes"]),
                tuple(entry["gate"].get("phrases", ())),
            )
            for entry in json.loads(text)["gates"]
        }
    return _SHIPPED


def gates_document(patterns: Iterable[re.Pattern[str]]) -> dict[str, Any]:
    """The gates of `patterns`, derived now, as `GATES_FILE` holds them."""
    gates = []
    for pattern in sorted(set(patterns), key=_gate_key):
        gate = derive_word_gate(pattern)
        gates.append(
            {
                "key": _gate_key(pattern),
                "gate": None
                if gate is None
                else {
                    "words": sorted(gate.words),
                    "prefixes": list(gate.prefixes),
                    "at_start": gate.at_start,
                    "word_prefixes": list(gate.word_prefixes),
                    "wide_prefixes": list(gate.wide_prefixes),
                    "phrases": list(gate.phrases),
                },
            }
        )
    return {"about": "written by python -m lab.word_gates; see mcp_lint/jury/regex_scan.py", "gates": gates}


def word_gate(pattern: re.Pattern[str]) -> WordGate | None:
    """The `WordGate` of `pattern` (matched on lower-cased text), or None when its matches' starts
    cannot be told (it is then always scanned): the shipped one, else derived."""
    shipped = _shipped()
    key = _gate_key(pattern)
    return shipped[key] if key in shipped else derive_word_gate(pattern)


def derive_word_gate(pattern: re.Pattern[str]) -> WordGate | None:
    """`word_gate`, read off the parsed pattern."""
    source, flags = source_of(pattern)
    if flags & re.IGNORECASE:
        return None
    needs: set[_Need] = set()
    if not _needs(list(_PARSER.parse(source, flags).data), False, needs):
        return None
    single = {need for need in needs if " " not in need[1]}
    whole_words = {w for whole, w, _, _ in single if whole}
    prefixes = {p for whole, p, _, _ in single if not whole and p.isascii()}
    # a prefix that some match may take in the middle of a word is not a word prefix
    loose = {p for whole, p, _, at_word in single if not whole and not at_word}
    # Phrases by their first word (each as it stands in the padded text); a phrase that holds another
    # adds nothing ("for example when", "for example"), nor one whose first word or a word prefix of
    # it opens the gate anyway; a first word with many phrases is the gate itself (each phrase is
    # one more look through the text)
    starts = tuple(f" {p}" for p in sorted(prefixes - loose))
    keys = sorted(f" {w} " if whole else f" {w}" for whole, w, _, _ in needs - single)
    by_first: dict[str, list[str]] = {}
    for key in keys:
        if not any(key.startswith(shorter) for shorter in keys if shorter != key):
            by_first.setdefault(_phrase_first(key), []).append(key)
    phrases: set[str] = set()
    for first, its in by_first.items():
        if len(its) > _MAX_PHRASES_PER_WORD:
            whole_words.add(first)  # (followed by a space: a whole word)
        else:
            phrases.update(its)
    words = frozenset(whole_words)
    phrases = {key for key in phrases if _phrase_first(key) not in words and not key.startswith(starts)}
    return WordGate(
        words,
        tuple(sorted(prefixes)),
        all(at_start for _, _, at_start, _ in needs),
        tuple(sorted(prefixes - loose)),
        tuple(sorted({p for whole, p, _, _ in single if not p.isascii()})),
        tuple(sorted(phrases)),
    )


# A text shorter than this is scanned whole once its gate lets it through: `re` runs over a short text
# faster than `Gated.starts` finds the gate's words in it. Measured in CPU time (in instructions the
# positions win at any length, but they are the slower ones per instruction) over the texts the jury
# scans, by length: the cue families' scans cost as much as the positions at ~55 characters, the
# shorter patterns' at ~80 (session 32; 120 before, when every gated call also asked its gate).
_SHORT = 64

# Every `Gated` made (the jury's modules make theirs at import): what `lab/word_gates.py` derives
# `GATES_FILE` from.
GATED: list[Gated] = []


class Gated:
    """A pattern scanned only when its `WordGate` lets the text through: `finditer` and `search`
    answer exactly as the pattern's own, given the text's `gate_words` (None: the text is scanned).
    The gate is read off the pattern when first needed; its words
    and prefixes are kept here, so that a text is let through or turned away without a call.

    When the gate also says where a match starts (`WordGate.at_start`), the pattern is not scanned
    over the text at all: it is matched only where one of its words or prefixes occurs (`starts`),
    in order, each try after the end of the previous match, which finds what `finditer` finds (a
    scan tries every position, and no match can start anywhere else). A scan costs a try at every
    word start, each entering most of a long alternation; the gate's words occur a few times."""

    __slots__ = (
        "_any_digit",
        "_at_start",
        "_digit_words",
        "_digits",
        "_keys",
        "_loose",
        "_phrase_firsts",
        "_phrases",
        "_prefix_keys",
        "_prefixes",
        "_wide",
        "_words",
        "pattern",
    )

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        GATED.append(self)
        self._words: frozenset[str] | None = None  # None: not gated
        self._prefixes: tuple[str, ...] | None = None  # None: the gate not read yet
        self._at_start = False
        # for `starts`: what to find in `TextWords.padded` for each word (" w ") and word prefix
        # (" p"); the other prefixes are found in the text itself
        self._keys: dict[str, str] = {}
        self._prefix_keys: tuple[str, ...] = ()
        self._loose: tuple[str, ...] = ()
        # in a text that is not ASCII: the wide prefixes, and whether a digit outside ASCII may start
        # a match (the gate has `\d`'s digits)
        self._wide: tuple[str, ...] = ()
        self._digits = False
        self._any_digit = False
        self._digit_words = False  # the ten digits are word prefixes (`\\b\\d`): `digit_starts`
        # the gate's phrases (`WordGate.phrases`) by their first word, looked for only in a text that
        # has that word
        self._phrases: dict[str, tuple[str, ...]] = {}
        self._phrase_firsts: frozenset[str] = frozenset()

    def _read(self) -> None:
        gate = word_gate(self.pattern)
        self._words = None if gate is None else gate.words
        # (the ten digits of `\d` are asked as one: `TextWords.digits`)
        self._any_digit = gate is not None and set(string.digits) <= set(gate.prefixes)
        self._prefixes = (
            ()
            if gate is None
            else tuple(p for p in gate.prefixes if not (self._any_digit and p in string.digits))
        )
        self._at_start = gate is not None and gate.at_start
        if gate is not None:
            self._keys = {word: f" {word} " for word in gate.words}
            self._digit_words = set(string.digits) <= set(gate.word_prefixes)
            self._prefix_keys = tuple(
                " " + prefix
                for prefix in gate.word_prefixes
                if not (self._digit_words and prefix in string.digits)
            )
            self._loose = tuple(p for p in gate.prefixes if p not in gate.word_prefixes)
            self._wide = gate.wide_prefixes
            self._digits = "0" in gate.prefixes
            phrases: dict[str, list[str]] = {}
            for key in gate.phrases:
                phrases.setdefault(_phrase_first(key), []).append(key)
            self._phrases = {first: tuple(keys) for first, keys in phrases.items()}
            self._phrase_firsts = frozenset(phrases)

    def passes(self, text: str, words: TextWords | None) -> bool:
        """The pattern may match in `text` (false: it certainly does not)."""
        if words is None:
            return True
        if self._prefixes is None:
            self._read()
        own = self._words
        if own is None or not own.isdisjoint(words) or (self._any_digit and words.digits):
            return True
        # a word prefix where a word starts (`_positions` finds it there), another prefix anywhere; a
        # loop, not any(...): no generator made per text on this hot path
        padded = words.padded
        for key in self._prefix_keys:
            if key in padded:
                return True
        for prefix in self._loose:
            if prefix in text:
                return True
        if self._phrases:
            for first in self._phrase_firsts.intersection(words):
                for key in self._phrases[first]:
                    if key in padded:
                        return True
        if words.wide is not None:  # not ASCII
            if self._digits and words.wide:
                return True
            for prefix in self._wide:
                if prefix in text:
                    return True
        return False

    def starts(self, text: str, words: TextWords | None) -> list[int] | None:
        """Every offset of `text` where a match of the pattern may start, in order (none: the gate
        turns the text away), or None when the text must be scanned: `words` is None, the pattern
        has no gate, or its gate does not say where a match starts."""
        if words is None:
            return None
        if self._prefixes is None:
            self._read()
        own = self._words
        if own is None:
            return None
        if not self._at_start or len(text) < _SHORT:
            return None if self.passes(text, words) else []
        return self._positions(text, words, own, words)

    def _positions(
        self, text: str, words: TextWords, own: frozenset[str], shared: frozenset[str]
    ) -> list[int]:
        """The offsets where the gate's words and prefixes occur in `text`, in order. `shared` holds
        every word of the text that the gate has (a phrase's first word too): `words` itself, or the
        few words the text shares with a `GateSet` that has this pattern (`GateSet.opened`), which
        the gate's words are intersected with at less cost."""
        found: list[int] = []
        keys = self._keys
        # a word where it stands on its own, a word prefix where a word starts: found in the padded
        # text at the offset of the space before it, which is the word's offset in `text`
        padded = words.padded
        find = padded.find
        for word in own.intersection(shared):
            key = keys[word]
            i = find(key)
            while i >= 0:
                found.append(i)
                i = find(key, i + 1)
        for key in self._prefix_keys:
            i = find(key)
            while i >= 0:
                found.append(i)
                i = find(key, i + 1)
        if self._phrases:
            for first in self._phrase_firsts.intersection(shared):
                for key in self._phrases[first]:
                    i = find(key)
                    while i >= 0:
                        found.append(i)
                        i = find(key, i + 1)
        if self._digit_words and words.digits:  # (no digit 0-9: no word starts with one)
            found += words.digit_starts()
        for prefix in self._loose:
            i = text.find(prefix)
            while i >= 0:
                found.append(i)
                i = text.find(prefix, i + 1)
        if words.wide is not None:  # not ASCII
            for prefix in self._wide:
                i = text.find(prefix)
                while i >= 0:
                    found.append(i)
                    i = text.find(prefix, i + 1)
            if self._digits:
                found += words.wide
        found.sort()
        return found

    def finditer(self, text: str, words: TextWords | None) -> Iterable[re.Match[str]]:
        """`self.pattern.finditer(text)`, `words` as for `starts`."""
        return self._from(text, self.starts(text, words))

    def _from(self, text: str, starts: list[int] | None) -> Iterable[re.Match[str]]:
        """The pattern's matches in `text`, tried at `starts` (None: scanned whole)."""
        if starts is None:
            return self.pattern.finditer(text)
        found: list[re.Match[str]] = []
        match = self.pattern.match
        end = 0
        for pos in starts:
            # (a position twice, from two words or prefixes: the second try is after `end`, or fails
            # as the first did)
            if pos >= end:
                m = match(text, pos)
                if m is not None:
                    found.append(m)
                    end = m.end()  # a gated match is never empty (its gate word is in it)
        return found

    def open_finditer(self, text: str, words: TextWords, shared: frozenset[str]) -> Iterable[re.Match[str]]:
        """`finditer` for a text the gate lets through (`GateSet.opened` said so, and gave `shared`:
        see `_positions`): the gate is not asked again (a short text, or a pattern whose gate cannot
        say where matches start, is scanned whole at once)."""
        own = self._words
        if own is None or not self._at_start or len(text) < _SHORT:
            return self.pattern.finditer(text)
        return self._from(text, self._positions(text, words, own, shared))

    def open_search(self, text: str, words: TextWords, shared: frozenset[str]) -> bool:
        """`search` for a text the gate lets through (`GateSet.opened`, with `shared`)."""
        own = self._words
        if own is None or not self._at_start or len(text) < _SHORT:
            return self.pattern.search(text) is not None
        return self._search_at(text, words, own, shared)

    def _search_at(self, text: str, words: TextWords, own: frozenset[str], shared: frozenset[str]) -> bool:
        """Some match starts at one of `_positions(text, words, own, shared)`: the same offsets tried as they
        are found, not gathered and sorted first. Whether a pattern matches somewhere does not depend
        on which of its matches is found, and any offset where `match` succeeds is the start of a
        match of the pattern (the same test `finditer` makes there); the first offset tried is
        usually one (a gate word of TYPE_WORDS, DEFAULT_WORDS ... is most of a match).

        The offsets are found as `_positions` finds them, written out again rather than shared
        through a generator: a generator's resume per offset made `_segment` ~2% dearer in
        instructions (tests/jury/test_regex_scan.py holds the two to the same answer)."""
        match = self.pattern.match
        padded = words.padded
        find = padded.find
        keys = self._keys
        for word in own.intersection(shared):
            key = keys[word]
            i = find(key)
            while i >= 0:
                if match(text, i) is not None:
                    return True
                i = find(key, i + 1)
        for key in self._prefix_keys:
            i = find(key)
            while i >= 0:
                if match(text, i) is not None:
                    return True
                i = find(key, i + 1)
        if self._phrases:
            for first in self._phrase_firsts.intersection(shared):
                for key in self._phrases[first]:
                    i = find(key)
                    while i >= 0:
                        if match(text, i) is not None:
                            return True
                        i = find(key, i + 1)
        if self._digit_words and words.digits:
            for i in words.digit_starts():
                if match(text, i) is not None:
                    return True
        for prefix in self._loose:
            i = text.find(prefix)
            while i >= 0:
                if match(text, i) is not None:
                    return True
                i = text.find(prefix, i + 1)
        if words.wide is not None:  # not ASCII
            for prefix in self._wide:
                i = text.find(prefix)
                while i >= 0:
                    if match(text, i) is not None:
                        return True
                    i = text.find(prefix, i + 1)
            if self._digits:
                for i in words.wide:
                    if match(text, i) is not None:
                        return True
        return False

    def search(self, text: str, words: TextWords | None) -> bool:
        """`self.pattern.search(text) is not None`, `words` as for `starts`."""
        return self._search_from(text, self.starts(text, words))

    def _search_from(self, text: str, starts: list[int] | None) -> bool:
        if starts is None:
            return self.pattern.search(text) is not None
        match = self.pattern.match
        for pos in starts:  # noqa: SIM110 (no generator per text)
            if match(text, pos) is not None:
                return True
        return False


class GateSet:
    """The gates of several `Gated` patterns read together: `opened` tells, from one pass over the
    words a text shares with any of the gates (one dict look-up per such word, giving every pattern
    whose gate it opens) and one test per distinct prefix, which of them may match in the text, as
    each pattern's `passes` would, so that the patterns the text turns away are not called at all
    and the others are scanned without asking their gates again (`Gated.open_finditer`)."""

    __slots__ = (
        "_all",
        "_bits",
        "_digits",
        "_gated",
        "_loose",
        "_phrases",
        "_ungated",
        "_wide_digits",
        "_wide_prefixes",
        "_word_prefixes",
    )

    def __init__(self, gated: Sequence[Gated]) -> None:
        self._gated = tuple(gated)
        self._bits: dict[str, int] | None = None  # read when first asked

    def _read(self) -> None:
        bits: dict[str, int] = {}
        word_prefixes: dict[str, int] = {}  # " prefix" (as `Gated._prefix_keys`) -> the patterns it opens
        loose: dict[str, int] = {}
        wide_prefixes: dict[str, int] = {}
        phrases: dict[str, dict[str, int]] = {}  # first word -> phrase -> the patterns it opens
        ungated = digits = wide_digits = 0
        for i, gated in enumerate(self._gated):
            if gated._prefixes is None:
                gated._read()
            if gated._words is None:
                ungated |= 1 << i
                continue
            for word in gated._words:
                bits[word] = bits.get(word, 0) | 1 << i
            for key in gated._prefix_keys:
                word_prefixes[key] = word_prefixes.get(key, 0) | 1 << i
            for first, keys in gated._phrases.items():
                its = phrases.setdefault(first, {})
                for key in keys:
                    its[key] = its.get(key, 0) | 1 << i
            for prefix in gated._loose:
                if not (gated._any_digit and prefix in string.digits):  # (`words.digits` below)
                    loose[prefix] = loose.get(prefix, 0) | 1 << i
            if gated._any_digit:
                digits |= 1 << i
            for prefix in gated._wide:
                wide_prefixes[prefix] = wide_prefixes.get(prefix, 0) | 1 << i
            if gated._digits:
                wide_digits |= 1 << i
        self._digits = digits
        self._wide_digits = wide_digits
        self._wide_prefixes = tuple(wide_prefixes.items())
        self._ungated = ungated
        self._loose = tuple(loose.items())
        # gathered by the patterns they open: a pattern already opened (by one of its words, most
        # often) skips all its prefixes on one test
        by_opens: dict[int, list[str]] = {}
        for key, opens in word_prefixes.items():
            by_opens.setdefault(opens, []).append(key)
        self._word_prefixes = tuple((opens, tuple(keys)) for opens, keys in by_opens.items())
        # (a phrase's first word is read with the words: `_all` has it, opening nothing by itself
        # when it is not a gate word too)
        self._phrases = {first: tuple(its.items()) for first, its in phrases.items()}
        for first in phrases:
            bits.setdefault(first, 0)
        self._all = frozenset(bits)
        self._bits = bits

    def opened(self, text: str, words: TextWords) -> tuple[int, frozenset[str]]:
        """(bit i set: the gate of the i-th pattern lets `text` through (`Gated.passes`); the words of
        `text` that some gate of the set has, to hand to its patterns' `open_finditer` and
        `open_search`), `words` being `gate_words(text)`. (A text shares ~4 words with the jury's
        set, where its own words are ~20 and a gate's up to 41: each pattern then intersects its
        words with those few.)"""
        bits = self._bits
        if bits is None:
            self._read()
            bits = self._bits
            assert bits is not None
        mask = self._ungated
        phrases = self._phrases
        padded = words.padded
        shared = self._all.intersection(words)
        for word in shared:
            mask |= bits[word]
            if word in phrases:  # a phrase's first word: the phrase in the padded text
                for key, opens in phrases[word]:
                    if opens & ~mask and key in padded:
                        mask |= opens
        if words.digits:
            mask |= self._digits
        # (a word prefix where a word starts: " prefix" in the padded text, as `Gated.passes` reads it)
        for opens, keys in self._word_prefixes:
            if opens & ~mask:
                for key in keys:
                    if key in padded:
                        mask |= opens
                        break
        for prefix, opens in self._loose:
            if opens & ~mask and prefix in text:
                mask |= opens
        if words.wide is not None:  # not ASCII: also a digit outside ASCII, and the wide prefixes
            if words.wide:
                mask |= self._wide_digits
            for prefix, opens in self._wide_prefixes:
                if opens & ~mask and prefix in text:
                    mask |= opens
        return mask, shared
