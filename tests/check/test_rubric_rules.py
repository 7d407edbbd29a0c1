"""Rubric rules: jury scores below a threshold become findings that quote the reason and help."""

from __future__ import annotations

from mcp_lint.check.functions import CheckContext
from mcp_lint.check.functions.rubric import jury_disagreement, rubric_component, template_suggestion
from mcp_lint.jury.aggregate import aggregate_verdicts
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.model import ServerSnapshot
from mcp_lint.reflect.tools import build_tools

TOOLS = build_tools(
    [
        {
            "name": "book_room",
            "description": "Books a room.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "slot": {"type": "string"},
                    "size": {"type": "integer", "description": "Seats."},
                },
            },
        },
        {"name": "cancel_booking", "description": "Cancels a booking by id."},
    ],
    "2025-11-25",
    None,
)
SERVER = ServerSnapshot("rooms", TOOLS)


def verdict(judge: str, guidelines: float, rewrite: str | None = None) -> JudgeVerdict:
    scores = {component: 4.0 for component in COMPONENTS} | {"guidelines": guidelines}
    return JudgeVerdict(judge, scores, {"guidelines": f"{judge}: never says when to use it."}, rewrite)


def context(scores: dict[str, object], **options: object) -> CheckContext:
    return CheckContext(SERVER, {"component": "guidelines", "threshold": 3, **options}, scores)


def test_below_threshold_is_a_hit_quoting_the_reason_with_a_template() -> None:
    scores = {"book_room": aggregate_verdicts([verdict("offline", 1)])}
    [hit] = list(rubric_component(context(scores)))
    assert hit.tool == "book_room"
    assert hit.fields["score"] == "1" and hit.fields["reason"] == "offline: never says when to use it"
    assert hit.suggestion is not None and "cancel_booking instead" in hit.suggestion


def test_threshold_is_configurable_and_inclusive() -> None:
    scores = {"book_room": aggregate_verdicts([verdict("offline", 2)])}
    assert list(rubric_component(context(scores, threshold=2))) == []
    assert len(list(rubric_component(context(scores, threshold=2.5)))) == 1


def test_a_judges_rewrite_wins_over_the_template() -> None:
    scores = {"book_room": aggregate_verdicts([verdict("a", 1, "Books a meeting room for a slot.")])}
    [hit] = list(rubric_component(context(scores)))
    assert hit.suggestion == "Books a meeting room for a slot."


def test_unscored_tools_are_skipped() -> None:
    assert list(rubric_component(context({}))) == []


def test_parameter_template_names_the_undocumented_ones() -> None:
    text = template_suggestion("parameters", TOOLS[0], ["book_room", "cancel_booking"])
    assert "`slot`" in text and "`size`" not in text
    example = template_suggestion("examples", TOOLS[0], [])
    assert "book_room(slot='...', size=10)" in example


def test_disagreement_needs_two_judges_and_a_spread_of_two() -> None:
    wide = {"book_room": aggregate_verdicts([verdict("a", 1), verdict("b", 4)])}
    [hit] = list(jury_disagreement(CheckContext(SERVER, {"spread": 2}, wide)))
    assert hit.fields["components"] == "guidelines"
    narrow = {"book_room": aggregate_verdicts([verdict("a", 2), verdict("b", 3)])}
    assert list(jury_disagreement(CheckContext(SERVER, {"spread": 2}, narrow))) == []
    alone = {"book_room": aggregate_verdicts([verdict("a", 1)])}
    assert list(jury_disagreement(CheckContext(SERVER, {"spread": 2}, alone))) == []


def parameters_template(properties: dict[str, object], **schema: object) -> str:
    [tool] = build_tools(
        [
            {
                "name": "t",
                "description": "x",
                "inputSchema": {"type": "object", "properties": properties, **schema},
            }
        ],
        "2025-11-25",
        None,
    )
    return template_suggestion("parameters", tool, [])


def test_parameter_template_follows_each_schema_instead_of_always_suggesting_a_date() -> None:
    assert parameters_template({"alert_id": {"type": "string", "description": "The alert to delete."}}) == (
        "Explain `alert_id`: where to get the id (which tool or result returns it)."
    )
    text = parameters_template(
        {
            "day": {"type": "string", "format": "date"},
            "unit": {"$ref": "#/$defs/Unit"},
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 7},
            "verbose": {"type": "boolean"},
            "note": {"type": "string"},
        },
        **{"$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}}},
    )
    assert text == (
        'Explain each parameter. `day`: a date, YYYY-MM-DD; `unit`: what each of "c", "f" means; '
        "`days`: its range and unit (default 7: say what it means); `verbose`: what true changes; and 1 more."
    )
    plain = parameters_template({"city": {"type": "string"}, "limit": {"type": "integer"}})
    assert (
        plain
        == "Explain each parameter. `city`: what it is, with an example value; `limit`: its range and unit."
    )
    alike = parameters_template({"city": {"type": "string"}, "period": {"type": "string"}})
    assert alike == "Explain each parameter. `city`, `period`: what it is, with an example value."


def test_a_fractional_threshold_tells_a_split_jury_from_a_low_score() -> None:
    # The README's reason fractional thresholds exist: two judges at 2 and 3 aggregate to 2.5.
    split = {"book_room": aggregate_verdicts([verdict("a", 2), verdict("b", 3)])}
    low = {"book_room": aggregate_verdicts([verdict("a", 2), verdict("b", 2)])}
    assert len(list(rubric_component(context(split, threshold=3)))) == 1
    assert list(rubric_component(context(split, threshold=2.5))) == []
    [hit] = list(rubric_component(context(low, threshold=2.5)))
    assert hit.fields["threshold"] == "2.5"
