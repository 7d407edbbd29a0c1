"""The rubric's own anchors, applied to the offline jury's scores (a separate step after the model).

The offline jury's model is fitted on the research's LLM jury, which read the description alone and
scored by its own habits: a one-line tool with no examples gets examples 1, a tool with no parameters
gets parameters 1, and a long text scores length 5 however much of it is tutorial or shouting. People
who score by `rules/rubric.yaml` read its anchors differently there (issue 24), and the anchors are
what mcp-lint promises. This step corrects the model's scores only where an anchor's wording decides
the score, from facts of the tool itself:

* parameters is not applicable to a tool that takes no parameters: the component is left out of the
  scores (reports show n/a, the rubric rule cannot fire, the tool's overall and its server's score
  are taken over the components that apply);
* examples: "No examples but the call is simple enough" is anchor 3, so a simple call (few
  parameters, each with a clear type, documented in the schema or self-explanatory) scores at least
  3 when the description carries no example;
* length does not reward size: "every sentence earns its place" (5) is not given to a long text for
  its size, and a text padded with shouting (emphasis words in capitals: IMPORTANT, MANDATORY, ...)
  or built as a tutorial (many labelled sections) is at most "adequate; some text could go" (3).

What it does not do: lift the short descriptions people score a step above the research judges. That
is a difference of level between two yardsticks, not an anchor's wording. Below and above the smell
boundary it is settled by the model's own cut-points, fitted on people's scores with the boundary kept
where the research judges put it (`lab/fit_grades.py`: guidelines 2 and length 2 for a one-line
statement of the action come from there). Across the boundary (purpose 3 where those judges give 2)
nothing here moves a score: the two yardsticks part on the very same text (docs/jury.md), and
`python -m lab.yardsticks` measures both at once, with the price of each such lift.

Nothing here reads the model's features beyond the two facts of `Evidence`, so the model (and the
work on its speed) is untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_lint.check.tokens import estimate_tokens
from mcp_lint.lazyre import lazy
from mcp_lint.model import Tool
from mcp_lint.words import name_words

# A simple call: at most this many parameters ("few"), each clear on its own.
SIMPLE_MAX_PARAMETERS = 8
# A self-explanatory name: a scalar parameter named in at most this many words (`owner`, `repo`,
# `page_size`, `max_results`), the kind whose meaning the name and the tool's purpose settle.
SELF_EXPLANATORY_WORDS = 3
# The least score of examples for a simple call with no example (the anchor's "3").
SIMPLE_CALL_EXAMPLES = 3.0
# Length: above this many tokens (about 800 characters) a description is long; a long one is at
# most "complete and focused" (4), and at most "adequate, some text could go" (3) when padded.
LONG_TOKENS = 200
LONG_CAP = 4.0
PADDED_CAP = 3.0
# Padding by shouting: this many emphasis words written in capitals (each counted once per text), or
# one that opens a block as its label.
SHOUTING_MIN = 2
# Padding by tutorial: this many labelled sections (a line that is a heading, or starts with a bold or
# capitalised label ending in a colon: "**WORKFLOW:**", "Examples:", "## Usage").
TUTORIAL_MIN_SECTIONS = 4

_SCALARS = frozenset(("string", "integer", "number", "boolean"))
_MAPPING = (dict, Mapping)  # a JSON object is a dict, which `isinstance` knows at once (an ABC is slower)
_NO_SPEC: Mapping[str, Any] = {}  # what a property that is not an object is read as
# Words that shout an order or a warning at the model when written in capitals. Acronyms (JSON, HTTP,
# UTC) are capitals too but inform; these only raise the volume.
_EMPHASIS = frozenset(
    (
        "IMPORTANT", "CRITICAL", "MANDATORY", "ALWAYS", "NEVER", "MUST", "WARNING", "REQUIRED",
        "ESSENTIAL", "VERY", "STRICTLY", "ONLY", "DO", "NOT", "ANY", "ALL", "NOTE", "CAUTION",
        "ATTENTION", "PLEASE", "URGENT",
    )
)  # fmt: skip
_CAPS_WORD = lazy(r"\b[A-Z]{2,}\b")
_ANY_EMPHASIS = lazy("|".join(sorted(_EMPHASIS)))
# a block opened by a shouted label: "IMPORTANT:", "**CRITICAL - read first**", "## MANDATORY"
_SHOUTED_LABEL = lazy(r"^\W*(?:IMPORTANT|CRITICAL|MANDATORY|WARNING|CAUTION|ATTENTION)\b")
_SECTION = lazy(
    r"^\s*(?:#{1,6}\s+\S|\*\*[^*\n]{2,40}\*\*\s*:?\s*$|\*\*[^*\n]{2,40}:\*\*|[A-Z][A-Za-z /&-]{1,30}:\s*$)"
)


# Plain classes with a written `__init__`, not dataclasses: making a dataclass `exec`s generated source
# at import (~1.4 M instructions each, in every default lint), and nothing compares, hashes or prints
# these (identity equality, `object`'s repr). Not frozen, though never changed once made: a frozen
# `__init__` (an `object.__setattr__` per field) costs several times a plain one's, and one is made
# per tool scored.
class Evidence:
    """What the model's analysis found, as this step needs it."""

    __slots__ = ("example_hits", "placeholder")
    placeholder: bool  # empty, or "No description": the rubric's bottom everywhere
    example_hits: int  # example values, formats or sample calls in the description

    def __init__(self, placeholder: bool, example_hits: int) -> None:
        self.placeholder = placeholder
        self.example_hits = example_hits


# (a plain class, as `Evidence` is)
class Anchored:
    """Scores after the anchors (a component left out is not applicable), and the reasons that
    replace the model's for the components this step decided."""

    __slots__ = ("reasons", "scores")
    scores: dict[str, float]
    reasons: dict[str, str]

    def __init__(self, scores: dict[str, float], reasons: dict[str, str]) -> None:
        self.scores = scores
        self.reasons = reasons


def _documented(spec: Mapping[str, Any]) -> bool:
    text = spec.get("description")
    return (
        (isinstance(text, str) and bool(text.strip()))
        or "enum" in spec
        or "const" in spec
        or "default" in spec
    )


def _types(spec: Mapping[str, Any]) -> set[str]:
    """The JSON types a property accepts, through `anyOf`/`oneOf` (Optional[str] is string + null)."""
    kind = spec.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        branches = spec.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if isinstance(branch, Mapping):
                    found |= _types(branch)
    return found


def _clear(name: str, spec: Mapping[str, Any]) -> bool:
    """A parameter an agent can fill without an example: a clear type, and documented or named so
    plainly that the name says it."""
    if "enum" in spec or "const" in spec:
        return True
    kind = spec.get("type")
    if isinstance(kind, str):  # (most parameters: one type by name, read without the sets below)
        if kind in _SCALARS:
            return _documented(spec) or len(name_words(name)) <= SELF_EXPLANATORY_WORDS
        if kind == "null":
            return False
    types = _types(spec) - {"null"}
    if not types:
        return False
    if types <= _SCALARS:
        return _documented(spec) or len(name_words(name)) <= SELF_EXPLANATORY_WORDS
    if types == {"array"}:
        items = spec.get("items")
        return isinstance(items, Mapping) and _clear(name, items)
    if types == {"object"}:
        # its shape must be declared: a free-form object ("Search query") needs an example
        props = spec.get("properties")
        return (
            isinstance(props, Mapping)
            and bool(props)
            and all(_clear(str(k), v if isinstance(v, Mapping) else {}) for k, v in props.items())
        )
    # a mix of types (a string or a list of them): each must be clear
    branches = [b for key in ("anyOf", "oneOf") for b in spec.get(key) or () if isinstance(b, Mapping)]
    return (
        bool(branches)
        and _documented(spec)
        and all(_clear(name, b) for b in branches if _types(b) - {"null"})
    )


def simple_call(tool: Tool) -> bool:
    """Few parameters, each with a clear type, documented or self-explanatory."""
    props = tool.properties
    if len(props) > SIMPLE_MAX_PARAMETERS:
        return False
    for name, spec in props.items():
        if not _clear(str(name), spec if isinstance(spec, _MAPPING) else _NO_SPEC):
            return False
    return True


def _padding(text: str) -> list[str]:
    """The kinds of padding a text shows: shouting, tutorial sections."""
    kinds: list[str] = []
    # (only an emphasis word can shout, and a text without one anywhere, even inside a longer word,
    # has none among its words in capitals: `_ANY_EMPHASIS` is found by sre's first-character scan,
    # while `_CAPS_WORD`, led by a word boundary, is tried at every position)
    caps = _CAPS_WORD.findall(text) if _ANY_EMPHASIS.search(text) is not None else ()
    shouted = {word for word in caps if word in _EMPHASIS}
    lines = text.splitlines()
    if len(shouted) >= SHOUTING_MIN or (
        shouted and any(_SHOUTED_LABEL.match(line) for line in lines)  # opens a block
    ):
        kinds.append("shouting (" + ", ".join(sorted(shouted)[:3]) + ")")
    # (every `_SECTION` match has a "#", a "*" or a ":", which most lines lack: tested first)
    sections = sum(
        1 for line in lines if ("#" in line or ":" in line or "*" in line) and _SECTION.match(line)
    )
    if sections >= TUTORIAL_MIN_SECTIONS:
        kinds.append(f"{sections} tutorial sections")
    return kinds


def anchor(tool: Tool, scores: Mapping[str, float], evidence: Evidence) -> Anchored:
    """The model's `scores` for `tool`, corrected where the rubric's anchors decide."""
    out: dict[str, float] = dict(scores)
    reasons: dict[str, str] = {}
    if not tool.properties:
        out.pop("parameters", None)
        reasons["parameters"] = "n/a: the tool takes no parameters"
    if evidence.placeholder:
        return Anchored(out, reasons)
    props = len(tool.properties)
    if out["examples"] < SIMPLE_CALL_EXAMPLES and simple_call(tool):
        # "No examples but the call is simple enough, or an example that helps only partly"
        clear = f" ({props} clear parameter{'s' if props != 1 else ''})" if props else " (no parameters)"
        out["examples"] = SIMPLE_CALL_EXAMPLES
        reasons["examples"] = (
            "no examples, but the call is simple enough to need none" + clear
            if evidence.example_hits == 0
            else "the examples help only partly, and the call is simple enough" + clear
        )
    text = tool.description
    length = out["length"]
    padding = _padding(text) if length > PADDED_CAP else []
    if padding:
        out["length"] = PADDED_CAP
        reasons["length"] = f"padded ({'; '.join(padding)}): some text could go"
    elif length > LONG_CAP and (tokens := estimate_tokens(text)) > LONG_TOKENS:
        out["length"] = LONG_CAP
        reasons["length"] = f"long ({tokens} tokens): size alone earns no more than complete and focused"
    return Anchored(out, reasons)


__all__ = ["Anchored", "Evidence", "anchor", "simple_call"]
