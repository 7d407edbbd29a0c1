"""JSON-RPC messages as the proxy sees them: parsed only to be looked at, forwarded as the bytes that came.

The proxy never validates a message against the SDK's models: a payload the SDK would reject (a
schema without "type", a tool named with spaces, a method of a protocol revision newer than ours)
must reach the other side exactly as it was sent, or the proxy would change what it was put in
front of to observe.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# One message larger than this is refused rather than buffered without end (the linter's own cap).
from mcp_lint.reflect.stdio import MAX_MESSAGE_BYTES

__all__ = [
    "MAX_MESSAGE_BYTES",
    "Frame",
    "LineSplitter",
    "MessageTooLarge",
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
            return cls(raw, json.loads(raw))
        except RecursionError:
            return cls(raw, too_deep=True)
        except ValueError:
            return cls(raw)

    @classmethod
    def encode(cls, data: Any) -> Frame:
        # Compact and not ASCII-escaped, the way SDK transports write messages.
        return cls(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), data)

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
