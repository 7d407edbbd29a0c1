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

from mcp_lint.check.functions._util import is_placeholder, words
from mcp_lint.fix.grounding import MAX_LISTED, Grounding, Rival, literal, trimmed
from mcp_lint.model import Tool
from mcp_lint.overrides import PARTS, Part
from mcp_lint.traces import TraceRecord
from mcp_lint.words import name_words

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


@dataclass(frozen=True)
class Composition:
    """One proposed description: the parts added (`parts`, purpose holding the original when touched),
    the components whose parts were added (`touched`), and why a wanted part is absent (`absent`)."""

    description: str
    parts: Mapping[str, str]
    touched: tuple[str, ...]
    absent: Mapping[str, str] = field(default_factory=dict)


def _names(names: Sequence[str]) -> str:
    shown = [f"`{name}`" for name in names[:MAX_LISTED]]
    more = len(names) - len(shown)
    if more:
        shown.append(f"{more} more")
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]


# Words nearly every English sentence of some length has; a description of eight words or more with
# none of them is in another language (or is not prose), and English is not appended to it.
_ENGLISH = frozenset(
    words(
        "the a an to of and or for in on is are with this that from by it its be as at returns return "
        "get gets list lists all if not use"
    )
)
_LATIN = re.compile(r"[A-Za-z]")


def english(text: str) -> bool:
    """Whether `text` reads as English (or is empty): mostly Latin letters, and a longer text has
    some of the commonest English words."""
    letters = [char for char in text if char.isalpha()]
    if not letters:
        return True
    latin = sum(1 for char in letters if _LATIN.match(char))
    if latin < 0.7 * len(letters):
        return False
    tokens = re.findall(r"[A-Za-z]+", text.lower())
    return len(tokens) < 8 or any(token in _ENGLISH for token in tokens)


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


def _contrast(rival: Rival) -> str:
    clauses: list[str] = []
    if rival.takes:
        clauses.append(f"takes {_names(rival.takes)}")
    if rival.lacks:
        clauses.append(f"does not take {_names(rival.lacks)}")
    if rival.returns:
        clauses.append(f"returns {_names(rival.returns)}")
    if rival.reads is True:
        clauses.append("only reads")
    elif rival.reads is False:
        clauses.append("changes data")
    joined = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + " and " + clauses[-1]
    return f"Unlike `{rival.name}`, it {joined}."


def guidelines_part(grounding: Grounding) -> str | None:
    """How it differs from each sibling an agent would confuse it with (`grounding.rivals`)."""
    return " ".join(_contrast(rival) for rival in grounding.rivals) or None


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


_RETURNS = re.compile(
    r"\b(?:returns?|returned|returning|gives back|responds? with|outputs?)\b", re.IGNORECASE
)


def empty(description: str) -> bool:
    """A description that says nothing: empty, whitespace or a placeholder ("TODO", "No description")."""
    return not description.strip() or is_placeholder(description)


def named_purpose(grounding: Grounding) -> str | None:
    """What the name says the tool does, for an empty description: its words as an imperative
    (`get_weather_forecast` -> "Get weather forecast"), with the inputs a call needs; None when it
    needs none (the sentence would only echo the name)."""
    words = name_words(grounding.tool.name)
    required = _required(grounding)
    if not words or not required:
        return None  # the name alone, echoed, says nothing the name does not
    sentence = " ".join(words) + f", given {_names(required)}"
    return sentence[0].upper() + sentence[1:] + "."


def purpose_part(grounding: Grounding, example: bool = False) -> str | None:
    """What it does (from the name and inputs, for an empty description) and what it returns (from
    recorded results, when neither an output schema, the description nor the `example` says it)."""
    sentences: list[str] = []
    description = grounding.tool.description
    if empty(description) and (named := named_purpose(grounding)):
        sentences.append(named)
    # An example in the description (this rewrite's or an earlier one's) shows a real result already.
    example = example or f"{grounding.tool.name}(" in _flat(description)
    returns = not (example or grounding.tool.raw.get("outputSchema") or _RETURNS.search(description))
    if grounding.successes and returns:
        if grounding.output_fields:
            fields = [name for name, _ in grounding.output_fields]
            sentences.append(f"Returns JSON with {_names(fields)}.")
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
) -> Composition | None:
    """The smallest grounded rewrite that clears the most of `targets` under `score` (the offline jury).

    `targets` are the smelly components; `components` (from --components) fixes the parts to add and
    turns the search off. None when no grounded part can be added, or (without `components`) when
    none of the grounded parts clears any smell without making a component worse.
    """
    original = grounding.tool.description
    wanted: set[Part] = (
        set(components)
        if components is not None
        else {part for component in targets if (part := PART_OF.get(component)) is not None}
    )
    built, absent = grounded_parts(grounding)
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
    if not chosen:
        return None
    if "examples" in chosen:
        # The example shows a real result and real values: the other parts do not say them again.
        again = grounded_parts(grounding, built["examples"])[0]
        chosen = [part for part in chosen if part in again]
        built = {part: again[part] for part in chosen}
    ordered = [part for part in PARTS if part in chosen]
    description, parts = assemble(original, {part: built[part] for part in ordered})
    return Composition(description=description, parts=parts, touched=tuple(ordered), absent=absent)
