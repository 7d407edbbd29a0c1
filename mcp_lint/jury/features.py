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
import math
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mcp_lint.jury.regex_scan import CueScan, Gated, family, group_index, lowered

# ---------------------------------------------------------------------------------------------------
# Vocabularies


def _words(block: str) -> frozenset[str]:
    return frozenset(block.split())


STOPWORDS: frozenset[str] = _words(
    """
    a an the and or but nor so yet of to in on at by for with from into onto over under about as is
    are was were be been being am do does did done has have had having it its it's this that these
    those there here i you your yours we our us they them their he she his her him me my mine can
    could will would shall should may might must which who whom whose what when where why how all any
    each every some such no not only own same than too very just also more most other one ones if
    then else via per up out off again further once both few s t etc it’s
    """
)

# Words that carry no information about a specific tool. A unit made only of these (plus stopwords)
# is boilerplate and is ignored entirely. Kept deliberately broad: the cost of dropping a genuinely
# vacuous sentence is nil, and the benefit is that marketing filler can never raise a score.
GENERIC: frozenset[str] = _words(
    """
    tool tools function functions utility utilities powerful useful helpful handy great good nice best
    better excellent awesome amazing fantastic wonderful incredible incredibly superb outstanding
    perfect ideal versatile flexible robust reliable efficient efficiently effective effectively
    seamless seamlessly easy easily simple simply intuitive convenient convenience fast quick quickly
    smart intelligent advanced modern innovative cutting edge state art high quality premium
    comprehensive complete full fully many much lots lot various variety wide range different diverse
    multiple several numerous situations situation scenarios scenario cases case contexts context
    circumstances purposes purpose tasks task needs need needed want wants wanted help helps helped
    helping assist assists assistance support supports supporting make makes making made life lives
    easier everyone anyone everybody anybody everything anything something things thing stuff way
    ways work works working well job jobs solution solutions feature features capability capabilities
    functionality designed built created crafted provide provides providing offer offers offering
    enable enables enabling allow allows allowing user users people really truly extremely highly
    super absolutely definitely certainly always often usually generally great-tool value valuable
    important essential crucial key vital productivity productive workflow workflows experience
    experiences benefit benefits boost boosts improve improves enhance enhances power empower
    empowers unlock unlocks use used using uses usage useful usefulness handle handles ready go
    love enjoy like day daily everyday world class best-in-class one-stop stop shop anywhere
    anytime time save saves saving effort efforts hassle free hassle-free trust trusted whenever
    wherever recommended recommend highly job jobs perfectly nicely greatly hugely massively
    remarkably exceptionally exceptional superior impressive impressively elegant elegantly
    straightforward painless smooth smoothly friendly user-friendly awesome cool neat brilliant
    fabulous stellar top notch top-notch world-class leading industry game changer game-changer
    next-level level seamless ultimate must-have go-to all-in-one tons plenty loads whole entire
    every possible imaginable kind kinds sort sorts type types lots others stuff assortment
    handy-dandy situation purpose-built intended meant serve serves serving part parts fine okay
    enterprise grade blazing blazingly lightning unparalleled unmatched unrivaled unrivalled
    unbeatable unprecedented revolutionary breakthrough groundbreaking breed battle tested scalable
    deliver delivers delivering delivered tier performant optimized optimised beautiful
    beautifully magic magical effortless effortlessly instant instantly rapid rapidly accurate
    accurately precise secure securely cutting toolkit toolbox ever you'll you're we're we've that's
    thousands millions developers around globe please kindly unless cannot whatever exactly
    essentially basically own below above e g tl dr sure goes gracefully risk leverage streamline
    accomplish goals thank thanks happy coding self explanatory practices mind suggests words powered
    integrate ease readme official
    """
) | _words(
    # lorem ipsum, the placeholder text of templates: never about any tool (English-looking words of
    # the passage such as "id", "in", "non", "ad" and "ex" are left out, since they carry meaning)
    """
    lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor incididunt ut labore et
    dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip
    commodo consequat duis aute irure reprehenderit voluptate velit esse cillum fugiat nulla pariatur
    excepteur sint occaecat cupidatat proident culpa officia deserunt mollit laborum
    """
)

# Words that name what a sentence is about in the rubric's own terms (a limitation, an example, a
# parameter, a result, a case to use it in) without saying anything about the tool: "This tool has
# some limitations.", "Returns the result.", "Note: results may vary.", "Use it when appropriate." A
# unit whose content words are all generic or vacuous is ignored like boilerplate (the cue it seems
# to carry is empty); beside a specific word, in a unit that is kept, they count as usual.
VACUOUS: frozenset[str] = _words(
    """
    appropriate appropriately inappropriate correct correctly incorrect right wrong proper properly
    accordingly necessary relevant applicable suitable required requirement requirements
    limitation limitations limit limits limited constraint constraints restriction restrictions
    caveat caveats issue issues problem problems error errors exception exceptions
    result results output outputs return returns returned returning response responses value values
    data information info example examples sample samples instance instances illustration
    call calls called calling invoke invokes invoked
    argument arguments parameter parameters param params input inputs option options field fields
    setting settings format formats formatted note notes notice warning warnings caution reminder
    remember tip tips vary varies work fail fails failure expected unexpected sometimes certain given
    specified provided request requests requested operation operations action actions apply applies
    occur occurs careful carefully sense valid invalid pass passes passed contain
    contains containing documentation docs details detail refer see summarize summary args arg kwargs
    description overview introduction include includes including included message messages started
    schema schemas
    """
)

# A description whose every content word is one of these ("No description", "TODO", "N/A", or an
# empty text) says nothing at all: the rubric's bottom. Such a tool is flagged `placeholder` and
# scored 1 on every component judged from the prose, not by the fitted model (see `lab/calibration.py`).
PLACEHOLDER_WORDS: frozenset[str] = _words(
    """
    description descriptions desc available provided given todo tbd tba na placeholder none null nil
    undefined empty yet missing fixme xxx n nan
    """
)

# Cue phrases, matched on lower-cased informative units (word-boundary regexes).
USAGE_CUES: tuple[str, ...] = (
    r"\buse (?:this|it|the \w+ tool)? ?(?:when|if|to|for|before|after|instead|only)\b",
    r"\buse when\b",
    r"when (?:you|the user|a user|users|the agent|an agent) (?:need|want|ask|request|has|have|are)",
    r"call (?:this|it)",
    r"(?:do not|don't|never) (?:use|call)",
    r"instead of",
    r"\binstead\b",
    r"only (?:when|if|after|before)",
    r"\bprefer",
    r"should (?:be used|be called|use|call)",
    r"\brecommended\b",
    r"\bbefore (?:calling|using|running|you)",
    r"\bafter (?:calling|using|running|you)",
    r"\bfirst\b.*\bthen\b",
    r"\bin order to\b",
    r"\bbest (?:for|used)\b",
    r"\bideal for\b",
    r"\bwhen to use\b",
    r"\busage\b",
    r"\bworkflow\b",
    r"\bif you\b",
    r"\bfollowed by\b",
    r"\bsee also\b",
    r"\bfor (?:example,? )?when\b",
    r"适用|使用此|调用|当用户",
)
LIMIT_CUES: tuple[str, ...] = (
    r"\bdoes not\b|\bdoesn't\b|\bdo not\b|\bdon't\b|\bwill not\b|\bwon't\b",
    r"\bcannot\b|\bcan't\b|\bcan not\b|\bunable\b",
    r"\bonly\b",
    r"\blimit(?:s|ed|ation|ations)?\b",
    r"\bmax(?:imum)?\b|\bat most\b|\bup to\b|\bno more than\b|\bmin(?:imum)?\b|\bat least\b",
    r"\bnot supported\b|\bunsupported\b|\bnot available\b",
    r"\brequire[sd]?\b|\bmust\b|\bneeds? to be\b",
    r"\brate[- ]limit",
    r"\bnote:?\b|\bwarning\b|\bcaveat\b|\bimportant:|\bcaution\b",
    r"\bfail(?:s|ed|ure)?\b|\berrors?\b|\bexceptions?\b|\braises?\b|\bthrows?\b",
    r"\bexceed",
    r"\bwithout\b|\bexcept\b|\bunless\b",
    r"\bread[- ]only\b|\bdestructive\b|\birreversible\b|\bpermanent(?:ly)?\b|\boverwrite",
    r"\btimeout\b|\bexpire",
    r"\bnot\b",
    r"仅|只|不支持|限制|失败|错误",
)
EXAMPLE_CUES: tuple[str, ...] = (
    r"\be\.g\b|\beg\b|\bfor example\b|\bfor instance\b|\bexamples?\b|\bsample\b",
    r"\bsuch as\b|\blike\b ['\"`]",
    r"\bi\.e\.",
    r"例如|示例|比如",
)
RETURN_CUES: tuple[str, ...] = (
    r"\breturn(?:s|ed|ing)?\b|\boutputs?\b|\bresponds? with\b|\byields?\b|\bresults?\b|\bresponse\b",
    r"返回|输出|结果",
)
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
GLUED_SENTENCE_OPENERS = (
    "This|It|Its|These|They|You|We|Our|Your|Great|Highly|Perfect|Ideal|Simply|Just|Easily|Use|Best|"
    "Enjoy|Works|Very|Really|Truly|Super|Note|Important|Warning|Caution|Tip|Remember|Please|Returns|"
    "Example|Examples|Always|Never"
)
# Openers that start a glued sentence only when a lower-case word follows them, so that Title Case
# ("Get All Issues", "Search The Web") is not cut.
GLUED_OPENERS_BEFORE_LOWER = (
    "All|Only|Do|Some|Each|Any|Errors|Call|The|For|See|If|When|Arguments|Parameters|Results"
)
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

# The cue regexes as `_segment` scans them, with the one-pass machinery of `regex_scan`.
_USAGE = family(USAGE_CUES, CJK)
_LIMIT = family(LIMIT_CUES, CJK)
_EXAMPLE = family(EXAMPLE_CUES, CJK)
_RETURN = re.compile("|".join(f"(?:{p})" for p in RETURN_CUES))
_STRONG_LIMIT = re.compile(
    r"\bdoes not\b|\bdoesn't\b|\bcannot\b|\bcan't\b|\bnot supported\b|\bunsupported\b|\bat most\b|"
    r"\bmax(?:imum)?\b|\blimit|\bonly (?:supports?|works?|returns?|available)\b|\bup to \d|\brate",
)
# Kinds of limitation statement (scope, failure, quantity, negation, prerequisite, side effect, note);
# the number of distinct kinds a description covers tracks the judges' limitation score.
LIMIT_KINDS: tuple[str, ...] = (
    r"\bonly (?:works?|supports?|available|applies|returns?|searches|accepts?|within|for|in|on|when|if|"
    r"from|the)\b|\bwithin (?:the )?allowed\b|\blimited to\b|\brestricted to\b|\bnot both\b|\brather than\b|"
    r"仅|只能",
    r"\bwill fail\b|\bfails?\b|\bfailure\b|\berrors? (?:if|when|is)\b|\b(?:returns?|raises?|throws?) "
    r"(?:an? )?(?:error|exception)|\binvalid\b|失败|错误",
    r"\b(?:max(?:imum)?|at most|up to|no more than|limit(?:ed)?(?: of| to)?|at least|minimum|between)\b"
    r"[^.\n]{0,25}\d|\b\d+ (?:results|items|requests|characters|chars|tokens|records|pages|rows|mb|kb)\b|"
    r"\bper (?:request|minute|second|hour|day|call|page)\b|\brate[- ]limit|\bquota\b|\btimeout\b",
    r"\bdoes not\b|\bdoesn't\b|\bcannot\b|\bcan't\b|\bcan not\b|\bnot supported\b|\bunsupported\b|"
    r"\bwon't\b|\bwill not\b|\bnot (?:available|included|include|return|work)|\bunable\b|不支持|无法",
    r"\brequires?\b|\bprerequisite|\bmust (?:be|have|exist)\b|\bneeds? to be\b|\bapi key\b|\bauthenticat|"
    r"\bpermissions?\b|需要",
    r"\boverwrit|\bpermanent|\birreversib|\bdestructive\b|\bread[- ]only\b|\bcannot be undone\b|"
    r"\bdeprecated\b|\bexperimental\b|\bside effects?\b|\bcaution\b",
    r"\bnote\s*[:：]|\bnote that\b|\bplease note\b|\bwarning\b|\bcaveat|\bimportant\b|\blimitations?\b|"
    r"\bconstraints?\b|注意",
)
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
_G_JSONISH = Gated(JSONISH)
_G_HEADER = Gated(HEADER)
_G_PARAM_LINE = Gated(PARAM_LINE)
_G_CODE_SPAN = Gated(CODE_SPAN)
_G_QUOTED = Gated(QUOTED)
# The case-insensitive section regexes as case-sensitive ones for ASCII text lower-cased (None if
# that cannot be shown, see `lowered`); `_NEVER` stands in for a missing one, and never matches.
_RETURN_SECTION_ASCII = lowered(RETURN_SECTION)
_PARAM_SECTION_ASCII = lowered(PARAM_SECTION)
_NEVER = re.compile("(?!)")
# The regexes `_segment` runs over the lower-cased units, found in one pass (see `CueScan`);
# `first_only` marks those it only asks whether they match.
_CUE_SCAN = CueScan(
    (
        _USAGE,
        _LIMIT,
        _EXAMPLE,
        _KINDS,
        _CONTENT_LIST,
        _STRONG_LIMIT,
        MUST_CALL,
        _RETURN,
        QUALIFIERS,
        TYPE_WORDS,
        FORMAT_WORDS,
        DEFAULT_WORDS,
        PARAM_KEYWORD,
        LIM_CONDITIONAL,
        LIM_RESTRICT,
        _RETURN_SECTION_ASCII or _NEVER,
        _PARAM_SECTION_ASCII or _NEVER,
    ),
    first_only=(4, 6, 7, 9, 10, 11, 15, 16),
)
_NAME_SPLIT = re.compile(r"[^a-z0-9]+")
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
    """Lower-cased word tokens; each CJK character counts as its own token."""
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

    def copy(self) -> _UnitState:
        return _UnitState(
            set(self.seen),
            set(self.filler),
            set(self.vocab),
            self.novel,
            set(self.specific),
            self.name_words,
            set(self.specific_words),
        )

    def add(self, units: Iterable[str], *, appended: bool = False) -> list[str]:
        """Keep the informative units; `appended` prose (the schema's docs) has no title to drop."""
        kept: list[str] = []
        headings: list[tuple[str, str, set[str]]] = []  # vacuous headings waiting for a kept unit
        seen, filler = self.seen, self.filler
        for unit in units:
            item = _LIST_MARKER.sub("", unit, count=1)
            if _LIST_NUMBER.fullmatch(item):
                continue
            toks = tokens(item)
            key = " ".join(toks) if toks else item.strip()
            if key in seen or key in filler:
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
                self.specific
                and item == unit
                and (specific <= self.name_words or (labelled and specific <= self.specific_words))
                and not _KEEPS_RESTATEMENT.search(unit)
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


_CAMEL_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _name_variants(name: str) -> set[str]:
    low = name.lower()
    camel = low if name == low else _CAMEL_BREAK.sub(" ", name).lower()  # no capital: nothing to split
    spaced = camel.replace("_", " ").replace("-", " ")
    return {low, spaced.strip()}


_INLINE_ENTRY = re.compile(
    r"(?<![A-Za-z0-9_])`?([A-Za-z_][A-Za-z0-9_]*)`?(?=\s*(?:\([^)]{0,40}\))?\s*[:=–—]\s*\w)"
)
_ALNUM = re.compile(r"[a-z0-9]+")
_G_INLINE_ENTRY = Gated(_INLINE_ENTRY)

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
        entries = {m.group(1).lower() for m in _G_INLINE_ENTRY.finditer(text)}
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


FEATURE_NAMES: tuple[str, ...] = (
    "bias",
    "vocab_log",
    "novel_units_log",
    "one_unit",
    "vocab_le5",
    "vocab_ge40",
    "vocab_ge100",
    "cjk",
    "cjk_vocab",
    "verb_start",
    "content_list",
    "qualifiers",
    "name_overlap",
    "return_cue",
    "return_section",
    "usage_patterns",
    "usage_units_log",
    "limit_patterns",
    "limit_units_log",
    "limit_strong",
    "example_cue",
    "example_units_log",
    "code_spans_log",
    "quoted_log",
    "fence",
    "jsonish",
    "numbers_log",
    "bullets_log",
    "headers_log",
    "param_section",
    "param_lines_log",
    "n_props_log",
    "no_props",
    "frac_mentioned",
    "frac_explained",
    "n_explained_log",
    "type_words",
    "format_words",
    "default_words",
    "lim_scope",
    "lim_fail",
    "lim_quant",
    "lim_negation",
    "lim_prereq",
    "lim_effect",
    "lim_note",
    "lim_kinds",
    "lim_prose_units_log",
    "must_call",
    "known_no_params",
    "frac_detailed",
    "frac_referenced",
    "lim_conditional_log",
    "lim_restrict_log",
    "param_constraints_log",
)
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
    (
        usage,
        limit,
        example,
        kind_hits,
        content_list,
        strong_hits,
        must_call,
        return_cue,
        qualifiers,
        type_words,
        format_words,
        default_words,
        param_keywords,
        conditional_hits,
        restrict_hits,
        return_section_ascii,
        param_section_ascii,
    ) = _CUE_SCAN.scan(low)
    if joined.isascii() and _RETURN_SECTION_ASCII:
        return_section = bool(return_section_ascii)
    else:
        return_section = RETURN_SECTION.search(joined) is not None
    if joined.isascii() and _PARAM_SECTION_ASCII:
        param_section = bool(param_section_ascii)
    else:
        param_section = PARAM_SECTION.search(joined) is not None
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
    for m in _G_PARAM_LINE.finditer(joined):
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
    code_spans = frozenset(m.strip() for m in _G_CODE_SPAN.findall(joined))
    quoted = frozenset(next(g for g in m if g) for m in _G_QUOTED.findall(joined))
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
        must_call=bool(must_call),
        return_cue=bool(return_cue),
        return_section=return_section,
        content_list=bool(content_list),
        qualifiers=frozenset(m.group(0) for m in qualifiers),
        code_spans=code_spans,
        quoted=quoted,
        numbers=_EMPTY_SET if _no_digit(joined) else frozenset(NUMBER.findall(joined)),
        bullets=sum(1 for u in kept if BULLET.match(u)),
        headers=frozenset(m.group(0).strip().lower() for m in _G_HEADER.finditer(joined)),
        param_lines=frozenset(param_lines),
        fence="```" in joined,
        jsonish=_G_JSONISH.search(joined),
        param_section=param_section,
        type_words=bool(type_words),
        format_words=bool(format_words),
        default_words=bool(default_words),
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
        )

    @property
    def placeholder(self) -> bool:
        """No content word outside PLACEHOLDER_WORDS (an empty or "No description" text)."""
        return self.state.vocab <= PLACEHOLDER_WORDS

    def values(self) -> tuple[float, ...]:
        s = self.seg
        state = self.state
        nv = len(state.vocab)
        lv = math.log1p(nv)
        name_toks = self.name_tokens
        n_props = len(self.props)
        kinds = s.kinds
        return (
            1.0,
            lv,
            _cap_log(state.novel, 60),
            1.0 if state.novel <= 1 else 0.0,
            1.0 if nv <= 5 else 0.0,
            1.0 if nv >= 40 else 0.0,
            1.0 if nv >= 100 else 0.0,
            1.0 if s.cjk else 0.0,
            lv if s.cjk else 0.0,
            1.0 if self.first_verb else 0.0,
            1.0 if s.content_list else 0.0,
            _cap_log(len(s.qualifiers), 6),
            len(name_toks & state.vocab) / len(name_toks) if name_toks else 0.0,
            1.0 if s.return_cue else 0.0,
            1.0 if s.return_section else 0.0,
            float(min(len(s.usage_pat), 4)),
            _cap_log(s.usage_units, 8),
            float(min(len(s.limit_pat), 6)),
            _cap_log(s.limit_units, 10),
            _cap_log(s.strong, 6),
            1.0 if s.example_pat else 0.0,
            _cap_log(s.example_units, 8),
            _cap_log(len(s.code_spans), 12),
            _cap_log(len(s.quoted), 12),
            1.0 if s.fence else 0.0,
            1.0 if s.jsonish else 0.0,
            _cap_log(len(s.numbers), 12),
            _cap_log(s.bullets, 20),
            _cap_log(len(s.headers), 8),
            1.0 if s.param_section else 0.0,
            _cap_log(len(s.param_lines), 12),
            math.log1p(min(n_props, 20)),
            1.0 if n_props == 0 else 0.0,
            len(s.mentioned) / n_props if n_props else 0.0,
            len(s.explained) / n_props if n_props else 0.0,
            _cap_log(len(s.explained) if n_props else len(s.param_lines), 12),
            1.0 if s.type_words else 0.0,
            1.0 if s.format_words else 0.0,
            1.0 if s.default_words else 0.0,
            *[_cap_log(k, 6) for k in kinds],
            float(N_KINDS - kinds.count(0)),  # kinds covered
            _cap_log(s.limit_prose_units, 10),
            1.0 if s.must_call else 0.0,
            1.0 if self.known_no_params else 0.0,
            len(s.detailed) / n_props if n_props else 0.0,
            len(s.referenced) / n_props if n_props else 0.0,
            _cap_log(s.conditional_units, 8),
            _cap_log(s.restrict_units, 6),
            _cap_log(s.constraint_lines, 10),
        )

    def extracted(self) -> Extracted:
        s = self.seg
        state = self.state
        return Extracted(
            values=self.values(),
            units=Units(self.kept, state.novel, frozenset(state.vocab), len(state.filler)),
            props=self.props,
            mentioned=s.mentioned,
            explained=s.explained,
            usage_hits=s.usage_units,
            limit_hits=s.limit_units,
            example_hits=s.example_units + len(s.code_spans) + len(s.quoted),
            return_hit=s.return_cue,
            placeholder=self.placeholder,
        )


def analyze(name: str, description: str, schema: Any) -> Analysis:
    """Analyse a tool's name and description; the schema is read only for its parameter names."""
    text = description if isinstance(description, str) else ""
    props = tuple(schema_properties(schema))
    name_words = _name_tokens(name)
    # the name as the text's tokens see it too ("npmVersions" is one token there, two in name_words)
    state = _UnitState(set(), set(), set(), name_words=name_words | frozenset(tokens(name)))
    kept = state.add(split_units(strip_repetition(text)))
    first_verb = bool(kept and VERB_START.match(kept[0]))
    known_none = isinstance(schema, Mapping) and all(p.startswith("_") for p in props)
    names = _PropNames.of(props)
    return Analysis(
        name_words, props, known_none, state, tuple(kept), first_verb, _segment(kept, names), names
    )


def extract(name: str, description: str, schema: Any, extra: str = "") -> Extracted:
    """Features of a tool from its name, description and input schema (schema only for names).

    `extra` is more prose appended after the description - the runtime passes `schema_as_prose`
    here to score schema-side parameter documentation with the prose-trained model.
    """
    return analyze(name, description, schema).with_extra(extra).extracted()
