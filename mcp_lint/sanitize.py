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


def _indented(value: Any, step: str, level: int, out: list[str]) -> None:
    """Append to `out` what `json.dumps(value, indent=len(step), ensure_ascii=False,
    allow_nan=False)` writes for `value` at nesting `level`, for the plain documents reports are
    (dicts with string keys, lists, tuples, strings, numbers, booleans, None), piece for piece as
    the standard library's indented encoder writes it but without a generator per level: with an
    indent, `json` never uses its C encoder. Anything else raises, and the caller lets `json` decide
    (a non-finite number, another key or value type, a cycle)."""
    if isinstance(value, str):
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
        if not math.isfinite(value):
            raise ValueError("a non-finite number: json words the error")
        out.append(float.__repr__(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = "\n" + step * (level + 1)
        out.append("[" + inner)
        separator = "," + inner
        first = True
        for item in value:
            if not first:
                out.append(separator)
            first = False
            if type(item) is str:  # the most common value, written here without a call
                out.append(_encode_str(item))
            else:
                _indented(item, step, level + 1, out)
        out.append("\n" + step * level + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = "\n" + step * (level + 1)
        out.append("{" + inner)
        separator = "," + inner
        first = True
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError("a key that is not a string: json converts or refuses it")
            if not first:
                out.append(separator)
            first = False
            if type(item) is str:
                out.append(_encode_str(key) + ": " + _encode_str(item))
            else:
                out.append(_encode_str(key) + ": ")
                _indented(item, step, level + 1, out)
        out.append("\n" + step * level + "}")
    else:
        raise TypeError("not a plain JSON value: json decides")


def _dumps(document: Any, indent: int | None) -> str:
    """`json.dumps(document, indent=indent, ensure_ascii=False, allow_nan=False)`, the same text.
    An indented document is written by `_indented` (several times faster than the standard
    library's pure-Python indented encoder on a report's hundreds of kilobytes); whatever it does
    not handle goes to `json.dumps`, which then writes it or raises as it always did."""
    if isinstance(indent, int) and not isinstance(indent, bool) and indent >= 0:
        out: list[str] = []
        try:
            _indented(document, " " * indent, 0, out)
        except (TypeError, ValueError, RecursionError):
            pass
        else:
            return "".join(out)
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
