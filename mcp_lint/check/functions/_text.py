"""One text analysis per tool, computed once per check run and shared by every rule that reads text.

Several rules tokenize the same description, join the same schema texts or split the same
sentences; with 10,000 tools that repeated work costs more than the rules themselves. `analysis`
returns a `ToolText` whose parts are computed on first use and then reused by the other rules.

The cache is keyed by `id(tool)` and holds the tool itself, so an id cannot be reused for another
tool while its entry lives. The engine empties it after each server (`clear_cache`); direct
callers (tests, benchmarks) may leave it, and it empties itself past `_MAX_ENTRIES`. Tools are
frozen, but their `raw` mapping is not: a caller that mutates one between runs must clear the cache.
"""

from __future__ import annotations

from mcp_lint.check.functions._util import all_texts, is_placeholder, text_tokens
from mcp_lint.model import Tool

_MAX_ENTRIES = 200_000


class ToolText:
    """What the text rules read about one tool; every part is computed on first use."""

    __slots__ = (
        "_blob",
        "_joined",
        "_lowered",
        "_placeholder",
        "_shingles",
        "_tokens",
        "_words",
        "description",
        "tool",
    )

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self.description = tool.description
        self._tokens: list[str] | None = None
        self._words: frozenset[str] | None = None
        self._lowered: str | None = None
        self._joined: str | None = None
        self._blob: str | None = None
        self._placeholder: bool | None = None
        self._shingles: frozenset[int] | None = None

    @property
    def tokens(self) -> list[str]:
        """`text_tokens(description)`: lower-cased words, CJK runs as character bigrams."""
        if self._tokens is None:
            self._tokens = text_tokens(self.description)
        return self._tokens

    @property
    def words(self) -> frozenset[str]:
        """The set of `tokens`."""
        if self._words is None:
            self._words = frozenset(self.tokens)
        return self._words

    @property
    def lowered(self) -> str:
        """The description, lower-cased."""
        if self._lowered is None:
            self._lowered = self.description.lower()
        return self._lowered

    @property
    def joined(self) -> str:
        """`all_texts(tool)` joined by newlines: name, description, title, parameter names, schema texts."""
        if self._joined is None:
            self._joined = "\n".join(all_texts(self.tool))
        return self._joined

    @property
    def blob(self) -> str:
        """`joined`, lower-cased: for substring prefilters."""
        if self._blob is None:
            self._blob = self.joined.lower()
        return self._blob

    @property
    def placeholder(self) -> bool:
        """`is_placeholder(description)`."""
        if self._placeholder is None:
            self._placeholder = is_placeholder(self.description)
        return self._placeholder

    @property
    def shingles(self) -> frozenset[int]:
        """Hashes of the description's word 3-grams; under six words, of its single words (MCP403)."""
        if self._shingles is None:
            self._shingles = shingle_hashes(self.tokens)
        return self._shingles


def shingle_hashes(found: list[str]) -> frozenset[int]:
    """Hashes of the word 3-grams of `found`; under six words, of its single words."""
    if len(found) < 6:
        return frozenset(map(hash, found))
    return frozenset(map(hash, zip(found, found[1:], found[2:], strict=False)))


_cache: dict[int, tuple[Tool, ToolText]] = {}


def analysis(tool: Tool) -> ToolText:
    """The shared `ToolText` of `tool`, built on first request in this run."""
    entry = _cache.get(id(tool))
    if entry is not None and entry[0] is tool:
        return entry[1]
    if len(_cache) >= _MAX_ENTRIES:
        _cache.clear()
    text = ToolText(tool)
    _cache[id(tool)] = (tool, text)
    return text


def clear_cache() -> None:
    """Forget every analysis: the engine calls this after each server, benchmarks before each cold run."""
    _cache.clear()
