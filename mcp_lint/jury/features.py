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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
# after a word ("... video ID This tool is ...") starts a new unit, so a sentence glued onto an
# unterminated last line is still judged on its own.
SENT_SPLIT = re.compile(
    r"(?<=[.!?。！？；;])\s+|(?<=[.!?]['\"”’)])\s+|(?<=[。！？；])|\n+|"
    r"(?<=[\w)\]'\"`”’])\s+(?=(?:This|It|Its|These|They|You|We|Our|Your|Great|Highly|Perfect|Ideal|"
    r"Simply|Just|Easily|Use|Best|Enjoy|Works|Very|Really|Truly|Super)\b)"
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


@dataclass(frozen=True)
class _Family:
    """Cue patterns of one kind, matched on lower-cased text (IGNORECASE is slow in `re`), with one
    combined pattern as a pre-filter so texts without any cue of the kind cost a single scan."""

    any: re.Pattern[str]
    each: tuple[re.Pattern[str], ...]


def _compile(patterns: Iterable[str]) -> _Family:
    pats = tuple(patterns)
    return _Family(re.compile("|".join(f"(?:{p})" for p in pats)), tuple(re.compile(p) for p in pats))


_USAGE = _compile(USAGE_CUES)
_LIMIT = _compile(LIMIT_CUES)
_EXAMPLE = _compile(EXAMPLE_CUES)
_RETURN = _compile(RETURN_CUES)

# ---------------------------------------------------------------------------------------------------
# Text units


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; each CJK character counts as its own token."""
    out: list[str] = []
    for word in WORD.findall(text.lower()):
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


@dataclass(frozen=True)
class Units:
    """The informative, de-duplicated units of a text and what they add."""

    kept: tuple[str, ...]  # informative units, duplicates (same word sequence) removed, in order
    novel: int  # kept units that add >= 1 content token not seen in an earlier unit
    vocab: frozenset[str]  # distinct content tokens over kept units
    filler: int  # distinct units dropped as boilerplate


def split_units(text: str) -> list[str]:
    return [u.strip() for u in SENT_SPLIT.split(text) if u and u.strip()]


def strip_repetition(text: str) -> str:
    """If the whole text is k >= 2 copies of one block (whatever separates them), keep one copy.

    Unit-level de-duplication already neutralises repeated sentences; this catches the case where a
    copy is glued to an unterminated last sentence ("... last line First sentence ..."), which would
    otherwise form a new unit.
    """
    matches = list(WORD.finditer(text))
    n = len(matches)
    if n < 2:
        return text
    words = [m.group(0).lower() for m in matches]
    for period in range(1, n // 2 + 1):
        if n % period == 0 and words == words[:period] * (n // period):
            return text[: matches[period].start()]
    return text


def informative_units(text: str, extra: str = "") -> Units:
    """Informative units of `text` (de-repeated), then of `extra` (e.g. rendered schema docs)."""
    seen: set[str] = set()
    filler: set[str] = set()
    kept: list[str] = []
    vocab: set[str] = set()
    novel = 0
    for unit in split_units(strip_repetition(text)) + split_units(extra):
        toks = tokens(unit)
        key = " ".join(toks) if toks else unit
        if key in seen:
            continue
        content = {t for t in toks if t not in STOPWORDS and t not in GENERIC}
        if toks and not content:  # boilerplate: only stopwords and generic words
            filler.add(key)
            continue
        seen.add(key)
        kept.append(unit)
        new = content - vocab
        if new:  # a unit that says nothing new (a re-mix of earlier words) adds no sentence count
            novel += 1
            vocab |= new
    return Units(tuple(kept), novel, frozenset(vocab), len(filler))


# ---------------------------------------------------------------------------------------------------
# Schema helpers


def schema_properties(schema: Any) -> dict[str, Mapping[str, Any]]:
    if not isinstance(schema, Mapping):
        return {}
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return {}
    return {str(k): (v if isinstance(v, Mapping) else {}) for k, v in props.items()}


def schema_required(schema: Any) -> set[str]:
    if not isinstance(schema, Mapping):
        return set()
    req = schema.get("required")
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


def _name_variants(name: str) -> set[str]:
    low = name.lower()
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower().replace("_", " ").replace("-", " ")
    return {low, spaced.strip()}


_INLINE_ENTRY = re.compile(r"`?([A-Za-z_][A-Za-z0-9_]*)`?(?=\s*(?:\([^)]{0,40}\))?\s*[:=–—]\s*\w)")
_ALNUM = re.compile(r"[a-z0-9]+")


def mentioned_params(text: str, names: Sequence[str]) -> set[str]:
    """Schema property names that appear in the text (as identifier or as spaced words)."""
    if not names:
        return set()
    idents = {m.lower() for m in IDENT.findall(text)}
    spaced_text = " " + " ".join(_ALNUM.findall(text.lower())) + " "
    found: set[str] = set()
    for name in names:
        for variant in _name_variants(name):
            if variant and (variant in idents or (" " in variant and f" {variant} " in spaced_text)):
                found.add(name)
                break
    return found


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
# Features


def _cue_hits(low: str, starts: Sequence[int], family: _Family) -> tuple[int, int]:
    """(number of distinct patterns matched, number of distinct units matching any pattern).

    `low` is the kept units joined by newlines, lower-cased, and `starts` their start offsets; no
    pattern crosses a newline, so each match lies inside one unit."""
    if not family.any.search(low):
        return 0, 0
    matched = 0
    units: set[int] = set()
    for pat in family.each:
        hit = False
        for m in pat.finditer(low):
            hit = True
            units.add(bisect.bisect_right(starts, m.start()) - 1)
        matched += hit
    return matched, len(units)


def _cap_log(x: float, cap: float) -> float:
    return math.log1p(min(x, cap))


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
    "must_call",
)


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

    def as_dict(self) -> dict[str, float]:
        return dict(zip(FEATURE_NAMES, self.values, strict=False))


_STRONG_LIMIT = re.compile(
    r"\bdoes not\b|\bdoesn't\b|\bcannot\b|\bcan't\b|\bnot supported\b|\bunsupported\b|\bat most\b|"
    r"\bmax(?:imum)?\b|\blimit|\bonly (?:supports?|works?|returns?|available)\b|\bup to \d|\brate",
)


LIMIT_KINDS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\bonly (?:works?|supports?|available|applies|returns?|searches|accepts?|within|for|in|on|"
        r"when|if|from|the)\b|\bwithin (?:the )?allowed\b|\blimited to\b|\brestricted to\b|"
        r"\bnot both\b|\beither\b.*\bor\b.*\bnot\b|仅|只能|仅支持"
    ),
    re.compile(
        r"\bwill fail\b|\bfails?\b|\bfailure\b|\berrors? (?:if|when|is)\b|\b(?:returns?|raises?|throws?) "
        r"(?:an? )?(?:error|exception)|\bif [^.\n]{0,60}(?:does not|doesn't|not) exist|\binvalid\b|失败|错误"
    ),
    re.compile(
        r"\b(?:max(?:imum)?|at most|up to|no more than|limit(?:ed)?(?: of| to)?|at least|minimum|between)"
        r"\b[^.\n]{0,25}\d|\b\d+ (?:results|items|requests|characters|chars|tokens|records|pages|rows|mb|kb)"
        r"\b|\bper (?:request|minute|second|hour|day|call|page)\b|\brate[- ]limit|\bquota\b|\btimeout\b"
    ),
    re.compile(
        r"\bdoes not\b|\bdoesn't\b|\bcannot\b|\bcan't\b|\bcan not\b|\bnot supported\b|\bunsupported\b|"
        r"\bwon't\b|\bwill not\b|\bnot (?:available|included|include|return|work)|\bunable\b|不支持|无法"
    ),
    re.compile(
        r"\brequires?\b|\brequired\b|\bprerequisite|\bmust (?:be|have|exist|first)\b|\bneeds? to be\b|"
        r"\bapi key\b|\bauthenticat|\bpermissions?\b|\bbefore (?:calling|using)\b|需要"
    ),
    re.compile(
        r"\boverwrit|\bpermanent|\birreversib|\bdestructive\b|\bread[- ]only\b|\bcannot be undone\b|"
        r"\bdeprecated\b|\bexperimental\b|\bside effects?\b|\bcaution\b"
    ),
    re.compile(r"\bnote\b|\bwarning\b|\bcaveat|\bimportant\b|\blimitations?\b|\bconstraints?\b|注意"),
)
MUST_CALL = re.compile(r"\b(?:you )?(?:\*?must\*? )(?:always )?(?:call|use|first)\b")


def extract(name: str, description: str, schema: Any, extra: str = "") -> Extracted:
    """Features of a tool from its name, description and input schema (schema only for names).

    `extra` is more prose appended after the description - the runtime passes `schema_as_prose`
    here to score schema-side parameter documentation with the prose-trained model.
    """
    text = description if isinstance(description, str) else ""
    units = informative_units(text, extra)
    kept = units.kept
    joined = "\n".join(kept)
    low = joined.lower()
    props = tuple(schema_properties(schema))
    vocab = units.vocab
    nv = len(vocab)

    name_toks = {t for t in re.split(r"[^a-z0-9]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).lower()) if t}
    name_overlap = len(name_toks & vocab) / len(name_toks) if name_toks else 0.0

    starts: list[int] = []
    pos = 0
    for unit in kept:
        starts.append(pos)
        pos += len(unit) + 1
    usage_pat, usage_units = _cue_hits(low, starts, _USAGE)
    limit_pat, limit_units = _cue_hits(low, starts, _LIMIT)
    ex_pat, ex_units = _cue_hits(low, starts, _EXAMPLE)
    ret_pat, _ = _cue_hits(low, starts, _RETURN)
    strong = len({bisect.bisect_right(starts, m.start()) - 1 for m in _STRONG_LIMIT.finditer(low)})

    code_spans = {m.strip() for m in CODE_SPAN.findall(joined)}
    quoted = {next(g for g in m if g) for m in QUOTED.findall(joined)}
    numbers = set(NUMBER.findall(joined))
    bullets = {u for u in kept if BULLET.match(u)}
    headers = {m.group(0).strip().lower() for m in HEADER.finditer(joined)}
    param_lines = {m.group(1).lower() for m in PARAM_LINE.finditer(joined)}

    kinds = []
    for pat in LIMIT_KINDS:
        hits = {bisect.bisect_right(starts, m.start()) - 1 for m in pat.finditer(low)}
        kinds.append(len(hits))
    mentioned = mentioned_params(joined, props)
    explained = explained_params(joined, props)
    n_props = len(props)
    values = (
        1.0,
        math.log1p(nv),
        _cap_log(units.novel, 60),
        1.0 if units.novel <= 1 else 0.0,
        1.0 if nv <= 5 else 0.0,
        1.0 if nv >= 40 else 0.0,
        1.0 if nv >= 100 else 0.0,
        1.0 if CJK.search(joined) else 0.0,
        math.log1p(nv) if CJK.search(joined) else 0.0,
        1.0 if kept and VERB_START.match(kept[0]) else 0.0,
        1.0 if CONTENT_LIST.search(low) else 0.0,
        _cap_log(len({m.group(0) for m in QUALIFIERS.finditer(low)}), 6),
        name_overlap,
        1.0 if ret_pat else 0.0,
        1.0 if RETURN_SECTION.search(joined) else 0.0,
        float(min(usage_pat, 4)),
        _cap_log(usage_units, 8),
        float(min(limit_pat, 6)),
        _cap_log(limit_units, 10),
        _cap_log(strong, 6),
        1.0 if ex_pat else 0.0,
        _cap_log(ex_units, 8),
        _cap_log(len(code_spans), 12),
        _cap_log(len(quoted), 12),
        1.0 if FENCE.search(joined) else 0.0,
        1.0 if JSONISH.search(joined) else 0.0,
        _cap_log(len(numbers), 12),
        _cap_log(len(bullets), 20),
        _cap_log(len(headers), 8),
        1.0 if PARAM_SECTION.search(joined) else 0.0,
        _cap_log(len(param_lines), 12),
        math.log1p(min(n_props, 20)),
        1.0 if n_props == 0 else 0.0,
        len(mentioned) / n_props if n_props else 0.0,
        len(explained) / n_props if n_props else 0.0,
        _cap_log(len(explained) if n_props else len(param_lines), 12),
        1.0 if TYPE_WORDS.search(low) else 0.0,
        1.0 if FORMAT_WORDS.search(low) else 0.0,
        1.0 if DEFAULT_WORDS.search(low) else 0.0,
        *(_cap_log(k, 6) for k in kinds),
        float(sum(1 for k in kinds if k)),
        1.0 if MUST_CALL.search(low) else 0.0,
    )
    return Extracted(
        values=values,
        units=units,
        props=props,
        mentioned=frozenset(mentioned),
        explained=frozenset(explained),
        usage_hits=usage_units,
        limit_hits=limit_units,
        example_hits=ex_units + len(code_spans) + len(quoted),
        return_hit=bool(ret_pat),
    )
