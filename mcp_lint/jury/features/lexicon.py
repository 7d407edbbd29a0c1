"""The offline jury's vocabularies: the word lists and cue patterns of `data/lexicon.yaml` (see its
header, loaded once), and the regexes the other modules scan text with: cue families, parameter
entries, structure (bullets, headers, code), sentence boundaries. Those a text may never need (a
word gate or a cheaper test goes first, or only some texts reach them) compile when first used
(`mcp_lint.lazyre.lazy`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from mcp_lint.jury.regex_scan import TextWords, family, shipped_families
from mcp_lint.lazyre import lazy
from mcp_lint.parsed_yaml import load_yaml
from mcp_lint.resources import JURY_DATA


@functools.cache
def lexicon() -> Mapping[str, Any]:
    """`data/lexicon.yaml`, parsed once."""
    path = JURY_DATA / "lexicon.yaml"
    loaded = load_yaml(path, path.read_text(encoding="utf-8"))
    if not isinstance(loaded, dict):
        raise ValueError("lexicon.yaml: expected a mapping")
    return loaded


def _words(key: str) -> frozenset[str]:
    return frozenset(str(lexicon()[key]).split())


def _patterns(key: str) -> tuple[str, ...]:
    return tuple(str(p) for p in lexicon()[key])


def _words_in_order(key: str) -> list[str]:
    return str(lexicon()[key]).split()


def _alternatives(value: Any) -> str:
    """A pattern written as a list of alternatives, joined into one regex."""
    return "|".join(str(p) for p in value)


STOPWORDS: frozenset[str] = _words("stopwords")
# Words that carry no information about a specific tool (and lorem ipsum): a unit made only of
# these (plus stopwords) is boilerplate and is ignored entirely.
GENERIC: frozenset[str] = _words("generic") | _words("lorem_ipsum")
# Words that name what a sentence is about in the rubric's own terms without saying anything about
# the tool ("Returns the result."): a unit whose content words are all generic or vacuous is ignored.
VACUOUS: frozenset[str] = _words("vacuous")
# A description whose every content word is one of these says nothing at all: `placeholder`.
PLACEHOLDER_WORDS: frozenset[str] = _words("placeholder")

# Cue phrases, matched on lower-cased informative units (word-boundary regexes).
USAGE_CUES: tuple[str, ...] = _patterns("usage_cues")
LIMIT_CUES: tuple[str, ...] = _patterns("limit_cues")
EXAMPLE_CUES: tuple[str, ...] = _patterns("example_cues")
RETURN_CUES: tuple[str, ...] = _patterns("return_cues")
PARAM_SECTION = lazy(
    r"^\s*(?:#+\s*)?(?:args|arguments|parameters|params|inputs?|options|参数)\s*[:：]?\s*$|"
    r"(?:^|\s)(?:args|arguments|parameters|params)\s*:",
    re.IGNORECASE | re.MULTILINE,
)
RETURN_SECTION = lazy(r"(?:^|\s)(?:returns?|outputs?|response|返回)\s*[:：]", re.IGNORECASE)
# Substrings every match of PARAM_SECTION / RETURN_SECTION contains, lower-cased, in a text that
# `_reads_as_lower` (most texts lack them, and `in` is much cheaper than a case-insensitive scan)
_PARAM_SECTION_KEYS = ("arg", "param", "input", "option")
_RETURN_SECTION_KEYS = ("return", "output", "response")
# ... and the whole words one of which every such match has in such a text (each stands between the
# start of a line or a space and a colon, a space or the end of the line), for a caller that has the
# text's words (`regex_scan.gate_words`)
_PARAM_SECTION_WORDS = frozenset({"args", "arguments", "parameters", "params", "input", "inputs", "options"})
_RETURN_SECTION_WORDS = frozenset({"return", "returns", "output", "outputs", "response"})
# The characters outside ASCII that IGNORECASE matches to an ASCII letter other than as `lower()`
# lowers them: dotted capital I (to "i"; `lower()` makes it two characters), dotless i (to "i") and
# long s (to "s"). (The Kelvin sign also matches "k", and `lower()` makes it "k" too.)
# tests/jury/test_lexicon.py checks the list over every code point.
CASE_FOLDS = ("\u0130", "\u0131", "\u017f")


def _reads_as_lower(text: str) -> bool:
    """IGNORECASE matches an ASCII letter of a pattern in `text` exactly where `text.lower()` has that
    letter, lower-cased (so the sections' Latin words are found by the tests above)."""
    return text.isascii() or not any(c in text for c in CASE_FOLDS)


def has_param_section(text: str, low: str, words: TextWords | None = None) -> bool:
    """`PARAM_SECTION.search(text) is not None`, where `low` is `text.lower()` and `words`, if given,
    `gate_words(low)` (whose words are the ASCII ones: every other character ends a word)."""
    if text.isascii() or ("参数" not in text and _reads_as_lower(text)):
        if words is not None:
            present = _PARAM_SECTION_WORDS.intersection(words)
            return bool(present) and _param_section_at(text, words.padded, present)
        if not any(key in low for key in _PARAM_SECTION_KEYS):
            return False
    return PARAM_SECTION.search(text) is not None


def has_return_section(text: str, low: str, words: TextWords | None = None) -> bool:
    """`RETURN_SECTION.search(text) is not None`, where `low` is `text.lower()` and `words`, if given,
    `gate_words(low)`."""
    if text.isascii() or ("返回" not in text and _reads_as_lower(text)):
        if ":" not in text and (text.isascii() or "：" not in text):
            return False
        if words is not None:
            present = _RETURN_SECTION_WORDS.intersection(words)
            return bool(present) and _return_section_at(text, words.padded, present)
        if not any(key in low for key in _RETURN_SECTION_KEYS):
            return False
    return RETURN_SECTION.search(text) is not None


# Section matches read where their word stands (`_param_section_at`, `_return_section_at`): in a text
# that `_reads_as_lower`, a match's word is one of the text's words (`gate_words`: it stands between
# a line start, a space or a "#" and a space, a colon or a line end), so the regexes are asked only
# about what stands around those words, instead of scanning the whole text case-insensitively.
# `TextWords.padded` has " word " at the word's offset in the text.
_PARAM_INLINE_WORDS = frozenset({"args", "arguments", "parameters", "params"})  # PARAM_SECTION's second part
_ASCII_COLON_AFTER = lazy(r"\s*:")
_COLON_AFTER = lazy(r"\s*[:：]")
_HEADING_LEAD = lazy(r"\s*(?:#+\s*)?")  # from the start of its line to a heading's word
_HEADING_REST = lazy(r"\s*[:：]?\s*$", re.MULTILINE)  # from a heading's word to the line's end


def _param_section_at(text: str, padded: str, present: Iterable[str]) -> bool:
    """PARAM_SECTION matches in `text`, whose section words are `present` (`padded` being its
    `TextWords.padded`): the word of one of its parts stands at a line start (spaces and "#"s before
    it) with only spaces and a colon after it on its line, or the word of the second part stands at
    the text's start or after a space with a colon after it."""
    for word in present:
        key = f" {word} "
        inline = word in _PARAM_INLINE_WORDS
        i = padded.find(key)
        while i >= 0:
            end = i + len(word)
            if inline and (i == 0 or text[i - 1].isspace()) and _ASCII_COLON_AFTER.match(text, end):
                return True
            if _HEADING_REST.match(text, end) and _HEADING_LEAD.fullmatch(
                text, text.rfind("\n", 0, i) + 1, i
            ):
                return True
            i = padded.find(key, i + 1)
    return False


def _return_section_at(text: str, padded: str, present: Iterable[str]) -> bool:
    """RETURN_SECTION matches in `text`, whose section words are `present` (`padded` as above): one
    stands at the text's start or after a space, with a colon after it."""
    for word in present:
        key = f" {word} "
        i = padded.find(key)
        while i >= 0:
            if (i == 0 or text[i - 1].isspace()) and _COLON_AFTER.match(text, i + len(word)):
                return True
            i = padded.find(key, i + 1)
    return False


# "name (type): text", "name: text", "- name - text", "`name`: text" at the start of a line. (After
# the name, no name character: a shorter name is followed by one, which nothing after the name can
# take, so backtracking into the name never matched; the look-ahead turns each such try away at
# once, where it cost every prose line a walk through the rest per letter. The same in PARAM_ENTRY;
# tests/jury/test_lexicon.py holds both to the forms without it.)
PARAM_LINE = re.compile(
    r"^\s*(?:[-*•]\s*)?`?([A-Za-z_][A-Za-z0-9_.\[\]]*)(?![A-Za-z0-9_.\[\]])`?\s*(?:\(([^)]{0,60})\))?\s*"
    r"[:\-–—]\s+\S",
    re.MULTILINE,
)
TYPE_WORDS = lazy(
    r"\b(?:str|string|int|integer|float|number|bool|boolean|array|list|dict|object|optional|"
    r"required|default(?:s)?|enum|one of)\b",
)
FORMAT_WORDS = lazy(
    r"\b(?:format|formatted|yyyy|iso|iso-?8601|url|uri|json|regex|pattern|unix|timestamp|utc|"
    r"seconds|milliseconds|ms|bytes|mb|kb|characters|chars|case[- ]sensitive|comma[- ]separated|"
    r"valid values?|allowed values?|possible values?|options are|one of)\b",
)
DEFAULT_WORDS = lazy(r"\bdefaults?\b|\bdefault(?:s)? to\b|\boptional\b|\brequired\b")
# "... including X, Y and Z": says what the result contains (purpose / completeness evidence)
_CONTENT_LIST_SOURCE = (
    r"\bincluding\b|\bincludes?\b|\bcontaining\b|\bcontains?\b|\bconsist|\bsuch as\b|"
    r"\bwith (?:columns|fields|keys|details|information)\b|\bcovering\b|包含|包括"
)
# words that make a statement specific: conditions, objects, outputs
QUALIFIERS = lazy(
    r"\b(?:if|when|whether|and returns?|by|for a|for the|from|within|between|based on|using|in \w+ format)\b"
)
NUMBER = lazy(r"\b\d+(?:\.\d+)?\b")
CODE_SPAN = lazy(r"`([^`\n]{1,200})`")
# (QUOTED and BULLET lazy too: a lint of texts without quotes or list items may never reach them, and
# each has a class with a character past U+00FF, which `re` builds in Python: ~0.15 ms each)
QUOTED = lazy(r"\"([^\"\n]{1,80})\"|'([^'\n]{1,80})'|“([^”\n]{1,80})”")

BULLET = lazy(r"^\s*(?:[-*•]|\d+[.)])\s+\S", re.MULTILINE)


def is_bullet(text: str) -> bool:
    """`BULLET.match(text) is not None`: only a text that starts with a list mark, a digit (`\\d`) or a
    space (`\\s`) is matched at all."""
    first = text[:1]
    return (
        first != ""
        and (first in "-*•" or first.isdecimal() or first.isspace())
        and BULLET.match(text) is not None
    )


HEADER = lazy(r"^\s*(?:#{1,6}\s+\S|[A-Z][A-Za-z /]{1,30}:\s*$)", re.MULTILINE)
JSONISH = lazy(r"[{\[]\s*\"?[A-Za-z_]+\"?\s*:")
# The CJK blocks (kana, CJK ideographs and extension A, Hangul syllables) as code point ranges
_CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF))
# ... as the UTF-8 bytes of their characters: a lead byte E3-ED (which UTF-8 never has anywhere but
# at the start of a character) and, where a block starts or ends inside that lead byte's 4,096 code
# points, the continuation bytes that keep the character in the block. (Each alternative starts with
# one literal byte, so that `re` skips in C to where one of them stands: with a class of lead bytes
# among them, it tries every position, twice the instructions.)
_CJK_UTF8 = (
    rb"\xe3[\x81-\x83\x90-\xbf]"  # U+3040-30FF, U+3400-3FFF
    rb"|\xe4[\x80-\xb6\xb8-\xbf]"  # U+4000-4DBF, U+4E00-4FFF
    rb"|\xe5|\xe6|\xe7|\xe8|\xe9"  # U+5000-9FFF
    rb"|\xea[\xb0-\xbf]|\xeb|\xec"  # U+AC00-CFFF
    rb"|\xed[\x80-\x9d]|\xed\x9e[\x80-\xaf]"  # U+D000-D7AF
)
_CJK_BYTES = lazy(_CJK_UTF8)


class _CJK:
    """`[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af]`'s `search`, matched on the text's
    UTF-8 bytes: `re` builds a class of some 39,000 code points one code point at a time in Python
    (~27 M instructions, ~2 ms, paid by the first text outside ASCII), where the bytes above compile
    in ~0.1 ms. (Lone surrogates are encoded as they stand, outside the blocks.) Callers read only
    whether it found one. A search costs ~1,500 instructions more than the class's (the encoding and
    this call): ~1 M a pass over the calibration tools."""

    __slots__ = ()

    def search(self, text: str, /) -> re.Match[bytes] | None:
        return _CJK_BYTES.search(text.encode("utf-8", "surrogatepass"))


CJK = _CJK()
WORD = re.compile(r"[^\W_]+(?:['’][a-z]+)?", re.UNICODE)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Sentence / line boundaries. Besides punctuation and newlines, a capitalised sentence opener right
# after a word ("... video ID This tool is ...", "... an NPM package Note: ...") starts a new unit, so
# a sentence glued onto an unterminated last line is still judged on its own.
GLUED_SENTENCE_OPENERS = "|".join(_words_in_order("glued_sentence_openers"))
# Openers that start a glued sentence only when a lower-case word follows them, so that Title Case
# ("Get All Issues", "Search The Web") is not cut.
GLUED_OPENERS_BEFORE_LOWER = "|".join(_words_in_order("glued_openers_before_lower"))
# What follows the space before a glued sentence. Every opener starts with one of `initials`, tested
# first as one class: most spaces come before a lower-case word, and the class turns those away at
# once, where the alternation alone tries each of its openers there (the same answer: the class
# holds where any opener does).
_GLUED_INITIALS = "".join(
    sorted(
        {
            w[0]
            for key in ("glued_sentence_openers", "glued_openers_before_lower")
            for w in _words_in_order(key)
        }
    )
)
_GLUED = (
    rf"(?=[{re.escape(_GLUED_INITIALS)}])"
    rf"(?=(?:{GLUED_SENTENCE_OPENERS})\b|(?:{GLUED_OPENERS_BEFORE_LOWER})\s+[a-z])"
)
SENT_SPLIT = lazy(
    r"(?<=[.!?。！？；;])\s+|(?<=[.!?]['\"”’)])\s+|(?<=[。！？；])|\n+|"
    rf"(?<=[\w)\]'\"`”’])\s+{_GLUED}"
)
# SENT_SPLIT for text without any of 。！？ or ；, where its zero-width alternative cannot match:
# the same alternatives in the same order, each rewritten to consume its first whitespace character
# before its look-behind (`(?<=X)\s+` == `\s(?<=X\s)\s*`, `\n+` == `\s(?<=\n)\n*`), so the whole
# pattern starts with `\s` and `re` jumps between whitespace characters instead of trying every
# position. Same spans, so `split` gives the same pieces. After that first whitespace character, a
# guard no alternative can match without turns away most spaces (a word on either side) in one
# step, before the four alternatives are entered: the character before is a stop or a closing mark
# (the first two), the whitespace is a newline (the third), or the next character is whitespace or
# an opener's initial (the fourth, whose `\s*` is followed by one). A guard is a zero-width test,
# so the spans do not change (tests/jury/test_lexicon.py).
_SENT_SPLIT_NO_CJK_STOP = re.compile(
    rf"\s(?:(?<=[.!?。！？；;'\"”’)]\s)|(?<=\n)|(?=[\s{re.escape(_GLUED_INITIALS)}]))"
    r"(?:(?<=[.!?。！？；;]\s)\s*|(?<=[.!?]['\"”’)]\s)\s*|(?<=\n)\n*|"
    rf"(?<=[\w)\]'\"`”’]\s)\s*{_GLUED})"
)
# The verbs a description may open with (after "This tool " or "Will "), as `VERB_START`'s alternation.
_OPENING_VERBS = (
    "get|gets|fetch|fetches|retrieve|retrieves|list|lists|create|creates|search|searches|find|finds|"
    "return|returns|generate|generates|update|updates|delete|deletes|add|adds|remove|removes|set|sets|"
    "send|sends|run|runs|execute|executes|read|reads|write|writes|query|queries|convert|converts|"
    "calculate|calculates|check|checks|open|opens|close|closes|navigate|navigates|take|takes|upload|"
    "uploads|download|downloads|extract|extracts|analy[sz]e|analy[sz]es|compare|compares|save|saves|"
    "load|loads|show|shows|display|displays|insert|inserts|replace|replaces|move|moves|copy|copies|"
    "build|builds|start|starts|stop|stops|lookup|look up|looks up|translate|translates|validate|"
    "validates|parse|parses|summari[sz]e|summari[sz]es|apply|applies|edit|edits|modify|modifies|"
    "format|formats|compute|computes|perform|performs|provide|provides|click|clicks|type|types|fill|"
    "fills|capture|captures|获取|查询|搜索|列出|创建|根据|通过"
)
VERB_START = lazy(
    r"^\s*(?:this (?:tool|function|endpoint|method) )?(?:will )?(?:" + _OPENING_VERBS + ")",
    re.IGNORECASE,
)
# `VERB_START`'s openings, lower-cased: its alternatives with `[sz]` spelt out
_OPENING_PREFIXES = tuple(
    spelt
    for verb in _OPENING_VERBS.split("|")
    for spelt in ((verb.replace("[sz]", "s"), verb.replace("[sz]", "z")) if "[sz]" in verb else (verb,))
)
_VERB_LEADS = ("this tool ", "this function ", "this endpoint ", "this method ")


def opens_with_verb(text: str) -> bool:
    """`VERB_START.match(text) is not None`, read with string methods, so that the pattern (a long
    case-insensitive alternation, ~1 ms to compile) compiles only for a text with one of `CASE_FOLDS`
    (which IGNORECASE matches to a verb's letter where `lower()` does not lower them to it). In any
    other text, IGNORECASE matches a character of the pattern exactly where `lower()` lowers the
    text's character to it, one character for one, and `\\s` is what `str.isspace` (and so `lstrip`)
    says: tests/jury/test_lexicon.py checks both over every code point. The optional lead ("this
    tool ") and "will " are tried with and without, as the regex backtracks."""
    if not text.isascii() and not _reads_as_lower(text):
        return VERB_START.match(text) is not None
    low = text.lstrip().lower()
    rests = [low]
    for lead in _VERB_LEADS:
        if low.startswith(lead):
            rests.append(low[len(lead) :])
            break
    verbs = _OPENING_PREFIXES
    return any(
        rest.startswith(verbs) or (rest.startswith("will ") and rest[5:].startswith(verbs)) for rest in rests
    )


# The cue families as `_segment` scans them: one regex per family, whose match names its pattern
# (what each scans with read from the file `lab/word_gates.py` writes, when it has the family's
# patterns: `regex_scan.shipped_families`).
_SHIPPED_FAMILIES = shipped_families()
_USAGE = family(USAGE_CUES, CJK, _SHIPPED_FAMILIES)
_LIMIT = family(LIMIT_CUES, CJK, _SHIPPED_FAMILIES)
_EXAMPLE = family(EXAMPLE_CUES, CJK, _SHIPPED_FAMILIES)
_RETURN = lazy("|".join(f"(?:{p})" for p in RETURN_CUES))
_STRONG_LIMIT = lazy(_alternatives(lexicon()["strong_limit"]))
# Kinds of limitation statement (scope, failure, quantity, negation, prerequisite, side effect, note),
# by feature name; the number of distinct kinds a description covers tracks the judges' limitation score.
_LIMIT_KIND_PATTERNS: dict[str, str] = {
    str(name): _alternatives(alternatives) for name, alternatives in lexicon()["limit_kinds"].items()
}
LIMIT_KIND_NAMES: tuple[str, ...] = tuple(_LIMIT_KIND_PATTERNS)
LIMIT_KINDS: tuple[str, ...] = tuple(_LIMIT_KIND_PATTERNS.values())
# A parameter entry whose text gives more than a gloss: type, format, default, allowed values, a
# range, an example or a literal value.
PARAM_DETAIL = lazy(
    r"\b(?:str|string|int|integer|float|number|bool|boolean|array|list|dict|object|optional|required|"
    r"defaults?|enum|one of|format|e\.g|eg|example|such as|max(?:imum)?|min(?:imum)?|between|range|"
    r"inclusive|exclusive|based|iso|url|json|true|false|either|must)\b|\d|[\"'`(]"
)
PARAM_ENTRY = lazy(
    r"(?:[-*•]\s*)?`?([A-Za-z_][A-Za-z0-9_.\[\]]*)(?![A-Za-z0-9_.\[\]])`?\s*(?:\(([^)]{0,60})\))?\s*"
    r"[:\-–—]\s+(\S.*)"
)
# Constraints attached to a parameter entry: ranges, bounds, requiredness, allowed values.
PARAM_CONSTRAINT = lazy(
    r"\b(?:max(?:imum)?|min(?:imum)?|at most|at least|up to|no more than|between|range|limit(?:ed)?|"
    r"inclusive|exclusive|\d+-based|must|required|only|cannot|not|one of|allowed|valid)\b"
)
# "the `head` parameter", "parameter 'limit'": a parameter referred to as such (the keyword is found
# first, then the identifier right before or after it is read).
PARAM_KEYWORD = lazy(r"\b(?:parameter|argument|param|field|option|flag)s?\b")
_REF_AFTER = lazy(r"\s+[`'\"]?([A-Za-z_][A-Za-z0-9_]*)")
_REF_BEFORE = lazy(r"([A-Za-z_][A-Za-z0-9_]*)[`'\"]?\s+$")
# Edge-case behaviour: what happens if/when something is (not) the case.
LIM_CONDITIONAL = lazy(
    r"\b(?:if|when|unless)\b[^.\n]{0,80}?\b(?:will|fails?|error|errors|returns?|succeeds?|raises?|"
    r"throws?|stops?|skips?|ignored?|overwrit\w*|won't|cannot|no)\b"
)
# Restrictions on what may be acted on: "only uncompleted tasks can be updated".
LIM_RESTRICT = lazy(
    r"\bonly [\w-]+(?: [\w-]+)? (?:can|may|are|is|will)\b|\bmust be (?:within|absolute|in|a|an|one)\b|"
    r"\bwithin (?:the )?(?:allowed|specified|permitted|configured)\b"
)
_KINDS = family(LIMIT_KINDS, CJK, _SHIPPED_FAMILIES)
_CONTENT_LIST = family([_CONTENT_LIST_SOURCE], CJK, _SHIPPED_FAMILIES)
# Every cue family's patterns, in the order above (what `lab/word_gates.py` derives the shipped
# families from, each with `CJK`)
CUE_FAMILY_PATTERNS: tuple[tuple[str, ...], ...] = (
    USAGE_CUES,
    LIMIT_CUES,
    EXAMPLE_CUES,
    LIMIT_KINDS,
    (_CONTENT_LIST_SOURCE,),
)
# "you must always call this" is a usage instruction, not a limitation
MUST_CALL = lazy(r"\bmust\*? (?:always )?(?:call|use|first)\b")

# A list marker or heading mark at the start of a unit: "1. <a sentence>" repeats "<a sentence>".
_LIST_MARKER = lazy(r"^\s*(?:[-*•>]+|\d{1,3}[.)]|#{1,6})\s+")
