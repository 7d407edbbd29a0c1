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
