"""undocumented-parameter (MCP202): what the tool's own description says about a parameter.

A parameter the description explains (an entry, its values in brackets, its shape written out) is not
reported. One the description only names, in any spelling, is reported at low: the model is told what
it is for, if not how to fill it. A name that says nothing of a structured value's shape, a time's unit,
or that sits in a bare list of names, stays at moderate.
"""

from __future__ import annotations

from typing import Any

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.functions.schema.undocumented_parameter import (
    explained_in_description,
    mentioned_in_description,
    shape_shown,
)
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import parse_settings
from mcp_lint.model import ServerSnapshot, Severity
from mcp_lint.reflect.tools import build_tools

STRING = {"type": "string"}


def _severities(description: str, properties: dict[str, Any]) -> dict[str, Severity]:
    tool = {
        "name": "do_thing",
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }
    # At moderate, the severity the rule had and gets back once it shows its precision: what is
    # capped at low stays low.
    settings = parse_settings({"select": ["MCP202"], "rules": {"MCP202": "moderate"}}, None)
    server = ServerSnapshot(name="s", tools=build_tools([tool], "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    return {str(finding.subject): finding.severity for finding in findings}


def test_an_explanation_in_brackets_or_a_written_out_shape_documents_the_parameter() -> None:
    assert explained_in_description("Params: mode (text|image), format (glb|fbx).", "mode")
    assert explained_in_description("Params: mode (text|image), format (glb|fbx).", "format")
    assert explained_in_description("Generate audio. duration (seconds) and a prompt.", "duration")
    assert explained_in_description("TIP: Body: { displayName, color }", "body")
    assert explained_in_description("Body example: { isEnabled: false }", "body")
    # a call's argument list is not an explanation of its argument
    assert not explained_in_description("run_python(code) runs Python.", "code")
    assert not explained_in_description("Place an image at a cell.", "cell")
    # brackets after a word of prose qualify the prose, not the parameter
    assert not explained_in_description("Returns the file content (up to 1 MB).", "content")
    assert mentioned_in_description("Returns the file content (up to 1 MB).", "content")


def test_a_mention_in_any_spelling_is_met() -> None:
    assert mentioned_in_description("Filter by semicolon-delimited tag names.", "tag_names")
    assert mentioned_in_description("Filter by semicolon-delimited tag names.", "tagNames")
    assert mentioned_in_description("Adds multiple emoji reactions.", "emojis")
    assert mentioned_in_description("Overwrite the file with new content.", "content")
    assert mentioned_in_description("Members are node IDs from nodes[].", "nodeIds")
    assert mentioned_in_description("Returns tables containing the substring 'q'.", "q")
    # a word inside another is not a mention, nor a function word, nor an unquoted letter
    assert not mentioned_in_description("Update a transaction.", "date")
    assert not mentioned_in_description("Place an image at a cell.", "at")
    assert not mentioned_in_description("Validate a plan.", "a")


def test_a_name_that_only_sits_in_a_bare_list_of_names_is_not_a_mention() -> None:
    text = "Search models. Params: query, categories, downloadable, count."
    assert not mentioned_in_description(text, "categories")
    assert mentioned_in_description("Update repo branch or tag.", "tag")
    assert mentioned_in_description("Edits a category (name and position).", "position")


def test_a_named_scalar_reports_at_low_and_an_explained_one_not_at_all() -> None:
    found = _severities(
        "Send a message to a channel with an optional topic. Params: mode (fast|slow); and "
        "query, categories, downloadable.",
        {
            "message": STRING,
            "topic": STRING,
            "mode": STRING,
            "categories": STRING,
            "unrelated": STRING,
        },
    )
    assert "mode" not in found
    assert found["message"] is Severity.LOW
    assert found["topic"] is Severity.LOW
    assert found["categories"] is Severity.MODERATE
    assert found["unrelated"] is Severity.MODERATE


def test_a_mention_gives_no_shape_to_a_structured_value_and_no_unit_to_a_time() -> None:
    found = _severities(
        "Apply the options and the settings to the run. Set a timeout. Bind params with {name:Type}.",
        {
            "options": {"type": "object"},
            "settings": {"anyOf": [STRING, {"type": "number"}, {"type": "boolean"}]},
            "timeout": {"type": "number"},
            "params": {"type": "object"},
        },
    )
    assert found["options"] is Severity.MODERATE
    assert found["settings"] is Severity.MODERATE
    assert found["timeout"] is Severity.MODERATE
    assert found["params"] is Severity.LOW  # its shape is shown where it is named
    assert shape_shown("Find runs with specific tags (e.g., {'team': 'nlp'}).", "tags")
    assert not shape_shown("Apply the tags. Then pass {x}.", "tags")


def test_an_entry_headed_by_the_name_with_a_capital_explains_it() -> None:
    assert explained_in_description("Get the revenue report. Period: day, week or quarter.", "period")
    mail = "Send mail.\nAttachments (optional): list of files, each a path."
    assert explained_in_description(mail, "attachments")
    assert explained_in_description("Move files. Target folder: an absolute path.", "target_folder")
    # the capitalised word in running prose is not an entry
    assert not explained_in_description("Period of the report is set by the server.", "period")


def test_a_list_inside_a_sentence_names_its_items_and_a_bare_list_does_not() -> None:
    # the sentence says what the items are (ids to look up first)
    text = "Look up the ID for label, owner, project type or billing account with the lookup tools first."
    assert mentioned_in_description(text, "billing_account")
    assert mentioned_in_description(text, "owner")
    # a header's list of names says nothing of them
    listed = "Filter tickets. Fields: label, owner, billing account."
    assert not mentioned_in_description(listed, "billing_account")


def test_initials_and_spread_words_mention_a_name() -> None:
    assert mentioned_in_description("Check the S/M/L sizes the user chose.", "m")
    assert not mentioned_in_description("Check the sizes the user chose.", "m")
    parent = "Attach it under a parent folder key, or null for the root."
    assert mentioned_in_description(parent, "parent_key")
    assert mentioned_in_description("Open a settings page by path.", "page_path")
    # words of the name far apart, or in another sentence, are not the name
    assert not mentioned_in_description("Open the page. The path of the file is logged.", "page_path")


def test_a_value_the_schema_fixes_needs_no_description() -> None:
    found = _severities(
        "Apply filters.",
        {
            "filters": {
                "type": "array",
                "description": "Filters on custom fields.",
                "items": {
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {
                                "kind": {"type": "string", "const": "text"},
                                "match": {"type": "string", "description": "Text to match."},
                            },
                        },
                        {
                            "type": "object",
                            "properties": {
                                "kind": {"type": "string", "enum": ["range"]},
                                "low": {"type": "number", "description": "Lowest value."},
                            },
                        },
                    ]
                },
            },
            "version": {"anyOf": [{"const": "v2"}, {"type": "null"}]},
            "variant": {"type": "string", "enum": ["a", "b"]},
        },
    )
    assert "filters" not in found
    assert "version" not in found
    assert "variant" in found  # two values to choose between
