"""Source edits: the new description replaces the located literal, escaped so the file still parses and
defines exactly the new text (Python run through ast, TypeScript/JavaScript through node, JSON loaded)."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mcp_lint.fix.edit import apply_replacements, edit_file, literal_problem, replacement, unified_diff
from mcp_lint.locate import SourceIndex

# Quotes of every kind, a backslash, a newline, non-ASCII and a line separator: what escaping must survive.
TEXT = (
    'Reads a "note" (it\'s `read_only`); C:\\notes\\ \u00e9t\u00e9 \U0001f600\nSecond line\u2028end. '
    'Example: f("x").'
)


def fixed(tmp_path: Path, name: str, source: str, tool: str) -> str:
    (tmp_path / name).write_text(source, encoding="utf-8")
    index = SourceIndex(tmp_path, [name])
    location = index.find(tool, None)
    assert location is not None and location.exact
    change = replacement(location, source, TEXT)
    return apply_replacements(source, [change])


def python_description(source: str, tool: str) -> str:
    namespace: dict[str, object] = {}
    prelude = (
        "class _M:\n"
        "    def tool(self, description=None, **kw):\n"
        "        def wrap(fn):\n"
        "            fn.description = description if description is not None else fn.__doc__\n"
        "            return fn\n"
        "        return wrap\n"
        "mcp = _M()\n"
    )
    exec(compile(prelude + source, "<fixed>", "exec"), namespace)
    value = namespace[tool].description
    assert isinstance(value, str)
    return value


def test_python_docstring(tmp_path: Path) -> None:
    source = '@mcp.tool()\ndef read_note(note_id: str) -> str:\n    """Reads a note."""\n    return note_id\n'
    new = fixed(tmp_path, "server.py", source, "read_note")
    ast.parse(new)
    assert python_description(new, "read_note") == TEXT
    assert '    """Reads a \\"note\\"' not in new and new.count('"""') == 2  # still one docstring


def test_python_description_keyword_split_over_lines(tmp_path: Path) -> None:
    source = (
        "@mcp.tool(\n"
        "    description=(\n"
        '        "Reads "\n'
        '        "a note."\n'
        "    ),\n"
        ")\n"
        "def read_note(note_id: str) -> str:\n"
        "    return note_id\n"
    )
    new = fixed(tmp_path, "server.py", source, "read_note")
    assert python_description(new, "read_note") == TEXT
    assert all(len(line) < 110 for line in new.splitlines())


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize(
    ("name", "source"),
    [
        (
            "server.ts",
            'server.registerTool("read_note", {\n  description: "Reads a note.",\n'
            "  inputSchema: {},\n}, async () => ({ content: [] }));\n",
        ),
        (
            "server.mjs",
            "server.tool('read_note', `Reads a note.`, {}, async () => ({ content: [] }));\n",
        ),
    ],
)
def test_typescript_and_javascript_still_parse(tmp_path: Path, name: str, source: str) -> None:
    new = fixed(tmp_path, name, source, "read_note")
    # Run as plain JavaScript: the object literal and the call are the same in TS; node checks syntax
    # and, with a stub `server`, evaluates the literal to the very text.
    script = tmp_path / "check.mjs"
    body = new.replace("async () => ({ content: [] })", "null")
    script.write_text(
        "const seen = [];\nconst server = { registerTool: (n, o) => seen.push(o.description), "
        "tool: (n, d) => seen.push(d) };\n" + body + "\nprocess.stdout.write(JSON.stringify(seen[0]));\n",
        encoding="utf-8",
    )
    subprocess.run(["node", "--check", str(script)], check=True, capture_output=True)
    done = subprocess.run(["node", str(script)], check=True, capture_output=True, text=True)
    assert json.loads(done.stdout) == TEXT


def test_json_tool_list_stays_json(tmp_path: Path) -> None:
    source = json.dumps(
        {"tools": [{"name": "read_note", "description": "Reads a note.", "inputSchema": {"type": "object"}}]},
        indent=2,
    )
    new = fixed(tmp_path, "tools.json", source, "read_note")
    assert json.loads(new)["tools"][0]["description"] == TEXT


def test_unified_diff_names_each_file() -> None:
    text = unified_diff({"server.py": ("a\nb\n", "a\nc\n")})
    assert text.startswith("--- a/server.py\n+++ b/server.py\n") and "-b\n+c\n" in text


# Texts that naive escaping gets wrong: runs of quotes that close a docstring early, a quote that
# merges with the closing quotes, a NUL (Python refuses the file), a lone carriage return (Python
# reads it as a newline), line separators, a trailing backslash.
AWKWARD = [
    'Four quotes """" here.',
    'Six quotes """""" and three \'\'\' of the other kind.',
    'Ends in a quote "',
    "Ends in a backslash \\",
    "A NUL \x00 and a bell \x07 and an escape \x1b[31m.",
    "A lone\rcarriage return and a CRLF\r\nhere.",
    "Separators \u2028 \u2029 \x85 and a form feed \x0c.",
    '\\""" backslash before quotes',
]


@pytest.mark.parametrize("text", AWKWARD)
@pytest.mark.parametrize("quote", ['"""', "'''"])
def test_python_docstring_reads_back_exactly_whatever_it_holds(tmp_path: Path, text: str, quote: str) -> None:
    docstring = f"{quote}Reads a note.{quote}"
    source = f"@mcp.tool()\ndef read_note(note_id: str) -> str:\n    {docstring}\n    return note_id\n"
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    location = SourceIndex(tmp_path, ["server.py"]).find("read_note", None)
    assert location is not None
    outcome = edit_file("server.py", source, [(location, text)])
    assert outcome.problems == (None,)
    tree = ast.parse(outcome.text)
    assert [type(node).__name__ for node in tree.body] == ["FunctionDef"]  # nothing became live code
    assert python_description(outcome.text, "read_note") == text
    # The plain replacement is already right: the check is a second line of defence.
    plain = apply_replacements(source, [replacement(location, source, text)])
    assert python_description(plain, "read_note") == text


@pytest.mark.parametrize("text", AWKWARD)
@pytest.mark.parametrize("name", ["tools.json", "server.ts"])
def test_json_and_javascript_literals_read_back_exactly(tmp_path: Path, text: str, name: str) -> None:
    if name.endswith(".json"):
        source = json.dumps({"tools": [{"name": "read_note", "description": "Reads a note."}]}, indent=2)
    else:
        source = 'server.registerTool("read_note", {\n  description: "Reads a note.",\n}, handler);\n'
    (tmp_path / name).write_text(source, encoding="utf-8")
    location = SourceIndex(tmp_path, [name]).find("read_note", None)
    assert location is not None
    outcome = edit_file(name, source, [(location, text)])
    assert outcome.problems == (None,)
    # No raw line break of any kind inside the literal: the file's lines stay where they were.
    assert len(outcome.text.splitlines()) == len(source.splitlines())
    if name.endswith(".json"):
        assert json.loads(outcome.text)["tools"][0]["description"] == text
    else:
        start = outcome.text.index('description: "') + len("description: ")
        end = outcome.text.index(",\n}", start)
        assert json.loads(outcome.text[start:end]) == text
        if shutil.which("node") is not None:  # and node reads the very text back
            script = tmp_path / "check.mjs"
            script.write_text(
                "let seen;\nconst server = { registerTool: (n, o) => { seen = o.description; } };\n"
                "const handler = null;\n" + outcome.text + "process.stdout.write(JSON.stringify(seen));\n",
                encoding="utf-8",
            )
            done = subprocess.run(["node", str(script)], check=True, capture_output=True, text=True)
            assert json.loads(done.stdout) == text


def test_a_single_quoted_docstring_gets_one_line_not_pieces_that_would_split_it(tmp_path: Path) -> None:
    source = "@mcp.tool()\ndef read_note(note_id: str) -> str:\n    'Reads a note.'\n    return note_id\n"
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    location = SourceIndex(tmp_path, ["server.py"]).find("read_note", None)
    assert location is not None
    long_text = "Reads a note. " + "It says a great many things about the note in question. " * 4
    outcome = edit_file("server.py", source, [(location, long_text)])
    assert outcome.problems == (None,)
    assert python_description(outcome.text, "read_note") == long_text


def test_one_literal_gets_one_edit(tmp_path: Path) -> None:
    source = '@mcp.tool()\ndef read_note(note_id: str) -> str:\n    """Reads a note."""\n    return note_id\n'
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    location = SourceIndex(tmp_path, ["server.py"]).find("read_note", None)
    assert location is not None
    more = "Reads a note. More."
    same = edit_file("server.py", source, [(location, more), (location, more)])
    assert same.problems == (None, None) and same.text.count("More.") == 1
    one, two = "Reads a note. One.", "Reads a note. Two."
    differ = edit_file("server.py", source, [(location, one), (location, two)])
    assert differ.problems == (None, "another fix already rewrites the same literal differently")
    assert python_description(differ.text, "read_note") == "Reads a note. One."


def test_an_edit_that_would_not_read_back_is_refused_with_a_reason() -> None:
    assert literal_problem("python", '"""a""" + x', "a") == "the new Python literal does not evaluate"
    assert literal_problem("javascript", '"a\u2028b"', "a\u2028b") == (
        "the new string literal would hold a raw line break"
    )
    assert literal_problem("json", '"a"', "b") == (
        "the new literal would not read back as exactly the new description"
    )


CLEANED = '''from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def find_note(query: str) -> str:
    """Finds a note.

    Matches whole words only.
    """
    return query
'''


def test_a_docstring_the_server_cleans_keeps_its_indentation_and_closing_line(tmp_path: Path) -> None:
    """A standalone FastMCP serves `inspect.cleandoc` of the docstring: the added paragraph is
    indented like the user's lines, which stay as written, and the closing quotes keep their line."""
    import inspect

    (tmp_path / "server.py").write_text(CLEANED, encoding="utf-8")
    served = "Finds a note.\n\nMatches whole words only."
    location = SourceIndex(tmp_path, ["server.py"]).find("find_note", served)
    assert location is not None and location.exact
    described = served + '\n\nExample: find_note(query="milk") returned "n1: Buy milk".'
    edited = edit_file("server.py", CLEANED, [(location, described)])
    assert edited.problems == (None,)
    assert edited.text == CLEANED.replace(
        "    Matches whole words only.\n",
        '    Matches whole words only.\n\n    Example: find_note(query="milk") returned "n1: Buy milk".\n',
    )
    docstring = ast.get_docstring(ast.parse(edited.text).body[2], clean=False)  # type: ignore[arg-type]
    assert docstring is not None and inspect.cleandoc(docstring) == described
    # The edited literal is found again by the text it now serves.
    (tmp_path / "server.py").write_text(edited.text, encoding="utf-8")
    assert SourceIndex(tmp_path, ["server.py"]).find("find_note", described) is not None
