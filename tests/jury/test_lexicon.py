"""mcp_lint.jury.features.lexicon: the cheap section tests say what the section regexes say."""

from __future__ import annotations

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
