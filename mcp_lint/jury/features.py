"""Feature extraction for the offline jury, shared by the runtime scorer and the fit script.

Design rule (anti-gaming, by construction): every feature is a function of

* the *set* of informative text units (sentences / lines) after exact de-duplication, where a unit
  that carries no content word outside a vocabulary of generic filler ("powerful", "versatile",
  "useful", "tool", "situations", ...) is dropped before anything is counted;
* the *set* of distinct content tokens, cue phrases, code spans, quoted values and parameter names
  found in those units;
* counts of units that contribute at least one content token not seen in an earlier unit
  ("novel units"), so repeating a description's own sentences - even glued together differently -
  adds nothing.

Nothing depends on raw character length or on how often something is said. Repeating a
description or appending boilerplate therefore leaves every feature unchanged, so no model fitted
on these features can reward it. The schema is read only to learn parameter names (to find them in
the prose) and, separately, to build schema-side parameter evidence (see `schema_as_prose`).
"""

from __future__ import annotations

import bisect
import functools
import math
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NamedTuple

import yaml

from mcp_lint.jury.regex_scan import family, group_index
from mcp_lint.words import name_words

# ---------------------------------------------------------------------------------------------------
# Vocabularies: the word lists and cue patterns live in `data/lexicon.yaml` (see its header).


@functools.cache
def lexicon() -> Mapping[str, Any]:
    """`data/lexicon.yaml`, parsed once."""
    text = resources.files("mcp_lint.jury").joinpath("data/lexicon.yaml").read_text(encoding="utf-8")
    loaded = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
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
PARAM_SECTION = re.compile(
    r"^\s*(?:#+\s*)?(?:args|arguments|parameters|params|inputs?|options|参数)\s*[:：]?\s*$|"
    r"(?:^|\s)(?:args|arguments|parameters|params)\s*:",
    re.IGNORECASE | re.MULTILINE,
)
RETURN_SECTION = re.compile(r"(?:^|\s)(?:returns?|outputs?|response|返回)\s*[:：]", re.IGNORECASE)
# "name (type): text", "name: text", "- name - text", "`name`: text" at the start of a line
PARAM_LINE = re.compile(
    r"^\s*(?:[-*•]\s*)?`?([A-Za-z_][A-Za-z0-9_.\[\]]*)`?\s*(?:\(([^)]{0,60})\))?\s*[:\-–—]\s+\S",
    re.MULTILINE,
)
TYPE_WORDS = re.compile(
    r"\b(?:str|string|int|integer|float|number|bool|boolean|array|list|dict|object|optional|"
    r"required|default(?:s)?|enum|one of)\b",
)
FORMAT_WORDS = re.compile(
    r"\b(?:format|formatted|yyyy|iso|iso-?8601|url|uri|json|regex|pattern|unix|timestamp|utc|"
    r"seconds|milliseconds|ms|bytes|mb|kb|characters|chars|case[- ]sensitive|comma[- ]separated|"
    r"valid values?|allowed values?|possible values?|options are|one of)\b",
)
DEFAULT_WORDS = re.compile(r"\bdefaults?\b|\bdefault(?:s)? to\b|\boptional\b|\brequired\b")
# "... including X, Y and Z": says what the result contains (purpose / completeness evidence)
CONTENT_LIST = re.compile(
    r"\bincluding\b|\bincludes?\b|\bcontaining\b|\bcontains?\b|\bconsist|\bsuch as\b|"
    r"\bwith (?:columns|fields|keys|details|information)\b|\bcovering\b|包含|包括"
)
# words that make a statement specific: conditions, objects, outputs
QUALIFIERS = re.compile(
    r"\b(?:if|when|whether|and returns?|by|for a|for the|from|within|between|based on|using|in \w+ format)\b"
)
NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
CODE_SPAN = re.compile(r"`([^`\n]{1,200})`")
QUOTED = re.compile(r"\"([^\"\n]{1,80})\"|'([^'\n]{1,80})'|“([^”\n]{1,80})”")
FENCE = re.compile(r"```")
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+\S", re.MULTILINE)
HEADER = re.compile(r"^\s*(?:#{1,6}\s+\S|[A-Z][A-Za-z /]{1,30}:\s*$)", re.MULTILINE)
JSONISH = re.compile(r"[{\[]\s*\"?[A-Za-z_]+\"?\s*:")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
WORD = re.compile(r"[^\W_]+(?:['’][a-z]+)?", re.UNICODE)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Sentence / line boundaries. Besides punctuation and newlines, a capitalised sentence opener right
# after a word ("... video ID This tool is ...", "... an NPM package Note: ...") starts a new unit, so
# a sentence glued onto an unterminated last line is still judged on its own.
GLUED_SENTENCE_OPENERS = "|".join(_words_in_order("glued_sentence_openers"))
# Openers that start a glued sentence only when a lower-case word follows them, so that Title Case
# ("Get All Issues", "Search The Web") is not cut.
GLUED_OPENERS_BEFORE_LOWER = "|".join(_words_in_order("glued_openers_before_lower"))
SENT_SPLIT = re.compile(
    r"(?<=[.!?。！？；;])\s+|(?<=[.!?]['\"”’)])\s+|(?<=[。！？；])|\n+|"
    rf"(?<=[\w)\]'\"`”’])\s+(?=(?:{GLUED_SENTENCE_OPENERS})\b|(?:{GLUED_OPENERS_BEFORE_LOWER})\s+[a-z])"
)
# SENT_SPLIT for text without any of 。！？ or ；, where its zero-width alternative cannot match:
# the same alternatives in the same order, each rewritten to consume its first whitespace character
# before its look-behind (`(?<=X)\s+` == `\s(?<=X\s)\s*`, `\n+` == `\s(?<=\n)\n*`), so the whole
# pattern starts with `\s` and `re` jumps between whitespace characters instead of trying every
# position. Same spans, so `split` gives the same pieces.
_SENT_SPLIT_NO_CJK_STOP = re.compile(
    r"\s(?:(?<=[.!?。！？；;]\s)\s*|(?<=[.!?]['\"”’)]\s)\s*|(?<=\n)\n*|"
    rf"(?<=[\w)\]'\"`”’]\s)\s*(?=(?:{GLUED_SENTENCE_OPENERS})\b|(?:{GLUED_OPENERS_BEFORE_LOWER})\s+[a-z]))"
)
VERB_START = re.compile(
    r"^\s*(?:this (?:tool|function|endpoint|method) )?(?:will )?(?:get|gets|fetch|fetches|retrieve|"
    r"retrieves|list|lists|create|creates|search|searches|find|finds|return|returns|generate|generates|"
    r"update|updates|delete|deletes|add|adds|remove|removes|set|sets|send|sends|run|runs|execute|"
    r"executes|read|reads|write|writes|query|queries|convert|converts|calculate|calculates|check|"
    r"checks|open|opens|close|closes|navigate|navigates|take|takes|upload|uploads|download|downloads|"
    r"extract|extracts|analy[sz]e|analy[sz]es|compare|compares|save|saves|load|loads|show|shows|"
    r"display|displays|insert|inserts|replace|replaces|move|moves|copy|copies|build|builds|start|"
    r"starts|stop|stops|lookup|look up|looks up|translate|translates|validate|validates|parse|parses|"
    r"summari[sz]e|summari[sz]es|apply|applies|edit|edits|modify|modifies|format|formats|compute|"
    r"computes|perform|performs|provide|provides|click|clicks|type|types|fill|fills|capture|captures|"
    r"获取|查询|搜索|列出|创建|根据|通过)",
    re.IGNORECASE,
)

# The cue families as `_segment` scans them: one regex per family, whose match names its pattern.
_USAGE = family(USAGE_CUES, CJK)
_LIMIT = family(LIMIT_CUES, CJK)
_EXAMPLE = family(EXAMPLE_CUES, CJK)
_RETURN = re.compile("|".join(f"(?:{p})" for p in RETURN_CUES))
_STRONG_LIMIT = re.compile(_alternatives(lexicon()["strong_limit"]))
# Kinds of limitation statement (scope, failure, quantity, negation, prerequisite, side effect, note),
# by feature name; the number of distinct kinds a description covers tracks the judges' limitation score.
_LIMIT_KIND_PATTERNS: dict[str, str] = {
    str(name): _alternatives(alternatives) for name, alternatives in lexicon()["limit_kinds"].items()
}
LIMIT_KIND_NAMES: tuple[str, ...] = tuple(_LIMIT_KIND_PATTERNS)
LIMIT_KINDS: tuple[str, ...] = tuple(_LIMIT_KIND_PATTERNS.values())
# A parameter entry whose text gives more than a gloss: type, format, default, allowed values, a
# range, an example or a literal value.
PARAM_DETAIL = re.compile(
    r"\b(?:str|string|int|integer|float|number|bool|boolean|array|list|dict|object|optional|required|"
    r"defaults?|enum|one of|format|e\.g|eg|example|such as|max(?:imum)?|min(?:imum)?|between|range|"
    r"inclusive|exclusive|based|iso|url|json|true|false|either|must)\b|\d|[\"'`(]"
)
PARAM_ENTRY = re.compile(
    r"(?:[-*•]\s*)?`?([A-Za-z_][A-Za-z0-9_.\[\]]*)`?\s*(?:\(([^)]{0,60})\))?\s*[:\-–—]\s+(\S.*)"
)
# Constraints attached to a parameter entry: ranges, bounds, requiredness, allowed values.
PARAM_CONSTRAINT = re.compile(
    r"\b(?:max(?:imum)?|min(?:imum)?|at most|at least|up to|no more than|between|range|limit(?:ed)?|"
    r"inclusive|exclusive|\d+-based|must|required|only|cannot|not|one of|allowed|valid)\b"
)
# "the `head` parameter", "parameter 'limit'": a parameter referred to as such (the keyword is found
# first, then the identifier right before or after it is read).
PARAM_KEYWORD = re.compile(r"\b(?:parameter|argument|param|field|option|flag)s?\b")
_REF_AFTER = re.compile(r"\s+[`'\"]?([A-Za-z_][A-Za-z0-9_]*)")
_REF_BEFORE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[`'\"]?\s+$")
# Edge-case behaviour: what happens if/when something is (not) the case.
LIM_CONDITIONAL = re.compile(
    r"\b(?:if|when|unless)\b[^.\n]{0,80}?\b(?:will|fails?|error|errors|returns?|succeeds?|raises?|"
    r"throws?|stops?|skips?|ignored?|overwrit\w*|won't|cannot|no)\b"
)
# Restrictions on what may be acted on: "only uncompleted tasks can be updated".
LIM_RESTRICT = re.compile(
    r"\bonly [\w-]+(?: [\w-]+)? (?:can|may|are|is|will)\b|\bmust be (?:within|absolute|in|a|an|one)\b|"
    r"\bwithin (?:the )?(?:allowed|specified|permitted|configured)\b"
)
_KINDS = family(LIMIT_KINDS, CJK)
_CONTENT_LIST = family([CONTENT_LIST.pattern], CJK)
# "you must always call this" is a usage instruction, not a limitation
MUST_CALL = re.compile(r"\bmust\*? (?:always )?(?:call|use|first)\b")
_NAME_SPLIT = re.compile(r"[^a-z0-9]+")
# The tool name's words for `name_overlap`, split at lower->upper only (getUIComponents: get,
# uicomponents), unlike `words.name_words` (get, ui, components): the weights were fitted on this
# split, and the shared one moves `name_overlap` of one calibration tool.
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")

# ---------------------------------------------------------------------------------------------------
# Text units


# WORD on ASCII text, where `[^\W_]` is `[A-Za-z0-9]` and the only apostrophe is "'": a plain
# character set, which `re` tests much faster than the Unicode word category
_ASCII_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# ... and without an apostrophe, a WORD token is a maximal run of letters and digits: lower-case
# the letters, blank everything else, and split - all in C, no match object per token
_ASCII_NOT_ALNUM = "".join(c for c in map(chr, range(128)) if not c.isalnum())
_ASCII_WORD_TABLE = str.maketrans(
    string.ascii_uppercase + _ASCII_NOT_ALNUM, string.ascii_lowercase + " " * len(_ASCII_NOT_ALNUM)
)


def _ascii_words(text: str) -> list[str]:
    """`WORD.findall(text.lower())` for ASCII `text`."""
    if "'" in text:
        words: list[str] = _ASCII_WORD.findall(text.lower())
        return words
    return text.translate(_ASCII_WORD_TABLE).split()


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; each CJK character counts as its own token. (Not the rules'
    `_util.text_tokens`, which counts CJK bigrams: the weights were fitted on these tokens.)"""
    if text.isascii():
        return _ascii_words(text)
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


def content_tokens(text: str) -> list[str]:
    """Tokens that carry tool-specific information: neither stopwords nor generic boilerplate."""
    return [t for t in tokens(text) if t not in STOPWORDS and t not in GENERIC]


def is_filler(unit: str) -> bool:
    """A unit with no content word: only stopwords and generic boilerplate."""
    return not content_tokens(unit)


_NOT_CONTENT = STOPWORDS | GENERIC


@dataclass(frozen=True)
class Units:
    """The informative, de-duplicated units of a text and what they add."""

    kept: tuple[str, ...]  # informative units, duplicates (same word sequence) removed, in order
    novel: int  # kept units that add >= 1 content token not seen in an earlier unit
    vocab: frozenset[str]  # distinct content tokens over kept units
    filler: int  # distinct units dropped as boilerplate


def split_units(text: str) -> list[str]:
    cjk_stop = "。" in text or "！" in text or "？" in text or "；" in text
    splitter = SENT_SPLIT if cjk_stop else _SENT_SPLIT_NO_CJK_STOP
    return [s for u in splitter.split(text) if u and (s := u.strip())]


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
    words = WORD.findall(low)
    n = len(words)
    if n < 2:
        return text
    for period in range(1, n // 2 + 1):
        if n % period == 0 and words == words[:period] * (n // period):
            matches = list(WORD.finditer(text))
            return text[: matches[period].start()]
    return text


# A list marker or heading mark at the start of a unit: "1. <a sentence>" repeats "<a sentence>".
_LIST_MARKER = re.compile(r"^\s*(?:[-*•>]+|\d{1,3}[.)]|#{1,6})\s+")
_LIST_NUMBER = re.compile(r"\s*\d{1,3}[.)]\s*")  # "1." split off its item by the sentence splitter
# A heading line ("Returns:", "## Examples") made of vacuous words introduces what follows it: it is
# kept only when a unit after it in the same text is.
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S.*|[^\n]{1,40}[:：])\s*$")
# A unit that opens with a label announcing a restatement or an aside ("Note:", "In other words,").
_LABELLED = re.compile(
    r"^\s*(?:\*\*)?(?:notes?|important|remember|reminder|tip|summary|tl;?dr|in other words|in short|"
    r"again|basically|essentially|to summari[sz]e)\b",
    re.IGNORECASE,
)
# What keeps a unit that says no more than the tool's name or, behind a label, than the units before
# it: a literal, a negation or a restriction ("Note: only 100 per page", "This does NOT delete").
_KEEPS_RESTATEMENT = re.compile(
    r"[(=`\"'\d]|\b(?:not|no|never|only|cannot|can't|don't|doesn't|without|unless|except)\b", re.IGNORECASE
)


# ---------------------------------------------------------------------------------------------------
# Specificity: a sentence earns coverage only by saying something about *this* tool.
#
# Word lists always have edges (any ordinary word outside them made filler count), so the test is
# not another list. A unit is specific when it carries a token the tool itself vouches for: a word
# of its name or of its input schema (property names, their descriptions, titles and enum values),
# or a literal no filler carries by accident (a number, a quoted or code span, an identifier such
# as `snake_case`, `camelCase` or `a.b`, a path, an acronym, a capitalised name mid-sentence). A
# unit that shares a word with a specific unit is specific too (the domain's nouns spread from the
# sentences that name the tool's things), and a heading, a list item or a line continuing a
# sentence stands or falls with the sentence it belongs to. Generic filler, made of ordinary words
# the tool never uses, has none of these, so it is dropped like boilerplate however it is phrased.

_SELF_SPECIFIC = re.compile(
    r"\d|`[^`\n]+`|(?<!\w)\"[^\"\n]+\"|(?<!\w)'[^'\n]+'(?!\w)|“[^”\n]+”|"
    r"\b[A-Za-z]*[a-z][A-Z]\w*|\b[A-Z]{2,}\b|\b[A-Za-z0-9]+_\w+|\b\w{2,}\.\w{2,}\b|[/\\]\w"
)
# A capitalised word after a lower-case word or a comma: a name ("... results from Yahoo Finance").
_PROPER_NOUN = re.compile(r"(?<=[a-z0-9,;] )[A-Z][a-z]+")
_CONTINUES = re.compile(r"^\s*[a-z(]")  # a line that continues an unterminated sentence
_TERMINATED = re.compile(r"[.!?。！？]['\"”’)]?\s*$")
# a heading, a fence or an "e.g." cut off by the sentence splitter: the unit after it belongs to it
_INTRO = re.compile(r"[:：]\s*$|^\s*```|\b(?:e\.g|i\.e)\.\s*$", re.IGNORECASE)
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
    updated/update, queries/query)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _specific_stems(text: str, excluded: frozenset[str] = _NOT_SPECIFIC) -> set[str]:
    return {_stem(t) for t in tokens(text) if t not in excluded}


def _schema_texts(schema: Any, depth: int = 0) -> Iterable[str]:
    """Property names, descriptions, titles and enum values of a schema, nested ones included."""
    if not isinstance(schema, _MAPPING) or depth > 6:
        return
    for key in ("title", "description"):
        value = schema.get(key)
        if isinstance(value, str) and depth:
            yield value
    enum = schema.get("enum")
    if isinstance(enum, list):
        yield " ".join(str(e) for e in enum[:50])
    props = schema.get("properties")
    if isinstance(props, _MAPPING):
        for name, spec in props.items():
            yield " ".join(name_words(str(name)))
            yield from _schema_texts(spec, depth + 1)
    for key in ("items", "additionalProperties"):
        yield from _schema_texts(schema.get(key), depth + 1)
    for key in ("anyOf", "oneOf", "allOf"):
        alternatives = schema.get(key)
        if isinstance(alternatives, list):
            for alternative in alternatives[:10]:
                yield from _schema_texts(alternative, depth + 1)


@dataclass(frozen=True)
class Anchors:
    """The stems of the words a tool vouches for: its name's (but for a leading verb) and its input
    schema's."""

    stems: frozenset[str]
    long: tuple[str, ...]  # stems of 4+ letters, which also match a longer word (see `match`)
    name: str = ""  # the tool's name: restating it ("# get_weather") is no literal of the text's own
    # every word of the name, its verb and rubric words included (delete_note: delete, note): what a
    # text that names nothing stronger is tested against
    name_stems: frozenset[str] = frozenset()
    # the nouns of the server's other tools' names: tested only when nothing else is specific, so
    # filler that happens to use one cannot make a text count that already says something
    domain: frozenset[str] = frozenset()

    @classmethod
    def of(cls, name: str, schema: Any, siblings: Sequence[str] = ()) -> Anchors:
        # The name's objects, not its leading verb ("get" of get_weather is in any filler). They
        # anchor even when generic elsewhere: "task" is filler in most texts but the domain of
        # get_next_task.
        words = name_words(name)
        stems = _specific_stems(" ".join(words[1:] if len(words) > 1 else words), _NOT_NAME_ANCHOR)
        for text in _schema_texts(schema):
            stems |= _specific_stems(text)
        # The server's domain nouns, the objects its other tools are named after ("staged" of
        # git_diff_staged), for a text that names nothing of its own tool: "Unstages all staged
        # changes" is about git_reset. Generic words of those names ("info", "data") are left out.
        domain: set[str] = set()
        for sibling in siblings:
            sibling_words = name_words(sibling)
            if len(sibling_words) > 1:
                domain |= _specific_stems(" ".join(sibling_words[1:]))
        every = frozenset(_stem(w) for w in words if w not in STOPWORDS)
        return cls(
            frozenset(stems), tuple(sorted(s for s in stems if len(s) >= 4)), name, every, frozenset(domain)
        )

    def match(self, stems: Iterable[str]) -> bool:
        own, long = self.stems, self.long
        for stem in stems:
            if stem in own:
                return True
            # repo/repository, board/chessboard; a 4-letter stem only as a prefix ("rang" is in "arrang")
            if len(stem) >= 4 and any(
                stem.startswith(a) or a.startswith(stem) or (len(a) >= 5 and stem.endswith(a)) for a in long
            ):
                return True
        return False


def specific_units(units: Sequence[str], anchors: Anchors) -> frozenset[int]:
    """Indices of the units of a text that say something specific to the tool (see above)."""
    if not units:
        return frozenset()
    groups = _groups(units)
    # a copy of an earlier unit (bulleted, numbered, in another case) is neutral: it neither makes
    # its group specific nor spreads its words back to the original
    firsts: set[str] = set()
    copies: set[int] = set()
    for i, unit in enumerate(units):
        key = " ".join(tokens(_LIST_MARKER.sub("", unit, count=1)))
        if key and key in firsts:
            copies.add(i)
        firsts.add(key)
    stems = [set() if i in copies else _specific_stems(unit) for i, unit in enumerate(units)]
    specific = [any(i not in copies and _says_specific(units[i], anchors) for i in group) for group in groups]
    if not any(specific):
        # Nothing names the tool's objects or literals: fall back on every word of its name, a label
        # ("Note:") aside, so "Delete a note by title" still speaks of delete_note, and on the nouns
        # of its siblings' names. Nothing at all: as good as no description.
        fallback = anchors.name_stems | anchors.domain
        specific = [
            any(i not in copies and bool(_named_stems(units[i]) & fallback) for i in group)
            for group in groups
        ]
        if not any(specific):
            return frozenset()
    group_stems = [set().union(*(stems[i] for i in group)) for group in groups]
    spread: set[str] = set().union(*(s for s, ok in zip(group_stems, specific, strict=True) if ok))
    changed = True
    while changed:  # a unit sharing a word with a specific one is about the same things
        changed = False
        for k, ok in enumerate(specific):
            if not ok and group_stems[k] & spread:
                specific[k] = changed = True
                spread |= group_stems[k]
    return frozenset(i for group, ok in zip(groups, specific, strict=True) if ok for i in group)


_LABEL = re.compile(r"^\W*\w+\s*[:：]")


def _named_stems(unit: str) -> set[str]:
    """Stems of a unit's words but for a leading label, for the fallback on the name's words."""
    return {_stem(t) for t in tokens(_LABEL.sub(" ", unit, count=1)) if t not in STOPWORDS}


def _says_specific(unit: str, anchors: Anchors) -> bool:
    """A unit that carries a token of its own specific to the tool (not one spread from another)."""
    # restating an identifier name ("# get_weather") is no literal of the text's own; a one-word name
    # ("show") used as a word in a sentence is just the word
    if anchors.name and not anchors.name.isalpha() and anchors.name in unit:
        unit = unit.replace(anchors.name, " ")
    return (
        CJK.search(unit) is not None  # CJK prose is not tested: one token per character
        or _SELF_SPECIFIC.search(unit) is not None
        or _PROPER_NOUN.search(unit) is not None
        # the tool's own words count even when generic elsewhere ("tasks" for get_next_task)
        or anchors.match(_specific_stems(unit, _NOT_NAME_ANCHOR))
    )


def _groups(units: Sequence[str]) -> list[list[int]]:
    """Units grouped as the sentences they belong to: a heading or fence with the unit after it, a
    list with its intro, a line with the lines that continue it."""
    groups: list[list[int]] = []
    for i, unit in enumerate(units):
        prev = units[i - 1] if i else ""
        # a list item belongs to the list's intro ("Returns:" / "It includes:"), not to a sentence
        joins = bool(groups) and (
            _INTRO.search(prev) is not None
            or (
                BULLET.match(unit) is not None
                and BULLET.match(prev) is not None
                and _INTRO.search(units[groups[-1][0]]) is not None
            )
            or (_CONTINUES.match(unit) is not None and _TERMINATED.search(prev) is None)
        )
        if joins:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


# Explicit cues (lexicon.yaml `explicit_cues`), one regex per component.
EXPLICIT_CUES: dict[str, re.Pattern[str]] = {
    str(comp): re.compile(_alternatives(patterns), re.MULTILINE)
    for comp, patterns in lexicon()["explicit_cues"].items()
}
# What makes a worked example a full one: a JSON object with keys, or a call with named arguments
# (a parenthesis after a word is not one: "transcript (e.g. 'en')").
_EXAMPLE_CALL = re.compile(r"\{\s*[\"']?[A-Za-z_]\w*[\"']?\s*:\s*\S|\b[A-Za-z_][\w.]*\(\s*[A-Za-z_]\w*\s*=")
# An allow-list names its values: "only pwd, ls, cat are supported".
_ENUMERATION = re.compile(r"\w+(?:\s*,\s*\w+)+,?\s*(?:and|or)?\s*\w+")


def explicit_cues(
    units: Sequence[str], kept: Iterable[str], anchors: Anchors | None, props: Sequence[str]
) -> frozenset[str]:
    """The components an explicit, specific cue gives: the cue's unit, or the section it heads, names
    the tool's parameters, values, name or numbers (an example must also show a call or a JSON
    object naming a parameter, or the tool when it takes none). `units` are the description's,
    `kept` those that passed the filler and specificity tests: a cue counts only with kept content
    (its heading may be a bare "When to use:"), and a limitation's own sentence must be kept."""
    if not units or anchors is None:
        return frozenset()
    found: set[str] = set()
    names = _PropNames.of(props)
    kept = set(kept)
    for group in _groups(units):
        if not any(units[i] in kept for i in group):
            continue
        text = "\n".join(units[i] for i in group)
        low = text.lower()
        for comp, cue in EXPLICIT_CUES.items():
            if comp in found:
                continue
            hit = next((i for i in group if cue.search(units[i].lower())), None)
            if hit is None:
                continue
            if comp == "examples":
                named = bool(_mentioned(text, low, names)) if props else anchors.match(_specific_stems(text))
                ok = _EXAMPLE_CALL.search(text) is not None and named
            elif comp == "limitations":
                # the bound's number or the allow-list is in the cue's own sentence
                unit = units[hit]
                ok = unit in kept and (
                    _SELF_SPECIFIC.search(unit) is not None
                    or _ENUMERATION.search(unit) is not None
                    or _says_specific(unit, anchors)
                )
            else:
                ok = any(_says_specific(units[i], anchors) for i in group)
            if ok:
                found.add(comp)
    return frozenset(found)


_NAME_WORD = re.compile(r"[^\W_]+")


@dataclass
class _UnitState:
    """De-duplication state carried from the description into appended prose (schema docs)."""

    seen: set[str]
    filler: set[str]
    vocab: set[str]
    novel: int = 0
    # the specific words (content words that are not VACUOUS) of each kept unit
    specific: set[frozenset[str]] = field(default_factory=set)
    # the words of the tool's name: once a unit is kept, one that says no more than the name restates it
    name_words: frozenset[str] = frozenset()
    # every specific word of the kept units
    specific_words: set[str] = field(default_factory=set)
    # what the tool vouches for; None (a text on its own) skips the specificity test
    anchors: Anchors | None = None

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

    def add(self, units: Iterable[str], *, appended: bool = False) -> list[str]:
        """Keep the informative units; `appended` prose (the schema's docs) has no title to drop."""
        kept: list[str] = []
        headings: list[tuple[str, str, set[str]]] = []  # vacuous headings waiting for a kept unit
        seen, filler = self.seen, self.filler
        # appended prose is the schema's own documentation: specific by construction
        units = list(units)
        about_tool = None if appended or self.anchors is None else specific_units(units, self.anchors)
        passed_over = False  # a unit with content was dropped as not specific to the tool
        for index, unit in enumerate(units):
            item = _LIST_MARKER.sub("", unit, count=1)
            if _LIST_NUMBER.fullmatch(item):
                continue
            toks = tokens(item)
            key = " ".join(toks) if toks else item.strip()
            if key in seen or key in filler:
                continue
            if about_tool is not None and index not in about_tool:  # says nothing about this tool
                filler.add(key)
                passed_over = passed_over or bool(set(toks) - _NOT_CONTENT - VACUOUS)
                continue
            # A unit without a word says nothing, whether decoration ("- ✅", "---") or a bare line of
            # code ("```", "{", "});"): the code inside a fence is what counts.
            if not toks:
                filler.add(key)
                continue
            content = set(toks)
            content -= _NOT_CONTENT
            if toks and not content:  # boilerplate: only stopwords and generic words
                filler.add(key)
                continue
            specific = frozenset(content - VACUOUS) if toks else frozenset()
            if toks and not specific:  # "Returns the result.", "Note: results may vary."
                # a heading before anything was kept is a title ("## Overview"), not structure
                if _HEADING.match(unit) and (appended or self.specific):
                    if all(key != k for _, k, _ in headings):
                        headings.append((unit, key, content))
                else:
                    filler.add(key)
                continue
            if _HEADING.match(unit) and specific <= self.name_words:  # a title: "# get_weather"
                filler.add(key)
                continue
            # restates an earlier unit ("Note: <an earlier sentence>"); or, after the first, says no
            # more than the name ("Use this tool to get weather." for get_weather) or, behind a label,
            # than the units before it ("Note: <half an earlier sentence>") - unless it documents a
            # parameter ("city: Name of the city"), is a list item, a negation or restriction, or
            # carries a literal: "- Formatted address", "Note: only 10 calls a day"
            labelled = _LABELLED.match(unit) is not None
            if specific in self.specific or (
                (self.specific or passed_over)
                and item == unit
                and (specific <= self.name_words or (labelled and specific <= self.specific_words))
                and not _KEEPS_RESTATEMENT.search(self._without_name(unit))
                and (labelled or PARAM_LINE.match(unit) is None)
            ):
                seen.add(key)
                continue
            for heading, heading_key, heading_content in headings:
                self._keep(kept, heading, heading_key, heading_content)
            headings.clear()
            self._keep(kept, unit, key, content)
            if specific:
                self.specific.add(specific)
                self.specific_words |= specific
        return kept

    def _without_name(self, unit: str) -> str:
        """`unit` without the words of the tool's name: a digit in the name ("base64") is not a
        literal of the unit's own."""
        words = self.name_words
        return _NAME_WORD.sub(lambda m: " " if m.group().lower() in words else m.group(), unit)

    def _keep(self, kept: list[str], unit: str, key: str, content: set[str]) -> None:
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


# ---------------------------------------------------------------------------------------------------
# Schema helpers


# (dict, Mapping): a JSON object is a dict, which `isinstance` recognises at once; the Mapping ABC
# check alone is several times slower
_MAPPING = (dict, Mapping)


def schema_properties(schema: Any) -> dict[str, Mapping[str, Any]]:
    if not isinstance(schema, _MAPPING):
        return {}
    props = schema.get("properties")
    if not isinstance(props, _MAPPING):
        return {}
    return {str(k): (v if isinstance(v, _MAPPING) else {}) for k, v in props.items()}


def schema_required(schema: Any) -> set[str]:
    if not isinstance(schema, Mapping):
        return set()
    req = schema.get("required")
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


def _name_variants(name: str) -> set[str]:
    """A property name as written (lower-cased) and as its words spaced out (`userId` -> user id)."""
    return {name.lower(), " ".join(name_words(name))}


_INLINE_ENTRY = re.compile(
    r"(?<![A-Za-z0-9_])`?([A-Za-z_][A-Za-z0-9_]*)`?(?=\s*(?:\([^)]{0,40}\))?\s*[:=–—]\s*\w)"
)
_ALNUM = re.compile(r"[a-z0-9]+")

# Finding a name where it occurs instead of listing every identifier or entry of the text.
#
# `IDENT.findall(text)` and `_INLINE_ENTRY.finditer(text)` cost a scan of the whole text per call,
# yet they are only asked about a few names. Their matches are ASCII identifiers, so one that
# equals a name (lower-cased) is an occurrence of the name in `low = text.lower()`; when `low` has
# the length of `text` (no character lower-cases to two, as "İ" does), it is at the same offset in
# `text`. The helpers below test just those offsets, with the same regexes, and fall back to the
# full scan for the rare text whose offsets differ.
_IDENT_NAME = re.compile(r"[a-z_][a-z0-9_]*")  # what an identifier lower-cased looks like
_ASCII_DIGITS = frozenset("0123456789")
_IDENT_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_ALNUM_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_NEXT_ALNUM = re.compile(r"[^a-z0-9]*([a-z0-9]+)")


def _is_ident(text: str, low: str, name: str) -> bool:
    """`name in {m.lower() for m in IDENT.findall(text)}`, `low` being `text.lower()` of the same
    length and `name` an `_IDENT_NAME`. `findall` takes a maximal run of identifier characters from
    its first letter or underscore on, so the run at an occurrence must end there and have only
    digits (if anything) before it."""
    match = IDENT.match
    size = len(name)
    i = low.find(name)
    while i >= 0:
        m = match(text, i)
        if m is not None and m.end() == i + size:
            k = i
            while k and text[k - 1] in _ASCII_DIGITS:
                k -= 1
            if not k or text[k - 1] not in _IDENT_FIRST:
                return True
        i = low.find(name, i + 1)
    return False


def _spaced_in(low: str, words: Sequence[str]) -> bool:
    """`f" {' '.join(words)} "` in `" " + " ".join(_ALNUM.findall(low)) + " "` for words of
    `[a-z0-9]+`: the words are consecutive maximal runs of `[a-z0-9]` in `low`."""
    first = words[0]
    after = _NEXT_ALNUM.match
    i = low.find(first)
    while i >= 0:
        end = i + len(first)
        if (not i or low[i - 1] not in _ALNUM_CHARS) and (end == len(low) or low[end] not in _ALNUM_CHARS):
            for word in words[1:]:
                m = after(low, end)
                if m is None or m.group(1) != word:
                    break
                end = m.end()
            else:
                return True
        i = low.find(first, i + 1)
    return False


class _PropNames(NamedTuple):
    """A tool's property names, prepared once for the look-ups of every segment: lower-cased, and
    the variants (`_name_variants`) `mentioned_params` can find at all - identifier-shaped ones,
    and spaced ones as their `[a-z0-9]+` words. Any other variant is in neither `IDENT.findall`
    (lower-cased) nor the runs of `[a-z0-9]`, so it never matches."""

    names: tuple[str, ...]
    lowers: tuple[str, ...]
    idents: tuple[tuple[str, ...], ...]
    spaced: tuple[tuple[tuple[str, ...], ...], ...]

    @classmethod
    def of(cls, names: Sequence[str]) -> _PropNames:
        idents: list[tuple[str, ...]] = []
        spaced: list[tuple[tuple[str, ...], ...]] = []
        # (the variants are lower-cased, so an ASCII identifier is an `_IDENT_NAME` and an ASCII
        # alphanumeric word an `_ALNUM` run: string methods instead of a regex call each)
        for name in names:
            mine: list[str] = []
            words: list[tuple[str, ...]] = []
            for v in _name_variants(name):
                if " " in v:
                    split = v.split(" ")
                    if all(w.isascii() and w.isalnum() for w in split):
                        words.append(tuple(split))
                elif v.isascii() and v.isidentifier():
                    mine.append(v)
            idents.append(tuple(mine))
            spaced.append(tuple(words))
        return cls(tuple(names), tuple(n.lower() for n in names), tuple(idents), tuple(spaced))


def _mentioned(text: str, low: str, props: _PropNames) -> set[str]:
    """`mentioned_params` with `low = text.lower()` already at hand."""
    aligned = len(low) == len(text)
    idents_of_text: set[str] | None = None
    found: set[str] = set()
    for name, idents, spaced in zip(props.names, props.idents, props.spaced, strict=True):
        for variant in idents:
            if variant not in low:
                continue  # not an identifier of the text, lower-cased
            if aligned:
                hit = _is_ident(text, low, variant)
            else:
                if idents_of_text is None:
                    idents_of_text = {m.lower() for m in IDENT.findall(text)}
                hit = variant in idents_of_text
            if hit:
                found.add(name)
                break
        else:
            if any(_spaced_in(low, words) for words in spaced):
                found.add(name)
    return found


def _inline_entries(text: str, low: str, names: Iterable[str]) -> set[str]:
    """The lower-cased `names` some `_INLINE_ENTRY` match in `text` introduces (its group 1,
    lower-cased, is the name), `low` being `text.lower()`. A match whose identifier is preceded by
    a backtick has a twin that starts at the identifier itself, so trying the occurrences of the
    name is enough."""
    if len(low) != len(text):
        entries = {m.group(1).lower() for m in _INLINE_ENTRY.finditer(text)}
        return {n for n in names if n in entries}
    match = _INLINE_ENTRY.match
    found: set[str] = set()
    for name in names:
        if not _IDENT_NAME.fullmatch(name):
            continue
        i = low.find(name)
        while i >= 0:
            m = match(text, i)
            if m is not None and m.group(1).lower() == name:
                found.add(name)
                break
            i = low.find(name, i + 1)
    return found


def mentioned_params(text: str, names: Sequence[str]) -> set[str]:
    """Schema property names that appear in the text (as identifier or as spaced words)."""
    if not names:
        return set()
    return _mentioned(text, text.lower(), _PropNames.of(names))


def explained_params(text: str, names: Sequence[str]) -> set[str]:
    """Names that are introduced like a parameter entry ("name (type): meaning", "- name: ..."),
    at the start of a line or inline ("Args: topic: Health topic ...")."""
    if not names:
        return set()
    entries = {m.group(1).lower() for m in PARAM_LINE.finditer(text)}
    entries |= {m.group(1).lower() for m in _INLINE_ENTRY.finditer(text)}
    return {n for n in names if n.lower() in entries}


def schema_as_prose(schema: Any) -> str:
    """Render the schema's own parameter documentation as an "Args:" section.

    The calibration judges never saw the schema, so the model learns parameter quality from prose.
    At runtime we also want credit for parameters documented in the schema; rendering them the way
    a well-documented docstring would ("name (type, required): description. Default: x. One of:
    a, b.") lets the *same* prose-trained model score that evidence. Only fields that carry real
    information are rendered: a property without description/enum/default/format adds just its name.
    """
    props = schema_properties(schema)
    if not props:
        return ""
    required = schema_required(schema)
    lines = ["Args:"]
    for name, spec in props.items():
        bits: list[str] = []
        typ = spec.get("type")
        if isinstance(typ, str):
            bits.append(typ)
        bits.append("required" if name in required else "optional")
        desc = spec.get("description")
        parts: list[str] = []
        if isinstance(desc, str) and desc.strip():
            parts.append(" ".join(desc.split()))
        fmt = spec.get("format")
        if isinstance(fmt, str):
            parts.append(f"Format: {fmt}.")
        enum = spec.get("enum")
        if isinstance(enum, list) and enum:
            parts.append("One of: " + ", ".join(str(e) for e in enum[:12]) + ".")
        if "default" in spec:
            parts.append(f"Defaults to {spec.get('default')!r}.")
        for key in ("minimum", "maximum", "minLength", "maxLength", "maxItems"):
            if key in spec:
                parts.append(f"{key}: {spec.get(key)}.")
        if not parts:
            continue
        lines.append(f"    {name} ({', '.join(bits)}): {' '.join(parts)}")
    return "\n".join(lines) if len(lines) > 1 else ""


# ---------------------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------------------
# Features


# log1p of the small counts `_cap_log` sees: a table lookup gives math.log1p's own values, several
# times faster than two builtin calls per feature (`values` caps ~25 counts, twice per tool)
_LOG1P_MAX = 60
_LOG1P: tuple[float, ...] = tuple(math.log1p(n) for n in range(_LOG1P_MAX + 1))


def _cap_log(x: int, cap: int) -> float:
    n = x if x < cap else cap
    return _LOG1P[n] if 0 <= n <= _LOG1P_MAX else math.log1p(n)


N_KINDS = len(LIMIT_KINDS)


@dataclass(frozen=True)
class Extracted:
    """Feature vector plus the facts reasons are written from."""

    values: tuple[float, ...]
    units: Units
    props: tuple[str, ...]
    mentioned: frozenset[str]
    explained: frozenset[str]
    usage_hits: int
    limit_hits: int
    example_hits: int
    return_hit: bool
    placeholder: bool = False
    # named as a parameter in the prose (`text`, "the limit parameter") without an entry of its own
    referenced: frozenset[str] = frozenset()

    def as_dict(self) -> dict[str, float]:
        return dict(zip(FEATURE_NAMES, self.values, strict=False))


def _unit_hits(hits: Sequence[re.Match[str]], starts: Sequence[int]) -> tuple[set[str], set[int]]:
    """(names of the cue patterns that matched, indices of the units they matched in) for the
    matches of a `family` regex over the units joined by newlines, `starts` being their offsets;
    no pattern crosses a newline."""
    if not hits:
        return set(), set()
    unit_of = bisect.bisect_right
    return {str(group_index(m)) for m in hits}, {unit_of(starts, m.start()) - 1 for m in hits}


@dataclass(slots=True)
class _Segment:
    """What a run of kept units contributes. Segments of one text merge by union / sum, so prose
    appended later (the schema's docs) is analysed on its own and merged, never re-scanned.

    Never modified once built; not declared frozen only because a frozen dataclass's `__init__`
    (one `object.__setattr__` per field) costs ~3x a plain one, and up to three are built per tool."""

    n_units: int
    usage_pat: frozenset[str]
    usage_units: int
    limit_pat: frozenset[str]
    limit_units: int
    limit_prose_units: int
    example_pat: frozenset[str]
    example_units: int
    strong: int
    kinds: tuple[int, ...]
    must_call: bool
    return_cue: bool
    return_section: bool
    content_list: bool
    qualifiers: frozenset[str]
    code_spans: frozenset[str]
    quoted: frozenset[str]
    numbers: frozenset[str]
    bullets: int
    headers: frozenset[str]
    param_lines: frozenset[str]
    fence: bool
    jsonish: bool
    param_section: bool
    type_words: bool
    format_words: bool
    default_words: bool
    cjk: bool
    mentioned: frozenset[str]
    explained: frozenset[str]
    detailed: frozenset[str]
    referenced: frozenset[str]
    conditional_units: int
    restrict_units: int
    constraint_lines: int

    def merge(self, o: _Segment) -> _Segment:
        return _Segment(
            self.n_units + o.n_units,
            self.usage_pat | o.usage_pat,
            self.usage_units + o.usage_units,
            self.limit_pat | o.limit_pat,
            self.limit_units + o.limit_units,
            self.limit_prose_units + o.limit_prose_units,
            self.example_pat | o.example_pat,
            self.example_units + o.example_units,
            self.strong + o.strong,
            tuple(a + b for a, b in zip(self.kinds, o.kinds, strict=True)),
            self.must_call or o.must_call,
            self.return_cue or o.return_cue,
            self.return_section or o.return_section,
            self.content_list or o.content_list,
            self.qualifiers | o.qualifiers,
            self.code_spans | o.code_spans,
            self.quoted | o.quoted,
            self.numbers | o.numbers,
            self.bullets + o.bullets,
            self.headers | o.headers,
            self.param_lines | o.param_lines,
            self.fence or o.fence,
            self.jsonish or o.jsonish,
            self.param_section or o.param_section,
            self.type_words or o.type_words,
            self.format_words or o.format_words,
            self.default_words or o.default_words,
            self.cjk or o.cjk,
            self.mentioned | o.mentioned,
            self.explained | o.explained,
            self.detailed | o.detailed,
            self.referenced | o.referenced,
            self.conditional_units + o.conditional_units,
            self.restrict_units + o.restrict_units,
            self.constraint_lines + o.constraint_lines,
        )


_EMPTY_SET: frozenset[str] = frozenset()


def _no_digit(text: str) -> bool:
    """`text` certainly holds no `\\d` character, so NUMBER cannot match: an ASCII text without 0-9
    (any other text may hold a non-ASCII digit, and is scanned)."""
    return text.isascii() and not any(map(text.__contains__, "0123456789"))


def _segment(kept: Sequence[str], props: _PropNames) -> _Segment:
    if not kept:
        return _Segment(
            0, _EMPTY_SET, 0, _EMPTY_SET, 0, 0, _EMPTY_SET, 0, 0, (0,) * N_KINDS, False, False, False, False,
            _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, 0, _EMPTY_SET, _EMPTY_SET, False, False, False,
            False, False, False, False, _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, 0, 0, 0,
        )  # fmt: skip
    joined = "\n".join(kept)
    low = joined.lower()
    starts: list[int] = []
    pos = 0
    for unit in kept:
        starts.append(pos)
        pos += len(unit) + 1
    usage = list(_USAGE.finditer(low))
    limit = list(_LIMIT.finditer(low))
    example = list(_EXAMPLE.finditer(low))
    kind_hits = list(_KINDS.finditer(low))
    strong_hits = _STRONG_LIMIT.finditer(low)
    qualifiers = QUALIFIERS.finditer(low)
    param_keywords = PARAM_KEYWORD.finditer(low)
    conditional_hits = LIM_CONDITIONAL.finditer(low)
    restrict_hits = LIM_RESTRICT.finditer(low)
    usage_pat, usage_units = _unit_hits(usage, starts)
    limit_pat, limit_units = _unit_hits(limit, starts)
    ex_pat, ex_units = _unit_hits(example, starts)
    kinds: Sequence[int] = (0,) * N_KINDS
    if kind_hits:
        kind_units: list[set[int]] = [set() for _ in range(N_KINDS)]
        for m in kind_hits:
            kind_units[group_index(m)].add(bisect.bisect_right(starts, m.start()) - 1)
        kinds = [len(u) for u in kind_units]
    strong = {bisect.bisect_right(starts, m.start()) - 1 for m in strong_hits}
    param_line_units: set[int] = set()
    param_lines: set[str] = set()
    for m in PARAM_LINE.finditer(joined):
        param_lines.add(m.group(1).lower())
        param_line_units.add(bisect.bisect_right(starts, m.start()) - 1)
    # per-unit parameter entries ("name (type): text"), each judged on its own text
    detailed_lines: set[str] = set()
    constraint_units = 0
    for unit in kept if param_lines else ():  # an entry line is also a PARAM_LINE match
        e = PARAM_ENTRY.match(unit)
        if e is None:
            continue
        rest = unit[e.start(2) if e.group(2) is not None else e.start(3) :].lower()
        if PARAM_DETAIL.search(rest):
            detailed_lines.add(e.group(1).lower())
        if PARAM_CONSTRAINT.search(rest):
            constraint_units += 1
    conditional = {bisect.bisect_right(starts, m.start()) - 1 for m in conditional_hits}
    restrict = {bisect.bisect_right(starts, m.start()) - 1 for m in restrict_hits}
    code_spans = frozenset(m.strip() for m in CODE_SPAN.findall(joined))
    quoted = frozenset(next(g for g in m if g) for m in QUOTED.findall(joined))
    if props.names:
        names, lowers = props.names, props.lowers
        # an inline entry only matters if it names a property (and is not a parameter line already)
        entries = param_lines | _inline_entries(joined, low, {n for n in lowers if n not in param_lines})
        explained = frozenset(n for n, lo in zip(names, lowers, strict=True) if lo in entries)
        mentioned = frozenset(_mentioned(joined, low, props))
        detailed = frozenset(
            n for n, lo in zip(names, lowers, strict=True) if n in explained and lo in detailed_lines
        )
        if mentioned:
            refs: set[str] = set()
            for m in param_keywords:
                after = _REF_AFTER.match(low, m.end())
                if after:
                    refs.add(after.group(1))
                before = _REF_BEFORE.search(low, max(0, m.start() - 80), m.start())
                if before:
                    refs.add(before.group(1))
            refs |= {c.lower() for c in code_spans} | {q.lower() for q in quoted}
            referenced = frozenset(
                n for n, lo in zip(names, lowers, strict=True) if n in mentioned and lo in refs
            )
        else:
            referenced = _EMPTY_SET
    else:
        explained = mentioned = detailed = referenced = _EMPTY_SET
    return _Segment(
        n_units=len(kept),
        usage_pat=frozenset(usage_pat),
        usage_units=len(usage_units),
        limit_pat=frozenset(limit_pat),
        limit_units=len(limit_units),
        limit_prose_units=len(limit_units - param_line_units),
        example_pat=frozenset(ex_pat),
        example_units=len(ex_units),
        strong=len(strong),
        kinds=tuple(kinds),
        must_call=MUST_CALL.search(low) is not None,
        return_cue=_RETURN.search(low) is not None,
        return_section=RETURN_SECTION.search(joined) is not None,
        content_list=_CONTENT_LIST.search(low) is not None,
        qualifiers=frozenset(m.group(0) for m in qualifiers),
        code_spans=code_spans,
        quoted=quoted,
        numbers=_EMPTY_SET if _no_digit(joined) else frozenset(NUMBER.findall(joined)),
        bullets=sum(1 for u in kept if BULLET.match(u)),
        headers=frozenset(m.group(0).strip().lower() for m in HEADER.finditer(joined)),
        param_lines=frozenset(param_lines),
        fence="```" in joined,
        jsonish=JSONISH.search(joined) is not None,
        param_section=PARAM_SECTION.search(joined) is not None,
        type_words=TYPE_WORDS.search(low) is not None,
        format_words=FORMAT_WORDS.search(low) is not None,
        default_words=DEFAULT_WORDS.search(low) is not None,
        cjk=not joined.isascii() and CJK.search(joined) is not None,
        mentioned=mentioned,
        explained=explained,
        detailed=detailed,
        referenced=referenced,
        conditional_units=len(conditional),
        restrict_units=len(restrict),
        constraint_lines=constraint_units,
    )


def _name_tokens(name: str) -> frozenset[str]:
    return frozenset(t for t in _NAME_SPLIT.split(_CAMEL.sub(" ", name).lower()) if t)


@dataclass(frozen=True)
class Analysis:
    """A tool's description analysed once. `with_extra` appends more prose (the schema's parameter
    docs) incrementally: only the new units are scanned, then the segments are merged."""

    name_tokens: frozenset[str]
    props: tuple[str, ...]
    known_no_params: bool
    state: _UnitState
    kept: tuple[str, ...]
    first_verb: bool
    seg: _Segment
    prop_names: _PropNames  # `props` prepared for the per-segment look-ups
    cues: frozenset[str] = frozenset()  # components an explicit cue of the description gives

    def with_extra(self, extra: str) -> Analysis:
        if not extra:
            return self
        state = self.state.copy()
        new = state.add(split_units(extra), appended=True)
        if not new:
            return Analysis(
                self.name_tokens,
                self.props,
                self.known_no_params,
                state,
                self.kept,
                self.first_verb,
                self.seg,
                self.prop_names,
                self.cues,
            )
        first_verb = self.first_verb if self.kept else bool(VERB_START.match(new[0]))
        seg = self.seg.merge(_segment(new, self.prop_names))
        return Analysis(
            self.name_tokens,
            self.props,
            self.known_no_params,
            state,
            (*self.kept, *new),
            first_verb,
            seg,
            self.prop_names,
            self.cues,
        )

    @property
    def placeholder(self) -> bool:
        """No content word outside PLACEHOLDER_WORDS (an empty or "No description" text)."""
        return self.state.vocab <= PLACEHOLDER_WORDS

    def features(self) -> dict[str, float]:
        """Every feature by name, in the order of FEATURE_NAMES (the order the lab fits in): one
        mapping, so a value can never drift from its name."""
        s = self.seg
        state = self.state
        nv = len(state.vocab)
        lv = math.log1p(nv)
        name_toks = self.name_tokens
        n_props = len(self.props)
        kinds = s.kinds
        return {
            "bias": 1.0,
            "vocab_log": lv,
            "novel_units_log": _cap_log(state.novel, 60),
            "one_unit": 1.0 if state.novel <= 1 else 0.0,
            "vocab_le5": 1.0 if nv <= 5 else 0.0,
            "vocab_ge40": 1.0 if nv >= 40 else 0.0,
            "vocab_ge100": 1.0 if nv >= 100 else 0.0,
            "cjk": 1.0 if s.cjk else 0.0,
            "cjk_vocab": lv if s.cjk else 0.0,
            "verb_start": 1.0 if self.first_verb else 0.0,
            "content_list": 1.0 if s.content_list else 0.0,
            "qualifiers": _cap_log(len(s.qualifiers), 6),
            "name_overlap": len(name_toks & state.vocab) / len(name_toks) if name_toks else 0.0,
            "return_cue": 1.0 if s.return_cue else 0.0,
            "return_section": 1.0 if s.return_section else 0.0,
            "usage_patterns": float(min(len(s.usage_pat), 4)),
            "usage_units_log": _cap_log(s.usage_units, 8),
            "limit_patterns": float(min(len(s.limit_pat), 6)),
            "limit_units_log": _cap_log(s.limit_units, 10),
            "limit_strong": _cap_log(s.strong, 6),
            "example_cue": 1.0 if s.example_pat else 0.0,
            "example_units_log": _cap_log(s.example_units, 8),
            "code_spans_log": _cap_log(len(s.code_spans), 12),
            "quoted_log": _cap_log(len(s.quoted), 12),
            "fence": 1.0 if s.fence else 0.0,
            "jsonish": 1.0 if s.jsonish else 0.0,
            "numbers_log": _cap_log(len(s.numbers), 12),
            "bullets_log": _cap_log(s.bullets, 20),
            "headers_log": _cap_log(len(s.headers), 8),
            "param_section": 1.0 if s.param_section else 0.0,
            "param_lines_log": _cap_log(len(s.param_lines), 12),
            "n_props_log": math.log1p(min(n_props, 20)),
            "no_props": 1.0 if n_props == 0 else 0.0,
            "frac_mentioned": len(s.mentioned) / n_props if n_props else 0.0,
            "frac_explained": len(s.explained) / n_props if n_props else 0.0,
            "n_explained_log": _cap_log(len(s.explained) if n_props else len(s.param_lines), 12),
            "type_words": 1.0 if s.type_words else 0.0,
            "format_words": 1.0 if s.format_words else 0.0,
            "default_words": 1.0 if s.default_words else 0.0,
            # lim_scope, lim_fail, ... (lexicon.yaml `limit_kinds`)
            **{name: _cap_log(k, 6) for name, k in zip(LIMIT_KIND_NAMES, kinds, strict=True)},
            "lim_kinds": float(N_KINDS - kinds.count(0)),  # kinds covered
            "lim_prose_units_log": _cap_log(s.limit_prose_units, 10),
            "must_call": 1.0 if s.must_call else 0.0,
            "known_no_params": 1.0 if self.known_no_params else 0.0,
            "frac_detailed": len(s.detailed) / n_props if n_props else 0.0,
            "frac_referenced": len(s.referenced) / n_props if n_props else 0.0,
            "lim_conditional_log": _cap_log(s.conditional_units, 8),
            "lim_restrict_log": _cap_log(s.restrict_units, 6),
            "param_constraints_log": _cap_log(s.constraint_lines, 10),
        }

    def values(self) -> tuple[float, ...]:
        """`features()` as the vector the model reads (FEATURE_NAMES order)."""
        return tuple(self.features().values())

    def extracted(self) -> Extracted:
        s = self.seg
        state = self.state
        return Extracted(
            values=self.values(),
            units=Units(self.kept, state.novel, frozenset(state.vocab), len(state.filler)),
            props=self.props,
            mentioned=s.mentioned,
            explained=s.explained,
            referenced=s.referenced,
            usage_hits=s.usage_units,
            limit_hits=s.limit_units,
            example_hits=s.example_units + len(s.code_spans) + len(s.quoted),
            return_hit=s.return_cue,
            placeholder=self.placeholder,
        )


def analyze(
    name: str, description: str, schema: Any, siblings: Sequence[str] = (), *, specificity: bool = True
) -> Analysis:
    """Analyse a tool's name and description; the schema is read only for its parameter names, the
    names of the server's other tools only for the domain's nouns (see `Anchors`).

    `specificity=False` keeps every unit that is not boilerplate, as the calibration judges read the
    text: the model is fitted on that, and the runtime drops what is not specific to the tool.
    """
    text = description if isinstance(description, str) else ""
    anchors = Anchors.of(name, schema, siblings)
    props = tuple(schema_properties(schema))
    name_words = _name_tokens(name)
    # the name as the text's tokens see it too ("npmVersions" is one token there, two in name_words)
    state = _UnitState(
        set(),
        set(),
        set(),
        name_words=name_words | frozenset(tokens(name)),
        anchors=anchors if specificity else None,
    )
    units = split_units(strip_repetition(text))
    kept = state.add(units)
    first_verb = bool(kept and VERB_START.match(kept[0]))
    known_none = isinstance(schema, Mapping) and all(p.startswith("_") for p in props)
    names = _PropNames.of(props)
    cues = explicit_cues(units, kept, anchors, props) if kept else frozenset()
    return Analysis(
        name_words, props, known_none, state, tuple(kept), first_verb, _segment(kept, names), names, cues
    )


def extract(
    name: str, description: str, schema: Any, extra: str = "", siblings: Sequence[str] = ()
) -> Extracted:
    """Features of a tool from its name, description and input schema (schema only for names).

    `extra` is more prose appended after the description - the runtime passes `schema_as_prose`
    here to score schema-side parameter documentation with the prose-trained model.
    """
    return analyze(name, description, schema, siblings).with_extra(extra).extracted()


# The features' names in the order of their vector (and of the weights the lab fits), read off the
# mapping itself so that the two can never disagree.
FEATURE_NAMES: tuple[str, ...] = tuple(analyze("", "", None).features())
