"""What the features read from a tool's input schema: its property names (and where the prose
names them: `_mentioned`, `_inline_entries`), the texts it vouches for (`_schema_texts`, the
specificity anchors), and its parameter docs rendered as prose (`schema_as_prose`)."""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeGuard

from mcp_lint.jury.features.lexicon import IDENT
from mcp_lint.jury.features.unitmemo import Memo
from mcp_lint.lazyre import lazy
from mcp_lint.words import name_words

# (dict, Mapping): a JSON object is a dict, which `isinstance` recognises at once; the Mapping ABC
# check alone is several times slower
_MAPPING = (dict, Mapping)


def schema_properties(schema: Any) -> dict[str, Mapping[str, Any]]:
    if not isinstance(schema, _MAPPING):
        return {}
    props = schema.get("properties")
    if not isinstance(props, _MAPPING):
        return {}
    return {str(k): (v if isinstance(v, _MAPPING) else {}) for k, v in props.items()}


def schema_required(schema: Any) -> set[str]:
    if not isinstance(schema, _MAPPING):
        return set()
    req = schema.get("required")
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


# A property name's words spaced out (`userId` -> "user id"), once per distinct name: the same names
# recur across a server's tools, and each tool reads its own twice (`_PropNames`, `_schema_texts`).
_SPACED: Memo[str] = Memo(lambda name: " ".join(name_words(name)))


def _name_variants(name: str) -> set[str]:
    """A property name as written (lower-cased) and as its words spaced out (`userId` -> user id)."""
    return {name.lower(), _SPACED[name]}


_INLINE_ENTRY = re.compile(
    r"(?<![A-Za-z0-9_])`?([A-Za-z_][A-Za-z0-9_]*)`?(?=\s*(?:\([^)]{0,40}\))?\s*[:=–—]\s*\w)"
)
_ALNUM = lazy(r"[a-z0-9]+")

# Finding a name where it occurs instead of listing every identifier or entry of the text.
#
# `IDENT.findall(text)` and `_INLINE_ENTRY.finditer(text)` cost a scan of the whole text per call,
# yet they are only asked about a few names. Their matches are ASCII identifiers, so one that
# equals a name (lower-cased) is an occurrence of the name in `low = text.lower()`; when `low` has
# the length of `text` (no character lower-cases to two, as "İ" does), it is at the same offset in
# `text`. The helpers below test just those offsets, with the same regexes, and fall back to the
# full scan for the rare text whose offsets differ.
_IDENT_NAME = re.compile(r"[a-z_][a-z0-9_]*")  # what an identifier lower-cased looks like
_ASCII_DIGITS = frozenset("0123456789")
_IDENT_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_ALNUM_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_NEXT_ALNUM = re.compile(r"[^a-z0-9]*([a-z0-9]+)")


def _is_ident(text: str, low: str, name: str) -> bool:
    """`name in {m.lower() for m in IDENT.findall(text)}`, `low` being `text.lower()` of the same
    length and `name` an `_IDENT_NAME`. `findall` takes a maximal run of identifier characters from
    its first letter or underscore on, so the run at an occurrence must end there and have only
    digits (if anything) before it."""
    match = IDENT.match
    size = len(name)
    i = low.find(name)
    while i >= 0:
        m = match(text, i)
        if m is not None and m.end() == i + size:
            k = i
            while k and text[k - 1] in _ASCII_DIGITS:
                k -= 1
            if not k or text[k - 1] not in _IDENT_FIRST:
                return True
        i = low.find(name, i + 1)
    return False


def _spaced_in(low: str, words: Sequence[str]) -> bool:
    """`f" {' '.join(words)} "` in `" " + " ".join(_ALNUM.findall(low)) + " "` for words of
    `[a-z0-9]+`: the words are consecutive maximal runs of `[a-z0-9]` in `low`."""
    first = words[0]
    after = _NEXT_ALNUM.match
    i = low.find(first)
    while i >= 0:
        end = i + len(first)
        if (not i or low[i - 1] not in _ALNUM_CHARS) and (end == len(low) or low[end] not in _ALNUM_CHARS):
            for word in words[1:]:
                m = after(low, end)
                if m is None or m.group(1) != word:
                    break
                end = m.end()
            else:
                return True
        i = low.find(first, i + 1)
    return False


def _name_forms(name: str) -> tuple[str, str, tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """What `_PropNames` keeps of one property name (see there): lower-cased; the same again when an
    `_INLINE_ENTRY` match can introduce it, else ""; its identifier-shaped variants; its spaced
    variants as their words."""
    low = name.lower()
    spaced = _SPACED[name]
    idents: list[str] = []
    words: list[tuple[str, ...]] = []
    # (the variants are lower-cased, so an ASCII identifier is an `_IDENT_NAME` and an ASCII
    # alphanumeric word an `_ALNUM` run: string methods instead of a regex call each)
    for v in (low,) if spaced == low else (low, spaced):  # `_name_variants(name)`
        if " " in v:
            split = v.split(" ")
            # every word ASCII letters and digits: their concatenation is, and no word is empty
            # (one test of the joined words instead of a generator over them)
            joined = "".join(split)
            if "" not in split and joined.isascii() and joined.isalnum():
                words.append(tuple(split))
        elif v.isascii() and v.isidentifier():
            idents.append(v)
    return low, low if low.isascii() and low.isidentifier() else "", tuple(idents), tuple(words)


# `_name_forms` once per distinct property name: the same names recur across a server's tools
# ("query", "limit", "owner"), and the propose stage's candidates share their tool's.
_NAME_FORMS = Memo(_name_forms)


class _PropNames(NamedTuple):
    """A tool's property names, prepared once for the look-ups of every segment: lower-cased; the
    variants (`_name_variants`) `_mentioned` can find at all - identifier-shaped ones, and spaced ones
    as their `[a-z0-9]+` words (any other variant is in neither `IDENT.findall`, lower-cased, nor the
    runs of `[a-z0-9]`, so it never matches); and `entry_names`, the lower-cased names an
    `_INLINE_ENTRY` match can introduce at all: those shaped as `_IDENT_NAME`, in order."""

    names: tuple[str, ...]
    lowers: tuple[str, ...]
    idents: tuple[tuple[str, ...], ...]
    spaced: tuple[tuple[tuple[str, ...], ...], ...]
    entry_names: tuple[str, ...]

    @classmethod
    def of(cls, names: Sequence[str]) -> _PropNames:
        if not names:
            return _NO_NAMES
        # (each name's forms from the memo, then the four columns by one transposition in C)
        lowers, entries, idents, spaced = zip(*map(_NAME_FORMS.__getitem__, names), strict=True)
        return cls(tuple(names), lowers, idents, spaced, tuple(filter(None, entries)))


_NO_NAMES = _PropNames((), (), (), (), ())


def _mentioned(text: str, low: str, props: _PropNames, known: Container[str] = ()) -> set[str]:
    """The property names that appear in `text` as an identifier or as spaced words (`userId` as
    userId or "user id"), `low` being `text.lower()`. `known`: words already known to be identifiers
    of the text, lower-cased (`_segment` passes its parameter lines' names), found without a look."""
    aligned = len(low) == len(text)
    idents_of_text: set[str] | None = None
    found: set[str] = set()
    for name, idents, spaced in zip(props.names, props.idents, props.spaced, strict=True):
        for variant in idents:
            if variant in known:
                found.add(name)
                break
            if variant not in low:
                continue  # not an identifier of the text, lower-cased
            if aligned:
                hit = _is_ident(text, low, variant)
            else:
                if idents_of_text is None:
                    idents_of_text = {m.lower() for m in IDENT.findall(text)}
                hit = variant in idents_of_text
            if hit:
                found.add(name)
                break
        else:
            for words in spaced:  # (a loop, not `any` over a generator: most names have one)
                # (the first word looked for before the call: it is absent for most names asked)
                if words[0] in low and _spaced_in(low, words):
                    found.add(name)
                    break
    return found


def _inline_entries(text: str, low: str, names: Iterable[str]) -> set[str]:
    """The lower-cased `names` some `_INLINE_ENTRY` match in `text` introduces (its group 1,
    lower-cased, is the name), `low` being `text.lower()`. A match whose identifier is preceded by
    a backtick has a twin that starts at the identifier itself, so trying the occurrences of the
    name is enough."""
    if len(low) != len(text):
        entries = {m.group(1).lower() for m in _INLINE_ENTRY.finditer(text)}
        return {n for n in names if n in entries}
    match = _INLINE_ENTRY.match
    found: set[str] = set()
    for name in names:
        if not _IDENT_NAME.fullmatch(name):
            continue
        i = low.find(name)
        while i >= 0:
            m = match(text, i)
            if m is not None and m.group(1).lower() == name:
                found.add(name)
                break
            i = low.find(name, i + 1)
    return found


def schema_as_prose(schema: Any) -> str:
    """Render the schema's own parameter documentation as an "Args:" section.

    The calibration judges never saw the schema, so the model learns parameter quality from prose.
    At runtime we also want credit for parameters documented in the schema; rendering them the way
    a well-documented docstring would ("name (type, required): description. Default: x. One of:
    a, b.") lets the *same* prose-trained model score that evidence. Only fields that carry real
    information are rendered: a property without description/enum/default/format adds just its name.
    """
    return schema_params(schema)[2]


_BOUNDS = ("minimum", "maximum", "minLength", "maxLength", "maxItems")
# what a property's line renders besides its description
_RENDERED = frozenset(("format", "enum", "default", *_BOUNDS))
_NONE: frozenset[str] = frozenset()


def schema_params(schema: Any) -> tuple[tuple[str, ...], frozenset[str], str]:
    """What a verdict reads of the schema's properties, in one walk over them: their names
    (`tuple(schema_properties(schema))`), the names documented in the schema itself (a description
    that is not blank, an enum, a default or a format: what the parameters reason counts as
    documented there) and `schema_as_prose(schema)` (see there)."""
    if not isinstance(schema, _MAPPING):
        return (), _NONE, ""
    props = schema.get("properties")
    if not isinstance(props, _MAPPING) or not props:
        return (), _NONE, ""
    names: list[str] = []
    documented: list[str] = []
    lines = ["Args:"]
    required: set[str] | None = None
    for key, spec in props.items():
        if type(key) is not str:  # (not from JSON: `str` of two keys can be one name)
            return _params_of(schema_properties(schema), schema)
        names.append(key)
        if not isinstance(spec, _MAPPING):
            continue  # (read as {}: nothing documented, nothing rendered)
        desc = spec.get("description")
        # (whitespace-split words join to "" exactly when `desc.strip()` is "")
        text = " ".join(desc.split()) if isinstance(desc, str) else ""
        if type(spec) is dict and _RENDERED.isdisjoint(spec):
            # (most specs: nothing rendered but the description, found by one test in C of the keys
            # instead of the look-ups below)
            if not text:
                continue
            documented.append(key)
            body = text
        else:
            parts = [text] if text else []
            if parts or "enum" in spec or "default" in spec or "format" in spec:
                documented.append(key)
            fmt = spec.get("format")
            if isinstance(fmt, str):
                parts.append(f"Format: {fmt}.")
            enum = spec.get("enum")
            if isinstance(enum, list) and enum:
                parts.append("One of: " + ", ".join(str(e) for e in enum[:12]) + ".")
            if "default" in spec:
                parts.append(f"Defaults to {spec.get('default')!r}.")
            for bound in _BOUNDS:
                if bound in spec:
                    parts.append(f"{bound}: {spec.get(bound)}.")
            if not parts:
                continue
            body = " ".join(parts)
        typ = spec.get("type")
        if required is None:
            required = schema_required(schema)
        need = "required" if key in required else "optional"
        lines.append(f"    {key} ({typ + ', ' + need if isinstance(typ, str) else need}): {body}")
    return tuple(names), frozenset(documented), "\n".join(lines) if len(lines) > 1 else ""


def _params_of(
    props: dict[str, Mapping[str, Any]], schema: Any
) -> tuple[tuple[str, ...], frozenset[str], str]:
    """`schema_params` of a schema whose properties are `props` (its keys as `str`)."""
    return schema_params({"properties": props, "required": schema.get("required")})


def _schema_texts(schema: Any, depth: int = 0) -> list[str]:
    """Property names, descriptions, titles and enum values of a schema, nested ones included, in
    the order of a depth-first walk."""
    out: list[str] = []
    if _is_node(schema, depth):
        _collect_texts(schema, depth, out)
    return out


# the keys `_collect_texts` reads past a node's title and description ...
_BELOW_KEYS = frozenset(("enum", "properties", "items", "additionalProperties", "anyOf", "oneOf", "allOf"))
# ... and those past its enum and properties, which most nodes with something below have none of
_NESTED_KEYS = frozenset(("items", "additionalProperties", "anyOf", "oneOf", "allOf"))


def _is_node(value: Any, depth: int) -> TypeGuard[Mapping[str, Any]]:
    """The walk goes into `value`: a mapping no deeper than 6. (None, what an absent key gives,
    first: `isinstance` against the Mapping ABC is slow for what is not a dict.)"""
    return value is not None and depth <= 6 and isinstance(value, _MAPPING)


def _collect_texts(schema: Mapping[str, Any], depth: int, out: list[str]) -> None:
    """`_schema_texts` of a node the walk goes into (`_is_node`), appended to `out` (one list for the
    whole walk, not a generator per level)."""
    if depth:
        value = schema.get("title")
        if isinstance(value, str):
            out.append(value)
        value = schema.get("description")
        if isinstance(value, str):
            out.append(value)
        # (most nodes below the top are leaves, `{"type": ..., "description": ...}`: a dict none of
        # whose keys is read below has nothing more to give, found by one test in C)
        if type(schema) is dict and _BELOW_KEYS.isdisjoint(schema):
            return
    enum = schema.get("enum")
    if isinstance(enum, list):
        out.append(" ".join(str(e) for e in enum[:50]))
    below = depth + 1
    props = schema.get("properties")
    if isinstance(props, _MAPPING):
        deeper = below <= 6
        for name, spec in props.items():
            out.append(_SPACED[str(name)])
            if deeper and spec is not None and isinstance(spec, _MAPPING):  # `_is_node(spec, below)`
                _collect_texts(spec, below, out)
    if type(schema) is dict and _NESTED_KEYS.isdisjoint(schema):
        return  # (one test in C instead of five look-ups)
    for key in ("items", "additionalProperties"):
        value = schema.get(key)
        if _is_node(value, below):
            _collect_texts(value, below, out)
    for key in ("anyOf", "oneOf", "allOf"):
        alternatives = schema.get(key)
        if isinstance(alternatives, list):
            for alternative in alternatives[:10]:
                if _is_node(alternative, below):
                    _collect_texts(alternative, below, out)
