"""What a report may print of text a server or a file chose: every report valid UTF-8, the JSON ones
strict JSON, and the terminal ones free of control characters.

A lone surrogate (`"\\ud800"` in JSON) cannot be encoded as UTF-8; it is written as the six
characters `\\ud800`, which is both visible in text and the same escape inside a JSON string.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from json.encoder import encode_basestring as _encode_str  # the C encoder's, as json.dumps uses
from math import isfinite as _isfinite
from typing import Any

from mcp_lint.lazyre import lazy
from mcp_lint.model import Finding, RunResult, ServerReport, replaced

_SURROGATE = lazy("[\ud800-\udfff]")
# C0 (newline and tab too: inside one field a newline forges a report line), DEL, C1, lone
# surrogates and the bidi controls that reorder what a terminal shows.
_UNPRINTABLE = lazy("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
_UNPRINTABLE_KEEP_LINES = lazy("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\x1b"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_surrogates(text: str) -> str:
    """`text` with each lone surrogate as `\\udXXX`, so it encodes as UTF-8."""
    if text.isascii():  # known without a scan: a str records whether it is ASCII, and then has none
        return text
    return _SURROGATE.sub(_escape, text)


def printable(text: str) -> str:
    """One field of a terminal report: control characters, lone surrogates and bidi controls shown
    as escapes (`\\x1b`, `\\n`, `\\u202e`), never acted on by the terminal."""
    return _UNPRINTABLE.sub(_escape, text)


def printable_lines(text: str) -> str:
    """As printable(), but line breaks stay: for a multi-line suggestion that is printed as lines."""
    return _UNPRINTABLE_KEEP_LINES.sub(_escape, text)


def defuse_commands(text: str) -> str:
    """`text` with no line that GitHub Actions would run as a workflow command: the runner reads a
    log line that starts with `::` (leading spaces aside) as one (`::error`, `::add-mask`,
    `::stop-commands`), so a server named `::warning::...` could forge annotations or stop them. Such a
    line gets a backslash before its first colon: shown, never obeyed."""
    if "::" not in text:
        return text
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith("::"):
            lines[index] = line[: len(line) - len(stripped)] + "\\" + stripped
    return "\n".join(lines)


def _finite(value: Any) -> Any:
    """NaN and the infinities as the strings "NaN", "Infinity", "-Infinity": JSON has no such
    numbers, and a report must parse with every strict JSON parser. Documents are depth-capped on
    the way in (mcp_lint.limits), so this recursion is bounded."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


class _Indented:
    """What `json.dumps(document, indent=len(step), ensure_ascii=False, allow_nan=False)` writes, for
    the plain documents reports are (dicts with string keys, lists, tuples, strings, numbers,
    booleans, None), piece for piece as the standard library's indented encoder writes it: with an
    indent, `json` never uses its C encoder, and its Python one is several times slower than this.
    Anything else raises, and the caller lets `json` decide (a non-finite number, another key or
    value type, a cycle).

    A report repeats itself: the same keys at the same depth in every finding, and the same texts
    (a rule's name and message, a tool's suggestion on each of its findings). So each key is
    encoded once per depth, together with the separator before it, and each distinct string value
    once (escaping reads every character; a dict look-up hashes a string once, and it keeps the hash). The
    values of exact built-in types are written in the loops without a call; subclasses (an enum
    that is a str, an int) take the general branch, which writes them as `json` does."""

    def __init__(self, step: str) -> None:
        self.step = step
        self.out: list[str] = []
        self.texts: dict[str, str] = {}  # a string value -> its JSON text
        # By nesting level: the separator before an item, each key's separator + key + ": ", and
        # what closes a dict and a list.
        self.separators: list[str] = []
        self.heads: list[dict[str, str]] = []
        self.closes: list[tuple[str, str]] = []

    def _level(self, level: int) -> None:
        while len(self.separators) <= level:
            depth = len(self.separators)
            self.separators.append(",\n" + self.step * (depth + 1))
            self.heads.append({})
            self.closes.append(("\n" + self.step * depth + "}", "\n" + self.step * depth + "]"))

    def write(self, value: Any, level: int) -> None:
        out = self.out
        kind = type(value)
        if kind is dict:
            if not value:
                out.append("{}")
                return
            if len(self.separators) <= level:
                self._level(level)
            heads = self.heads[level]
            texts = self.texts
            start = len(out)
            for key, item in value.items():
                head = heads.get(key) if type(key) is str else None
                if head is None:
                    if not isinstance(key, str):
                        raise TypeError("a key that is not a string: json converts or refuses it")
                    head = _encode_str(key) + ": "
                    head = self.separators[level] + head
                    if type(key) is str:
                        heads[key] = head
                kind = type(item)
                if kind is str:
                    text = texts.get(item)
                    if text is None:
                        text = texts[item] = _encode_str(item)
                    out.append(head + text)
                elif kind is float and _isfinite(item):
                    out.append(head + float.__repr__(item))
                elif item is None:
                    out.append(head + "null")
                elif item is True:
                    out.append(head + "true")
                elif item is False:
                    out.append(head + "false")
                else:
                    out.append(head)
                    self.write(item, level + 1)
            # Every item was written after a separator: the first one's becomes the opening brace.
            out[start] = "{" + out[start][1:]
            out.append(self.closes[level][0])
        elif kind is list or kind is tuple:
            if not value:
                out.append("[]")
                return
            if len(self.separators) <= level:
                self._level(level)
            separator = self.separators[level]
            texts = self.texts
            start = len(out)
            for item in value:
                out.append(separator)
                if type(item) is str:
                    text = texts.get(item)
                    if text is None:
                        text = texts[item] = _encode_str(item)
                    out.append(text)
                else:
                    self.write(item, level + 1)
            out[start] = "[" + separator[1:]
            out.append(self.closes[level][1])
        elif isinstance(value, str):
            out.append(_encode_str(value))
        elif value is None:
            out.append("null")
        elif value is True:
            out.append("true")
        elif value is False:
            out.append("false")
        elif isinstance(value, int):
            out.append(int.__repr__(value))
        elif isinstance(value, float):
            if not _isfinite(value):
                raise ValueError("a non-finite number: json words the error")
            out.append(float.__repr__(value))
        elif isinstance(value, (list, tuple)):
            self.write(list(value), level)
        elif isinstance(value, dict):
            self.write(dict(value.items()), level)
        else:
            raise TypeError("not a plain JSON value: json decides")


def _dumps(document: Any, indent: int | None) -> str:
    """`json.dumps(document, indent=indent, ensure_ascii=False, allow_nan=False)`, the same text.
    An indented document is written by `_Indented` (several times faster than the standard
    library's pure-Python indented encoder on a report's hundreds of kilobytes); whatever it does
    not handle goes to `json.dumps`, which then writes it or raises as it always did."""
    if isinstance(indent, int) and not isinstance(indent, bool) and indent >= 0:
        writer = _Indented(" " * indent)
        try:
            writer.write(document, 0)
        except (TypeError, ValueError, RecursionError):
            pass
        else:
            return "".join(writer.out)
    return json.dumps(document, indent=indent, ensure_ascii=False, allow_nan=False)


def dumps_strict(document: Any, indent: int | None = 2) -> str:
    """Strict JSON text that encodes as UTF-8 (non-finite numbers as strings, lone surrogates escaped)."""
    try:
        # Most documents hold no non-finite number: encoded as they are, without a copy first.
        text = _dumps(document, indent)
    except ValueError:
        text = _dumps(_finite(document), indent)
    return escape_surrogates(text)


def _printable_finding(finding: Finding) -> Finding:
    return replaced(
        finding,
        message=printable(finding.message),
        server=printable(finding.server),
        tool=None if finding.tool is None else printable(finding.tool),
        evidence=None if finding.evidence is None else printable(finding.evidence),
        path=None if finding.path is None else printable(finding.path),
        suggestion=None if finding.suggestion is None else printable_lines(finding.suggestion),
    )


def _printable_server(report: ServerReport) -> ServerReport:
    return replace(
        report,
        name=printable(report.name),
        error=None if report.error is None else printable(report.error),
        findings=tuple(_printable_finding(finding) for finding in report.findings),
    )


def printable_result(result: RunResult) -> RunResult:
    """The run with every text a server or a file chose made printable(), for a terminal report.

    Applied once where such a report starts, so no line it prints can set a window title, write the
    clipboard (OSC 52), clear the screen or forge a line of its own."""
    jury = result.jury
    if jury is not None:
        jury = replace(
            jury,
            unscored=tuple(
                replace(
                    item,
                    server=printable(item.server),
                    tool=printable(item.tool),
                    judge=printable(item.judge),
                    reason=printable(item.reason),
                )
                for item in jury.unscored
            ),
            warnings=tuple(printable(warning) for warning in jury.warnings),
        )
    return replace(result, servers=tuple(_printable_server(server) for server in result.servers), jury=jury)
