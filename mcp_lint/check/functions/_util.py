"""Helpers shared by the check function modules (no rules live here)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mcp_lint.lazyre import lazy
from mcp_lint.model import Tool
from mcp_lint.words import name_words as name_words  # the identifier splitter the rules share

EVIDENCE_LIMIT = 120
# Keywords whose values are data, not schemas: a "description" key inside them describes nothing.
_VALUE_KEYS = frozenset({"enum", "const", "default", "examples"})


def trim(text: str, limit: int = EVIDENCE_LIMIT) -> str:
    """One line of at most `limit` characters, for evidence."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def snippet(text: str, start: int, end: int, limit: int = EVIDENCE_LIMIT) -> str:
    """The span text[start:end] with some context around it, trimmed to `limit` characters."""
    span = end - start
    pad = max(0, (limit - span) // 2)
    left = max(0, start - pad)
    right = min(len(text), end + pad)
    prefix = "…" if left > 0 else ""
    suffix = "…" if right < len(text) else ""
    return trim(prefix + text[left:right] + suffix, limit + 2)


def schema_texts(schema: Any, path: str = "inputSchema") -> list[tuple[str, str]]:
    """Every `description` and `title` string anywhere in a JSON Schema, with its dotted path."""
    # An explicit stack rather than recursive generators: this runs for every tool in several rules.
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(schema, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                if isinstance(value, str):
                    if key == "description" or key == "title":
                        found.append((f"{where}.{key}", value))
                elif isinstance(value, (Mapping, list)) and key not in _VALUE_KEYS:
                    stack.append((value, f"{where}.{key}"))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                if isinstance(item, (Mapping, list)):
                    stack.append((item, f"{where}[{index}]"))
    found.sort()
    return found


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _is_container(value: Any) -> bool:
    """A list or a mapping; the common JSON types are answered before the slower ABC check."""
    if isinstance(value, (dict, list)):
        return True
    return type(value) not in _SCALARS and isinstance(value, Mapping)


def all_texts(tool: Tool) -> list[str]:
    """A superset of `tool`'s name, description, title, parameter names and schema texts, fast.

    For prefilters: a rule that only fires on something in these texts can skip a tool when the
    joined list lacks it, before the exact, path-aware walk of `schema_texts`.
    """
    found = [tool.name, tool.description, tool.title or ""]
    found.extend(name for name in tool.properties if isinstance(name, str))
    schema = tool.input_schema
    stack: list[Any] = [schema] if _is_container(schema) else []
    while stack:
        node = stack.pop()
        if type(node) is list or isinstance(node, list):
            stack.extend(item for item in node if _is_container(item))
            continue
        for key, value in node.items():
            kind = type(value)
            if kind is str:
                if key == "description" or key == "title":
                    found.append(value)
            elif kind is dict or kind is list or (kind not in _SCALARS and _is_container(value)):
                stack.append(value)
            elif isinstance(value, str) and (key == "description" or key == "title"):
                found.append(value)
    return found


# Chinese, Japanese and Korean scripts: no spaces between words, so every run of them becomes its
# character bigrams ("查询菜谱" -> 查询, 询菜, 菜谱), the usual word-free tokenization for CJK search.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKENS = lazy(f"[a-z0-9]+|[{_CJK}]+")
# ASCII text, the usual case, splits into the same words several times faster with translate().
_NOT_WORD = str.maketrans(
    {chr(code): " " for code in range(128) if not chr(code).isalnum() or chr(code).isupper()}
)


def text_tokens(text: str) -> list[str]:
    """Lower-cased runs of a-z and 0-9 in `text`, plus the character bigrams of CJK runs, in order.

    Not the offline jury's `features.tokens` (one token per CJK character, apostrophes and non-ASCII
    letters kept): its weights were fitted on those tokens, and they differ on 63 of the 408
    calibration descriptions, so one tokenizer for both would change the jury's features.

    Shared by every rule that compares words, so that a Chinese description is never an empty set
    of words that matches every other one.
    """
    lowered = text.lower()
    if lowered.isascii():
        return lowered.translate(_NOT_WORD).split()
    found: list[str] = []
    for token in _TOKENS.findall(lowered):
        if token[0] < "\u0080" or len(token) == 1:
            found.append(token)
        else:
            found.extend(token[index : index + 2] for index in range(len(token) - 1))
    return found


_PLACEHOLDERS = frozenset(
    {
        "",
        "no description",
        "no description provided",
        "no description available",
        "description",
        "todo",
        "tbd",
        "n a",
        "none",
        "null",
        "undefined",
        "placeholder",
        "tool description",
    }
)


def is_placeholder(text: str) -> bool:
    """A description that says nothing at all: empty, or a stand-in such as "No description"."""
    return len(text) < 40 and " ".join(text_tokens(text)) in _PLACEHOLDERS


def words(text: str) -> list[str]:
    """Whitespace-separated words: keeps long vocabulary lists readable in the source."""
    return text.split()


def server_prefix(tool_names: Sequence[str]) -> str | None:
    """The first word most of a server's tools share (`confluence` of `confluence_get_page`), if any:
    at least two tools and half of them, each of three words or more."""
    firsts = Counter(parts[0] for parts in map(name_words, tool_names) if len(parts) >= 3)
    if not firsts:
        return None
    word, count = firsts.most_common(1)[0]
    return word if count >= 2 and count * 2 >= len(tool_names) else None
