"""The other tools of a server, as each tool's judge sees them: one shared list, not a copy per tool.

A server with n tools gives each of them the n - 1 others. A sorted copy per tool is n² names (5,000
tools: 25 million references; 50,000 tools: more memory than a CI runner has), so each tool gets a
view over one sorted tuple per server instead. The offline jury's "nothing tells it apart from
similar tools" reason (sibling names that share a word of three letters or more) is answered from
an inverted index over that tuple, built once per server, so a tool costs what its own words cost
instead of a pass over every sibling.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar, cast, overload

_NAME_SEP = re.compile(r"[^a-z0-9]+")
# A word in more names than this is answered from a cached union; rarer words are merged per tool.
_COMMON_WORD = 64
_NO_WORDS: frozenset[str] = frozenset()
_T = TypeVar("_T")


def alike_words(name: str) -> frozenset[str]:
    """The words of a tool name that can make two names look alike: three letters or more.

    Not `mcp_lint.words.name_words`: this one does not split camelCase, and the offline jury's weights
    were fitted with it, so changing it is a refit (and a new agreement figure), not a clean-up."""
    return frozenset([word for word in _NAME_SEP.split(name.lower()) if len(word) > 2])  # (one frame)


class ServerNames:
    """The distinct tool names of one server, sorted, and an index of their words built on first use."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names: tuple[str, ...] = tuple(sorted(set(names)))
        self._index: _WordIndex | None = None
        self._derived: dict[Callable[[tuple[str, ...]], object], object] = {}

    def without(self, name: str) -> SiblingNames:
        return SiblingNames(self, name)

    def index(self) -> _WordIndex:
        if self._index is None:
            self._index = _WordIndex(self.names)
        return self._index

    def derived(self, build: Callable[[tuple[str, ...]], _T]) -> _T:
        """`build(self.names)`, made on first use and kept: data about the whole server that every
        tool's judge reads (the offline jury's domain nouns), built once instead of once per tool."""
        if build not in self._derived:
            self._derived[build] = build(self.names)
        return cast(_T, self._derived[build])


class SiblingNames(Sequence[str]):
    """Every name of the server but one, sorted: a view, so n tools share one tuple."""

    def __init__(self, server: ServerNames, name: str) -> None:
        self.server = server
        self.name = name
        names = server.names
        position = bisect.bisect_left(names, name)
        self._skip = position if position < len(names) and names[position] == name else len(names)

    def __len__(self) -> int:
        return len(self.server.names) - (self._skip < len(self.server.names))

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[position] for position in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("sibling index out of range")
        return self.server.names[index + (index >= self._skip)]

    def __iter__(self) -> Iterator[str]:
        names = self.server.names
        return itertools.chain(names[: self._skip], names[self._skip + 1 :])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SiblingNames):
            return self.server.names == other.server.names and self._skip == other._skip
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"SiblingNames({len(self)} names without {self.name!r})"


class SimilarNames(Sequence[str]):
    """The sibling names that share a word with one tool's name, sorted; counted exactly, listed lazily.

    A reason shows a few of them and the count, so only those few are merged out of the index.
    """

    def __init__(self, index: _WordIndex, words: frozenset[str], own: int, count: int) -> None:
        self._index = index
        self._words = words
        self._own = own
        self._count = count

    def __len__(self) -> int:
        return self._count

    def _positions(self) -> Iterator[int]:
        postings = [self._index.postings[word] for word in sorted(self._words)]
        previous = -1
        for position in heapq.merge(*postings):
            if position != previous and position != self._own:
                yield position
            previous = position

    def _first(self, n: int) -> list[int]:
        """The first `n` positions of `_positions()`, without merging every list: each posting list
        ascends and holds a position once, so its first n + 1 entries hold its n smallest other than
        the tool's own, and the n smallest of the union are among those."""
        postings = self._index.postings
        found: set[int] = set()
        for word in self._words:
            found.update(postings[word][: n + 1])
        found.discard(self._own)
        return sorted(found)[:n]

    def __iter__(self) -> Iterator[str]:
        names = self._index.names
        return (names[position] for position in self._positions())

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        names = self._index.names
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step < 0:
                return tuple(itertools.islice(iter(self), start, stop, step))  # raises, as islice does
            return tuple(map(names.__getitem__, self._first(stop)[start:stop:step]))
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("similar name index out of range")
        return names[self._first(index + 1)[index]]

    def __repr__(self) -> str:
        return f"SimilarNames({self._count} names)"


class _WordIndex:
    """Word -> ascending positions of the names holding it (positions ascend as the names sort)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.words = [alike_words(name) for name in names]
        self.postings: dict[str, list[int]] = {}
        for position, words in enumerate(self.words):
            for word in words:
                self.postings.setdefault(word, []).append(position)
        # How many names hold at least one of a set of common words: shared by the many tools that
        # carry the same common words ("get", "list", the server's prefix).
        self._common_unions: dict[frozenset[str], int] = {}

    def similar(self, name: str) -> SimilarNames:
        position = bisect.bisect_left(self.names, name)
        if position == len(self.names) or self.names[position] != name:
            raise KeyError(name)
        words = self.words[position]
        postings = self.postings
        # (no word is common in a server of at most _COMMON_WORD names: the test is skipped)
        common = (
            frozenset(word for word in words if len(postings[word]) > _COMMON_WORD)
            if len(self.names) > _COMMON_WORD
            else _NO_WORDS
        )
        if common:
            count = self._common_union(common)
            rare = [postings[word] for word in words - common]
            # A name found through a rare word counts unless a common word already counted it.
            count += sum(1 for other in set().union(*rare) if not self.words[other] & common)
        else:  # (a server of fewer names than a common word's count has only rare words)
            count = len(set().union(*map(postings.__getitem__, words)))
        return SimilarNames(self, words, position, count - (1 if words else 0))

    def _common_union(self, common: frozenset[str]) -> int:
        if len(common) < 2:
            return sum(len(self.postings[word]) for word in common)
        size = self._common_unions.get(common)
        if size is None:
            size = self._common_unions[common] = len(set().union(*(self.postings[word] for word in common)))
        return size


def similar_names(name: str, siblings: Sequence[str]) -> Sequence[str]:
    """The siblings that share a word with `name`, sorted (from the index when given a server's view)."""
    # (the type first: `isinstance` of an ABC's subclass runs the ABC's Python-level check)
    if (type(siblings) is SiblingNames or isinstance(siblings, SiblingNames)) and siblings.name == name:
        return siblings.server.index().similar(name)
    mine = alike_words(name)
    return sorted(sibling for sibling in siblings if sibling != name and mine & alike_words(sibling))
