import json
from pathlib import Path

import pytest

from mcp_lint.errors import UsageError
from mcp_lint.overrides import (
    Override,
    find_override,
    merge_patch,
    parse_components,
    read_overrides,
    served_description,
    write_overrides,
)

REWRITE = Override(
    "weather",
    "forecast",
    description="Get the forecast for one city. Use it for the next 5 days. Returns at most 5 days.",
    original="Forecast.",
    parts={
        "purpose": "Get the forecast for one city.",
        "guidelines": "Use it for the next 5 days.",
        "limitations": "Returns at most 5 days.",
    },
)


def test_served_description_by_components() -> None:
    assert served_description(REWRITE) == REWRITE.description
    assert served_description(REWRITE, ["guidelines"]) == "Forecast. Use it for the next 5 days."
    assert served_description(REWRITE, ["purpose", "limitations"]) == (
        "Get the forecast for one city. Returns at most 5 days."
    )
    assert served_description(REWRITE, ["examples"]) == "Forecast."


def test_parse_components() -> None:
    assert parse_components("purpose, guidelines,purpose") == ("purpose", "guidelines")
    with pytest.raises(UsageError, match="unknown component 'length'"):
        parse_components("length")
    with pytest.raises(UsageError, match="no component given"):
        parse_components(" , ")


def test_write_merges_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / ".mcp-lint" / "overrides.json"
    write_overrides(path, {("weather", "forecast"): REWRITE})
    other = Override("*", "ping", "Check the server answers.")
    write_overrides(path, {("*", "ping"): other})
    loaded = read_overrides(path)
    assert loaded[("weather", "forecast")] == REWRITE
    assert find_override(loaded, "anything", "ping") == other
    assert find_override(loaded, "weather", "missing") is None
    assert json.loads(path.read_text())["version"] == 1


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "not an overrides file"),
        ({"version": 2, "servers": {}}, "version 2 is not supported"),
        ({"servers": {"s": {"t": {"description": 3}}}}, r"servers\.s\.t\.description: must be a string"),
        (
            {"servers": {"s": {"t": {"description": "d", "parts": {"length": "x"}}}}},
            "unknown component 'length'",
        ),
        ({"servers": {"s": {"t": {"original": "x"}}}}, 'must be an object with a "description" or a "patch"'),
        ({"servers": {"s": {"t": {"patch": []}}}}, r"servers\.s\.t\.patch: must be an object"),
        ({"servers": {"s": {"t": {"patch": {"name": {}}}}}}, "cannot change 'name'; a patch changes only"),
        (
            {"servers": {"s": {"t": {"patch": {"annotations": True}}}}},
            r"patch\.annotations: must be an object \(a JSON merge patch\)",
        ),
    ],
)
def test_bad_files_are_one_line_errors(tmp_path: Path, document: object, message: str) -> None:
    path = tmp_path / "o.json"
    path.write_text(json.dumps(document))
    with pytest.raises(UsageError, match=message) as raised:
        read_overrides(path)
    assert "\n" not in str(raised.value)


def test_a_patch_merges_with_a_rewrite_of_the_same_tool(tmp_path: Path) -> None:
    """A schema/annotation patch written after a description rewrite keeps the rewrite, and the
    reverse; patches of the same tool merge (RFC 7396)."""
    path = tmp_path / "overrides.json"
    write_overrides(path, {("weather", "forecast"): REWRITE})
    limit = {"inputSchema": {"properties": {"days": {"minimum": 1, "maximum": 5}}}}
    write_overrides(path, {("weather", "forecast"): Override("weather", "forecast", None, patch=limit)})
    hints = {"annotations": {"readOnlyHint": True}}
    write_overrides(path, {("weather", "forecast"): Override("weather", "forecast", None, patch=hints)})
    loaded = read_overrides(path)[("weather", "forecast")]
    assert loaded.description == REWRITE.description and loaded.parts == REWRITE.parts
    assert loaded.patch == {**limit, **hints}
    assert served_description(Override("s", "t", None, patch=hints)) is None  # the server's own is served
    assert merge_patch({"a": 1, "b": {"c": 2}}, {"a": None, "b": {"d": 3}}) == {"b": {"c": 2, "d": 3}}
