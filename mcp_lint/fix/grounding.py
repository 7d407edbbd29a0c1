"""What a rewrite may say about a tool: facts read from its schema, annotations, siblings and traces.

Every sentence the offline augmentor writes is one of these facts in a fixed phrasing, so nothing in a
rewrite is made up: examples and results come from successful recorded calls (their real arguments and
a trimmed real result), failures from recorded errors, and the difference from a sibling from the two
tools' schemas and annotations. Siblings are only the rivals the ambiguous-tools rule's reading of
names finds (the same action on the same object): a tool on another object is told apart by its name.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_lint.check.functions._util import is_placeholder

# Imported here, not in the functions that read them: importing `_util` above has loaded every check
# function module already, and an import statement run per tool costs more than the reading it serves.
from mcp_lint.check.functions.overlap import NameMeaning, is_action, name_meaning, namespaces, same_meaning
from mcp_lint.model import Tool, value_record
from mcp_lint.schema_walk import Walked, nested_objects, property_variants, walk_schema
from mcp_lint.traces import REDACTED, TraceRecord
from mcp_lint.words import name_words, singular

# How much of a recorded result or error a description quotes: enough to show the shape.
QUOTE_LIMIT = 80
# How many parameters one sentence lists before it says "and N more".
MAX_LISTED = 6


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Parameter:
    """One input parameter as its schema states it (`path` is dotted for nested fields)."""

    path: str
    kinds: tuple[str, ...]
    required: bool
    documented: bool
    default: Any = None
    has_default: bool = False
    enum: tuple[Any, ...] = ()
    fmt: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    fields: tuple[str, ...] = ()


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Rival:
    """A sibling an agent would confuse the tool with, and what really sets the two apart: the
    parameters only this tool takes (`takes`) and only the rival takes (`lacks`), the result fields
    only this tool's output schema has, and whether this one only reads where the rival writes
    (`reads` True) or the reverse (False); None when the annotations do not differ."""

    name: str
    takes: tuple[str, ...] = ()
    lacks: tuple[str, ...] = ()
    returns: tuple[str, ...] = ()
    reads: bool | None = None
    # What the rival's own description says it does: its first sentence's verb phrase, lower-cased
    # ("look up a user by email"); None when that sentence does not start with a verb.
    purpose: str | None = None
    # The required parameters only the rival needs (`needs`) and only this tool needs (`wants`).
    needs: tuple[str, ...] = ()
    wants: tuple[str, ...] = ()

    @property
    def differs(self) -> bool:
        return bool(self.takes or self.lacks or self.returns or self.reads is not None)


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Grounding:
    """Everything the rewrite of one tool may draw on."""

    tool: Tool
    parameters: tuple[Parameter, ...]
    rivals: tuple[Rival, ...] = ()
    successes: tuple[TraceRecord, ...] = ()
    failures: tuple[TraceRecord, ...] = ()
    output_fields: tuple[tuple[str, str | None], ...] = ()  # (field, JSON type) of what it returns
    # How the server spells a word its names write in lower case ("exasol" -> "Exasol"), from its
    # own prose (see `spellings`).
    spelt: Mapping[str, str] = field(default_factory=dict)

    @property
    def names(self) -> frozenset[str]:
        """Every parameter path and the last segment of each: what a rewrite may name as a parameter."""
        found: set[str] = set()
        for parameter in self.parameters:
            found.add(parameter.path)
            found.add(parameter.path.rsplit(".", 1)[-1].removesuffix("[]"))
        return frozenset(found)

    @property
    def rival_names(self) -> frozenset[str]:
        """What a contrast with a rival may name: the rival, and its parameters this tool lacks."""
        return frozenset(name for rival in self.rivals for name in (rival.name, *rival.lacks))


def literal(value: Any) -> str:
    """A value as JSON (what the agent sends), compact."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _firsts(variants: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Each keyword of the variants with its value in the first variant that has it (the later
    variants' values written first, the earlier ones over them): one pass for every keyword a
    parameter reads, not one per keyword."""
    found: dict[str, Any] = {}
    for variant in reversed(variants):
        found.update(variant)
    return found


def _kinds(variants: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    kinds: list[str] = []
    for variant in variants:
        kind = variant.get("type")
        for item in [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []:
            if isinstance(item, str) and item != "null" and item not in kinds:
                kinds.append(item)
    return tuple(kinds)


def _parameter(root: Any, item: Walked, path: str) -> Parameter:
    variants = property_variants(root, item.schema)
    # the fields of the object (or array of objects) it is: the first one that declares some
    objects = nested_objects(root, item.schema)
    nested: Mapping[str, Any] = next(
        (schema["properties"] for schema, _ in objects if schema["properties"]), {}
    )
    first = _firsts(variants)
    enum = first.get("enum")
    const = first.get("const")
    if enum is None and const is not None:
        enum = [const]
    fmt = first.get("format")
    pattern = first.get("pattern")
    return Parameter(
        path=path,
        kinds=_kinds(variants),
        required=item.name in _names(item.owner.get("required")),
        documented=any(str(variant.get("description") or "").strip() for variant in variants),
        default=first.get("default"),
        has_default="default" in first,
        enum=tuple(enum) if isinstance(enum, list) else (),
        fmt=fmt if isinstance(fmt, str) else None,
        min_length=_count(first.get("minLength")),
        max_length=_count(first.get("maxLength")),
        pattern=pattern if isinstance(pattern, str) else None,
        fields=tuple(str(key) for key in nested),
    )


def _names(value: Any) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def schema_parameters(tool: Tool) -> tuple[Parameter, ...]:
    """Every parameter of the input schema, nested object fields after their parent (`a.b`, `a[].b`)
    and four levels deep at most; of a field that may be several objects, the first one's fields."""
    root = tool.input_schema
    found: list[Parameter] = []
    paths: dict[int, tuple[Walked, str]] = {}  # id of a parameter met -> (it, its dotted path)
    for item in walk_schema(root, depth_first=True, first_object=True, descend=lambda item: item.depth < 3):
        path = item.name
        if item.parent is not None:
            path = f"{paths[id(item.parent)][1]}{'[]' * len(item.through)}.{item.name}"
        paths[id(item)] = (item, path)
        found.append(_parameter(root, item, path))
    return tuple(found)


def trimmed(text: str, limit: int = QUOTE_LIMIT) -> str:
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0] if " " in flat[: limit - 1] else flat[: limit - 1]
    return cut.rstrip(",;:") + "…"


def _reads(tool: Tool) -> bool | None:
    """What the annotations say: True for read-only, False for a tool that changes something."""
    annotations = tool.annotations or {}
    if annotations.get("readOnlyHint") is True:
        return True
    if annotations.get("readOnlyHint") is False or annotations.get("destructiveHint") is True:
        return False
    return None


def _output_names(tool: Tool) -> tuple[str, ...]:
    schema = tool.raw.get("outputSchema")
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        return tuple(str(key) for key in schema["properties"])
    return ()


# What a description may name a rival by: a run of identifier characters.
_NAMED = re.compile(r"[A-Za-z0-9_.-]+")
# A tool confused with more rivals than this is one of a generated family: no short sentence helps.
MAX_RIVALS = 2
_MAX_DIFFERENCES = 4


def _same_family(mine: Sequence[str], theirs: Sequence[str], space: frozenset[str], verb: bool) -> bool:
    """Whether two names read as the same action agree where the reading cannot tell: two different
    product prefixes (`jira_add_comment` / `confluence_add_comment`) name different things, and with
    no known verb (`login` / `verify-login`) the first words must match."""
    if mine[0] in space and theirs[0] in space and mine[0] != theirs[0]:
        return False
    if verb:
        return True
    strip = [words[1:] if len(words) > 1 and words[0] in space else words for words in (mine, theirs)]
    return strip[0][:1] == strip[1][:1]


def _description_words(tool: Tool) -> set[str]:
    return {singular(word) for word in re.findall(r"[a-z0-9]+", tool.description.lower())}


# A name word that makes a variant, and the words a description says it in: `batch_get_file_contents`
# "Return the contents of multiple files", `get_my_profile` "Get the authenticated user's profile".
_VARIANT_SAID: Mapping[str, frozenset[str]] = {
    **dict.fromkeys(
        ("batch", "bulk", "multi", "many", "multiple"),
        frozenset(("multiple", "several", "many", "batch", "bulk", "list")),
    ),
    **dict.fromkeys(
        ("my", "me", "self", "own"),
        frozenset(("authenticated", "current", "own", "your", "my", "logged")),
    ),
}


def _told_apart(tool: Tool, peer: Tool, mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether the longer name's description already says what its extra words add, as the
    ambiguous-tools rule reads a variant (`list_directory_with_sizes`, "... with sizes"; a
    `batch_` or `my_` variant in the words a description says it with, `_VARIANT_SAID`): the agent
    can tell the two apart without help."""
    extra = mine ^ theirs
    if not extra:
        return False
    longer, shorter = (tool, peer) if len(mine) > len(theirs) else (peer, tool)
    said = _description_words(longer) - _description_words(shorter)
    meant = set(extra).union(*(_VARIANT_SAID.get(word, ()) for word in extra))
    return bool(meant & said)


# What a first sentence may open with before its verb: "This tool gets ...", "Use this to get ...".
_PURPOSE_LEAD = re.compile(
    r"^(?:(?:this|the)\s+(?:tool|function|endpoint)\s+(?:will\s+|can\s+|is\s+used\s+to\s+)?"
    r"|(?:use\s+(?:this\s+(?:tool\s+)?)?|tool\s+|used\s+|allows\s+you\s+|lets\s+you\s+)to\s+)",
    re.IGNORECASE,
)
_FIRST_SENTENCE = re.compile(r"^(.+?)(?:[.!?](?:\s|$)|\n|$)", re.DOTALL)
_CUT = re.compile(r"\b(?:e\.g|i\.e|etc|vs|approx|incl)$", re.IGNORECASE)
# A purpose longer than this is a paragraph, not a reason to pick one tool over another.
_PURPOSE_WORDS = 14


def _base(verb: str) -> str:
    """A verb's base form from its third person (`gets` -> `get`, `searches` -> `search`)."""
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def purpose(tool: Tool) -> str | None:
    """What `tool`'s description says it does, as a verb phrase in the imperative, lower-cased:
    "Gets a user by email." -> "get a user by email". None when the first sentence does not open
    with a verb (one of the name verbs, or a word of the tool's own name), runs long, or is empty."""
    text = " ".join(tool.description.split())
    found = _FIRST_SENTENCE.match(text)
    if found is None:
        return None
    sentence = _PURPOSE_LEAD.sub("", found.group(1).strip()).rstrip(" ,;:")
    words = sentence.split()
    if not words or len(words) > _PURPOSE_WORDS or not words[0].isalpha():
        return None
    first = words[0].lower()
    verb = next(
        (form for form in (first, _base(first)) if is_action(form) or form in name_words(tool.name)),
        None,
    )
    # A sentence cut inside an abbreviation ("e.g.", "i.e.", "vs.") or a code span is no phrase.
    if verb is None or sentence.count("`") % 2 or _CUT.search(sentence):
        return None
    rest = " ".join(words[1:])
    return f"{verb} {rest}".strip()


def _required_names(tool: Tool) -> tuple[str, ...]:
    required = _names(tool.input_schema.get("required")) if isinstance(tool.input_schema, Mapping) else ()
    return tuple(name for name in tool.properties if name in required)


# Every tool of a server looks at every other as a possible rival: reading each name once per server,
# not once per pair, keeps a large server's proposals linear in the reading (the pairs stay, cheaply).
@functools.lru_cache(maxsize=8192)
def _words_of(name: str) -> tuple[str, ...]:
    return tuple(name_words(name))


@functools.lru_cache(maxsize=8192)
def _meaning_of(words: tuple[str, ...], space: frozenset[str]) -> NameMeaning:
    return name_meaning(words, space)


@dataclass(frozen=True, eq=False, repr=False)
class _PeerIndex:
    """A server's tool names read once: each named tool's words (by position in the peers), how
    many named tools bear each name, the namespaces of all of them, and the positions of the tools
    whose names mean each (action, head) pair."""

    positions: tuple[int, ...]
    words: Mapping[int, tuple[str, ...]]
    counts: Mapping[str, int]
    space: frozenset[str]
    groups: Mapping[tuple[str, str], tuple[int, ...]]


@functools.lru_cache(maxsize=4)
def _peer_index(names: tuple[str | None, ...]) -> _PeerIndex:
    """`names` are the peers' names in order, None for a tool the server sent no name for."""
    positions = tuple(position for position, name in enumerate(names) if name is not None)
    words = {position: _words_of(str(names[position])) for position in positions}
    counts: dict[str, int] = {}
    for position in positions:
        counts[str(names[position])] = counts.get(str(names[position]), 0) + 1
    space = namespaces([list(words[position]) for position in positions])
    groups: dict[tuple[str, str], list[int]] = {}
    for position in positions:
        meaning = _meaning_of(words[position], space)
        groups.setdefault((meaning.action, meaning.head), []).append(position)
    return _PeerIndex(
        positions, words, counts, space, {key: tuple(members) for key, members in groups.items()}
    )


# The last peers indexed, and their index: the propose stage passes one server's tools, the same
# sequence (never changed while its proposals are made), for each of them in turn, and even listing
# their names per tool would make a 5,000-tool server's proposals quadratic.
# One entry, read and replaced whole (so a thread never pairs one server's peers with another's index).
_LAST: dict[str, tuple[Sequence[Tool], _PeerIndex]] = {}


def _index_of(peers: Sequence[Tool]) -> _PeerIndex:
    last = _LAST.get("peers")
    if last is not None and last[0] is peers:
        return last[1]
    index = _peer_index(tuple(peer.name if peer.named else None for peer in peers))
    _LAST["peers"] = (peers, index)
    return index


def rivals(tool: Tool, peers: Sequence[Tool]) -> tuple[Rival, ...]:
    """The server's tools an agent would confuse `tool` with, each with what sets it apart.

    Confusable means what the ambiguous-tools rule (MCP403) reads from names: the same action on the
    same object, one name at most adding words (`read_file` / `read_text_file`; never `git_log` /
    `git_add`), unless the longer name's description says what its extra words add (the rule's
    "variant explained"). A rival the description already names is left out (the text already tells
    them apart), and so is one nothing in the schemas or annotations sets apart, or whose schema
    differs in so much that the agent sees it at a glance: pointing at it would only say "this one or
    that one"."""
    index = _index_of(peers)
    own_words = _words_of(tool.name)
    if index.counts.get(tool.name) == 1:
        # The tool is one of `peers`: the server's reading of names is the tool's, and only the peers
        # whose names mean the same action on the same object can be rivals.
        if len(index.positions) < 2:
            return ()
        space = index.space
        mine = _meaning_of(own_words, space)
        if not mine.head:
            return ()
        pairs = [
            (peers[position], index.words[position])
            for position in index.groups.get((mine.action, mine.head), ())
            if peers[position].name != tool.name
        ]
    else:
        others = [peer for peer in peers if peer.name != tool.name and peer.named]
        if not others:
            return ()
        words = [own_words, *(_words_of(peer.name) for peer in others)]
        space = namespaces([list(each) for each in words])
        mine = _meaning_of(own_words, space)
        if not mine.head:
            return ()
        pairs = list(zip(others, words[1:], strict=True))
    if not pairs:  # no peer means the same (most tools): nothing below would find a rival
        return ()
    own = set(tool.properties)
    own_reads = _reads(tool)
    own_fields = _output_names(tool)
    own_required = _required_names(tool)
    found: list[Rival] = []
    said = set(_NAMED.findall(tool.description))
    for peer, peer_words in pairs:
        theirs_meaning = _meaning_of(peer_words, space)
        if peer.name in said or not same_meaning(mine, theirs_meaning):
            continue
        if not _same_family(own_words, peer_words, space, bool(mine.action)):
            continue
        if _told_apart(tool, peer, mine.others, theirs_meaning.others):
            continue
        theirs = set(peer.properties)
        peer_required = set(_required_names(peer))
        peer_reads = _reads(peer)
        peer_fields = set(_output_names(peer))
        rival = Rival(
            name=peer.name,
            takes=tuple(name for name in tool.properties if name not in theirs),
            lacks=tuple(name for name in peer.properties if name not in own),
            returns=tuple(name for name in own_fields if peer_fields and name not in peer_fields),
            reads=own_reads
            if own_reads is not None and peer_reads is not None and own_reads != peer_reads
            else None,
            purpose=purpose(peer),
            needs=tuple(name for name in _required_names(peer) if name not in own_required),
            wants=tuple(name for name in own_required if name not in peer_required),
        )
        # A long list of differences is the two schemas side by side: the agent reads those already.
        if rival.differs and len(rival.takes) + len(rival.lacks) + len(rival.returns) <= _MAX_DIFFERENCES:
            found.append(rival)
    if len(found) > MAX_RIVALS:
        return ()
    return tuple(found)


def _usable(record: TraceRecord) -> bool:
    """A success worth quoting: no redacted argument, and a result with some text."""
    return REDACTED not in json.dumps(record.arguments, default=str) and bool(record.result_text().strip())


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"))


# Not json_types.json_type: a sampled result field's type tells an integer from a number, and a null
# sample says nothing about the field's type (None).
def _sampled_type(value: Any) -> str | None:
    if isinstance(value, Mapping):
        return "object"
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), None)


def _output_fields(tool: Tool, successes: Sequence[TraceRecord]) -> tuple[tuple[str, str | None], ...]:
    schema = tool.raw.get("outputSchema")
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        return tuple(
            (str(key), (_kinds(property_variants(schema, value)) or (None,))[0])
            for key, value in schema["properties"].items()
        )
    for record in successes:
        value = record.structured
        if not isinstance(value, Mapping):
            try:
                value = json.loads(record.result_text())
            except ValueError:
                continue
        if isinstance(value, Mapping) and value:
            return tuple((str(key), _sampled_type(item)) for key, item in value.items())
    return ()


# A prose word, and what comes before it: a word that opens a sentence is capitalised for that alone.
_SPELT_WORD = re.compile(r"(?:^|(?<=[\s(\"']))([^\W\d_]+)\b")
_IDENTIFIER = re.compile(r"`[^`]*`|https?://\S+|\b\w*[_./]\w+\b|\b[a-z]+[A-Z]\w*\b")
_OPENS = re.compile(r"(?:^|[.!?:;\n]|^\s*[-*]|\d[.)])\s*[\"'(]?$")
# A run of two or more capitalised words: a term the server writes as a title ("User Defined Functions").
_TITLED_RUN = re.compile(r"(?:^|(?<=[\s(\"']))([A-Z][a-z]+(?:[ -][A-Z][a-z]+)+)\b")


def blank(description: str) -> bool:
    """A description that says nothing: empty, whitespace or a placeholder ("TODO")."""
    return not description.strip() or is_placeholder(description)


def spellings(tools: Sequence[Tool]) -> dict[str, str]:
    """How the server's own prose spells each word it does not write in lower case mid-sentence:
    its descriptions and its parameters' descriptions, identifiers and code left out, a word that
    opens a sentence not counted ("Exasol" when "the Exasol database" is written more often than
    "the exasol database"); "" for a word every tool's name carries that the prose never writes
    (the server's name, whose spelling nothing shows). One pass over the server's text."""
    cased: dict[str, dict[str, int]] = {}
    prose: list[str] = []
    for tool in tools:
        texts = [tool.description]
        texts.extend(
            str(schema.get("description"))
            for schema in tool.properties.values()
            if isinstance(schema, Mapping) and isinstance(schema.get("description"), str)
        )
        for text in texts:
            text = _IDENTIFIER.sub(" ", text)
            prose.append(text)
            for found in _SPELT_WORD.finditer(text):
                word = found.group(1)
                if _OPENS.search(text[max(0, found.start() - 6) : found.start()]):
                    continue
                counts = cased.setdefault(word.lower(), {})
                counts[word] = counts.get(word, 0) + 1
    spelt: dict[str, str] = {}
    # A term of several words written as a title mid-sentence more often than in lower case is spelt
    # as a whole, under its words joined by spaces ("user defined functions" -> "User Defined
    # Functions"): its words one by one may be lower case elsewhere ("functions"), and a sentence
    # mixing the two ("User Defined functions") is no spelling the server uses.
    titled: dict[str, dict[str, int]] = {}
    for text in prose:
        for found in _TITLED_RUN.finditer(text):
            if not _OPENS.search(text[max(0, found.start() - 6) : found.start()]):
                forms = titled.setdefault(re.sub(r"[ -]", " ", found.group(1)).lower(), {})
                forms[found.group(1)] = forms.get(found.group(1), 0) + 1
    for key, forms in titled.items():
        pattern = re.compile(r"(?<![\w-])" + r"[ -]".join(map(re.escape, key.split())) + r"(?![\w-])")
        if sum(forms.values()) > sum(len(pattern.findall(text)) for text in prose):
            spelt[key] = max(forms, key=lambda form: (forms[form], form))
    for lower, counts in cased.items():
        best = max(counts, key=lambda form: (counts[form], form))
        if best != lower and counts[best] > counts.get(lower, 0):
            spelt[lower] = best
    # A word every tool's name carries (`exasol` of `list_exasol_schemas`, `find_exasol_schemas`,
    # ...) names the server, and how it is spelt is a brand's choice: with no prose to read it from,
    # it is "" (left out of a sentence; see compose.named_purpose).
    named = [tool for tool in tools if tool.named]
    if len(named) >= 3:
        common = set.intersection(*({word.lower() for word in name_words(tool.name)} for tool in named))
        for word in common:
            if word.isalpha() and word not in cased:
                spelt[word] = ""
    return spelt


class _FirstRead(Mapping[str, str]):
    """`spellings(tools)`, made when first read. Only a blank description's purpose, made from the
    tool's name (compose.named_purpose), reads it: most servers' proposals never do."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tuple(tools)
        self._made: dict[str, str] | None = None

    def _spelt(self) -> dict[str, str]:
        if self._made is None:
            self._made = spellings(self._tools)
        return self._made

    def __getitem__(self, word: str) -> str:
        return self._spelt()[word]

    def __iter__(self) -> Iterator[str]:
        return iter(self._spelt())

    def __len__(self) -> int:
        return len(self._spelt())


def server_spellings(tools: Sequence[Tool]) -> Mapping[str, str]:
    """`spellings(tools)` for every tool of a server to share, made only if some tool reads it."""
    return _FirstRead(tools)


def ground(
    tool: Tool,
    peers: Sequence[Tool] = (),
    traces: Sequence[TraceRecord] = (),
    spelt: Mapping[str, str] | None = None,
) -> Grounding:
    """The facts about `tool`; `peers` are the server's tools (the rivals are found among them) and
    `traces` are this tool's recorded calls; `spelt` is `spellings(peers)` when the caller has it
    (a server's proposals share it), else it is made here for a tool with an empty description."""
    successes: tuple[TraceRecord, ...] = ()
    failures: tuple[TraceRecord, ...] = ()
    if traces:  # most runs record none
        mine = [record for record in traces if record.tool == tool.name]
        successes = tuple(record for record in mine if record.succeeded and _usable(record))
        failures = tuple(record for record in mine if not record.succeeded)
    return Grounding(
        tool=tool,
        parameters=schema_parameters(tool),
        rivals=rivals(tool, peers),
        successes=successes,
        failures=failures,
        output_fields=_output_fields(tool, successes),
        # Only an empty description's purpose is made of name words: the server's text is read
        # for no other tool (a --fix over many tools does not read it once per tool).
        spelt=spelt if spelt is not None else (spellings(peers) if blank(tool.description) else {}),
    )
