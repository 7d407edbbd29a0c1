"""MCP203 phantom-parameter: the description names a parameter the schema does not have."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._text import analysis
from mcp_lint.check.functions._util import name_words, server_prefix, snippet, trim, words
from mcp_lint.check.functions.schema._common import CAMEL, identifier_shaped
from mcp_lint.lazyre import lazy
from mcp_lint.model import Severity, Tool
from mcp_lint.schema_walk import value_schemas
from mcp_lint.words import singular

_INJECTED = frozenset({"ctx", "context", "self", "cls", "args", "kwargs", "request", "progress"})
# Words that sit before "parameter" without naming one ("the optional parameter").
_NOT_NAMES = frozenset(
    words(
        "a an the this that these those each every any all other same first second third last next "
        "previous following above below optional required additional extra named input output query "
        "path header headers body url search filter filters tool tools function json string boolean "
        "integer number array object valid invalid new old custom default specific single multiple "
        "various several given different mandatory relevant corresponding appropriate such its their "
        "your his her our my one two both which what no some more config configuration request "
        "response form sort sorting filtering pagination per with without as of to in on or and for "
        "by from is are be use using set pass provide specify supply either omit it them you we http "
        "get post api cli command line environment env template type value values data key keys name "
        "names true false null none then also only just not instead first later now here there when "
        "where while if unless so but yet more less most least all none once again always never other "
        "otherwise"
    )
)
_CUE = lazy(
    r"[`\"']?([A-Za-z_][A-Za-z0-9_]*)[`\"']?\s+(parameter|argument|param|arg|field|option|flag)s?\b",
    re.IGNORECASE,
)
_IDENT = lazy(r"`([A-Za-z_][A-Za-z0-9_]*)`|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)\b")
_USAGE_BEFORE = lazy(
    r"\b(?:use|set|pass|provide|specify|supply|omit|if|when|unless)\s+(?:the\s+|a\s+|an\s+)?$", re.I
)
_USAGE_AFTER = lazy(
    r"^`?\s*(?:is\s+(?:[a-z]+ly\s+)?(?:not\s+)?(?:set|true|false|provided|given|omitted|empty|null|required|optional)\b|must\b|should\b|"
    # not "can be used to ...": what a field of the result is for ("`next_cursor` can be used to ...")
    r"can be (?:set|given|provided|omitted|passed|specified|changed)\b|defaults? to\b|"
    r"are (?:set|provided|given|omitted)\b)",
    re.IGNORECASE,
)
# A verb that asks the caller for values: the coordinated names after it are what the call takes.
_CHAIN_VERBS = frozenset(
    words(
        "use set pass provide specify supply either omit give choose enter send include "
        "accepts takes requires"
    )
)
_CHAIN_TRIGGER = lazy(r"\b(?i:" + "|".join(sorted(_CHAIN_VERBS)) + r")\s+")
_INPUT_LIST_CONTEXT = lazy(
    r"\b(?i:" + "|".join(sorted(_CHAIN_VERBS)) + r")\s+(?:either\s+|both\s+|the\s+|a\s+|an\s+)*$"
)
# A parenthesis inside a chain ("a `period` (day, week or month) or ...") is passed over.
_CHAIN_TOKEN = lazy(r"\s*(`?[A-Za-z_][A-Za-z0-9_]*`?|,|/|and/or|\([^()]{0,60}\))")
# Verbs that hand the names after them values: "set `start` and `end`" names inputs even when no
# real parameter stands beside them ("use `asc` or `desc`" may name values).
_ASSIGNING = frozenset(words("set pass provide specify supply"))
_CHAIN_CONNECT = frozenset({",", "/", "or", "and", "and/or"})
_CHAIN_FILLER = frozenset(
    {"use", "provide", "specify", "pass", "set", "supply", "the", "a", "an", "either", "both"}
)
_SECTION = lazy(
    r"^\s*(?:(?:input|key|tool|function)\s+)?(?:args|arguments|parameters|params|inputs)"
    r"(?:\s+explained)?\s*:\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_SECTION_ITEM = lazy(r"^\s*[-*]?\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:\([^)]*\))?\s*(?::|—|–|-\s)")
_SECTION_END = lazy(r"^\s*(?:returns?|raises|yields|examples?|notes?|usage)\s*:", re.IGNORECASE)
# Searched in the lower-cased sentence: case-insensitive patterns are several times slower.
_OUTPUT_SENTENCE = lazy(
    r"\b(?:returns?|returned|response|results?|outputs?|yields|contains|includes|available|provides|shows"
    # "when `is_truncated` is true, call again": a retry depends on what came back
    r"|again|carry|carries"
    # "each build comes back with ...": what is handed back
    r"|(?:comes?|coming|came|sent|given|handed|gives)\s+back)\b"
)
# Cue words that name an input for sure; a "field", "option" or "flag" is as often part of the output.
_INPUT_CUES = frozenset({"parameter", "argument", "param", "arg"})
# "the parameter `max_items`", "argument `tag`": the cue word before a code-styled name.
_CUE_BEFORE = lazy(r"\b(?:parameter|argument|param|arg)s?\s+`([A-Za-z_][A-Za-z0-9_]*)`", re.IGNORECASE)
_SENTENCE_SPLIT = lazy(r"[.!?]\s+|\n")
# A line break inside a sentence: after a word or a comma, before a lower-case word that does not open
# an entry of its own ("limit: ...", "- name").
_SOFT_WRAP = lazy(r"(?<=[A-Za-z0-9,])\n(?=[a-z`(](?![A-Za-z0-9_`]*\s*(?:\([^)\n]*\))?\s*:))")
_FILE_EXT = lazy(r"\.(?:json|ya?ml|py|js|ts|md|txt|csv|toml)\b")
_URLS = lazy(r"https?://\S+|\S+\.(?:json|ya?ml|py|js|ts|md|txt|csv|toml)\b")
_CUE_WORDS = ("param", "arg", "field", "option", "flag")


def _norm(name: str) -> str:
    return "".join(name_words(name))


def _schema_names(schema: Any, into: set[str], exact: set[str] | None = None) -> None:
    """Every property name at any depth plus enum, const and default strings: all legitimate mentions.

    `into` gets the normalized forms; `exact`, when given, the names as spelled.
    """
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key in ("properties", "$defs", "definitions") and isinstance(value, Mapping):
                into.update(_norm(str(name)) for name in value)
                if exact is not None:
                    exact.update(str(name) for name in value)
            elif key in ("enum", "examples") and isinstance(value, list):
                into.update(_norm(item) for item in value if isinstance(item, str))
                if exact is not None:
                    exact.update(item for item in value if isinstance(item, str))
                continue
            elif key in ("const", "default") and isinstance(value, str):
                into.add(_norm(value))
                if exact is not None:
                    exact.add(value)
                continue
            _schema_names(value, into, exact)
    elif isinstance(schema, list):
        for item in schema:
            _schema_names(item, into, exact)


def _property_names(schema: Any, into: set[str]) -> None:
    """Property names only, at any depth (`$defs` included): what a near miss may be a misspelling of."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, Mapping):
                into.update(str(name) for name in value)
            if key not in ("enum", "examples", "const", "default"):
                _property_names(value, into)
    elif isinstance(schema, list):
        for item in schema:
            _property_names(item, into)


_KEY_VALUE_LINE = lazy(r"[ \t]*(?:-[ \t]+)?[A-Za-z_][A-Za-z0-9_]*:[ \t]*\S")


def _among_keys(text: str, header_end: int) -> bool:
    """Whether the header line ending at `header_end` is one key of a YAML-like block: the line above
    it is a `key: value` at the same indent (`action: merge` then `params:`), so what follows holds
    that structure's keys, not the tool's parameters."""
    line_start = text.rfind("\n", 0, header_end) + 1
    if line_start == 0:
        return False
    above_start = text.rfind("\n", 0, line_start - 1) + 1
    above = text[above_start : line_start - 1]
    header = text[line_start:header_end]
    indent = len(header) - len(header.lstrip())
    return _KEY_VALUE_LINE.match(above) is not None and len(above) - len(above.lstrip()) == indent


def _section_names(text: str) -> Iterator[tuple[str, int, int]]:
    """Names the Args section lists at its own level; deeper lines describe a parameter's keys.

    `template_sequence: list of configurations, each containing:` followed by an indented
    `- template_id: ...` lists the keys of the items, not parameters of the tool.
    """
    for header in _SECTION.finditer(text):
        if _among_keys(text, header.end()):
            continue
        offset = header.end() + 1
        level: int | None = None
        for line in text[offset:].split("\n"):
            if not line.strip() or _SECTION_END.match(line):
                break
            item = _SECTION_ITEM.match(line)
            if item:
                indent = len(line) - len(line.lstrip())
                if level is None:
                    level = indent
                if indent < level:
                    break  # back out to the structure the section sits in
                if indent == level:
                    yield item.group(1), offset + item.start(1), offset + item.end(1)
            offset += len(line) + 1


_BULLET = lazy(
    r"^([ \t]*)[-*•][ \t]+`?([A-Za-z_][A-Za-z0-9_]*)`?[ \t]*(?:\([^)\n]*\))?[ \t]*(?::|—|–|-[ \t])"
)


def _bullet_lists(text: str) -> Iterator[list[tuple[str, int, int]]]:
    """The entries of each bulleted `- name: ...` list at one indent, with no header saying what it lists."""
    group: list[tuple[str, int, int]] = []
    indent: str | None = None
    offset = 0
    for line in text.split("\n"):
        item = _BULLET.match(line)
        if item is not None and (indent is None or item.group(1) == indent):
            indent = item.group(1)
            group.append((item.group(2), offset + item.start(2), offset + item.end(2)))
        elif (
            item is None
            and line.strip()
            and indent is not None
            and len(line) - len(line.lstrip()) > len(indent)
        ):
            pass  # a continuation or a nested line of the current entry
        else:
            if len(group) >= 2:
                yield group
            group = [] if item is None else [(item.group(2), offset + item.start(2), offset + item.end(2))]
            indent = None if item is None else item.group(1)
        offset += len(line) + 1
    if len(group) >= 2:
        yield group


# A plain word in a chain that starts a new clause rather than naming an input: an auxiliary verb
# ("and does not take `b`"), or any word a code-quoted name follows within a few words (the clause's
# verb or subject: "and then returns `x`"). Its name is the code-quoted one, never the word.
_CLAUSE_WORDS = frozenset(
    words("does do did is are was were has have had can cannot will would may might should must not never")
)
_CODE_AHEAD = lazy(r"\s+(?:[A-Za-z']+\s+){0,3}`")


_NEGATED_VERB = lazy(r"\b(?:not|never|n't|no\s+longer)\s+$", re.IGNORECASE)


def _chains(sentence: str) -> Iterator[tuple[list[str], bool, bool]]:
    """Coordinated names after a usage verb: `use period or use start and end` -> [period, start, end],
    whether a cue word follows them ("... parameters"), and whether the verb assigns them values."""
    for trigger in _CHAIN_TRIGGER.finditer(sentence):
        if _NEGATED_VERB.search(sentence, max(0, trigger.start() - 12), trigger.start()):
            continue  # "Do not pass `forms`, `limit` or `years`": every name of the list is refused
        items: list[str] = []
        pos = trigger.end()
        expect_item = True
        while (token := _CHAIN_TOKEN.match(sentence, pos)) is not None:
            word = token.group(1)
            bare = word.strip("`").lower()
            if word.startswith("("):
                pos = token.end()
                continue
            if bare in _CHAIN_CONNECT:
                if not items:
                    break
                expect_item = True
            elif bare not in _CHAIN_FILLER:
                if not expect_item:
                    break
                if sentence[token.end(1) : token.end(1) + 1] == "-":
                    break  # "a natural-language `prompt`": half of a compound word
                if not word.startswith("`") and (
                    bare in _CLAUSE_WORDS or _CODE_AHEAD.match(sentence, token.end()) is not None
                ):
                    break  # "takes `id` and does not take `name`": a new clause, not a name
                items.append(word)
                expect_item = False
            pos = token.end()
        if len(items) < 2:
            continue  # popping below only shortens it
        rest = sentence[pos:].lstrip().lower()
        if rest.startswith("of ") or rest.startswith("instead"):
            # "use the start of the range": the last word heads a noun phrase, not a name;
            # "use a or b instead" names tools to call, not parameters.
            items.pop()
        if len(items) < 2 or rest.startswith("instead") or rest.startswith("tool"):
            continue
        cued = re.match(r"(?:parameter|argument|param|arg|field|option)s?\b", rest) is not None
        yield items, cued, trigger.group(0).strip().lower() in _ASSIGNING


def _looks_like_identifier(word: str) -> bool:
    return word.startswith("`") or "_" in word or (word[:1].islower() and any(c.isupper() for c in word))


def _ordinary_word(name: str) -> bool:
    """A word of prose set in code style: `THREE`, `Omitted`; never a parameter name on its own."""
    if "_" in name or any(char.isdigit() for char in name):
        return False
    return name.isupper() or (name[:1].isupper() and name[1:].islower())


def _has_identifiers(sentence: str) -> bool:
    # Cheap gate before the identifier regex: backticks, snake_case or camelCase must be present.
    return "`" in sentence or "_" in sentence or CAMEL.search(sentence) is not None


# After "pass `arXiv`": a following word of these kinds keeps the name a name; any other word makes
# it a modifier of that noun ("pass `arXiv` ids").
_NAME_FOLLOWERS = frozenset(
    words(
        "to as and or is are was be with when if for in on at by from must should can may will "
        "defaults default parameter parameters argument arguments param params arg args option flag "
        "set accepts takes then but not only also which that so instead"
    )
)
_NEXT_WORD = lazy(r"\s*([A-Za-z]+)")
# "when `judgment` is present": a condition on the result, not on an input.
_PRESENCE_AFTER = lazy(
    r"^\s*(?:is|are)\s+(?:present|included|returned|available|populated|missing|absent|shown|listed)\b",
    re.IGNORECASE,
)
# "if `x` is true, call again": the main clause after a condition tells the caller what to do next,
# so the condition is on what came back. Its first word is an imperative verb.
_CALLER_ACTS = lazy(
    r"`?\s+(?:is|are)\s+[^,;]{1,30}[,;]\s*(?:then\s+)?(?:(?:"
    + "|".join(
        sorted(
            words("call pass use fetch request retry repeat continue read ask send set provide invoke run")
        )
    )
    + r")\b|\w+\s+(?:again|more)\b)",
    re.IGNORECASE,
)
# "pass `next_page_token` as `page_token`": the name is a value handed to the parameter after it.
_PASSED_INTO = lazy(r"^`?\s+(?:as|into|in|for|to)\s+(?:the\s+)?`?([A-Za-z_][A-Za-z0-9_]*)")
_USE_BEFORE = lazy(r"\b(?:use|using)\s+(?:the\s+|a\s+|an\s+)?`?$", re.IGNORECASE)
_CONDITION_BEFORE = lazy(r"\b(?:if|when|unless)\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_TOOL_AFTER = lazy(r"^\s*(?:tool|instead|function|command|endpoint)\b", re.IGNORECASE)
# `read_file(path="a.txt", head=10)`: keyword arguments of an example call of this tool.
_CALL = lazy(r"\b([A-Za-z_][A-Za-z0-9_.-]*)\(([^()]{0,300})\)")
_KWARG = lazy(r"(?:^|[,\s])([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)")
# `params.originalUserMessage`: a property path into an object parameter.
_DOTTED = lazy(r"`?\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\b`?")


def dotted_phantom(root: Any, path: str) -> tuple[str, list[str]] | None:
    """(missing segment path, names it could have meant) for `a.b.c` when `a` is a parameter and some
    later segment is not a property of the object before it; None when the path resolves or the
    object does not declare its properties (then anything may be in it).
    """
    parts = path.split(".")
    props = root.get("properties") if isinstance(root, Mapping) else None
    if not isinstance(props, Mapping) or parts[0] not in props:
        return None
    current: Any = props[parts[0]]
    for index, part in enumerate(parts[1:], start=1):
        declared: dict[str, Any] = {}
        open_ended = False
        # the objects a value of it may be: itself, its `$ref`, its branches, what its arrays hold
        for branch, _ in value_schemas(root, current):
            inner = branch.get("properties")
            if isinstance(inner, Mapping):
                declared.update(inner)
            if branch.get("additionalProperties") not in (None, False) or "patternProperties" in branch:
                open_ended = True
        if not declared or open_ended:
            return None
        if part not in declared:
            return ".".join(parts[: index + 1]), list(declared)
        current = declared[part]
    return None


def _about_result(text: str, position: int) -> bool:
    """Whether the sentence of `text` around `position` talks about what the tool returns."""
    starts = [match.end() for match in _SENTENCE_SPLIT.finditer(text, 0, position)]
    following = _SENTENCE_SPLIT.search(text, position)
    sentence = text[starts[-1] if starts else 0 : following.start() if following else len(text)]
    return _OUTPUT_SENTENCE.search(sentence.lower()) is not None


def _names_a_property_in_words(sentence: str, word: str, props: set[str]) -> bool:
    """Whether `word` and the word after it spell a property: "job ID" for `jobId`."""
    following = re.search(rf"\b{re.escape(word)}\s+([A-Za-z][A-Za-z0-9]*)", sentence)
    return following is not None and _norm(word + following.group(1)) in props


# What a parameter adds to the name of the thing it identifies: `callback_query_id`, `mailFolderId`.
_ID_SUFFIXES = ("id", "ids", "key", "uid", "gid")


def _identifies(key: str, spelled: dict[str, str]) -> bool:
    """Whether the schema holds the id of the object `key` names (`mailFolder`, `mailFolders`)."""
    return any(stem + suffix in spelled for stem in {key, singular(key)} for suffix in _ID_SUFFIXES)


def _containing(name: str, choices: list[str]) -> list[str]:
    """The one property whose name holds the mention's words in order: `depth` -> `max_depth`."""
    wanted = name_words(name)
    size = len(wanted)
    hits = [
        choice
        for choice in choices
        if any(name_words(choice)[i : i + size] == wanted for i in range(len(name_words(choice)) - size + 1))
    ]
    return hits if len(hits) == 1 else []


# "a separate filterGroup", "each `tag`": an article or a quantifier before a name counts one thing.
_ELEMENT_BEFORE = lazy(
    r"\b(?:a|an|each|every|another|one|per|any|single|its|their|your)\s+(?:[a-z]+\s+)?`?$", re.IGNORECASE
)
# "each entry's `flag`", "the users' `role`": a name owned by another thing named just before it.
_POSSESSED = lazy(r"[A-Za-z](?:'s|s')\s+[`\"']?$")
# "{project_name}", "<column_id>", "${name}": a placeholder of a template, not a name of this call.
_PLACEHOLDER_OPEN = ("{", "<")
# "the nextCursor parameter from the response": what came back, handed on to the next call.
_FROM_RESULT = lazy(
    r"^`?\s*(?:(?:parameter|field|value|property|key|token)s?\s+)?(?:from|of|in)\s+(?:the\s+|a\s+|each\s+)?"
    r"(?:previous\s+|last\s+|prior\s+|earlier\s+)?(?:response|result|output|call)s?\b",
    re.IGNORECASE,
)


# Why a finding fired, put in its message so a reader sees how strong the evidence is.
SPELT = "spelt differently from the schema"
SECTION = "listed under Args"
LISTED = "listed among the parameters"
CALLED = "called a parameter"
KEYWORD = "a keyword of an example call"
EXAMPLE_KEY = "a key of an example input"
PATH = "a path into an object parameter"
BESIDE = "used as an input beside a real parameter"
USED = "used as an input"
INJECTED = "an argument the server's framework passes in, listed under Args"
# Weaker kinds of a near miss: a key inside another parameter (an item's or a result's field spelt
# the same way), and a spelling a letter or two away that is not a longer or shorter form of the name.
INNER = "spelt like a key inside another parameter"
NEAR = "a near spelling of a parameter"
# Evidence that reports at low: a name merely used in a sentence (the same words name fields of the
# result, keys of a format the tool takes, or ordinary nouns), and the weaker near misses above.
WEAK = frozenset({USED, BESIDE, INNER, NEAR})
# Evidence that declares the name a parameter: a plain word counts there too ("- tags: ...").
_DECLARED = frozenset({SECTION, LISTED, CALLED, KEYWORD, EXAMPLE_KEY})

# "exposes no `limit` parameter", "does not accept a `timeout`", "instead of `recipient`": the text
# says the name is not (or no longer) an input.
_NEGATED_BEFORE = lazy(
    r"\b(?:no|not|never|without|nor|neither|instead\s+of|rather\s+than|except|n't)(?:\s+[A-Za-z]+){0,2}\s*`?$",
    re.IGNORECASE,
)
_NEGATED_AFTER = lazy(
    r"^`?\s*(?:(?:parameter|argument|param|option|field|flag)s?\s+)?(?:is|are|was|were|has\s+been|have\s+been)\s+"
    r"(?:not\s+(?:supported|accepted|available|used|needed|required)|no\s+longer|deprecated|removed|renamed|"
    r"ignored|unsupported|gone)\b",
    re.IGNORECASE,
)
# "the `per_page` query parameter", "GET /repos/{owner}/issues": keys of an HTTP request the tool
# forwards, which belong inside an object parameter rather than beside it.
_REQUEST_KEYS = lazy(
    r"\b(?:query|url|path|header|form|body|request|http|rest|endpoint|api)[ -]"
    r"(?:parameter|param|string|key|field|argument)s?\b"
    r"|\b(?:GET|POST|PUT|PATCH|DELETE)\s+/",
    re.IGNORECASE,
)
# A header line of a result section ("Returns:", "Response format:"): the lines under it describe
# the result; the section ends at a blank line.
# So is a line that starts by saying what comes back and ends with a colon ("Returns event information
# including:", "The response will be a JSON object describing the deployment:").
_RESULT_HEADER = lazy(
    r"^[ \t]*(?:(?:returns?|response|responses|output|outputs|yields|result|results)(?:\s+\w+)?\s*:"
    r"|(?:returns?|(?:the\s+)?(?:response|result|output)s?\s+(?:is|are|will\s+be|contains?|includes?|has))"
    r"\b[^\n:]{0,120}:)[ \t]*\n",
    re.IGNORECASE | re.MULTILINE,
)
# A line that is a result section's label with the section on the same line, however the label is
# marked up ("**Returns:** For each recipient: email, id ...", "## Output: ...", "Returns - ..."): the
# rest of that line describes what comes back.
# "Output:" and "Result:" count only marked up as a label: plain, they may be an Args entry.
_RESULT_LINE = lazy(
    r"^[ \t]*(?:(?:#{1,6}[ \t]*|\*\*|__)?(?:returns?|response)(?:\s+\w+)?[ \t]*(?:\*\*|__)?[ \t]*:"
    r"|(?:#{1,6}[ \t]*|\*\*|__)(?:outputs?|results?)(?:\s+\w+)?[ \t]*(?:\*\*|__)?[ \t]*:"
    r"|(?:#{1,6}[ \t]*|\*\*|__)(?:outputs?|results?)(?:\s+\w+)?[ \t]*:[ \t]*(?:\*\*|__))[^\n]*",
    re.IGNORECASE | re.MULTILINE,
)
_BLANK_LINE = lazy(r"\n[ \t]*\n")
# `"key":` inside a JSON object quoted in the description.
_JSON_KEY = lazy(r'"([A-Za-z_][A-Za-z0-9_]*)"\s*:')
# A name only code uses: in backticks, snake_case or camelCase.
# (Not \b: a CJK character is a word character, and "solarDatetime和lunarDatetime" has no space.)
_CODE_NAME = (
    r"(?:`[A-Za-z_][A-Za-z0-9_]*`|(?<![A-Za-z0-9_])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)"
    r"(?![A-Za-z0-9_]))"
)
_CONNECTOR = r"\s*(?:,|/|\bor\b|\band\b|and/or|和|或|、|及)\s*(?:,\s*)?(?:either\s+|the\s+)?"
_PREDICATE_WORDS = ("optional", "required", "mandatory", "must be")
_INPUT_PREDICATE = lazy(
    r"\s*(?:(?:are|is)\s+(?:both\s+|all\s+)?(?:optional|required|mandatory)\b|must\b|必须|必填|可选)"
)
# "Pass either `period`, or `start`/`end`", "solarDatetime和lunarDatetime": code names coordinated.
_CODE_LIST = lazy(_CODE_NAME + "(?:" + _CONNECTOR + _CODE_NAME + ")+")
_LIST_NAME = lazy(r"`?([A-Za-z_][A-Za-z0-9_]*)`?")
# "Offset and duration are optional", "both source and destination must be ...": coordinated words
# that a predicate about inputs follows.
_WORD = r"`?[A-Za-z_][A-Za-z0-9_]*`?"
_PREDICATED_LIST = lazy(
    "(" + _WORD + "(?:" + _CONNECTOR + _WORD + "){1,4})"
    r"\s+(?:(?:are|is)\s+(?:both\s+|all\s+)?(?:optional|required|mandatory)\b|must\s+be\b)",
)


def _negated(before: str, after: str) -> bool:
    return _NEGATED_BEFORE.search(before) is not None or _NEGATED_AFTER.match(after) is not None


def _blank_results(text: str) -> str:
    """`text` with the lines of its result sections ("Returns:" and what follows) blanked out."""
    if ":" not in text:
        return text

    def to_blank_line(header: re.Match[str]) -> int:
        end = _BLANK_LINE.search(text, header.end())
        return end.start() if end else len(text)

    text = _blanked(text, _RESULT_HEADER.finditer(text), to_blank_line, keep_lines=False)
    if _RESULT_LINE.search(text) is None:
        return text
    # The blanked block keeps its line breaks, so the sentences around it stay apart.
    return _blanked(
        text, _RESULT_LINE.finditer(text), lambda line: _result_block_end(text, line), keep_lines=True
    )


def _blanked(
    text: str, starts: Iterator[re.Match[str]], end_of: Callable[[re.Match[str]], int], keep_lines: bool
) -> str:
    """`text` with each span from a match of `starts` to `end_of(match)` made blank (a match inside a
    span already blanked is skipped): spaces, or spaces with its line breaks kept."""
    pieces: list[str] = []
    pos = 0
    for match in starts:
        if match.start() < pos:
            continue
        end = end_of(match)
        span = text[match.start() : end]
        pieces.append(text[pos : match.start()])
        pieces.append(
            "".join("\n" if char == "\n" else " " for char in span) if keep_lines else " " * len(span)
        )
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def _result_block_end(text: str, line: re.Match[str]) -> int:
    """Where a result label's block ends: its own line, and when that line ends with a colon the
    lines indented under it ("   Returns: `data.credits`, a list where each item contains:" over
    "     - creditId; ...")."""
    header = line.group(0)
    if not header.rstrip().endswith(":"):
        return line.end()
    indent = len(header) - len(header.lstrip(" \t"))
    pos = line.end()
    while pos < len(text) and text[pos] == "\n":
        following = text.find("\n", pos + 1)
        following = len(text) if following < 0 else following
        body = text[pos + 1 : following]
        if not body.strip() or len(body) - len(body.lstrip(" \t")) <= indent:
            break
        pos = following
    return pos


_WRAPPERS = frozenset({"$ref", "anyOf", "oneOf", "allOf"})


def _open_objects(tool: Tool) -> list[str]:
    """Top-level parameters that take an object whose keys the schema leaves open (`params`, `body`)."""
    found: list[str] = []
    for name, prop in tool.properties.items():
        kind = prop.get("type") if type(prop) is dict else None
        if isinstance(kind, str) and kind != "object" and _WRAPPERS.isdisjoint(prop):
            continue  # a plain scalar or array: the common case, answered without the walk
        for branch, _ in value_schemas(tool.input_schema, prop):
            kind = branch.get("type")
            is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
            extra = branch.get("additionalProperties")
            if is_object and (not branch.get("properties") or extra not in (None, False)):
                found.append(str(name))
                break
    return found


def _json_example_keys(text: str) -> Iterator[tuple[list[tuple[str, int, int]], int]]:
    """The keys at the first level of each JSON object quoted in `text`, with the object's start."""
    start = text.find("{")
    while start >= 0:
        depth = 0
        keys: list[tuple[str, int, int]] = []
        pos = start
        end = -1
        while pos < len(text) and pos - start < 2000:
            char = text[pos]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    end = pos
                    break
            elif char == '"' and depth == 1:
                key = _JSON_KEY.match(text, pos)
                if key is not None:
                    keys.append((key.group(1), key.start(1), key.end(1)))
                    pos = key.end()
                    continue
                closing = text.find('"', pos + 1)
                pos = closing if closing > 0 else pos
            pos += 1
        if end < 0:
            return
        if keys:
            yield keys, start
        start = text.find("{", end + 1)


def phantom_mentions(
    tool: Tool, tool_names: set[str], elsewhere: frozenset[str] = frozenset()
) -> list[tuple[str, str, str | None, str]]:
    """(name, evidence, what it probably meant, why it counts) of names the description uses as
    parameters that the schema does not have, or spells differently (`total_thoughts` for
    `totalThoughts`).

    `tool_names` holds every tool name of the server (normalized), and the endings of those names
    after a server prefix: a mention of a tool is not a parameter, and a sentence that names another
    tool is about that tool's parameters. `elsewhere` holds other normalized names the server
    legitimately uses: its other tools' parameters ("skip if search used abstract_mode=full") and the
    result fields its descriptions pass as values (`start=next_start`); only a misspelling of this
    tool's own parameter is reported for those.

    The evidence comes in classes, strongest first: a name the schema spells differently (case,
    separators, plural, a typo); a name the text declares a parameter (an Args entry, "the `x`
    parameter", a keyword of an example call of this tool, a key of an example input, a path into an
    object parameter); a name used as an input (coordinated with a real parameter, "set `x`", "if `x`
    is true"). A name of the weaker classes that the schema could hold inside an open object
    parameter, or that sits in a sentence about HTTP request keys, is left alone unless misspelt.
    """
    text = tool.description
    if not text:
        return []
    known: set[str] = set()
    own_known: set[str] = set()  # `known` without the names other tools use
    exact: set[str] = set()
    spelled: dict[str, str] = {}
    loaded = False
    found: dict[str, tuple[str, str | None, str]] = {}
    open_objects: list[str] | None = None

    def opened() -> list[str]:
        """This tool's object parameters with open keys, found when first needed."""
        nonlocal open_objects
        if open_objects is None:
            open_objects = _open_objects(tool) if tool.properties else []
        return open_objects

    def load() -> None:
        nonlocal loaded
        if loaded:
            return
        loaded = True
        _schema_names(tool.input_schema, known, exact)
        # Fields of the declared result are legitimate mentions too ("when `judgment` is present").
        output: set[str] = set()
        _schema_names(tool.raw.get("outputSchema"), output)
        known.update(output)
        # Code-styled names in the result's own descriptions are fields of it too ("each with `endDate`").
        known.update(_norm(name) for name in _output_prose_names(tool.raw.get("outputSchema")))
        own_known.update(known)
        known.update(elsewhere)
        known.add(_norm(tool.name))
        names: set[str] = set()
        _property_names(tool.input_schema, names)
        for name in sorted(names):
            spelled.setdefault(_norm(name), name)

    def consider(
        raw: str,
        evidence: str,
        basis: str,
        near_only: bool = False,
        same_words: bool = False,
        beside: Sequence[str] = (),
        element: bool = False,
    ) -> None:
        """Record `raw` if the schema lacks it; `near_only` records only a misspelt property, and
        `same_words` only one spelt with the same words in another case or with other separators;
        names in `beside` stand next to it in the text, so it is not a guess at one of them;
        `element` says an article counts it ("a `tag`"), so the singular of a list parameter is one
        of its items rather than a misspelling."""
        name = raw.strip("`")
        key = _norm(name)
        if len(name) < 2 or name.lower() in _INJECTED or key in tool_names or name.isdigit():
            return
        if _ordinary_word(name) or name in found:
            return
        load()
        if name in exact:
            return
        # An Args entry of this tool is excused by its own names only: another tool's parameter of
        # that name does not excuse it.
        if key in (own_known if basis == SECTION else known):
            meant = spelled.get(key)
            if meant is not None and meant != name and identifier_shaped(name):
                found[name] = (evidence, meant, SPELT if meant in tool.properties else INNER)
            return
        if same_words:
            return
        if (
            basis not in (SECTION, CALLED, KEYWORD)
            and _identifies(key, spelled)
            and not re.search(re.escape(name) + r"[-_ ]?(?:id|ids|key)\b", evidence, re.IGNORECASE)
        ):
            # "Delete the specified mailFolder" with `mailFolderId`: the object, named by its id
            # (but "mailFolder-id = inbox" is the id spelt another way).
            return
        plural = spelled.get(singular(key)) or spelled.get(key + "s")
        if plural is not None:
            if element and _norm(plural) != key:
                return  # "put each condition in a separate filterGroup": one item of `filterGroups`
            if not (basis in _DECLARED or raw.startswith("`") or identifier_shaped(name)):
                return  # "(set properties, colors, shaders, etc)": words of prose beside `color`
            found[name] = (evidence, plural, SPELT if plural in tool.properties else INNER)
            return
        close = difflib.get_close_matches(name, list(spelled.values()), n=1, cutoff=0.85)
        if close and identifier_shaped(name):
            # `mailFolder` for `mailFolderId` is the name cut short; `numeric_filter` for
            # `metric_filter` is another word that happens to look alike.
            meant_key = _norm(close[0])
            shortened = meant_key.startswith(key) or key.startswith(meant_key)
            strong = shortened or basis in _DECLARED  # "the "results_filter" parameter"
            kind = (SPELT if strong else NEAR) if close[0] in tool.properties else INNER
            found[name] = (evidence, close[0], kind)
            return
        if near_only:
            return
        guess = _containing(name, list(spelled.values()))
        if not guess:
            guess = difflib.get_close_matches(name, list(spelled.values()), n=1, cutoff=0.75)
        if not guess:
            by_key = difflib.get_close_matches(key, list(spelled), n=1, cutoff=0.8)
            guess = [spelled[by_key[0]]] if by_key else []
        found[name] = (evidence, guess[0] if guess and guess[0] not in beside else None, basis)

    def plain_near(raw: str, evidence: str, basis: str) -> None:
        """A plain word ("the depth parameter") counts only when the schema holds it in a longer name."""
        name = raw.strip("`")
        if name in found or _norm(name) in tool_names:
            return
        load()
        if _norm(name) in known:
            return
        guess = _containing(name, list(spelled.values()))
        if guess:
            found[name] = (evidence, guess[0], basis)

    section = list(_section_names(text)) if ":\n" in text else []
    listed = {name for name, _, _ in section}
    # Keys of an open object are anything: an Args list that names the object itself lists its siblings.
    open_keys = bool(section) and bool(opened()) and not listed.intersection(opened())
    for name, start, end in section:
        if name.lower() in _INJECTED and name not in tool.properties:
            # `ctx: MCP context for logging`: the function's docstring, pasted whole, documents an
            # argument the framework passes in and the caller cannot.
            found.setdefault(name, (snippet(text, start, end), None, INJECTED))
            continue
        consider(name, snippet(text, start, end), SECTION, near_only=open_keys)
    if "\n" in text and tool.properties:
        # "- `query`: ...\n- `page_size`: ...": a list that is mostly this tool's parameters lists parameters.
        for entries in _bullet_lists(_blank_results(text)):
            real = sum(name in tool.properties for name, _, _ in entries)
            if real >= 2 and real * 2 >= len(entries):
                for name, start, end in entries:
                    consider(name, snippet(text, start, end), LISTED, near_only=bool(opened()))
    if "=" in text and "(" in text:
        own = _norm(tool.name)
        for call in _CALL.finditer(text):
            if _norm(call.group(1).rsplit(".", 1)[-1]) != own:
                continue  # an example of another tool, or of a function in the tool's domain
            for kwarg in _KWARG.finditer(call.group(2)):
                consider(kwarg.group(1), trim(call.group(0)), KEYWORD)
    if '":' in text and tool.properties:
        for keys, start in _json_example_keys(text):
            window = text[max(0, start - 60) : start].lower()
            # The line that introduces the example, above its code fence ("The response will be a
            # model object in the following format:").
            lead = text[max(0, start - 300) : start].rstrip().rstrip("`{[").rstrip().removesuffix("```json")
            lead = lead.rstrip().rsplit("\n", 1)[-1].lower()
            if (
                _OUTPUT_SENTENCE.search(window)
                or _OUTPUT_SENTENCE.search(lead)
                or not any(key in tool.properties for key, _, _ in keys)
            ):
                continue  # a result, or an object that is not this tool's input
            for key, key_start, key_end in keys:
                consider(key, snippet(text, key_start, key_end), EXAMPLE_KEY, near_only=bool(opened()))
    if "." in text and tool.properties:
        for match in _DOTTED.finditer(text):
            missing = dotted_phantom(tool.input_schema, match.group(1))
            if missing is not None and _about_result(text, match.start()):
                # "The status result's `exchange.skippedProviders`": a path into what comes back.
                continue
            if missing is not None and missing[0] not in found:
                path, choices = missing
                close = difflib.get_close_matches(path.rsplit(".", 1)[-1], choices, n=1, cutoff=0.6)
                meant = path.rsplit(".", 1)[0] + "." + close[0] if close else None
                found[path] = (snippet(text, match.start(), match.end()), meant, PATH)
    # A sentence is looked at only for an identifier, a cue word or a chain after a usage verb; a
    # description with none of them anywhere (most) is never split. The shared analysis has the
    # lower-cased text and its words; URL removal below can only take those away, never add them.
    # A sentence is a piece of `clean`, whose URL removal leaves a space, so it can hold an
    # identifier or a cue word only if the whole text does.
    shared = analysis(tool)
    text_identifiers = _has_identifiers(text)
    text_cue = any(map(shared.lowered.__contains__, _CUE_WORDS))
    text_predicate = any(map(shared.lowered.__contains__, _PREDICATE_WORDS))
    if not (text_identifiers or text_cue or text_predicate or not _CHAIN_VERBS.isdisjoint(shared.words)):
        return [(name, evidence, meant, basis) for name, (evidence, meant, basis) in found.items()]
    clean = _URLS.sub(" ", text) if "://" in text or _FILE_EXT.search(text) else text
    clean = _blank_results(clean)
    props: set[str] | None = None
    if "\n" in clean:
        # A sentence wrapped over lines ("each with: runId, timestamp,\nassetKey, and ...") is one sentence.
        clean = _SOFT_WRAP.sub(" ", clean)
    for sentence in _SENTENCE_SPLIT.split(clean):
        if not sentence or sentence.isspace():
            continue
        identifiers = text_identifiers and _has_identifiers(sentence)
        lowered = sentence.lower()
        has_cue = text_cue and any(map(lowered.__contains__, _CUE_WORDS))
        # A chain needs a connector and a usage verb: the trigger _chains() starts from.
        has_chain = (
            " or " in lowered or " and " in lowered or "," in lowered or "/" in lowered
        ) and _CHAIN_TRIGGER.search(sentence) is not None
        has_predicate = text_predicate and any(map(lowered.__contains__, _PREDICATE_WORDS))
        if not (identifiers or has_cue or has_chain or has_predicate):
            continue
        if identifiers and any(tool_mentioned(sentence, tool_names)):
            continue
        output = _OUTPUT_SENTENCE.search(lowered) is not None
        # Keys of an HTTP request, or of an object parameter whose keys are open: only a misspelling counts.
        loose = bool(opened()) or _REQUEST_KEYS.search(sentence) is not None
        if has_cue:
            for match in _CUE.finditer(sentence):
                word = match.group(1)
                cue = match.group(2).lower()
                if word.lower() in _NOT_NAMES or cue == "field":
                    continue  # "the `weakCounters` field": a field is as often output as input
                if cue not in _INPUT_CUES and (output or not _looks_like_identifier(word)):
                    continue
                if output and not _looks_like_identifier(match.group(0)):
                    continue
                if _negated(sentence[max(0, match.start() - 40) : match.start()], sentence[match.end(1) :]):
                    continue  # "exposes no `limit` parameter"
                if _FROM_RESULT.match(sentence[match.end(1) :]):
                    continue  # "the nextCursor parameter from the response": a field of what came back
                owner = sentence[max(0, match.start() - 40) : match.start() + 1]
                if cue not in _INPUT_CUES and _POSSESSED.search(owner):
                    continue  # "each entry's `created_by_this_profile` flag": a flag of what comes back
                plural = match.group(0).rstrip().lower().endswith("s")
                if plural and not identifier_shaped(word):
                    continue  # "with `incomplete` parameters": an adjective of the parameters
                evidence = snippet(sentence, match.start(), match.end())
                if not _looks_like_identifier(match.group(0).split()[0]):
                    plain_near(word, evidence, CALLED)  # "the depth parameter": a word, unless near one
                else:
                    consider(word, evidence, CALLED, near_only=loose)
            for match in _CUE_BEFORE.finditer(sentence):
                if output or _negated(sentence[max(0, match.start() - 40) : match.start()], ""):
                    continue
                consider(
                    match.group(1), snippet(sentence, match.start(), match.end()), CALLED, near_only=loose
                )
        if props is None:
            props = {_norm(name) for name in tool.properties}
        if has_chain:
            for items, cued, assigning in _chains(sentence):
                anchored = cued or any(_norm(item.strip("`")) in props for item in items)
                for item in items:
                    if item.strip("`").lower() in _NOT_NAMES:
                        continue
                    if _names_a_property_in_words(sentence, item.strip("`"), props):
                        continue  # "job ID" is `jobId` in words, not a parameter named `job`
                    if output or not anchored:
                        # Values ("use `asc` or `desc`") and fields of the result read the same way;
                        # "set `start` and `end`" hands names values.
                        if _looks_like_identifier(item):
                            strong = assigning and not output and not loose
                            consider(item, trim(sentence), USED, near_only=not strong)
                    else:
                        basis = BESIDE if not cued else CALLED
                        beside = [other.strip("`") for other in items]
                        consider(item, trim(sentence), basis, near_only=loose, beside=beside)
        if not output and (identifiers or has_predicate):
            # Names coordinated with a real parameter: code names anywhere, any words before "are optional".
            groups = [(group, True) for group in _CODE_LIST.finditer(sentence)] if identifiers else []
            if has_predicate:
                groups.extend((group, False) for group in _PREDICATED_LIST.finditer(sentence))
            for group, code in groups:
                names = [
                    name
                    for name in _LIST_NAME.findall(group.group(1) if not code else group.group(0))
                    if name.lower() not in _NOT_NAMES and name.lower() not in _CHAIN_FILLER
                ]
                real = sum(_norm(name) in props for name in names)
                if not real or real * 2 < len(names):
                    continue
                # "each item has `id`, `title` and `html_link`": one shared name among fields of the
                # result; a code list counts when mostly real parameters, after a verb that asks for
                # values, or before "are optional" or "must be".
                before_list = sentence[max(0, group.start() - 30) : group.start()]
                if (
                    code
                    and real < 2
                    and not _INPUT_LIST_CONTEXT.search(before_list)
                    and not _INPUT_PREDICATE.match(sentence, group.end())
                ):
                    continue
                if _negated(sentence[max(0, group.start() - 40) : group.start()], ""):
                    continue
                for name in names:
                    if not _names_a_property_in_words(sentence, name, props):
                        evidence = snippet(sentence, group.start(), group.end())
                        consider(name, evidence, BESIDE, near_only=loose, beside=names)
        if not identifiers:
            continue
        # Keyword arguments of example calls were read above, for this tool's calls only.
        calls = [call.span(2) for call in _CALL.finditer(sentence)] if "(" in sentence else []
        for match in _IDENT.finditer(sentence):
            if any(start <= match.start() < end for start, end in calls):
                continue
            word = match.group(1) or match.group(2)
            if sentence[match.end() : match.end() + 1] == ".":
                continue  # a dotted path, checked above against the wrapper's properties
            before = sentence[max(0, match.start() - 40) : match.start()]
            after = sentence[match.end() : match.end() + 40]
            if _TOOL_AFTER.match(after) or _PRESENCE_AFTER.match(after) or _FROM_RESULT.match(after):
                continue
            if before.endswith(_PLACEHOLDER_OPEN):
                continue  # "in this project {project_name}", "LABEL_<column_id>": a template's placeholder
            element = _ELEMENT_BEFORE.search(before) is not None
            key_value = after.lstrip("`").startswith("=") and not after.lstrip("`").startswith("==")
            used_after = _USAGE_AFTER.match(after) is not None
            used_before = _USAGE_BEFORE.search(before) is not None
            if used_before and not used_after:
                if _CONDITION_BEFORE.search(before):
                    continue  # "if `x`" without "is set/true/...": a condition on anything
                follower = _NEXT_WORD.match(after)
                if follower and follower.group(1).lower() not in _NAME_FOLLOWERS:
                    continue  # "pass `arXiv` ids": the name qualifies the noun after it
            evidence = snippet(sentence, match.start(), match.end())
            if _negated(before, after):
                continue  # "use `to_address` instead of `recipient`"
            if used_after and _CONDITION_BEFORE.search(before) and _CALLER_ACTS.match(sentence, match.end()):
                continue  # "if `has_more` is true, call again": the caller reacts to a field of the result
            into = _PASSED_INTO.match(after)
            if into is not None and _norm(into.group(1)) in (props or ()):
                continue  # "pass `next_page_token` as `page_token`": a value for a real parameter
            # "use `created` or `updated`" may name values or tools; a verb that assigns names an input.
            assigned = used_after or (used_before and _USE_BEFORE.search(before) is None)
            if output and not assigned and not key_value:
                # "Returns runId, status, jobName": a name in passing in a sentence about what comes
                # back is a field of it, though the input spells the same words another way (`job_name`).
                continue
            if not assigned and _POSSESSED.search(before):
                continue  # "each entry's `created_by_this_profile` flag": a field of another object
            if key_value or not assigned:
                # `fontSize=12` of a style format, or a name in passing: only a misspelling counts.
                consider(word, evidence, USED, near_only=True, element=element)
            else:
                # In a sentence about the result a name may be a field of it: only a misspelt
                # parameter is reported there ("narrow results with `results_filter`").
                consider(word, evidence, USED, near_only=output or loose, element=element)
    return [(name, evidence, meant, basis) for name, (evidence, meant, basis) in found.items()]


def _sibling_objects(schema: Any, path: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Every object schema with declared properties in an input schema, with its JSON path: the
    properties of one such object are the siblings its properties' descriptions may name."""
    stack: list[tuple[Any, str]] = [(schema, path)]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, Mapping):
            continue
        props = node.get("properties")
        if isinstance(props, Mapping) and props:
            yield props, where
            for name, prop in props.items():
                stack.append((prop, f"{where}.properties.{name}"))
        items = node.get("items")
        if isinstance(items, Mapping):
            stack.append((items, f"{where}.items"))


# "setting the `order_by` field to ...": the text sets the name it spells.
_SETTING_BEFORE = lazy(r"\b(?:set|setting|pass|passing)\s+(?:the\s+)?`?$", re.IGNORECASE)


def _holds_objects(tool: Tool, prop: Any) -> bool:
    """Whether a property's value is an object or a list of objects (its text names their keys)."""
    if not isinstance(prop, Mapping):
        return False
    for branch, _ in value_schemas(tool.input_schema, prop):
        kinds = branch.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "object" in kinds or "properties" in branch:
            return True
        items = branch.get("items")
        if isinstance(items, Mapping) and (
            items.get("type") == "object" or "properties" in items or "$ref" in items
        ):
            return True
    return False


def sibling_spellings(tool: Tool, tool_names: set[str]) -> list[tuple[str, str, str, str]]:
    """(name, evidence, the property it means, where) of names a parameter's own description uses that
    spell one of that object's properties with the same words another way: `inbound_method` in the
    description of `InboundRequestUrl` beside an `InboundMethod` property. Text written for another
    API's spelling (a REST reference in snake_case for a tool whose schema is PascalCase) tells the
    model a name the schema does not accept. Only the same words count: a name in other words may be a
    field of the result or of a format, and a name the schema spells exactly anywhere is not reported.
    A property's description naming itself another way ("the `raiseOnBehalfOf` user") sits beside the
    right key, so it counts only where the text sets it ("`page_token` must be ..."); the description
    of a property that holds objects names the keys of those objects, not its siblings.
    """
    exact: set[str] = set()
    _schema_names(tool.input_schema, set(), exact)
    found: dict[str, tuple[str, str, str]] = {}
    for props, where in _sibling_objects(tool.input_schema, "inputSchema"):
        by_words = {_norm(str(name)): str(name) for name in props}
        for name, prop in props.items():
            text = prop.get("description") if isinstance(prop, Mapping) else None
            if not isinstance(text, str) or not _has_identifiers(text) or _holds_objects(tool, prop):
                continue
            for match in _IDENT.finditer(text):
                word = match.group(1) or match.group(2)
                if word in exact or word in found or not identifier_shaped(word):
                    continue
                if (
                    text[match.end() : match.end() + 1] == "."
                    and text[match.end() + 1 : match.end() + 2].isalnum()
                ):
                    continue  # `a.b`: a path into something else
                meant = by_words.get(_norm(word))
                if meant is None or _norm(word) in tool_names:
                    continue
                before = text[max(0, match.start() - 40) : match.start()]
                after = text[match.end() : match.end() + 40]
                if _negated(before, after):
                    continue
                if meant == name and not (_USAGE_AFTER.match(after) or _SETTING_BEFORE.search(before)):
                    continue  # the property named another way beside its own key, not set
                found[word] = (
                    snippet(text, match.start(), match.end()),
                    meant,
                    f"{where}.properties.{name}.description",
                )
    return [(word, evidence, meant, path) for word, (evidence, meant, path) in found.items()]


def tool_name_forms(tool_names: Sequence[str]) -> frozenset[str]:
    """Normalized tool names, and each without the server's prefix: `get_page` names `confluence_get_page`."""
    prefix = server_prefix(tool_names)
    forms: set[str] = set()
    for name in tool_names:
        parts = name_words(name)
        forms.add("".join(parts))
        if prefix is not None and len(parts) >= 3 and parts[0] == prefix:
            forms.add("".join(parts[1:]))
    return frozenset(forms)


def tool_mentioned(sentence: str, tool_names: set[str]) -> Iterable[bool]:
    for match in _IDENT.finditer(sentence):
        yield _norm(match.group(1) or match.group(2)) in tool_names


_VALUE_NAME = lazy(r"\b[A-Za-z_][A-Za-z0-9_]*\s*=\s*`?([A-Za-z_][A-Za-z0-9_]*)")
_OUTPUT_PROSE_NAME = lazy(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def _output_prose_names(schema: Any) -> set[str]:
    """Code-styled names in the descriptions of a result schema, at any depth."""
    found: set[str] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            text = node.get("description")
            if isinstance(text, str) and "`" in text:
                found.update(_OUTPUT_PROSE_NAME.findall(text))
            stack.extend(value for value in node.values() if isinstance(value, (Mapping, list)))
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _server_names(tools: Sequence[Tool]) -> frozenset[str]:
    """The normalized names the server uses besides a tool's own: every tool's parameters and the
    result fields its descriptions pass as values (`start=next_start`). One set for the server: a
    tool's own parameters in it change nothing, since those are known to it anyway."""
    names: set[str] = set()
    for tool in tools:
        if "=" in tool.description:
            names.update(_norm(name) for name in _VALUE_NAME.findall(tool.description))
        names.update(_norm(name) for name in tool.properties)
    return frozenset(names)


@check_function("phantom_parameter")
def phantom_parameter(ctx: CheckContext) -> Iterator[Hit]:
    # The tool's own name is also in this set; it is a legitimate mention either way.
    all_names = set(tool_name_forms([tool.name for tool in ctx.server.tools]))
    elsewhere = _server_names(ctx.server.tools)
    for tool in ctx.server.tools:
        reported: set[str] = set()
        for name, evidence, meant, basis in phantom_mentions(tool, all_names, elsewhere):
            reported.add(name)
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={
                    "parameter": name,
                    "basis": basis,
                    "hint": f"; did you mean `{meant}`?" if meant else "",
                },
                evidence=evidence,
                path="description",
                suggestion=f"Did you mean `{meant}`?" if meant else None,
                severity_cap=Severity.LOW if basis in WEAK else None,
            )
        if not tool.properties:
            continue
        for name, evidence, meant, path in sibling_spellings(tool, all_names):
            if name in reported:
                continue
            yield Hit(
                tool=tool.name,
                subject=name,
                fields={"parameter": name, "basis": SPELT, "hint": f"; did you mean `{meant}`?"},
                evidence=evidence,
                path=path,
                suggestion=f"Did you mean `{meant}`?",
            )
