"""undocumented-parameter (MCP202): parameters explained as a group rather than one by one.

A wildcard (`cache_*`, `*_token`) in the tool's description or an enclosing parameter's names every
parameter it matches; a text about credentials explains the login and password fields; an acronym
in an object's description whose letters are the initials of its fields (`HSV` over hue, saturation,
value) says what each of them is; capitals in the tool's own description do not; an object said to
take the same form as a sibling ("same format as start") has the fields the sibling describes.
Parameters outside the group are still reported.
"""

from __future__ import annotations

from typing import Any

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.functions.schema.undocumented_parameter import named_as_group, spelled_by_acronym
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import parse_settings
from mcp_lint.model import ServerSnapshot
from mcp_lint.reflect.tools import build_tools

STRING = {"type": "string"}
NUMBER = {"type": "number"}


def _reported(description: str, properties: dict[str, Any]) -> set[str]:
    """The subjects (top-level parameters) MCP202 reports on a one-tool server, at any severity."""
    tool = {
        "name": "configure_relay",
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }
    settings = parse_settings({"select": ["MCP202"]}, None)
    server = ServerSnapshot(name="s", tools=build_tools([tool], "2025-11-25", None))
    findings = check_server(server, active_rules(load_catalogue(), settings), settings)
    return {str(finding.subject) for finding in findings}


def test_a_wildcard_in_the_tool_description_documents_what_it_matches() -> None:
    properties = {"cache_limit_mb": NUMBER, "cache_policy": STRING, "queue_policy": STRING}
    text = "Set up the relay. Memory settings live in cache_* (sizes in MB, policy lru or lfu)."
    assert _reported(text, properties) == {"queue_policy"}
    assert _reported("Set up the relay.", properties) == set(properties)


def test_a_suffix_wildcard_and_a_list_of_wildcards() -> None:
    properties = {"smtp_api_token": STRING, "imap_api_token": STRING, "smtp_host_name": STRING}
    text = "Each *_api_token is a bearer token from the provider's console, sent as is."
    assert _reported(text, properties) == {"smtp_host_name"}
    assert named_as_group("Secrets: *_api_token/*_host_name as issued.", "smtp_host_name")
    # a star in prose is not a wildcard, nor does a wildcard match a longer word
    assert not named_as_group("Rated 5 * by users.", "by_users")
    assert not named_as_group("Each *_token is opaque.", "smtp_tokens")


def test_a_text_about_credentials_explains_the_login_and_password_fields() -> None:
    properties = {"broker_username": STRING, "broker_secret": STRING, "broker_vhost": STRING}
    text = "Connect the relay to a broker. The credential fields must be those of a broker account."
    assert _reported(text, properties) == {"broker_vhost"}
    assert _reported("Connect the relay to a broker.", properties) == set(properties)
    # a person is not an account: `owner_user` stays reported beside credentials
    assert _reported(text, {"owner_user": STRING, "broker_password": STRING}) == {"owner_user"}


def test_an_acronym_of_the_fields_initials_explains_each_field() -> None:
    hsv = {"hue": NUMBER, "saturation": NUMBER, "value": NUMBER}
    shade = {"type": "object", "description": "Fill shade as HSV, each 0-1", "properties": hsv}
    assert _reported("Paint the relay icon.", {"shade": shade}) == set()
    # without the acronym, or with one a field has no initial in, the fields are reported
    bare = {"type": "object", "description": "Fill shade", "properties": hsv}
    assert _reported("Paint the relay icon.", {"shade": bare}) == {"shade"}
    partial = {"type": "object", "description": "Fill shade as HSL", "properties": hsv}
    assert _reported("Paint the relay icon.", {"shade": partial}) == {"shade"}
    assert spelled_by_acronym("Offset (XY in pixels)", "x", ("x", "y"))
    assert spelled_by_acronym("Tint, RGB(A) values 0-1", "alpha", ("red", "green", "blue", "alpha"))
    assert not spelled_by_acronym("Tint, RGB values 0-1", "alpha", ("red", "green", "blue", "alpha"))


def test_capitals_in_the_tool_description_do_not_spell_its_parameters() -> None:
    # "TO" over `target` and `origin`, "PICO" over p_query...: emphasis or a term, not the fields
    properties = {"target": STRING, "origin": STRING}
    assert _reported("Copy FROM one place TO another.", properties) == set(properties)


def test_an_object_said_to_take_a_siblings_form_borrows_its_field_descriptions() -> None:
    opened = {
        "type": "object",
        "description": "When the window opens",
        "properties": {"at": {"type": "string", "description": "ISO 8601 instant"}, "zone": STRING},
    }
    closed = {
        "type": "object",
        "description": "When it closes, same shape as opened",
        "properties": {"at": STRING},
    }
    assert _reported("Book a relay window.", {"opened": opened, "closed": closed}) == {"opened"}
    # a sibling that does not describe the field lends nothing
    closed["properties"] = {"zone": STRING}
    assert _reported("Book a relay window.", {"opened": opened, "closed": closed}) == {"opened", "closed"}
