"""The faithfulness check: one test per reason a rewrite is rejected, and what it lets through."""

from __future__ import annotations

from mcp_lint.fix.faithful import check, dropped_facts
from mcp_lint.fix.grounding import ground
from mcp_lint.model import Tool
from mcp_lint.traces import TraceRecord

TOOL = Tool(
    "get_forecast",
    {
        "name": "get_forecast",
        "description": "Get the forecast for one city; does not cover oceans. Up to 7 days, see https://example.com/docs.",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    },
)
ORIGINAL = TOOL.description
PARIS = TraceRecord("get_forecast", {"city": "Paris", "days": 2}, ({"type": "text", "text": "Sunny, 21 C"},))
GROUNDING = ground(TOOL, {}, [PARIS])


def test_a_grounded_rewrite_passes() -> None:
    rewrite = (
        f"{ORIGINAL} Requires `city`. Use `get_alerts` instead for warnings. "
        'Example: get_forecast(city="Paris", days=2) returned "Sunny, 21 C".'
    )
    assert check(ORIGINAL, rewrite, GROUNDING, {"get_alerts", "get_forecast"}) == []


def test_a_parameter_the_schema_lacks_is_rejected() -> None:
    reasons = check(ORIGINAL, f"{ORIGINAL} Pass `units` for Fahrenheit.", GROUNDING)
    assert reasons == ["names a parameter `units` that the input schema lacks"]
    # As a keyword of an example call too.
    reasons = check(ORIGINAL, f'{ORIGINAL} Example: get_forecast(city="Paris", lang="fr").', GROUNDING)
    assert "names a parameter `lang` that the input schema lacks" in reasons


def test_an_example_no_recorded_call_supports_is_rejected() -> None:
    reasons = check(ORIGINAL, f'{ORIGINAL} Example: get_forecast(city="Oslo").', GROUNDING)
    assert reasons == [
        'shows an example `get_forecast(city="Oslo")` that no successful recorded call supports'
    ]
    invented = f'{ORIGINAL} Example: get_forecast(city="Paris") returned "Rain all week".'
    assert check(ORIGINAL, invented, GROUNDING) == [
        "quotes a result 'Rain all week' that no recorded call returned"
    ]
    # Without any trace, no example can be supported.
    bare = ground(TOOL, {})
    assert check(ORIGINAL, f'{ORIGINAL} Example: get_forecast(city="Paris", days=2).', bare) != []


def test_dropping_a_fact_of_the_original_is_rejected() -> None:
    reasons = dropped_facts(ORIGINAL, "Get the forecast for a city.")
    assert "drops the number '7' the original states" in reasons
    assert "drops the URL 'https://example.com/docs' the original states" in reasons
    assert any(
        reason.startswith("drops the statement 'Get the forecast for one city; does not cover")
        for reason in reasons
    )
    assert dropped_facts("Use `city` only.", "Use city.") == [
        "drops the name '`city`' the original states",
        "drops the statement 'Use `city` only.' the original states",
    ]
    assert dropped_facts(ORIGINAL, f"{ORIGINAL} More.") == []


def test_what_the_original_already_named_is_not_a_new_phantom() -> None:
    original = "Use period or use start and end."
    phantom_tool = Tool("t", {"name": "t", "description": original, "inputSchema": {"type": "object"}})
    assert check(original, f"{original} Mentions `start` again.", ground(phantom_tool, {})) == []
