"""The source locator on real files: the SDK test servers, a TypeScript server and a JSON tool list."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mcp_lint.locate import Region, SourceIndex

ROOT = Path(__file__).resolve().parent.parent
LOCATE = ROOT / "tests" / "fixtures" / "locate"


def index_of(root: Path, *files: str) -> SourceIndex:
    return SourceIndex(root, files)


def region_text(path: Path, region: Region) -> str:
    """The text a region covers, counting columns as UTF-16 units like SARIF does."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    chunk = "".join(lines[region.start_line - 1 : region.end_line])
    first = lines[region.start_line - 1]
    last_start = len(chunk) - len(lines[region.end_line - 1])

    def offset(line: str, column: int) -> int:
        units = 0
        for index, char in enumerate(line):
            if units >= column - 1:
                return index
            units += len(char.encode("utf-16-le")) // 2
        return len(line)

    return chunk[
        offset(first, region.start_column) : last_start
        + offset(lines[region.end_line - 1], region.end_column)
    ]


def test_python_docstring_is_found_and_its_region_is_the_literal() -> None:
    index = index_of(ROOT, "tests/servers/smelly_server.py")
    served = "Get the sales report for a region. Use period or use start and end."
    location = index.find("get_report", served)
    assert location is not None and location.path == "tests/servers/smelly_server.py"
    assert location.exact and location.verified and location.language == "python"
    text = region_text(ROOT / location.path, location.region)
    assert text == f'"""{served}"""'


def test_python_multiline_docstring_spans_its_lines() -> None:
    index = index_of(ROOT, "tests/servers/smelly_server.py")
    location = index.find("add_numbers", "Adds two numbers.")
    assert location is not None and location.exact and not location.verified
    text = region_text(ROOT / location.path, location.region)
    assert text.startswith('"""Adds two numbers.') and text.endswith('"""')
    assert location.region.end_line - location.region.start_line == 6


def test_python_description_keyword_beats_the_docstring() -> None:
    index = index_of(ROOT, "tests/servers/smelly_server.py")
    location = index.find("search_orders", "Searches orders.")
    assert location is not None and location.verified
    assert region_text(ROOT / location.path, location.region) == '"Searches orders."'


def test_parenthesized_concatenation_is_one_exact_literal() -> None:
    index = index_of(ROOT, "examples/weather_server.py")
    location = index.find("current_conditions")
    assert location is not None and location.exact
    text = region_text(ROOT / location.path, location.region)
    assert text.startswith('"Returns the current temperature') and text.endswith(
        "'18C, 72% humidity, wind 12 km/h NW'.\""
    )


def test_python_tool_constructor_and_a_tool_without_description(tmp_path: Path) -> None:
    (tmp_path / "low.py").write_text(
        "import mcp.types as types\n"
        "TOOLS = [types.Tool(name='echo', description='Echoes the text back.', input_schema={})]\n"
        "@mcp.tool\n"
        "def bare(x: int) -> int:\n"
        "    return x\n",
        encoding="utf-8",
    )
    index = index_of(tmp_path, "low.py")
    echo = index.find("echo", "Echoes the text back.")
    assert echo is not None and echo.verified and echo.region.start_line == 2
    assert region_text(tmp_path / "low.py", echo.region) == "'Echoes the text back.'"
    bare = index.find("bare")
    assert bare is not None and not bare.exact and bare.region.start_line == 3


def test_typescript_register_tool_and_server_tool() -> None:
    index = index_of(LOCATE, "server.ts")
    search = index.find(
        "search_notes", "Finds notes whose title or body contains the query; returns at most 20."
    )
    assert search is not None and search.verified and search.exact and search.region.start_line == 11
    delete = index.find(
        "delete_note", 'Deletes one note by its id. Cannot be undone — "id" is the note\'s id.'
    )
    assert delete is not None and delete.verified
    assert region_text(LOCATE / "server.ts", delete.region).startswith("'Deletes one note")
    archive = index.find("archive_note", "Moves a note to the archive.")
    assert archive is not None and archive.verified
    assert region_text(LOCATE / "server.ts", archive.region) == "`Moves a note to the archive.`"


def test_json_tool_list_skips_parameter_descriptions() -> None:
    index = index_of(LOCATE, "tools.json")
    listing = index.find("list_files", "Lists the files in a folder, names only.")
    assert listing is not None and listing.verified and listing.region.start_line == 6
    read = index.find("read_file", "Reads one file and returns its text (UTF-8).")
    assert read is not None and read.verified and read.region.start_line == 10


def test_a_verified_match_wins_over_an_earlier_file(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("@app.tool()\ndef ping():\n    'Something else.'\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("@app.tool()\ndef ping():\n    'Replies pong.'\n", encoding="utf-8")
    index = index_of(tmp_path, "a.py", "b.py")
    assert index.find("ping", "Replies pong.").path == "b.py"  # type: ignore[union-attr]
    assert index.find("ping", "Unknown.").path == "a.py"  # type: ignore[union-attr]
    assert index.find("pong") is None


def test_git_repository_lists_only_tracked_files(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "tracked.py").write_text("@s.tool()\ndef one():\n    'One.'\n", encoding="utf-8")
    (tmp_path / "untracked.py").write_text("@s.tool()\ndef two():\n    'Two.'\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "sub/tracked.py"], check=True)
    index = SourceIndex.for_directory(tmp_path / "sub")
    assert index.root == tmp_path.resolve()
    assert index.find("one", "One.").path == "sub/tracked.py"  # type: ignore[union-attr]
    assert index.find("two") is None


def test_outside_git_the_directory_is_walked_without_dependency_folders(tmp_path: Path) -> None:
    (tmp_path / "node_modules" / "dep").mkdir(parents=True)
    (tmp_path / "node_modules" / "dep" / "index.js").write_text(
        'server.tool("one", "Dep.")\n', encoding="utf-8"
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.mjs").write_text('server.tool("one", "Mine.")\n', encoding="utf-8")
    index = SourceIndex.for_directory(tmp_path)
    assert index.files == ["src/main.mjs"]
    assert index.find("one").path == "src/main.mjs"  # type: ignore[union-attr]


def test_choose_prefers_the_file_the_command_runs_and_refuses_an_ambiguous_pick(tmp_path: Path) -> None:
    source = '@mcp.tool()\ndef read_note(note_id: str) -> str:\n    """Reads a note."""\n'
    for name in ("server.py", "docs/server.py", "tools.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    (tmp_path / "docs" / "server.py").write_text(source, encoding="utf-8")
    (tmp_path / "tools.json").write_text('{"tools": [{"name": "read_note", "description": "Reads a note."}]}')
    index = index_of(tmp_path, "docs/server.py", "server.py", "tools.json")
    location, why = index.choose("read_note", "Reads a note.", {"server.py"})
    assert why is None and location is not None and location.path == "server.py"
    location, why = index.choose("read_note", "Reads a note.", {"tools.json"})  # code before a snapshot
    assert location is None and why is not None and "2 literals hold its text" in why
    assert index.choose("read_note", "Something else.") == (None, None)  # no literal: the overrides file
    # The old ranking, for reports, is unchanged: the first verified literal by path.
    found = index.find("read_note", "Reads a note.")
    assert found is not None and found.path == "docs/server.py"


def test_javascript_registrations_in_comments_and_strings_are_not_registrations(tmp_path: Path) -> None:
    source = (
        "// server.tool('read_note', 'Reads a note.', {}, h)\n"
        "/* server.registerTool('read_note', {\n  description: 'Reads a note.' }) */\n"
        "const doc = \"server.tool('read_note', 'Reads a note.')\";\n"
        "server.registerTool('read_note', {\n"
        "  // description: 'Reads a note.',\n"
        "  description: 'Reads a note.',\n});\n"
    )
    (tmp_path / "server.ts").write_text(source, encoding="utf-8")
    index = index_of(tmp_path, "server.ts")
    [location] = index.locations("read_note", "Reads a note.")
    assert location.exact and location.verified and location.region.start_line == 7


def test_a_parameter_is_found_where_the_registration_declares_it(tmp_path: Path) -> None:
    # Issue 22: a finding about one parameter points at it, not at the tool's description.
    index = index_of(LOCATE, "server.ts", "tools.json")
    search = index.find(
        "search_notes", "Finds notes whose title or body contains the query; returns at most 20."
    )
    assert search is not None
    query = index.parameter(search, "query")
    assert query is not None and region_text(LOCATE / "server.ts", query) == "query"
    delete = index.find(
        "delete_note", 'Deletes one note by its id. Cannot be undone — "id" is the note\'s id.'
    )
    assert delete is not None
    found = index.parameter(delete, "id")
    assert found is not None and found.start_line == delete.region.start_line
    assert region_text(LOCATE / "server.ts", found) == "id"
    assert index.parameter(search, "id") is None, "never another tool's parameter"
    # A JSON schema written before the description is not searched: the tool's anchor stands.
    listing = index.find("list_files", "Lists the files in a folder, names only.")
    assert listing is not None and index.parameter(listing, "dir") is None
    (tmp_path / "server.py").write_text(
        "@mcp.tool()\ndef get(city: str,\n        day: str) -> dict:\n"
        '    """Weather."""\n    return {"day": day}\n\n'
        'Tool(name="other", description="D.", inputSchema={"properties": {"day": {}}})\n',
        encoding="utf-8",
    )
    python = index_of(tmp_path, "server.py")
    get = python.find("get", "Weather.")
    assert get is not None
    day = python.parameter(get, "day")
    assert day is not None and region_text(tmp_path / "server.py", day) == "day: str"
    assert python.parameter(get, "missing") is None
    other = python.find("other", "D.")
    assert other is not None
    key = python.parameter(other, "day")
    assert key is not None and key.start_line == 7 and region_text(tmp_path / "server.py", key) == '"day"'
