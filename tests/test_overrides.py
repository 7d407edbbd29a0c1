import json
from pathlib import Path

import pytest

from mcp_lint.errors import UsageError
from mcp_lint.overrides import (
    Override,
    find_override,
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
    ],
)
def test_bad_files_are_one_line_errors(tmp_path: Path, document: object, message: str) -> None:
    path = tmp_path / "o.json"
    path.write_text(json.dumps(document))
    with pytest.raises(UsageError, match=message):
        read_overrides(path)
