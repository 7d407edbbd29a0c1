"""What a parameter's prose states about its values: a default, a closed list of values, where to read it.

Shared by the consistency rules (MCP207 unenforced-range, MCP209 default-mismatch, MCP210
enum-mismatch). Each reader answers only for statements whose shape says they are about the
parameter's own value: a default after "default"/"defaults to" at the start of a clause (not "the
server's default page size"), a list after a cue that closes it ("one of", "either ... or",
"possible values") or in brackets after the noun that names a choice ("Travel mode (driving,
walking)"). A list of examples ("e.g.", "such as", "etc.", "...") or one inside a condition ("if the
field is a checkbox, `true` or `false`") states nothing closed, and is left alone.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_lint.check.functions._util import words
from mcp_lint.check.functions.schema._common import identifier_shaped
from mcp_lint.lazyre import lazy
from mcp_lint.model import Tool, value_record
from mcp_lint.schema_walk import property_variants, walk_parameters
from mcp_lint.words import name_words, singular

# One value as prose writes it: quoted, a number, or a bare token.
_QUOTED = r"`[^`\n]{1,40}`|'[^'\n]{1,40}'|\"[^\"\n]{1,40}\""
# A number may group its thousands ("100,000"): the comma there does not end the clause.
_GROUPED = r"-?\d{1,3}(?:,\d{3})+(?![\w]|[.,]\d)"
# A number may end its sentence ("Default: 500."), but not stop short of its decimals.
_VALUE = rf"(?:{_QUOTED}|{_GROUPED}|-?\d+(?:\.\d+)?(?![\w]|\.\d)|[A-Za-z_][\w-]*(?:[.:][\w-]+)*)"
# A clause ends right after a value that is the whole of what the clause states.
# A colon inside a token ("about:blank", "qdr:h") is part of the value, not the clause's end.
_CLAUSE_END = (
    r"(?=\s*(?:[,;)\]]|:(?!\S)|\.(?:\s|$)|$|\s(?:if|when|unless|and|or|but|for|which|so|otherwise)\b))"
)
# Where "default" may stand: the start of a clause, or after a word that leaves the default the
# parameter's own ("the default is 5", "optional, defaults to 10"). After any other word it is the
# default of something else: "the server's default backend", "uses the kubectl default".
_DEFAULT_LEAD = r"(?:^|(?<=[(\[,;:.\u2013\u2014-])\s*|(?<=\s)(?:the|its|with|optional|which|and|it)\s+)"
_DEFAULT_CUE = lazy(
    rf"{_DEFAULT_LEAD}(?:defaults?(?:\s+value)?(?P<link>\s+(?:is|to|of|being))?\s*(?P<sign>[:=])?\s*"
    rf"|defaulting to\s+)"
    rf"(?P<value>{_VALUE}){_CLAUSE_END}",
    re.IGNORECASE | re.MULTILINE,
)
# "the default emotion", "use the default name": with no link ("is", "to", ":") between them, a bare
# word after "default" is the noun it qualifies, not a value. A number, a boolean or a quoted value
# still is one ("default 20", "(default 'json')").
_BARE_VALUE = lazy(r"-?[\d,]+(?:\.\d+)?|true|false", re.IGNORECASE)
# "Defaults to DESTINATION_USER_ID", "defaults to $HOME": where the value is read from, not a value.
_FROM_ENVIRONMENT = lazy(r"\$?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\$[A-Za-z_]\w*")
# "'text' (default)", "When false (default), ...": the value named the default by a bracket after it.
_DEFAULT_AFTER = lazy(
    rf"(?P<value>{_QUOTED}|\b(?:true|false|-?\d+(?:\.\d+)?))\s*\(default\s*(?:\)|,[^)]{{0,80}}\))"
    # a bulleted option marked as the default: "- mapbox/driving (default): by car"
    r"|^[ \t]*[-*\u2022][ \t]+(?P<option>[\w./-]{1,60})[ \t]*\(default\)",
    re.IGNORECASE | re.MULTILINE,
)
_NO_VALUE = frozenset({"null", "none", "nil", "undefined", "empty", ""})
_BOOLEANS = {"true": True, "false": False, "yes": True, "no": False}


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class StatedDefault:
    value: str  # as written, quotes stripped
    quoted: bool
    span: tuple[int, int]


def _unquote(token: str) -> tuple[str, bool]:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "`'\"":
        return token[1:-1].strip(), True
    return token, False


def stated_defaults(text: str) -> list[StatedDefault]:
    found: list[StatedDefault] = []
    for pattern in (_DEFAULT_CUE, _DEFAULT_AFTER):
        for match in pattern.finditer(text):
            value, quoted = _unquote(match.group("value") or match.group("option"))
            if pattern is _DEFAULT_CUE and not quoted:
                linked = match.group("link") or match.group("sign") or "defaulting" in match.group(0).lower()
                if not linked and not _BARE_VALUE.fullmatch(value):
                    continue
                if _FROM_ENVIRONMENT.fullmatch(value):
                    continue
            option = pattern is _DEFAULT_AFTER and match.group("option")
            start = match.start("option") if option else match.start()
            found.append(StatedDefault(value, quoted, (start, match.end())))
    return found


# Units a parameter's name may end with, each with the words prose writes it in.
_UNITS = (
    frozenset(words("ms millis millisecond milliseconds")),
    frozenset(words("s sec secs second seconds")),
    frozenset(words("min mins minute minutes")),
    frozenset(words("h hr hrs hour hours")),
    frozenset(words("day days")),
    frozenset(words("byte bytes")),
    frozenset(words("kb kilobyte kilobytes")),
    frozenset(words("mb megabyte megabytes")),
    frozenset(words("px pixel pixels")),
)
_DEFAULT_WITH_UNIT = lazy(
    rf"{_DEFAULT_LEAD}defaults?(?:\s+(?:is|to|of))?\s*[:=]?\s*(?P<value>-?\d+(?:\.\d+)?)\s*(?P<unit>[A-Za-z]+)\b",
    re.IGNORECASE | re.MULTILINE,
)


def unit_defaults(text: str, name_parts: list[str]) -> list[StatedDefault]:
    """Defaults stated with a unit that is the one the parameter's name carries: "Defaults to 600
    seconds" for `max_duration_seconds`. In another unit ("5 minutes" for a value in seconds) the
    number is not the value to send, and is left alone."""
    if not name_parts or "default" not in text.lower():
        return []
    units = next((group for group in _UNITS if name_parts[-1] in group), None)
    if units is None:
        return []
    return [
        StatedDefault(match.group("value"), False, match.span())
        for match in _DEFAULT_WITH_UNIT.finditer(text)
        if match.group("unit").lower() in units
    ]


def _normal(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "") if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+", text) else text)
    except ValueError:
        return None


def default_disagrees(stated: StatedDefault, default: Any) -> bool | None:
    """Whether `stated` contradicts the schema's `default`; None when the two cannot be compared.

    A null or empty default is "no value": the prose then states what the server uses instead, which
    is no contradiction. A word where a number or a boolean is due ("defaults to unlimited") says
    something the schema cannot, and is not compared either.
    """
    if default is None or default == "" or isinstance(default, (list, dict)):
        return None
    word = stated.value.lower()
    if word in _NO_VALUE:
        return None
    if isinstance(default, bool):
        return None if word not in _BOOLEANS else _BOOLEANS[word] is not default
    if isinstance(default, (int, float)):
        number = _number(stated.value)
        return None if number is None else number != float(default)
    if isinstance(default, str):
        token = re.fullmatch(r"[\w.:-]+", stated.value) is not None
        if not stated.quoted and _number(stated.value) is None and not token:
            return None
        if not stated.quoted and not _normal(default):
            return None  # a default of signs only ("/", "*") is named in words: "defaults to root"
        return _normal(stated.value) != _normal(default)
    return None


def mentions_value(text: str, value: Any, outside: tuple[int, int]) -> bool:
    """Whether the number `value` (the schema's default) is written in `text` outside the span `outside`.

    "0 for the default of 100" with `"default": 0` explains a sentinel: the 100 is what 0 stands
    for, and the two agree. Only numbers stand for something else that way; a string or boolean
    default named elsewhere is one of the alternatives ("'text' (default) or 'json'").
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    shown = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    for match in re.finditer(rf"(?<![\w.]){re.escape(shown)}(?![\w]|\.\d)", text):
        if match.end() <= outside[0] or match.start() >= outside[1]:
            return True
    return False


# Cues after which a list is closed: the values it names are all there are.
_CLOSED_CUE = (
    r"\b(?:must be one of|one of|must be(?:\s+either)?|should be(?:\s+either)?|can be(?:\s+either)?|either"
    r"|(?:possible|valid|allowed|accepted|supported|available)\s+values?(?:\s+(?:are|is|include))?"
    r"|(?:possible|valid|allowed|accepted|supported|available)\s+options?(?:\s+(?:are|include))?"
    r"|options(?:\s+are)?|values(?:\s+are)?|choices(?:\s+are)?)"
)
_ITEM = rf"(?:{_QUOTED}|[\w./-]{{1,30}})"
_SEPARATOR = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:or|and)\s+|\s*\|\s*|\s*/\s*)"
_CUED_LIST = lazy(
    rf"{_CLOSED_CUE}\s*:?\s+(?P<items>{_ITEM}(?:{_SEPARATOR}{_ITEM})+)(?P<after>\s*(?:,?\s*(?:etc\b|\.\.\.|…)))?",
    re.IGNORECASE,
)
# A noun that names a choice among values, with the values in brackets after it: "Travel mode
# (driving, walking, bicycling, transit)". Without the noun, brackets hold anything ("HGVS notation
# (genomic, coding, or protein)" names kinds of notation, not values).
_CHOICE_NOUN = (
    r"\b(?:type|kind|mode|format|level|status|state|order|direction|method|strategy|style|scope|category"
    r"|visibility|action|operation|unit|engine|backend|provider|sort)s?"
)
_BRACKETED_LIST = lazy(
    rf"{_CHOICE_NOUN}(?:\s+\w+){{0,2}}?\s*\((?P<items>{_ITEM}(?:{_SEPARATOR}{_ITEM})+)\)", re.IGNORECASE
)
_ITEM_SPLIT = lazy(_SEPARATOR, re.IGNORECASE)
# Uncued alternatives, as a clause of their own: "`high` or `low`.", "Whether it is a 'user' or a 'group'",
# "json|markdown|html".
_ARTICLE_QUOTED = rf"(?:(?:an?|the)\s+)?(?:{_QUOTED})"
# In the clause before uncued alternatives: a condition, a negation, a comparison ("Required if `type`
# was `limit` or `stop_limit`", "not `prompt` or `q`"): the values are of something else, or excluded.
_UNCUED_ASIDE = lazy(r"\b(?:if|when|whenever|unless|for|not|except|than|was|were|only)\b", re.IGNORECASE)
_ALTERNATIVES = lazy(
    rf"(?<![\w`'\"])(?P<items>{_ARTICLE_QUOTED}(?:\s*,\s*{_ARTICLE_QUOTED})*,?\s+or\s+{_ARTICLE_QUOTED}"
    rf"|(?<![\w|/.-])[a-z][\w-]{{0,20}}(?:\|[a-z][\w-]{{0,20}})+(?![\w|/.-]))"
    r"(?=\s*(?:[,;:)(]|\.(?:\s|$)|$|\s(?:\(|default|if|when|to|for)\b))",
    re.IGNORECASE,
)
# Before the list, in its sentence: it gives examples, or holds only under a condition.
_EXAMPLES = lazy(
    r"\b(?:e\.g\.?|eg|i\.e\.|for example|for instance|such as|like|including|includes?|examples?)\b",
    re.IGNORECASE,
)
_CONDITION = lazy(r"\b(?:if|when|whenever|unless|for)\b[^,;]*,\s*[^,;]*$", re.IGNORECASE)
# Words a list of values is never made of: "one of the following", "either this or that tool".
_NOT_VALUES = frozenset(
    words(
        "the a an these those them this that it its following above below other your our both all any each "
        "more less not only"
    )
)


# "Supported `direction` values are ...": the values of the named key, not of this parameter.
_OWNED_CUE = lazy(r"[`'\"][\w.-]+[`'\"]\s+(?:values?|options?)\b[^`'\"]*$", re.IGNORECASE)
# After "must be", "should be", "can be", a list joined by "and" is a conjunction of qualities ("should
# be accurate, rich and creative"), not alternatives.
_VERB_CUE = lazy(r"(?:must|should|can) be\b", re.IGNORECASE)
_CONJUNCTION = lazy(r"\band\b", re.IGNORECASE)


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class StatedList:
    items: tuple[str, ...]  # quotes stripped, in the order written
    span: tuple[int, int]
    cue: str  # the words that close it ("one of", "either") or the choice noun of a bracketed list


def _sentence_before(text: str, start: int) -> str:
    cut = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start), text.rfind("; ", 0, start))
    return text[cut + 1 : start]


def stated_lists(text: str, uncued: bool = False) -> list[StatedList]:
    """Each closed list of values the text states, in order; lists of examples are left out.

    With `uncued`, also the alternatives a clause offers without a cue: quoted values joined by "or"
    ("`high` or `low`.", "a 'user' or a 'group'") and values joined by pipes ("json|markdown|html").
    They say which values exist, not that the enum is wrong; only the rule about a missing enum reads them.
    """
    if not uncued:
        return _lists(text, (_CUED_LIST, _BRACKETED_LIST))
    return _lists(text, (_CUED_LIST, _BRACKETED_LIST, _ALTERNATIVES))


def cued_and_uncued_lists(text: str) -> tuple[list[StatedList], list[StatedList]]:
    """(`stated_lists(text)`, the lists `uncued=True` adds to it), each in order, the text read once
    for each kind: a rule that treats the two kinds differently needs both."""
    cued = _lists(text, (_CUED_LIST, _BRACKETED_LIST))
    return cued, [stated for stated in _lists(text, (_ALTERNATIVES,)) if stated not in cued]


def _lists(text: str, patterns: tuple[re.Pattern[str], ...]) -> list[StatedList]:
    found: list[StatedList] = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            if pattern is _CUED_LIST and match.group("after"):
                continue  # "one of a, b, etc.": an open list
            listed_text = match.group("items").strip()
            if pattern is _ALTERNATIVES:
                listed_text = re.sub(r"(?i)\b(?:an?|the)\s+(?=[`'\"])", "", listed_text.replace("|", " or "))
            raw = [part for part in _ITEM_SPLIT.split(listed_text) if part]
            pairs = [_unquote(part.rstrip(".")) for part in raw]
            items = tuple(item for item, _ in pairs if item)
            if len(items) < 2 or any(item.lower() in _NOT_VALUES for item in items):
                continue
            # Unquoted items must look like values (lower-case tokens), not words of prose.
            if any(not quoted and not re.fullmatch(r"[a-z0-9_.-]+", item) for item, quoted in pairs):
                continue
            before = _sentence_before(text, match.start()) + text[match.start() : match.start("items")]
            if pattern is _ALTERNATIVES:
                # "(e.g. 'main' or 'master')": the sentence cut at "e.g. " would hide the cue
                before = text[max(0, match.start() - 60) : match.start()]
                clause = re.split(r"[.(\n]\s", before + " ")[-1]
                if _UNCUED_ASIDE.search(clause) or before.rstrip().endswith("="):
                    continue
            listed = match.group("items")
            if _EXAMPLES.search(before) or _EXAMPLES.search(listed) or _CONDITION.search(before):
                continue
            cue = " ".join(text[match.start() : match.start("items")].split()).rstrip(":( ")
            if _OWNED_CUE.search(before) or (_VERB_CUE.match(cue) and _CONJUNCTION.search(listed)):
                continue
            found.append(StatedList(items, match.span(), cue))
    found.sort(key=lambda stated: stated.span)
    return found


# A header that closes the list of bullets under it ("Options:", "Possible values:"), and one bullet:
# `- "GENE_PROTEIN": Genes and proteins`, `* `asc` - ascending`, `- none: ...`.
_BULLET_HEADER = lazy(rf"{_CLOSED_CUE}\s*:[ \t]*$", re.IGNORECASE | re.MULTILINE)
_VALUE_BULLET = lazy(
    rf"^[ \t]*[-*\u2022][ \t]+(?P<item>{_QUOTED}|[\w./-]{{1,30}})[ \t]*(?::|\s[-\u2013\u2014]\s|$)"
)


def bulleted_values(text: str, headers: re.Pattern[str] | None = None) -> list[StatedList]:
    """Each list of values set out as bullets under a header that closes it ("Options:" then
    `- "DISEASE": ...` per line). Every value gets a line of its own, so the list means to be whole.
    A bullet for no value (`- None: all types`) is no value of the enum and is left out."""
    found: list[StatedList] = []
    for header in (headers or _BULLET_HEADER).finditer(text):
        items: list[str] = []
        end = header.end()
        for line in text[header.end() + 1 :].split("\n"):
            bullet = _VALUE_BULLET.match(line)
            if bullet is None:
                if line.strip() and items and line[: len(line) - len(line.lstrip())]:
                    end += len(line) + 1  # the bullet's text wrapped onto the next line
                    continue
                break
            item, quoted = _unquote(bullet.group("item"))
            if not quoted and not re.fullmatch(r"[A-Za-z0-9_.-]+", item):
                break
            if item.lower() not in _NO_VALUE:
                items.append(item)
            end += len(line) + 1
        if len(items) >= 2:
            cue = " ".join(header.group(0).split()).rstrip(": ")
            found.append(StatedList(tuple(items), (header.start(), end), cue))
    return found


def _noun(name: str) -> str | None:
    """A pattern for the parameter's name as a noun of prose, singular or plural ("command",
    "commands", "storage classes"), or None for a name with no such reading."""
    parts = name_words(name)
    if not parts or not all(part.isalpha() for part in parts) or len(parts[-1]) < 3:
        return None
    head = singular(parts[-1])
    last = re.escape(head[:-1]) + "(?:y|ies)" if head.endswith("y") else re.escape(head) + "(?:e?s)?"
    return r"[\s_-]*".join([*(re.escape(part) for part in parts[:-1]), last])


NAMED_HEADER = "named header"
NAMED_BRACKETS = "named brackets"


def named_lists(description: str, name: str) -> list[StatedList]:
    """Lists of values the tool's description gives under the parameter's own name as a noun: bullets
    under a header that is the name ("Domains:" then `- "article": ...` per line, for `domain`), or a
    list in brackets right after it ("runs commands (init, plan, apply)", for `command`). Both name
    the values as those of this parameter, and mean the list to be whole."""
    noun = _noun(name)
    if noun is None or not re.search(noun, description, re.IGNORECASE):
        return []
    found: list[StatedList] = []
    header = re.compile(rf"^[ \t#*]*{noun}[ \t*]*:[ \t]*$", re.IGNORECASE | re.MULTILINE)
    if "\n" in description:
        for match in header.finditer(description):
            for stated in bulleted_values(description[match.start() :], header):
                found.append(
                    StatedList(stated.items, (match.start(), match.start() + stated.span[1]), NAMED_HEADER)
                )
                break
    bracketed = re.compile(
        rf"(?<![\w-]){noun}\s*\((?P<items>{_ITEM}(?:{_SEPARATOR}{_ITEM})+)\)", re.IGNORECASE
    )
    for match in bracketed.finditer(description):
        listed = _ITEM_SPLIT.split(match.group("items").strip())
        pairs = [_unquote(part.rstrip(".")) for part in listed if part]
        items = tuple(item for item, _ in pairs if item)
        if len(items) < 2 or any(item.lower() in _NOT_VALUES for item in items):
            continue
        if any(not quoted and not re.fullmatch(r"[a-z0-9_.-]+", item) for item, quoted in pairs):
            continue
        before = _sentence_before(description, match.start())
        if _EXAMPLES.search(before) or _EXAMPLES.search(match.group("items")) or _CONDITION.search(before):
            continue
        found.append(StatedList(items, match.span(), NAMED_BRACKETS))
    return found


def args_entry_block(description: str, name: str) -> str:
    """The Args entry of `name` in a docstring-style description with the lines indented under it
    (a list of its values set out as bullets), or "" when the description has no such entry."""
    entry = re.search(
        rf"^([ \t]*)[-*]?[ \t]*[`'\"]?{re.escape(name)}[`'\"]?[ \t]*(?:\([^)\n]*\))?[ \t]*:",
        description,
        re.MULTILINE,
    )
    if entry is None:
        return ""
    indent = len(entry.group(1))
    lines = [description[entry.start() : description.find("\n", entry.end()) % (len(description) + 1)]]
    for line in description[entry.end() :].split("\n")[1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        lines.append(line)
    return "\n".join(lines)


# A quoted value given as an example of this parameter's value: "e.g. \"Berry Red\"".
_EXAMPLE_VALUE = lazy(
    rf"\b(?:e\.g\.|eg\.|for example|for instance|such as)\s*[:,]?\s*(?P<items>(?:{_QUOTED})"
    rf"(?:\s*(?:,|\bor\b|\band\b)\s*(?:{_QUOTED}))*)",
    re.IGNORECASE,
)


def example_values(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The quoted values the text gives as examples, with where each example list stands."""
    found: list[tuple[str, tuple[int, int]]] = []
    for match in _EXAMPLE_VALUE.finditer(text):
        for token in re.findall(_QUOTED, match.group("items")):
            value, _ = _unquote(token)
            if value:
                found.append((value, match.span()))
    return found


def same_value(left: str, right: str) -> bool:
    """Two spellings of one value: case and surrounding space aside."""
    return left.strip().lower() == right.strip().lower()


def is_top_level(tool: Tool, name: str, path: str) -> bool:
    """Whether the walked parameter at `path` is one of the tool's own (not a field inside one):
    only those can be named in the tool's description."""
    return name in tool.properties and path.count(".") == 2


def parameter_prose(tool: Tool, name: str, prop: Mapping[str, Any], top_level: bool) -> str:
    """The parameter's own descriptions, then what the tool's description says of it by name.

    A docstring-style tool often says it in its Args list ("max_rows: rows per table (default 20)")
    or right after the name ("the 'depth' parameter (default: 2)").
    """
    texts = [
        variant["description"]
        for variant in property_variants(tool.input_schema, prop)
        if isinstance(variant.get("description"), str)
    ]
    # Most descriptions never name the parameter: a substring test spares parsing them.
    if top_level and tool.description and name in tool.description:
        texts.extend(_named_in(tool.description).get(name, ()))
    return "\n".join(texts)


# A line of an Args-style list: "- name (int): text", "name: text", "'offset' (start line, default: 0)".
_ARGS_ENTRY = lazy(
    r"^[ \t]*(?:[-*\u2022][ \t]*)?[`'\"]?(?P<name>[A-Za-z_][\w-]*)[`'\"]?"
    r"(?:[ \t]*\((?P<note>[^)\n]{1,120})\))?[ \t]*(?::[ \t]*(?P<text>.*))?$",
    re.MULTILINE,
)
# A name in prose that opens a statement about its value, up to the clause's end: "`depth` (default:
# 2)", "expected_replacements=1 (default)", "the `mode` parameter defaults to fast".
_MENTION = lazy(
    r"(?:[`'\"](?P<quoted>[A-Za-z_][\w-]*)[`'\"]|(?<![\w.])(?P<bare>[A-Za-z_]\w*))"
    r"(?:\s+(?:parameter|argument|option|field))?\s*(?=\(|defaults?\b|=)(?:[^\n;.]|\.(?=\d)){0,60}"
    # never cut inside a number ("100,000")
    r"(?:(?<=[\d,])[\d,]+)?"
)


@functools.lru_cache(maxsize=1024)
def _named_in(description: str) -> dict[str, tuple[str, ...]]:
    """Name -> what the description says right after it, as an Args entry or an inline mention.

    A plain word ("limit the results") is no mention of a parameter: outside an Args entry only a
    quoted name or an identifier (`max_rows`, `pageSize`) counts. Parsed once per description.
    """
    found: dict[str, list[str]] = {}
    for match in _ARGS_ENTRY.finditer(description):
        note, text = match.group("note"), match.group("text")
        if note is None and text is None:
            continue
        entry = " ".join(part for part in (text, f"({note})" if note else None) if part)
        found.setdefault(match.group("name"), []).append(entry)
    for match in _MENTION.finditer(description):
        name = match.group("quoted") or match.group("bare")
        if match.group("quoted") or identifier_shaped(name):
            found.setdefault(name, []).append(match.group(0))
    return {name: tuple(texts) for name, texts in found.items()}


def other_values(tool: Tool, path: str) -> list[str]:
    """The other parameters' names and enum values, at any depth: a list of them is about those."""
    found: list[str] = []
    for other, where, prop in walk_parameters(tool.input_schema):
        if where == path:
            continue
        found.append(other)
        for variant in property_variants(tool.input_schema, prop):
            values = variant.get("enum")
            if isinstance(values, list):
                found.extend(value for value in values if isinstance(value, str))
    return found
