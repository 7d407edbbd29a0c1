"""Running many regexes over the same text fast, with exactly the results of plain `re` scanning.

The offline jury must score thousands of tools a second, and for each tool it runs a few dozen
regexes (cue phrases, section headers, parameter entries, ...) over the same short texts. Scanned
one regex at a time, `re` pays a per-character cost for every one of them, even for the many that
match nowhere, and that was most of the jury's time. This module cuts that cost without changing a
single result:

* `literal_anchors`, `may_match` and `Gated` skip a regex whose required literals are absent: from
  its parse tree, strings one of which every match must contain; when none of them is in the text (a
  plain substring search), the regex cannot match and is not run at all.
* `CueScan` finds the matches of many regexes over one text in one pass: the positions where any of
  them can begin are found together, and each regex is tried only at the few positions where it can
  begin, giving match for match what its own `finditer` gives.
* `family` joins cue patterns into one regex of named alternatives (`group_index` says which one
  matched), trying those written in spaced scripts at word starts only.
* `lowered` turns a case-insensitive regex into a case-sensitive one for lower-cased ASCII text,
  which `CueScan` can read.

Each derivation keeps only what it can prove from the regex's parse tree; where it proves nothing,
the regex is scanned as usual (`lowered` gives no twin), so the results are always those of plain
`re`. `tests/jury/test_regex_scan.py` checks this against the plain regexes.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

# ---------------------------------------------------------------------------------------------------
# Literal anchors: a cheap, exact pre-test before a regex scan.
#
# Most cue regexes match in a minority of texts, yet a scan costs tens of microseconds. Each regex's
# *anchors* are literal strings derived mechanically from its parse tree such that any match
# contains at least one of them; when none occurs in the text (`str.__contains__`, fast C search)
# the regex cannot match and the scan is skipped. The derivation only ever drops requirements it
# cannot prove (lookbehinds/negations, classes, optional parts, case-folding), so a skipped scan is
# always one that would have found nothing: results are identical to scanning everything.

try:  # the `re` parser: `re._parser` since 3.11, `sre_parse` before
    _re_parser: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - Python 3.10
    _re_parser = importlib.import_module("sre_parse")

_MAX_CLASS_ANCHORS = 6


def _op_name(op: Any) -> str:
    return str(getattr(op, "name", op))


def _required_literals(seq: Any) -> frozenset[str] | None:
    """Strings one of which every match of the parsed sequence `seq` contains, or None if unknown."""
    best: frozenset[str] | None = None

    def consider(cand: frozenset[str] | None) -> None:
        nonlocal best
        if not cand or "" in cand:
            return
        if best is None or (min(map(len, cand)), -len(cand)) > (min(map(len, best)), -len(best)):
            best = cand

    run: list[str] = []
    for op, av in seq:
        name = _op_name(op)
        if name == "LITERAL":
            run.append(chr(av))
            continue
        consider(frozenset(["".join(run)]) if run else None)
        run = []
        cand: frozenset[str] | None = None
        if name == "SUBPATTERN":
            add_flags = av[1]
            if not add_flags & re.IGNORECASE:
                cand = _required_literals(av[-1])
        elif name == "BRANCH":
            alts = [_required_literals(a) for a in av[1]]
            if alts and all(a for a in alts):
                cand = frozenset().union(*[a for a in alts if a])
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if av[0] >= 1:
                cand = _required_literals(av[2])
        elif name == "ATOMIC_GROUP":
            cand = _required_literals(av)
        elif name == "ASSERT" and av[0] == 1:  # a positive lookahead must match in the text too
            cand = _required_literals(av[1])
        elif name == "IN":
            items = list(av)
            if 0 < len(items) <= _MAX_CLASS_ANCHORS and all(_op_name(o) == "LITERAL" for o, _ in items):
                cand = frozenset(chr(a) for _, a in items)
        consider(cand)
    consider(frozenset(["".join(run)]) if run else None)
    return best


def literal_anchors(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Anchors of a compiled case-sensitive regex (see above), shortest first and without any that
    contains another (redundant); None when nothing can be required, or the pattern ignores case."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        found = _required_literals(_re_parser.parse(pattern.pattern, pattern.flags))
    except Exception:  # pragma: no cover - an unexpected parser: just never skip a scan
        return None
    if not found:
        return None
    out: list[str] = []
    for a in sorted(found, key=lambda a: (len(a), a)):
        if not any(b in a for b in out):
            out.append(a)
    return tuple(out)


def may_match(anchors: tuple[str, ...] | None, text: str) -> bool:
    return anchors is None or any(map(text.__contains__, anchors))


class Gated:
    """A compiled regex behind its anchor pre-test: `search` / `finditer` / `findall` give exactly
    what the regex gives, skipping the scan when no anchor occurs in the text."""

    __slots__ = ("anchors", "regex")

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self.anchors = literal_anchors(regex)

    def search(self, text: str) -> bool:
        return may_match(self.anchors, text) and self.regex.search(text) is not None

    def finditer(self, text: str) -> Iterable[re.Match[str]]:
        return self.regex.finditer(text) if may_match(self.anchors, text) else ()

    def findall(self, text: str) -> list[Any]:
        return self.regex.findall(text) if may_match(self.anchors, text) else []


def _top_alternatives(pattern: str) -> list[str]:
    """Split a regex at its top-level `|` (not inside groups or classes)."""
    out: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


def family(patterns: Iterable[str], unspaced: re.Pattern[str]) -> re.Pattern[str]:
    """One scan per cue family: the patterns as named alternatives, so a match says which pattern it
    is (`m.lastgroup[1:]` is its index). Matched on lower-cased text (IGNORECASE is slow in `re`).
    Latin alternatives are tried only at word starts (one leading `\\b`, so the engine skips
    mid-word positions at once); those with a character `unspaced` finds (CJK, whose words have no
    boundaries), everywhere."""
    latin: list[str] = []
    cjk: list[str] = []
    for i, p in enumerate(patterns):
        alts = _top_alternatives(p)
        lat = "|".join(a for a in alts if not unspaced.search(a))
        han = "|".join(a for a in alts if unspaced.search(a))
        if lat:
            latin.append(f"(?P<g{i}>{lat})")
        if han:
            cjk.append(f"(?P<c{i}>{han})")
    parts = ([r"\b(?:" + "|".join(latin) + ")"] if latin else []) + cjk
    return re.compile("|".join(parts))


def group_index(m: re.Match[str]) -> int:
    return int((m.lastgroup or "g0")[1:])


# How a regex match can begin, for `CueScan`: (where, text, is_class, offset). `where`: "word" at a
# word boundary (`\b`), "any" anywhere, "line" at a line start (`^` in MULTILINE mode), "text" at the
# start of the text only; for the last two, `text` is empty. Otherwise `text` is a literal found
# `offset` (0 or 1) characters into the match, or the escape of a one-character class (`\d`) the
# match's first character is in; `where` then applies to the position of `text`.
_Start = tuple[str, str, bool, int]
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_CLASS_ESCAPES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}
_WORD_CHAR = re.compile(r"\w")


def _match_starts(seq: Any, where: str = "any", multiline: bool = False) -> set[_Start] | None:
    r"""Starts one of which every match of the parsed sequence `seq` begins with (see `_Start`), or
    None when that cannot be told. Like `_required_literals`, this only ever keeps what it can prove:
    zero-width items are stepped over (they consume nothing), a group or an alternative starts as
    its content followed by the rest does, a repeat of at least one as its content, an optional
    item as itself or as what follows it, and a one-character class followed by literals (`\s`
    then "returns") as those literals one character on."""
    items = list(seq)
    run: list[str] = []
    for i, (op, av) in enumerate(items):
        name = _op_name(op)
        if name == "LITERAL":
            run.append(chr(av))
            continue
        if run:
            break
        rest = items[i + 1 :]
        if name == "AT":
            at = _op_name(av)
            if at == "AT_BEGINNING":
                return {("line" if multiline else "text", "", False, 0)}
            if at == "AT_BEGINNING_STRING":
                return {("text", "", False, 0)}
            if at == "AT_BOUNDARY":
                where = "word"
        elif name in ("ASSERT", "ASSERT_NOT"):
            pass
        elif name == "SUBPATTERN":
            _, add_flags, del_flags, body = av
            if add_flags & (re.IGNORECASE | re.ASCII | re.LOCALE):
                return None
            if add_flags or del_flags:  # flags scoped to the group: do not read on past it
                inner = (multiline or bool(add_flags & re.MULTILINE)) and not del_flags & re.MULTILINE
                return _match_starts(body, where, inner)
            return _match_starts([*body, *rest], where, multiline)
        elif name == "BRANCH":
            union: set[_Start] = set()
            for alt in av[1]:
                found = _match_starts([*alt, *rest], where, multiline)
                if found is None:
                    return None
                union |= found
            return union or None
        elif name in _REPEATS:
            first = _match_starts(av[2], where, multiline)
            if av[0] >= 1 or first is None:
                return first
            after = _match_starts(rest, where, multiline)
            return None if after is None else first | after
        elif name == "IN":
            members = list(av)
            if 0 < len(members) <= _MAX_CLASS_ANCHORS and all(_op_name(o) == "LITERAL" for o, _ in members):
                return {(where, chr(a), False, 0) for _, a in members}
            if len(members) != 1 or _op_name(members[0][0]) != "CATEGORY":
                return None
            category = _op_name(members[0][1])
            escape = _CLASS_ESCAPES.get(category)
            if escape is None:
                return None
            after = _match_starts(rest, "any", multiline)
            if after and all(w in ("any", "word") and t and not c and not off for w, t, c, off in after):
                # (no word character can be whitespace) a non-word character before a word
                # character makes a word boundary there
                nonword = category in ("CATEGORY_SPACE", "CATEGORY_NOT_WORD")
                return {
                    (
                        "word" if w == "word" or (nonword and _WORD_CHAR.fullmatch(t[0])) else "any",
                        t,
                        False,
                        1,
                    )
                    for w, t, _, _ in after
                }
            return {(where, escape, True, 0)}
        else:
            return None
    return {(where, "".join(run), False, 0)} if run else None


# Where patterns may start once a finder has found something: (offset back from the find, patterns).
_Dispatch = tuple[tuple[int, tuple[int, ...]], ...]


class _Finder(NamedTuple):
    """Where one kind of match start (see `_Start`) occurs in a text, and which patterns may match
    there. `regex` is None for line and text starts, which are found without one."""

    where: str
    regex: re.Pattern[str] | None
    # For ASCII text, a "word" finder whose starts all begin with a word character: the same finder
    # led by the non-word character before the start instead of `\b` (`re` skips to those at once)
    ascii_regex: re.Pattern[str] | None
    anchors: tuple[str, ...] | None  # one of these is in any text `regex` matches (`literal_anchors`)
    by_literal: dict[str, _Dispatch]  # longest literal found -> patterns that may start there
    by_class: _Dispatch  # ... where a class character is found (or at a line or text start)


class CueScan:
    """Every match of several regexes over one text, exactly as each regex's own `finditer` gives
    them, for a fraction of the cost of scanning the text once per regex.

    A regex scan in `re` pays ~30 ns per character just to try a match at each position; with
    twenty regexes run over every description, that per-position cost was most of the jury's time.
    Here each regex's possible match starts are derived from its parse tree (`_match_starts`: "does
    not" at a word boundary, a digit, a line start, "returns" after one character, ...), and one
    *finder* per kind of start finds each position where one of them occurs, and the longest literal
    found there. Only at those positions - a handful per text - are the regexes that can start there
    tried, with `Pattern.match`, in text order, each resuming after its last match as `finditer`
    does. Every position where a regex matches is visited (its match begins with one of its derived
    starts), so the result is the regex's own `finditer`, match for match. A regex whose starts
    cannot be derived is simply scanned on its own. For a regex in `first_only` the caller only asks
    whether it matches: its list stops at the first match."""

    def __init__(self, patterns: Sequence[re.Pattern[str]], first_only: Iterable[int] = ()) -> None:
        self.patterns = tuple(patterns)
        once = frozenset(first_only)
        self.once = tuple(i in once for i in range(len(self.patterns)))
        starts: list[set[_Start] | None] = []
        for regex in self.patterns:
            if regex.flags & (re.IGNORECASE | re.ASCII | re.LOCALE):
                starts.append(None)  # case-folded or ASCII-only matching: its literals are not exact
            else:
                parsed = _re_parser.parse(regex.pattern, regex.flags)
                starts.append(_match_starts(parsed, multiline=bool(regex.flags & re.MULTILINE)))
        self.alone = tuple(i for i, s in enumerate(starts) if s is None)
        self.finders: list[_Finder] = []
        for where in ("word", "any", "line", "text"):
            mine = [[(t, c, off) for w, t, c, off in s if w == where] if s else [] for s in starts]
            if not any(mine):
                continue
            if where in ("line", "text"):
                which = tuple(i for i, m in enumerate(mine) if m)
                self.finders.append(_Finder(where, None, None, None, {}, ((0, which),)))
            else:
                self.finders.append(self._finder(mine, where))

    @staticmethod
    def _finder(starts: list[list[tuple[str, bool, int]]], where: str) -> _Finder:
        """The finder for `starts` (per pattern: (text, is_class, offset)), all at word boundaries
        or all anywhere. Its regex matches the longest literal that begins at a position (literals
        grouped by first character, longest first), or else one character of a class (so a class
        match means no literal begins there). Where literal L is found, every pattern with a start
        that is a prefix of L (`offset` characters back), or a class holding L's first character,
        may match; where a class character is, any pattern with a class start may. The regex has no
        capture groups: with a marker group per literal, `re` scanned three times slower. Without
        literals it does not test for a word boundary either: more candidates, but a charset scan
        that skips everything else at once."""
        literals = sorted({t for s in starts for t, c, _ in s if not c}, key=lambda t: (t[0], -len(t), t))
        classes = sorted({t for s in starts for t, c, _ in s if c})
        by_first: dict[str, list[str]] = {}
        for t in literals:
            by_first.setdefault(t[0], []).append(re.escape(t[1:]))
        parts = [re.escape(first) + "(?:" + "|".join(rests) + ")" for first, rests in by_first.items()]
        boundary = r"\b" if where == "word" and literals else ""
        body = "(?:" + "|".join(parts + classes) + ")"
        regex = re.compile(boundary + body)
        ascii_regex = None
        if boundary and all(_WORD_CHAR.fullmatch(t[0]) for t in literals) and set(classes) <= {r"\d", r"\w"}:
            ascii_regex = re.compile("[^0-9A-Za-z_]" + body)
        compiled = {t: re.compile(t) for t in classes}

        def dispatch(found: str | None) -> _Dispatch:
            """Patterns that may start where literal `found` is (None: a class character)."""
            by_offset: dict[int, list[int]] = {}
            for i, s in enumerate(starts):
                for t, c, off in s:
                    hit = (
                        c
                        if found is None
                        else (compiled[t].fullmatch(found[0]) if c else found.startswith(t))
                    )
                    if hit and i not in by_offset.setdefault(off, []):
                        by_offset[off].append(i)
            return tuple((off, tuple(ix)) for off, ix in sorted(by_offset.items()))

        by_literal = {lit: dispatch(lit) for lit in literals}
        return _Finder(where, regex, ascii_regex, literal_anchors(regex), by_literal, dispatch(None))

    def scan(self, text: str) -> list[list[re.Match[str]]]:
        """Per pattern, in the order given: the list its `finditer(text)` would give (for one in
        `first_only`, just its first match)."""
        patterns = self.patterns
        once = self.once
        found: list[list[re.Match[str]]] = [[] for _ in patterns]
        for i in self.alone:
            if once[i]:
                first = patterns[i].search(text)
                found[i] = [] if first is None else [first]
            else:
                found[i] = list(patterns[i].finditer(text))
        candidates: list[tuple[int, tuple[int, ...]]] = []
        for finder in self.finders:
            regex = finder.regex
            if regex is None:
                ((_, which),) = finder.by_class
                candidates.append((0, which))
                if finder.where == "line":
                    q = text.find("\n")
                    while q >= 0:
                        candidates.append((q + 1, which))
                        q = text.find("\n", q + 1)
                continue
            if not may_match(finder.anchors, text):
                continue
            by_literal, by_class = finder.by_literal, finder.by_class
            finds: list[tuple[int, str]] = []
            if finder.ascii_regex is not None and text.isascii():
                # a word character starts a word at 0 or after a non-word character; the next
                # search starts at the literal found, so literals after a non-word character
                # inside it ("does not") are found too
                first = regex.match(text)
                if first is not None:
                    finds.append((0, first.group()))
                search = finder.ascii_regex.search
                m = search(text)
                while m is not None:
                    q = m.start() + 1
                    finds.append((q, m.group()[1:]))
                    m = search(text, q)
            else:
                # a finder match consumes its literal, so the next search starts one character on:
                # literals that overlap it ("not" in "does not") are found too
                search = regex.search
                m = search(text)
                while m is not None:
                    q = m.start()
                    finds.append((q, m.group()))
                    m = search(text, q + 1)
            for q, literal in finds:
                for offset, which in by_literal.get(literal, by_class):
                    if q >= offset:
                        candidates.append((q - offset, which))
        candidates.sort()
        never = len(text) + 1
        resume = [0] * len(patterns)  # where each pattern's `finditer` would search next
        for p, which in candidates:
            for i in which:
                if p >= resume[i]:
                    m = patterns[i].match(text, p)
                    if m is not None:
                        found[i].append(m)
                        resume[i] = never if once[i] else m.end()
        return found


def _lower_only(c: str) -> bool:
    """A pattern character that, case-insensitively, matches the same ASCII characters as it matches
    their lower-case forms case-sensitively: not an upper-case ASCII letter, nor a non-ASCII one
    whose case forms include an ASCII letter (the Kelvin sign, dotless i, long s)."""
    if c.isascii():
        return not "A" <= c <= "Z"
    return not any(ch.isascii() for ch in c.lower() + c.upper() + c.casefold())


def _case_free(seq: Any) -> bool:
    """Whether matching the parsed `seq` case-insensitively on ASCII text is matching it case-
    sensitively on the text lower-cased: its literals are `_lower_only`, its ranges hold no upper-
    case or non-ASCII letter, and nothing else in it depends on case."""
    for op, av in seq:
        name = _op_name(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            ok = _lower_only(chr(av))
        elif name == "IN":
            ok = True
            for member, value in av:
                kind = _op_name(member)
                if kind == "LITERAL":
                    ok = ok and _lower_only(chr(value))
                elif kind == "RANGE":
                    lo, hi = value
                    ok = ok and hi < 128 and (hi < ord("A") or lo > ord("Z"))
                else:
                    ok = ok and kind in ("CATEGORY", "NEGATE")
        elif name in ("AT", "ANY"):
            ok = True
        elif name == "SUBPATTERN":
            ok = not av[1] and not av[2] and _case_free(av[-1])
        elif name == "BRANCH":
            ok = all(_case_free(alt) for alt in av[1])
        elif name in _REPEATS:
            ok = _case_free(av[2])
        elif name in ("ASSERT", "ASSERT_NOT"):
            ok = _case_free(av[1])
        else:
            ok = False
        if not ok:
            return False
    return True


def lowered(regex: re.Pattern[str]) -> re.Pattern[str] | None:
    """For a case-insensitive `regex`: the same pattern without IGNORECASE, which matches an ASCII
    text lower-cased exactly where (same spans) `regex` matches the text, when `_case_free` shows
    it (else None). Unlike `regex`, it can join the cue scan (`CueScan` cannot read case-
    insensitive literals)."""
    if regex.flags & re.IGNORECASE and _case_free(_re_parser.parse(regex.pattern, regex.flags)):
        return re.compile(regex.pattern, regex.flags & ~re.IGNORECASE)
    return None
