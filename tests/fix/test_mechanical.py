"""Mechanical fixes: a tool name in another case becomes the server's, invisible characters go, each
from the run's own findings; --fix keeps them whatever the jury says. A phantom parameter is left as
written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import JurySettings, Settings
from mcp_lint.fix.mechanical import Repair, repair
from mcp_lint.fix.plan import plan_fixes
from mcp_lint.fix.propose import propose, repairable, suggestion_text
from mcp_lint.model import Finding, ServerSnapshot, Tool
from mcp_lint.pipeline import check_reflections
from mcp_lint.reflect import Reflection

THINK: dict[str, Any] = {
    "type": "object",
    "properties": {
        "thought": {"type": "string", "description": "The current thinking step."},
        "totalThoughts": {"type": "integer", "description": "How many steps are planned."},
    },
    "required": ["thought", "totalThoughts"],
}


def tool(name: str, description: str, schema: dict[str, Any] = THINK) -> Tool:
    return Tool(name, {"name": name, "description": description, "inputSchema": schema})


def findings(*tools: Tool) -> list[Finding]:
    settings = Settings()
    return check_server(ServerSnapshot("s", tools), active_rules(load_catalogue(), settings), settings)


def test_a_phantom_parameter_spelt_like_a_real_one_is_left_as_written() -> None:
    # On fresh servers every such rename named a field of the result or of the API called, not the
    # parameter: phantom-parameter is not precise enough to make an edit on its own.
    think = tool(
        "think", "Records a step. Set `total_thoughts` to the steps planned; total_thoughts_left is not."
    )
    found = findings(think)
    assert any(finding.code == "MCP203" for finding in found)
    fixed = repair(think, found)
    assert fixed.text == think.description and fixed.notes == ()


def test_a_tool_called_in_code_is_not_renamed_to_a_name_code_cannot_call() -> None:
    reply = tool("add-ticket-reply", "Reply to a ticket. Example: `await add_ticket_reply(ticket_id=1)`.")
    other = tool("get-ticket", "Get a ticket. Then reply with add_ticket_reply.")
    found = findings(reply, other)
    assert {finding.subject for finding in found if finding.code == "MCP405"} >= {"add_ticket_reply"}
    assert repair(reply, found).text == reply.description
    # Named in prose, the served name is what the agent must call.
    assert repair(other, found).text == "Get a ticket. Then reply with add-ticket-reply."


def test_invisible_characters_are_removed_and_the_description_is_no_longer_refused() -> None:
    hidden = tool("think", "Records\u200b a thinking step\u202e.")
    found = findings(hidden)
    assert any(finding.code == "MCP302" for finding in found)
    fixed = repair(hidden, found)
    assert fixed.text == "Records a thinking step." and fixed.notes == (
        "MCP302 invisible characters removed",
    )
    proposal = propose("s", hidden, (), {}, findings=found)
    assert proposal.description == "Records a thinking step."
    assert suggestion_text(proposal) == (
        "Proposed description (fixes MCP302 invisible characters removed):\nRecords a thinking step."
    )


def test_nothing_to_fix_changes_nothing() -> None:
    clean = tool("think", "Records a thinking step; `totalThoughts` is the number planned.")
    assert repair(clean, findings(clean)).text == clean.description


def test_propose_skips_repair_only_where_repair_would_change_nothing() -> None:
    # `propose` calls `repair` (which lists the server's names) only when `repairable` says a
    # finding calls for a fix; for every other set of findings repair gives the text back as it is.
    schema: dict[str, Any] = {"type": "object", "properties": {"url": {"type": "string"}}}
    check = tool("playwright_assert_response", "Check a response awaited earlier.", schema)
    cases = [
        tool("think", "Records a thinking step; `totalThoughts` is the number planned."),
        tool("think", "Records\u200b a thinking step\u202e."),
        tool("playwright_expect_response", "Use `Playwright_assert_response` to check it.", schema),
        tool("playwright_expect_response", "Then call `playwright_assert_responses`.", schema),
        tool("think", ""),
    ]
    for case in cases:
        found = findings(case, check)
        names = [case.name, check.name]
        mine = [finding for finding in found if finding.tool == case.name]
        for given in (found, mine, []):
            if not repairable(given):
                assert repair(case, given, names) == Repair(case.description)
    assert sum(repairable(findings(case, check)) for case in cases) == 3  # both kinds are met


def test_a_non_english_description_gets_its_mechanical_fix_and_no_english() -> None:
    chinese = tool("think", "记录一个思考步骤。设置 `totalThoughts`\u200b 为计划的步骤数。")
    scores = dict.fromkeys(("purpose", "guidelines", "limitations", "parameters", "length", "examples"), 1.0)
    proposal = propose("s", chinese, (), scores, findings=findings(chinese))
    assert proposal.description == "记录一个思考步骤。设置 `totalThoughts` 为计划的步骤数。"
    assert proposal.touched == () and proposal.note is not None and "not in English" in proposal.note
    assert "adds nothing: the description is not in English" in suggestion_text(proposal)


def test_fix_keeps_a_mechanical_fix_that_clears_no_rubric_smell(tmp_path: Path) -> None:
    think = tool(
        "think",
        "Records one step of a sequential thinking process and returns the step count so far. Set "
        "`totalThoughts` to the number of steps you plan;\u200b it may grow later. Use it for problems "
        "that need several steps, and not for a single lookup. It fails when `thought` is empty.",
    )
    result = check_reflections([Reflection("s", ServerSnapshot("s", (think,)))], Settings(), JurySettings())
    plan = plan_fixes(result, root=tmp_path, overrides_path=tmp_path / "o.json")
    [outcome] = [outcome for outcome in plan.outcomes if outcome.tool == "think"]
    assert outcome.kept and outcome.applied, outcome.reasons
    assert outcome.rewrite is not None and outcome.rewrite.repairs
    assert "\u200b" not in outcome.rewrite.description and "plan; it may" in outcome.rewrite.description


def test_a_guessed_typo_is_left_to_the_author() -> None:
    report = tool(
        "run_report",
        "Runs a report. Set numeric_filter to narrow it.",
        {"type": "object", "properties": {"metric_filter": {"type": "object"}}},
    )
    found = findings(report)
    # The rule guesses a typo; the text may mean another thing (a field inside a filter expression).
    assert [(f.subject, f.suggestion) for f in found if f.code == "MCP203"] == [
        ("numeric_filter", "Did you mean `metric_filter`?")
    ]
    assert repair(report, found).text == report.description


def test_a_tool_name_written_in_another_case_becomes_the_servers_tool_name() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"url": {"type": "string"}}}
    expect = tool(
        "playwright_expect_response",
        "Start waiting for a response. Use `Playwright_assert_response` to check it.",
        schema,
    )
    check = tool("playwright_assert_response", "Check a response awaited earlier.", schema)
    fixed = repair(expect, findings(expect, check))
    assert fixed.text == "Start waiting for a response. Use `playwright_assert_response` to check it."
    assert fixed.notes == ("MCP405 `Playwright_assert_response` -> `playwright_assert_response`",)
    # Another name the rule guesses at (not the same name in another case) is left to the author.
    guess = tool("playwright_expect_response", "Then call `playwright_assert_responses`.", schema)
    assert repair(guess, findings(guess, check)).text == guess.description


def test_a_tool_name_without_the_prefix_every_tool_of_the_server_has_gets_it_back() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"key": {"type": "string"}}}
    assign = tool(
        "jira_assign_issue",
        "Assign an issue. More reliable than setting the assignee via update_issue.",
        schema,
    )
    server = (
        assign,
        tool("jira_update_issue", "Update an issue's fields.", schema),
        tool("jira_get_issue", "Get an issue.", schema),
        tool("confluence_get_page", "Get a page.", schema),
        tool("confluence_create_page", "Create a page.", schema),
        tool("confluence_update_page", "Update a page.", schema),
    )
    found = findings(*server)
    names = [each.name for each in server]
    fixed = repair(assign, found, names)
    assert fixed.text == "Assign an issue. More reliable than setting the assignee via jira_update_issue."
    assert fixed.notes == ("MCP405 `update_issue` -> `jira_update_issue`",)
    # Where only some tools carry the prefix, the bare name may be the API the tool calls
    # (`query_range` of Prometheus beside `prometheus_query_range`): left as written.
    mapper = tool("prometheus_map_dependencies", "Aggregates rates via `query_range` into edges.", schema)
    mixed = (
        mapper,
        tool("prometheus_query_range", "Run a range query.", schema),
        tool("prometheus_query", "Run an instant query.", schema),
        tool("group_alerts_by_service", "Group alerts.", schema),
        tool("detect_cascading_alerts", "Detect cascades.", schema),
    )
    assert repair(mapper, findings(*mixed), [each.name for each in mixed]).text == mapper.description


def test_a_text_listing_several_names_without_their_prefix_gets_all_of_them_or_none() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"key": {"type": "string"}}}
    others = (
        tool("geo_find_shops", "Find shops near a point.", schema),
        tool("geo_trace_path", "Trace a path between points.", schema),
        tool("geo_lookup_area", "Look up an area.", schema),
        tool("geo_route", "Route between two points.", schema),
    )
    # The rule reports one bare name of the text; the others of the list get their prefix too.
    chart = tool(
        "geo_render_chart",
        "Render a chart. Call it after find_shops, trace_path, or lookup_area to draw the route found.",
        schema,
    )
    server = (chart, *others)
    fixed = repair(chart, findings(*server), [each.name for each in server])
    assert fixed.text == (
        "Render a chart. Call it after geo_find_shops, geo_trace_path, or geo_lookup_area to draw the "
        "route found."
    )
    assert len(fixed.notes) == 3
    # A plain word of the same list (`route`, the old name of `geo_route`) cannot be told from prose
    # with that certainty: a half-respelt list would be worse than none, so none.
    listed = tool(
        "geo_render_chart",
        "Render a chart. Call it after find_shops, trace_path, lookup_area, or route to draw results.",
        schema,
    )
    server = (listed, *others)
    assert repair(listed, findings(*server), [each.name for each in server]).text == listed.description


def test_a_tool_name_the_text_gives_as_a_value_of_its_own_parameter_is_not_respelt() -> None:
    # A value of one of the tool's parameters that happens to be spelt like another tool is that
    # value, not the tool: respelt, the text would document a value the schema rejects.
    listed: dict[str, Any] = {
        "type": "object",
        "properties": {"policy": {"type": "string", "enum": ["keep", "archiveOldNotes"]}},
    }
    plain: dict[str, Any] = {"type": "object", "properties": {"policy": {"type": "string"}}}
    archive = tool("archive_old_notes", "Archive notes older than a month.", plain)
    cases = {
        # in the schema's enum, however the text writes it
        "Sync notes. Policies: `keep`, or `archiveOldNotes` to back them up first.": listed,
        "Sync notes.\n- `archiveOldNotes`: back them up first, then clear.": listed,
        # set as the parameter's value in the text, the schema listing none
        "Sync notes. With `policy`: `archiveOldNotes` they are backed up first.": plain,
        "Sync notes. Set `policy` to `archiveOldNotes` to back them up first.": plain,
    }
    for text, schema in cases.items():
        sync = tool("sync_notes", text, schema)
        found = findings(sync, archive)
        assert any(
            f.code == "MCP405" and f.subject == "archiveOldNotes" for f in found if f.tool == "sync_notes"
        )
        fixed = repair(sync, found, ["sync_notes", "archive_old_notes"])
        assert fixed.text == text and fixed.notes == ()
    # Named as a tool to call, it is still respelt.
    sync = tool("sync_notes", "Sync notes. Call `archiveOldNotes` first to back them up.", plain)
    fixed = repair(sync, findings(sync, archive), ["sync_notes", "archive_old_notes"])
    assert fixed.text == "Sync notes. Call `archive_old_notes` first to back them up."


def test_a_call_on_the_line_after_a_parameters_name_and_a_colon_is_still_respelt() -> None:
    # "policy:" ending a line is a heading over an example, not the parameter set to what follows.
    plain: dict[str, Any] = {"type": "object", "properties": {"policy": {"type": "string"}}}
    text = "Sync notes.\n\n    To choose a policy:\n        sync_notes(policy='keep')\n"
    sync = tool("SyncNotes", text, plain)
    fixed = repair(sync, findings(sync, tool("ListNotes", "List notes.", plain)), ["SyncNotes", "ListNotes"])
    assert fixed.text == text.replace("sync_notes(", "SyncNotes(")
