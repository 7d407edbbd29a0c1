"""The offline augmentor: the default, deterministic rewrite, built only from grounded facts.

The original description is kept word for word; the parts it lacks are appended, each a few short
sentences in a fixed phrasing around facts from `grounding` (so nothing is invented). The research
behind the rubric found that rewriting every component cost agents extra steps, so the smallest set
of parts that clears the smells wins: the parts for the smelly components first, then (only when the
jury still finds a smell) other grounded parts one at a time, then every part the result can do
without is dropped again.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_lint.fix.grounding import MAX_LISTED, Grounding, Parameter, literal, max_enum, trimmed, writes
from mcp_lint.model import Tool
from mcp_lint.overrides import PARTS, Part
from mcp_lint.traces import TraceRecord

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

_FORMAT_SHAPES = {
    "date": "a date, YYYY-MM-DD",
    "date-time": "an ISO 8601 date-time",
    "time": "a time, HH:MM:SS",
    "duration": "an ISO 8601 duration",
    "email": "an email address",
    "uri": "an absolute URI",
    "url": "an absolute URL",
    "uuid": "a UUID",
}

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


def _values(values: Sequence[object]) -> str:
    shown = [literal(value) for value in values[: max_enum()]]
    if len(values) > max_enum():
        shown.append("...")
    return ", ".join(shown)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _range(parameter: Parameter) -> str | None:
    low, high = parameter.minimum, parameter.maximum
    if low is not None and high is not None:
        return f"{_number(low)} to {_number(high)}"
    if low is not None:
        return f"at least {_number(low)}"
    if high is not None:
        return f"at most {_number(high)}"
    return None


def _example_value(grounding: Grounding, parameter: Parameter) -> object | None:
    """A value of this top-level parameter from a successful recorded call (never a made-up one)."""
    if "." in parameter.path:
        return None
    for record in grounding.successes:
        if parameter.path in record.arguments:
            value = _quotable_value(record.arguments[parameter.path])
            if isinstance(value, str | int | float | bool) and len(literal(value)) <= 40:
                return value
    return None


def _parameter_entry(grounding: Grounding, parameter: Parameter) -> str:
    bits = [" or ".join(parameter.kinds)] if parameter.kinds else []
    bits.append("required" if parameter.required else "optional")
    if parameter.enum:
        bits.append(f"one of {_values(parameter.enum)}")
    if parameter.fmt:
        bits.append(_FORMAT_SHAPES.get(parameter.fmt, f"format {parameter.fmt}"))
    span = _range(parameter)
    if span:
        bits.append(span)
    if parameter.has_default:
        bits.append(f"default {literal(parameter.default)}")
    if parameter.fields:
        bits.append(f"fields {_names(list(parameter.fields))}")
    example = _example_value(grounding, parameter)
    if example is not None and not parameter.enum:
        bits.append(f"e.g. {literal(example)}")
    return f"`{parameter.path}` ({', '.join(bits)})"


def parameters_part(grounding: Grounding) -> str | None:
    """The parameters the schema leaves undocumented (all top-level ones when every one has a
    description), with what the schema says of each."""
    undocumented = [parameter for parameter in grounding.parameters if not parameter.documented]
    chosen = undocumented or [parameter for parameter in grounding.parameters if "." not in parameter.path]
    if not chosen:
        return None
    entries = [_parameter_entry(grounding, parameter) for parameter in chosen[:MAX_LISTED]]
    more = len(chosen) - len(entries)
    tail = f"; and {more} more" if more else ""
    return f"Parameters: {'; '.join(entries)}{tail}."


def _required(grounding: Grounding) -> list[str]:
    return [
        parameter.path
        for parameter in grounding.parameters
        if parameter.required and "." not in parameter.path
    ]


def _read_only(tool: Tool) -> bool:
    annotations = tool.annotations or {}
    return annotations.get("readOnlyHint") is True and not writes(tool)


def guidelines_part(grounding: Grounding) -> str | None:
    """When to use it and what to use instead: related siblings (their own first sentence), the
    annotations, and, with nothing else to go on, the parameters a call needs."""
    tool = grounding.tool
    sentences = [
        f"For {json.dumps(sentence, ensure_ascii=False)}, use `{name}` instead."
        for name, sentence in grounding.siblings.items()
    ]
    annotations = tool.annotations or {}
    if annotations.get("destructiveHint") is True:
        sentences.append("Call it only when the user asked for this change; it is destructive.")
    elif _read_only(tool):
        sentences.append("It only reads, so it is safe to call to look things up.")
    required = _required(grounding)
    if required:
        sentences.append(f"Call it only when you know {_names(required)}.")
    return " ".join(sentences) or None


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


def _constraint(parameter: Parameter) -> str | None:
    name = f"`{parameter.path}`"
    if parameter.enum and len(parameter.enum) > 1:
        return f"{name} must be one of {_values(parameter.enum)}"
    span = _range(parameter)
    if span:
        return f"{name} must be {span}"
    if parameter.max_length is not None:
        return f"{name} takes at most {parameter.max_length} characters"
    if parameter.max_items is not None:
        return f"{name} takes at most {parameter.max_items} items"
    if parameter.fmt in _FORMAT_SHAPES:
        return f"{name} must be {_FORMAT_SHAPES[parameter.fmt]}"
    if parameter.pattern and len(parameter.pattern) <= 40:
        return f"{name} must match `{parameter.pattern}`"
    return None


def limitations_part(grounding: Grounding, say_required: bool = True) -> str | None:
    """Recorded failures, the schema's constraints and what the annotations rule out."""
    sentences: list[str] = []
    seen: set[str] = set()
    for record in grounding.failures:
        text = trimmed(_error_text(record), 70)
        if not text or text in seen:
            continue
        seen.add(text)
        arguments = json.dumps(_arguments(record), ensure_ascii=False, separators=(", ", ": "), default=str)
        sentences.append(
            f"It fails with {json.dumps(text, ensure_ascii=False)} (recorded for {trimmed(arguments, 60)})."
        )
        if len(seen) == 2:
            break
    required = _required(grounding)
    if required and say_required:
        sentences.append(f"Requires {_names(required)}.")
    constraints = [found for parameter in grounding.parameters if (found := _constraint(parameter))]
    if constraints:
        sentences.append("; ".join(constraints[:3]) + ".")
    if _read_only(grounding.tool):
        sentences.append("It does not change anything.")
    return " ".join(sentences) or None


def _call(tool: Tool, arguments: Mapping[str, object]) -> str:
    shown = ", ".join(f"{name}={literal(value)}" for name, value in arguments.items())
    return f"{tool.name}({shown})"


def examples_part(grounding: Grounding) -> str | None:
    """One real call: the shortest successful recorded one, with the start of its real result."""
    if not grounding.successes:
        return None
    record = min(grounding.successes, key=lambda item: len(json.dumps(item.arguments, default=str)))
    result = trimmed(quotable(record.result_text()), 70)
    shown = json.dumps(result, ensure_ascii=False)
    return f"Example: {_call(grounding.tool, _arguments(record))} returned {shown}."


def purpose_part(grounding: Grounding) -> str | None:
    """What it returns, from the output schema or the recorded results; nothing when neither says."""
    if grounding.output_fields:
        fields = [f"`{name}` ({kind})" if kind else f"`{name}`" for name, kind in grounding.output_fields]
        shown = fields[:MAX_LISTED] + (
            [f"{len(fields) - MAX_LISTED} more"] if len(fields) > MAX_LISTED else []
        )
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        return f"Returns an object with {listed}."
    if grounding.successes:
        sample = trimmed(quotable(grounding.successes[0].result_text()), 60)
        return f"Returns text such as {json.dumps(sample, ensure_ascii=False)}."
    return None


_NO_GROUNDING = {
    "purpose": "no output schema or recorded result says what it returns",
    "guidelines": "no related sibling, annotation or required parameter",
    "limitations": "no recorded error or schema constraint",
    "parameters": "it takes no parameters",
    "examples": "no successful recorded call, and none is invented: record some with `mcp-lint record`",
}


def grounded_parts(grounding: Grounding, wanted: Collection[Part]) -> tuple[dict[Part, str], dict[str, str]]:
    """Each buildable part (purpose holds only the added sentence), and why the others are absent."""
    builders: dict[Part, Callable[[], str | None]] = {
        "purpose": lambda: purpose_part(grounding),
        "guidelines": lambda: guidelines_part(grounding),
        # The guidelines say which parameters a call needs; the limitations need not repeat it.
        "limitations": lambda: limitations_part(grounding, say_required="guidelines" not in wanted),
        "parameters": lambda: parameters_part(grounding),
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


def assemble(original: str, added: Mapping[Part, str]) -> tuple[str, dict[str, str]]:
    """The description with `added` appended to the original (kept as written) in part order, and
    the parts as the overrides file records them."""
    body = original.strip()
    if body and added and not body.endswith((".", "!", "?", ":", ";", ")", "`", '"', "'")):
        body += "."  # "List issues in a repository" runs into the next sentence otherwise
    parts: dict[str, str] = {}
    pieces: list[str] = []
    if "purpose" in added:
        parts["purpose"] = f"{body} {added['purpose']}".strip()
    for part in PARTS:
        if part in added and part != "purpose":
            parts[part] = added[part]
            pieces.append(added[part])
    lead = parts.get("purpose", body)
    separator = "\n\n" if "\n" in body else " "
    description = separator.join(text for text in (lead, *pieces) if text)
    return description, parts


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
    built, absent = grounded_parts(grounding, wanted)
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
    ordered = [part for part in PARTS if part in chosen]
    description, parts = assemble(original, {part: built[part] for part in ordered})
    return Composition(description=description, parts=parts, touched=tuple(ordered), absent=absent)
