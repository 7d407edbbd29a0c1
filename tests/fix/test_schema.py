"""Unsafe schema and annotation fixes (mcp_lint.fix.schema): a stated range becomes minimum/maximum,
a closed value list an enum, an unambiguous verb its hints; only `--fix --unsafe-fixes` writes them,
into a saved snapshot's JSON or, for a live server, as a patch the proxy serves."""

from __future__ import annotations

import difflib
import json
import shutil
import sys
from pathlib import Path

import anyio
import pytest

from mcp_lint.cli import main
from mcp_lint.fix.schema import edit_snapshot
from mcp_lint.model import SchemaFix

FIXTURE = Path(__file__).parents[1] / "fixtures" / "unsafe-fixes.json"
SERVERS = Path(__file__).parents[1] / "servers"
FIXED = {"MCP207", "MCP210", "MCP501"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", "--isolated", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def findings(capsys: pytest.CaptureFixture[str], path: str) -> set[tuple[str, str, str | None]]:
    _, out, _ = run(capsys, path, "--format", "json")
    return {
        (tool["name"], finding["code"], finding.get("subject"))
        for server in json.loads(out)["servers"]
        for tool in server["tools"]
        for finding in tool["findings"]
        if finding["code"] in FIXED | {"MCP502"}
    }


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(FIXTURE, tmp_path / "tools.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tools(path: Path) -> dict[str, dict[str, object]]:
    return {tool["name"]: tool for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]}


def test_unsafe_fixes_move_the_range_the_values_and_the_hints_into_the_snapshot(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = findings(capsys, "tools.json")
    assert {code for _, code, _ in before} == FIXED
    code, _, err = run(capsys, "tools.json", "--fix", "--unsafe-fixes")
    assert "5 schema/annotation fixes (unsafe)" in err, err
    fixed = tools(project / "tools.json")
    search, delete = fixed["search_notes"], fixed["delete_note"]
    properties = search["inputSchema"]["properties"]  # type: ignore[index]
    assert properties["limit"] == {
        "type": "integer",
        "description": "How many notes to return, 1-100.",
        "minimum": 1,
        "maximum": 100,
    }
    assert properties["sort"]["enum"] == ["newest", "oldest", "title"]
    assert search["annotations"] == {"readOnlyHint": True}
    assert delete["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
    # MCP210: the enum grows by the value the prose lists and it lacks.
    assert fixed["export_note"]["inputSchema"]["properties"]["format"]["enum"] == [  # type: ignore[index]
        "markdown",
        "html",
        "text",
    ]
    # The rest of the file is as it was: lines are only added, a comma after the line before them, and
    # the grown enum replaced in place (the inline "required" arrays stay inline).
    old = FIXTURE.read_text(encoding="utf-8").splitlines()
    new = (project / "tools.json").read_text(encoding="utf-8").splitlines()
    changed = [line for line in difflib.ndiff(old, new) if line[:1] in "+-"]
    assert [line[2:] for line in changed if line.startswith("-")] == [
        '            "description": "How many notes to return, 1-100."',
        "            \"description\": \"Order of the results: one of 'newest', 'oldest' or 'title'.\"",
        "      }",
        "      }",
        '            "enum": ["markdown", "html"],',
    ]
    assert [line[2:] for line in changed if line.startswith("+")] == [
        '            "description": "How many notes to return, 1-100.",',
        '            "minimum": 1,',
        '            "maximum": 100',
        "            \"description\": \"Order of the results: one of 'newest', 'oldest' or 'title'.\",",
        '            "enum": ["newest", "oldest", "title"]',
        "      },",
        '      "annotations": {"readOnlyHint": true}',
        "      },",
        '      "annotations": {"readOnlyHint": false, "destructiveHint": true}',
        '            "enum": ["markdown", "html", "text"],',
    ]
    # It re-lints without those findings (and with no contradiction or mismatch in their place).
    assert findings(capsys, "tools.json") == set()
    # A second run changes nothing.
    text = (project / "tools.json").read_text(encoding="utf-8")
    run(capsys, "tools.json", "--fix", "--unsafe-fixes")
    assert (project / "tools.json").read_text(encoding="utf-8") == text
    assert code == 0


def test_fix_without_unsafe_fixes_leaves_the_schema_and_says_what_it_would_do(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, err = run(capsys, "tools.json", "--fix")
    assert (project / "tools.json").read_text(encoding="utf-8") == FIXTURE.read_text(encoding="utf-8")
    assert "5 unsafe schema/annotation fixes left (--unsafe-fixes)" in err
    assert not (project / ".mcp-lint").exists()


def test_diff_with_unsafe_fixes_shows_them_and_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "tools.json", "--diff", "--unsafe-fixes")
    assert code == 1
    assert '+            "minimum": 1,' in out and '+      "annotations": {"readOnlyHint": true}' in out
    assert "would fix tools/search_notes in tools.json (MCP207 `limit`: " in err
    assert (project / "tools.json").read_text(encoding="utf-8") == FIXTURE.read_text(encoding="utf-8")


def test_enum_on_the_items_of_a_list_of_strings_and_one_line_files() -> None:
    text = json.dumps(
        {
            "tools": [
                {
                    "name": "tag",
                    "inputSchema": {
                        "type": "object",
                        "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
                    },
                }
            ]
        }
    )
    fix = SchemaFix(("inputSchema", "properties", "tags", "items"), {"enum": ["red", "blue"]})
    edited, problem = edit_snapshot(text, {"tag": [fix]})
    assert problem is None
    assert "\n" not in edited  # a one-line file stays one line
    assert json.loads(edited)["tools"][0]["inputSchema"]["properties"]["tags"]["items"] == {
        "type": "string",
        "enum": ["red", "blue"],
    }
    assert edit_snapshot(edited, {"tag": [fix]}) == (edited, None)  # already there: unchanged


def test_the_proxy_serves_the_patch_written_for_a_live_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A live server's schema is in its source, so the fix goes to the overrides file (with the line to
    write by hand), and a real `mcp-lint proxy` run serves the tool with the patched annotations."""
    monkeypatch.chdir(tmp_path)
    server = [sys.executable, str(SERVERS / "trace_server.py")]
    _, _, err = run(capsys, "--fix", "--unsafe-fixes", "--", *server)
    by_hand = "write it there by hand: read_config: in Python `@mcp.tool(annotations=ToolAnnotations("
    assert by_hand + "readOnlyHint=True))`" in err
    overrides = json.loads((tmp_path / ".mcp-lint" / "overrides.json").read_text(encoding="utf-8"))
    entry = overrides["servers"]["trace_server"]["read_config"]
    assert entry == {"patch": {"annotations": {"readOnlyHint": True}}}

    sys.path.insert(0, str(Path(__file__).parents[1] / "proxy"))
    from proxy_support import proxied

    async def listed() -> dict[str, object]:
        async with proxied(
            ["proxy", "--overrides", str(tmp_path / ".mcp-lint" / "overrides.json"), "--", *server]
        ) as client:
            return {tool.name: tool for tool in (await client.list_tools()).tools}

    served = anyio.run(listed)

    def hints(name: str) -> dict[str, object]:
        annotations = getattr(served[name], "annotations", None)
        return {} if annotations is None else dict(annotations.model_dump(by_alias=True, exclude_none=True))

    assert hints("read_config") == {"readOnlyHint": True}
    assert "readOnlyHint" not in hints("echo")  # tools without a patch are served as the server sent them


def test_no_fix_where_the_text_is_not_the_whole_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The finding stays, but no fix is offered when applying it would be a guess: a default the
    stated list or range leaves out, a list that ends in "etc", a "remove ... from ..." that takes
    one thing off another, a read whose description says it also writes."""

    def tool(name: str, description: str, **properties: object) -> dict[str, object]:
        return {
            "name": name,
            "description": description,
            "inputSchema": {"type": "object", "properties": properties},
        }

    tools = [
        tool(
            "write_file",
            "Write text to a file in the workspace.",
            mode={"type": "string", "default": "replace", "description": "One of 'append' or 'prepend'."},
            size={"type": "integer", "default": 500, "description": "Chunk size, max 100."},
            kind={"type": "string", "description": "File type: one of csv, json, sqlite, etc."},
        ),
        tool("remove_label", "Remove a label from an email message."),
        tool("get_or_create_folder", "Get a folder, and creates it when it does not exist yet."),
    ]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = findings(capsys, "tools.json")
    assert {(name, code) for name, code, _ in before} >= {
        ("write_file", "MCP207"),
        ("remove_label", "MCP501"),
    }
    text = (tmp_path / "tools.json").read_text(encoding="utf-8")
    _, _, err = run(capsys, "tools.json", "--fix", "--unsafe-fixes")
    assert (tmp_path / "tools.json").read_text(encoding="utf-8") == text
    assert "schema/annotation fix" not in err


def test_a_crlf_snapshot_keeps_its_line_endings_and_tab_indentation() -> None:
    text = (
        '{\r\n\t"tools": [\r\n\t\t{\r\n\t\t\t"name": "get_item",\r\n\t\t\t"inputSchema": {\r\n'
        '\t\t\t\t"type": "object",\r\n\t\t\t\t"properties": {\r\n\t\t\t\t\t"limit": {\r\n'
        '\t\t\t\t\t\t"type": "integer"\r\n\t\t\t\t\t}\r\n\t\t\t\t}\r\n\t\t\t}\r\n\t\t}\r\n\t]\r\n}\r\n'
    )
    fixes = [
        SchemaFix(("inputSchema", "properties", "limit"), {"minimum": 1, "maximum": 10}),
        SchemaFix(("annotations",), {"readOnlyHint": True}),
    ]
    edited, problem = edit_snapshot(text, {"get_item": fixes})
    assert problem is None
    assert (
        '\t\t\t\t\t\t"type": "integer",\r\n\t\t\t\t\t\t"minimum": 1,\r\n\t\t\t\t\t\t"maximum": 10\r\n'
        in edited
    )
    assert '\t\t\t},\r\n\t\t\t"annotations": {"readOnlyHint": true}\r\n\t\t}' in edited
    assert "\n" not in edited.replace("\r\n", "")  # no bare line feed
