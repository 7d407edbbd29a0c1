"""Rules about tool names (MCP40x, except overlap which lives in `overlap`)."""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, server_prefix, snippet
from mcp_lint.check.functions.overlap import is_action
from mcp_lint.lazyre import lazy
from mcp_lint.model import Tool

# SEP-986: 1-128 characters of A-Z a-z 0-9 _ . -
_VALID_NAME = lazy(r"[A-Za-z0-9_.\-]{1,128}")
_INVALID_CHAR = lazy(r"[^A-Za-z0-9_.\-]")


@check_function("invalid_tool_name")
def invalid_tool_name(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        name = tool.name
        if _VALID_NAME.fullmatch(name):
            continue
        if not name:
            reason = "it is empty"
        elif len(name) > 128:
            reason = f"it is {len(name)} characters long (maximum 128)"
        else:
            bad = sorted(set(_INVALID_CHAR.findall(name)))
            reason = "it contains " + ", ".join(repr(char) for char in bad)
        fixed = _INVALID_CHAR.sub("_", name)[:128]
        yield Hit(
            tool=name,
            fields={"reason": reason},
            evidence=repr(name) if len(name) <= 120 else repr(name[:117]) + "…",
            path="name",
            suggestion=f"Rename to {fixed!r}." if fixed and fixed != name else None,
        )


@check_function("duplicate_tool_name")
def duplicate_tool_name(ctx: CheckContext) -> Iterator[Hit]:
    first_index: dict[str, int] = {}
    counts = Counter(tool.name for tool in ctx.server.tools)
    for index, tool in enumerate(ctx.server.tools):
        if tool.name not in first_index:
            first_index[tool.name] = index
            continue
        yield Hit(
            tool=tool.name,
            fields={"count": counts[tool.name]},
            evidence=f"tools[{index}] repeats the name of tools[{first_index[tool.name]}]",
            path="name",
        )


_STYLES = {
    "snake_case": lazy(r"[a-z0-9]+(?:_[a-z0-9]+)+"),
    "kebab-case": lazy(r"[a-z0-9]+(?:-[a-z0-9]+)+"),
    "camelCase": lazy(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"),
    "PascalCase": lazy(r"(?:[A-Z][a-z0-9]+){2,}"),
    "SCREAMING_CASE": lazy(r"[A-Z0-9]+(?:_[A-Z0-9]+)+"),
}


def _style(name: str) -> str | None:
    # Namespaces (`github.create_issue`) are a convention of their own; the last segment carries the style.
    segment = name.rsplit(".", 1)[-1]
    for style, pattern in _STYLES.items():
        if pattern.fullmatch(segment):
            return style
    return None


@check_function("inconsistent_naming")
def inconsistent_naming(ctx: CheckContext) -> Iterator[Hit]:
    by_style: dict[str, list[str]] = {}
    for tool in ctx.server.tools:
        style = _style(tool.name)
        if style is not None:
            by_style.setdefault(style, []).append(tool.name)
    if len(by_style) < 2:
        return
    ranked = sorted(by_style.items(), key=lambda item: (-len(item[1]), item[0]))
    majority = ranked[0][0]
    styles = ", ".join(f"{style} ({len(names)})" for style, names in ranked)
    outliers = [name for style, names in ranked[1:] for name in names]
    yield Hit(
        tool=None,
        fields={"styles": styles, "majority": majority},
        evidence="not " + majority + ": " + ", ".join(outliers[:5]) + (" …" if len(outliers) > 5 else ""),
        suggestion=f"Rename the other tools to {majority}.",
    )


# --- MCP405 dangling-tool-reference ----------------------------------------------------------------

# A name in code style, or any name followed by "tool": `get_user`, the listProjects tool. Only
# snake_case and camelCase shapes count; a plain word ("the search tool") names a kind of tool.
_TOOL_REF = lazy(
    r"`([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*)`(\s+tools?\b)?"
    r"|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)(\s+tools?\b)"
)
_CALL_BEFORE = lazy(r"\b(?:call|calling|invoke|invoking|run|running)\s+(?:the\s+)?$", re.IGNORECASE)
_BARE_CALL = lazy(
    r"\b(?:call|calling|invoke|invoking)\s+(?:the\s+)?([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)\b"
    r"(?!\s*(?:=|parameter|argument|field|option|flag|function|method|endpoint|api\b))"
)
# A sentence about another server or program names tools this server rightly lacks.
_ELSEWHERE = lazy(r"\b(?:server|mcp|plugin|extension|library|package|module|sdk|api)s?\b", re.I)
_CAMEL = lazy(r"[a-z][A-Z]")
# A bare or quoted code name ('mark_task_done', download_paper) that the words around it treat as a
# tool: "use X", "via X", "call X", "X first", "X -> Y".
_BARE_NAME = lazy(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)\b")
# On a server whose tools are named in kebab-case (`list-mail-messages`), `get-download-url` is one too.
_KEBAB = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
_BARE_OR_KEBAB = lazy(
    r"(?<![\w-])(" + _KEBAB + r"|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)(?![\w-])"
)
_KEBAB_SHAPE = lazy(_KEBAB)
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_`-")
_AS_TOOL_BEFORE = lazy(
    r"(?:\b(?i:use|using|call|calling|invoke|invoking|via|run|try|see|then|with|before|after|like|as\s+in|"
    r"similar\s+to|prefer|from|instead\s+of|rather\s+than)\s+(?:the\s+)?"
    r"|(?:->|→|=>)\s*)['\"]?$"
)
# The word after a bare name: a noun there makes the name its modifier ("use read_only mode").
_FOLLOWER = lazy(r"['\"]?\s+([a-z]+)\b")
_TOOL_FOLLOWERS = frozenset(
    [
        "to",
        "first",
        "afterwards",
        "afterward",
        "next",
        "then",
        "again",
        "instead",
        "tool",
        "tools",
        "and",
        "or",
        "with",
        "on",
        "for",
        "before",
        "after",
        "when",
        "if",
        "so",
        "until",
        "call",
        "calls",
        "returns",
        "results",
        "output",
        "is",
        "are",
        "was",
        "will",
        "can",
        "may",
        "must",
        "should",
    ]
)
_AS_TOOL_AFTER = lazy(r"^['\"]?(?:\(|\s*(?:->|→|=>|(?i:first|again|instead|tool|calls?)\b))")
# (`Playwright_assert_response`: snake_case with a capital first letter, as a sentence may start it.)
_DEFINED = lazy(
    r"^[ \t]*[-*\u2022][ \t]+`?([A-Za-z][A-Za-z0-9_]*)`?[ \t]*(?::|\s[-\u2013\u2014]\s)", re.MULTILINE
)
_TOOL_SHAPE = lazy(r"[A-Za-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+")


_ASSIGNED_VALUE = lazy(
    r"""["'`]?([A-Za-z_][A-Za-z0-9_]*)["'`]?\s*(?:=|:)\s*["']([A-Za-z][A-Za-z0-9_-]*)["']"""
)


def _norm_name(name: str) -> str:
    return "".join(name_words(name))


def _schema_words(schema: Any, into: set[str]) -> None:
    """Property names, enum and default strings at any depth, normalized: names a tool may mention."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, Mapping):
                into.update(_norm_name(str(name)) for name in value)
            if key in ("enum", "examples") and isinstance(value, list):
                into.update(_norm_name(item) for item in value if isinstance(item, str))
            elif key in ("const", "default") and isinstance(value, str):
                into.add(_norm_name(value))
            else:
                _schema_words(value, into)
    elif isinstance(schema, list):
        for item in schema:
            _schema_words(item, into)


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start)) + 1
    stops = [pos for pos in (text.find(". ", end), text.find("\n", end)) if pos >= 0]
    return text[left : min(stops) if stops else len(text)]


_PREFIX = 3
# A name only code uses: in backticks, snake_case or camelCase. Not \b: a CJK character is a word character.
_CODE_NAME = (
    r"(?:`[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*`"
    r"|(?<![A-Za-z0-9_`])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)(?![A-Za-z0-9_`]))"
)
_CONNECTOR = r"\s*(?:,|/|\bor\b|\band\b|and/or|和|或|、)\s*(?:,\s*)?(?:the\s+)?"
# "the `a` and `b` tools", "use a or b instead": a list that the sentence says holds tools.
# Each is matched against the text just before a "tools" or an "instead" (the word is searched first).
_TOOLS_WORD = lazy(r"\s+tools\b|\s+instead\b(?!\s+of)")
_LIST_BEFORE_TOOLS = lazy(r"(" + _CODE_NAME + r"(?:" + _CONNECTOR + _CODE_NAME + r")+)$")
_LIST_BEFORE_INSTEAD = lazy(
    # (No IGNORECASE on the whole: it would let the camelCase branch match any word in many ways.)
    r"\b(?i:use|call|try|invoke|run)\s+(?:the\s+)?(" + _CODE_NAME + r"(?:" + _CONNECTOR + _CODE_NAME + r")*)$"
)
# Any list of code names: one real tool in it makes the others tools too ("list_tables or describe_table").
_CODE_LIST = lazy(_CODE_NAME + r"(?:" + _CONNECTOR + _CODE_NAME + r")+")
_LIST_NAME = lazy(r"`?([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*)`?")
_NameIndex = tuple[
    frozenset[str],
    dict[str, str],
    dict[str, list[str]],
    dict[str, str],
    frozenset[str],
    str | None,
    dict[str, str | None],
    frozenset[str],
    dict[str, str | None],
]


def _product_prefixes(tool_names: Sequence[str]) -> set[str]:
    """First words that several products of one server put before their tools (`jira_`, `confluence_`):
    each starts at least three tools of three words or more and a quarter of all the tools."""
    firsts = Counter(parts[0] for parts in map(name_words, tool_names) if len(parts) >= 3)
    return {word for word, count in firsts.items() if count >= 3 and count * 4 >= len(tool_names)}


@functools.lru_cache(maxsize=8)
def _name_index(tool_names: tuple[str, ...]) -> _NameIndex:
    """The server's tool names: as spelled, by normalized form, grouped by their first letters, and by
    their normalized form without the server's prefix (`getattachments` for `confluence_get_attachments`),
    the first words they start with (`read` of `read_file`), the server's prefix, an empty memo of
    the tool each mentioned name probably means, the styles its names are spelt in, and each tool by
    the last words of its name."""
    by_norm: dict[str, str] = {}
    by_prefix: dict[str, list[str]] = {}
    unprefixed: dict[str, str] = {}
    prefix = server_prefix(tool_names)
    prefixes = _product_prefixes(tool_names) | ({prefix} if prefix is not None else set())
    ambiguous: set[str] = set()
    for name in tool_names:
        key = _norm_name(name)
        by_norm.setdefault(key, name)
        by_prefix.setdefault(key[:_PREFIX], []).append(name)
        parts = name_words(name)
        if len(parts) >= 3 and parts[0] in prefixes:
            rest = "".join(parts[1:])
            if unprefixed.setdefault(rest, name) != name:
                ambiguous.add(rest)  # `get_attachments` of jira_ and of confluence_: which one is unknown
    for rest in ambiguous:
        del unprefixed[rest]
    leading = frozenset(parts[0] for parts in map(name_words, tool_names) if len(parts) >= 2)
    # The ways the server spells its tools' names (snake_case, camelCase, ...).
    styles = frozenset(
        style for style in (_style(name) for name in tool_names if len(name_words(name)) > 1) if style
    )
    # Every tool by the last two or more words of its name from a verb on (`create-file` of
    # `genai-batch-inference-create-file`); None where two tools end alike.
    endings: dict[str, str | None] = {}
    for name in tool_names:
        parts = name_words(name)
        for start in range(1, len(parts) - 1):
            if not is_action(parts[start]):
                continue  # `citation_key` of `search_by_citation_key` is a noun, not the tool's action
            rest = "".join(parts[start:])
            endings[rest] = name if endings.get(rest, name) == name else None
    return frozenset(tool_names), by_norm, by_prefix, unprefixed, leading, prefix, {}, styles, endings


def dangling_references(
    text: str,
    tool_names: list[str],
    own: set[str],
    others: frozenset[str] = frozenset(),
    index: _NameIndex | None = None,
    of_parameter: bool = False,
    kebab: bool = False,
) -> list[tuple[str, str, str | None]]:
    """(name, evidence, the server's tool it probably means) of tools `text` names that are not on the server.

    `own` holds normalized names this tool's schemas use, which a code-styled name may be instead;
    `others` the names every tool's schemas use (parameters, values), which a name in a list of tools
    may be instead. `index`, when given, is `_name_index` of `tool_names`, built once per server.
    `of_parameter` says `text` describes a parameter: the names it lists are more often the values it
    takes (fields to return, settings) than tools, so the server's prefix alone does not make one a tool.
    `kebab` says the server names its tools in kebab-case: a bare `list-users` may then be a tool.
    """
    if index is None:
        index = _name_index(tuple(tool_names))
    exact, by_norm, by_prefix, unprefixed, leading, prefix, memo, spellings, endings = index
    found: dict[str, tuple[str, str | None]] = {}

    def closest(name: str) -> str | None:
        if name not in memo:
            memo[name] = guess(name)
        return memo[name]

    def guess(name: str) -> str | None:
        key = _norm_name(name)
        if key in by_norm:
            return by_norm[key]
        if key in unprefixed:
            return unprefixed[key]  # `get_attachments` for `confluence_get_attachments`
        parts = name_words(name)
        if len(parts) >= 3 and "".join(parts[1:]) in by_norm:
            return by_norm["".join(parts[1:])]  # `jira_get_issue` for `get_issue`: another prefix
        if prefix is not None and len(parts) >= 3 and parts[0] == prefix:
            # `confluence_get_space` is not `confluence_get_page`: the shared prefix says nothing.
            rest = "".join(parts[1:])
            close = difflib.get_close_matches(rest, list(unprefixed), n=1, cutoff=0.85)
            return unprefixed[close[0]] if close else None
        # Only names with the same first letters are compared: a server may have 10,000 tools.
        close = difflib.get_close_matches(name, by_prefix.get(key[:_PREFIX], []), n=1, cutoff=0.85)
        if close:
            return close[0]
        # The one tool whose name ends with the mention's words, whatever its prefix
        # (`create-file` for `genai-batch-inference-create-file`).
        return endings.get(key) if len(parts) >= 2 else None

    candidates: list[tuple[str, int, int, bool]] = []
    # Bare names the sentence treats as tools: only one close to a real tool or named like the
    # server's tools (`read_process_output` where `read_file` is a tool) counts.
    weak: list[tuple[str, int, int]] = []
    # Bare names after "from" ("the id from list_users"): a table or a file is as often there.
    sourced: set[str] = set()
    bare: list[str] = []
    for match in (_BARE_OR_KEBAB if kebab and "-" in text else _BARE_NAME).finditer(text):
        bare.append(match.group(1))
        left, right = match.start(), match.end()
        if left and text[left - 1] in "'\"":
            if text[right : right + 1] != text[left - 1]:
                continue  # an opening quote must close right after the name
            left, right = left - 1, right + 1
        if (left and text[left - 1] in _NAME_CHARS) or text[right : right + 1] in _NAME_CHARS - {""}:
            continue  # part of a longer token (`a_b`-c, a path)
        if text[right : right + 1] == "." and text[right + 1 : right + 2].isalpha():
            continue  # a file (`dynamodb_data_model.md`) or a dotted path, not a tool
        before = text[max(0, left - 25) : left]
        after = text[right : right + 12]
        follower = _FOLLOWER.match(after)
        if follower is not None and follower.group(1) not in _TOOL_FOLLOWERS:
            continue  # "use read_only mode": the name qualifies the noun after it
        cue = _AS_TOOL_BEFORE.search(before)
        if cue is not None or _AS_TOOL_AFTER.match(after):
            name = match.group(1)
            if _norm_name(name) not in others and name not in exact:
                weak.append((name, match.start(1), match.end(1)))
                if (
                    cue is not None
                    and cue.group(0).lower().startswith("from")
                    and not _AS_TOOL_AFTER.match(after)
                ):
                    sourced.add(name)
    for match in _TOOL_REF.finditer(text):
        name = match.group(1) or match.group(3)
        followed = bool(match.group(2) or match.group(4))
        before = text[max(0, match.start() - 20) : match.start()]
        called = _CALL_BEFORE.search(before) is not None
        candidates.append((name, match.start(), match.end(), followed or called))
    for match in _BARE_CALL.finditer(text):
        candidates.append((match.group(1), match.start(1), match.end(1), True))
    if "tools" in text or "instead" in text:
        for word in _TOOLS_WORD.finditer(text):
            window = max(0, word.start() - 200)
            pattern = _LIST_BEFORE_TOOLS if "tools" in word.group(0) else _LIST_BEFORE_INSTEAD
            listed = pattern.search(text, window, word.start())
            if listed is None:
                continue
            for item in _LIST_NAME.finditer(listed.group(1)):
                start = listed.start(1) + item.start(1)
                candidates.append((item.group(1), start, start + len(item.group(1)), True))
    # A list beside a real tool needs a real tool's name in the text.
    named = any(name in exact for name in bare) or any(name in exact for name, _, _, _ in candidates)
    for match in _CODE_LIST.finditer(text) if named else ():
        follower = _FOLLOWER.match(text, match.end())
        if follower is not None and follower.group(1) not in _TOOL_FOLLOWERS:
            continue  # "in format_text and update_paragraph_style operations": kinds of a noun
        items = list(_LIST_NAME.finditer(match.group(0)))
        styles = {_style(item.group(1)) for item in items if item.group(1) in exact}
        if not styles:
            continue
        for item in items:
            if _norm_name(item.group(1)) in others:
                continue  # a parameter or value of some tool, listed beside a tool
            if _style(item.group(1)) not in styles:
                continue  # "papers on arXiv, download_paper": not spelt the way the tools beside it are
            start = match.start() + item.start(1)
            candidates.append((item.group(1), start, start + len(item.group(1)), True))
    strong = {name for name, _, _, _ in candidates}
    # "- get_mesh_info: Get mesh details": an entry the text itself defines is an action or a value
    # of this tool, whatever the sentences around it call it.
    defined = set(_DEFINED.findall(text)) if "\n" in text else set()
    candidates.extend((name, start, end, True) for name, start, end in weak if name not in strong)
    for name, start, end, said_tool in candidates:
        if name in exact or name in found:
            continue
        if _TOOL_SHAPE.fullmatch(name) is None and not (kebab and _KEBAB_SHAPE.fullmatch(name)):
            continue
        meant = closest(name)
        if name in defined and meant is None:
            continue
        words_of = name_words(name)
        prefixed = prefix is not None and words_of[0] == prefix and len(words_of) >= 2
        if prefixed and not of_parameter:
            said_tool = True  # `firecrawl_crawl` on a server whose tools are firecrawl_*
        # "from pg_stat_statements": a source named like the tools only by the server's prefix is a
        # table or a view; "from list_users" names a tool by its verb.
        from_source = name in sourced and name not in strong and meant is None
        if from_source and (words_of[0] == prefix or words_of[0] not in leading):
            continue
        if meant is None and _family(name, text[start : end + 12], tool_names):
            continue  # "the dedicated crypto_synced tools": the words several real tools share
        if not said_tool and meant is None:
            continue  # a name in code style that is neither called a tool nor close to one
        if name not in strong and meant is None and name_words(name)[0] not in leading:
            continue  # "use snake_case names": not named the way this server's tools are
        if (
            name not in strong
            and meant is None
            and spellings
            and _style(name) not in spellings
            and "tool" not in _sentence_around(text, start, end).lower()
        ):
            # "set on-chain via setAgentWallet" on a snake_case server: a function of something else
            # (but "tables created by other tools (like cost_explorer_sql)" calls it a tool).
            continue
        if _norm_name(name) in own and meant is None:
            continue  # a parameter or value of this tool, "the `file_path` argument"
        sentence = _sentence_around(text, start, end)
        if _ELSEWHERE.search(sentence):
            continue
        if text[start - 1 : start] == "." and text[start - 2 : start - 1].isalnum():
            # `users.messages.batchModify`, "db.collection.deleteMany()": a method of an API, even one
            # spelt like a tool of the server (`delete-many`).
            continue
        if meant is None and _RESULT_CARRIES.search(sentence):
            # "The response also carries `update_info`": a field of what comes back, not a tool.
            continue
        found[name] = (snippet(text, start, end), meant)
    return [(name, evidence, meant) for name, (evidence, meant) in found.items()]


def _family(name: str, around: str, tool_names: list[str]) -> bool:
    """Whether `name` before "tools" is the words some real tools' names share, naming them as a group."""
    if re.search(re.escape(name) + r"`?\s+tools\b", around) is None:
        return False
    wanted = name_words(name)
    size = len(wanted)
    for tool in tool_names:
        parts = name_words(tool)
        if any(parts[i : i + size] == wanted for i in range(len(parts) - size + 1)):
            return True
    return False


# A sentence whose subject is what the tool returns, naming what it holds.
_RESULT_CARRIES = lazy(
    r"\b(?:the\s+)?(?:response|result|output|reply|payload)s?\s+(?:also\s+|may\s+(?:also\s+)?|will\s+(?:also\s+)?)?"
    r"(?:carr(?:y|ies)|includes?|contains?|has|have|holds?|names?|lists?)\b",
    re.IGNORECASE,
)


@check_function("dangling_tool_reference")
def dangling_tool_reference(ctx: CheckContext) -> Iterator[Hit]:
    tool_names = [tool.name for tool in ctx.server.tools]
    # Every tool's parameter names: a name listed beside a tool may be one of those instead.
    others = frozenset(_norm_name(str(name)) for tool in ctx.server.tools for name in tool.properties)
    index = _name_index(tuple(tool_names))
    kebab = sum("-" in name and "_" not in name for name in tool_names) * 2 > len(tool_names)
    # Every pattern needs one of these (a list of tools: code names).
    markers = ("`", "tool", "call", "invok", "instead", "_")
    titles = {
        tool.title.strip().casefold(): tool.name
        for tool in ctx.server.tools
        if tool.title and tool.title.strip() != tool.name
    }
    for tool in ctx.server.tools:
        if titles and "tool" in tool.description:
            yield from _titles_as_names(tool, titles, set(tool_names))
        own: set[str] = set()
        _schema_words(tool.input_schema, own)
        _schema_words(tool.raw.get("outputSchema"), own)
        if "=" in tool.description or '":' in tool.description:
            # `operation="getDimensionValues"`, `{"operation": "get_preferences"}`: values this tool's
            # own parameters take, named in its text (an operation of this tool, not another tool).
            for assigned in _ASSIGNED_VALUE.finditer(tool.description):
                if assigned.group(1) in tool.properties:
                    own.add(_norm_name(assigned.group(2)))
        seen: set[str] = set()
        for where, prose in _texts(tool):
            lowered = prose.lower()
            if not any(map(lowered.__contains__, markers)) and _CAMEL.search(prose) is None and not kebab:
                continue
            found = dangling_references(
                prose, tool_names, own, others, index, of_parameter=where != "description", kebab=kebab
            )
            for name, evidence, meant in found:
                if name in seen:
                    continue
                seen.add(name)
                yield Hit(
                    tool=tool.name,
                    fields={"reference": name, "hint": f"; did you mean `{meant}`?" if meant else ""},
                    evidence=evidence,
                    path=where,
                    subject=name,
                    suggestion=f"Did you mean `{meant}`?" if meant else None,
                )


def _texts(tool: Tool) -> Iterator[tuple[str, str]]:
    """The tool's description, then each of its parameters' descriptions ("the id from `list_users`")."""
    yield "description", tool.description
    for name, prop in tool.properties.items():
        text = prop.get("description") if isinstance(prop, Mapping) else None
        if isinstance(text, str) and text:
            yield f"inputSchema.properties.{name}.description", text


# "call the 'Query Documentation' tool": a tool named by its quoted display title.
_QUOTED_TOOL = lazy(r"(['\"`\u201c])([^'\"`\u201d\n]{3,60})['\"`\u201d]\s+tools?\b")


def _titles_as_names(tool: Tool, titles: Mapping[str, str], names: set[str]) -> Iterator[Hit]:
    """A quoted phrase called a tool that is another tool's title, not its name: the title is what a
    person sees, but the model can only call the name."""
    for match in _QUOTED_TOOL.finditer(tool.description):
        phrase = match.group(2).strip()
        meant = titles.get(phrase.casefold())
        if meant is None or phrase in names or meant == tool.name:
            continue
        yield Hit(
            tool=tool.name,
            fields={"reference": phrase, "hint": f"; did you mean `{meant}`? (that is its title)"},
            evidence=snippet(tool.description, match.start(), match.end()),
            path="description",
            subject=phrase,
            suggestion=f"Name the tool `{meant}`, the name a model calls it by.",
        )
