"""Plain records passed between the pipeline stages: reach -> reflect -> check -> score -> propose ->
locate -> gate -> report. Each stage takes these and returns them with its part added."""

from __future__ import annotations

import enum
import math
import operator
import re
import reprlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Generic, Literal, Protocol, TypeVar, get_args, overload
from urllib.parse import quote


class Severity(enum.IntEnum):
    """npm audit's severity levels, ordered so that comparisons read naturally."""

    INFO = 0
    LOW = 1
    MODERATE = 2
    HIGH = 3
    CRITICAL = 4

    @property
    def label(self) -> str:
        # `_name_` is what `name` returns, read without enum's descriptor (a report reads a label per
        # finding, and the descriptor costs more than the rest of it).
        return self._name_.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            allowed = ", ".join(level.label for level in cls)
            raise ValueError(f"unknown severity {text!r}; use one of: {allowed}") from None


class Category(str, enum.Enum):
    """A rule's category (the `category` of its file in `rules/`): selectable like a code prefix."""

    SERVER = "server"
    DESCRIPTION = "description"
    SCHEMA = "schema"
    SECURITY = "security"
    NAMING = "naming"
    OVERLAP = "overlap"
    ANNOTATIONS = "annotations"
    BUDGET = "budget"
    RUBRIC = "rubric"

    def __str__(self) -> str:
        return self.value


# The six rubric components. Their names are public: they are keys of the JSON report.
Component = Literal["purpose", "guidelines", "limitations", "parameters", "length", "examples"]
COMPONENTS: tuple[Component, ...] = get_args(Component)  # in report order

# The embedded offline jury: its judge name in reports, and what `--jury offline` asks for.
OFFLINE_JURY = "offline"


_T = TypeVar("_T")


class _cached(Generic[_T]):
    """`functools.cached_property` without its lock (which Python 3.12 dropped too): the first read
    computes the value and stores it in the instance's `__dict__`, where every later read finds it
    without calling here. Fresh `Tool`s are made by the thousand (one per candidate text the
    propose stage scores), and the lock made each first read cost several times the computation."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> _cached[_T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> _cached[_T] | _T:
        if instance is None:
            return self
        value = instance.__dict__[self._name] = self._compute(instance)
        return value


_R = TypeVar("_R", bound=type)


def _fields_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of the attributes `names` of an object, as one tuple (also for none or one)."""
    if len(names) == 1:
        only = names[0]
        return lambda instance: (getattr(instance, only),)
    getter = operator.attrgetter(*names) if names else None
    return (lambda instance: getter(instance)) if getter is not None else (lambda instance: ())


def value_record(cls: _R) -> _R:
    """Give a `@dataclass(frozen=True, eq=False, repr=False)` class the `__eq__`, `__hash__` and
    `__repr__` that `@dataclass(frozen=True)` would give it, made here from shared code.

    `dataclasses` writes each generated method as source text and compiles it, class by class
    (about 1 M instructions per method on Python 3.11; this module's twenty records paid some
    60 M at every start-up for these three). These behave as the generated ones do: equal when of
    the same class and equal in the compared fields' tuple (else NotImplemented), the hash of that
    tuple (the fields `hash` or `compare` selects), `Name(field=value!r, ...)` over the shown
    fields, "..." for a record inside its own repr. Held to the generated ones by
    tests/test_model_records.py."""
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    own = {"__eq__", "__hash__", "__repr__"} & set(cls.__dict__)
    if not params.frozen or params.eq or params.repr or params.unsafe_hash or own:
        raise TypeError(f"{cls.__name__}: value_record takes @dataclass(frozen=True, eq=False, repr=False)")
    every = fields(cls)
    compared = _fields_of(tuple(item.name for item in every if item.compare))
    hashed = _fields_of(
        tuple(item.name for item in every if (item.compare if item.hash is None else item.hash))
    )
    shown = tuple(item.name for item in every if item.repr)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inside})"

    for method in (__eq__, __hash__, __repr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    # `replaced` may copy an instance when `__init__` takes exactly the fields (none left out of it,
    # no InitVar) and nothing runs after it.
    init = getattr(cls.__dict__.get("__init__"), "__code__", None)
    names = tuple(item.name for item in every)
    if (
        init is not None
        and not hasattr(cls, "__post_init__")
        and init.co_varnames[1 : init.co_argcount + init.co_kwonlyargcount] == names
    ):
        _COPIED[cls] = frozenset(names)
    return cls


# The value records that `replaced` may copy: class -> the names of its fields.
_COPIED: dict[type, frozenset[str]] = {}
_V = TypeVar("_V")


def replaced(record: _V, /, **changes: Any) -> _V:
    """`dataclasses.replace(record, **changes)`: the same new record, made by copying the instance's
    fields instead of calling `__init__` with all of them. For a frozen record that `__init__` sets
    field by field through `object.__setattr__`; `replace` reads every field and calls it (about
    50 K instructions for a `Finding` on Python 3.11, 7 K for this copy), and a run replaces a few
    per tool: each rubric finding gets its suggestion, then its gate decision.

    Only for a value record whose `__init__` takes exactly its fields and runs nothing after, when
    the instance holds nothing but them (not a `Tool` with accessors cached) and `changes` names
    only fields; anything else is `dataclasses.replace`'s, errors included. Held to it by
    tests/test_model_records.py."""
    names = _COPIED.get(record.__class__)
    state = record.__dict__.copy()
    if names is None or state.keys() != names or not changes.keys() <= names:
        return replace(record, **changes)  # type: ignore[type-var]
    state.update(changes)
    made: _V = object.__new__(record.__class__)
    object.__setattr__(made, "__dict__", state)
    return made


def fmean(values: Iterable[float]) -> float:
    """`statistics.fmean(values)` without importing `statistics` (with its `random`, `fractions` and
    `decimal`, ~15 ms of a lint's start-up): the exact float sum over the count, as its code computes
    it. An empty input gets `statistics`' own error."""
    items = list(values)
    if not items:
        import statistics

        return statistics.fmean(items)
    return math.fsum(items) / len(items)


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Tool:
    """One tool exactly as the server sent it, with the fields rules read most often pulled out.

    `raw` is the JSON object from `tools/list`; it is kept so nothing the server sent is lost,
    even fields this version of mcp-lint does not know. `sdk_rejection` says why the MCP SDK
    would refuse or silently drop this tool (None when it accepts it).

    `named` is False when the server sent no name to call the tool by: the entry is not a JSON
    object, or its `name` is not a string. `name` is then a placeholder ("<tool #3>") to report
    the entry under, and only the server rules (sdk-rejected-tool) look at the entry.
    """

    name: str
    raw: Mapping[str, Any]
    sdk_rejection: str | None = None
    named: bool = True

    # The accessors below are cached: rules read them hundreds of thousands of times on a large
    # server, and each would otherwise repeat its type checks. `raw` is never mutated.

    @_cached
    def description(self) -> str:
        value = self.raw.get("description")
        return value if isinstance(value, str) else ""

    @_cached
    def title(self) -> str | None:
        value = self.raw.get("title")
        if isinstance(value, str):
            return value
        annotations = self.annotations
        nested = annotations.get("title") if annotations else None
        return nested if isinstance(nested, str) else None

    @_cached
    def input_schema(self) -> Any:
        return self.raw.get("inputSchema")

    @_cached
    def properties(self) -> Mapping[str, Any]:
        schema = self.input_schema
        if isinstance(schema, (dict, Mapping)):
            props = schema.get("properties")
            if isinstance(props, (dict, Mapping)):
                return props
        return {}

    @_cached
    def required(self) -> tuple[str, ...]:
        schema = self.input_schema
        if isinstance(schema, (dict, Mapping)):
            names = schema.get("required")
            if isinstance(names, list):
                return tuple(name for name in names if isinstance(name, str))
        return ()

    @_cached
    def annotations(self) -> Mapping[str, Any] | None:
        value = self.raw.get("annotations")
        return value if isinstance(value, (dict, Mapping)) else None


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Observation:
    """Something the server did while being reflected that is worth a server-level finding.

    `kind` matches the check function that turns it into a finding (for example
    `stdout-pollution`); `detail` is the evidence, already trimmed for display.
    """

    kind: str
    detail: str


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ServerSnapshot:
    """The normalized reflection of one server: everything the checks need, nothing live."""

    name: str
    tools: tuple[Tool, ...]
    protocol_version: str | None = None
    server_info: Mapping[str, Any] | None = None
    instructions: str | None = None
    observations: tuple[Observation, ...] = ()
    origin: str | None = None

    @property
    def aliases(self) -> tuple[str, ...]:
        """The names that stand for this server in a baseline and in per-tool ignores: its name in this
        run (the config key when it was reached through one), then the name it reports in `serverInfo`
        (its name when started as `-- python server.py`), so keys carry over however it is reached."""
        reported = self.server_info.get("name") if self.server_info else None
        names = [self.name]
        if isinstance(reported, str) and " ".join(reported.split()):
            names.append(" ".join(reported.split()))
        return tuple(dict.fromkeys(names))


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class SchemaFix:
    """A machine-readable schema or annotation fix a rule computed from its own evidence (an unsafe
    fix: it changes what the server accepts or claims, so only `--fix --unsafe-fixes` applies it).

    `pointer` names the JSON object inside the tool's `tools/list` entry the fix adds to, key by key
    (`("inputSchema", "properties", "limit")`, `("annotations",)`); `values` are the keywords to add
    there (`{"minimum": 1, "maximum": 100}`). The object at `pointer` is created when the tool has
    none (an `annotations` object); a keyword it already has is kept, unless `replace` says the fix
    is a new value for it (an `enum` grown by the values the prose lists).
    """

    pointer: tuple[str, ...]
    values: Mapping[str, Any]
    replace: bool = False

    def merge_patch(self) -> dict[str, Any]:
        """The fix as a JSON merge patch (RFC 7396) of the tool's entry, as the overrides file keeps it."""
        patch: dict[str, Any] = dict(self.values)
        for key in reversed(self.pointer):
            patch = {key: patch}
        return patch


@value_record
@dataclass(frozen=True, eq=False, repr=False, init=False)
class Finding:
    """One rule violation. `tool` is None for server-level findings.

    `subject` is what the finding is about inside the tool when a rule can name it (a parameter, the
    other tool of a near-duplicate pair, a schema path): with server, tool and code it keys the
    finding in a baseline, so rewording a message never turns an old finding into a new one.
    `baselined` marks a finding the baseline already records: reported, but it fails no run.
    `fails` is the gate's decision for it (profile, fail-on, baseline); reporters only read it.
    """

    code: str
    rule: str
    severity: Severity
    message: str
    server: str
    tool: str | None = None
    evidence: str | None = None
    path: str | None = None
    suggestion: str | None = None
    subject: str | None = None
    baselined: bool = False
    category: Category = Category.DESCRIPTION
    # The rubric component a rubric finding scores (None for every other finding).
    component: Component | None = None
    # Whether this finding on its own fails the run: decided once, by the gate stage (mcp_lint.gate).
    fails: bool = False
    # The schema or annotation edit the rule's evidence calls for, when there is one (an unsafe fix).
    fix: SchemaFix | None = None

    def __init__(
        self,
        code: str,
        rule: str,
        severity: Severity,
        message: str,
        server: str,
        tool: str | None = None,
        evidence: str | None = None,
        path: str | None = None,
        suggestion: str | None = None,
        subject: str | None = None,
        baselined: bool = False,
        category: Category = Category.DESCRIPTION,
        component: Component | None = None,
        fails: bool = False,
        fix: SchemaFix | None = None,
    ) -> None:
        # What the generated `__init__` does, the fields stored as one dict rather than one
        # `object.__setattr__` call each (a frozen record's): a run makes a finding per rubric smell,
        # four or five per tool, and this costs half as much. `replaced` copies such a dict, so every
        # finding keeps one layout and reading its fields stays cheap. Held to the generated one by
        # tests/test_model_records.py.
        object.__setattr__(
            self,
            "__dict__",
            {
                "code": code,
                "rule": rule,
                "severity": severity,
                "message": message,
                "server": server,
                "tool": tool,
                "evidence": evidence,
                "path": path,
                "suggestion": suggestion,
                "subject": subject,
                "baselined": baselined,
                "category": category,
                "component": component,
                "fails": fails,
                "fix": fix,
            },
        )

    @property
    def parameter(self) -> str | None:
        """The top-level parameter this finding is about, read from its `path`
        (`inputSchema.properties.NAME`, or deeper inside it); None for anything else."""
        prefix = "inputSchema.properties."
        if not self.path or not self.path.startswith(prefix):
            return None
        name = re.split(r"[.\[]", self.path[len(prefix) :], maxsplit=1)[0]
        return name or None


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Region:
    """1-based lines and columns; columns count UTF-16 code units (SARIF's default) and `end_column`
    is the column just after the last character, as SARIF's `endColumn` is."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class SourceLocation:
    """Where a tool is registered: `path` is relative to the index root, with forward slashes."""

    path: str
    region: Region
    # The region covers exactly the description's string literal (quotes included).
    exact: bool
    # The literal's text is the served description, whitespace aside.
    verified: bool
    # "python", "javascript" or "json": how the replacement literal must be written.
    language: str


AnchorKind = Literal["source", "config", "placeholder"]


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Anchor:
    """Where in the repository a finding is shown (the locate stage finds it; SARIF and GitHub
    annotations need a file and a line): the tool's `source`, the server's entry in the `config` file
    that named it, or a `placeholder` path that is no file."""

    kind: AnchorKind
    # Repository-relative, forward slashes, not yet percent-encoded.
    path: str
    start_line: int = 1
    # Columns too, for source anchors only: a config line or a placeholder is just a line.
    region: Region | None = None
    source: SourceLocation | None = None
    # For a tool with a proposed description whose literal is exactly located and verified: the
    # literal to write over `source.region`, escaped for the file's language (SARIF `fixes`).
    replacement: str | None = None

    @property
    def uri(self) -> str:
        # Percent-encoding ':' keeps a path such as `c:x` from ever parsing as a URI scheme.
        return quote(self.path, safe="/")


PLACEHOLDER_PREFIX = "mcp-lint/servers/"


def placeholder_anchor(server: str) -> Anchor:
    """`mcp-lint/servers/<name>` at line 1: a stable repository-relative path that is no file, for a
    server whose tools no file of the repository defines (code scanning needs some location)."""
    return Anchor("placeholder", PLACEHOLDER_PREFIX + server.replace("/", "_"))


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Proposal:
    """A grounded rewrite of one tool's description, or why there is none (`refused`)."""

    server: str
    tool: str
    original: str
    targets: tuple[Component, ...]  # the smelly components it was made for
    description: str | None = None
    parts: Mapping[str, str] = field(default_factory=dict)
    touched: tuple[str, ...] = ()
    scores: Mapping[str, float] = field(default_factory=dict)  # the offline jury's, of the rewrite
    clears: tuple[Component, ...] = ()
    absent: Mapping[str, str] = field(default_factory=dict)
    refused: str | None = None
    # Mechanical fixes made to the original's own text (`MCP203 `a` -> `b``), before anything is added.
    repairs: tuple[str, ...] = ()
    # Why nothing was added although a smell is left (a description in another language).
    note: str | None = None
    # The offline jury's scores of the original, beside `scores` (the rewrite's) in the claim.
    before: Mapping[str, float] = field(default_factory=dict)
    # With no grounded rewrite: what the maintainer should write, only what a fact about the tool
    # calls for and its text does not say ("describe `city` (no description)"); empty when nothing does.
    checklist: tuple[str, ...] = ()
    # With no rewrite and no traces: recorded calls would ground more (the suggestion says how).
    record: bool = False
    # What each added part rests on: "traces", "the name and input schema", "`rival`'s description
    # and schema" (the facts, never the wording, for a reader who wants to check them).
    grounded_in: Mapping[str, str] = field(default_factory=dict)


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class BaselineEntry:
    """One line of a baseline: how many findings of `code` about `subject` a tool had when recorded.

    `tool` and `subject` are "" when the finding has none (server-level findings, rubric scores).
    """

    server: str
    tool: str
    code: str
    subject: str
    count: int
    rule: str = ""  # for the reader of the file; not part of the key


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class BaselineStatus:
    """What the baseline did in this run: how many findings it matched, and the entries that matched
    fewer findings than they record (`count` is how many went unmatched), to prune."""

    path: str
    matched: int
    stale: tuple[BaselineEntry, ...] = ()


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class UnusedSuppression:
    """A suppression of the config that silenced nothing in this run: `kind` is `per-tool-ignores` or
    `rules`, `key` what the config names (the tool pattern and code, or the rule)."""

    kind: str
    key: str
    reason: str | None


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ToolScores:
    """The jury's scores for one tool: the aggregate over its judges, and what each judge said.

    `spread` is max - min over the judges per component; `disagreements` are the components whose
    spread is wide enough to report; `reasons` and `rewrite` quote the judge nearest the aggregate.
    A component no judge scored because it does not apply (parameters of a tool that takes none) is
    absent from `aggregate`, `spread` and the judges' scores; `reasons` says why.
    """

    aggregate: Mapping[Component, float]
    judges: Mapping[str, Mapping[Component, float]]
    spread: Mapping[Component, float]
    disagreements: tuple[Component, ...]
    reasons: Mapping[Component, str]
    rewrite: str | None

    @property
    def overall(self) -> float:
        # Rounded like every score, so reports are stable across platforms' float formatting.
        return round(fmean(self.aggregate[c] for c in COMPONENTS if c in self.aggregate), 3)


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ServerScore:
    """A server's rubric score over its `tools` scored tools, per component and overall."""

    overall: float
    components: Mapping[Component, float]
    tools: int


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Unscored:
    """A (tool, judge) pair with no verdict, and why (a provider error, a cache miss when frozen)."""

    server: str
    tool: str
    judge: str
    reason: str


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ModelUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0  # None when litellm could not price some answer of this model


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Usage:
    calls: int = 0  # (tool, judge) verdicts requested from a provider, successful or not
    attempts: int = 0  # HTTP requests including retries
    failed: int = 0  # calls that ended unscored
    cache_hits: int = 0
    cache_misses: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # The cost of the models litellm can price (see `unpriced_models` for the rest); None when it can
    # price none of the models that were called. One unknown price must not hide the known ones.
    cost_usd: float | None = 0.0
    by_model: Mapping[str, ModelUsage] = field(default_factory=dict)  # in judge order

    @property
    def unpriced_models(self) -> tuple[str, ...]:
        return tuple(model for model, usage in self.by_model.items() if usage.cost_usd is None)


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class JuryReport:
    """What a jury run did, for the reporters and the gate: who judged with which rubric, what it
    spent, which (tool, judge) pairs it could not score, and what went wrong on the side."""

    judges: tuple[str, ...]
    rubric_version: int
    usage: Usage = field(default_factory=Usage)
    unscored: tuple[Unscored, ...] = ()
    warnings: tuple[str, ...] = ()


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ServerReport:
    """What the pipeline knows about one server after checking: findings, or why it failed.

    `tool_scores` maps a tool name to the jury's scores for it; `score` is the server-level rubric
    score; both are empty when the rubric was not scored. The later stages add `proposals`, `anchors`
    and `under_floor`.
    """

    name: str
    snapshot: ServerSnapshot | None
    findings: tuple[Finding, ...] = ()
    error: str | None = None
    tool_scores: Mapping[str, ToolScores] = field(default_factory=dict)
    score: ServerScore | None = None
    # The propose stage: one proposed description per tool with a rubric finding.
    proposals: Mapping[str, Proposal] = field(default_factory=dict)
    # The locate stage (only when an output needs places): each tool's anchor, and the server's own;
    # and where the source declares a parameter a finding is about, by (tool, parameter).
    anchors: Mapping[str, Anchor] = field(default_factory=dict)
    anchor: Anchor | None = None
    parameter_anchors: Mapping[tuple[str, str], Anchor] = field(default_factory=dict)
    # The gate stage: the server's rubric score is under the floor in force.
    under_floor: bool = False

    def anchor_for(self, tool: str | None) -> Anchor:
        """Where a finding about `tool` (None: the server) is shown: what the locate stage attached,
        else the placeholder."""
        if tool is not None and tool in self.anchors:
            return self.anchors[tool]
        return self.anchor or placeholder_anchor(self.name)

    def place(self, finding: Finding) -> Anchor:
        """Where `finding` is shown: at the parameter it is about where the source declares it, else
        at its tool (see anchor_for)."""
        parameter = finding.parameter
        if finding.tool is not None and parameter is not None:
            anchor = self.parameter_anchors.get((finding.tool, parameter))
            if anchor is not None:
                return anchor
        return self.anchor_for(finding.tool)


class Relint(Protocol):
    """What the run's deterministic rules (MCP0xx-MCP6xx), with the run's own settings (selection,
    options, severities, per-tool ignores), find in a snapshot. The check stage builds it and hands it
    on in `RunResult.relint`, so the propose stage lints its candidate texts as the run lints the
    originals, without reaching back into the rules."""

    def __call__(self, snapshot: ServerSnapshot) -> tuple[Finding, ...]: ...


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class RunResult:
    """Everything a reporter needs; reporters read this and nothing else."""

    servers: tuple[ServerReport, ...]
    fail_on: str = "low"
    # None when no rubric rule ran (or no server could be reflected), so no jury was called.
    jury: JuryReport | None = None
    # The gate: which findings can fail the run (see mcp_lint.profiles) and the server score floor:
    # `min_score` as configured (None: the profile's), `floor` the one in force once the gate ran.
    profile: str = "default"
    min_score: float | None = None
    floor: float | None = None
    baseline: BaselineStatus | None = None  # None when no baseline was used
    unused_suppressions: tuple[UnusedSuppression, ...] = ()
    # Config problems that do not stop the run (a suppression without a reason), one line each.
    warnings: tuple[str, ...] = ()
    # The check stage's re-lint (see `Relint`), for the propose stage; None when nothing was checked.
    relint: Relint | None = field(default=None, compare=False, repr=False)

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(finding for server in self.servers for finding in server.findings)

    @property
    def failing(self) -> tuple[Finding, ...]:
        """The findings the gate decided fail the run."""
        return tuple(finding for finding in self.findings if finding.fails)

    @property
    def under_floor(self) -> tuple[ServerReport, ...]:
        """The servers the gate found under the score floor."""
        return tuple(server for server in self.servers if server.under_floor)

    def counts(self) -> dict[str, int]:
        counts = {level.label: 0 for level in Severity}
        for finding in self.findings:
            counts[finding.severity.label] += 1
        counts["total"] = sum(counts.values())
        return counts
