"""Cue families (`regex_scan.py`): one regex per family finds, match for match, what its patterns
find on their own (each Latin one from a word start), and says which pattern matched."""

from __future__ import annotations

import json
import random
import re
import sys
from importlib import resources

from jury_support import sample_texts

from mcp_lint.jury.features import lexicon as F
from mcp_lint.jury.features.cues import EXPLICIT_CUES
from mcp_lint.jury.features.vector import FEATURE_NAMES
from mcp_lint.jury.regex_scan import (
    _SHORT,
    GATED,
    Family,
    FamilySources,
    Gated,
    Hit,
    _closing,
    _top_alternatives,
    derive_word_gate,
    family,
    gate_words,
    gates_document,
    presence,
    presence_parts,
    word_gate,
)
from mcp_lint.lazyre import source_of


def test_top_alternatives_split_outside_groups_and_classes_only() -> None:
    assert _top_alternatives(r"a|b(?:c|d)|[|x]|\|e") == ["a", "b(?:c|d)", "[|x]", r"\|e"]
    for pattern in (*F.USAGE_CUES, *F.LIMIT_CUES, *F.EXAMPLE_CUES, *F.LIMIT_KINDS):
        assert "|".join(_top_alternatives(pattern)) == pattern


def _structure_by_character(pattern: str, start: int = 0) -> list[tuple[int, str]]:
    """The brackets and bars outside classes and escapes, read one character at a time (the old
    code of `_top_alternatives` and `_closing`, which their one scan must equal)."""
    out: list[tuple[int, str]] = []
    in_class, i = False, start
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch in "()|":
            out.append((i, ch))
        i += 1
    return out


def _top_alternatives_by_character(pattern: str) -> list[str]:
    out: list[str] = []
    depth = start = 0
    for i, ch in _structure_by_character(pattern):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


def _closing_by_character(pattern: str, start: int) -> int:
    depth = 0
    for i, ch in _structure_by_character(pattern, start):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == ")" and depth == 0:
            return i
    return -1


def test_structure_readers_equal_the_character_by_character_reading() -> None:
    """Every pattern the jury splits, and random strings of the characters that matter (escapes at
    the end, unclosed classes, a `]` first in a class, unbalanced brackets, newlines)."""
    import random

    from mcp_lint.jury import regex_scan

    real = [*F.USAGE_CUES, *F.LIMIT_CUES, *F.EXAMPLE_CUES, *F.LIMIT_KINDS]
    real += [regex_scan.source_of(g.pattern)[0] for g in regex_scan.GATED]
    rng = random.Random(3)
    made = ["".join(rng.choice("ab|()[]\\^\n?:") for _ in range(rng.randint(0, 14))) for _ in range(20000)]
    for pattern in (*real, *made, "\\", "[\\", "[]|]", "[^]|]|x", "a\\"):
        assert _top_alternatives(pattern) == _top_alternatives_by_character(pattern), pattern
        for start in range(len(pattern)):
            assert _closing(pattern, start) == _closing_by_character(pattern, start), (pattern, start)


def _first_at(patterns: list[re.Pattern[str]], text: str, pos: int) -> tuple[int, int] | None:
    """(pattern index, end) of the first pattern that matches at `pos`, as the alternation tries them."""
    for i, regex in enumerate(patterns):
        m = regex.match(text, pos)
        if m is not None:
            return i, m.end()
    return None


def _check_family(patterns: tuple[str, ...], texts: list[str]) -> None:
    """Each family match starts where some pattern matches, is the match of the first pattern (in the
    family's order: Latin alternatives before CJK ones) that matches there, and the scan resumes
    after it, as `finditer` over the alternation of the patterns would."""
    joined = family(patterns, F.CJK)
    latin: list[tuple[int, re.Pattern[str]]] = []
    cjk: list[tuple[int, re.Pattern[str]]] = []
    for i, p in enumerate(patterns):
        alts = _top_alternatives(p)
        lat = [a for a in alts if not F.CJK.search(a)]
        han = [a for a in alts if F.CJK.search(a)]
        if lat:
            latin.append((i, re.compile(r"\b(?:" + "|".join(lat) + ")")))
        if han:
            cjk.append((i, re.compile("|".join(han))))
    order = latin + cjk
    for text in texts:
        pos = 0
        want: list[tuple[int, int, int]] = []
        while pos <= len(text):
            found = _first_at([r for _, r in order], text, pos)
            if found is None:
                pos += 1
                continue
            k, end = found
            want.append((pos, end, order[k][0]))
            pos = end if end > pos else pos + 1
        hits = joined.finditer(text)
        assert all(type(h) is Hit for h in hits)  # (made as tuples: `_new_hit`)
        got = [(h.start, h.end, h.pattern) for h in hits]
        assert got == want, (text[:80], got[:5], want[:5])


def test_cue_families_match_their_patterns_one_by_one() -> None:
    texts = [t.lower() for t in sample_texts()[::7]]
    rng = random.Random(5)
    words = [
        "use",
        "it",
        "when",
        "you",
        "need",
        "do",
        "not",
        "only",
        "returns",
        "max",
        "5",
        "e.g.",
        "例如",
        "仅",
        "失败",
        "note:",
        "instead",
        "of",
        "fails",
    ]
    texts += [" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(300)]
    for patterns in (F.USAGE_CUES, F.LIMIT_CUES, F.EXAMPLE_CUES, F.LIMIT_KINDS):
        _check_family(patterns, texts)


def test_limit_kinds_are_named_in_feature_order() -> None:
    kinds = [n for n in FEATURE_NAMES if n in F.LIMIT_KIND_NAMES]
    assert (
        kinds
        == list(F.LIMIT_KIND_NAMES)
        == ["lim_scope", "lim_fail", "lim_quant", "lim_negation", "lim_prereq", "lim_effect", "lim_note"]
    )


def test_presence_regexes_match_where_their_patterns_do() -> None:
    """`presence` reorders a pattern's alternatives: it must find a match in exactly the texts the
    pattern finds one in (explicit cues, searched on whole texts and on each of their units)."""
    texts = [t.lower() for t in sample_texts()]
    units = [u for t in texts[::3] for u in t.split("\n")]
    extra = ["when to use: x", "use this tool when you need it", "max 5 items", "for example: {", "e.g"]
    assert any(presence(cue).pattern != cue.pattern for cue in EXPLICIT_CUES.values())  # some rewritten
    for cue in EXPLICIT_CUES.values():
        fast = presence(cue)
        parts = presence_parts(cue)
        for text in (*texts, *units, *extra):
            assert (fast.search(text) is None) == (cue.search(text) is None), (cue.pattern[:40], text[:80])
            assert any(p.search(text) for p in parts) == (cue.search(text) is not None)


def _said(phrases: tuple[str, ...]) -> list[str]:
    """Each phrase of a gate as text says it ("for example"), and its words glued otherwise ("for
    example" with two spaces, a newline, an underscore, a hyphen, a dot)."""
    out = []
    for key in phrases:
        words = key.strip()
        out += [words, words.replace(" ", "  "), words.replace(" ", "\n"), words.replace(" ", "_")]
        out += [words.replace(" ", "-"), words.replace(" ", ".")]
    return out


def _gated_patterns() -> dict[str, re.Pattern[str]]:
    """Every pattern the offline jury scans behind a word gate."""
    from mcp_lint.jury.features import segment
    from mcp_lint.jury.features.cues import _GATED

    patterns = {name: g.pattern for name, g in vars(segment).items() if isinstance(g, Gated)}
    patterns |= {f"cue {comp} {i}": g.pattern for comp, parts in _GATED.items() for i, g in enumerate(parts)}
    families = {n: getattr(F, n) for n in ("_USAGE", "_LIMIT", "_EXAMPLE", "_KINDS", "_CONTENT_LIST")}
    patterns |= {n: fam.scan for n, fam in families.items()}
    # (a family's alternatives other than those led by a digit: `Family._by_digits`)
    patterns |= {f"{n} others": fam._digits[1].pattern for n, fam in families.items() if fam._digits}
    return patterns


def test_word_gates_are_read_off_the_patterns() -> None:
    """What a match must start with, read off the parsed pattern: whole words after a boundary,
    substrings where the word may go on; an unreadable start (a class, an optional part that is not
    a group) leaves the pattern ungated. Every pattern the jury gates has a gate."""
    gate = word_gate(re.compile(r"\b(?:do not|don't) use|\bprefer|\bmax(?:imum)?\b|只"))
    assert gate is not None
    assert gate.words == {"max", "maximum"} and gate.prefixes == ("prefer",)
    assert gate.phrases == (" do not use", " don t use")  # ("use" may go on: not a whole word)
    digits = word_gate(re.compile(r"\b\d+ items\b|^\W*(?:when to use|usage)\b", re.M))
    assert (
        digits is not None and digits.words == {"when", "usage"} and set(digits.prefixes) == set("0123456789")
    )
    assert word_gate(re.compile(r"\b(?:an? )?error")) is not None  # `?` on a group: with it or without
    for ungated in (r"\w+ only", r"x*only", r"(?i)only", r"only|", r"[ab]c", r"(?<=a)b"):
        assert word_gate(re.compile(ungated)) is None, ungated
    assert all(word_gate(p) is not None for p in _gated_patterns().values())


def test_a_word_and_a_space_and_more_are_read_as_a_phrase() -> None:
    """A whole word followed by a literal space (or punctuation) and plain letters is read with what follows
    (`WordGate.phrases`, as the padded text has them): each way on, up to `_MAX_PHRASES`; a phrase
    that holds another adds nothing; a first word with more than `_MAX_PHRASES_PER_WORD` phrases,
    or that opens the gate on its own, is a gate word instead. What follows a space and is not plain
    letters at the next word's start (a class, `\\s`, a digit) is not read."""
    gate = derive_word_gate(re.compile(r"\bfor (?:example,? )?when\b|\bfor instance\b|\bin order to\b"))
    assert gate is not None and gate.at_start and gate.words == frozenset()
    assert gate.phrases == (" for example ", " for instance ", " for when ", " in order to ")
    many = derive_word_gate(re.compile(r"\breturns? (?:an? |the )?(?:error|exception|failure)"))
    assert many is not None and many.words == {"return", "returns"} and many.phrases == ()
    own = derive_word_gate(re.compile(r"\bfor example\b|\bfor\b"))
    assert own is not None and own.words == {"for"} and own.phrases == ()
    for source in (r"\bfor\s+example", r"\bfor [a-z]+", r"\bfor \d"):
        told = derive_word_gate(re.compile(source))
        assert told is not None and told.phrases == () and "for" in (*told.words, *told.prefixes), source
    # a character the padded text makes a space (a literal or a class of them) joins words as a
    # space does; a class with a letter does not
    joined = derive_word_gate(re.compile(r"\bcase[- ]sensitive\b|\be\.g\.|\bread-only\b|\bx[^ ]y|\bab[c ]d"))
    assert joined is not None and joined.phrases == (" case sensitive ", " e g ", " read only ")
    assert joined.prefixes == ("ab", "x") and joined.words == frozenset()
    digits = derive_word_gate(re.compile(r"\bup to \d+"))  # (read up to the space before the digit)
    assert digits is not None and digits.words == frozenset() and digits.phrases == (" up to ",)


def test_a_gate_says_whether_a_match_starts_at_its_words() -> None:
    """`at_start`: no match takes anything before its gate's word or prefix (a leading `\\W*` may);
    `word_prefixes`: the prefixes a match starts with only where a word starts (after `\\b`, `^`)."""
    gate = derive_word_gate(re.compile(r"\b\d+ items\b|\busage\b|\bprefer|x\d"))
    assert gate is not None and gate.at_start
    assert gate.words == {"usage"} and set(gate.word_prefixes) == {*"0123456789", "prefer"}
    assert set(gate.prefixes) == {*"0123456789", "prefer", "x"}
    loose = derive_word_gate(re.compile(r"\bonly\b|\d+ items"))
    assert loose is not None and loose.at_start and loose.word_prefixes == ()  # `\d` mid-word too
    skipping = derive_word_gate(re.compile(r"\bonly\b|^\W*(?:when to use|usage)\b", re.M))
    assert skipping is not None and not skipping.at_start
    for family_ in (F._USAGE, F._LIMIT, F._EXAMPLE, F._KINDS):  # the cue families are matched at their words
        assert (g := word_gate(family_.scan)) is not None and g.at_start


def test_matching_at_the_gate_words_finds_what_a_scan_finds() -> None:
    """Where a gate says where matches start, `Gated` tries only those offsets (`starts`): the same
    matches as the pattern's own `finditer`, on texts where the words touch each other, underscores,
    digits, upper case, letters and digits outside ASCII, the text's ends and other matches."""
    texts = [
        "only",
        "only only_only ONLY only. (only)only",
        "max 5 items, up to 10, at most 2024-01-01 x5 5x 55 items 5 items",
        "e.g.e.g, eg. i.e. for example:for examples",
        "use it when you need to, use when, in order to_be, first a then b",
        "does not do not don't doesn't won't cannot can't can not",
        "read-only read only overwrite overwritten rate-limit rate limit",
        "if x fails will error, when it returns no",
        "param`x` the `limit` parameter, parameters: a, flags",
        # outside ASCII: letters and digits that \\w and \\d take, punctuation, CJK cues
        "éonly only—not “only” ünly onlyé max ٣ items, up to ３ items, ٣5 items, 5٣ items",
        "仅支持 only 失败时返回错误 例如：北京 比如 e.g. 返回结果 returns 不支持 限制",
        "٣ items",
        "a ٣5 items",
    ]
    texts += [t.upper() for t in texts] + [t.replace(" ", "_") for t in texts]
    # long enough to be matched at its words (a short text is scanned whole: `_SHORT`), with each
    # case at the text's start and at its end
    filler = " lorem ipsum" * (_SHORT // 10)
    texts = [t for text in texts for t in (text, text + filler, filler + text)]
    for name, pattern in _gated_patterns().items():
        gated = Gated(pattern)
        for text in texts:
            words = gate_words(text)
            found = gated.starts(text, words)
            spans = [m.span() for m in pattern.finditer(text)]
            if found is not None:
                assert {start for start, _ in spans} <= set(found), (name, text)
            elif len(text) >= _SHORT and gated.passes(text, words):
                gate = word_gate(pattern)  # scanned whole: only a pattern whose gate cannot say where
                assert gate is None or not gate.at_start
            assert [m.span() for m in gated.finditer(text, words)] == spans, (name, text)
            assert gated.search(text, words) == bool(spans), (name, text)


def test_a_gate_never_turns_away_a_text_its_pattern_matches() -> None:
    """Where the gate says no, the pattern finds nothing: on every sample text, each of its lines,
    and random runs of the patterns' own words glued with the punctuation that ends a word (or
    doesn't: `_`, letters, digits)."""
    texts = [t.lower() for t in sample_texts()]
    texts += [u for t in texts[::2] for u in t.split("\n")]
    rng = random.Random(29)
    patterns = _gated_patterns()
    pieces = sorted(
        {
            w
            for p in patterns.values()
            if (g := word_gate(p))
            for w in (*g.words, *g.prefixes, *_said(g.phrases))
        }
    )
    glue = [" ", "", "_", "-", "'", ".", ": ", "\n", "x", "9", "s ", "ed "]
    for _ in range(3000):
        texts.append("".join(rng.choice(pieces) + rng.choice(glue) for _ in range(rng.randint(1, 6))))
    passed = 0
    for name, pattern in patterns.items():
        gated = Gated(pattern)
        for text in texts:
            words = gate_words(text)
            if gated.passes(text, words):
                passed += 1
            else:
                assert pattern.search(text) is None, (name, text[:80])
            assert [m.span() for m in gated.finditer(text, words)] == [
                m.span() for m in pattern.finditer(text)
            ]
            assert gated.search(text, words) == (pattern.search(text) is not None)
    assert passed < len(patterns) * len(texts)  # the gates do turn texts away


def test_the_shipped_gates_are_what_the_patterns_give_today() -> None:
    """`data/word-gates.json` holds, for every gated pattern of the jury, the gate derived from it
    now (after a lexicon change: `python -m lab.word_gates`); a lint reads them instead of parsing
    every pattern again."""
    from mcp_lint.jury import regex_scan

    patterns = list(_gated_patterns().values())
    assert {(p.pattern, p.flags) for p in patterns} <= {(g.pattern.pattern, g.pattern.flags) for g in GATED}
    text = resources.files("mcp_lint.jury").joinpath(regex_scan.GATES_FILE).read_text(encoding="utf-8")
    assert json.loads(text) == gates_document(patterns), "run: python -m lab.word_gates"
    for pattern in patterns:
        shipped, derived = word_gate(pattern), derive_word_gate(pattern)
        assert shipped is not None and derived is not None
        assert (shipped.words, shipped.prefixes) == (derived.words, derived.prefixes)


def test_a_gate_set_opens_exactly_what_each_gate_lets_through() -> None:
    """`GateSet.opened` reads many gates in one pass over a text's words: bit i is set exactly when
    the i-th pattern's own gate lets the text through (`Gated.passes`), ASCII or not; a pattern it
    opens is then matched without asking its gate (`open_finditer`, `open_search`) and finds what the
    pattern's own `finditer` and `search` find, at every length (scanned whole or at its words)."""
    from mcp_lint.jury.features import segment
    from mcp_lint.jury.features.cues import _GATED
    from mcp_lint.jury.features.cues import _GATES as cue_gates
    from mcp_lint.jury.regex_scan import GateSet

    patterns = list(_gated_patterns().values())
    gated = [Gated(p) for p in patterns]
    gate_set = GateSet(gated)
    texts = [t.lower() for t in sample_texts()]
    texts += [u for t in texts[::2] for u in t.split("\n")]
    rng = random.Random(32)
    pieces = sorted(
        {w for p in patterns if (g := word_gate(p)) for w in (*g.words, *g.prefixes, *_said(g.phrases))}
    )
    pieces += ["٣", "仅", "例如", "é", "x"]
    glue = [" ", "", "_", "-", "'", ".", ": ", "\n", "x", "9", "s ", "ed ", " lorem ipsum dolor sit amet "]
    for _ in range(2000):
        texts.append("".join(rng.choice(pieces) + rng.choice(glue) for _ in range(rng.randint(1, 8))))
    opened_somewhere = 0
    for text in texts:
        words = gate_words(text)
        opened, shared = gate_set.opened(text, words)
        assert shared == gate_set._all & words  # (what the set's patterns then read at: `_positions`)
        for i, (pattern, one) in enumerate(zip(patterns, gated, strict=True)):
            assert bool(opened >> i & 1) == one.passes(text, words), (pattern.pattern[:40], text[:80])
            if opened >> i & 1:
                opened_somewhere += 1
                spans = [m.span() for m in pattern.finditer(text)]
                assert [m.span() for m in one.open_finditer(text, words, shared)] == spans, (
                    pattern.pattern[:40],
                    text,
                )
                assert one.open_search(text, words, shared) == bool(spans)
    assert 0 < opened_somewhere < len(texts) * len(patterns)
    # the jury's own sets hold the patterns they are used for
    assert len(segment._GATES._gated) == 15
    assert len(cue_gates._gated) == sum(len(parts) for parts in _GATED.values())


def test_gate_words_read_an_ascii_text_as_bytes_as_they_read_it_as_a_string() -> None:
    """An ASCII text's words are read through a byte table (`ASCII_WORD_BYTES`): the same spaced text as
    the string table (`_GATE_WORDS`) gives, for every ASCII character, and a text with characters
    outside ASCII too (each read as a space); `digits` says whether the text has a digit 0-9, `wide`
    where its other digits are."""
    from mcp_lint.jury.regex_scan import _GATE_WORDS
    from mcp_lint.words import ASCII_WORD_BYTES

    every = "".join(map(chr, range(128)))
    wide = "é—“”仅٣３\U0001f600\ud800İ"
    rng = random.Random(7)
    made = ["".join(rng.choice(every + wide) for _ in range(rng.randint(0, 40))) for _ in range(500)]
    for text in (every, every[::-1], *sample_texts(), *made):
        if text.isascii():
            as_bytes = text.encode("ascii").translate(ASCII_WORD_BYTES).decode("ascii")
            assert as_bytes == text.translate(_GATE_WORDS)
            words = gate_words(text)
            assert words == frozenset(text.translate(_GATE_WORDS).split())
            assert words.padded == " " + text.translate(_GATE_WORDS) + " "
        else:  # outside ASCII: each such character one "?" of the bytes read, a space as in the string table
            spaced = re.sub(r"[^\x00-\x7f]", " ", text.translate(_GATE_WORDS))
            words = gate_words(text)
            assert words == frozenset(spaced.split()) and words.padded == " " + spaced + " "
            others = tuple(i for i, c in enumerate(text) if c.isdecimal() and c not in "0123456789")
            assert words.wide == others
        # (the ten digits of a `\\d` gate asked as one, on any text)
        assert gate_words(text).digits == any(digit in text for digit in "0123456789")
        # the words that start with a digit 0-9: at the space before each in the padded text
        padded = words.padded
        starts = [i for i in range(len(padded) - 1) if padded[i] == " " and padded[i + 1].isdigit()]
        assert words.digit_starts() == starts


def test_alternatives_gathered_by_first_character_match_as_the_alternation_does() -> None:
    """`by_first_character` moves alternatives only past others that start with another character:
    the same matches, match for match, as the plain alternation, for the cue families' alternatives
    and for alternations made to trip it (shared starts in any order, optional and repeated groups,
    escapes, classes, groups spread over what follows, an empty alternative)."""
    from mcp_lint.jury.regex_scan import by_first_character

    assert by_first_character(["use x", "when y", "used z"]) == "use(?: x|d z)|when y"
    made = [
        ["a", "ab", "b", "abc", "ba"],
        ["(?:do not|don't) use", "do it", r"\d+ items", "dont", "(?:an? )?error", "an"],
        ["max(?:imum)?", "maxi", "(?:max|min)imum", "[mn]o", "mo", "min"],
        ["e\\.g", "eg", "e", "(?:e|f)+x", "ex", "fx"],
        ["(?:a|b)?c", "ac", "c", "bc", "", "ca"],
        ["x(y)z", "xz", "(?:x)??y", "xy", "y"],
    ]
    families = [
        [a for p in patterns for a in _top_alternatives(p) if a.isascii()]
        for patterns in (F.USAGE_CUES, F.LIMIT_CUES, F.EXAMPLE_CUES, F.LIMIT_KINDS)
    ]
    texts = [t.lower() for t in sample_texts()[::5]]
    rng = random.Random(64)
    pieces = ["a", "b", "c", "ab", "ba", "do not use", "don't", "5 items", "error", "an error", "maximum"]
    pieces += ["max", "min", "mo", "e.g", "eg", "eex", "fx", "x", "y", "xyz", "xz", "only", "when"]
    texts += [
        "".join(rng.choice([*pieces, " ", " ", "-"]) for _ in range(rng.randint(1, 12))) for _ in range(2000)
    ]
    for alternatives in (*made, *families):
        plain = re.compile(r"\b(?:" + "|".join(alternatives) + ")")
        gathered = re.compile(r"\b(?:" + by_first_character(alternatives) + ")")
        for text in texts:
            assert [m.span() for m in gathered.finditer(text)] == [m.span() for m in plain.finditer(text)], (
                alternatives[:3],
                text[:80],
            )


def test_the_shipped_cue_families_are_what_the_patterns_give_today() -> None:
    """`data/cue-families.json` holds what each cue family of the lexicon scans with, derived from its
    patterns now (after a lexicon change: `python -m lab.word_gates`); the lexicon's families are
    made from it, and a family whose patterns it lacks is derived."""
    from mcp_lint.jury import regex_scan
    from mcp_lint.resources import PACKAGE_DIR

    text = (PACKAGE_DIR / "jury" / regex_scan.FAMILIES_FILE).read_text(encoding="utf-8")
    document = regex_scan.families_document((p, F.CJK) for p in F.CUE_FAMILY_PATTERNS)
    assert json.loads(text) == document, "run: python -m lab.word_gates"
    shipped = regex_scan.shipped_families()
    assert set(shipped) == set(F.CUE_FAMILY_PATTERNS)
    made = (F._USAGE, F._LIMIT, F._EXAMPLE, F._KINDS, F._CONTENT_LIST)
    for patterns, one in zip(F.CUE_FAMILY_PATTERNS, made, strict=True):
        derived = regex_scan.family_sources(patterns, F.CJK)
        assert shipped[patterns] == derived
        assert _made_from(one) == derived
    assert any(F.CJK.search(source) for _, source in shipped[F.USAGE_CUES][1])  # (CJK ones too)
    other = (r"\bfoo\b|\bbar", "返回x")
    fresh = family(other, F.CJK, shipped)
    assert _made_from(fresh) == regex_scan.family_sources(other, F.CJK)
    assert [h.pattern for h in fresh.finditer("foo, then bar, 返回x")] == [0, 0, 1]


def _made_from(fam: Family) -> FamilySources:
    """What `fam` was made from, as `family_sources` gives it."""
    digits = (
        None if fam._digits is None else (source_of(fam._digits[0])[0], source_of(fam._digits[1].pattern)[0])
    )
    return source_of(fam.scan)[0], fam._sources, digits


def test_a_family_read_by_its_digits_alone_finds_what_its_whole_scan_finds() -> None:
    """Where the gate of a family's other alternatives turns a text away, `Family._by_digits` finds
    the matches of the whole alternation with the alternatives that start with a digit alone (sample
    texts, lower-cased, and made texts of numbers, units and the family's other words); where that gate
    lets the text through, it answers None and the family reads the whole scan from then on."""
    fam = F._KINDS
    assert fam._digits is not None  # (\b\d+ (?:results|items|...)\b)
    rng = random.Random(21)
    pieces = [
        "10 ",
        "3 results",
        "2 items",
        "5 mb",
        "12 kb ",
        "99 rows",
        "results ",
        "only ",
        "fails ",
        "max ",
    ]
    pieces += [
        "at most ",
        "note ",
        "not supported",
        "仅",
        "1.5 mb",
        "x",
        " ",
        ", ",
        "\n",
        "tool number 0: ",
        "٣ ",
    ]
    texts = [t.lower() for t in sample_texts()]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))) for _ in range(4000)]
    narrowed = matched = 0
    whole = fam._whole
    try:
        for text in texts:
            words = gate_words(text)
            fam._whole = False
            found = fam._by_digits(text, words)
            if found is None:
                assert fam._whole
                continue
            spans = [m.span() for m in found]
            assert spans == [m.span() for m in fam.scan.finditer(text)], text
            assert [h.pattern for h in fam.open_finditer(text, words, words)] == [
                fam._which(text, start) for start, _ in spans
            ]
            narrowed += 1
            matched += bool(spans)
    finally:
        fam._whole = whole
    assert narrowed > 500 and matched > 200 and narrowed < len(texts) - 500


def test_a_family_tells_its_patterns_apart_trying_only_those_that_start_so() -> None:
    """`Family._which` tries only the patterns that may start with the character a match starts with
    (`_by_first`); it names the pattern that trying every one in order names, at every match of the
    jury's families in every sample text (lower-cased) and in made texts."""
    rng = random.Random(13)
    pieces = ["not ", "only ", "max 5 ", "e.g. ", "eg", "note: ", "use it when ", "instead", "do not use "]
    pieces += ["例如", "仅", "失败", "include", "such as ", "rate-limit ", "i.e. ", "12 mb", "x", " ", "\n"]
    texts = [t.lower() for t in sample_texts()]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))) for _ in range(3000)]
    told = 0
    for fam in (F._USAGE, F._LIMIT, F._EXAMPLE, F._KINDS, F._CONTENT_LIST):
        everyone = [(index, re.compile(source)) for index, source in fam._sources]
        for text in texts:
            for m in fam.scan.finditer(text):
                want = next(index for index, r in everyone if r.match(text, m.start()))
                assert fam._which(text, m.start()) == want, (text, m.start())
                told += len(fam._candidates().get(text[m.start()], fam._untold)) < len(everyone)
    assert told > 1000  # the narrowing is used


def test_wide_digits_are_the_digits_outside_ascii() -> None:
    """`_WIDE_DIGIT` (a class) matches what `\\d` matches but 0-9 at every code point."""
    from mcp_lint.jury.regex_scan import _WIDE_DIGIT

    digit = re.compile(r"\d")
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    found = [m.start() for m in _WIDE_DIGIT.finditer(every)]
    assert found == [
        c for c in range(sys.maxunicode + 1) if digit.match(every, c) and not "0" <= every[c] <= "9"
    ]
    assert len(found) > 600


def test_searching_at_the_offsets_as_found_answers_as_the_sorted_positions_do() -> None:
    """`Gated._search_at` tries the gate's offsets as it finds them (unsorted, maybe twice) and stops
    at the first match: the same answer as matching at the sorted `_positions` and as the pattern's
    own `search`, for every gated pattern, on sample texts and made texts long enough to be read at
    their words, ASCII or not (wide digits, CJK cues, words glued by `_` or letters outside ASCII)."""
    patterns = _gated_patterns()
    texts = [t.lower() for t in sample_texts()]
    rng = random.Random(34)
    pieces = sorted(
        {
            w
            for p in patterns.values()
            if (g := word_gate(p))
            for w in (*g.words, *g.prefixes, *_said(g.phrases))
        }
    )
    pieces += ["٣", "仅", "例如", "é", "x", "5"]
    glue = [" ", "", "_", "-", "'", ".", ": ", "\n", "x", "9", "s ", "é", " lorem ipsum dolor sit amet "]
    for _ in range(1500):
        texts.append("".join(rng.choice(pieces) + rng.choice(glue) for _ in range(rng.randint(2, 10))))
    texts = [t if len(t) >= _SHORT else t + " lorem ipsum" * (_SHORT // 10) for t in texts]
    tried = 0
    for name, pattern in patterns.items():
        gated = Gated(pattern)
        for text in texts:
            words = gate_words(text)
            if not gated.passes(text, words):
                continue
            own = gated._words
            if own is None or not gated._at_start:
                continue  # (scanned whole: its gate cannot say where matches start)
            expected = pattern.search(text) is not None
            assert bool(gated._from(text, gated._positions(text, words, own, words))) == expected, (
                name,
                text,
            )
            assert gated._search_at(text, words, own, words) == expected, (name, text)
            tried += expected
    assert tried > 1000
