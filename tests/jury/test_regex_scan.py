"""One-pass regex scanning (`regex_scan.py`): every fast path gives exactly what the plain regex gives,
on the calibration texts and on random ones."""

from __future__ import annotations

import random
import re
from typing import Any

from jury_support import sample_texts

from mcp_lint.jury import features as F
from mcp_lint.jury.regex_scan import CueScan, Gated, lowered, may_match


def test_literal_anchor_pre_tests_never_skip_a_match() -> None:
    gated = [v for v in vars(F).values() if isinstance(v, Gated)]
    assert len(gated) >= 5
    for text in sample_texts():
        for low in (text, text.lower()):
            for g in gated:
                if g.regex.search(low):
                    assert may_match(g.anchors, low), (g.regex.pattern[:60], low[:80])
                assert list(m.span() for m in g.finditer(low)) == [m.span() for m in g.regex.finditer(low)]


def _same_matches(scan: Any, text: str) -> None:
    got = scan.scan(text)
    for regex, once, matches in zip(scan.patterns, scan.once, got, strict=True):
        want = [(m.span(), m.lastgroup, m.groups()) for m in regex.finditer(text)][: 1 if once else None]
        assert [(m.span(), m.lastgroup, m.groups()) for m in matches] == want, (regex.pattern[:60], text[:80])


def test_cue_scan_matches_the_plain_regexes() -> None:
    # every cue regex takes the one-pass path (a regex whose starts cannot be derived still gives
    # the same matches, scanned on its own, but slower)
    assert F._CUE_SCAN.alone == ()
    for text in sample_texts():
        _same_matches(F._CUE_SCAN, text.lower())
        _same_matches(F._CUE_SCAN, text)


def test_cue_scan_gives_finditer_for_awkward_regexes() -> None:
    """Starts behind optional parts, classes, lookarounds, boundaries inside groups, overlapping and
    adjacent matches, and regexes it cannot read (scanned on their own): always `finditer`."""
    patterns = [
        r"\bnot\b|\bdoes not\b|\bnot supported",
        r"(?:please )?use(?: it)?\b",
        r"\b\d+ (?:items|results)\b|\bmax\b[^.\n]{0,10}\d",
        r"(?<![a-z])ab|ba(?=b)|\bb",
        r"a+b|b+a",
        r"(?:x|y)?z\b",
        r"\bk(?:ey|ind)s?\b|限制|仅",
        r"[ab]{2}|c",
        r"\Bb\w",
        r"(?i)ab",
        r".b",
        r"[^a]b",
        r"(?:a|)b",
        r"\s+a",
        r"(?P<one>a)|(?P<two>b)(c)",
        r"(?:^|\s)(?:not|use)s?\s*:",
        r"(?m)^\s*-\s*\w+:|(?:^|\s)kind\b",
        r"^b|\Aa",
        r"(?m:^x)|\by",
        r"\b\d+(?:\.\d+)?\b",
        r"\W(?:ab|仅)|\s\bmax",
        r"\s\(x|\d-y",
        r"\s\w",
    ]
    scan = CueScan([re.compile(p) for p in patterns], first_only=(1, 9, 13, 15))
    assert scan.alone == (9, 10, 11)  # IGNORECASE, any character, a negated class
    rng = random.Random(7)
    words = (
        "a b ab ba not does use please it z x 1 23 max . items 限制 仅 key kinds c _ é - y: 4.5 kind (x -y"
    )
    pieces = [*words.split(), " ", "\n"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) + rng.choice(["", "", " "]) for _ in range(rng.randint(0, 20)))
        _same_matches(scan, text)


def test_lowered_twins_of_case_insensitive_regexes() -> None:
    """On ASCII text, `lowered(regex)` over the text lower-cased matches where `regex` matches the
    text; the two section regexes get a case-sensitive twin (so they join the cue scan)."""
    assert F._RETURN_SECTION_ASCII and F._PARAM_SECTION_ASCII  # so both join the cue scan
    tricky = [
        re.compile(p, re.IGNORECASE)
        for p in (r"[A-Z]x", r"[a-f]+:", r"k\b", "\u212a", r"(?-i:A)b", r"[^a]B", r"(a)\1", r"[Z-a]")
    ]
    assert [lowered(r) is None for r in tricky] == [True, False, False, True, True, True, True, True]
    regexes = [F.RETURN_SECTION, F.PARAM_SECTION, *(r for r in tricky if lowered(r))]
    rng = random.Random(3)
    words = "Returns: OUTPUT response Args PARAMS inputs Options # - x X k K b B a A f F"
    pieces = [*words.split(), " ", "\n", ":"]
    texts = [t for t in sample_texts() if t.isascii()]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(2000)]
    for text in texts:
        for regex in regexes:
            twin = lowered(regex)
            assert twin is not None
            want = [m.span() for m in regex.finditer(text)]
            assert [m.span() for m in twin.finditer(text.lower())] == want, (regex.pattern, text)
