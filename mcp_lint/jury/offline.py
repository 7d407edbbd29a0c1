"""The embedded offline jury: a deterministic, pure-Python rubric scorer fitted on a real LLM jury.

Per component it computes the features of the `features` package (once per tool), applies the model
shipped in `data/offline-weights.json` (written by `lab/fit_offline_jury.py`: a blend of a ridge
regression and an additive model of boosted stumps, then four cut-points) and returns an integer
score 1..5 (as a float; a score below 3 is a smell). No network, no key, no numpy.

`parameters`: the calibration judges saw only the prose, so the model is fitted on prose features.
A tool whose parameters are documented in its input schema (descriptions, enums, defaults, formats)
is documented for the agent too, so at runtime the schema's parameter docs are rendered as an
"Args:" section (`features.schema_as_prose`) and scored by the same prose-trained model; the
component takes the better of the prose-only and prose+schema scores. Schema docs can therefore only
raise `parameters`, never lower it, and they never touch the other five components.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from mcp_lint.jury.anchors import Evidence, anchor
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.jury.features import FEATURE_NAMES, Extracted, ToolContext, analyze
from mcp_lint.jury.features.schema import _MAPPING
from mcp_lint.jury.siblings import similar_names
from mcp_lint.model import OFFLINE_JURY, Tool

# The least score a component gets when the description gives it by an explicit, specific cue
# ("When to use:" naming the tool's things, "max 512KB", a worked example call): the judges' own
# threshold between a smell and none.
EXPLICIT_FLOOR = 3.0


def _nonzero(x: Sequence[float]) -> list[int]:
    """Indices of the features that are not zero, ascending (about one in five is not)."""
    return [j for j, v in enumerate(x) if v]


@dataclass(frozen=True, eq=False, repr=False)
class _Component:
    weights: tuple[tuple[int, float], ...]  # (feature index, weight), zero weights dropped
    base: float
    steps: tuple[tuple[int, tuple[float, ...], tuple[float, ...]], ...]  # (feature, thresholds, values)
    cuts: tuple[float, ...]
    ridge_share: float = 0.5  # raw = ridge_share * ridge + (1 - ridge_share) * boost
    _dense: tuple[float, ...] = field(init=False, repr=False, compare=False)  # weight per feature, or 0.0
    # steps with their value at a zero feature: (feature, thresholds, values, value at 0.0)
    _steps: tuple[tuple[int, tuple[float, ...], tuple[float, ...], float], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        dense = [0.0] * len(FEATURE_NAMES)
        for j, w in self.weights:
            dense[j] = w
        object.__setattr__(self, "_dense", tuple(dense))
        steps = tuple((j, ts, vs, vs[bisect.bisect_left(ts, 0.0)]) for j, ts, vs in self.steps)
        object.__setattr__(self, "_steps", steps)

    def raw(self, x: Sequence[float], nonzero: Sequence[int] | None = None) -> float:
        """The model's value for features `x`; `nonzero` is `_nonzero(x)`, passed in when several
        components score the same `x`.

        Bit-for-bit `lin = 0.0; for j, w in weights: lin += w * x[j]` and `boost = base; for each
        step: boost += vs[bisect_left(ts, x[j])]`, blended by `ridge_share`, with less work: most
        features are zero, and a term w * 0.0 is a zero, which leaves `lin` unchanged (`lin` starts
        at +0.0, and a sum of floats is -0.0 only when both terms are), so only non-zero features are
        visited, in the same order; a step at a zero feature adds its precomputed value at 0.0 (-0.0
        compares equal)."""
        if nonzero is None:
            nonzero = _nonzero(x)
        dense = self._dense
        lin = 0.0
        for j in nonzero:
            w = dense[j]
            if w:
                lin += w * x[j]
        boost = self.base
        for j, ts, vs, at_zero in self._steps:
            v = x[j]
            boost += vs[bisect.bisect_left(ts, v)] if v else at_zero
        share = self.ridge_share
        return share * lin + (1.0 - share) * boost

    def score(self, x: Sequence[float], nonzero: Sequence[int] | None = None) -> int:
        p = self.raw(x, nonzero)
        return 1 + bisect.bisect_right(self.cuts, p)


_MODEL: dict[str, _Component] | None = None


def load_weights_document() -> dict[str, Any]:
    text = resources.files("mcp_lint.jury").joinpath("data/offline-weights.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise ValueError("offline-weights.json: expected a JSON object")
    return doc


def _model() -> dict[str, _Component]:
    global _MODEL
    if _MODEL is None:
        doc = load_weights_document()
        comps = doc["components"]
        model: dict[str, _Component] = {}
        index = {name: j for j, name in enumerate(FEATURE_NAMES)}
        for comp in COMPONENTS:
            spec = comps[comp]
            weights = spec["weights"]
            boost = spec["boost"]
            model[comp] = _Component(
                tuple(
                    (j, float(weights[name]))
                    for j, name in enumerate(FEATURE_NAMES)
                    if float(weights.get(name, 0.0)) != 0.0
                ),
                float(boost["base"]),
                tuple(
                    (index[name], tuple(map(float, st["thresholds"])), tuple(map(float, st["values"])))
                    for name, st in sorted(boost["steps"].items(), key=lambda kv: index[kv[0]])
                ),
                tuple(sorted(float(c) for c in spec["cuts"])),
                float(spec.get("ridge_share", 0.5)),
            )
        _MODEL = model
    return _MODEL


def _names(items: Sequence[str], limit: int = 4) -> str:
    shown = ", ".join(items[:limit])
    n = len(items)
    return shown + (f", +{n - limit} more" if n > limit else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counted(n: int, noun: str, verb_one: str, verb_many: str) -> str:
    """A counted subject with its verb agreeing: '1 sentence gives', '2 sentences give'."""
    return f"{_plural(n, noun)} {verb_one if n == 1 else verb_many}"


def _similar_siblings(name: str, siblings: Sequence[str]) -> Sequence[str]:
    """Sibling names that share a word of three letters or more with `name`, sorted."""
    return similar_names(name, siblings)


class OfflineJury:
    """Scores a tool on the six rubric components without any model call."""

    name = OFFLINE_JURY

    def scores(
        self, tool: Tool, siblings: Sequence[str] = (), context: ToolContext | None = None
    ) -> tuple[dict[str, float], Extracted, int]:
        """(scores after the rubric's anchors, prose features, prose-only parameters score); a
        component that does not apply (parameters of a tool without any) is left out. `context` is
        `ToolContext.of(tool.name, tool.input_schema, siblings)` when the caller has it."""
        scores, ext, prose_params, _, _ = self._anchored(tool, siblings, context)
        return scores, ext, prose_params

    def _anchored(
        self, tool: Tool, siblings: Sequence[str], context: ToolContext | None = None
    ) -> tuple[dict[str, float], Extracted, int, dict[str, float], dict[str, str]]:
        """(anchored scores, features, prose-only parameters score, the model's scores, the reasons
        of the components the anchors decided); see `mcp_lint.jury.anchors`."""
        scores, ext, prose_params = self.model_scores(tool, siblings, context)
        anchored = anchor(tool, scores, Evidence(ext.placeholder, ext.example_hits))
        return anchored.scores, ext, prose_params, scores, anchored.reasons  # (fresh dicts of `anchor`)

    def model_scores(
        self, tool: Tool, siblings: Sequence[str] = (), context: ToolContext | None = None
    ) -> tuple[dict[str, float], Extracted, int]:
        """The fitted model's (scores, prose features, prose-only parameters score), before the
        anchors; `context` as for `scores`."""
        model = _model()
        schema = tool.input_schema
        if context is None:
            context = ToolContext.of(tool.name, schema, siblings)
        analysis = analyze(tool.name, tool.description, schema, siblings, context=context)
        ext = analysis.extracted()
        values = ext.values
        if ext.placeholder:  # empty or "No description": the rubric's bottom, not the model's guess
            scores = dict.fromkeys(COMPONENTS, 1.0)
        else:
            nonzero = _nonzero(values)
            scores = {comp: float(model[comp].score(values, nonzero)) for comp in COMPONENTS}
            for comp in analysis.cues:  # an explicit cue is never outweighed by length
                scores[comp] = max(scores[comp], EXPLICIT_FLOOR)
        prose_params = int(scores["parameters"])
        extra = context.schema_prose
        if extra and prose_params < 5:
            # incremental: only the schema's rendered docs are scanned, then merged with the prose
            with_extra = analysis.with_extra(extra, consume=True)  # (`analysis` is not read again)
            if not with_extra.placeholder:
                with_schema = model["parameters"].score(with_extra.values())
                scores["parameters"] = float(max(prose_params, with_schema))
        return scores, ext, prose_params

    def text_scorer(self, tool: Tool, siblings: Sequence[str]) -> Callable[[str], dict[str, float]]:
        """The scores `tool` would get with another description: what the propose stage asks of
        each candidate, with the tool's name, schema and siblings analysed once for all of them, when
        the first candidate is scored (a proposal that finds nothing to add scores none)."""
        contexts: list[ToolContext] = []

        def score(description: str) -> dict[str, float]:
            if not contexts:
                contexts.append(ToolContext.of(tool.name, tool.input_schema, siblings))
            raw = dict(tool.raw)
            raw["description"] = description
            return self.scores(Tool(tool.name, raw), siblings, contexts[0])[0]

        return score

    def judge(self, tool: Tool, siblings: Sequence[str]) -> JudgeVerdict:
        context = ToolContext.of(tool.name, tool.input_schema, siblings)
        scores, ext, prose_params, model_scores, decided = self._anchored(tool, siblings, context)
        reasons = self._reasons(tool, siblings, model_scores, ext, prose_params, context)
        reasons.update(decided)
        return JudgeVerdict(judge=self.name, scores=scores, reasons=reasons, rewrite=None)

    # -----------------------------------------------------------------------------------------------

    def _reasons(
        self,
        tool: Tool,
        siblings: Sequence[str],
        scores: Mapping[str, float],
        ext: Extracted,
        prose_params: int,
        context: ToolContext,
    ) -> dict[str, str]:
        units = ext.units
        n_sent = units.novel
        n_words = len(units.vocab)
        empty = n_words == 0
        filler_note = f" ({_plural(units.filler, 'filler sentence')} ignored)" if units.filler else ""
        r: dict[str, str] = {}

        # not empty, but no sentence in it is specific to this tool (see features.specificity.specific_units)
        unspecific = empty and units.filler > 0 and bool(tool.description.strip())
        if unspecific:
            r["purpose"] = (
                "no sentence says anything specific to this tool (none names its parameters, values, "
                "name or numbers), so nothing says what it does"
            )
        elif empty:
            r["purpose"] = "the description is empty, so nothing says what the tool does"
        elif scores["purpose"] >= 3:
            r["purpose"] = "says what it does" + (
                " and what it returns" if ext.return_hit else "; could still say what it returns"
            )
        elif n_sent <= 1:
            r["purpose"] = "a single short statement: says roughly what it does" + (
                "" if ext.return_hit else " but not what it returns or in what form"
            )
        else:
            r["purpose"] = "what it does is vague" + (
                "" if ext.return_hit else "; nothing says what it returns or in what form"
            )

        if ext.usage_hits == 0:
            msg = "no sentence says when to use it or when not to"
            similar = _similar_siblings(tool.name, siblings)  # only this reason names them
            if similar:
                msg += f"; nothing tells it apart from similar tools ({_names(similar)})"
            r["guidelines"] = msg
        elif scores["guidelines"] < 3:
            r["guidelines"] = (
                f"only {_counted(ext.usage_hits, 'sentence', 'hints', 'hint')} at usage; "
                "say when to use it, when not to, and which sibling to prefer"
            )
        else:
            r["guidelines"] = f"{_counted(ext.usage_hits, 'sentence', 'gives', 'give')} usage guidance"

        if ext.limit_hits == 0:
            r["limitations"] = "no sentence states what it does not do, its scope or its constraints"
        elif scores["limitations"] < 3:
            r["limitations"] = (
                f"{_counted(ext.limit_hits, 'sentence', 'touches', 'touch')} on constraints, "
                "but limits, scope and failure cases are not spelled out"
            )
        else:
            r["limitations"] = (
                f"{_counted(ext.limit_hits, 'sentence', 'states', 'state')} limits or constraints"
            )

        r["parameters"] = self._param_reason(tool, ext, scores["parameters"], prose_params, context)

        if unspecific:
            r["length"] = f"nothing specific to this tool{filler_note}"
        elif empty:
            r["length"] = "the description is empty"
        elif scores["length"] < 3:
            r["length"] = (
                f"too thin to be complete: {_plural(n_sent, 'informative sentence')}, "
                f"{_plural(n_words, 'distinct content word')}{filler_note}"
            )
        else:
            r["length"] = (
                f"substantive: {_plural(n_sent, 'informative sentence')}, "
                f"{_plural(n_words, 'distinct content word')}{filler_note}"
            )

        if ext.example_hits == 0:
            r["examples"] = "no example values, formats or sample calls"
        elif scores["examples"] < 3:
            r["examples"] = "examples are thin or stand in for the explanation"
        else:
            values = _counted(ext.example_hits, "example or literal value", "supports", "support")
            r["examples"] = f"{values} the prose"
        return r

    @staticmethod
    def _param_reason(
        tool: Tool, ext: Extracted, score: float, prose_params: int, context: ToolContext
    ) -> str:
        if not isinstance(tool.input_schema, _MAPPING):
            return "no input schema, and the prose does not describe any input"
        props = context.props
        if not props:
            return "takes no parameters"
        # explained in the prose, or documented in the schema (a mention then explains it too)
        documented = context.documented
        explained = ext.explained
        referenced = ext.referenced
        named: list[str] = []  # ... neither, but named as a parameter in the prose
        missing: list[str] = []  # ... none of these
        for n in props:
            if n not in explained and n not in documented:
                (named if n in referenced else missing).append(n)
        total = len(props)
        if missing:
            also = f"; {_names(named)} only named" if named else ""
            return (
                f"{len(missing)} of {_plural(total, 'parameter')} ({_names(missing)}) "
                f"{'is' if len(missing) == 1 else 'are'} never explained{also}"
            )
        if named and score < 3:
            # the prose names them as parameters ("pass the text in `text`") but says little more
            return (
                f"{_names(named)} {'is' if len(named) == 1 else 'are'} named in the prose but not documented "
                "as parameters (no entry with type, range or default, in the text or the schema)"
            )
        if score > prose_params:
            return f"all {_plural(total, 'parameter')} documented in the schema; the prose explains fewer"
        if score < 3:
            return (
                f"all {_plural(total, 'parameter')} named, but their format, effect and defaults are "
                "barely explained"
            )
        return f"all {_plural(total, 'parameter')} explained"


__all__ = ["OfflineJury"]
