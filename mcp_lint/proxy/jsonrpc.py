"""JSON-RPC messages as the proxy sees them: parsed only to be looked at, forwarded as the bytes that came.

The proxy never validates a message against the SDK's models: a payload the SDK would reject (a
schema without "type", a tool named with spaces, a method of a protocol revision newer than ours)
must reach the other side exactly as it was sent, or the proxy would change what it was put in
front of to observe.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

# One message larger than this is refused rather than buffered without end (the linter's own cap).
from mcp_lint.reflect.stdio import MAX_MESSAGE_BYTES

__all__ = [
    "MAX_MESSAGE_BYTES",
    "Frame",
    "LineSplitter",
    "MessageTooLarge",
    "dump_json",
    "id_key",
    "id_keys",
    "is_notification",
    "is_request",
    "is_response",
]


@dataclass(frozen=True)
class Frame:
    """One line of the wire: a message or a batch (a JSON array of messages)."""

    raw: bytes
    data: Any = None  # the parsed JSON; None when the line is not JSON at all
    too_deep: bool = False  # JSON nested deeper than Python's parser goes: not read, still JSON
    own: bool = False  # written by the proxy itself (it could not reach the server): no answer of the tool's

    @classmethod
    def parse(cls, raw: bytes) -> Frame:
        try:
            return cls(raw, json.loads(raw, parse_float=_number, parse_constant=_constant))
        except RecursionError:
            return cls(raw, too_deep=True)
        except ValueError:
            return cls(raw)

    @classmethod
    def encode(cls, data: Any) -> Frame:
        """`data` as one line of strict JSON: compact and not ASCII-escaped, the way SDK transports
        write messages (ASCII-escaped only when a lone surrogate cannot be UTF-8)."""
        return cls(dump_json(data), data)

    @property
    def line(self) -> bytes:
        """The frame as one line for a line-delimited stream (stdio): a pretty-printed message from an
        event stream loses its line breaks, which JSON allows only between tokens, never inside one."""
        if b"\n" not in self.raw and b"\r" not in self.raw:
            return self.raw
        return self.raw.replace(b"\r", b" ").replace(b"\n", b" ")

    @property
    def looks_like_json(self) -> bool:
        """A JSON object or array (a log line such as "[INFO] ..." is neither, though it starts like one)."""
        return isinstance(self.data, dict | list) or self.too_deep

    @property
    def is_json_rpc(self) -> bool:
        return any(True for _ in self.messages())

    def messages(self) -> Iterator[dict[str, Any]]:
        """The JSON-RPC objects of this frame: itself, or each object of a batch."""
        items = self.data if isinstance(self.data, list) else [self.data]
        for item in items:
            if isinstance(item, dict) and item.get("jsonrpc") == "2.0":
                yield item


# A number too large for a float (1e400) is kept as its digits: rebuilt as a float it would come
# out as Infinity, which is not JSON. The mark is random per process, so no string a server sends
# can be taken for it.
_NUMBER_MARK = f"\x00mcp-lint-number-{secrets.token_hex(8)}:"
_MARKED_NUMBER = re.compile(re.escape(json.dumps(_NUMBER_MARK)[:-1]) + r'([-+0-9.eE]+)"')


def _number(text: str) -> float | Decimal:
    value = float(text)
    return value if math.isfinite(value) else Decimal(text)


def _constant(name: str) -> None:
    # NaN and Infinity are not JSON (Python's parser accepts them): read as null, never written back.
    return None


def _default(value: Any) -> Any:
    if isinstance(value, Decimal) and value.is_finite():
        return f"{_NUMBER_MARK}{value}"
    raise TypeError(f"{type(value).__name__} is not JSON")


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def dump_json(data: Any) -> bytes:
    """Strict, compact JSON in UTF-8 (no NaN or Infinity; huge numbers as they were read)."""
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_default)
    except ValueError:
        return dump_json(_finite(data))
    if _NUMBER_MARK[1:] in text:
        text = _MARKED_NUMBER.sub(r"\1", text)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        escaped = json.dumps(data, separators=(",", ":"), allow_nan=False, default=_default)
        return _MARKED_NUMBER.sub(r"\1", escaped).encode("ascii")


def is_request(message: dict[str, Any]) -> bool:
    return isinstance(message.get("method"), str) and "id" in message


def is_notification(message: dict[str, Any]) -> bool:
    return isinstance(message.get("method"), str) and "id" not in message


def is_response(message: dict[str, Any]) -> bool:
    return "method" not in message and "id" in message and ("result" in message or "error" in message)


def id_key(value: Any) -> str:
    """A request id as a dictionary key that keeps 1 and "1" apart."""
    return json.dumps(value, sort_keys=True)


def id_keys(value: Any) -> tuple[str, ...]:
    """The keys a response id may answer: its own, then the other spelling of a numeric id.

    The SDKs correlate "1" with 1 on purpose (a server answering a stringified id works with every
    real client), so the proxy must recognise such an answer as the one it was waiting for.
    """
    keys = [id_key(value)]
    if isinstance(value, str) and value.lstrip("-").isdigit():
        keys.append(id_key(int(value)))
    elif isinstance(value, int) and not isinstance(value, bool):
        keys.append(id_key(str(value)))
    return tuple(keys)


class MessageTooLarge(Exception):
    """A line grew past MAX_MESSAGE_BYTES without a newline."""


class LineSplitter:
    """Bytes in, complete lines out; a line longer than `limit` raises instead of growing forever."""

    def __init__(self, limit: int = MAX_MESSAGE_BYTES) -> None:
        self._buffer = bytearray()
        self._limit = limit

    def feed(self, chunk: bytes) -> list[bytes]:
        self._buffer += chunk
        lines: list[bytes] = []
        while (newline := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[:newline]).rstrip(b"\r")
            del self._buffer[: newline + 1]
            if line.strip():
                lines.append(line)
        if len(self._buffer) > self._limit:
            raise MessageTooLarge(
                f"a message larger than {self._limit // (1024 * 1024)} MiB without a newline"
            )
        return lines

    def rest(self) -> list[bytes]:
        """What is left when the stream ends: a last line without its newline."""
        line = bytes(self._buffer).strip()
        self._buffer.clear()
        return [line] if line else []
