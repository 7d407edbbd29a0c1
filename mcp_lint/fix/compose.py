"""The offline augmentor: the default, deterministic rewrite, built only from grounded facts.

The original description is kept word for word; what is appended is only what an agent cannot already
see in the tool listing and would act on, each a short sentence in a fixed phrasing around facts from
`grounding` (so nothing is invented):
- purpose: what the tool returns, from recorded results when no output schema says it; for an empty
  description, what the name says it does and the inputs it needs;
- guidelines: how it differs from a sibling an agent would confuse it with (the same action on the
  same object), through the real difference: parameters, result, read or write;
- limitations: real failures from recorded calls;
- parameters: values real calls passed to parameters the schema does not describe;
- examples: one real call and the start of its real result.
Nothing the schema or annotations already state (types, required, enums, ranges, read-only) is
repeated, and nothing is appended to a description in another language than English.

The research behind the rubric found that rewriting every component cost agents extra steps, so the
smallest set of parts that clears the smells wins: the parts for the smelly components first, then
(only when the jury still finds a smell) other grounded parts one at a time, then every part the
result can do without is dropped again.
"""

from __future__ import annotations

import json
import re
import textwrap
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_lint.check.functions._util import words
from mcp_lint.fix.grounding import MAX_LISTED, Grounding, Rival, blank, literal, trimmed
from mcp_lint.model import Tool, value_record
from mcp_lint.overrides import PARTS, Part
from mcp_lint.traces import TraceRecord
from mcp_lint.words import name_words, singular

# A rubric component -> the part of a rewrite that answers it (length is a property of the whole).
PART_OF: Mapping[str, Part | None] = {
    "purpose": "purpose",
    "guidelines": "guidelines",
    "limitations": "limitations",
    "parameters": "parameters",
    "examples": "examples",
    "length": None,
}
# Which extra part to try first when a smell survives the parts made for it: the cheapest useful ones.
_EXTRA_ORDER: tuple[Part, ...] = ("parameters", "limitations", "guidelines", "examples", "purpose")

Scorer = Callable[[str], Mapping[str, float]]


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Composition:
    """One proposed description: the parts added (`parts`, purpose holding the original when touched),
    the components whose parts were added (`touched`), and why a wanted part is absent (`absent`)."""

    description: str
    parts: Mapping[str, str]
    touched: tuple[str, ...]
    absent: Mapping[str, str] = field(default_factory=dict)


def listed(names: Sequence[str]) -> str:
    """Code-quoted names joined with "and", the ones past `MAX_LISTED` counted ("and 3 more")."""
    shown = [f"`{name}`" for name in names[:MAX_LISTED]]
    more = len(names) - len(shown)
    if more:
        shown.append(f"{more} more")
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]


# Short function words of English, and of the other languages descriptions are most often written
# in with Latin letters (Spanish, Portuguese, French, Italian, German, Dutch), none in both lists.
# Terse technical English ("Fetch URL, convert HTML to markdown. Args: url: target.") may have few
# English ones, so what decides is which list the text's words fall in, not whether one is there.
_ENGLISH = frozenset(
    words(
        "the a an to of and or for in on is are with this that from by it its be as at if not all "
        "when which into only any each has have was were will can should must than then your you"
    )
)
_FOREIGN = frozenset(
    words(
        "de la el los las del que y con para por una un es se al lo como su sus más "
        "da do dos das em uma não são "
        "le les des est une pour et du au dans avec sur qui ne pas aux ces "
        "il di che della delle dei gli sono non nel "
        "der die das und ist mit für von den dem zu nicht ein eine einen auf werden oder wird sich im "
        "het een van voor niet"
    )
)
_CODE_SPAN = re.compile(r"`[^`]*`|https?://\S+|\b\w*[_.]\w+\b|\b[a-z]+[A-Z]\w*\b")
# What every match of `_CODE_SPAN` contains besides a backtick, "://" or "_" (`_may_have_code`): a dot
# before a word character, or a lower-case letter before an upper-case one.
_DOT_WORD = re.compile(r"\.\w")
_CAMEL_PAIR = re.compile(r"[a-z][A-Z]")
_PROSE_WORD = re.compile(r"[^\W\d_]+")
# Latin letters with a diacritic: a few in an English text ("café"), many in most other languages.
_ACCENTED_SHARE = 0.03


def _latin(char: str) -> bool:
    return "LATIN" in unicodedata.name(char, "")


def _may_have_code(text: str) -> bool:
    """False when `_CODE_SPAN` certainly finds nothing in `text`: each of its alternatives needs a
    backtick, "://", a "_" or a dot before a word character, or a camelCase pair. These are found by
    substring tests and two short literal scans; `_CODE_SPAN` itself tries four alternatives at every
    position (half of `english`'s time on a plain sentence). Held to `_CODE_SPAN` by
    tests/fix/test_compose.py."""
    return (
        "`" in text
        or "://" in text
        or "_" in text
        or _DOT_WORD.search(text) is not None
        or _CAMEL_PAIR.search(text) is not None
    )


def english(text: str) -> bool:
    """Whether `text` reads as English (or is empty), robust for short technical text.

    By script first: a text whose letters are mostly not Latin (Chinese, Japanese, Cyrillic, ...) is
    not English. Then, over its prose words (code spans, identifiers and URLs left out): it is not
    English when more of them are function words of another language than of English, or, with no
    function word of either, when many of its letters carry diacritics."""
    if text.isascii():
        # every ASCII letter is Latin and none carries a diacritic: only the words can say no
        if not any(map(str.isalpha, text)):
            return True
        latin: list[str] = []
    else:
        letters = [char for char in text if char.isalpha()]
        if not letters:
            return True
        latin = [char for char in letters if _latin(char)]
        if len(latin) < 0.7 * len(letters):
            return False
    prose = list(
        map(str.lower, _PROSE_WORD.findall(_CODE_SPAN.sub(" ", text) if _may_have_code(text) else text))
    )
    english_words = sum(map(_ENGLISH.__contains__, prose))
    foreign_words = sum(map(_FOREIGN.__contains__, prose))
    if foreign_words or english_words:
        return english_words >= foreign_words
    accented = sum(1 for char in latin if not char.isascii())
    return accented <= _ACCENTED_SHARE * len(latin)


def _flat(text: str) -> str:
    """Text with its whitespace runs as single spaces: what a wrapped description says, unwrapped."""
    return " ".join(text.split())


def _example_value(grounding: Grounding, name: str) -> object | None:
    """A value of this top-level parameter from a successful recorded call (never a made-up one)."""
    for record in grounding.successes:
        if name in record.arguments:
            value = _quotable_value(record.arguments[name])
            if isinstance(value, str | int | float | bool) and len(literal(value)) <= 40:
                return value
    return None


def parameters_part(grounding: Grounding, shown: str = "") -> str | None:
    """Values real calls passed to the parameters the schema leaves undescribed: what a type alone
    does not tell (an id's shape, a query's form). None shown already (in `shown`, the example)."""
    if not grounding.successes:  # no recorded call passed a value
        return None
    said = _flat(grounding.tool.description + " " + shown)
    entries = []
    for parameter in grounding.parameters:
        if parameter.documented or "." in parameter.path or parameter.enum:
            continue
        value = _example_value(grounding, parameter.path)
        if (
            value is not None
            and literal(value) not in said
            and f"{parameter.path}={literal(value)}" not in said
        ):
            entries.append(f"`{parameter.path}` {literal(value)}")
    if not entries:
        return None
    return f"Values from recorded calls: {', '.join(entries[:MAX_LISTED])}."


def _required(grounding: Grounding) -> list[str]:
    return [
        parameter.path
        for parameter in grounding.parameters
        if parameter.required and "." not in parameter.path
    ]


def _acted_on(grounding: Grounding) -> list[str]:
    """The required inputs a sentence may name as what the tool acts on. A flag (`reserved:
    boolean`) filters what is acted on, it is not what the action is for: "List keywords for the
    given `reserved`" reads wrong."""
    flags = {parameter.path for parameter in grounding.parameters if set(parameter.kinds) == {"boolean"}}
    return [name for name in _required(grounding) if name not in flags]


def _verb_first(parts: list[str]) -> list[str]:
    """A name's words with its verb first: a product prefix dropped (`jira_get_issue`), a verb
    written last moved to the front (`projects-list`)."""
    if len(parts) > 2 and parts[0] not in _PLAIN_VERBS and parts[1] in _PLAIN_VERBS:
        parts = parts[1:]
    if len(parts) > 1 and parts[0] not in _PLAIN_VERBS and parts[-1] in _PLAIN_VERBS:
        parts = [parts[-1], *parts[:-1]]
    return parts


def _plural(word: str) -> bool:
    return singular(word) != word and not word.endswith(("ss", "us", "is"))


def joined(items: Sequence[str], conjunction: str = "and") -> str:
    """`a`, `a and b`, `a, b and c` (or with "or")."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def _quoted(names: Sequence[str]) -> list[str]:
    return [f"`{name}`" for name in names[:MAX_LISTED]]


def _content(text: str) -> set[str]:
    return {singular(word) for word in _PROSE_WORD.findall(text.lower()) if word not in _ENGLISH}


# Parameter name words of a place to write to.
_PLACE = frozenset(words("path file filename dir directory dest destination output"))


def _to_file(rival: Rival, name: str) -> bool:
    """Whether the rival is this tool writing to a file: its name is this one's plus "to file" (or
    "file"), and every input only it needs names a place (`outputPath`, `file_path`)."""
    extra = [
        word.lower() for word in name_words(rival.name) if word.lower() not in set(name_words(name.lower()))
    ]
    return extra in (["to", "file"], ["file"]) and all(
        _PLACE & {word.lower() for word in name_words(need)} for need in rival.needs
    )


# Words that single out without saying what: "a specific action", "an existing collection".
_FILLER = frozenset(words("specific particular given certain"))
# "An existing one" sets a sibling apart only from a tool that makes a new one.
_MAKES_NEW = frozenset(words("create new add make insert generate"))
# Words of a relative claim: which of two tools says "more" is no difference a phrase can be trusted
# on (a "full info" tool calls its sibling's result "detailed"; the sibling calls it "basic").
_RELATIVE = frozenset(
    words("detailed full complete basic brief comprehensive extended simple summary more less extra")
)
# What a description calls what a parameter or name shows: "with pagination" is a `page` input.
_SAME_AS = {
    "pagination": "page",
    "paginated": "page",
    "paginate": "page",
    "paging": "page",
    "org": "organization",
    "info": "information",
    "identifier": "id",
    "desc": "description",
    "repo": "repository",
    "dir": "directory",
}


def _meaning(word: str) -> str:
    return _SAME_AS.get(word, word)


def _shown(tool: Tool) -> set[str]:
    """What this tool's own listing shows: the content words of its description, name and
    parameter names (in `_meaning` form), so a sibling's phrase that says no more than these sets
    nothing apart ("get a specific action by ID" beside `volume-action-get` taking `ActionID`)."""
    found = {_meaning(word) for word in _content(tool.description)}
    for text in (tool.name, *map(str, tool.properties)):
        found.update(_meaning(singular(word.lower())) for word in name_words(text))
    return found


# Input names that do not say what they name.
_BARE = frozenset(("id", "uuid", "key", "name", "value", "data", "input"))
# Last words of an input that picks one thing out: `list_id`, `workItemTypeId`, `issue_key`.
_KEY_WORDS = frozenset(("id", "ids", "uuid", "key", "slug"))


# ... and of one that names the thing it acts on, in echo_purpose: `bucket_name` of `create_bucket`.
_OWN_KEY_WORDS = frozenset(("id", "uuid", "key", "slug", "name"))


def _keyed_object(name: str, keys: frozenset[str] = _KEY_WORDS) -> tuple[str, ...] | None:
    """What an ID input picks out (`list_id` -> list, `workItemTypeId` -> work item type), or None
    for an input that is no key of a named thing (`email`, `query`, a bare `id`); `keys` are the
    last words that make an input a key."""
    found = [word.lower() for word in name_words(name)]
    if len(found) < 2 or found[-1] not in keys:
        return None
    return tuple(singular(word) for word in found[:-1])


def _other_parents(rival: Rival) -> bool:
    """Whether the inputs only the rival needs and those only this tool needs are keys of different
    things (`list_id` against `task_id`, `workItemTypeId` against `projectId`): the two tools then
    look in different places, and what they return differs too (a list's own comments are not its
    tasks' comments), so holding the other key does not make the rival a substitute. Keys of the same
    thing (`issue_key` against `issue_id`), or an input that is no key (`email` against `id`), are a
    different way to the same thing. A rival whose name says it looks up "by" the other thing
    (`get_order_by_invoice` with `invoice_id`) returns the same kind of thing by another key."""
    theirs = [_keyed_object(need) for need in rival.needs]
    mine = [_keyed_object(want) for want in rival.wants]
    if not theirs or not mine or None in theirs or None in mine:
        return False
    if set(theirs) & set(mine):
        return False
    named = [word.lower() for word in name_words(rival.name)]
    if "by" in named:
        after = tuple(singular(word) for word in named[named.index("by") + 1 :])
        if any(after[: len(thing)] == thing for thing in theirs if thing):
            return False
    return True


# A word of a sibling's phrase written with a capital (not an acronym): a name, most often of the
# product every tool of the server works on ("get alerts from Alertmanager").
_NAMED = re.compile(r"\b[A-Z][a-z]+[A-Za-z]*\b")


def _proper_names(rival: Rival) -> set[str]:
    """The names (capitalised words past its first) the rival's phrase carries and its name does not:
    where the tools' data comes from ("from Alertmanager", "in Metabase"), as true of this tool on
    the same server, so no difference. One its name carries (`search_jira_issues`: "in Jira") is."""
    if not rival.purpose:
        return set()
    named = {singular(word.lower()) for word in name_words(rival.name)}
    found = {singular(word.lower()) for word in _NAMED.findall(rival.purpose.split(" ", 1)[-1])}
    return {word for word in found if word not in named}


def _contrast(rival: Rival, own: str, name: str = "", mine: Collection[str] = ()) -> str | None:
    """When to use the rival instead, in the two tools' own terms: its purpose as its description
    states it ("To look up a user by email, use `find_user`."), else the required inputs only it
    needs ("If you have `email` rather than `id`, use `find_user`."), else read against write. None
    when none of these sets them apart (an optional parameter is never a reason: both take it or not)."""
    # Its purpose, when it says something this tool's description, name and parameters do not (past
    # the verb: "find issues" says nothing "Search issues." does not; "list actions with pagination"
    # nothing a tool taking `page` does not), and claims no more or less of the same (a relative
    # word's direction is not checked against the schemas, so it is not trusted).
    if rival.purpose:
        # An input it names (`collectionId`, written in by a name-echo fix) is the words of its name.
        phrase = re.sub(r"`([^`]*)`", lambda code: " ".join(name_words(code.group(1))), rival.purpose)
        said = {_meaning(word) for word in _content(phrase.split(" ", 1)[-1])}
        known = _content(own) | set(mine) | _proper_names(rival)
        filler = _FILLER if known & _MAKES_NEW else _FILLER | {"existing"}
        if not said & _RELATIVE and said - known - filler:
            return f"To {rival.purpose}, use `{rival.name}`."
    if rival.needs and not rival.wants and _to_file(rival, name):
        # `download-bytes` / `download-bytes-to-file` needing `outputPath`: its name says where it goes.
        return f"To save it to a file instead ({joined(_quoted(rival.needs))}), use `{rival.name}`."
    if (
        rival.needs
        and rival.wants
        and len(rival.needs) <= 2
        and len(rival.wants) <= 2
        and not any(need.lower() in _BARE for need in rival.needs)
        and not _other_parents(rival)
    ):
        # "If you have `ID`" says nothing of what the ID is of (`action-get` beside
        # `image-action-get` taking `ImageID` and `ActionID`): a bare name is no reason. Nor is an
        # input the rival needs on top of this tool's ("If you have `organizationId`, use
        # `edit_org_collection`"; "If you have `category`" beside the list of categories): needing
        # more is no alternative, and the real difference is elsewhere.
        # An input in place of another (`workflow` rather than `id`, `query` rather than `owner` or
        # `repo`); three or more on this side are no alternative to it but another job ("`name`
        # rather than `emailId`, `mailbox` or `label`": removing a label from a mail, not deleting it).
        have = joined(_quoted(rival.needs))
        rather = f" rather than {joined(_quoted(rival.wants), 'or')}"
        return f"If you have {have}{rather}, use `{rival.name}`."
    if rival.reads is True:
        return f"To make changes, use `{rival.name}`."
    if rival.reads is False:
        return f"To look things up without changing anything, use `{rival.name}`."
    return None


def guidelines_part(grounding: Grounding) -> str | None:
    """How it differs from each sibling an agent would confuse it with (`grounding.rivals`)."""
    if not grounding.rivals:  # most tools: nothing to contrast, and no need to read the listing
        return None
    own = grounding.tool.description
    name = grounding.tool.name
    mine = _shown(grounding.tool)
    return " ".join(text for rival in grounding.rivals if (text := _contrast(rival, own, name, mine))) or None


def quotable(text: str) -> str:
    """Recorded text made safe to quote: control and format characters (Unicode Cc, Cf, and lone
    surrogates) dropped, line breaks and tabs turned into spaces. A trace is the server's output, so a
    zero-width or bidi character in it must not reach a description."""
    return "".join(
        " " if char in "\t\n\r" else char
        for char in text
        if char in "\t\n\r" or unicodedata.category(char) not in {"Cc", "Cf", "Cs"}
    )


def _quotable_value(value: Any) -> Any:
    """A recorded argument value with `quotable` applied to every string in it."""
    if isinstance(value, str):
        return quotable(value)
    if isinstance(value, Mapping):
        return {quotable(str(key)): _quotable_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_quotable_value(item) for item in value]
    return value


def _arguments(record: TraceRecord) -> dict[str, Any]:
    return {name: _quotable_value(value) for name, value in record.arguments.items()}


def _error_text(record: TraceRecord) -> str:
    return quotable(record.error if record.error is not None else record.result_text())


def limitations_part(grounding: Grounding) -> str | None:
    """Real failures: the errors recorded calls got, with the arguments that got them."""
    sentences: list[str] = []
    seen: set[str] = set()
    said = _flat(grounding.tool.description)
    for record in grounding.failures:
        text = trimmed(_error_text(record), 70)
        if not text or text in seen or text.rstrip("…") in said:
            continue
        seen.add(text)
        arguments = json.dumps(_arguments(record), ensure_ascii=False, separators=(", ", ": "), default=str)
        sentences.append(
            f"It fails with {json.dumps(text, ensure_ascii=False)} (recorded for {trimmed(arguments, 60)})."
        )
        if len(seen) == 2:
            break
    return " ".join(sentences) or None


def _call(tool: Tool, arguments: Mapping[str, object]) -> str:
    shown = ", ".join(f"{name}={literal(value)}" for name, value in arguments.items())
    return f"{tool.name}({shown})"


def examples_part(grounding: Grounding) -> str | None:
    """One real call: the shortest successful recorded one, with the start of its real result."""
    if not grounding.successes or f"{grounding.tool.name}(" in _flat(grounding.tool.description):
        return None
    record = min(grounding.successes, key=lambda item: len(json.dumps(item.arguments, default=str)))
    result = trimmed(quotable(record.result_text()), 70)
    shown = json.dumps(result, ensure_ascii=False)
    return f"Example: {_call(grounding.tool, _arguments(record))} returned {shown}."


RETURNS = re.compile(r"\b(?:returns?|returned|returning|gives back|responds? with|outputs?)\b", re.IGNORECASE)


def empty(description: str) -> bool:
    """A description that says nothing: empty, whitespace or a placeholder ("TODO", "No description")."""
    return blank(description)


# Verbs a tool name may open (or, `projects-list` style, close) with, that say plainly what it does.
# A vague verb (`manage`, `handle`, `process`) says nothing a sentence could build on: no purpose.
_PLAIN_VERBS = frozenset(
    words(
        "get list search find create add update delete remove fetch retrieve read send upload download "
        "cancel start stop run execute set enable disable close open move rename copy archive publish "
        "deploy install uninstall restart check validate generate export import describe count merge "
        "approve reject assign query schedule sync clear reset invite fork clone post reply mark "
        "subscribe unsubscribe pause resume trigger apply attach detach lock unlock upsert write edit "
        "replace submit save insert duplicate restore refresh scan convert terminate"
    )
)
# Words a name writes in lower case that prose writes otherwise.
_CASED = {
    "id": "ID",
    "ids": "IDs",
    "url": "URL",
    "urls": "URLs",
    "api": "API",
    "json": "JSON",
    "sql": "SQL",
    "html": "HTML",
    "pdf": "PDF",
    "csv": "CSV",
    "ip": "IP",
    "dns": "DNS",
}
# Objects that take "the" (there is one of them: `get_status` is "Get the status").
_THE = frozenset(
    words(
        "current latest default active status info information config configuration "
        "settings weather content metadata usage balance health version state profile me"
    )
)
# A word said with a vowel first: "an order", "an update", but "a user", "a unit", "a URL".
_VOWEL = re.compile(r"^(?:[aeio]|u(?!s|ni|r|t))")
# Verbs that read one thing: what they read for given inputs is "the" one.
_READS = frozenset(words("get fetch retrieve read describe"))
# Verbs whose object is a set of things: "List projects", not "List a projects".
_MANY = frozenset(words("list search find query count export sync scan"))
# An input that names the one thing acted on: "Delete a product by its `id`".
# Inputs that are what a call carries, not what it is about: "Run a query with the given `sql`".
_CONTENT = frozenset(words("sql query code command script text body content message prompt expression"))
_ID = re.compile(r"(?:^|_|-|[a-z])(?:id|Id|ID|key|Key|uuid|Uuid|UUID|slug|Slug)$")


def _prose(word: str) -> str:
    return _CASED.get(word, word)


# Words a tool name uses for which of its things, not what they are: `fetch_latest`,
# `get_top_rated`, `list_recent` name no thing, and "Fetch the latest for ..." is no sentence.
_QUALIFIERS = frozenset(
    words(
        "latest recent top new old current random next previous last first nearby upcoming popular "
        "trending similar related featured available active all more best worst hot own other same"
    )
)
# Nouns of the shapes below: a superlative's ending ("request", "digest") or a participle's
# ("thread", "feed", "embed").
_NOUN_ENDINGS = re.compile(r"(?:eed|ead|embed|hundred|shred)$")
_NOUNS_IN_EST = frozenset(
    words("test request interest guest quest digest manifest contest chest nest harvest rest forest protest")
)


def _names_a_thing(word: str) -> bool:
    """Whether the last word of a name's object can be the thing itself: not a qualifier (`latest`,
    `top`), a superlative (`newest`, `highest`) or a past participle (`cited`, `starred`,
    `archived`), which say which things and leave out what they are."""
    word = word.lower()
    if word in _QUALIFIERS:
        return False
    if len(word) >= 6 and word.endswith("est") and word not in _NOUNS_IN_EST:
        return False
    return not (len(word) >= 5 and word.endswith("ed") and not _NOUN_ENDINGS.search(word))


# Verbs whose `name` input is the name a thing gets, not one it has.
_MAKES = frozenset(words("create add insert upsert post send make generate register rename new"))
# Verbs that make the thing they name: what they are given says what it will be, not which one.
_CREATES = frozenset(words("create add insert upsert post send make generate register new"))
# Inputs named by a link word ("since", "until"): "for the given `since`" is no English.
_LINK_INPUTS = frozenset(words("since until before after from to"))


def named_purpose(grounding: Grounding) -> str | None:
    """What the name says the tool does, for an empty description, in the plain imperative real
    descriptions open with (`delete_product` with a required `id` -> "Delete a product by its `id`.";
    `create-product` with `title` -> "Create a product with the given `title`."; `get-customer-orders`
    with `customerId` -> "Get customer orders for the given `customerId`."). The required inputs name
    what it acts on, so the sentence says more than the name. None when the name opens with no plain
    verb (`manage_options` says nothing a sentence can build on) or needs no input (the sentence
    would only echo the name)."""
    parts = _verb_first([word.lower() for word in name_words(grounding.tool.name)])
    required = [name for name in _acted_on(grounding) if name.lower() not in _LINK_INPUTS]
    if len(parts) < 2 or parts[0] not in _PLAIN_VERBS or not required:
        return None
    verb, rest = parts[0], parts[1:]
    by = ""
    if "by" in rest:
        tail = "".join(rest[rest.index("by") + 1 :])
        # "by email" with a required `email`: the input it names
        by = next((name for name in required if name.lower().replace("_", "") == tail), "")
        rest = rest[: rest.index("by")]  # "by id": said by the input below
    if not rest or not _names_a_thing(rest[-1]):
        return None  # "Fetch the latest for the given `source`": which ones, but not what
    plural = _plural(rest[-1])
    if verb in _MANY and not plural:
        return None  # "Search source": a set of one thing reads wrong, whatever the article
    if by:
        phrase = f" by its `{by}`"
    elif (
        len(required) == 1
        and _ID.search(required[0])
        and not plural
        and rest[-1] not in _THE
        and verb not in _CREATES
    ):
        phrase = f" by its `{required[0]}`"
    elif verb in _CREATES or _CONTENT & {word.lower() for word in name_words(required[0])}:
        phrase = f" with the given {listed(required)}"
    else:
        phrase = f" for the given {listed(required)}"
    if rest[0] in ("all", "my", "the", "a", "an") or plural:
        article = ""
    elif rest[0] in _THE or rest[-1] in _THE or (verb in _READS and phrase.startswith(" for")):
        # one of them for those inputs: "Get the earnings history for the given `ticker`"
        article = "the "
    else:
        article = "a "
    # A word as the server's own prose spells it ("Exasol", not the name's "exasol"); the server's
    # name that no prose spells is left out, when two words of the object are left to say it.
    spoken = [grounding.spelt.get(word, _prose(word)) for word in rest]
    # A term the server writes as a title is spelt whole ("User Defined Functions"), never half.
    for size in range(len(rest), 1, -1):
        for start in range(len(rest) - size + 1):
            term = grounding.spelt.get(" ".join(rest[start : start + size]))
            if term and not {"", "\0"} & set(spoken[start : start + size]):
                spoken[start : start + size] = [term, *["\0"] * (size - 1)]
    whole = len(spoken)  # the words of the object, a term counting each of its words
    spoken = [word for word in spoken if word != "\0"]
    if "" in spoken:
        whole -= spoken.count("")
        spoken = [word for word in spoken if word]
        if whole < 2 or not grounding.spelt.get(rest[-1], "x"):
            return None
    if article == "a " and _VOWEL.match(spoken[0].lower()):
        article = "an "
    sentence = f"{verb.capitalize()} {article}{' '.join(spoken)}{phrase}"
    return sentence + "."


# Words of a short description that leave the place after its last word ambiguous: an input named
# after "Add issues to a cycle" would read as the cycle's, not the issues'.
_LINKS = frozenset(words("to in into on for from of with at by as via per and or"))
# A third person's verb ("Deletes an issue") opens a description as its imperative does.
_THIRD = re.compile(r"^(\w+?)(?:es|s)$")
# Inputs that name a thing made by their value: "Create a group with the given `name`".
_NAMING = frozenset(("name", "title"))


def _opens_with(first: str, verb: str) -> bool:
    first = first.lower()
    return first == verb or (_THIRD.match(first) is not None and first in (verb + "s", verb + "es"))


# Verbs that change or end the one thing they name, which must be there already.
_CHANGES = frozenset(words("delete remove update edit archive unarchive restore rename resize patch modify"))
# Words that add nothing to what a name says: "Update an existing task" says what `update_task` does.
_NAME_FILLER = frozenset(words("a an the existing new specific all"))


def restates_name(text: str, name: str) -> bool:
    """Whether a one-line `text` says nothing but its tool's `name` with articles and words like
    "existing", "new", "specific" ("Update an existing task." on `update_task`): the shape
    description-echoes-name (MCP103) reports, with those words too."""
    said = [word.lower() for word in _PROSE_WORD.findall(text)]
    if not said or "\n" in text.strip() or len(said) > 8:
        return False
    named = {word.lower() for word in name_words(name)}
    named |= {singular(word) for word in named}
    return all(word in named or singular(word) in named for word in said if word not in _NAME_FILLER)


def echo_purpose(grounding: Grounding) -> str | None:
    """For a description that only says what the name says ("Delete a label." on `delete_label`),
    the same sentence with the one input that says what it acts on: "Delete a label by its
    `label_id`." (the input named after the object), "List workflow runs for the given
    `workflow_id`." (the one required ID a list is of), "Create a group with the given `name`.". The
    original's own words, case and punctuation are kept, and the input goes after its last word,
    which must be the name's object; None whenever that is not certain: a description of more than
    one line or sentence, one with a link word ("Add issues to a cycle", "Mark a notification as
    read") or code, a name with no plain verb, or inputs that do not say which thing it is (two IDs
    for a list, a required `period`, a bare `id` beside an object of several words)."""
    tool = grounding.tool
    text = tool.description.strip()
    if not text or "\n" in text or "`" in text or len(text) > 80:
        return None
    stop = text[-1] if text[-1] in ".!" else ""
    body = text[: len(text) - len(stop)].rstrip()
    said = _PROSE_WORD.findall(body)
    if not said or any(mark in body for mark in ".:;!?()[]{}\"'") or len(said) > 8:
        return None
    lowered = [word.lower() for word in said]
    if _LINKS & set(lowered):
        return None
    parts = [word.lower() for word in name_words(tool.name)]
    if len(parts) > 2 and parts[-1] == "tool":
        parts = parts[:-1]  # `delete_dns_record_tool`: a suffix some servers give every tool
    if len(parts) > 2 and parts[0] not in _PLAIN_VERBS and _opens_with(said[0], parts[1]):
        parts = parts[1:]  # `linear_unarchiveInitiative` said as "Unarchive an initiative"
    parts = _verb_first(parts)
    if len(parts) < 2 or _LINKS & set(parts[1:]):
        return None
    verb, thing = parts[0], parts[-1]
    if not _opens_with(said[0], verb) or lowered[-1] != thing:
        return None
    # A verb no list holds ("Reboot a droplet") is the name's first word said as the text's first
    # word with an article after it, and only where every other word of the text is the name's or
    # filler: "Notes about a user" on `notes_user`, "Status check" on `status_check` open with a noun.
    if verb not in _PLAIN_VERBS and (
        len(lowered) < 3 or lowered[1] not in ("a", "an", "the") or not restates_name(text, tool.name)
    ):
        return None
    if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) for name in tool.properties):
        return None  # an input it names already (and a second --fix finds it there)
    required = _acted_on(grounding)
    plural = _plural(thing)

    own = [
        name
        for name in required
        if (keyed := _keyed_object(name, _OWN_KEY_WORDS)) and keyed[-1] == singular(thing)
    ]
    if verb in _MANY:
        if not plural or len(required) != 1 or not _ID.search(required[0]) or own:
            return None
        if required[0].lower() in _BARE:
            return None  # "List issues for the given `id`": of what, the name does not say
        phrase = f" for the given `{required[0]}`"
    elif plural:
        return None
    elif len(own) == 1 and own[0].lower().endswith("name") and verb in _MAKES:
        phrase = f" with the given `{own[0]}`"  # "Create a bucket with the given `bucket_name`"
    elif len(own) == 1:
        phrase = f" by its `{own[0]}`"
    elif len(required) == 1 and required[0].lower() in ("id", "uuid", "key") and len(parts) == 2:
        # A bare `id` is the object's only when the object is one word: on `get_service_uptime_chart`
        # it is the service's, not the chart's.
        phrase = f" by its `{required[0]}`"
    elif (
        verb in _CHANGES
        and thing not in _THE
        and [name.lower() for name in required if _ID.search(name)] in (["id"], ["uuid"])
    ):
        # A tool that changes or ends a thing, with one key among its inputs, a bare one: the key
        # can only be the thing's, whatever words its name has ("Delete a customer need by its
        # `id`", "Update a check by its `ID`", the other inputs its new fields). Not for a thing of
        # which a parent has one ("Update project status": the `id` is the project's).
        bare = next(name for name in required if _ID.search(name))
        phrase = f" by its `{bare}`"
    elif len(required) == 1 and required[0].lower() == "name" and len(parts) == 2 and verb not in _MAKES:
        # The one input of a tool acting on a thing that is there already names it ("Delete a
        # domain by its `name`"); a tool that makes or renames one takes its new name.
        phrase = f" by its `{required[0]}`"
    elif verb in ("create", "add") and len(required) == 1 and required[0].lower() in _NAMING:
        phrase = f" with the given `{required[0]}`"
    else:
        return None
    if verb in _CREATES and phrase.startswith(" by its"):
        # What a create is given names the thing it makes, none that is there to pick ("Create an
        # environment by its `environmentId`" reads as choosing one); a required name or title is
        # what a reader knows the new thing by, so that is the input named when there is one.
        naming = [name for name in required if name.lower() in _NAMING]
        key = naming[0] if len(naming) == 1 else phrase[len(" by its `") : -1]
        phrase = f" with the given `{key}`"
    return body + phrase + stop


def purpose_part(grounding: Grounding, example: bool = False) -> str | None:
    """What it does (from the name and inputs, for an empty description) and what it returns (from
    recorded results, when neither an output schema, the description nor the `example` says it)."""
    sentences: list[str] = []
    description = grounding.tool.description
    if empty(description) and (named := named_purpose(grounding)):
        sentences.append(named)
    if not grounding.successes:  # no recorded result to say what it returns
        return " ".join(sentences) or None
    # An example in the description (this rewrite's or an earlier one's) shows a real result already.
    example = example or f"{grounding.tool.name}(" in _flat(description)
    returns = not (example or grounding.tool.raw.get("outputSchema") or RETURNS.search(description))
    if returns:
        if grounding.output_fields:
            fields = [name for name, _ in grounding.output_fields]
            sentences.append(f"Returns JSON with {listed(fields)}.")
        else:
            sample = trimmed(quotable(grounding.successes[0].result_text()), 60)
            sentences.append(f"Returns text such as {json.dumps(sample, ensure_ascii=False)}.")
    return " ".join(sentences) or None


_NO_GROUNDING = {
    "purpose": "no recorded result says what it returns that the schema and description do not",
    "guidelines": "no sibling an agent would confuse it with that its schema or annotations set apart",
    "limitations": "no recorded failure, and none is invented: record calls with `mcp-lint record`",
    "parameters": "no recorded value of a parameter the schema leaves undescribed",
    "examples": "no successful recorded call, and none is invented: record some with `mcp-lint record`",
}


def grounded_parts(grounding: Grounding, example: str = "") -> tuple[dict[Part, str], dict[str, str]]:
    """Each buildable part (purpose holds only the added sentence), and why the others are absent.
    With the `example` the rewrite shows, the result and values it shows are not said again."""
    builders: dict[Part, Callable[[], str | None]] = {
        "purpose": lambda: purpose_part(grounding, example=bool(example)),
        "guidelines": lambda: guidelines_part(grounding),
        "limitations": lambda: limitations_part(grounding),
        "parameters": lambda: parameters_part(grounding, example),
        "examples": lambda: examples_part(grounding),
    }
    built: dict[Part, str] = {}
    absent: dict[str, str] = {}
    for part in PARTS:
        text = builders[part]()
        if text:
            built[part] = text
        else:
            absent[part] = _NO_GROUNDING[part]
    return built, absent


# What may end a sentence: a period is added after anything else (`... (JSON)` gets one too).
_ENDS = (".", "!", "?", ":", ";", "…", "。", "！", "？", "：", "；")
# Closing marks a sentence may end inside: "(see the docs.)", 'called "x."'.
_CLOSERS = ")]}\"'`*_ \t"
# A last line that is a list item, a table row, a heading or a code fence: nothing goes on after it.
_BLOCK_LINE = re.compile(r"^\s*(?:[-*+>|#]|\d+[.)]\s|```|~~~)")


def _indent(lines: Sequence[str]) -> str:
    """The leading whitespace every non-blank line shares (an indented docstring's)."""
    found: str | None = None
    for line in lines:
        if not line.strip():
            continue
        lead = line[: len(line) - len(line.lstrip())]
        if found is None or not lead.startswith(found):
            found = lead if found is None else found[: len(_common(found, lead))]
    return found or ""


def _common(first: str, second: str) -> str:
    size = 0
    while size < min(len(first), len(second)) and first[size] == second[size]:
        size += 1
    return first[:size]


# A hard-wrapped original keeps its width; a longer one (a line per paragraph) is not wrapped.
_WRAPPED_WIDTH = 100


def _paragraph(text: str, indent: str, width: int | None) -> str:
    if width is None:
        return indent + text
    return textwrap.fill(
        text,
        width=width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def assemble(original: str, added: Mapping[Part, str]) -> tuple[str, dict[str, str]]:
    """The description with `added` appended to the original (kept as written) in part order, and
    the parts as the overrides file records them. A placeholder description ("TODO") is replaced.

    A one-line original gets the parts on its line, after a period when its last sentence has none.
    A longer one is left as written (its last line may be an Args entry) and gets each part as a
    paragraph of its own in its layout: the indentation its lines share (an indented docstring's),
    its line width when it is hard-wrapped, and its leading and trailing whitespace (the docstring's
    closing quotes stay on their own line)."""
    body = "" if empty(original) else original.strip()
    head = original[: len(original) - len(original.lstrip())] if body else ""
    tail = original[len(original.rstrip()) :] if body else ""
    lines = body.split("\n")
    block = bool(_BLOCK_LINE.match(lines[-1]))
    layout = len(lines) > 1 or block
    if body and added and not layout and not body.rstrip(_CLOSERS).endswith(_ENDS):
        body += "."  # "List issues in a repository" runs into the next sentence otherwise
    parts: dict[str, str] = {}
    pieces: list[str] = []
    if "purpose" in added:
        if layout:
            parts["purpose"] = body
            pieces.append(added["purpose"])
        else:
            parts["purpose"] = f"{body} {added['purpose']}".strip()
    for part in PARTS:
        if part in added and part != "purpose":
            parts[part] = added[part]
            pieces.append(added[part])
    lead = parts.get("purpose", body)
    if not layout:
        return head + " ".join(text for text in (lead, *pieces) if text) + tail, parts
    indent = _indent(lines[1:])
    longest = max(len(line) for line in lines)
    width = max(longest, 60) if longest <= _WRAPPED_WIDTH and len(lines) > 2 else None
    paragraphs = [_paragraph(piece, indent, width) for piece in pieces]
    return head + "\n\n".join([lead, *paragraphs]) + tail, parts


def _smells(scores: Mapping[str, float], thresholds: Mapping[str, float]) -> set[str]:
    return {component for component, limit in thresholds.items() if scores.get(component, 5.0) < limit}


def _cleared(
    scores: Mapping[str, float],
    baseline: Mapping[str, float],
    thresholds: Mapping[str, float],
    goal: Collection[str],
) -> frozenset[str] | None:
    """The goal components `scores` clears, or None when it makes some component worse than `baseline`."""
    if any(scores.get(component, 5.0) < value for component, value in baseline.items()):
        return None
    return frozenset(goal) - _smells(scores, thresholds)


def compose(
    grounding: Grounding,
    targets: Collection[str],
    thresholds: Mapping[str, float],
    score: Scorer,
    components: Collection[Part] | None = None,
    clean: Callable[[str], bool] | None = None,
) -> Composition | None:
    """The smallest grounded rewrite that clears the most of `targets` under `score` (the offline jury).

    `targets` are the smelly components; `components` (from --components) fixes the parts to add and
    turns the search off. None when no grounded part can be added, or (without `components`) when
    none of the grounded parts clears any smell without making a component worse. A text `clean`
    rejects (the deterministic rules find something in it the original did not have) is never
    proposed: the parts that cause it are left out.
    """
    original = grounding.tool.description
    wanted: set[Part] = (
        set(components)
        if components is not None
        else {part for component in targets if (part := PART_OF.get(component)) is not None}
    )
    built, absent = grounded_parts(grounding)
    if not built:
        # Nothing to add (most tools without recorded calls or rivals): every path below ends in
        # None, and the original is not scored for nothing.
        return None
    absent = {part: why for part, why in absent.items() if part in wanted}
    chosen: list[Part] = [part for part in PARTS if part in wanted and part in built]
    if components is None:
        baseline = score(original)
        # Examples with no recorded call to quote are never claimed (see `propose`), and the jury's
        # anchors clear them by themselves once a placeholder becomes a description (a simple call
        # needs none): that alone does not make a rewrite worth proposing.
        goal = frozenset(
            component
            for component in targets
            if not (component == "examples" and PART_OF.get(component) in absent)
        )

        def outcome(parts: Sequence[Part]) -> frozenset[str] | None:
            text = assemble(original, {part: built[part] for part in parts})[0]
            if clean is not None and not clean(text):
                return None
            return _cleared(score(text), baseline, thresholds, goal)

        best = outcome(chosen) if chosen else frozenset()
        if best is None:
            best = frozenset()
            chosen = []
        # A smell the parts made for it do not clear: try the other grounded parts, one at a time.
        for extra in _EXTRA_ORDER:
            if best >= goal:
                break
            if extra in built and extra not in chosen:
                trial = outcome([*chosen, extra])
                if trial is not None and trial > best:
                    chosen, best = [*chosen, extra], trial
        # Smallest change: drop every part the rewrite clears as much without, except what only
        # recorded calls can tell (a real example, a real failure): a scorer satisfied by more
        # prose does not make those redundant.
        pinned = {"examples"} | ({"limitations"} if grounding.failures else set())
        for part in [item for item in chosen if item not in pinned]:
            rest = [item for item in chosen if item != part]
            trial = outcome(rest) if rest else None
            if trial is not None and trial >= best:
                chosen = rest
        if not best:
            return None
    elif clean is not None:
        # The parts are fixed: leave out each one whose text adds a finding.
        chosen = [part for part in chosen if clean(assemble(original, {part: built[part]})[0])]
        if chosen and not clean(assemble(original, {part: built[part] for part in chosen})[0]):
            chosen = []
    if not chosen:
        return None
    if "examples" in chosen:
        # The example shows a real result and real values: the other parts do not say them again.
        again = grounded_parts(grounding, built["examples"])[0]
        chosen = [part for part in chosen if part in again]
        built = {part: again[part] for part in chosen}
        if clean is not None and not clean(assemble(original, built)[0]):
            return None
    ordered = [part for part in PARTS if part in chosen]
    description, parts = assemble(original, {part: built[part] for part in ordered})
    return Composition(description=description, parts=parts, touched=tuple(ordered), absent=absent)
