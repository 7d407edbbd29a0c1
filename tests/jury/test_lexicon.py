"""mcp_lint.jury.features.lexicon: the cheap section tests say what the section regexes say."""

from __future__ import annotations

import random

import pytest

from mcp_lint.jury.features.lexicon import (
    PARAM_SECTION,
    RETURN_SECTION,
    has_param_section,
    has_return_section,
)

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
)


@pytest.mark.parametrize("text", TEXTS)
def test_the_cheap_tests_agree_with_the_regexes(text: str) -> None:
    assert has_param_section(text, text.lower()) == (PARAM_SECTION.search(text) is not None)
    assert has_return_section(text, text.lower()) == (RETURN_SECTION.search(text) is not None)


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
    spaces = ["", " ", "\t", "\n ", "\x1c", "\x1f", "\x0b", "\u00a0", "\u2003"]
    made = [
        rng.choice(spaces) + rng.choice(leads) + rng.choice(wills) + rng.choice(verbs)
        + rng.choice(["", " the weather.", "s", ":"])
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
