"""The rubric's anchors applied after the offline jury's model (mcp_lint/jury/anchors.py)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_lint.jury.aggregate import aggregate_verdicts, server_score
from mcp_lint.jury.anchors import Evidence, anchor, simple_call
from mcp_lint.jury.base import JudgeVerdict
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import COMPONENTS, Tool

LOW = {
    "purpose": 2.0,
    "guidelines": 1.0,
    "limitations": 1.0,
    "parameters": 2.0,
    "length": 1.0,
    "examples": 1.0,
}
HIGH = dict.fromkeys(COMPONENTS, 5.0)
NO_EXAMPLE = Evidence(placeholder=False, example_hits=0)


def tool(description: str, properties: dict[str, Any] | None = None) -> Tool:
    raw: dict[str, Any] = {"name": "get_weather", "description": description}
    if properties is not None:
        raw["inputSchema"] = {"type": "object", "properties": properties}
    return Tool(name="get_weather", raw=raw)


CITY = {"city": {"type": "string", "description": "City name, e.g. Paris."}}


def test_parameters_is_left_out_for_a_tool_without_parameters() -> None:
    for no_params in (tool("Gets the weather."), tool("Gets the weather.", {})):
        result = anchor(no_params, LOW, NO_EXAMPLE)
        assert "parameters" not in result.scores
        assert result.reasons["parameters"] == "n/a: the tool takes no parameters"
    kept = anchor(tool("Gets the weather.", CITY), LOW, NO_EXAMPLE)
    assert kept.scores["parameters"] == 2.0
    assert "parameters" not in kept.reasons


def test_a_simple_call_without_examples_gets_the_anchor_three() -> None:
    result = anchor(tool("Gets the weather for a city.", CITY), LOW, NO_EXAMPLE)
    assert result.scores["examples"] == 3.0
    assert (
        result.reasons["examples"]
        == "no examples, but the call is simple enough to need none (1 clear parameter)"
    )
    # a higher score is never lowered
    assert anchor(tool("Gets the weather for a city.", CITY), HIGH, NO_EXAMPLE).scores["examples"] == 5.0


@pytest.mark.parametrize(
    ("properties", "simple"),
    [
        ({}, True),
        ({"owner": {"type": "string"}, "repo": {"type": "string"}}, True),  # self-explanatory names
        ({"days": {"type": "integer", "description": "How many days ahead, 1-10."}}, True),
        ({"units": {"enum": ["metric", "imperial"]}}, True),
        ({"city": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}, True),  # Optional[str]
        ({"tags": {"type": "array", "items": {"type": "string"}}}, True),
        (
            {
                "points": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"lat": {"type": "number"}}},
                }
            },
            True,
        ),
        # a free-form object: its shape is not said, so the call needs an example
        ({"body": {"type": "object", "additionalProperties": True, "description": "Search query"}}, False),
        ({"options": {"type": "object"}}, False),
        ({"value": {}}, False),  # no type at all
        ({"the_secondary_fallback_region_code": {"type": "string"}}, False),  # a long name, undocumented
        ({f"p{i}": {"type": "string", "description": "A value."} for i in range(9)}, False),  # not few
    ],
)
def test_simple_call(properties: dict[str, Any], simple: bool) -> None:
    assert simple_call(tool("Does it.", properties)) is simple


def test_a_call_that_is_not_simple_keeps_the_model_score() -> None:
    free_form = {"body": {"type": "object", "description": "Search query"}}
    result = anchor(tool("Search for documents.", free_form), LOW, NO_EXAMPLE)
    assert result.scores["examples"] == 1.0
    assert "examples" not in result.reasons


def test_a_placeholder_keeps_the_rubric_bottom() -> None:
    result = anchor(
        tool("", CITY), dict.fromkeys(COMPONENTS, 1.0), Evidence(placeholder=True, example_hits=0)
    )
    assert result.scores == dict.fromkeys(COMPONENTS, 1.0)


LONG_PLAIN = " ".join(f"Sentence {i} says something about the forecast for the city." for i in range(20))
SHOUTING = "IMPORTANT: you MUST call this tool first. Gets the weather for a city. NEVER guess the city."
TUTORIAL = "\n".join(
    [
        "Gets the weather.",
        "**Purpose:**",
        "Weather.",
        "**Workflow:**",
        "Call it.",
        "Examples:",
        "x",
        "## Notes",
        "y",
    ]
)


def test_length_does_not_reward_size_or_padding() -> None:
    long_result = anchor(tool(LONG_PLAIN, CITY), HIGH, NO_EXAMPLE)
    assert long_result.scores["length"] == 4.0
    assert long_result.reasons["length"].startswith("long (")
    shouting = anchor(tool(SHOUTING, CITY), HIGH, NO_EXAMPLE)
    assert shouting.scores["length"] == 3.0
    assert shouting.reasons["length"] == "padded (shouting (IMPORTANT, MUST, NEVER)): some text could go"
    tutorial = anchor(tool(TUTORIAL, CITY), HIGH, NO_EXAMPLE)
    assert tutorial.scores["length"] == 3.0
    assert "4 tutorial sections" in tutorial.reasons["length"]
    # a short, plain text keeps its score; a padded one scored low is not raised
    assert anchor(tool("Gets the weather for a city.", CITY), HIGH, NO_EXAMPLE).scores["length"] == 5.0
    assert anchor(tool(SHOUTING, CITY), LOW, NO_EXAMPLE).scores["length"] == 1.0


def test_acronyms_are_not_shouting() -> None:
    text = "Returns the forecast as JSON over HTTP, times in UTC and ISO 8601. " * 2
    assert anchor(tool(text, CITY), HIGH, NO_EXAMPLE).scores["length"] == 5.0


def test_the_offline_jury_applies_the_anchors_and_says_why() -> None:
    jury = OfflineJury()
    no_params = tool("Gets the weather forecast for the default city.", {})
    verdict = jury.judge(no_params, [])
    assert "parameters" not in verdict.scores
    assert verdict.reasons["parameters"] == "n/a: the tool takes no parameters"
    assert verdict.scores["examples"] == 3.0
    assert verdict.reasons["examples"].startswith("no examples, but the call is simple enough")
    # the model's own score, before the anchors, is still there to compare
    model_scores = jury.model_scores(no_params)[0]
    assert model_scores["examples"] < 3.0
    assert "parameters" in model_scores
    assert jury.scores(no_params)[0] == verdict.scores


def test_aggregate_and_server_score_leave_a_not_applicable_component_out() -> None:
    five = dict.fromkeys(COMPONENTS, 4.0)
    without = {c: 2.0 for c in COMPONENTS if c != "parameters"}
    no_params = aggregate_verdicts([JudgeVerdict("offline", without, {"parameters": "n/a: none"})])
    assert "parameters" not in no_params.aggregate
    assert "parameters" not in no_params.spread
    assert no_params.reasons["parameters"] == "n/a: none"
    assert no_params.overall == 2.0
    with_params = aggregate_verdicts([JudgeVerdict("offline", five)])
    score = server_score([no_params, with_params])
    assert score is not None
    assert score.components["parameters"] == 4.0  # over the one tool that takes parameters
    assert score.components["purpose"] == round(0.6 * 3.0 + 0.4 * 2.0, 3)
    only_no_params = server_score([no_params])
    assert only_no_params is not None
    assert "parameters" not in only_no_params.components


def test_capitals_are_sought_only_in_a_text_with_an_emphasis_word() -> None:
    """`_padding` lists the words in capitals only when `_ANY_EMPHASIS` finds an emphasis word
    somewhere in the text: every text with an emphasis word in capitals has one."""
    from lab.corpus import load_rows
    from mcp_lint.jury.anchors import _ANY_EMPHASIS, _CAPS_WORD, _EMPHASIS

    texts = [row["description"] for row in load_rows()] + ["IMPORTANT: x", "A b", "ÀB", "x NOTE y", ""]
    shouting = [text for text in texts if any(word in _EMPHASIS for word in _CAPS_WORD.findall(text))]
    assert len(shouting) > 10
    assert all(_ANY_EMPHASIS.search(text) is not None for text in shouting)


def test_sections_are_sought_only_in_lines_with_a_hash_colon_or_star() -> None:
    """`_padding` tries `_SECTION` only on a line with a "#", ":" or "*": every line it matches has
    one, so the count of tutorial sections is the plain count's."""
    import random

    from lab.corpus import load_rows
    from mcp_lint.jury.anchors import _SECTION

    rng = random.Random(3)
    pieces = ["#", "##", " ", "**", "*", ":", "Usage", "Examples", "a", "\t", "-", "/", "WORKFLOW", "x y"]
    texts = [row["description"] for row in load_rows()]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(3000)]
    lines = [line for text in texts for line in text.splitlines()]
    matched = [line for line in lines if _SECTION.match(line)]
    assert len(matched) > 100
    assert all("#" in line or ":" in line or "*" in line for line in matched)
