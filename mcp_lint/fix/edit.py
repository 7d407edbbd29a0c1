"""Writing a description back where it came from: a string literal in Python, TypeScript/JavaScript or
JSON, escaped for that language so the file still parses and the server serves exactly the new text.

`locate.SourceIndex` finds the literal (its region in SARIF's 1-based line and UTF-16 column terms);
`replacement` turns the new description into source text for that spot, and `apply_replacements`
splices any number of them into a file's text, last first so earlier offsets stay valid.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mcp_lint.locate import Region, SourceLocation

# Python string pieces longer than this are split into implicitly concatenated literals, one a line.
_PIECE = 72
_TRIPLE_QUOTES = ('"""', "'''")


@dataclass(frozen=True)
class Replacement:
    """Characters [start, end) of a file's text become `text`."""

    start: int
    end: int
    text: str


def _offset(lines: list[str], line: int, utf16_column: int) -> int:
    """The character offset of a 1-based line and UTF-16 column (SARIF's terms) in the joined lines."""
    before = sum(len(item) for item in lines[: line - 1])
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    units = 0
    for index, char in enumerate(text):
        if units >= utf16_column - 1:
            return before + index
        units += 2 if ord(char) > 0xFFFF else 1
    return before + len(text)


def region_offsets(text: str, region: Region) -> tuple[int, int]:
    lines = text.splitlines(keepends=True) or [""]
    return (
        _offset(lines, region.start_line, region.start_column),
        _offset(lines, region.end_line, region.end_column),
    )


def _js_string(text: str) -> str:
    # JSON is valid JavaScript; U+2028 and U+2029 are escaped for engines older than ES2019.
    return json.dumps(text, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _python_triple(text: str, quote: str) -> str:
    body = text.replace("\\", "\\\\").replace(quote, "\\" + quote[0] * 3)
    if body.endswith(quote[0]):
        body = body[:-1] + "\\" + quote[0]
    return f"{quote}{body}{quote}"


def _python_pieces(text: str, indent: str) -> str:
    """A JSON-escaped string (also a valid Python literal), split at spaces into implicitly
    concatenated pieces, one a line: the literal sits inside a call's parentheses."""
    words = text.split(" ")
    pieces: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and len(candidate) > _PIECE:
            pieces.append(current + " ")
            current = word
        else:
            current = candidate
    pieces.append(current)
    if len(pieces) == 1:
        return json.dumps(text, ensure_ascii=False)
    return f"\n{indent}".join(json.dumps(piece, ensure_ascii=False) for piece in pieces)


def replacement(location: SourceLocation, source: str, description: str) -> Replacement:
    """How the literal at `location` in `source` is rewritten to hold `description`."""
    start, end = region_offsets(source, location.region)
    old = source[start:end]
    if location.language == "python":
        body = old.lstrip("rRuUbBfF")
        quote = next((item for item in _TRIPLE_QUOTES if body.startswith(item)), None)
        if quote is not None:
            text = _python_triple(description, quote)
        else:
            line_start = source.rfind("\n", 0, start) + 1
            indent = " " * (start - line_start)
            text = _python_pieces(description, indent)
    elif location.language == "json":
        text = json.dumps(description, ensure_ascii=False)
    else:
        text = _js_string(description)
    return Replacement(start, end, text)


def apply_replacements(source: str, replacements: Iterable[Replacement]) -> str:
    text = source
    for item in sorted(replacements, key=lambda change: change.start, reverse=True):
        text = text[: item.start] + item.text + text[item.end :]
    return text


def unified_diff(changes: Mapping[str, tuple[str, str]]) -> str:
    """One unified diff over every changed file: path -> (old text, new text)."""
    out: list[str] = []
    for path, (old, new) in sorted(changes.items()):
        out.extend(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"a/{path}",
                tofile=f"b/{path}",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)
