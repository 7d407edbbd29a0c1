"""Module-level regexes compiled when first used, not when their module is imported.

Every lint imports every rule module and the offline jury, but a server's texts reach only some of
their patterns (a tool without a parameters section never needs the section parsers), and `re`
compiles each pattern in Python: tens of milliseconds of start-up for patterns most lints never
search with. `lazy(source, flags)` stands in for `re.compile(source, flags)` at module level: the
first attribute read (`search`, `match`, `pattern`, ...) compiles the pattern and copies the
compiled pattern's methods onto the stand-in, so later calls cost what calls on the compiled
pattern cost. Passing the stand-in to a function of `re` (`re.search(pattern, text)`) or to
`isinstance(..., re.Pattern)` is not supported: call its methods.
"""

from __future__ import annotations

import re
from typing import Any, cast, overload

# What a first read copies from the compiled pattern onto the stand-in (every public attribute of
# `re.Pattern`), so that no later read goes through `__getattr__`.
_COPIED = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "split",
    "sub",
    "subn",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _Lazy:
    """A pattern's source and flags until an attribute is first read, then the compiled pattern's
    methods and attributes as its own."""

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # reached only for attributes not yet copied: compile once and copy them all
        compiled = re.compile(self._source, self._flags)
        for attribute in _COPIED:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


@overload
def lazy(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]: ...
@overload
def lazy(source: bytes, flags: int | re.RegexFlag = 0) -> re.Pattern[bytes]: ...
def lazy(source: str | bytes, flags: int | re.RegexFlag = 0) -> re.Pattern[str] | re.Pattern[bytes]:
    """`re.compile(source, flags)`, done when the pattern is first used (see the module's docstring
    for the one limit: methods only, not `re`'s functions)."""
    return cast("re.Pattern[str] | re.Pattern[bytes]", _Lazy(source, int(flags)))


def source_of(pattern: re.Pattern[str]) -> tuple[str, int]:
    """(source, flags) of `pattern` as `re.compile` reports them (`flags` with `re.UNICODE` added, as
    for any str pattern without `re.ASCII`), for a lazy stand-in without compiling it."""
    if isinstance(pattern, _Lazy):
        source, flags = pattern._source, pattern._flags
        assert isinstance(source, str)  # (a str pattern's stand-in)
        return source, int(flags if flags & re.ASCII else flags | re.UNICODE)
    return pattern.pattern, int(pattern.flags)
