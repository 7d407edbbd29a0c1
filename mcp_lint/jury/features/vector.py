"""The feature vector: a tool analysed once (`analyze`, `Analysis`), its features by name in the order
the lab fits them (`FEATURE_NAMES`), and the facts the reasons are written from (`Extracted`)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from mcp_lint.jury.features.cues import explicit_cues
from mcp_lint.jury.features.lexicon import LIMIT_KIND_NAMES, PLACEHOLDER_WORDS, opens_with_verb
from mcp_lint.jury.features.schema import _MAPPING, _PropNames, schema_params
from mcp_lint.jury.features.segment import N_KINDS, _Segment, segment
from mcp_lint.jury.features.specificity import Anchors, _groups
from mcp_lint.jury.features.tokens import tokens
from mcp_lint.jury.features.units import Units, _UnitState, split_units, strip_repetition
from mcp_lint.lazyre import lazy

_NAME_SPLIT = re.compile(r"[^a-z0-9]+")
# The tool name's words for `name_overlap`, split at lower->upper only (getUIComponents: get,
# uicomponents), unlike `words.name_words` (get, ui, components): the weights were fitted on this
# split, and the shared one moves `name_overlap` of one calibration tool.
_CAMEL = lazy(r"(?<=[a-z])(?=[A-Z])")

# Features


# log1p of the small counts `_cap_log` sees: a table lookup gives math.log1p's own values, several
# times faster than two builtin calls per feature (`values` caps ~25 counts, twice per tool)
_LOG1P_MAX = 60
_LOG1P: tuple[float, ...] = tuple(math.log1p(n) for n in range(_LOG1P_MAX + 1))


def _cap_log(x: int, cap: int) -> float:
    """log1p of the count `x` capped at `cap`: what a capped count feature is (`Analysis.values`
    writes it out inline for caps within the table)."""
    n = x if x < cap else cap
    return _LOG1P[n] if 0 <= n <= _LOG1P_MAX else math.log1p(n)


# The features' names in the order of their vector (`Analysis.values`) and of the weights the lab fits.
FEATURE_NAMES: tuple[str, ...] = (
    "bias",
    "vocab_log",
    "novel_units_log",
    "one_unit",
    "vocab_le5",
    "vocab_ge40",
    "vocab_ge100",
    "cjk",
    "cjk_vocab",
    "verb_start",
    "content_list",
    "qualifiers",
    "name_overlap",
    "return_cue",
    "return_section",
    "usage_patterns",
    "usage_units_log",
    "limit_patterns",
    "limit_units_log",
    "limit_strong",
    "example_cue",
    "example_units_log",
    "code_spans_log",
    "quoted_log",
    "fence",
    "jsonish",
    "numbers_log",
    "bullets_log",
    "headers_log",
    "param_section",
    "param_lines_log",
    "n_props_log",
    "no_props",
    "frac_mentioned",
    "frac_explained",
    "n_explained_log",
    "type_words",
    "format_words",
    "default_words",
    *LIMIT_KIND_NAMES,
    "lim_kinds",
    "lim_prose_units_log",
    "must_call",
    "known_no_params",
    "frac_detailed",
    "frac_referenced",
    "lim_conditional_log",
    "lim_restrict_log",
    "param_constraints_log",
)


# The records below are plain classes with a written `__init__`, not dataclasses: making a dataclass
# `exec`s generated source at import (every default lint pays it), and nothing compares, hashes or
# prints them (identity equality, `object`'s repr). Not frozen, though never changed once made: a
# frozen `__init__` (an `object.__setattr__` per field) costs several times a plain one's, and they
# are made per tool scored.
class Extracted:
    """Feature vector plus the facts reasons are written from."""

    __slots__ = (
        "example_hits",
        "explained",
        "limit_hits",
        "mentioned",
        "placeholder",
        "props",
        "referenced",
        "return_hit",
        "units",
        "usage_hits",
        "values",
    )
    values: tuple[float, ...]
    units: Units
    props: tuple[str, ...]
    mentioned: frozenset[str]
    explained: frozenset[str]
    usage_hits: int
    limit_hits: int
    example_hits: int
    return_hit: bool
    placeholder: bool
    # named as a parameter in the prose (`text`, "the limit parameter") without an entry of its own
    referenced: frozenset[str]

    def __init__(
        self,
        values: tuple[float, ...],
        units: Units,
        props: tuple[str, ...],
        mentioned: frozenset[str],
        explained: frozenset[str],
        usage_hits: int,
        limit_hits: int,
        example_hits: int,
        return_hit: bool,
        placeholder: bool = False,
        referenced: frozenset[str] = frozenset(),
    ) -> None:
        self.values = values
        self.units = units
        self.props = props
        self.mentioned = mentioned
        self.explained = explained
        self.usage_hits = usage_hits
        self.limit_hits = limit_hits
        self.example_hits = example_hits
        self.return_hit = return_hit
        self.placeholder = placeholder
        self.referenced = referenced

    def as_dict(self) -> dict[str, float]:
        return dict(zip(FEATURE_NAMES, self.values, strict=False))


def _name_tokens(name: str) -> frozenset[str]:
    # a name with no upper-case letter has no lower->upper step to split at (`_CAMEL` leaves it)
    spaced = name if name.islower() else _CAMEL.sub(" ", name)
    return frozenset(filter(None, _NAME_SPLIT.split(spaced.lower())))  # (without the empty pieces)


# (a plain class, as `Extracted` is)
class Analysis:
    """A tool's description analysed once. `with_extra` appends more prose (the schema's parameter
    docs) incrementally: only the new units are scanned, then the segments are merged."""

    __slots__ = (
        "cues",
        "first_verb",
        "kept",
        "known_no_params",
        "name_tokens",
        "prop_names",
        "props",
        "seg",
        "state",
    )
    name_tokens: frozenset[str]
    props: tuple[str, ...]
    known_no_params: bool
    state: _UnitState
    kept: tuple[str, ...]
    first_verb: bool
    seg: _Segment
    prop_names: _PropNames  # `props` prepared for the per-segment look-ups
    cues: frozenset[str]  # components an explicit cue of the description gives

    def __init__(
        self,
        name_tokens: frozenset[str],
        props: tuple[str, ...],
        known_no_params: bool,
        state: _UnitState,
        kept: tuple[str, ...],
        first_verb: bool,
        seg: _Segment,
        prop_names: _PropNames,
        cues: frozenset[str] = frozenset(),
    ) -> None:
        self.name_tokens = name_tokens
        self.props = props
        self.known_no_params = known_no_params
        self.state = state
        self.kept = kept
        self.first_verb = first_verb
        self.seg = seg
        self.prop_names = prop_names
        self.cues = cues

    def with_extra(self, extra: str, *, consume: bool = False) -> Analysis:
        """This analysis with `extra` appended. `consume`: the caller reads this analysis no more
        (what its `extracted()` returned is a copy and stays valid), so its unit state is extended
        in place instead of copied."""
        if not extra:
            return self
        state = self.state if consume else self.state.copy()
        new = state.add(split_units(extra), appended=True)
        if not new:
            return Analysis(
                self.name_tokens,
                self.props,
                self.known_no_params,
                state,
                self.kept,
                self.first_verb,
                self.seg,
                self.prop_names,
                self.cues,
            )
        first_verb = self.first_verb if self.kept else opens_with_verb(new[0])
        seg = self.seg.merge(segment(new, self.prop_names))
        return Analysis(
            self.name_tokens,
            self.props,
            self.known_no_params,
            state,
            (*self.kept, *new),
            first_verb,
            seg,
            self.prop_names,
            self.cues,
        )

    @property
    def placeholder(self) -> bool:
        """No content word outside PLACEHOLDER_WORDS (an empty or "No description" text)."""
        return self.state.vocab <= PLACEHOLDER_WORDS

    def values(self) -> tuple[float, ...]:
        """Every feature, in the order of FEATURE_NAMES (the order the lab fits in): the vector the
        model reads. Each line is one feature, its name in the comment; the names are FEATURE_NAMES,
        and tests/jury/test_offline.py holds the comments to them, in order. (A tuple, not a mapping
        by name: a 55-entry dict built per text cost twice as much, for every tool twice.)

        A capped log count is `lg[n if n < cap else cap]`: `_cap_log(n, cap)` written out, for a
        count n >= 0 and a cap of at most `_LOG1P_MAX` (the table then holds it). About 25 of them
        per vector, and the expression costs a quarter of a call to `_cap_log` (or to `min`);
        tests/jury/test_offline.py holds every cap within the table and the vector equal to one
        built with `_cap_log`."""
        s = self.seg
        state = self.state
        nv = len(state.vocab)
        lv = math.log1p(nv)
        name_toks = self.name_tokens
        n_props = len(self.props)
        kinds = s.kinds
        explained = len(s.explained) if n_props else len(s.param_lines)
        lg = _LOG1P
        return (
            1.0,  # bias
            lv,  # vocab_log
            lg[n if (n := state.novel) < 60 else 60],  # novel_units_log
            1.0 if state.novel <= 1 else 0.0,  # one_unit
            1.0 if nv <= 5 else 0.0,  # vocab_le5
            1.0 if nv >= 40 else 0.0,  # vocab_ge40
            1.0 if nv >= 100 else 0.0,  # vocab_ge100
            1.0 if s.cjk else 0.0,  # cjk
            lv if s.cjk else 0.0,  # cjk_vocab
            1.0 if self.first_verb else 0.0,  # verb_start
            1.0 if s.content_list else 0.0,  # content_list
            lg[n if (n := len(s.qualifiers)) < 6 else 6],  # qualifiers
            len(name_toks & state.vocab) / len(name_toks) if name_toks else 0.0,  # name_overlap
            1.0 if s.return_cue else 0.0,  # return_cue
            1.0 if s.return_section else 0.0,  # return_section
            float(min(len(s.usage_pat), 4)),  # usage_patterns
            lg[n if (n := s.usage_units) < 8 else 8],  # usage_units_log
            float(min(len(s.limit_pat), 6)),  # limit_patterns
            lg[n if (n := s.limit_units) < 10 else 10],  # limit_units_log
            lg[n if (n := s.strong) < 6 else 6],  # limit_strong
            1.0 if s.example_pat else 0.0,  # example_cue
            lg[n if (n := s.example_units) < 8 else 8],  # example_units_log
            lg[n if (n := len(s.code_spans)) < 12 else 12],  # code_spans_log
            lg[n if (n := len(s.quoted)) < 12 else 12],  # quoted_log
            1.0 if s.fence else 0.0,  # fence
            1.0 if s.jsonish else 0.0,  # jsonish
            lg[n if (n := len(s.numbers)) < 12 else 12],  # numbers_log
            lg[n if (n := s.bullets) < 20 else 20],  # bullets_log
            lg[n if (n := len(s.headers)) < 8 else 8],  # headers_log
            1.0 if s.param_section else 0.0,  # param_section
            lg[n if (n := len(s.param_lines)) < 12 else 12],  # param_lines_log
            lg[n_props if n_props < 20 else 20],  # n_props_log
            1.0 if n_props == 0 else 0.0,  # no_props
            len(s.mentioned) / n_props if n_props else 0.0,  # frac_mentioned
            len(s.explained) / n_props if n_props else 0.0,  # frac_explained
            lg[explained if explained < 12 else 12],  # n_explained_log
            1.0 if s.type_words else 0.0,  # type_words
            1.0 if s.format_words else 0.0,  # format_words
            1.0 if s.default_words else 0.0,  # default_words
            *[lg[k if k < 6 else 6] for k in kinds],  # *LIMIT_KIND_NAMES: lim_scope, ... (lexicon.yaml)
            float(N_KINDS - kinds.count(0)),  # lim_kinds: the kinds covered
            lg[n if (n := s.limit_prose_units) < 10 else 10],  # lim_prose_units_log
            1.0 if s.must_call else 0.0,  # must_call
            1.0 if self.known_no_params else 0.0,  # known_no_params
            len(s.detailed) / n_props if n_props else 0.0,  # frac_detailed
            len(s.referenced) / n_props if n_props else 0.0,  # frac_referenced
            lg[n if (n := s.conditional_units) < 8 else 8],  # lim_conditional_log
            lg[n if (n := s.restrict_units) < 6 else 6],  # lim_restrict_log
            lg[n if (n := s.constraint_lines) < 10 else 10],  # param_constraints_log
        )

    def features(self) -> dict[str, float]:
        """Every feature by name (`values()` with FEATURE_NAMES)."""
        return dict(zip(FEATURE_NAMES, self.values(), strict=True))

    def extracted(self) -> Extracted:
        s = self.seg
        state = self.state
        # (positional, in the order of `Extracted.__init__`: keywords cost more per call)
        return Extracted(
            self.values(),  # values
            Units(self.kept, state.novel, frozenset(state.vocab), len(state.filler)),  # units
            self.props,  # props
            s.mentioned,  # mentioned
            s.explained,  # explained
            s.usage_units,  # usage_hits
            s.limit_units,  # limit_hits
            s.example_units + len(s.code_spans) + len(s.quoted),  # example_hits
            s.return_cue,  # return_hit
            self.placeholder,  # placeholder
            s.referenced,  # referenced
        )


# (a plain class, as `Extracted` is)
class ToolContext:
    """What the analysis of a tool's text reads besides the text (its name, schema and siblings),
    derived once: the texts of one tool (the propose stage's candidates) share it."""

    __slots__ = (
        "anchors",
        "documented",
        "known_no_params",
        "name_words",
        "prop_names",
        "props",
        "schema_prose",
        "unit_name_words",
    )
    anchors: Anchors
    props: tuple[str, ...]
    prop_names: _PropNames
    name_words: frozenset[str]  # `_name_tokens(name)`
    unit_name_words: frozenset[str]  # ... and the name as the text's tokens see it
    known_no_params: bool
    schema_prose: str  # `schema_as_prose(schema)`
    documented: frozenset[str]  # the properties documented in the schema itself (`schema_params`)

    def __init__(
        self,
        anchors: Anchors,
        props: tuple[str, ...],
        prop_names: _PropNames,
        name_words: frozenset[str],
        unit_name_words: frozenset[str],
        known_no_params: bool,
        schema_prose: str,
        documented: frozenset[str],
    ) -> None:
        self.anchors = anchors
        self.props = props
        self.prop_names = prop_names
        self.name_words = name_words
        self.unit_name_words = unit_name_words
        self.known_no_params = known_no_params
        self.schema_prose = schema_prose
        self.documented = documented

    @classmethod
    def of(cls, name: str, schema: Any, siblings: Sequence[str] = ()) -> ToolContext:
        props, documented, prose = schema_params(schema)  # (one walk of the properties)
        name_words = _name_tokens(name)
        return cls(
            Anchors(name, schema, siblings),  # (`Anchors.of`, without its frame)
            props,
            _PropNames.of(props),
            name_words,
            # "npmVersions" is one token in the text, two in name_words
            name_words | frozenset(tokens(name)),
            # (most first names settle it without the generator)
            isinstance(schema, _MAPPING)
            and (not props or (props[0].startswith("_") and all(p.startswith("_") for p in props))),
            prose,
            documented,
        )


def analyze(
    name: str,
    description: str,
    schema: Any,
    siblings: Sequence[str] = (),
    *,
    specificity: bool = True,
    context: ToolContext | None = None,
) -> Analysis:
    """Analyse a tool's name and description; the schema is read only for its parameter names, the
    names of the server's other tools only for the domain's nouns (see `Anchors`). `context` is
    `ToolContext.of(name, schema, siblings)` when the caller has it.

    `specificity=False` keeps every unit that is not boilerplate, as the calibration judges read the
    text: the model is fitted on that, and the runtime drops what is not specific to the tool.
    """
    text = description if isinstance(description, str) else ""
    if context is None:
        context = ToolContext.of(name, schema, siblings)
    anchors = context.anchors
    props = context.props
    state = _UnitState(
        set(),
        set(),
        set(),
        name_words=context.unit_name_words,
        anchors=anchors if specificity else None,
    )
    units = split_units(strip_repetition(text))
    groups = _groups(units) if specificity and units else None
    kept = state.add(units, groups=groups)
    first_verb = bool(kept) and opens_with_verb(kept[0])
    names = context.prop_names
    cues = explicit_cues(units, kept, anchors, names, groups) if kept else frozenset()
    return Analysis(
        context.name_words,
        props,
        context.known_no_params,
        state,
        tuple(kept),
        first_verb,
        segment(kept, names),
        names,
        cues,
    )


def extract(
    name: str, description: str, schema: Any, extra: str = "", siblings: Sequence[str] = ()
) -> Extracted:
    """Features of a tool from its name, description and input schema (schema only for names).

    `extra` is more prose appended after the description - the runtime passes `schema_as_prose`
    here to score schema-side parameter documentation with the prose-trained model.
    """
    return analyze(name, description, schema, siblings).with_extra(extra).extracted()
