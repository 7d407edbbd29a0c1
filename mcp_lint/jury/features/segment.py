"""What a run of kept units contributes: one scan of the units for cues, literals, structure and
parameter evidence (`_segment`). Segments of one text merge (`_Segment.merge`), so prose appended
later (the schema's docs) is scanned on its own."""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from mcp_lint.jury.features import unitmemo
from mcp_lint.jury.features.lexicon import (
    _CONTENT_LIST,
    _EXAMPLE,
    _KINDS,
    _LIMIT,
    _REF_AFTER,
    _REF_BEFORE,
    _RETURN,
    _STRONG_LIMIT,
    _USAGE,
    CJK,
    CODE_SPAN,
    DEFAULT_WORDS,
    FORMAT_WORDS,
    HEADER,
    JSONISH,
    LIM_CONDITIONAL,
    LIM_RESTRICT,
    LIMIT_KINDS,
    MUST_CALL,
    NUMBER,
    PARAM_CONSTRAINT,
    PARAM_DETAIL,
    PARAM_ENTRY,
    PARAM_KEYWORD,
    PARAM_LINE,
    QUALIFIERS,
    QUOTED,
    TYPE_WORDS,
    has_param_section,
    has_return_section,
    is_bullet,
)
from mcp_lint.jury.features.schema import _inline_entries, _mentioned, _PropNames
from mcp_lint.jury.regex_scan import Gated, GateSet, Hit, gate_words

N_KINDS = len(LIMIT_KINDS)
_new = object.__new__  # (a `_Segment` whose fields are then set: see `_Segment`)

# The word-led patterns `_segment` scans the lower-cased text with, each scanned only when the text
# has a word its matches can start with (`regex_scan.WordGate`; the cue families gate themselves).
_G_STRONG_LIMIT = Gated(_STRONG_LIMIT)
_G_QUALIFIERS = Gated(QUALIFIERS)
_G_PARAM_KEYWORD = Gated(PARAM_KEYWORD)
_G_LIM_CONDITIONAL = Gated(LIM_CONDITIONAL)
_G_LIM_RESTRICT = Gated(LIM_RESTRICT)
_G_RETURN = Gated(_RETURN)
_G_TYPE_WORDS = Gated(TYPE_WORDS)
_G_FORMAT_WORDS = Gated(FORMAT_WORDS)
_G_NUMBER = Gated(NUMBER)  # on the text as given, not lower-cased (see `_segment`)
_G_DEFAULT_WORDS = Gated(DEFAULT_WORDS)
_G_MUST_CALL = Gated(MUST_CALL)
_G_PARAM_CONSTRAINT = Gated(PARAM_CONSTRAINT)  # (over the whole text, for every entry at once: `_ENTRIES`)

# ... whose gates are read together, in one pass over the words of the lower-cased text
# (`GateSet.opened`): a pattern the text turns away is not called, the others not asked again
_GATES = GateSet(
    (
        _USAGE.gated,
        _LIMIT.gated,
        _EXAMPLE.gated,
        _KINDS.gated,
        _G_STRONG_LIMIT,
        _G_QUALIFIERS,
        _G_PARAM_KEYWORD,
        _G_LIM_CONDITIONAL,
        _G_LIM_RESTRICT,
        _G_RETURN,
        _CONTENT_LIST.gated,
        _G_TYPE_WORDS,
        _G_FORMAT_WORDS,
        _G_DEFAULT_WORDS,
        _G_MUST_CALL,
    )
)
(
    _USAGE_OPEN,
    _LIMIT_OPEN,
    _EXAMPLE_OPEN,
    _KINDS_OPEN,
    _STRONG_OPEN,
    _QUALIFIERS_OPEN,
    _KEYWORD_OPEN,
    _CONDITIONAL_OPEN,
    _RESTRICT_OPEN,
    _RETURN_OPEN,
    _CONTENT_LIST_OPEN,
    _TYPE_WORDS_OPEN,
    _FORMAT_WORDS_OPEN,
    _DEFAULT_WORDS_OPEN,
    _MUST_CALL_OPEN,
) = (1 << i for i in range(15))
_NO_MATCHES: tuple[re.Match[str], ...] = ()
_NO_HITS: tuple[Hit, ...] = ()

# _LINE_LED: PARAM_LINE and HEADER start with `^` under MULTILINE, so they match only at the start of
# a line; in the units joined by newlines, when no unit has a newline of its own, the lines are the
# units. `finditer` over the text then finds exactly the matches at the unit starts, each one not
# inside the previous match (a match may take a newline and what follows it: "Args:" + "\n" +
# "query (str): ..." is a PARAM_LINE match). `_segment` tries just those starts (about four per
# text) instead of scanning every character of the text twice; tests/jury/test_segment_fast.py
# holds the two readings equal.

# _ENTRIES: a parameter entry ("name (type): text", PARAM_ENTRY matched on its unit alone) is judged
# on its rest: the parenthesised text and what follows, or the text after the separator, to the end
# of the unit. Its unit is one PARAM_LINE matches at (PARAM_LINE is PARAM_ENTRY behind `^\s*`, up
# to the first character of the text). When that match ends inside the unit and the unit does not
# start with a space, PARAM_ENTRY on the unit takes the same way through the same characters (each
# way PARAM_LINE tried before failed inside the unit, or past its end, where PARAM_ENTRY meets the
# end of its text), so the name and the rest's start are the line match's, without a second match;
# a unit that starts with a space has no entry (PARAM_ENTRY starts with a name or a list mark). A
# line match that goes on into the next unit ("name (a" + "\n" + "b): c") leaves it to PARAM_ENTRY.
# The rest is searched in place (`search(low, start, end)`: the same `\b`s, as "(" or a space
# stands before it and a newline or the end after it) where lower-casing kept every offset, and
# PARAM_CONSTRAINT is found once over the whole text (behind its word gate): no match of it holds a
# newline, "(", or a separator followed by a space, so none runs across a rest's ends, and a rest
# has a constraint exactly when a match of the text starts inside it.


def _unit_hits(hits: Sequence[Hit], starts: Sequence[int]) -> tuple[frozenset[str], AbstractSet[int]]:
    """(names of the cue patterns that matched, indices of the units they matched in) for the
    matches of a `family` regex over the units joined by newlines, `starts` being their offsets;
    no pattern crosses a newline. (Most texts have none: the shared empty sets, nothing made.)"""
    if not hits:
        return _NO_UNIT_HITS
    unit_of = bisect.bisect_right
    return frozenset([str(h.pattern) for h in hits]), {unit_of(starts, h.start) - 1 for h in hits}


class _Segment:
    """What a run of kept units contributes. Segments of one text merge by union / sum, so prose
    appended later (the schema's docs) is analysed on its own and merged, never re-scanned.

    Never modified once built; not made read-only only because a frozen `__init__` (one
    `object.__setattr__` per field) costs ~3x a plain one, and up to three are built per tool. A
    plain class with a written `__init__`, not a dataclass: making the dataclass (with slots, the
    class twice) cost every default lint ~5 M instructions at import. `_segment` and `merge` set the
    fields of a new one (`_new`) one by one instead of calling `__init__`: its 35 arguments cost
    about as much again as the 35 stores (~4 k instructions a segment); tests hold each to setting
    every field once, in order."""

    __slots__ = (
        "bullets",
        "cjk",
        "code_spans",
        "conditional_units",
        "constraint_lines",
        "content_list",
        "default_words",
        "detailed",
        "example_pat",
        "example_units",
        "explained",
        "fence",
        "format_words",
        "headers",
        "jsonish",
        "kinds",
        "limit_pat",
        "limit_prose_units",
        "limit_units",
        "mentioned",
        "must_call",
        "n_units",
        "numbers",
        "param_lines",
        "param_section",
        "qualifiers",
        "quoted",
        "referenced",
        "restrict_units",
        "return_cue",
        "return_section",
        "strong",
        "type_words",
        "usage_pat",
        "usage_units",
    )

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

    def __init__(
        self,
        n_units: int,
        usage_pat: frozenset[str],
        usage_units: int,
        limit_pat: frozenset[str],
        limit_units: int,
        limit_prose_units: int,
        example_pat: frozenset[str],
        example_units: int,
        strong: int,
        kinds: tuple[int, ...],
        must_call: bool,
        return_cue: bool,
        return_section: bool,
        content_list: bool,
        qualifiers: frozenset[str],
        code_spans: frozenset[str],
        quoted: frozenset[str],
        numbers: frozenset[str],
        bullets: int,
        headers: frozenset[str],
        param_lines: frozenset[str],
        fence: bool,
        jsonish: bool,
        param_section: bool,
        type_words: bool,
        format_words: bool,
        default_words: bool,
        cjk: bool,
        mentioned: frozenset[str],
        explained: frozenset[str],
        detailed: frozenset[str],
        referenced: frozenset[str],
        conditional_units: int,
        restrict_units: int,
        constraint_lines: int,
    ) -> None:
        self.n_units = n_units
        self.usage_pat = usage_pat
        self.usage_units = usage_units
        self.limit_pat = limit_pat
        self.limit_units = limit_units
        self.limit_prose_units = limit_prose_units
        self.example_pat = example_pat
        self.example_units = example_units
        self.strong = strong
        self.kinds = kinds
        self.must_call = must_call
        self.return_cue = return_cue
        self.return_section = return_section
        self.content_list = content_list
        self.qualifiers = qualifiers
        self.code_spans = code_spans
        self.quoted = quoted
        self.numbers = numbers
        self.bullets = bullets
        self.headers = headers
        self.param_lines = param_lines
        self.fence = fence
        self.jsonish = jsonish
        self.param_section = param_section
        self.type_words = type_words
        self.format_words = format_words
        self.default_words = default_words
        self.cjk = cjk
        self.mentioned = mentioned
        self.explained = explained
        self.detailed = detailed
        self.referenced = referenced
        self.conditional_units = conditional_units
        self.restrict_units = restrict_units
        self.constraint_lines = constraint_lines

    def merge(self, o: _Segment) -> _Segment:
        # (a segment of no units is all empty sets, zeros and False, which every field's union, sum
        # or `or` leaves as the other's: merged with one, the other segment is the result as it is)
        if not self.n_units:
            return o
        if not o.n_units:
            return self
        seg = _new(_Segment)
        seg.n_units = self.n_units + o.n_units
        seg.usage_pat = self.usage_pat | o.usage_pat
        seg.usage_units = self.usage_units + o.usage_units
        seg.limit_pat = self.limit_pat | o.limit_pat
        seg.limit_units = self.limit_units + o.limit_units
        seg.limit_prose_units = self.limit_prose_units + o.limit_prose_units
        seg.example_pat = self.example_pat | o.example_pat
        seg.example_units = self.example_units + o.example_units
        seg.strong = self.strong + o.strong
        seg.kinds = tuple(map(operator.add, self.kinds, o.kinds))  # (the same length: N_KINDS)
        seg.must_call = self.must_call or o.must_call
        seg.return_cue = self.return_cue or o.return_cue
        seg.return_section = self.return_section or o.return_section
        seg.content_list = self.content_list or o.content_list
        seg.qualifiers = self.qualifiers | o.qualifiers
        seg.code_spans = self.code_spans | o.code_spans
        seg.quoted = self.quoted | o.quoted
        seg.numbers = self.numbers | o.numbers
        seg.bullets = self.bullets + o.bullets
        seg.headers = self.headers | o.headers
        seg.param_lines = self.param_lines | o.param_lines
        seg.fence = self.fence or o.fence
        seg.jsonish = self.jsonish or o.jsonish
        seg.param_section = self.param_section or o.param_section
        seg.type_words = self.type_words or o.type_words
        seg.format_words = self.format_words or o.format_words
        seg.default_words = self.default_words or o.default_words
        seg.cjk = self.cjk or o.cjk
        seg.mentioned = self.mentioned | o.mentioned
        seg.explained = self.explained | o.explained
        seg.detailed = self.detailed | o.detailed
        seg.referenced = self.referenced | o.referenced
        seg.conditional_units = self.conditional_units + o.conditional_units
        seg.restrict_units = self.restrict_units + o.restrict_units
        seg.constraint_lines = self.constraint_lines + o.constraint_lines
        return seg


_EMPTY_SET: frozenset[str] = frozenset()
_NO_UNITS: frozenset[int] = frozenset()
_NO_KINDS: tuple[int, ...] = (0,) * N_KINDS
_NO_UNIT_HITS: tuple[frozenset[str], AbstractSet[int]] = (_EMPTY_SET, _NO_UNITS)  # (`_unit_hits` of none)
# What no units contribute (never modified, so shared: `_segment` of no units, and the identity of
# `merge`)
_EMPTY_SEGMENT = _Segment(
    0, _EMPTY_SET, 0, _EMPTY_SET, 0, 0, _EMPTY_SET, 0, 0, _NO_KINDS, False, False, False, False,
    _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, 0, _EMPTY_SET, _EMPTY_SET, False, False, False,
    False, False, False, False, _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, _EMPTY_SET, 0, 0, 0,
)  # fmt: skip


# `segment`'s memo: what a run of units contributes is a function of the units and the property
# names alone, and the same runs recur (the schema's rendered docs under every text of a tool, a
# proposal's candidates, tools of one server documented alike). Bounded: emptied when full.
_MEMO: dict[tuple[tuple[str, ...], _PropNames], _Segment] = {}
_MEMO_SIZE = 4096


def segment(kept: Sequence[str], props: _PropNames) -> _Segment:
    """`_segment(kept, props)`, computed once per distinct (units, property names)."""
    key = (tuple(kept), props)
    found = _MEMO.get(key)
    if found is None:
        found = _segment(kept, props)
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = found
    return found


def clear_memo() -> None:
    """Forget every memoised segment and unit (benchmarks start each repetition from nothing)."""
    _MEMO.clear()
    unitmemo.clear()


def _entry(unit: str, pos: int) -> tuple[str, int, int] | None:
    """The parameter entry of the unit at `pos` of the joined text, matched on the unit alone."""
    e = PARAM_ENTRY.match(unit)
    if e is None:
        return None
    return e.group(1), pos + (e.start(2) if e.group(2) is not None else e.start(3)), pos + len(unit)


def _segment(kept: Sequence[str], props: _PropNames) -> _Segment:
    if not kept:
        return _EMPTY_SEGMENT
    joined = "\n".join(kept)
    low = joined.lower()
    # One pass over the units for where each starts and for the two line-led patterns, PARAM_LINE and
    # HEADER (see `_LINE_LED`): matched at the unit starts only, instead of scanned over the text.
    starts: list[int] = []
    param_lines: set[str] = set()
    param_line_units: set[int] = set()
    # the parameter entries (`_ENTRIES`), as (name, start and end of the rest in `joined`): a
    # PARAM_ENTRY match of a unit is also a PARAM_LINE match at the unit's start, skipped or not
    param_entries: list[tuple[str, int, int]] = []
    header_matches: list[re.Match[str]] = []
    header_at = HEADER.match if "#" in joined or ":" in joined else None  # a header has one of them
    # (a parameter line has one of its four separators)
    line_at = PARAM_LINE.match if ":" in joined or "-" in joined or "–" in joined or "—" in joined else None
    # (with neither, only where the units start, below; with no unit holding a newline of its own,
    # the lines are the units)
    if (line_at is not None or header_at is not None) and joined.count("\n") == len(kept) - 1:
        pos = line_end = header_end = 0
        for i, unit in enumerate(kept):
            starts.append(pos)
            m = line_at(joined, pos) if line_at is not None else None
            if m is not None:
                end = pos + len(unit)
                if m.end() > end:  # (into the next unit: PARAM_ENTRY on the unit decides)
                    entry = _entry(unit, pos)
                    if entry is not None:
                        param_entries.append(entry)
                elif not unit[:1].isspace():
                    at = m.start(2)  # (the parenthesised text, else the text's first character)
                    param_entries.append((m.group(1), at if at >= 0 else m.end() - 1, end))
                if pos >= line_end:  # (not inside the previous match, which took a newline)
                    param_lines.add(m.group(1).lower())
                    param_line_units.add(i)
                    line_end = m.end()
            if header_at is not None and pos >= header_end:
                head = header_at(joined, pos)
                if head is not None:
                    header_matches.append(head)
                    header_end = head.end()
            pos += len(unit) + 1
    else:
        pos = 0
        for unit in kept:
            starts.append(pos)
            pos += len(unit) + 1
        if line_at is not None:
            for m in PARAM_LINE.finditer(joined):
                param_lines.add(m.group(1).lower())
                param_line_units.add(bisect.bisect_right(starts, m.start()) - 1)
        if param_lines:
            for pos, unit in zip(starts, kept, strict=True):
                entry = _entry(unit, pos)
                if entry is not None:
                    param_entries.append(entry)
        if header_at is not None:
            header_matches = list(HEADER.finditer(joined))
    # the text's words, read once for every gate
    words = gate_words(low)
    opened, shared = _GATES.opened(low, words)
    usage = _USAGE.open_finditer(low, words, shared) if opened & _USAGE_OPEN else _NO_HITS
    limit = _LIMIT.open_finditer(low, words, shared) if opened & _LIMIT_OPEN else _NO_HITS
    example = _EXAMPLE.open_finditer(low, words, shared) if opened & _EXAMPLE_OPEN else _NO_HITS
    kind_hits = _KINDS.open_finditer(low, words, shared) if opened & _KINDS_OPEN else _NO_HITS
    strong_hits = _G_STRONG_LIMIT.open_finditer(low, words, shared) if opened & _STRONG_OPEN else _NO_MATCHES
    qualifiers = _G_QUALIFIERS.open_finditer(low, words, shared) if opened & _QUALIFIERS_OPEN else _NO_MATCHES
    param_keywords = (
        _G_PARAM_KEYWORD.open_finditer(low, words, shared) if opened & _KEYWORD_OPEN else _NO_MATCHES
    )
    conditional_hits = (
        _G_LIM_CONDITIONAL.open_finditer(low, words, shared) if opened & _CONDITIONAL_OPEN else _NO_MATCHES
    )
    restrict_hits = (
        _G_LIM_RESTRICT.open_finditer(low, words, shared) if opened & _RESTRICT_OPEN else _NO_MATCHES
    )
    usage_pat, usage_units = _unit_hits(usage, starts)
    limit_pat, limit_units = _unit_hits(limit, starts)
    ex_pat, ex_units = _unit_hits(example, starts)
    kinds: Sequence[int] = _NO_KINDS
    if kind_hits:
        kind_units: list[set[int]] = [set() for _ in range(N_KINDS)]
        for h in kind_hits:
            kind_units[h.pattern].add(bisect.bisect_right(starts, h.start) - 1)
        kinds = [len(u) for u in kind_units]
    strong = {bisect.bisect_right(starts, m.start()) - 1 for m in strong_hits} if strong_hits else _NO_UNITS
    # the parameter entries, each judged on its rest (`_ENTRIES`)
    detailed_lines: set[str] = set()
    constraint_units = 0
    if param_entries:
        aligned = len(low) == len(joined)
        constraints = [m.start() for m in _G_PARAM_CONSTRAINT.finditer(low, words)] if aligned else None
        for name, start, end in param_entries:
            if constraints is None:
                rest = joined[start:end].lower()
                if PARAM_DETAIL.search(rest):
                    detailed_lines.add(name.lower())
                constraint_units += PARAM_CONSTRAINT.search(rest) is not None
                continue
            if PARAM_DETAIL.search(low, start, end):
                detailed_lines.add(name.lower())
            i = bisect.bisect_left(constraints, start)
            constraint_units += i < len(constraints) and constraints[i] < end
    unit_of = bisect.bisect_right
    conditional = (
        {unit_of(starts, m.start()) - 1 for m in conditional_hits} if conditional_hits else _NO_UNITS
    )
    restrict = {unit_of(starts, m.start()) - 1 for m in restrict_hits} if restrict_hits else _NO_UNITS
    # (a code span has a backtick, a quoted text one of the three quotes: most texts have neither)
    code_spans = frozenset(m.strip() for m in CODE_SPAN.findall(joined)) if "`" in joined else _EMPTY_SET
    quoted = (
        # (one of the three groups takes part in a match, and it is not empty: the others are "")
        frozenset(m[0] or m[1] or m[2] for m in QUOTED.findall(joined))
        if '"' in joined or "'" in joined or "“" in joined
        else _EMPTY_SET
    )
    # (when the lower-cased copy is ASCII, its words stand at the same offsets in the text as given,
    # with the same digits and word characters: only ASCII and the Kelvin sign lower-case to ASCII;
    # lower-casing other text may move them, or make a `\b`: "İ5" -> "i̇5". So a number, which has a
    # digit, has one of 0-9 there, which `words.digits` says.)
    if words.wide is None:
        found_numbers = [m.group(0) for m in _G_NUMBER.finditer(joined, words)] if words.digits else None
    else:
        found_numbers = [m.group(0) for m in _G_NUMBER.finditer(joined, None)]
    numbers = frozenset(found_numbers) if found_numbers else _EMPTY_SET
    if props.names:
        names, lowers = props.names, props.lowers
        # an inline entry only matters if it names a property (and is not a parameter line already);
        # its name, lower-cased, is an `_IDENT_NAME` and occurs in `low` (most names do not)
        inline = [n for n in props.entry_names if n in low and n not in param_lines]
        entries = param_lines | _inline_entries(joined, low, inline) if inline else param_lines
        # (each set made only when it has something: the shared empty set otherwise, one object
        # less to keep and for the garbage collector to visit)
        explained = (
            frozenset([n for n, lo in zip(names, lowers, strict=True) if lo in entries])
            if entries
            else _EMPTY_SET
        )
        # (a parameter line's name without ".[]" is an identifier of the text: what stands before it
        # is a line start, a space, a list mark or a backtick, and what follows it no identifier
        # character, so `PARAM_LINE` cannot have cut it short)
        found = _mentioned(joined, low, props, param_lines)
        mentioned = frozenset(found) if found else _EMPTY_SET
        detailed = (
            frozenset(
                [n for n, lo in zip(names, lowers, strict=True) if n in explained and lo in detailed_lines]
            )
            if detailed_lines and explained
            else _EMPTY_SET
        )
        # (a mentioned name is referenced by a parameter keyword next to it, a code span or a quoted
        # text: most texts with a mention have none of the three, and no reference)
        if mentioned and (param_keywords or code_spans or quoted):
            refs: set[str] = set()
            for m in param_keywords:
                after = _REF_AFTER.match(low, m.end())
                if after:
                    refs.add(after.group(1))
                before = _REF_BEFORE.search(low, max(0, m.start() - 80), m.start())
                if before:
                    refs.add(before.group(1))
            refs |= {c.lower() for c in code_spans} | {q.lower() for q in quoted}
            referenced = (
                frozenset([n for n, lo in zip(names, lowers, strict=True) if n in mentioned and lo in refs])
                if refs
                else _EMPTY_SET
            )
        else:
            referenced = _EMPTY_SET
    else:
        explained = mentioned = detailed = referenced = _EMPTY_SET
    # (each field set on a new segment: a call with 35 arguments costs twice as much; every field is
    # set once, in the order of the fields, which tests/jury/test_segment_fast.py holds)
    seg = _new(_Segment)
    seg.n_units = len(kept)
    seg.usage_pat = usage_pat
    seg.usage_units = len(usage_units)
    seg.limit_pat = limit_pat
    seg.limit_units = len(limit_units)
    seg.limit_prose_units = len(limit_units - param_line_units) if limit_units else 0
    seg.example_pat = ex_pat
    seg.example_units = len(ex_units)
    seg.strong = len(strong)
    seg.kinds = tuple(kinds)
    seg.must_call = bool(opened & _MUST_CALL_OPEN) and _G_MUST_CALL.open_search(low, words, shared)
    seg.return_cue = bool(opened & _RETURN_OPEN) and _G_RETURN.open_search(low, words, shared)
    seg.return_section = has_return_section(joined, low, words)
    seg.content_list = bool(opened & _CONTENT_LIST_OPEN) and _CONTENT_LIST.gated.open_search(
        low, words, shared
    )
    seg.qualifiers = frozenset([m.group(0) for m in qualifiers]) if qualifiers else _EMPTY_SET
    seg.code_spans = code_spans
    seg.quoted = quoted
    seg.numbers = numbers
    # bullets: a bullet has a list mark or a digit (in an ASCII text one of 0-9, as for numbers)
    seg.bullets = (
        sum(map(is_bullet, kept))
        if "-" in joined or "*" in joined or "•" in joined or words.wide is not None or words.digits
        else 0
    )
    # headers: found in the units' pass (`_LINE_LED`)
    seg.headers = (
        frozenset(m.group(0).strip().lower() for m in header_matches) if header_matches else _EMPTY_SET
    )
    seg.param_lines = frozenset(param_lines) if param_lines else _EMPTY_SET
    seg.fence = "```" in joined
    seg.jsonish = ":" in joined and ("{" in joined or "[" in joined) and JSONISH.search(joined) is not None
    seg.param_section = has_param_section(joined, low, words)
    seg.type_words = bool(opened & _TYPE_WORDS_OPEN) and _G_TYPE_WORDS.open_search(low, words, shared)
    seg.format_words = bool(opened & _FORMAT_WORDS_OPEN) and _G_FORMAT_WORDS.open_search(low, words, shared)
    seg.default_words = bool(opened & _DEFAULT_WORDS_OPEN) and _G_DEFAULT_WORDS.open_search(
        low, words, shared
    )
    seg.cjk = not joined.isascii() and CJK.search(joined) is not None
    seg.mentioned = mentioned
    seg.explained = explained
    seg.detailed = detailed
    seg.referenced = referenced
    seg.conditional_units = len(conditional)
    seg.restrict_units = len(restrict)
    seg.constraint_lines = constraint_units
    return seg
