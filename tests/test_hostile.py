"""Hostile input gets a specific answer: a finding, or one line with exit 2 or 3, never a crash,
never a report that is not UTF-8 or strict JSON, never a control character a server chose."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main

REPORTS = ("text", "json", "sarif", "github", "markdown")


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _tool(name: str = "fetch_page", schema: Any = None) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Fetches one web page and returns its text.",
        "inputSchema": schema if schema is not None else {"type": "object"},
    }


def _lint(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *extra: str) -> tuple[int, str, str]:
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text(text, encoding="utf-8", errors="surrogatepass")
    code = main(["check", "--isolated", str(snapshot), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line_error(err: str, *needles: str) -> None:
    assert "internal error" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcp-lint: error: "), err[:500]
    for needle in needles:
        assert needle in lines[0], lines[0][:500]


# 1. Lone surrogates ---------------------------------------------------------------------------

SURROGATE_SNAPSHOTS = {
    "tool name": '{"tools": [{"name": "fetch\\ud800", "description": "Fetches one page.", '
    '"inputSchema": {"type": "object"}}]}',
    "tool name dcff": '{"tools": [{"name": "fetch\\udcff", "description": "Fetches one page.", '
    '"inputSchema": {"type": "object"}}]}',
    # an empty description: the server scores under the default floor, so the run fails (exit 1) as
    # the others do on their breaking findings
    "server name": '{"serverInfo": {"name": "srv\\ud800", "version": "1"}, "tools": [{"name": "fetch", '
    '"description": "", "inputSchema": {"type": "object"}}]}',
    "parameter name": '{"tools": [{"name": "fetch", "description": "Fetches one page.", "inputSchema": '
    '{"type": "object", "properties": {"u\\udcffrl": {"type": "string"}}}}]}',
}


@pytest.mark.parametrize("where", list(SURROGATE_SNAPSHOTS))
@pytest.mark.parametrize("report", REPORTS)
def test_a_lone_surrogate_is_linted_and_every_report_stays_utf8(
    where: str, report: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _lint(tmp_path, capsys, SURROGATE_SNAPSHOTS[where], "--format", report)
    assert code == 1, err
    assert "internal error" not in err
    out.encode("utf-8")  # raises on a lone surrogate
    if report in ("json", "sarif"):
        _strict_json(out)


@pytest.mark.parametrize(
    ("where", "rule"), [("tool name", "MCP401"), ("parameter name", "MCP302"), ("tool name", "MCP302")]
)
def test_a_lone_surrogate_in_a_name_is_a_finding(
    where: str, rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _lint(tmp_path, capsys, SURROGATE_SNAPSHOTS[where], "--format", "json")
    servers = _strict_json(out)["servers"]
    codes = {
        finding["code"]
        for server in servers
        for entry in (server, *server["tools"])
        for finding in entry["findings"]
    }
    assert code == 1 and rule in codes, codes


# 2. Numbers, depth, odd types --------------------------------------------------------------------


def test_nan_and_infinity_in_server_info_become_strings_in_strict_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '{"serverInfo": {"name": "srv", "load": NaN, "max": Infinity, "min": -Infinity}, "tools": []}'
    for report in ("json", "sarif"):
        code, out, err = _lint(tmp_path, capsys, text, "--format", report)
        assert code == 0, err
        document = _strict_json(out)
    code, out, _ = _lint(tmp_path, capsys, text, "--format", "json")
    info = _strict_json(out)["servers"][0]["serverInfo"]
    assert info == {"name": "srv", "load": "NaN", "max": "Infinity", "min": "-Infinity"}
    assert document


def test_an_integer_of_5000_digits_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _lint(tmp_path, capsys, '{"tools": [], "serverInfo": {"n": ' + "9" * 5000 + "}}")
    assert code == 2
    _one_line_error(err, "snapshot.json", "4,300 digits")


def test_json_nested_10000_deep_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _lint(tmp_path, capsys, '{"tools": [], "x": ' + "[" * 10_000 + "]" * 10_000 + "}")
    assert code == 2
    _one_line_error(err, "snapshot.json", "nested more than 200")


def test_json_nested_just_over_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _lint(tmp_path, capsys, '{"tools": [], "x": ' + "[" * 200 + "]" * 200 + "}")
    assert code == 2
    _one_line_error(err, "nested more than 200")


def _nested_schema(levels: int, keyword: str) -> str:
    if keyword == "properties":
        return '{"type": "object", "properties": {"p": ' * levels + "{}" + "}}" * levels
    if keyword == "items":
        return '{"type": "array", "items": ' * levels + "{}" + "}" * levels
    return '{"allOf": [' * levels + "{}" + "]}" * levels


@pytest.mark.parametrize("keyword", ["properties", "items", "allOf"])
def test_a_schema_as_deep_as_the_limit_allows_is_linted(
    keyword: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Four levels go to the snapshot, the tools array and the tool: the rest is the schema's.
    per_level = 1 if keyword == "items" else 2
    levels = (200 - 4) // per_level
    schema = _nested_schema(levels, keyword)
    text = (
        '{"tools": [{"name": "deep", "description": "Takes a deep value.", "inputSchema": ' + schema + "}]}"
    )
    code, out, err = _lint(tmp_path, capsys, text, "--format", "json")
    assert code in (0, 1), err
    _strict_json(out)


def test_a_schema_350_properties_deep_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = _nested_schema(350, "properties")
    text = (
        '{"tools": [{"name": "deep", "description": "Takes a deep value.", "inputSchema": ' + schema + "}]}"
    )
    code, _, err = _lint(tmp_path, capsys, text)
    assert code == 2
    _one_line_error(err, "nested more than 200")


def test_toml_nested_5000_deep_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "mcp-lint.toml"
    config.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text('{"tools": []}', encoding="utf-8")
    code = main(["check", "--config", str(config), str(snapshot)])
    err = capsys.readouterr().err
    assert code == 2
    _one_line_error(err, "mcp-lint.toml")


@pytest.mark.parametrize(
    "schema",
    [
        {"type": [5]},
        {"extends": 5},
        {"items": 5},
        {"additionalProperties": 5},
        {"dependencies": {"a": 5}},
    ],
    ids=["type", "extends", "items", "additionalProperties", "dependencies"],
)
def test_a_draft03_schema_with_a_wrong_keyword_type_is_invalid_input_schema(
    schema: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = {"$schema": "http://json-schema.org/draft-03/schema#", "type": "object", **schema}
    code, out, err = _lint(tmp_path, capsys, json.dumps({"tools": [_tool(schema=full)]}), "--format", "json")
    assert code == 1 and "internal error" not in err, err
    codes = {
        finding["code"] for tool in _strict_json(out)["servers"][0]["tools"] for finding in tool["findings"]
    }
    assert "MCP201" in codes


def test_observations_that_are_not_a_list_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _lint(tmp_path, capsys, '{"tools": [], "observations": true}')
    assert code == 2
    _one_line_error(err, "snapshot.json", "observations")


def test_a_server_type_that_is_a_list_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text('{"mcpServers": {"web": {"type": ["stdio"], "command": "true"}}}', encoding="utf-8")
    code = main(["check", "--isolated", str(config)])
    err = capsys.readouterr().err
    assert code == 2
    _one_line_error(err, "'web'", "type")


def test_an_env_file_that_is_not_utf8_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env_file = tmp_path / "server.env"
    env_file.write_bytes(b"TOKEN=\xff\xfe\n")
    code = main(["check", "--isolated", "--env-file", str(env_file), "--", "true"])
    err = capsys.readouterr().err
    assert code == 2
    _one_line_error(err, "server.env", "UTF-8")


# 3. Wrong answers -----------------------------------------------------------------------------


@pytest.mark.parametrize("content", ["[]", '{"tools": []}', '{"name": "x"}'])
def test_an_auto_discovered_mcp_json_must_be_a_client_config(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".mcp.json").write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--isolated"])
    err = capsys.readouterr().err
    assert code == 2
    _one_line_error(err, ".mcp.json", "client config")


def test_the_same_file_given_as_a_target_is_still_a_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".mcp.json").write_text("[]", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--isolated", ".mcp.json"]) == 0


def test_a_tool_mcp_lint_that_is_not_a_table_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool]\nmcp-lint = 5\n", encoding="utf-8")
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text('{"tools": []}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["check", str(snapshot)])
    err = capsys.readouterr().err
    assert code == 2
    _one_line_error(err, "pyproject.toml", "[tool.mcp-lint] must be a table")


def test_a_ten_megabyte_selector_is_not_echoed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _lint(tmp_path, capsys, '{"tools": []}', "--select", "X" * 10_000_000)
    assert code == 2
    _one_line_error(err, "(10,000,000 characters)")
    assert len(err) < 1000 and not out


# 4. Terminal injection ------------------------------------------------------------------------

FORGED = "\nfound 0 findings (1 server, 1 tool)"
HOSTILE_TEXT = "\x1b]0;owned\x07\x1b]52;c;aGVsbG8=\x07\x1b[2J\r\x9b31m\u202e"


def _assert_no_control(text: str) -> None:
    for char in text:
        code = ord(char)
        assert char == "\n" or not (code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF), (
            repr(char),
            text[:300],
        )
    assert "\u202e" not in text


@pytest.mark.parametrize("report", ["text", "github"])
def test_what_a_server_chose_cannot_drive_the_terminal(
    report: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = {
        "serverInfo": {"name": "srv" + HOSTILE_TEXT, "version": "1"},
        "name": "srv" + HOSTILE_TEXT,
        "tools": [
            _tool("fetch" + HOSTILE_TEXT + FORGED),
            {"name": "x", "description": "Fetches a page." + HOSTILE_TEXT + FORGED, "inputSchema": {}},
        ],
    }
    code, out, err = _lint(tmp_path, capsys, json.dumps(document), "--format", report, "--no-color")
    assert code == 1, err
    _assert_no_control(out)
    if report == "text":
        # The real summary is the only line that says how many findings there were.
        assert not any(line.startswith("found 0 findings") for line in out.splitlines())


def test_an_error_line_shows_control_characters_as_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _lint(tmp_path, capsys, json.dumps({"tools": "\x1b]0;owned\x07" + FORGED}))
    assert code == 2
    _assert_no_control(err.rstrip("\n"))
    assert err.count("\n") == 1


def test_a_server_stderr_tail_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "noisy.py"
    script.write_text(
        "import sys\nsys.stderr.write('boom \\x1b]0;owned\\x07\\x1b[2J\\r\\x9b done\\n')\nsys.exit(1)\n",
        encoding="utf-8",
    )
    import sys

    code = main(["check", "--isolated", "--timeout", "20", "--", sys.executable, str(script)])
    captured = capsys.readouterr()
    assert code == 3
    _assert_no_control(captured.out)
    _assert_no_control(captured.err)


def test_the_limits_are_documented_with_their_values() -> None:
    from mcp_lint.errors import QUOTE_LIMIT
    from mcp_lint.files import MAX_INPUT_BYTES
    from mcp_lint.limits import MAX_INT_DIGITS, MAX_JSON_DEPTH, too_deep_message, too_long_number_message

    limits = (Path(__file__).parent.parent / "docs" / "targets.md").read_text("utf-8").split("## Limits")[1]
    text = " ".join(limits.split())
    assert f"{MAX_INPUT_BYTES // (1024 * 1024)} MiB" in text
    assert f"{MAX_JSON_DEPTH} levels" in text and too_deep_message() in text
    assert f"{MAX_INT_DIGITS:,} digits" in text and too_long_number_message() in text
    assert f"at most {QUOTE_LIMIT} characters" in text


@pytest.mark.parametrize("to_file", [False, True])
def test_a_snapshot_of_hostile_names_is_utf8_strict_json_that_reads_back_the_same(
    to_file: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "source.json"
    source.write_text(
        '{"serverInfo": {"name": "srv", "load": NaN}, "tools": [{"name": "fetch\\ud800", '
        '"description": "Fetches one page.", "inputSchema": {"type": "object"}}]}',
        encoding="utf-8",
    )
    saved = tmp_path / "saved.json"
    code = main(["snapshot", "--isolated", str(source), *(["-o", str(saved)] if to_file else [])])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    text = saved.read_text("utf-8") if to_file else captured.out
    document = _strict_json(text)
    assert document["tools"][0]["name"] == "fetch\ud800"
    assert document["serverInfo"]["load"] == "NaN"
