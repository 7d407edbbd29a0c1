"""mcp_lint.jury.features.lexicon: the cheap section and bullet tests say what their regexes say."""

from __future__ import annotations

import random
import re
import sys

import pytest
from jury_support import sample_texts

from mcp_lint.jury.features.lexicon import (
    BULLET,
    CASE_FOLDS,
    PARAM_ENTRY,
    PARAM_LINE,
    PARAM_SECTION,
    RETURN_SECTION,
    has_param_section,
    has_return_section,
    is_bullet,
)
from mcp_lint.jury.regex_scan import gate_words

TEXTS = (
    "Args:\n  city: the city",
    "ARGUMENTS",
    "## Parameters",
    "Takes params: a, b",
    "Inputs",
    "options:",
    "参数：城市",
    "Returns: the forecast",
    "OUTPUT:",
    "response ：ok",
    "返回：天气",
    "Returns the forecast for a city.",
    "Gets the weather.",
    "",
    # IGNORECASE matches these to i and s while lower() keeps them apart
    "ınputs",
    "İNPUT:",
    "paramſ:",
    "Return value ſhown: none",
    "Outputſ:",
    # the words the regexes need, inside other words or not standing where a section's header does
    "optional largest parameter input_value returned outputting",
    "x-args: y",
    "the_params: a",
    "see the response:",
    "Options are listed in the inputs",
    "use the inputs\n  params : a",
)


@pytest.mark.parametrize("text", TEXTS)
def test_the_cheap_tests_agree_with_the_regexes(text: str) -> None:
    low = text.lower()
    for words in (None, gate_words(low)):  # with the text's words (whole words) or without (substrings)
        assert has_param_section(text, low, words) == (PARAM_SECTION.search(text) is not None)
        assert has_return_section(text, low, words) == (RETURN_SECTION.search(text) is not None)


def test_the_cheap_tests_agree_with_the_regexes_on_made_texts() -> None:
    """Texts outside ASCII too (the tests read a text without `CASE_FOLDS` as its lower-cased copy):
    the section words in every case, the characters IGNORECASE folds, CJK headers and colons."""
    rng = random.Random(11)
    pieces = ["Args", "ARGUMENTS", "params", "Parameters", "Inputs", "input", "OPTIONS", "returns", "Return"]
    pieces += ["Output", "outputs", "RESPONSE", "参数", "返回", "：", ":", "\n", " ", "  ", "#", "## ", "x"]
    pieces += ["é", "—", "获取", "\u00a0", "\u2028", "\u212a", *CASE_FOLDS, "ınputs", "paramſ", "İnput", "_"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 8))) for _ in range(6000)]
    from jury_support import sample_texts

    texts += sample_texts()
    found = [0, 0]
    for text in texts:
        low = text.lower()
        for words in (None, gate_words(low)):
            param = PARAM_SECTION.search(text) is not None
            ret = RETURN_SECTION.search(text) is not None
            assert has_param_section(text, low, words) == param, text
            assert has_return_section(text, low, words) == ret, text
            found[0] += param
            found[1] += ret
    assert min(found) > 100  # both answers, many times


def test_case_folds_are_the_letters_ignorecase_reads_apart_from_lower() -> None:
    """Every character outside ASCII that IGNORECASE matches to an ASCII letter, except those
    `lower()` lowers to the same letter, is in CASE_FOLDS (and nothing else is)."""
    letter = re.compile("[a-z]", re.IGNORECASE)
    folds = [
        chr(c)
        for c in range(128, sys.maxunicode + 1)
        if letter.fullmatch(chr(c)) and not (chr(c).lower().isascii() and chr(c).lower().isalpha())
    ]
    assert folds == list(CASE_FOLDS)


def test_is_bullet_is_the_bullet_regex() -> None:
    from jury_support import sample_texts

    units = [u for t in sample_texts() for u in (t, *t.split("\n"), *t.split(". "))]
    units += ["", " ", "-", "- a", "* a", "• a", "1. a", "12) a", "١. a", "\u00a0- a", "-a", "1.a", "a - b"]
    for unit in units:
        assert is_bullet(unit) == (BULLET.match(unit) is not None), unit[:60]
    assert {is_bullet(u) for u in units} == {True, False}


def test_the_cases_cover_both_answers() -> None:
    # the agreement above is checked on texts with and without each section
    assert {has_param_section(t, t.lower()) for t in TEXTS} == {True, False}
    assert {has_return_section(t, t.lower()) for t in TEXTS} == {True, False}
    assert has_param_section("ınputs", "ınputs") and has_param_section("İNPUT:", "İNPUT:".lower())


def test_opens_with_verb_says_what_verb_start_says() -> None:
    """The ASCII reading of `VERB_START` (string methods, no regex) agrees with the regex on every
    sample text and each of its units, on the leads and case it allows, on every ASCII whitespace
    character before the verb, and on non-ASCII texts (which the regex itself reads)."""
    from jury_support import sample_texts

    from mcp_lint.jury.features.lexicon import VERB_START, opens_with_verb
    from mcp_lint.jury.features.units import split_units

    texts = sample_texts()
    units = [u for text in texts for u in split_units(text)]
    rng = random.Random(30)
    leads = ["", "this tool ", "This Tool ", "this  tool ", "this method ", "thistool ", "THIS ENDPOINT "]
    wills = ["", "will ", "Will ", "will  ", "wil "]
    verbs = ["get", "GETS", "Analyse", "analyze", "summarizes", "look up", "Looks Up", "lookup", "gettting"]
    verbs += ["list_items", "fetc", "获取", "search", "ſearch", "İnsert", "x"]  # long s, dotted I
    verbs += ["Ġet", "Создать", "é", "查询", "列", "\u212aeep"]  # (not ASCII, no fold: string methods)
    spaces = ["", " ", "\t", "\n ", "\x1c", "\x1f", "\x0b", "\u00a0", "\u2003", "\u3000", "’"]
    made = [
        rng.choice(spaces) + rng.choice(leads) + rng.choice(wills) + rng.choice(verbs)
        + rng.choice(["", " the weather.", "s", ":", " — ça", "获取"])
        for _ in range(3000)
    ]  # fmt: skip
    checked = [*texts, *units, *made, "", " ", "this tool ", "will", "will get"]
    answers = set()
    for text in checked:
        answer = opens_with_verb(text)
        assert answer == (VERB_START.match(text) is not None), repr(text)
        answers.add(answer)
    assert answers == {True, False}
    assert len(units) > 1000
    # (texts outside ASCII, without a fold, read by string methods: both answers)
    assert {opens_with_verb(t) for t in checked if not t.isascii() and not set(t) & set(CASE_FOLDS)} == {
        True,
        False,
    }


def test_lower_reads_the_verbs_as_ignorecase_does() -> None:
    """What `opens_with_verb` reads without its regex, over every code point but `CASE_FOLDS`: IGNORECASE
    matches a character of the verbs, the leads or "will " to a character exactly when `lower()` lowers
    that character to it (and to one character); `\\s` matches what `isspace` and `lstrip` take."""
    from mcp_lint.jury.features.lexicon import _OPENING_PREFIXES, _VERB_LEADS

    chars = sorted(set("".join((*_OPENING_PREFIXES, *_VERB_LEADS, "will "))))
    assert "获" in chars and "z" in chars and " " in chars
    ignorecase = {c: re.compile(re.escape(c), re.IGNORECASE) for c in chars}
    any_of = re.compile("[" + re.escape("".join(chars)) + "]", re.IGNORECASE)
    space = re.compile(r"\s")
    for point in range(sys.maxunicode + 1):
        c = chr(point)
        assert (space.fullmatch(c) is not None) == c.isspace() == ((c + "x").lstrip() == "x"), hex(point)
        if c in CASE_FOLDS:
            continue
        low = c.lower()
        assert len(low) == 1, hex(point)
        if any_of.fullmatch(c) is not None or low in ignorecase:
            assert [p for p in chars if ignorecase[p].fullmatch(c)] == [low], hex(point)


def test_cjk_finds_the_cjk_blocks() -> None:
    """`CJK`, read on UTF-8 bytes, finds exactly the characters of `_CJK_RANGES`, each on its own (every
    code point) and among others (the code points around each block's ends, and UTF-8's 1- to 4-byte
    characters, surrogates too), as the code point class does."""
    from mcp_lint.jury.features.lexicon import _CJK_RANGES, CJK

    found = [point for point in range(sys.maxunicode + 1) if CJK.search(chr(point)) is not None]
    assert found == [point for low, high in _CJK_RANGES for point in range(low, high + 1)]
    blocks = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in _CJK_RANGES) + "]")
    near = [p + d for low, high in _CJK_RANGES for p in (low, high) for d in (-2, -1, 0, 1, 2)]
    near += [0x41, 0xE9, 0x3000, 0x4E2D, 0xD800, 0xDFFF, 0xE000, 0xFFFD, 0x1F600, 0x20000, 0x10FFFF]
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(chr(rng.choice(near)) for _ in range(rng.randint(0, 6)))
        assert (CJK.search(text) is not None) == (blocks.search(text) is not None), ascii(text)


def test_the_sentence_split_is_the_plain_regex() -> None:
    """`SENT_SPLIT` tries the openers of a glued sentence only after a space before one of their
    initials (`_GLUED_INITIALS`): the same pieces as the plain alternation, on sample texts and on
    every opener glued after a word, in its case and lower-cased."""
    import re

    from jury_support import sample_texts

    from mcp_lint.jury.features import lexicon as L

    plain = re.compile(
        r"(?<=[.!?。！？；;])\s+|(?<=[.!?]['\"”’)])\s+|(?<=[。！？；])|\n+|"
        rf"(?<=[\w)\]'\"`”’])\s+(?=(?:{L.GLUED_SENTENCE_OPENERS})\b|(?:{L.GLUED_OPENERS_BEFORE_LOWER})\s+[a-z])"
    )
    openers = [*L.GLUED_SENTENCE_OPENERS.split("|"), *L.GLUED_OPENERS_BEFORE_LOWER.split("|")]
    texts = [t for t in sample_texts()]
    texts += [f"a video ID {w} tool is here, x) {w}s {w}  more and {w.lower()} then" for w in openers]
    for text in texts:
        assert L.SENT_SPLIT.split(text) == plain.split(text), text[:80]


def test_the_guarded_split_gives_the_unguarded_pieces() -> None:
    """`_SENT_SPLIT_NO_CJK_STOP` turns a space away at its guard before its alternatives: the same
    pieces as the alternatives alone, on sample texts and random strings over the characters the
    alternatives turn on (stops, closing marks, newlines, openers' initials and openers)."""
    import random
    import re

    from jury_support import sample_texts

    from mcp_lint.jury.features import lexicon as L

    unguarded = re.compile(
        r"\s(?:(?<=[.!?。！？；;]\s)\s*|(?<=[.!?]['\"”’)]\s)\s*|(?<=\n)\n*|"
        rf"(?<=[\w)\]'\"`”’]\s)\s*{L._GLUED})"
    )
    rng = random.Random(33)
    pieces = [*"ab .!?;'\"”’)]`。", "x1", "  ", "\n", "\t"]
    pieces += ["This", "Note", "Returns", "Use", "Get", "get", "T", "Z"]
    texts = [t for t in sample_texts() if not any(ch in t for ch in "。！？；")]
    for _ in range(30_000):
        texts.append("".join(rng.choice(pieces) for _ in range(rng.randrange(12))))
    for text in texts:
        assert L._SENT_SPLIT_NO_CJK_STOP.split(text) == unguarded.split(text), repr(text[:80])


def test_parameter_lines_and_entries_match_as_without_the_look_ahead() -> None:
    """PARAM_LINE and PARAM_ENTRY turn a shorter name away at once (the look-ahead after the name):
    the same matches, spans and groups as the patterns without it, on sample texts, their lines and
    made ones."""
    # (the two as they were written before the look-ahead)
    plain_line = re.compile(
        r"^\s*(?:[-*•]\s*)?`?([A-Za-z_][A-Za-z0-9_.\[\]]*)`?\s*(?:\(([^)]{0,60})\))?\s*[:\-–—]\s+\S",
        re.MULTILINE,
    )
    plain_entry = re.compile(
        r"(?:[-*•]\s*)?`?([A-Za-z_][A-Za-z0-9_.\[\]]*)`?\s*(?:\(([^)]{0,60})\))?\s*[:\-–—]\s+(\S.*)"
    )
    assert PARAM_LINE.pattern != plain_line.pattern and PARAM_ENTRY.pattern != plain_entry.pattern
    rng = random.Random(3)
    pieces = [
        "name",
        "a.b",
        "x[0]",
        "_q",
        "`",
        " ",
        "(",
        "int",
        ")",
        ":",
        "-",
        "\u2013",
        "\u2014",
        "*",
        "\u2022",
    ]
    pieces += ["\n", "\t", "é", "9", "]", "[", ".", "text", "Args", "  "]
    made = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(20000)]
    texts = [*sample_texts(), *made]
    found = 0
    for text in texts:
        assert [(m.span(), m.groups()) for m in PARAM_LINE.finditer(text)] == [
            (m.span(), m.groups()) for m in plain_line.finditer(text)
        ], text
        for line in text.splitlines() or [text]:
            e, f = PARAM_ENTRY.match(line), plain_entry.match(line)
            assert (e is None) == (f is None), line
            if e is not None and f is not None:
                assert (e.span(), e.groups()) == (f.span(), f.groups()), line
                found += 1
    assert found > 1000
