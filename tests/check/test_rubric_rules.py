"""Rubric rules: jury scores below a threshold become findings that quote the reason and help."""

from __future__ import annotations

from rooms_support import SERVER, TOOLS

from mcp_lint.check.functions import CheckContext
from mcp_lint.check.functions.rubric import jury_disagreement, rubric_component
from mcp_lint.jury.aggregate import aggregate_verdicts
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.model import ServerSnapshot, Tool
from mcp_lint.reflect.tools import build_tools


def verdict(judge: str, guidelines: float, rewrite: str | None = None) -> JudgeVerdict:
    scores = {component: 4.0 for component in COMPONENTS} | {"guidelines": guidelines}
    return JudgeVerdict(judge, scores, {"guidelines": f"{judge}: never says when to use it."}, rewrite)


def context(scores: dict[str, object], **options: object) -> CheckContext:
    return CheckContext(SERVER, {"component": "guidelines", "threshold": 3, **options}, scores)


def test_below_threshold_is_a_hit_quoting_the_reason() -> None:
    scores = {"book_room": aggregate_verdicts([verdict("offline", 1)])}
    [hit] = list(rubric_component(context(scores)))
    assert hit.tool == "book_room"
    assert hit.fields["score"] == "1" and hit.fields["reason"] == "offline: never says when to use it"
    # The rule only reports; the proposed description is the propose stage's (tests/fix).
    assert hit.suggestion is None


def test_threshold_is_configurable_and_inclusive() -> None:
    scores = {"book_room": aggregate_verdicts([verdict("offline", 2)])}
    assert list(rubric_component(context(scores, threshold=2))) == []
    assert len(list(rubric_component(context(scores, threshold=2.5)))) == 1


def test_unscored_tools_are_skipped() -> None:
    assert list(rubric_component(context({}))) == []


def test_disagreement_needs_two_judges_and_a_spread_of_two() -> None:
    wide = {"book_room": aggregate_verdicts([verdict("a", 1), verdict("b", 4)])}
    [hit] = list(jury_disagreement(CheckContext(SERVER, {"spread": 2}, wide)))
    assert hit.fields["components"] == "guidelines"
    narrow = {"book_room": aggregate_verdicts([verdict("a", 2), verdict("b", 3)])}
    assert list(jury_disagreement(CheckContext(SERVER, {"spread": 2}, narrow))) == []
    alone = {"book_room": aggregate_verdicts([verdict("a", 1)])}
    assert list(jury_disagreement(CheckContext(SERVER, {"spread": 2}, alone))) == []


def test_a_fractional_threshold_tells_a_split_jury_from_a_low_score() -> None:
    # The README's reason fractional thresholds exist: two judges at 2 and 3 aggregate to 2.5.
    split = {"book_room": aggregate_verdicts([verdict("a", 2), verdict("b", 3)])}
    low = {"book_room": aggregate_verdicts([verdict("a", 2), verdict("b", 2)])}
    assert len(list(rubric_component(context(split, threshold=3)))) == 1
    assert list(rubric_component(context(split, threshold=2.5))) == []
    [hit] = list(rubric_component(context(low, threshold=2.5)))
    assert hit.fields["threshold"] == "2.5"


def tool_of(raw: dict[str, object]) -> Tool:
    [tool] = build_tools([raw], "2025-11-25", None)
    return tool


def test_opaque_parameters_skips_a_tool_without_parameters() -> None:
    tools = build_tools(
        [
            {"name": "get_status", "description": "Server status.", "inputSchema": {"type": "object"}},
            {"name": "get_user", "description": "A user.", "inputSchema": TOOLS[0].input_schema},
        ],
        "2025-11-25",
        None,
    )
    scores = {tool.name: aggregate_verdicts([verdict("offline", 1)]) for tool in tools}
    options = {"component": "guidelines", "threshold": 3, "only-with-parameters": True}
    hits = list(rubric_component(CheckContext(ServerSnapshot("s", tools), options, scores)))
    assert [hit.tool for hit in hits] == ["get_user"]
    # Without the option (every other component) the tool without parameters is still judged.
    options["only-with-parameters"] = False
    assert len(list(rubric_component(CheckContext(ServerSnapshot("s", tools), options, scores)))) == 2


def test_every_rubric_rule_message_is_made_of_the_fields_its_function_gives() -> None:
    # The check stage fills a rule's message template with the server, the tool and the hit's fields:
    # each packaged rubric_component rule's template needs nothing else (a field no template reads is
    # not computed per finding).
    from mcp_lint.check.rules import load_catalogue

    scores = {"book_room": aggregate_verdicts([verdict("offline", 1)])}
    rules = [rule for rule in load_catalogue().rules if rule.function == "rubric_component"]
    assert len(rules) == 6
    for rule in rules:
        [hit] = list(rubric_component(context(scores)))
        message = rule.message.format_map({"server": "s", "tool": "book_room", **hit.fields})
        assert "1/5" in message and "threshold 3" in message
