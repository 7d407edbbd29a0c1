"""Find where a tool is defined in the repository, so reports can point at the line to change.

MCP reflects tools from a running server, so a finding carries no file. Reporters that need one
(SARIF, GitHub annotations) ask a `SourceIndex` for the tool's registration in the repository's
source: Python SDK decorators (`@mcp.tool()` with the function's docstring or a `description=`
argument), `Tool(name=..., description=...)` calls, TypeScript/JavaScript `registerTool("x", {description})`
and `server.tool("x", "description", ...)`, and JSON tool lists (`"name": "x"` beside `"description"`).

A location is `exact` when its region covers precisely the string literal holding the description,
and `verified` when that literal's text is the description the server sent (up to whitespace), which
tells a definition apart from another server's tool of the same name. Only an exact, verified location
is safe to rewrite.

Files come from `git ls-files` of the repository holding the working directory (gitpython); outside
a git repository, the working directory is walked with the usual build and dependency folders skipped.
"""

from __future__ import annotations

import ast
import bisect
import os
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from mcp_lint.model import Region as Region
from mcp_lint.model import SourceLocation as SourceLocation

SOURCE_SUFFIXES = (".py", ".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json")
# Larger files are generated bundles or data dumps, not where someone registers a tool by hand.
MAX_FILE_BYTES = 512 * 1024
MAX_FILES = 20_000
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "env",
        "__pycache__",
        "dist",
        "build",
        "out",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "site-packages",
        ".next",
        "coverage",
    }
)


@dataclass(frozen=True)
class _Registration:
    name: str
    region: Region
    exact: bool
    value: str | None
    language: str


def _normalized(text: str) -> str:
    return " ".join(text.split())


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class _Lines:
    """Converts offsets of a file's text into SARIF line/column pairs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True) or [""]
        self.starts: list[int] = []
        offset = 0
        for line in self.lines:
            self.starts.append(offset)
            offset += len(line)

    def from_offset(self, offset: int) -> tuple[int, int]:
        """1-based line and UTF-16 column of a character offset into the text."""
        low, high = 0, len(self.starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        column = _utf16_length(self.text[self.starts[low] : offset])
        return low + 1, column + 1

    def from_ast(self, lineno: int, byte_column: int) -> tuple[int, int]:
        """ast positions count UTF-8 bytes within the line; SARIF counts UTF-16 units."""
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        prefix = line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore")
        return lineno, _utf16_length(prefix) + 1

    def node_region(self, node: ast.expr | ast.stmt) -> Region:
        start = self.from_ast(node.lineno, node.col_offset)
        end = self.from_ast(node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)
        return Region(start[0], start[1], end[0], end[1])

    def line_region(self, lineno: int) -> Region:
        line = self.lines[lineno - 1].rstrip("\r\n") if 0 < lineno <= len(self.lines) else ""
        return Region(lineno, 1, lineno, _utf16_length(line) + 1)


# --- Python -------------------------------------------------------------------------------------


def _string_constant(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((item.value for item in call.keywords if item.arg == name), None)


def _callee_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _description_registration(
    name: str, description: ast.expr | None, fallback: ast.expr | ast.stmt, lines: _Lines
) -> _Registration:
    value = _string_constant(description)
    if description is not None and value is not None:
        return _Registration(name, lines.node_region(description), True, value, "python")
    anchor = description if description is not None else fallback
    return _Registration(name, lines.line_region(anchor.lineno), False, None, "python")


def _python_registrations(text: str) -> list[_Registration]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    lines = _Lines(text)
    found: list[_Registration] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                if _callee_name(call.func if call else decorator) != "tool":
                    continue
                name = _string_constant(_keyword(call, "name")) if call else None
                description = _keyword(call, "description") if call else None
                if description is None and node.body:
                    first = node.body[0]
                    if isinstance(first, ast.Expr) and _string_constant(first.value) is not None:
                        description = first.value
                found.append(_description_registration(name or node.name, description, decorator, lines))
        elif isinstance(node, ast.Call) and _callee_name(node.func) == "Tool":
            name = _string_constant(_keyword(node, "name"))
            if name is not None:
                found.append(_description_registration(name, _keyword(node, "description"), node, lines))
    return found


# --- TypeScript / JavaScript and JSON -----------------------------------------------------------

_JS_REGISTRATION = re.compile(r"""\.\s*(registerTool|tool)\s*\(\s*(["'`])((?:\\.|(?!\2).)*?)\2""", re.S)
_JS_DESCRIPTION_KEY = re.compile(r"""(?:\bdescription|["']description["'])\s*:\s*""")
_JSON_NAME = re.compile(r'"name"\s*:\s*"((?:\\.|[^"\\])*)"')
_JSON_DESCRIPTION = re.compile(r'"description"\s*:\s*(?=")')
# How far from a registration its description may be: an options object or a tool entry.
_WINDOW = 4000


def _string_literal_end(text: str, start: int) -> int | None:
    """The offset just past the string literal opening at `start`, or None when it is not closed."""
    quote = text[start]
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char == "\n" and quote != "`":
            return None
        index += 1
    return None


def _decode_literal(literal: str, language: str) -> str | None:
    """The text of a JS/JSON string literal, or None when it is not a plain constant."""
    import json

    body = literal[1:-1]
    if literal[0] == "`":
        return None if "${" in body else body.replace("\\`", "`")
    if literal[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    try:
        value = json.loads(f'"{body}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _literal_registration(
    name: str, text: str, lines: _Lines, literal_start: int, anchor: int, language: str
) -> _Registration:
    end = _string_literal_end(text, literal_start)
    if end is None:
        line, _ = lines.from_offset(anchor)
        return _Registration(name, lines.line_region(line), False, None, language)
    start_line, start_column = lines.from_offset(literal_start)
    end_line, end_column = lines.from_offset(end)
    value = _decode_literal(text[literal_start:end], language)
    # "a" + "b" or a template with ${...}: the literal is only part of the description.
    concatenated = text[end:].lstrip().startswith("+")
    exact = value is not None and not concatenated
    region = Region(start_line, start_column, end_line, end_column)
    return _Registration(name, region, exact, value if exact else None, language)


_JS_INTERESTING = re.compile(r"[\"'`/]")


def _inactive_spans(text: str) -> list[tuple[int, int, bool]]:
    """The comments and string literals of JavaScript/TypeScript source: (start, end, is_comment).
    Regular expression literals are not told apart from division, so a `//` inside one may hide the
    rest of its line: a registration missed there is never rewritten, which is the safe side."""
    spans: list[tuple[int, int, bool]] = []
    index = 0
    length = len(text)
    while index < length:
        found = _JS_INTERESTING.search(text, index)
        if found is None:
            break
        index = found.start()
        char = text[index]
        if char in "\"'`":
            end = _string_literal_end(text, index)
            if end is None:
                line_end = text.find("\n", index)
                end = length if line_end == -1 else line_end
            spans.append((index, end, False))
            index = end
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end == -1 else end
            spans.append((index, end, True))
            index = end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end == -1 else end + 2
            spans.append((index, end, True))
            index = end
        else:
            index += 1
    return spans


def _inactive(spans: list[tuple[int, int, bool]], starts: list[int], offset: int) -> bool:
    """Whether `offset` lies in a comment, or inside (not at the opening quote of) a string literal."""
    position = bisect.bisect_right(starts, offset) - 1
    if position < 0:
        return False
    start, end, comment = spans[position]
    return start <= offset < end and (comment or offset > start)


def _javascript_registrations(text: str) -> list[_Registration]:
    lines = _Lines(text)
    found: list[_Registration] = []
    spans = _inactive_spans(text) if "tool" in text else []
    starts = [span[0] for span in spans]
    active = [
        match for match in _JS_REGISTRATION.finditer(text) if not _inactive(spans, starts, match.start())
    ]
    for position, match in enumerate(active):
        name = _decode_literal(match.group(2) + match.group(3) + match.group(2), "javascript")
        if name is None:
            continue
        after = match.end()
        rest = text[after:]
        stripped = rest.lstrip()
        literal_start = None
        if match.group(1) == "tool" and stripped.startswith(","):
            # server.tool("name", "description", schema, handler)
            candidate = stripped[1:].lstrip()
            if candidate[:1] in {'"', "'", "`"}:
                literal_start = after + (len(rest) - len(candidate))
        if literal_start is None:
            limit = active[position + 1].start() if position + 1 < len(active) else len(text)
            key = next(
                (
                    item
                    for item in _JS_DESCRIPTION_KEY.finditer(text, after, min(limit, after + _WINDOW))
                    if not _inactive(spans, starts, item.start())
                ),
                None,
            )
            if key is not None and text[key.end() : key.end() + 1] in {'"', "'", "`"}:
                literal_start = key.end()
        if literal_start is None:
            line, _ = lines.from_offset(match.start())
            found.append(_Registration(name, lines.line_region(line), False, None, "javascript"))
            continue
        found.append(_literal_registration(name, text, lines, literal_start, match.start(), "javascript"))
    return found


def _same_object(text: str, start: int, end: int) -> bool:
    """Whether `start` and `end` are keys of one JSON object: the brackets between them balance
    (a parameter's "description" inside `inputSchema` is not the tool's)."""
    depth = 0
    index = start
    while index < end:
        char = text[index]
        if char == '"':
            closing = _string_literal_end(text, index)
            if closing is None:
                return False
            index = closing
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth < 0:
                return False
        index += 1
    return depth == 0


def _json_registrations(text: str) -> list[_Registration]:
    lines = _Lines(text)
    names = list(_JSON_NAME.finditer(text))
    found: list[_Registration] = []
    for index, match in enumerate(names):
        name = _decode_literal(f'"{match.group(1)}"', "json")
        if name is None:
            continue
        # The tool's own "description" lies between the previous and the next "name" key.
        low = max(names[index - 1].end() if index else 0, match.start() - _WINDOW)
        high = min(names[index + 1].start() if index + 1 < len(names) else len(text), match.end() + _WINDOW)
        keys = [
            key
            for key in _JSON_DESCRIPTION.finditer(text, low, high)
            if _same_object(text, *sorted((key.start(), match.start())))
        ]
        if not keys:
            continue  # a "name" with no description beside it is not a tool entry
        nearest = min(keys, key=lambda key: abs(key.start() - match.start()))
        found.append(_literal_registration(name, text, lines, nearest.end(), match.start(), "json"))
    return found


_PARSERS = {
    ".py": _python_registrations,
    ".json": _json_registrations,
}


def _registrations(path: str, text: str) -> list[_Registration]:
    suffix = os.path.splitext(path)[1].lower()
    parser = _PARSERS.get(suffix, _javascript_registrations)
    return parser(text)


# --- Parameters ---------------------------------------------------------------------------------


def _python_parameter(text: str, line: int, parameter: str) -> Region | None:
    """The argument (or schema key) named `parameter` of the Python registration whose description
    starts on `line`: the decorated function's argument, else a dict key of its call."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    lines = _Lines(text)
    enclosing: list[tuple[int, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(item.lineno for item in node.decorator_list)])
        elif isinstance(node, ast.Call) and _callee_name(node.func) == "Tool":
            first = node.lineno
        else:
            continue
        if first <= line <= (node.end_lineno or node.lineno):
            enclosing.append(((node.end_lineno or node.lineno) - first, node))
    if not enclosing:
        return None
    node = min(enclosing, key=lambda item: item[0])[1]
    # A schema literal is looked for in the registering call only, never in a function's body (where
    # `{"city": city}` is a result, not the parameter).
    schema_holders: list[ast.AST] = [node]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        schema_holders = list(node.decorator_list)
        arguments = node.args
        for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            if argument.arg == parameter:
                start = lines.from_ast(argument.lineno, argument.col_offset)
                end_line = argument.end_lineno or argument.lineno
                end = lines.from_ast(end_line, argument.end_col_offset or argument.col_offset)
                return Region(start[0], start[1], end[0], end[1])
    for inner in (item for holder in schema_holders for item in ast.walk(holder)):
        if isinstance(inner, ast.Dict):
            for key in inner.keys:
                if key is not None and _string_constant(key) == parameter:
                    return lines.node_region(key)
    return None


def _literal_parameter(text: str, start: int, limit: int, parameter: str) -> Region | None:
    """The key `parameter:` (quoted or not) of a JS/JSON tool's schema, searched between `start` and
    `limit` (the next registration), the first one outside a longer name."""
    pattern = re.compile(rf"""(?<![\w$.])(["']?){re.escape(parameter)}\1\s*:""")
    match = pattern.search(text, start, min(limit, start + _WINDOW))
    if match is None:
        return None
    lines = _Lines(text)
    first = lines.from_offset(match.start())
    last = lines.from_offset(match.start() + len(match.group(1)) * 2 + len(parameter))
    return Region(first[0], first[1], last[0], last[1])


def registrations(path: str, text: str) -> list[tuple[str, Region, str | None]]:
    """Every tool registration the locator sees in a file's text, in order: the tool's name, the region
    of its description (the literal when exact) and the literal's text (None when not exact)."""
    return [(item.name, item.region, item.value) for item in _registrations(path, text)]


# --- The index ----------------------------------------------------------------------------------


def _git_files(start: Path) -> tuple[Path, list[str]] | None:
    """The root of the git repository holding `start` and its tracked files, or None."""
    try:
        import git
    except ImportError:  # gitpython without a git executable
        return None
    try:
        repo = git.Repo(start, search_parent_directories=True)
        root = repo.working_tree_dir
        if root is None:
            return None
        listing = repo.git.ls_files("-z")
    except (git.exc.InvalidGitRepositoryError, git.exc.NoSuchPathError, git.exc.GitCommandError, OSError):
        return None
    return Path(root).resolve(), [item for item in listing.split("\0") if item]


def walked_files(root: Path) -> list[str]:
    """The files under `root` (relative, forward slashes), build, dependency and hidden folders skipped."""
    files: list[str] = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(
            name for name in subfolders if name not in SKIPPED_DIRS and not name.startswith(".")
        )
        relative = Path(folder).relative_to(root)
        files.extend((relative / name).as_posix() for name in sorted(names))
        if len(files) > MAX_FILES:
            break
    return files


def _candidate(path: str) -> bool:
    parts = path.split("/")
    return path.lower().endswith(SOURCE_SUFFIXES) and not SKIPPED_DIRS.intersection(parts[:-1])


class SourceIndex:
    """The repository's likely source files, read once, with each file's registrations parsed on
    first need. One index serves a whole run: build it once and ask it for every tool."""

    def __init__(self, root: Path, files: Iterable[str]) -> None:
        self.root = root
        self.files = sorted(path for path in files if _candidate(path))[:MAX_FILES]
        self._texts: dict[str, str] = {}
        self._parsed: dict[str, list[_Registration]] = {}
        self._cache: dict[tuple[str, str | None, frozenset[str]], SourceLocation | None] = {}

    @classmethod
    def for_directory(cls, cwd: str | Path) -> SourceIndex:
        start = Path(cwd).resolve()
        tracked = _git_files(start)
        if tracked is not None:
            return cls(*tracked)
        return cls(start, walked_files(start))

    def text(self, path: str) -> str:
        """The file's text as it is on disk (line endings untranslated), "" when unreadable or too large."""
        if path not in self._texts:
            full = self.root / path
            try:
                if full.stat().st_size <= MAX_FILE_BYTES:
                    with open(full, encoding="utf-8", newline="") as stream:
                        text = stream.read()
                else:
                    text = ""
            except (OSError, UnicodeDecodeError):
                text = ""
            self._texts[path] = text
        return self._texts[path]

    def _candidates(self, name: str) -> Iterator[tuple[str, _Registration]]:
        for path in self.files:
            text = self.text(path)
            if name not in text:
                continue
            if path not in self._parsed:
                self._parsed[path] = _registrations(path, text)
            for registration in self._parsed[path]:
                if registration.name == name:
                    yield path, registration

    def locations(self, tool: str, description: str | None = None) -> list[SourceLocation]:
        """Every registration of `tool`, by path and line, each `verified` against `description`."""
        # An empty description is a text too: a snapshot's "description": "" is where its fix goes.
        wanted = _normalized(description) if description is not None else None
        return [
            SourceLocation(
                path,
                registration.region,
                registration.exact,
                wanted is not None
                and registration.value is not None
                and _normalized(registration.value) == wanted,
                registration.language,
            )
            for path, registration in self._candidates(tool)
        ]

    def find(
        self, tool: str, description: str | None = None, skip: Collection[str] = ()
    ) -> SourceLocation | None:
        """The best registration of `tool` outside the files in `skip`: one whose literal is the
        served description first, code before JSON listings, then the first by path and line (so the
        answer is stable)."""
        key = (tool, description, frozenset(skip))
        if key not in self._cache:
            best: tuple[tuple[int, int, str, int], SourceLocation] | None = None
            for location in self.locations(tool, description):
                if location.path in skip:
                    continue
                rank = (
                    0 if location.verified else 1,
                    1 if location.language == "json" else 0,
                    location.path,
                    location.region.start_line,
                )
                if best is None or rank < best[0]:
                    best = (rank, location)
            self._cache[key] = best[1] if best else None
        return self._cache[key]

    def choose(
        self, tool: str, description: str, prefer: Collection[str] = ()
    ) -> tuple[SourceLocation | None, str | None]:
        """The one literal a fix may rewrite, or why there is none to rewrite safely.

        Only an exact literal holding the served text counts. `prefer` holds the files the servers'
        command lines run (repository-relative): a literal there wins, then code before JSON
        listings, then a JSON file in `prefer` (a snapshot the run reads) before other JSON. When the
        best of these holds more than one literal (a copy under docs/, a second registration) it is
        ambiguous: (None, reason). (None, None) when no literal holds the text (the overrides file
        then takes the fix).
        """
        found = self.locations(tool, description)
        exact = [location for location in found if location.exact and location.verified]
        preferred = set(prefer)
        run_here = [item for item in found if item.path in preferred and item.language != "json"]
        if run_here and not any(location.exact and location.verified for location in run_here):
            where = run_here[0].path
            if not exact:
                return None, None
            return None, (
                f"{where}, which the server's command runs, registers {tool} without a literal holding "
                f"its served text; the literal in {exact[0].path} may not be what the server serves"
            )

        def tier(location: SourceLocation) -> int:
            json_file = location.language == "json"
            return 2 * json_file + (0 if location.path in preferred else 1)

        if not exact:
            return None, None
        best = min(tier(location) for location in exact)
        chosen = [location for location in exact if tier(location) == best]
        if len(chosen) > 1:
            listed = ", ".join(f"{location.path}:{location.region.start_line}" for location in chosen[:4])
            return None, (
                f"{len(chosen)} literals hold its text ({listed}) and none is in a file the server's "
                "command runs; edit the right one by hand"
            )
        return chosen[0], None

    def parameter(self, location: SourceLocation, parameter: str) -> Region | None:
        """Where the tool registered at `location` declares `parameter`: the function's argument in
        Python, its schema's key in JS/TS and JSON; None where the source does not name it there."""
        text = self.text(location.path)
        if not text or parameter not in text:
            return None
        if location.language == "python":
            return _python_parameter(text, location.region.start_line, parameter)
        # From the description to the next registration in the file: a key found is this tool's (a
        # schema written before the description is not searched, and the tool's anchor stands).
        lines = _Lines(text)
        start = lines.starts[min(location.region.start_line, len(lines.starts)) - 1]
        later = [
            registration.region.start_line
            for registration in self._parsed.get(location.path, [])
            if registration.region.start_line > location.region.start_line
        ]
        limit = lines.starts[min(later) - 1] if later and min(later) <= len(lines.starts) else len(text)
        return _literal_parameter(text, start, limit, parameter)

    def relative(self, path: str | Path, cwd: str | Path = ".") -> str | None:
        """`path` (relative to `cwd`) relative to the index root, or None when it lies outside it."""
        full = (Path(cwd) / path).resolve()
        try:
            return full.relative_to(self.root).as_posix()
        except ValueError:
            return None

    def line_of(self, path: str, pattern: re.Pattern[str]) -> int | None:
        """The first line of a file under the root that matches `pattern`."""
        full = self.root / path
        try:
            if full.stat().st_size > MAX_FILE_BYTES:
                return None
            text = full.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                return number
        return None
