"""Rubric rules: jury scores below a threshold become findings that quote the reason and help."""

from __future__ import annotations

from mcp_lint.check.functions import CheckContext
from mcp_lint.check.functions.rubric import jury_disagreement, rubric_component, template_suggestion
from mcp_lint.jury.aggregate import aggregate_verdicts
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.model import ServerSnapshot, Tool
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
    assert "book_room(slot=<slot>, size=<size>)" in example


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


def test_use_instead_names_only_a_sibling_on_the_same_subject() -> None:
    tools = build_tools(
        [
            {"name": name, "description": "x", "inputSchema": {"type": "object"}}
            for name in ("echo", "read_file", "create_directory", "list_directory")
        ],
        "2025-11-25",
        None,
    )
    names = [tool.name for tool in tools]
    create = template_suggestion("guidelines", tools[2], names)
    assert "list_directory instead" in create and "echo" not in create and "read_file" not in create
    lonely = template_suggestion("guidelines", tools[1], names)
    assert "instead" not in lonely and "do not use it for <case>" in lonely


def test_example_call_takes_its_values_from_the_schema_never_a_made_up_number() -> None:
    tool = tool_of(
        {
            "name": "fetch",
            "description": "Fetch a URL.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "max_length": {"type": "integer", "default": 5000},
                    "tail": {"type": "number"},
                    "mode": {"type": "string", "enum": ["text", "html"]},
                    "url": {"type": "string", "format": "uri"},
                },
                "required": ["url"],
            },
        }
    )
    text = template_suggestion("examples", tool, [])
    assert "fetch(url=<url>, max_length=5000, tail=<tail>)" in text
    assert "1.5" not in text and "=10" not in text


def test_no_example_is_asked_for_when_one_is_there() -> None:
    in_prose = tool_of({"name": "add", "description": "Add two numbers. Example: add(a=2, b=3) returns 5."})
    in_parameter = tool_of(
        {
            "name": "get_time",
            "description": "Current time in a zone.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "timezone": {"type": "string", "description": "IANA zone, e.g., 'America/New_York'."}
                },
            },
        }
    )
    for tool in (in_prose, in_parameter):
        assert "Add one short example" not in template_suggestion("examples", tool, [])


def test_limitations_template_is_about_this_tools_parameters() -> None:
    reader = tool_of(
        {
            "name": "read_file",
            "description": "Read a file.",
            "inputSchema": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "max_lines": {"type": "integer"}},
            },
        }
    )
    text = template_suggestion("limitations", reader, [])
    assert text == (
        "State its limits: which files or folders `path` may point to; the largest `max_lines` it accepts."
    )
    bare = tool_of({"name": "ping", "description": "Ping."})
    assert "<scope>" not in template_suggestion("limitations", bare, [])


def test_use_instead_tells_siblings_on_the_same_subject_apart_by_description() -> None:
    raw = {
        "list_directory": "Get a detailed listing of all files and directories in a specified path.",
        "list_directory_with_sizes": (
            "Get a detailed listing of all files and directories in a specified path, including sizes."
        ),
        "create_directory": "Create a new directory or ensure a directory exists.",
        "directory_tree": "Get a recursive tree view of files and directories as a JSON structure.",
    }
    tools = build_tools(
        [
            {"name": name, "description": text, "inputSchema": {"type": "object"}}
            for name, text in raw.items()
        ],
        "2025-11-25",
        None,
    )
    names = list(raw)
    text = template_suggestion("guidelines", tools[0], names, raw)
    assert "list_directory_with_sizes instead" in text
    # By name alone the three directory tools are as close: none is named.
    assert "instead" not in template_suggestion("guidelines", tools[0], names)
