"""Unsafe schema and annotation fixes: what a rule's own evidence says the schema should enforce.

Three rules compute, from their own evidence, the one edit that would satisfy them, and carry it on
the finding as a `SchemaFix` (mcp_lint.model): unenforced-range (MCP207) a range stated in the prose
(`"minimum"`/`"maximum"`) or a closed list of values (`"enum"`, on the `items` of a list of
strings), and missing-annotations (MCP501) the hints of an unambiguous verb (`readOnlyHint: true` for
a read, `destructiveHint: true` for a delete). They change what the server accepts or claims, so
they are unsafe fixes, like ruff's: `--fix` alone never applies them, `--fix --unsafe-fixes` does and
`--diff --unsafe-fixes` shows them. This module reads no prose itself; it turns those findings into
edits and writes them into a saved snapshot's JSON. Plain data in and out, nothing is written here.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcp_lint.model import Finding, RunResult, SchemaFix, Tool


@dataclass(frozen=True)
class SchemaEdit:
    """One finding's schema or annotation fix, for one tool of one server."""

    server: str
    tool: str
    code: str
    subject: str | None
    fix: SchemaFix

    @property
    def note(self) -> str:
        """`MCP207 `limit`: "minimum": 1, "maximum": 100`, as the fix lines print it."""
        where = f" `{self.subject}`" if self.subject and self.fix.pointer[0] == "inputSchema" else ""
        if self.fix.pointer[-1] == "items":
            where += " items"
        shown = ", ".join(f"{json.dumps(key)}: {json.dumps(value)}" for key, value in self.fix.values.items())
        return f"{self.code}{where}: {shown}"


@dataclass(frozen=True)
class SchemaOutcome:
    """What became of a schema edit: applied (with `--unsafe-fixes`) where, or why not, and what to
    write in the server's source by hand when its schema is not a file the fix can edit."""

    edit: SchemaEdit
    applied: bool = False
    where: str | None = None
    reason: str | None = None
    by_hand: str | None = None


def schema_edits(result: RunResult) -> list[SchemaEdit]:
    """Every finding of the run that carries a schema or annotation fix, in report order."""
    edits: list[SchemaEdit] = []
    for report in result.servers:
        if report.snapshot is None:
            continue
        tools = {tool.name for tool in report.snapshot.tools if tool.named}
        for finding in report.findings:
            edit = _edit(report.name, finding)
            if edit is not None and edit.tool in tools:
                edits.append(edit)
    return edits


def _edit(server: str, finding: Finding) -> SchemaEdit | None:
    if finding.fix is None or finding.tool is None or finding.baselined:
        return None
    return SchemaEdit(server, finding.tool, finding.code, finding.subject, finding.fix)


def patched(raw: Mapping[str, Any], fixes: Sequence[SchemaFix]) -> dict[str, Any] | None:
    """A copy of a tool's entry with `fixes` added, key order kept and new keys appended; None when a
    fix's place is not an object (the schema changed since the finding) or nothing would change."""
    entry = copy.deepcopy(dict(raw))
    changed = False
    for fix in fixes:
        node: Any = entry
        for depth, key in enumerate(fix.pointer):
            if not isinstance(node, dict):
                return None
            if key not in node and depth == len(fix.pointer) - 1 and fix.pointer == ("annotations",):
                node[key] = {}
            node = node.get(key)
        if not isinstance(node, dict):
            return None
        for key, value in fix.values.items():
            if key not in node or (fix.replace and node[key] != value):
                node[key] = copy.deepcopy(value)
                changed = True
    return entry if changed else None


def patched_tool(tool: Tool, fixes: Sequence[SchemaFix]) -> Tool:
    entry = patched(tool.raw, fixes)
    return tool if entry is None else Tool(tool.name, entry, tool.sdk_rejection, tool.named)


_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


Spans = dict[tuple[str | int, ...], tuple[int, int]]


def _spans(text: str) -> tuple[Spans, Spans]:
    """Where each JSON object of `text` opens and closes (the offsets of its braces), and where each
    value starts and ends, keyed by path (keys and array indexes). `text` must be valid JSON."""
    found: Spans = {}
    values: Spans = {}

    def _string(at: int) -> tuple[str, int]:
        match = _STRING.match(text, at)
        if match is None:
            raise ValueError(f"unterminated string at {at}")
        return str(json.loads(match.group(0))), match.end()

    def value(at: int, path: tuple[str | int, ...]) -> int:
        at = _WS.match(text, at).end()  # type: ignore[union-attr]
        end = _value(at, path)
        values[path] = (at, end)
        return end

    def _value(at: int, path: tuple[str | int, ...]) -> int:
        char = text[at]
        if char == '"':
            return _string(at)[1]
        if char in "{[":
            closing = "}" if char == "{" else "]"
            at, index = at + 1, 0
            opened = at - 1
            while True:
                at = _WS.match(text, at).end()  # type: ignore[union-attr]
                if text[at] == closing:
                    break
                if char == "{":
                    key, at = _string(at)
                    at = _WS.match(text, at).end() + 1  # type: ignore[union-attr]  # the colon
                    at = value(at, (*path, key))
                else:
                    at = value(at, (*path, index))
                    index += 1
                at = _WS.match(text, at).end()  # type: ignore[union-attr]
                if text[at] == ",":
                    at += 1
            if char == "{":
                found[path] = (opened, at)
            return at + 1
        scalar = _SCALAR.match(text, at)
        if scalar is None:
            raise ValueError(f"unexpected {text[at]!r} at {at}")
        return scalar.end()

    value(0, ())
    return found, values


def _line_indent(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    return text[start : _WS.match(text, start).end()].lstrip("\r\n")  # type: ignore[union-attr]


def _insertion(text: str, span: tuple[int, int], values: Mapping[str, Any], unit: str) -> str:
    """The text to put before the object's closing brace so that it gains `values`, one key a line in
    a multi-line object (indented like its other keys), inline in a one-line object."""
    opened, closing = span
    inner = text[opened + 1 : closing]
    rendered = [
        f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in values.items()
    ]
    empty = not inner.strip()
    if "\n" not in text[opened:closing]:
        return ("" if empty else ", ") + ", ".join(rendered)
    newline = "\r\n" if "\r\n" in text else "\n"
    own = _line_indent(text, opened)
    child = own + unit
    if not empty:
        last_key = inner.rstrip().rfind("\n")
        if last_key >= 0:
            line = inner[last_key + 1 :]
            child = line[: len(line) - len(line.lstrip(" \t"))] or child
    lines = f",{newline}".join(child + item for item in rendered)
    return ("" if empty else ",") + newline + lines


def edit_snapshot(text: str, fixes: Mapping[str, Sequence[SchemaFix]]) -> tuple[str, str | None]:
    """The snapshot file's text with `fixes` (tool name -> its fixes) added to its tools, and the
    reason it cannot be edited (None when it can). Only new keys are inserted, each before the closing
    brace of its object, indented like the object's other keys (a one-line object stays one line);
    every other byte of the file is kept. The result must parse back to the document with exactly the
    fixes added."""
    try:
        document = json.loads(text)
        spans, value_spans = _spans(text)
    except (ValueError, IndexError) as error:
        return text, f"not JSON ({error})"
    in_tools: tuple[str | int, ...] = ("tools",) if isinstance(document, dict) else ()
    tools = document.get("tools") if isinstance(document, dict) else document
    if not isinstance(tools, list):
        return text, "no tools array"
    found = re.search(r"\n([ \t]+)\S", text)
    unit = found.group(1) if found else "  "
    inserts: list[tuple[int, str]] = []
    swaps: list[tuple[tuple[int, int], str]] = []
    expected = copy.deepcopy(document)
    expected_tools: list[Any] = expected["tools"] if isinstance(expected, dict) else expected
    for position, entry in enumerate(tools):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or name not in fixes:
            continue
        new = patched(entry, fixes[name])
        if new is None:
            continue
        expected_tools[position] = new
        for fix in fixes[name]:
            path: tuple[str | int, ...] = (*in_tools, position, *fix.pointer)
            node: Any = entry
            for key in fix.pointer:
                node = node.get(key) if isinstance(node, dict) else None
            if node is None and fix.pointer == ("annotations",):
                path, values = (*in_tools, position), {"annotations": dict(fix.values)}
            elif isinstance(node, dict):
                values = {key: value for key, value in fix.values.items() if key not in node}
                for key, value in fix.values.items():
                    at = value_spans.get((*path, key))
                    if fix.replace and key in node and node[key] != value and at is not None:
                        swaps.append((at, json.dumps(value, ensure_ascii=False)))
            else:
                return text, f"{name}: {'.'.join(fix.pointer)} is not an object"
            if values and path in spans:
                inserts.append((spans[path][1], _insertion(text, spans[path], values, unit)))
    # Every change, from the end of the file back, so that the offsets before it stay right.
    changes = [((at, at), insertion, True) for at, insertion in inserts]
    changes += [(span, value, False) for span, value in swaps]
    for (start, end), new_text, inserted in sorted(changes, key=lambda change: change[0], reverse=True):
        if inserted:
            # The closing brace stays on its own line: insert before the whitespace that precedes it.
            start = end = len(text[:start].rstrip(" \t\r\n"))
        text = text[:start] + new_text + text[end:]
    if json.loads(text) != expected:
        return text, "the edited file does not read back as the fixed tools"
    return text, None


def by_hand(edit: SchemaEdit, tool: Tool) -> str:
    """What to write in the server's source for this fix, when the fix cannot edit it: the decorator
    argument or type of a Python (FastMCP / MCPServer) tool, and the JSON keywords for any other."""
    values = edit.fix.values
    if edit.fix.pointer == ("annotations",):
        args = ", ".join(f"{key}={value!r}" for key, value in values.items())
        keys = ", ".join(f"{key}: {json.dumps(value)}" for key, value in values.items())
        return (
            f"{tool.name}: in Python `@mcp.tool(annotations=ToolAnnotations({args}))`; "
            f"in TypeScript `annotations: {{ {keys} }}`"
        )
    name = edit.subject or "the parameter"
    keywords = ", ".join(f"{json.dumps(key)}: {json.dumps(value)}" for key, value in values.items())
    if "enum" in values:
        options = ", ".join(json.dumps(value) for value in values["enum"])
        kind = f"list[Literal[{options}]]" if edit.fix.pointer[-1] == "items" else f"Literal[{options}]"
        zod = f"z.enum([{options}])"
        if edit.fix.pointer[-1] == "items":
            zod = f"z.array({zod})"
        return f"{tool.name}.{name}: in Python `{name}: {kind}`; in TypeScript `{zod}`; in JSON {keywords}"
    bounds = {"minimum": "ge", "maximum": "le"}
    field_args = ", ".join(f"{bounds[key]}={value}" for key, value in values.items() if key in bounds)
    zod_calls = "".join(
        f".{'min' if key == 'minimum' else 'max'}({value})" for key, value in values.items() if key in bounds
    )
    schema = (tool.properties.get(name) or {}) if isinstance(tool.properties, Mapping) else {}
    python_type = "int" if isinstance(schema, Mapping) and schema.get("type") == "integer" else "float"
    return (
        f"{tool.name}.{name}: in Python `{name}: Annotated[{python_type}, Field({field_args})]`; "
        f"in TypeScript `z.number(){zod_calls}`; in JSON {keywords}"
    )
