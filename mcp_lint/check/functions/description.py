"""Rules about the description text itself (MCP1xx)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._text import analysis
from mcp_lint.check.functions._util import is_placeholder, name_words, trim, words
from mcp_lint.check.tokens import estimate_tokens
from mcp_lint.lazyre import lazy
from mcp_lint.words import stem


@check_function("missing_description")
def missing_description(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        value = tool.raw.get("description")
        if isinstance(value, str) and value.strip() and not is_placeholder(value):
            continue
        if value is None:
            state = "missing"
        elif not isinstance(value, str):
            state = "not a string"
        elif value.strip():
            state = f"a placeholder ({trim(value.strip(), 40)!r})"
        elif value:
            state = "only whitespace"
        else:
            state = "empty"
        yield Hit(
            tool=tool.name,
            fields={"state": state},
            evidence=f"description: {trim(repr(value), 60)}",
            path="description",
        )


@check_function("description_too_long")
def description_too_long(ctx: CheckContext) -> Iterator[Hit]:
    limit = int(ctx.options.get("max-tokens", 500))
    for tool in ctx.server.tools:
        tokens = estimate_tokens(tool.description)
        if tokens > limit:
            yield Hit(
                tool=tool.name,
                fields={"tokens": tokens, "max_tokens": limit},
                evidence=trim(tool.description, 80),
                path="description",
            )


# Words that add nothing beyond the name: "Tool to get weather." says only "get weather".
_FILLER = frozenset(
    words(
        "a an the this that tool function endpoint method api mcp to for of which will is it used use can you"
    )
)


@check_function("description_echoes_name")
def description_echoes_name(ctx: CheckContext) -> Iterator[Hit]:
    max_words = int(ctx.options.get("max-words", 8))
    for tool in ctx.server.tools:
        text = tool.description
        # Cheap upper bound on the word count first: most descriptions are far longer than an echo.
        if not text.strip() or text.count(" ") > 2 * max_words:
            continue
        # CJK text counts as character bigrams: a Chinese sentence is many words, none of them the name's.
        shared = analysis(tool)
        words = shared.tokens
        if len(words) > max_words or shared.placeholder:
            continue
        name = {stem(word) for word in name_words(tool.name)}
        content = {stem(word) for word in words if word not in _FILLER}
        if content and content <= name:
            yield Hit(tool=tool.name, fields={}, evidence=trim(text), path="description")


_ELLIPSIS = lazy(r"(?:\.\.\.|…)\s*$")
_PLACEHOLDER_WORDS = ("TODO", "FIXME", "TBD", "XXX", "WIP", "lorem ipsum")
_PLACEHOLDER = lazy(r"\b(?:TODO|FIXME|TBD|XXX|WIP|lorem ipsum)\b")
# "Turn the light on" and "Log the user in" are finished sentences, so only words that cannot end one.
_DANGLING = lazy(
    r"(?:\b(?:the|a|an|and|or|to|of|with|by|from|if|when|that|which|such as|including|like)|\be\.g\.)"
    r"\s*,?\s*$"
    r"|\b(?:of|following|follows|are|is|include|includes|options|values|modes|types|either|below|these|"
    r"example|examples)\s*:\s*$|[,(]\s*$"
)
_ETC = lazy(r"\betc\.*\s*$|\)\s*(?:\.\.\.|…)\s*$", re.IGNORECASE)
# English strands prepositions: "the field to sort by", "the channel to post to", "what to search for"
# are finished. A preposition after an infinitive or a modal verb is stranded unless the word before
# it is a participle that still needs its object ("to look up data owned by" is cut off).
_STRANDABLE = frozenset({"to", "by", "with", "from", "for"})
_STRANDED = lazy(
    r"\b(?:to|can|could|may|might|should|will|would|must)\s+(?:[A-Za-z]+\s+){0,3}?([A-Za-z]+)\s+"
    r"(?:to|by|with|from|for)\s*$",
    re.IGNORECASE,
)
_PARTICIPLES = frozenset(
    words("written taken given made done seen known held built sent kept found chosen driven shown grown")
)


def _stranded(text: str) -> bool:
    match = _STRANDED.search(text[-80:])
    if match is None:
        return False
    before = match.group(1).lower()
    return not (before.endswith("ed") or before in _PARTICIPLES)


@check_function("truncated_description")
def truncated_description(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        text = tool.description.rstrip()
        if not text or is_placeholder(text):
            continue  # missing-description reports it
        reason = None
        tail = text[-60:]
        placeholder = _PLACEHOLDER.search(text) if any(word in text for word in _PLACEHOLDER_WORDS) else None
        if placeholder:
            reason = f"contains the placeholder {placeholder.group(0)!r}"
        elif _ELLIPSIS.search(tail) and not _ETC.search(tail):
            reason = "ends with an ellipsis"
        elif _DANGLING.search(tail) and not (text.split()[-1].lower() in _STRANDABLE and _stranded(text)):
            reason = "ends mid-sentence"
        if reason is None:
            continue
        if placeholder:
            evidence = trim(text[placeholder.start() :])
        else:
            evidence = trim("…" + text[-70:] if len(text) > 70 else text)
        yield Hit(tool=tool.name, fields={"reason": reason}, evidence=evidence, path="description")
