"""Recorded tool calls: the trace file `mcp-lint record` and `mcp-lint proxy` append to, and `--fix` reads.

A trace file is JSON Lines, one object per `tools/call` the proxy saw answered, in the order the
answers arrived. Users commit these files, so the format is plain and stable (docs/traces.md):

    {"version": 1, "server": "weather", "tool": "get_forecast",
     "arguments": {"city": "Paris", "api_key": "<redacted>"},
     "content": [{"type": "text", "text": "Sunny, 21 C"}], "truncated": false,
     "isError": false, "error": null, "durationMs": 12.5, "time": "2026-12-01T22:10:00Z"}

`error` holds a JSON-RPC error's message when the call failed at the protocol level (no result at
all); `isError` is the result's own flag, set when the tool ran and reported a failure. Values that
look secret (by their parameter name, or because they equal a secret-looking environment value of
the proxied server) are replaced by "<redacted>" before anything is written.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import stat
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError, quote
from mcp_lint.files import file_kind, read_input_file
from mcp_lint.lazyre import lazy
from mcp_lint.limits import MAX_JSON_DEPTH, document_problem, too_deep_message, too_long_number_message
from mcp_lint.model import value_record

TRACE_VERSION = 1
REDACTED = "<redacted>"

# A recorded result keeps this many characters of text over all its content items: enough for an
# example in a description, never a 10 MB page copied into a committed file.
MAX_RESULT_CHARACTERS = 2_000
# A call's arguments keep this many characters of JSON: past it, the largest values give way to a
# note of their size (a 20 MB file body is no example either).
MAX_ARGUMENT_CHARACTERS = 8_000

# Words that make a parameter, header or environment variable name a secret's name by convention.
# Matched as whole words of the name (`author` and `max_tokens` are not secrets; `apiKey` is).
_SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "secret",
        "token",
        "apikey",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "cookie",
        "bearer",
        "jwt",
    }
)
_SECRET_PAIRS = frozenset({("api", "key"), ("private", "key"), ("access", "key"), ("client", "secret")})
_NAME_WORD = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# A model's tokens counted, not a credential: `max_tokens`, `token_count`, `prompt_tokens`, `token_type`.
_TOKEN_WORDS = frozenset({"token", "tokens"})
_TOKEN_QUALIFIERS = frozenset(
    {
        "max",
        "min",
        "num",
        "number",
        "count",
        "counts",
        "total",
        "used",
        "usage",
        "limit",
        "remaining",
        "budget",
        "length",
        "prompt",
        "completion",
        "input",
        "output",
        "cached",
        "reasoning",
        "estimated",
        "type",
        "expires",
        "expiry",
        "expiration",
        "ttl",
    }
)

# Values that are secrets whatever their name: bearer headers, well-known key prefixes, JWTs.
_TOKEN_SHAPES = (
    r"sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}"
    r"|xox[abprs]-[\w-]{10,}|AKIA[0-9A-Z]{16}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}"
)
_SECRET_VALUE = lazy(rf"^(?:Bearer\s+\S+|{_TOKEN_SHAPES})$")
# The same shapes inside longer text, not glued to a word on either side. A bearer credential there
# has eight characters or more with a digit or a symbol in them, so prose ("the bearer of bad news",
# "bearer instruments") keeps its words.
_SECRET_IN_TEXT = lazy(
    rf"(?<![\w-])(?:[Bb]earer\s+(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{{8,}}|{_TOKEN_SHAPES})(?![\w-])"
)
# The password of a URL's userinfo: postgres://user:PASSWORD@host/db.
_URL_PASSWORD = lazy(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]*:)([^\s/@]+)(@)")
# A query parameter of a URL in text: ?api_key=...&page=2.
_QUERY_PARAMETER = lazy(r"([?&;])([A-Za-z0-9_.~\[\]-]+)=([^&#\s]+)")
# NAME=value as a word of its own (an environment dump, "token=... rejected"): group 1 is what
# stays before the value.
_NAMED_ASSIGNMENT = lazy(r"((?<![\w.~\[\]-])([A-Za-z_][A-Za-z0-9_.-]{0,63})[ \t]*=[ \t]*)([^\s&#,;'\"]+)")
# A private key in PEM, to its END line or, cut by the result cap, to the end of the text.
_PRIVATE_KEY = lazy(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY-----|.*\Z)", re.DOTALL
)
# A key of JSON (or of Python's dict repr) written as text ('{"password": "x"}', what many servers
# return) and its string or number value.
_QUOTED_PAIR = lazy(
    r"""((?<!\\)(["'])([A-Za-z_][A-Za-z0-9_.-]{0,63})\2\s*:\s*)"""
    r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?[0-9][0-9.eE+-]*)"""
)
# A header line ("Authorization: Basic ...", "X-Api-Key: ..."): group 1 is what stays before the value.
_HEADER_LINE = lazy(r"(?m)^([ \t]*([A-Za-z][A-Za-z0-9_-]{0,63}):[ \t]*)(\S[^\r\n]*)")
# Values kept from a secret-named key to redact wherever else they appear (a result echoing them):
# shorter ones would blank ordinary words and numbers all over the record.
_MIN_ECHOED_SECRET = 6
# A string longer than this is not parsed as JSON to look for secret-named keys inside it.
MAX_JSON_TEXT = 1 << 20
# Past this depth a value is replaced rather than walked (the trace reader's own limit).
TOO_DEEP = "<nested too deep>"


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class TraceRecord:
    """One answered tools/call."""

    tool: str
    arguments: Mapping[str, Any]
    content: tuple[Mapping[str, Any], ...] = ()
    is_error: bool = False
    error: str | None = None
    truncated: bool = False
    duration_ms: float = 0.0
    time: str = ""
    server: str = ""
    structured: Any = field(default=None)

    @property
    def succeeded(self) -> bool:
        return self.error is None and not self.is_error

    def result_text(self) -> str:
        """The text items of the result, joined: what an example or a limitation quotes."""
        return "\n".join(str(item.get("text", "")) for item in self.content if item.get("type") == "text")

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "version": TRACE_VERSION,
            "server": self.server,
            "tool": self.tool,
            "arguments": dict(self.arguments),
            "content": [dict(item) for item in self.content],
            "truncated": self.truncated,
            "isError": self.is_error,
            "error": self.error,
            "durationMs": round(self.duration_ms, 3),
            "time": self.time,
        }
        if self.structured is not None:
            document["structuredContent"] = self.structured
        return document


def is_secret_name(name: str) -> bool:
    words = [word.lower() for word in _NAME_WORD.findall(name)]
    # Plurals name secrets too: `tokens`, `passwords`, `api_keys`.
    singular = [
        word[:-1] if word.endswith("s") and word[:-1] in _SECRET_WORDS | {"key"} else word for word in words
    ]
    found = {word for word in singular if word in _SECRET_WORDS}
    pairs = any(pair in _SECRET_PAIRS for pair in itertools.pairwise(singular))
    if not pairs and found and found <= {"token"} and any(word in _TOKEN_QUALIFIERS for word in words):
        return False
    return pairs or bool(found)


def secret_values(environment: Mapping[str, str]) -> frozenset[str]:
    """Values of the environment given to a proxied server that must never reach a trace file."""
    return frozenset(
        value
        for name, value in environment.items()
        if len(value) >= 6 and (is_secret_name(name) or looks_secret(value))
    )


def looks_secret(value: str) -> bool:
    return bool(_SECRET_VALUE.match(value.strip()))


def _redacted_parameter(match: re.Match[str]) -> str:
    separator, name, value = match.groups()
    return f"{separator}{name}={REDACTED}" if is_secret_name(name) and value != REDACTED else match.group(0)


def _redacted_assignment(match: re.Match[str]) -> str:
    before, name, value = match.groups()
    return f"{before}{REDACTED}" if is_secret_name(name) and value != REDACTED else match.group(0)


def _redacted_pair(match: re.Match[str]) -> str:
    before, _, name, value = match.groups()
    quote = value[0] if value[0] in "\"'" else '"'
    if not is_secret_name(name) or value[1:-1] in {REDACTED, ""}:
        return match.group(0)
    return f"{before}{quote}{REDACTED}{quote}"


def _redacted_header(match: re.Match[str]) -> str:
    before, name, value = match.groups()
    if not is_secret_name(name) or value.strip() == REDACTED:
        return match.group(0)
    return f"{before}{REDACTED}"


def _secret_spans(text: str, secrets: Iterable[str]) -> list[tuple[int, int]]:
    """Where known secrets and token shapes sit in `text`, overlaps merged: both are found in the
    text as it came, so one cut out first cannot leave the rest of the other in clear."""
    spans = [match.span() for match in _SECRET_IN_TEXT.finditer(text)]
    if "PRIVATE KEY-----" in text:
        spans += [match.span() for match in _PRIVATE_KEY.finditer(text)]
    for secret in secrets:
        start = text.find(secret) if secret else -1
        while start >= 0:
            spans.append((start, start + len(secret)))
            start = text.find(secret, start + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with known secrets, token shapes, URL passwords, secret query parameters and values
    under secret names (NAME=value, a JSON key written as text) replaced."""
    if looks_secret(text):
        return REDACTED
    spans = _secret_spans(text, secrets)
    if spans:
        pieces, at = [], 0
        for start, end in spans:
            pieces += [text[at:start], REDACTED]
            at = end
        text = "".join([*pieces, text[at:]])
        if text == REDACTED:
            return text
    if "://" in text:
        text = _URL_PASSWORD.sub(lambda match: f"{match.group(1)}{REDACTED}{match.group(3)}", text)
    if "=" in text:
        text = _QUERY_PARAMETER.sub(_redacted_parameter, text)
        text = _NAMED_ASSIGNMENT.sub(_redacted_assignment, text)
    if ":" in text:
        text = _HEADER_LINE.sub(_redacted_header, text)
        if '"' in text or "'" in text:
            text = _QUOTED_PAIR.sub(_redacted_pair, text)
    return text


def _hides(value: Any) -> bool:
    """A value under a secret name that is redacted: anything but null, false/true and ""."""
    return value is not None and not isinstance(value, bool) and value != ""


def redact(value: Any, secrets: frozenset[str] = frozenset(), name: str = "", depth: int = 0) -> Any:
    """`value` with secret-looking parts replaced by REDACTED, recursively through objects and lists.

    Anything under a secret name goes whole (a string, a number, an object); strings elsewhere lose
    the secrets inside them. Past MAX_JSON_DEPTH levels a value is replaced by TOO_DEEP.
    """
    if name and _hides(value) and is_secret_name(name):
        return REDACTED
    if isinstance(value, str):
        return redact_text(value, secrets | _secrets_of_json_text(value))
    if depth >= MAX_JSON_DEPTH and isinstance(value, Mapping | list | tuple):
        return TOO_DEEP
    if isinstance(value, Mapping):
        return {str(key): redact(item, secrets, str(key), depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact(item, secrets, "", depth + 1) for item in value]
    return value


def _secrets_of_json_text(text: str, level: int = 0) -> frozenset[str]:
    """The values under secret names in `text` when it is a JSON object or list written as text,
    also inside strings of it that are JSON in turn (a config echoed as a string of a result), where
    the text pattern of redact_text cannot see them through the escaped quotes."""
    if level > 3 or len(text) > MAX_JSON_TEXT or text.lstrip()[:1] not in ("{", "[") or ":" not in text:
        return frozenset()
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return frozenset()
    found = set(named_secrets(document))
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            continue
        if isinstance(item, Mapping):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            found |= _secrets_of_json_text(item, level + 1)
    return frozenset(found)


def named_secrets(document: Any) -> frozenset[str]:
    """The values found under secret names in `document` (strings and numbers of six characters or
    more), so the same value echoed elsewhere (a result repeating an api_key) is redacted too."""
    found: set[str] = set()
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, level = stack.pop()
        if level > MAX_JSON_DEPTH:
            continue
        if isinstance(value, Mapping):
            for key, item in value.items():
                if is_secret_name(str(key)) and _hides(item):
                    found.update(_scalars(item, level))
                else:
                    stack.append((item, level + 1))
        elif isinstance(value, list | tuple):
            stack.extend((item, level + 1) for item in value)
    return frozenset(text for text in found if len(text) >= _MIN_ECHOED_SECRET and text != REDACTED)


def _scalars(value: Any, level: int) -> Iterator[str]:
    stack: list[tuple[Any, int]] = [(value, level)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            continue
        if isinstance(item, Mapping):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list | tuple):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            yield item
        elif isinstance(item, int | float) and not isinstance(item, bool):
            yield repr(item) if isinstance(item, float) else str(item)


def capped_content(content: Iterable[Mapping[str, Any]]) -> tuple[tuple[Mapping[str, Any], ...], bool]:
    """Result content trimmed to MAX_RESULT_CHARACTERS of text; images and blobs keep only their type."""
    kept: list[Mapping[str, Any]] = []
    budget = MAX_RESULT_CHARACTERS
    truncated = False
    for item in content:
        kind = str(item.get("type", ""))
        if kind == "text":
            text = str(item.get("text", ""))
            if len(text) > budget:
                text, truncated = text[:budget], True
            budget -= len(text)
            kept.append({"type": "text", "text": text})
        else:
            # Binary payloads (images, audio, embedded blobs) are not examples a description can quote.
            kept.append({"type": kind, "omitted": True})
            truncated = truncated or any(key in item for key in ("data", "blob", "resource"))
    return tuple(kept), truncated


def _json_size(value: Any) -> int | None:
    """The length of `value` as JSON, or None when it cannot be measured (too deep, not finite...)."""
    try:
        return len(json.dumps(value, ensure_ascii=False, default=str))
    except (ValueError, TypeError, RecursionError):
        return None


def capped_arguments(arguments: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """The arguments within MAX_ARGUMENT_CHARACTERS: each value kept whole while it fits, the
    rest replaced by a note of their size; True when any value was replaced."""
    size = _json_size(dict(arguments))
    if size is not None and size <= MAX_ARGUMENT_CHARACTERS:
        return dict(arguments), False
    kept: dict[str, Any] = {}
    budget = MAX_ARGUMENT_CHARACTERS
    for key, value in arguments.items():
        length = _json_size(value)
        if length is not None and length + len(key) <= budget // 2:
            kept[str(key)] = value
            budget -= length + len(key)
        else:
            kept[str(key)] = f"<omitted: {length:,} characters>" if length is not None else "<omitted>"
    return kept, True


def capped_text(text: str) -> tuple[str, bool]:
    """A message cut to MAX_RESULT_CHARACTERS; True when it was cut."""
    return (text, False) if len(text) <= MAX_RESULT_CHARACTERS else (text[:MAX_RESULT_CHARACTERS], True)


def strict_json_line(document: Any) -> bytes:
    """One line of strict JSON (no NaN or Infinity) in UTF-8, ending in a newline."""
    document = _finite(document)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=False)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate from a server: escaped, the line is still valid JSON and valid UTF-8.
        return (json.dumps(document, separators=(",", ":"), default=str, allow_nan=False) + "\n").encode()


def _finite(value: Any, depth: int = 0) -> Any:
    """`value` with each float that JSON cannot spell (inf, nan) as its text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if depth > MAX_JSON_DEPTH:
        return value
    if isinstance(value, Mapping):
        return {key: _finite(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item, depth + 1) for item in value]
    return value


def record_from_json(data: Any, where: str) -> TraceRecord:
    if not isinstance(data, Mapping):
        raise UsageError(f"{where}: a trace line must be a JSON object, not {type(data).__name__}")
    tool = data.get("tool")
    arguments = data.get("arguments", {})
    if not isinstance(tool, str) or not tool:
        raise UsageError(f'{where}: "tool" must be a non-empty string, got {quote(tool)}')
    if not isinstance(arguments, Mapping):
        raise UsageError(f'{where}: "arguments" must be an object, got {quote(arguments)}')
    content = data.get("content", [])
    if not isinstance(content, list) or not all(isinstance(item, Mapping) for item in content):
        raise UsageError(f'{where}: "content" must be a list of objects')
    error = data.get("error")
    duration = data.get("durationMs", 0.0)
    return TraceRecord(
        tool=tool,
        arguments=dict(arguments),
        content=tuple(dict(item) for item in content),
        is_error=data.get("isError") is True,
        error=str(error) if error is not None else None,
        truncated=data.get("truncated") is True,
        duration_ms=float(duration)
        if isinstance(duration, int | float) and not isinstance(duration, bool)
        else 0.0,
        time=str(data.get("time", "")),
        server=str(data.get("server", "")),
        structured=data.get("structuredContent"),
    )


def parse_traces(text: str, where: str) -> Iterator[TraceRecord]:
    """The records of a trace file's text. Blank lines are skipped; a bad line is a UsageError naming it."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except RecursionError:
            raise UsageError(f"{where}:{number}: a trace line {too_deep_message()}") from None
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{where}:{number}: not a JSON trace line ({error}); "
                "record traces with `mcp-lint record --traces FILE -- COMMAND`"
            ) from None
        except ValueError:  # Python's own digit limit, whose message names a Python call
            raise UsageError(f"{where}:{number}: a trace line holds {too_long_number_message()}") from None
        problem = document_problem(data)
        if problem is not None:
            verb = "" if problem == too_deep_message() else "holds "
            raise UsageError(f"{where}:{number}: a trace line {verb}{problem}")
        yield record_from_json(data, f"{where}:{number}")


def read_traces(path: Path) -> list[TraceRecord]:
    text = read_input_file(path, "a trace file", "no such trace file; record one with `mcp-lint record`")
    return list(parse_traces(text, str(path)))


def traces_by_tool(
    records: Iterable[TraceRecord], server: str | Sequence[str] | None = None
) -> dict[str, list[TraceRecord]]:
    """Records grouped by tool; with `server` (a name, or the names a server goes by: its config key
    and the name it reports), only that server's (records without a server match any)."""
    names = None if server is None else {server} if isinstance(server, str) else set(server)
    grouped: dict[str, list[TraceRecord]] = {}
    for record in records:
        if names is not None and record.server and record.server not in names:
            continue
        grouped.setdefault(record.tool, []).append(record)
    return grouped


class TraceWriteError(OSError):
    """A record could not be appended; the file holds whole lines only."""


class NotARegularFile(OSError):
    """The trace path names a FIFO, a device or a socket: records go to regular files only."""


class TraceWriter:
    """Appends records to a trace file, one whole line per write, safe across threads and tasks.

    Each line is written with a single os.write on a file opened O_APPEND, so a crash never leaves
    half a line and two proxies appending to the same file interleave whole lines only.
    """

    def __init__(self, path: Path, secrets: frozenset[str] = frozenset()) -> None:
        self.path = path
        self._secrets = secrets
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        # Non-blocking, so a FIFO nobody reads fails at once instead of hanging the open; a regular
        # file ignores the flag. Only a regular file is kept: a FIFO or a device (/dev/stdout, the
        # protocol's own stream) would mix records into whatever reads it, or lose them.
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
        try:
            self._fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as error:
            try:
                mode = os.stat(path).st_mode
            except OSError:
                raise error from None
            if stat.S_ISREG(mode):
                raise
            raise NotARegularFile(f"{file_kind(mode)}, not a regular file") from None
        mode = os.fstat(self._fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(self._fd)
            self._fd = -1
            raise NotARegularFile(f"{file_kind(mode)}, not a regular file")
        os.set_blocking(self._fd, True)

    def write(self, record: TraceRecord) -> None:
        """Append one record as one whole line, or raise TraceWriteError having written nothing.

        A write the file takes only part of (a full disk, a file size limit) is finished or, when
        the rest cannot be written, cut back off, so the file never ends in half a line.
        """
        raw = record.to_json()
        document = redact(raw, self._secrets | named_secrets(raw))
        # Redaction must not rename the fields themselves; only argument and content values change.
        document["tool"], document["server"] = record.tool, record.server
        data = strict_json_line(document)
        with self._lock:
            if self._fd < 0:
                raise TraceWriteError(f"{self.path}: the trace file is closed")
            start: int | None = None
            view = memoryview(data)
            try:
                while view:
                    written = os.write(self._fd, view)
                    if written == len(view):
                        return
                    if start is None:
                        # Where this line began: the end of the file before it, less what went.
                        start = os.fstat(self._fd).st_size - written
                    view = view[written:]
            except OSError as error:
                if start is not None:
                    with contextlib.suppress(OSError):
                        os.ftruncate(self._fd, start)
                raise TraceWriteError(f"{self.path}: {error.strerror or error}") from None

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
