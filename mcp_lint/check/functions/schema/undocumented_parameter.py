"""MCP202 undocumented-parameter: a parameter (or a field inside one) that nothing describes."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim, words
from mcp_lint.check.functions.schema._common import identifier_shaped, prop_path
from mcp_lint.lazyre import lazy
from mcp_lint.model import Severity, Tool
from mcp_lint.schema_walk import Walked, property_variants, walk_schema
from mcp_lint.words import singular


def _has_description(root: Any, prop: Any) -> bool:
    for variant in property_variants(root, prop):
        text = variant.get("description")
        if isinstance(text, str) and text.strip():
            return True
    return False


_WRAPPERS = ("anyOf", "oneOf", "allOf", "$ref")


def _fixed(root: Any, prop: Any) -> bool:
    """A value the schema fixes (`const`, or an `enum` of one value in every variant): there is nothing
    to choose, so nothing to explain. The `type` of each branch of a tagged union is one."""
    variants = [
        variant
        for variant in property_variants(root, prop)
        if variant.get("type") != "null" and not any(key in variant for key in _WRAPPERS)
    ]
    return bool(variants) and all(
        "const" in variant or (isinstance(variant.get("enum"), list) and len(variant["enum"]) == 1)
        for variant in variants
    )


# levels (objects and arrays) below a top-level parameter whose fields are looked at
_MAX_DEPTH = 6
_MAX_LISTED_FIELDS = 4


def _own(root: Any, schema: Any) -> str:
    return " ".join(str(v.get("description") or "") for v in property_variants(root, schema))


def _nested_undocumented(root: Any, description: str) -> dict[str, list[tuple[str, str]]]:
    """Top-level parameter -> (short name, JSON path) of the fields inside it (object properties,
    array items' properties, `_MAX_DEPTH` levels down) that have no description and that no
    enclosing description names.

    The descriptions around a field (its parent's, the arrays' it is in, the tool's `description`)
    count: "each with `name` and `type`" documents both fields as well as a description of their own
    would.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    # id of a parameter met -> (it, the descriptions around its fields, its short name, its top-level name)
    outer: dict[int, tuple[Walked, str, str, str]] = {}
    for item in walk_schema(
        root, depth_first=True, distinct=True, descend=lambda item: item.level < _MAX_DEPTH
    ):
        if item.parent is None:
            outer[id(item)] = (item, f"{_own(root, item.schema)} {description}", item.name, item.name)
            continue
        if item.level > _MAX_DEPTH:
            continue
        _, context, short, top = outer[id(item.parent)]
        context += "".join(f" {_own(root, items)}" for items in item.through)
        short = f"{short}{'[]' * len(item.through)}.{item.name}"
        own = _own(root, item.schema).strip()
        siblings = tuple(str(name) for name in (item.owner.get("properties") or {}))
        parent = _own(root, item.parent.schema) + "".join(f" {_own(root, items)}" for items in item.through)
        if (
            not own
            and not _fixed(root, item.schema)
            and not _names(context, item.name)
            and not named_as_group(context, item.name)
            and not spelled_by_acronym(parent, item.name, siblings)
            and not _as_in_sibling(root, item, parent)
        ):
            found.setdefault(top, []).append((short, item.path))
        outer[id(item)] = (item, f"{context} {own}", short, top)
    return found


# "End time (same format as start)": an object whose fields are those of a sibling parameter.
_SAME_AS = lazy(r"\bsame\s+(?:[a-z]+\s+){0,2}as\s+[`'\"]?([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)


def _as_in_sibling(root: Any, item: Walked, parent: str) -> bool:
    """Whether the object `item` is in says it takes the same form as a sibling of its own, and that
    sibling describes a field of `item`'s name: `end.dateTime` under "same format as start" when
    `start.dateTime` has a description."""
    if item.parent is None:
        return False
    declared = item.parent.owner.get("properties")
    if not isinstance(declared, Mapping):
        return False
    for match in _SAME_AS.finditer(parent):
        sibling = declared.get(match.group(1))
        if sibling is None or match.group(1) == item.parent.name:
            continue
        for variant in property_variants(root, sibling):
            fields = variant.get("properties")
            if (
                isinstance(fields, Mapping)
                and item.name in fields
                and _has_description(root, fields[item.name])
            ):
                return True
    return False


def _names(text: str, name: str) -> bool:
    """Whether `text` names `name` as a word (any case style: `entityType` or "entity type"; singular
    or plural: `nodeIds` in "node IDs")."""
    if not text:
        return False
    if re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text):
        return True
    parts = tuple(singular(word) for word in name_words(name))
    if len(" ".join(parts)) <= 2:
        return False
    split, plain = _prose_runs(text)
    return _contains_run(split, parts) or _contains_run(plain, parts)


# A wildcard over parameter names: `postgres_*`, `*_password`, `limits_*`.
_WILDCARD = lazy(r"(?<![\w*])(?:\*[A-Za-z0-9_]*[A-Za-z0-9]|[A-Za-z][A-Za-z0-9_]*\*)(?![\w*])")
# Groups a description can explain as a whole, by the noun it uses: the member words a parameter's
# last word is one of. A text about "credentials" says what a login and a password are for (not a
# bare `user`: `assigned_user` is a person, not an account name).
_GROUPS: dict[str, frozenset[str]] = {
    "credential": frozenset(words("username login password passwd passphrase secret")),
}
# An acronym of a value's parts: `RGB`, `HSV`, `XYZ`, `RGB(A)` (the bracketed letter optional).
_ACRONYM = lazy(r"\b([A-Z]{2,5})(?:\(([A-Z])\))?(?![A-Za-z])")


def named_as_group(text: str, name: str) -> bool:
    """Whether `text` explains parameter `name` as one of a group rather than by its own name: a
    wildcard that matches it (`postgres_*`, `*_user`) or a group noun its last word belongs to
    ("credential fields" for `mongo_root_username`)."""
    if not text or not name:
        return False
    if "*" in text:
        for wildcard in _WILDCARD.findall(text):
            pattern = "[A-Za-z0-9_]+".join(re.escape(part) for part in wildcard.split("*"))
            if re.fullmatch(pattern, name):
                return True
    parts = name_words(name)
    if parts:
        prose = {singular(word) for word in _prose_runs(text)[1]}
        if any(noun in prose and parts[-1] in members for noun, members in _GROUPS.items()):
            return True
    return False


def spelled_by_acronym(parent: str, name: str, siblings: tuple[str, ...]) -> bool:
    """Whether the description of the object a field is in, `parent`, holds an acronym whose letters
    are the initials of the object's fields, `name`'s among them: "Text color (RGB values 0-1)" over
    red, green, blue. Only an object's own description: in a tool's, capitals are mostly emphasis."""
    if not parent or not name:
        return False
    initials = {sibling[:1].lower(): sibling for sibling in siblings if sibling}
    for letters, optional in _ACRONYM.findall(parent):
        spelled = letters.lower() + optional.lower()
        if name[:1].lower() not in spelled or initials.get(name[:1].lower()) != name:
            continue
        if len(set(spelled)) == len(spelled) and all(letter in initials for letter in spelled):
            return True
    return False


# Where an entry of a parameter list starts: a line (after a bullet), a sentence or clause, an
# "Args:" header, an opening bracket ("Args: query: ...", "- depth (int): ...", "offset: 0, length: 10").
_ENTRY_START = r"(?:^|[.;:,(\u2022*>-])[ \t]*(?:[-*\u2022][ \t]*)?"
# What follows the name of such an entry: "name: meaning", "name (int): meaning", "name - meaning".
_ENTRY_TAIL = r"""\s*(?:\([^)\n]{1,80}\)\s*)?(?::|\s[-\u2013\u2014]\s)\s*[\w"'`\[{(~./-]"""
_QUOTE = r"""[`'"]?"""


def explained_in_description(description: str, name: str) -> bool:
    """Whether the tool's description explains parameter `name` by name, so the model is told.

    These count: an Args:/Parameters: entry or a bullet ("query: The search query", "- depth (int):
    ..."), a quoted name with its explanation in brackets ("'offset' (start line)"), an example value
    ("offset=0", "search(query='x')"), an entry's values or meaning in brackets after its name
    ("Params: mode (text|image), duration (seconds)"), its shape written out ("Body: { displayName,
    color }"), the name in code style ("pass a JSON `schema`"), and a snake_case / camelCase name
    used verbatim in prose ("set verbose_timing to true"). A plain word
    that merely occurs ("the range", "Default shell: bash") does not: that is the word, not the
    parameter. Nor does a path into it ("`pdfOptions.maxPages`"), which explains one field only.
    """
    if not description or not name:
        return False
    spoken = " ".join(name_words(name))
    if name.lower() not in description.lower() and spoken not in description.lower():
        return False  # every way of explaining it writes the name (most parameters: no regex to build)
    bare = re.escape(name)
    before = r"(?<![A-Za-z0-9_.])"
    after = r"(?![A-Za-z0-9_]|\.[A-Za-z_])"
    patterns = [
        rf"`{bare}`",
        rf"{_ENTRY_START}{_QUOTE}{bare}{_QUOTE}{after}{_ENTRY_TAIL}",
        rf"""[`'"]{bare}[`'"]\s*\([^)\n]{{2,120}}\)""",
        rf"""{before}{bare}\s*=(?!=)\s*[\w"'\[{{.-]""",
        rf"{_ENTRY_START}{bare}{after}[ \t]*\((?![)\s])[^()\n]{{1,80}}\)",
    ]
    if identifier_shaped(name):
        patterns.append(rf"{before}{bare}{after}")
    if spoken.replace(" ", "").isalpha():
        # An entry headed by the name as a word of prose, with a capital: "Period: week, month, year",
        # "Attachments (optional): list of dicts, each with ...", "Storage path: ...".
        heading = re.escape(spoken[:1].upper() + spoken[1:])
        patterns.append(rf"{_ENTRY_START}{heading}{after}{_ENTRY_TAIL}")
    if any(re.search(pattern, description, re.MULTILINE) for pattern in patterns):
        return True
    # its shape written out, in any case: "Body: { displayName, color }", "tags=[...]"
    return re.search(rf"{before}{bare}[^.\n{{]{{0,20}}[:=]\s*[{{\[]", description, re.IGNORECASE) is not None


def _documented_by_fields(root: Any, prop: Any) -> bool:
    """An object (or an array of objects) whose every field has a description of its own says what it
    is through them."""
    fields: list[Any] = []
    for variant in property_variants(root, prop):
        items = variant.get("items")
        shapes = [variant, *property_variants(root, items)] if isinstance(items, Mapping) else [variant]
        for shape in shapes:
            inner = shape.get("properties")
            if isinstance(inner, Mapping):
                fields.extend(inner.values())
    return bool(fields) and all(_has_description(root, field) for field in fields)


# Words that say nothing by themselves: a parameter named `at` or `in` is not named by "at a cell".
_FUNCTION_WORDS = frozenset(
    words("a an the at in on of to by for as is it or and if be with from into via per not no up out off")
)
_PROSE_WORD = lazy(r"[A-Za-z0-9]+")


@functools.lru_cache(maxsize=64)
def _prose_runs(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of prose twice, singular: split at case changes (`nodeIds` -> node, id) and not
    (`IDs` -> id), so that either spelling of a name can be met."""
    split = tuple(singular(word) for word in name_words(text))
    plain = tuple(singular(word.lower()) for word in _PROSE_WORD.findall(text))
    return split, plain


def _contains_run(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    size = len(needle)
    first = needle[0]
    return any(
        haystack[start : start + size] == needle
        for start, word in enumerate(haystack)
        if word == first and start + size <= len(haystack)
    )


def mentioned_in_description(description: str, name: str) -> bool:
    """Whether the tool's description uses the parameter's name, in any spelling: its words in a row,
    singular or plural (`tag_names` in "semicolon-delimited tag names", `emojis` in "emoji reactions",
    `content` in "overwrite the file with new content").

    Weaker than `explained_in_description`: the word may be there in another sense ("Default shell:
    bash") or in a bare list of names. A function word (`at`, `in`) and a one-letter name are never
    met this way.
    """
    if re.search(rf"""['"]{re.escape(name)}['"]""", description):
        return True  # quoted, even when short: "containing the substring 'q'"
    if len(name) == 1 and name.isalpha():
        # one of a run of initials: `p` in "Validate the P/I/C/O of a question"
        return any(name.lower() in run.lower().split("/") for run in _INITIALS.findall(description))
    parts = tuple(singular(word) for word in name_words(name))
    if not description or not parts or len(name) < 2 or (len(parts) == 1 and parts[0] in _FUNCTION_WORDS):
        return False
    split, plain = _prose_runs(description)
    if not (
        _contains_run(split, parts)
        or _contains_run(plain, parts)
        or (len(parts) > 1 and _contains_spread(_sentence_words(description), parts))
    ):
        return False
    return not _only_listed(description, name)


# Single letters joined by slashes: "P/I/C/O", "x/y/z".
_INITIALS = lazy(r"(?<![\w/])[A-Za-z](?:/[A-Za-z]){2,}(?![\w/])")
# Words a name's words may have between them in prose: "parent item key" for `parent_key`, "menu item
# by path" for `menu_path`.
_SPREAD_GAP = 2


def _sentence_words(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(singular(word.lower()) for word in _PROSE_WORD.findall(sentence))
        for sentence in re.split(r"[.!?;:\n]\s", text)
    )


def _contains_spread(sentences: tuple[tuple[str, ...], ...], needle: tuple[str, ...]) -> bool:
    """Whether one sentence has the needle's words in order, each at most `_SPREAD_GAP` words after
    the one before."""
    for sentence in sentences:
        for start, word in enumerate(sentence):
            if word != needle[0]:
                continue
            at = start
            for part in needle[1:]:
                window = sentence[at + 1 : at + 2 + _SPREAD_GAP]
                if part not in window:
                    break
                at = at + 1 + window.index(part)
            else:
                return True
    return False


# An item of a bare list of names: between list punctuation, with nothing said of it ("Params: query,
# categories, downloadable" names `categories` and says nothing about it).
_LISTED_BEFORE = r"[,:|][ \t]*(?:(?:and|or)[ \t]+)?$"
_LISTED_AFTER = r"^[ \t]*(?:[,|.;)]|\n|$)"


def _spellings(name: str) -> str:
    """A pattern for the name as written in code or in prose (`tag_names`, tagNames, "tag names")."""
    spaced = r"[\s_-]*".join(re.escape(word) for word in name_words(name))
    return rf"(?<![A-Za-z0-9_])(?:{re.escape(name)}|{spaced})(?:e?s)?(?![A-Za-z0-9_])"


# Where a bare list of names can open: after a header's colon, at a line's start, in brackets.
_LIST_OPENS = ":\n(|"
_LIST_ITEM_SPLIT = lazy(r"\s*[,|]\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
_MAX_ITEM_WORDS = 3


def _in_bare_list(description: str, start: int) -> bool:
    """Whether the list item at `start` belongs to a list of names and nothing else, from where the
    list opens: "Params: query, categories, count" is one; "find the ID for tag, correspondent or
    storage path" is a sentence that says what its items are (each an ID), so its items are named."""
    opens = max(description.rfind(mark, 0, start) for mark in _LIST_OPENS)
    ends = max(description.rfind(mark, 0, start) for mark in (". ", "! ", "? "))
    if ends > opens:
        return False
    items = [item for item in _LIST_ITEM_SPLIT.split(description[opens + 1 : start].strip()) if item]
    return all(len(item.split()) <= _MAX_ITEM_WORDS for item in items)


def _only_listed(description: str, name: str) -> bool:
    """Whether every use of the name in the description is an item of a bare list of names."""
    found = list(re.finditer(_spellings(name), description, re.IGNORECASE))
    return bool(found) and all(
        re.search(_LISTED_BEFORE, description[max(0, hit.start() - 12) : hit.start()])
        and re.search(_LISTED_AFTER, description[hit.end() : hit.end() + 6])
        and _in_bare_list(description, hit.start())
        for hit in found
    )


def shape_shown(description: str, name: str) -> bool:
    """Whether the description writes out a structured parameter's shape where it names it: a `{` or
    `[` later in the same sentence ("Bind params by name with {name:Type} placeholders")."""
    same_sentence = r"(?:(?![.!?]\s+[A-Z])[^\n{\[]){0,60}"
    return re.search(rf"{_spellings(name)}{same_sentence}[{{\[]", description, re.IGNORECASE) is not None


# What makes an undocumented parameter's name say enough by itself (reported at low, not moderate).
# Each is a convention of APIs in general, not a name of one server: paging and counting words, the
# words that end an identifier, units written into the name, and the verbs a boolean switch starts with.
_COUNTING = frozenset(words("page limit offset skip count cursor"))
_COUNTING_PREFIX = frozenset(words("max min per num page"))
_IDENTIFIER_END = frozenset(words("id ids uuid number cursor name email"))
# An integer that points at a place in a sequence (`paragraph_index`, `start_row`).
_POSITION_END = frozenset(words("index row col column"))
# A number whose unit is fixed by convention (degrees).
_COORDINATES = frozenset(words("latitude longitude lat lng lon"))
# One word naming free text the user writes (`title`, `text`, `comment`): what to send is plain.
_FREE_TEXT = frozenset(words("title text comment note message subject author"))
_UNIT_END = frozenset(
    words("ms millis milliseconds sec secs seconds minutes mins hours days bytes kb mb px pixels percent")
)
# A time or period with no unit in its name leaves the unit unknown (`timeout`: seconds or ms?).
_TIME_WORDS = frozenset(words("timeout delay wait interval duration ttl time period age"))
_SWITCH_START = frozenset(
    words(
        "include exclude only skip remove allow enable disable ignore store use show hide keep follow force "
        "is has in"
    )
)
# The last word of a parameter that picks one of a set of values; without an enum, the set is unknown.
_CHOICE_WORDS = frozenset(
    words(
        "type kind mode format level status state order direction method strategy style scope category "
        "visibility action operation unit engine backend provider sort"
    )
)
_ADJECTIVE_END = ("ive", "ed", "able", "ible")
_VOCABULARY_MIN_TOOLS = 3  # a plain parameter this many tools of the server share is its vocabulary
_READABLE_VALUE = lazy(r"[a-z]{3,}|\d+[a-z]{0,2}")


def _simple_type(root: Any, prop: Any) -> str | None:
    """The parameter's one JSON type ("array of string" for a list of strings), if it is plain."""
    kinds = set()
    for variant in property_variants(root, prop):
        kind = variant.get("type")
        if isinstance(kind, str) and kind != "null":
            if kind == "array":
                items = variant.get("items")
                inner = items.get("type") if isinstance(items, Mapping) else None
                kind = f"array of {inner}" if inner in ("string", "integer", "number") else "array"
            kinds.add(kind)
        elif isinstance(kind, list):
            kinds.update(item for item in kind if isinstance(item, str) and item != "null")
    return kinds.pop() if len(kinds) == 1 else None


def _enum_of(root: Any, prop: Any) -> list[Any] | None:
    for variant in property_variants(root, prop):
        values = variant.get("enum")
        if isinstance(values, list):
            return values
    return None


def server_vocabulary(tools: Any) -> Counter[tuple[str, str]]:
    """(parameter name, plain type) -> how many tools of the server have it at the top level."""
    found: Counter[tuple[str, str]] = Counter()
    for tool in tools:
        for name, prop in tool.properties.items():
            kind = _simple_type(tool.input_schema, prop)
            if kind is not None and _enum_of(tool.input_schema, prop) is None:
                found[(str(name), kind)] += 1
    return found


def self_explanatory(tool: Tool, name: str, prop: Any, vocabulary: Counter[tuple[str, str]]) -> bool:
    """Whether the parameter's name and type say what to send, in this tool, without a description.

    Structured values (objects, untyped values) never do. A scalar does when its type is an enum of
    readable words (`order`: asc|desc, not `origin`: ui|llm); when it names a paging or counting
    quantity (`page`, `per_page`, `maxResults`) or carries its unit (`timeout_ms`), but not a time
    without one (`timeout`); when it is a position in a sequence (`paragraph_index`, `start_row`) or a
    coordinate (`latitude`); when it is one word of free text (`title`, `comment`); when it picks a unit
    from an enum (`wind_speed_unit`: kmh|ms|mph); when it is an identifier (`id`, `user_id`,
    `issue_number`, `email`); when its head
    word is the tool's own (`sheet` in `rename_sheet`, `localPort` in `port_forward`); when it is a
    boolean switch named for what it turns on (`includeSubdomains`, `recursive`); or when it is one word
    that at least `_VOCABULARY_MIN_TOOLS` tools of the server share with the same type (`owner`, `repo`,
    `path`) as a string: the server's own vocabulary. A compound shared that way (`resourceType`) may
    mean a different thing in each tool, and a shared number (`width`) still needs its unit. A word that
    picks one of a set (`operation`, `mode`) never says enough without its enum.
    """
    root = tool.input_schema
    kind = _simple_type(root, prop)
    parts = name_words(name)
    if kind is None or not parts or kind in ("object", "array") or len(name) < 2:
        return False
    enum = _enum_of(root, prop)
    if enum is not None:
        if parts[-1] in ("unit", "units") and len(enum) > 1:
            return True  # its values are units, however short (`kmh`, `ms`, `kn`)
        return len(enum) > 1 and all(
            isinstance(value, str) and all(_READABLE_VALUE.fullmatch(part) for part in name_words(value))
            for value in enum
        )
    last = parts[-1]
    if last in _CHOICE_WORDS:
        return False  # `operation`, `mode`, `format` with no enum: which values, nobody says
    tool_words = {singular(word) for word in name_words(tool.name)}
    head = parts[-2] if last in ("id", "ids", "name") and len(parts) > 1 else last
    if kind == "boolean":
        return (len(parts) > 1 and parts[0] in _SWITCH_START) or last.endswith(_ADJECTIVE_END)
    if kind in ("integer", "number"):
        if last in _UNIT_END or (kind == "integer" and last in _POSITION_END) or name.lower() in _COORDINATES:
            return True
        if _TIME_WORDS.intersection(parts):
            return False
        if (parts[0] in _COUNTING_PREFIX and len(parts) > 1) or name.lower() in _COUNTING:
            return True
    if last in _IDENTIFIER_END and (last != "name" or len(parts) == 1 or singular(head) in tool_words):
        return True
    if singular(head) in tool_words:
        return True
    if kind == "string" and len(parts) == 1 and last in _FREE_TEXT:
        return True
    return (
        kind == "string"
        and len(parts) == 1
        and len(name) > 2
        and vocabulary[(name, kind)] >= _VOCABULARY_MIN_TOOLS
    )


def _structured(root: Any, prop: Any) -> bool:
    """An object, an array of objects or a value of no stated type: its name does not give its shape."""
    variants = list(property_variants(root, prop))
    kinds = [variant.get("type") for variant in variants if variant.get("type") not in (None, "null")]
    if not kinds or len({str(kind) for kind in kinds}) > 2:
        return True  # no type, or a value of any of several (`string | number | boolean | array`)
    for variant in variants:
        kind = variant.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind):
            return True
        if kind == "array":
            items = variant.get("items")
            shapes = property_variants(root, items) if isinstance(items, Mapping) else ()
            inner = [item.get("type") for item in shapes]
            if not inner or not all(isinstance(item, str) and item != "object" for item in inner):
                return True
    return False


def _named_enough(root: Any, name: str, prop: Any) -> bool:
    """Whether a mention of the parameter in the tool's description can say what it is: not for a
    structured value (the mention gives no shape) nor a time with no unit in its name (`timeout`)."""
    if _structured(root, prop):
        return False
    parts = name_words(name)
    return not (parts and parts[-1] not in _UNIT_END and _TIME_WORDS.intersection(parts))


def plain_enough(tool: Tool, name: str, prop: Any, vocabulary: Counter[tuple[str, str]]) -> bool:
    """Whether an undescribed parameter says enough without a description to report only at low: a
    self-explanatory name in its tool, or one the tool's description mentions in a way that says
    what it is. The fix checklist asks a description only for the others."""
    return self_explanatory(tool, name, prop, vocabulary) or said_in_description(tool, name, prop)


def said_in_description(tool: Tool, name: str, prop: Any) -> bool:
    """Whether the tool's description mentions the parameter in a way that says what it is."""
    return mentioned_in_description(tool.description, name) and (
        _named_enough(tool.input_schema, name, prop) or shape_shown(tool.description, name)
    )


@check_function("undocumented_parameter")
def undocumented_parameter(ctx: CheckContext) -> Iterator[Hit]:
    vocabulary = server_vocabulary(ctx.server.tools)
    for tool in ctx.server.tools:
        root = tool.input_schema
        undocumented = _nested_undocumented(root, tool.description)
        for name, prop in tool.properties.items():
            documented = (
                _has_description(root, prop)
                or _fixed(root, prop)
                or explained_in_description(tool.description, str(name))
                or _documented_by_fields(root, prop)
                or named_as_group(tool.description, str(name))
            )
            nested = undocumented.get(str(name), [])
            if documented and not nested:
                continue
            shown = ", ".join(f"`{short}`" for short, _ in nested[:_MAX_LISTED_FIELDS])
            if len(nested) > _MAX_LISTED_FIELDS:
                shown += f" and {len(nested) - _MAX_LISTED_FIELDS} more"
            if not documented:
                subject = (
                    f"Parameter `{name}` has"
                    if not nested
                    else f"Parameter `{name}` and its fields {shown} have"
                )
                path = prop_path(name)
            else:
                plural = "s" if len(nested) > 1 else ""
                subject = f"Field{plural} {shown} of parameter `{name}` {'have' if plural else 'has'}"
                path = nested[0][1]
            evidence = ", ".join(where for _, where in nested[:_MAX_LISTED_FIELDS]) if documented else path
            plain = not nested and plain_enough(tool, str(name), prop, vocabulary)
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={"parameter": name, "subject": subject},
                evidence=trim(evidence, 200),
                path=path,
                severity_cap=Severity.LOW if plain else None,
            )
