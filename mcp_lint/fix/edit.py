"""Writing a description back where it came from: a string literal in Python, TypeScript/JavaScript or
JSON, escaped for that language so the file still parses and the server serves exactly the new text.

`locate.SourceIndex` finds the literal (its region in SARIF's 1-based line and UTF-16 column terms);
`replacement` turns the new description into source text for that spot, and `apply_replacements`
splices any number of them into a file's text, last first so earlier offsets stay valid.

`edit_file` is what the fix stage uses: one edit per literal, each new literal evaluated back to its
description and the whole file re-parsed before it is accepted. `write_all` writes planned files, every
target (inside the repository, writable, unchanged since it was read) checked before any is written.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import inspect
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcp_lint.errors import UsageError
from mcp_lint.files import write_text_atomic
from mcp_lint.locate import Region, SourceLocation, registrations

# Python string pieces longer than this are split into implicitly concatenated literals, one a line.
_PIECE = 72
_TRIPLE_QUOTES = ('"""', "'''")


@dataclass(frozen=True)
class Replacement:
    """Characters [start, end) of a file's text become `text`, a literal whose value is `value` (the
    description itself, or for a server that cleans docstrings, the indented docstring it cleans to
    the description; None: the description)."""

    start: int
    end: int
    text: str
    value: str | None = None


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


# Characters `str.splitlines` (and so the locator's line numbers) treats as line breaks though the
# language does not, and lone surrogates, which UTF-8 cannot hold: always written as escapes.
_ESCAPED = re.compile("[\x85\u2028\u2029\ud800-\udfff]")


def _u_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _json_string(text: str) -> str:
    """A JSON string literal (valid JavaScript and Python too) that keeps readable text as it is."""
    return _ESCAPED.sub(_u_escape, json.dumps(text, ensure_ascii=False))


def _python_escape(char: str) -> str:
    named = {"\\": "\\\\", "\r": "\\r", "\0": "\\x00", "\x0b": "\\x0b", "\x0c": "\\x0c"}
    if char in named:
        return named[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# In a triple-quoted Python string: the backslash, control characters but newline and tab, and what
# _ESCAPED lists. A lone \r or a NUL written raw would change the text or stop the file parsing.
_PYTHON_ESCAPED = re.compile("[\\\\\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\ud800-\udfff]")


def _python_triple(text: str, quote: str, newline: str) -> str:
    body = _PYTHON_ESCAPED.sub(lambda match: _python_escape(match.group()), text)
    mark = quote[0]
    out: list[str] = []
    run = 0
    # The string closes at the first three unescaped quote characters in a row, or merges with the
    # closing quotes when it ends in one: escape every third of a run, and a quote that ends the text.
    for index, char in enumerate(body):
        if char == mark:
            run += 1
            if run == 3 or index == len(body) - 1:
                out.append("\\" + char)
                run = 0
                continue
        else:
            run = 0
        out.append(char)
    return f"{quote}{''.join(out).replace(chr(10), newline)}{quote}"


def _python_pieces(text: str, indent: str, newline: str) -> str:
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
        return _json_string(text)
    return f"{newline}{indent}".join(_json_string(piece) for piece in pieces)


def _candidates(location: SourceLocation, source: str, description: str) -> list[Replacement]:
    """The ways the literal at `location` can be rewritten to hold `description`, best first, in the
    file's own line endings."""
    start, end = region_offsets(source, location.region)
    old = source[start:end]
    newline = "\r\n" if "\r\n" in source else "\n"
    texts: list[str] = []
    indented: list[Replacement] = []
    if location.language == "python":
        body = old.lstrip("rRuUbBfF")
        quote = next((item for item in _TRIPLE_QUOTES if body.startswith(item)), None)
        if quote is not None:
            raw = _docstring_value(old, description)
            if raw is not None:
                indented.append(Replacement(start, end, _python_triple(raw, quote, newline), raw))
            texts.append(_python_triple(description, quote, newline))
        else:
            line_start = max(source.rfind("\n", 0, start), source.rfind("\r", 0, start)) + 1
            indent = " " * (start - line_start)
            texts.append(_python_pieces(description, indent, newline))
        # One line: a single-quoted docstring is no call's argument, so pieces over lines would not
        # be one string there.
        texts.append(_json_string(description))
    else:
        # JSON, and JavaScript/TypeScript: a JSON string is a valid JS string literal of the same text.
        texts.append(_json_string(description))
    return indented + [Replacement(start, end, text) for text in dict.fromkeys(texts)]


def _docstring_value(literal: str, description: str) -> str | None:
    """For a docstring the server serves cleaned (`inspect.cleandoc`, as FastMCP does), the value the
    literal must hold so that it cleans to `description`: the old text as written, the added text
    indented like it and the old closing whitespace kept (the user's lines are not de-indented). None
    when the server serves the docstring as written, or the description does not extend it."""
    try:
        value = ast.literal_eval(literal)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(value, str) or "\n" not in value.strip():
        return None
    cleaned = inspect.cleandoc(value)
    if cleaned == value or not description.startswith(cleaned) or description == cleaned:
        return None
    lines = value.strip().split("\n")
    margins = [line[: len(line) - len(line.lstrip())] for line in lines[1:] if line.strip()]
    indent = min(margins, key=len) if margins else ""
    added = description[len(cleaned) :]
    shifted = "\n".join(indent + line if line.strip() else line for line in added.split("\n"))
    raw = value.rstrip() + shifted + value[len(value.rstrip()) :]
    return raw if inspect.cleandoc(raw) == description else None


def replacement(location: SourceLocation, source: str, description: str) -> Replacement:
    """How the literal at `location` in `source` is rewritten to hold `description` (unchecked: see
    `edit_file`, which verifies the result before anything is written)."""
    return _candidates(location, source, description)[0]


def literal_problem(language: str, literal: str, description: str) -> str | None:
    """Why the new `literal` does not evaluate to exactly `description`, or None when it does."""
    value: object
    if language == "python":
        try:
            value = ast.literal_eval(f"(\n{literal}\n)")
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            return "the new Python literal does not evaluate"
    else:
        # JavaScript has line terminators JSON lacks: accept only a literal with none raw in it.
        if any(char in literal for char in "\r\n\u2028\u2029"):
            return "the new string literal would hold a raw line break"
        try:
            value = json.loads(literal)
        except ValueError:
            return "the new string literal is not a valid JSON/JavaScript string"
    if value != description:
        return "the new literal would not read back as exactly the new description"
    return None


def _file_problem(path: str, old: str, new: str, edited: Mapping[Region, str]) -> str | None:
    """Why `new` (the file `old` with the literals at `edited` regions rewritten) is not safe to
    write: it must still parse, hold the same registrations, the edited ones with exactly their new
    descriptions and every other one as before."""
    try:
        new.encode("utf-8")
    except UnicodeEncodeError:
        return "the edited file could not be written as UTF-8"
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".py":
        try:
            ast.parse(new)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return f"{path} would no longer parse as Python"
    elif suffix == ".json":
        try:
            json.loads(old)
        except ValueError:
            pass  # not plain JSON to begin with (JSON with comments): the registrations still decide
        else:
            try:
                json.loads(new)
            except ValueError:
                return f"{path} would no longer be valid JSON"
    before = registrations(path, old)
    after = registrations(path, new)
    if [name for name, _, _ in before] != [name for name, _, _ in after]:
        return f"{path} would no longer define the same tools"
    for (_, region, value), (name, _, now) in zip(before, after, strict=True):
        wanted = edited.get(region, value)
        if now != wanted:
            which = "its new" if region in edited else "its old"
            return f"the literal of {name} in {path} would not read back as {which} text"
    return None


@dataclass(frozen=True)
class FileEdit:
    """The outcome of editing one file: its new text (the old one when nothing could be applied),
    and per requested edit (by index) why it was refused (None when applied)."""

    text: str
    problems: tuple[str | None, ...]


def edit_file(path: str, source: str, edits: Sequence[tuple[SourceLocation, str]]) -> FileEdit:
    """Rewrite the literals of `edits` (location, new description) in the file `path` whose text is
    `source`, verifying each new literal and the whole file before accepting it.

    One edit per literal: a second edit of a literal already edited, or overlapping one, is refused
    unless it asks for the same text. Each edit is verified alone (the literal evaluates back to its
    description, the file still parses and defines the same tools), then all the accepted ones
    together; when the combination fails every edit of the file is refused.
    """
    problems: list[str | None] = []
    chosen: dict[int, tuple[Replacement, Region, str]] = {}
    taken: list[tuple[int, int, str]] = []
    for index, (location, description) in enumerate(edits):
        start, end = region_offsets(source, location.region)
        clash = next((item for item in taken if item[0] < end and start < item[1]), None)
        if clash is not None:
            same = clash[:2] == (start, end) and clash[2] == description
            problems.append(None if same else "another fix already rewrites the same literal differently")
            continue
        why: str | None = "no replacement"
        for candidate in _candidates(location, source, description):
            value = candidate.value if candidate.value is not None else description
            why = literal_problem(location.language, candidate.text, value)
            if why is None:
                trial = apply_replacements(source, [candidate])
                why = _file_problem(path, source, trial, {location.region: value})
            if why is None:
                chosen[index] = (candidate, location.region, value)
                taken.append((start, end, description))
                break
        problems.append(why)
    if not chosen:
        return FileEdit(source, tuple(problems))
    new = apply_replacements(source, [item[0] for item in chosen.values()])
    combined = _file_problem(path, source, new, {region: text for _, region, text in chosen.values()})
    if combined is not None:
        return FileEdit(source, tuple(problem or combined for problem in problems))
    return FileEdit(new, tuple(problems))


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


# --- Writing: every target checked before any is written ------------------------------------------


def target_problem(path: Path, root: Path) -> str | None:
    """Why a fix must not write `path`, or None: its real path (symlinks resolved) must stay inside
    `root`, and an existing file must be a regular, writable file in a writable folder (a read-only
    file is refused, never replaced)."""
    real = Path(os.path.realpath(path))
    base = Path(os.path.realpath(root))
    if real != base and base not in real.parents:
        return f"{path} resolves to {real}, outside {base}; --fix writes only inside the repository"
    try:
        info = os.stat(real)
    except FileNotFoundError:
        # A new file (the overrides file): its folders are made inside `root`, under the nearest
        # folder that exists, which must be writable.
        folder = real.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"{folder} is not writable, so {path} cannot be created"
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is not a regular file"
    if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
        return f"{path} is read-only; make it writable for --fix to edit it"
    if not os.access(real.parent, os.W_OK | os.X_OK):
        return f"{real.parent} is not writable, so {path} cannot be replaced atomically"
    return None


def read_exact(path: Path) -> str:
    """A file's text with its line endings as they are (no newline translation)."""
    with open(path, encoding="utf-8", newline="") as stream:
        return stream.read()


@dataclass(frozen=True)
class PlannedWrite:
    """`path` (inside `root`) held `old` when the fix was planned and is to hold `new`."""

    path: Path
    old: str | None  # None: not known in advance (the overrides file is merged at write time)
    new: str
    root: Path


def write_all(writes: Sequence[PlannedWrite]) -> None:
    """Check every target, then write every one (atomically, keeping its mode and line endings).

    A target that fails its check (outside the repository, read-only, not a regular file, changed
    since it was read) stops the run before anything is written: a UsageError names each problem.
    Should a write still fail part way, the files already written get their old text back.
    """
    problems: list[str] = []
    current: list[str | None] = []  # what each target holds now, to restore it should a later write fail
    for item in writes:
        problem = target_problem(item.path, item.root)
        text: str | None = None
        if problem is None and (item.old is not None or item.path.exists()):
            try:
                text = read_exact(item.path)
            except (OSError, UnicodeDecodeError) as exc:
                problem = f"{item.path}: cannot read it: {exc}"
            else:
                if item.old is not None and text != item.old:
                    problem = f"{item.path} changed since --fix read it; run it again"
        if problem is not None:
            problems.append(problem)
        current.append(text)
    if problems:
        raise UsageError("nothing was written: " + "; ".join(problems))
    done: list[tuple[Path, str | None]] = []
    for item, before in zip(writes, current, strict=True):
        try:
            write_text_atomic(item.path, item.new)
        except OSError as exc:
            for path, old in reversed(done):
                with contextlib.suppress(OSError):
                    if old is None:
                        path.unlink()
                    else:
                        write_text_atomic(path, old)
            undone = " (the files written before it were restored)" if done else ""
            raise UsageError(
                f"cannot write a fixed description to {item.path}: {exc.strerror or exc}{undone}"
            ) from None
        done.append((item.path, before))
