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
from itertools import compress
from typing import Any

from mcp_lint.jury.anchors import Evidence, anchor
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.jury.features import FEATURE_NAMES, Extracted, ToolContext, analyze
from mcp_lint.jury.features.schema import _MAPPING
from mcp_lint.jury.siblings import similar_names
from mcp_lint.model import OFFLINE_JURY, Tool
from mcp_lint.resources import JURY_DATA

# The least score a component gets when the description gives it by an explicit, specific cue
# ("When to use:" naming the tool's things, "max 512KB", a worked example call): the judges' own
# threshold between a smell and none.
EXPLICIT_FLOOR = 3.0


class _Component:
    """One component's fitted model. A plain class with a written `__init__`, not a frozen dataclass
    (making one `exec`s generated source at every default lint's import); still read-only, as the
    shared model must be: assigning or deleting an attribute raises."""

    __slots__ = ("_dense", "_steps", "base", "cuts", "ridge_share", "steps", "weights")
    weights: tuple[tuple[int, float], ...]  # (feature index, weight), zero weights dropped
    base: float
    steps: tuple[tuple[int, tuple[float, ...], tuple[float, ...]], ...]  # (feature, thresholds, values)
    cuts: tuple[float, ...]
    ridge_share: float  # raw = ridge_share * ridge + (1 - ridge_share) * boost
    _dense: tuple[float, ...]  # weight per feature, or 0.0
    # steps with their value at a zero feature: (feature, thresholds, values, value at 0.0)
    _steps: tuple[tuple[int, tuple[float, ...], tuple[float, ...], float], ...]

    def __init__(
        self,
        weights: tuple[tuple[int, float], ...],
        base: float,
        steps: tuple[tuple[int, tuple[float, ...], tuple[float, ...]], ...],
        cuts: tuple[float, ...],
        ridge_share: float = 0.5,
    ) -> None:
        dense = [0.0] * len(FEATURE_NAMES)
        for j, w in weights:
            dense[j] = w
        for name, value in (
            ("weights", weights),
            ("base", base),
            ("steps", steps),
            ("cuts", cuts),
            ("ridge_share", ridge_share),
            ("_dense", tuple(dense)),
            ("_steps", tuple((j, ts, vs, vs[bisect.bisect_left(ts, 0.0)]) for j, ts, vs in steps)),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def raw(self, x: Sequence[float], nonzero: Sequence[int] | None = None) -> float:
        """The model's value for features `x`; `nonzero` is the indices of its non-zero features,
        ascending, when the caller has them.

        Bit-for-bit `lin = 0.0; for j, w in weights: lin += w * x[j]` and `boost = base; for each
        step: boost += vs[bisect_left(ts, x[j])]`, blended by `ridge_share`, with less work: most
        features are zero, and a term w * 0.0 is a zero, which leaves `lin` unchanged (`lin` starts
        at +0.0, and a sum of floats is -0.0 only when both terms are), so only non-zero features are
        visited, in the same order; a step at a zero feature adds its precomputed value at 0.0 (-0.0
        compares equal)."""
        dense = self._dense
        lin = 0.0
        # (without `nonzero`, the indices straight from `compress`, not a list of them)
        for j in compress(range(len(x)), x) if nonzero is None else nonzero:
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
    text = (JURY_DATA / "offline-weights.json").read_text(encoding="utf-8")
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


# The fast path of `_Scorer` decides a score only for values within +-_LIMIT (the cut-points are
# between 1 and 5; beyond, it leaves the score to `_Component.score`), so the last rounding of a
# value is at most _LIMIT * 2**-53 from the exact sum.
_LIMIT = 1e3
_ROUNDING = 2.0**-53
_EVERY_FEATURE = range(len(FEATURE_NAMES))
_SCORES = (1.0, 2.0, 3.0, 4.0, 5.0)  # `float(1 + k)` for the k cut-points a value is past


class _Scorer:
    """The six components' scores of one feature vector, each `_Component.score`, in one pass over
    its non-zero features instead of six passes, each with a loop over its boosted steps (73 steps
    in all, most of them at a zero feature): every verdict scores its prose vector.

    - The linear parts are `_Component.raw`'s bit for bit: the same products added in the same order
      (ascending feature), into six local sums at once. A product with a zero weight is a zero,
      which leaves a sum unchanged (a sum that starts at +0.0 is never -0.0).
    - The boosts are summed in another order: the boost at an all-zero vector (`zero`), plus, for
      each non-zero feature, what its steps add over their value at zero (one bisection into the
      union of the components' thresholds on that feature gives all six). Another order can change
      the last bits of a sum, so this value decides a score only when no cut-point is within
      `margin` of it: a bound on the rounding of both orders, from the number of steps and the
      largest step values (see `__init__`), times four. Otherwise, and for any value that is not
      finite or beyond +-_LIMIT, the component is scored by `_Component.score` itself.

    So the scores are always `_Component.score`'s; tests/jury/test_glue_fast.py holds them equal
    over the calibration tools and random vectors, some placed within a rounding of a cut-point.
    The six sums are written out as locals, the cheapest place for a running sum in CPython."""

    def __init__(self, model: Mapping[str, _Component]) -> None:
        self.names = tuple(model)
        comps = tuple(model.values())
        if len(comps) != 6:
            raise ValueError(f"the scorer sums six components, the model has {len(comps)}")
        if any(len(comp.cuts) != len(_SCORES) - 1 for comp in comps):
            raise ValueError("the scorer reads scores 1..5, four cut-points to a component")
        n = len(FEATURE_NAMES)
        self.weights = tuple(tuple(comp._dense[j] for comp in comps) for j in range(n))
        on: list[list[tuple[int, tuple[float, ...], tuple[float, ...], float]]] = [[] for _ in range(n)]
        for i, comp in enumerate(comps):
            for j, ts, vs, at_zero in comp._steps:
                on[j].append((i, ts, vs, at_zero))
        thresholds: list[tuple[float, ...] | None] = []
        deltas: list[tuple[tuple[float, ...], ...]] = []
        for steps in on:
            if not steps:
                thresholds.append(None)
                deltas.append(())
                continue
            union = tuple(sorted({t for _, ts, _, _ in steps for t in ts}))
            rows = []
            # a value in (union[k - 1], union[k]] is past the same thresholds of each step as union[k]
            for at in (*union, float("inf")):
                row = [0.0] * 6
                for i, ts, vs, at_zero in steps:
                    row[i] = vs[bisect.bisect_left(ts, at)] - at_zero
                rows.append(tuple(row))
            thresholds.append(union)
            deltas.append(tuple(rows))
        self.thresholds = tuple(thresholds)
        self.deltas = tuple(deltas)
        zero: list[float] = []
        parts: list[
            tuple[float, float, tuple[float, ...], tuple[float, ...], tuple[float, ...], float, _Component]
        ] = []
        for comp in comps:
            z = comp.base
            for _, _, _, at_zero in comp._steps:
                z += at_zero
            zero.append(z)
            rest = 1.0 - comp.ridge_share
            # Both boosts are sums of at most m + 1 terms (the base, m step values, or the value at
            # zero and m differences) whose partial sums stay within 3 * size, so each is within
            # (m + 1) * 3 * size * 2**-53 of the exact sum (plus the differences' own roundings);
            # scaled by `rest`, then the last two roundings of the value, within +-_LIMIT.
            size = abs(comp.base) + sum(max(map(abs, vs)) + abs(at_zero) for _, _, vs, at_zero in comp._steps)
            m = len(comp._steps)
            bound = abs(rest) * 2 * (3 * (m + 2) * size) * _ROUNDING + 4 * _LIMIT * _ROUNDING
            # the fast value decides score 1 + k when it lies, with its margin, within
            # [lows[k], highs[k]): between two cut-points, or within +-_LIMIT past the outer ones
            lows, highs = (-_LIMIT, *comp.cuts), (*comp.cuts, _LIMIT)
            parts.append((comp.ridge_share, rest, comp.cuts, lows, highs, 4 * bound, comp))
        self.zero = tuple(zero)
        self.parts = tuple(parts)
        # The bias (feature 0) is 1.0 in every vector `Analysis.values` makes, and is the first term of
        # each sum: the sums after it, computed once here, are the loop's after its first step (the
        # same additions: 0.0 + w * 1.0 and zero + the step differences at 1.0).
        bias_ts = thresholds[0]
        at_bias = deltas[0][bisect.bisect_left(bias_ts, 1.0)] if bias_ts is not None else None
        self.after_bias = (
            tuple(0.0 + w * 1.0 for w in self.weights[0]),
            self.zero if at_bias is None else tuple(z + d for z, d in zip(self.zero, at_bias, strict=True)),
        )

    def scores(self, x: Sequence[float]) -> list[float]:
        """`float(model[name].score(x))` for each component, in the model's order (`names`)."""
        weights, thresholds, deltas = self.weights, self.thresholds, self.deltas
        nonzero = compress(_EVERY_FEATURE, x)
        if x[0] == 1.0:  # the bias, as every vector of `Analysis.values` has it
            (l0, l1, l2, l3, l4, l5), (b0, b1, b2, b3, b4, b5) = self.after_bias
            next(nonzero)  # (its index, 0, is the first non-zero one: its step is taken)
        else:
            l0 = l1 = l2 = l3 = l4 = l5 = 0.0
            b0, b1, b2, b3, b4, b5 = self.zero
        for j in nonzero:
            v = x[j]
            w0, w1, w2, w3, w4, w5 = weights[j]
            l0 += w0 * v
            l1 += w1 * v
            l2 += w2 * v
            l3 += w3 * v
            l4 += w4 * v
            l5 += w5 * v
            ts = thresholds[j]
            if ts is not None:
                d0, d1, d2, d3, d4, d5 = deltas[j][bisect.bisect_left(ts, v)]
                b0 += d0
                b1 += d1
                b2 += d2
                b3 += d3
                b4 += d4
                b5 += d5
        out: list[float] = []
        for (share, rest, cuts, lows, highs, margin, comp), lin, boost in zip(
            self.parts, (l0, l1, l2, l3, l4, l5), (b0, b1, b2, b3, b4, b5), strict=True
        ):
            p = share * lin + rest * boost
            k = bisect.bisect_right(cuts, p)
            # (written so that a NaN fails both tests)
            if lows[k] <= p - margin and p + margin < highs[k]:
                out.append(_SCORES[k])
            else:  # too near a cut-point for the fast sum to decide
                out.append(float(comp.score(x)))
        return out


_SCORER: _Scorer | None = None


def _scorer() -> _Scorer:
    global _SCORER
    if _SCORER is None:
        _SCORER = _Scorer(_model())
    return _SCORER


def _names(items: Sequence[str], limit: int = 4) -> str:
    shown = ", ".join(items[:limit])
    n = len(items)
    return shown + (f", +{n - limit} more" if n > limit else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counted(n: int, noun: str, verb_one: str, verb_many: str) -> str:
    """A counted subject with its verb agreeing: '1 sentence gives', '2 sentences give'."""
    return f"{_plural(n, noun)} {verb_one if n == 1 else verb_many}"


class OfflineJury:
    """Scores a tool on the six rubric components without any model call."""

    name = OFFLINE_JURY

    def scores(
        self, tool: Tool, siblings: Sequence[str] = (), context: ToolContext | None = None
    ) -> tuple[dict[str, float], Extracted, int]:
        """(scores after the rubric's anchors, prose features, prose-only parameters score); a
        component that does not apply (parameters of a tool without any) is left out. `context` is
        `ToolContext.of(tool.name, tool.input_schema, siblings)` when the caller has it."""
        scores, ext, prose_params = self.model_scores(tool, siblings, context)
        # (see `mcp_lint.jury.anchors`; `anchor` returns fresh dicts)
        return anchor(tool, scores, Evidence(ext.placeholder, ext.example_hits)).scores, ext, prose_params

    def model_scores(
        self, tool: Tool, siblings: Sequence[str] = (), context: ToolContext | None = None
    ) -> tuple[dict[str, float], Extracted, int]:
        """The fitted model's (scores, prose features, prose-only parameters score), before the
        anchors; `context` as for `scores`."""
        model = _model()
        scorer = _scorer()
        schema = tool.input_schema
        if context is None:
            context = ToolContext.of(tool.name, schema, siblings)
        analysis = analyze(tool.name, tool.description, schema, siblings, context=context)
        ext = analysis.extracted()
        values = ext.values
        if ext.placeholder:  # empty or "No description": the rubric's bottom, not the model's guess
            scores = dict.fromkeys(COMPONENTS, 1.0)
        else:
            scores = dict(zip(scorer.names, scorer.scores(values), strict=True))
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
        # (`scores`, keeping the model's scores and the anchors' reasons for `_reasons`)
        model_scores, ext, prose_params = self.model_scores(tool, siblings, context)
        anchored = anchor(tool, model_scores, Evidence(ext.placeholder, ext.example_hits))
        reasons = self._reasons(tool, siblings, model_scores, ext, prose_params, context, anchored.reasons)
        return JudgeVerdict(judge=self.name, scores=anchored.scores, reasons=reasons, rewrite=None)

    # -----------------------------------------------------------------------------------------------

    def _reasons(
        self,
        tool: Tool,
        siblings: Sequence[str],
        scores: Mapping[str, float],
        ext: Extracted,
        prose_params: int,
        context: ToolContext,
        decided: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        """The model's reason for each component, in the rubric's order; where the anchors `decided`
        a component (parameters n/a, examples, length), their reason in its place, and the model's is
        not written."""
        if decided is None:
            decided = {}
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
            similar = similar_names(tool.name, siblings)  # only this reason names them
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

        if "parameters" in decided:
            r["parameters"] = decided["parameters"]
        else:
            r["parameters"] = self._param_reason(tool, ext, scores["parameters"], prose_params, context)

        if "length" in decided:
            r["length"] = decided["length"]
        elif unspecific:
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

        if "examples" in decided:
            r["examples"] = decided["examples"]
        elif ext.example_hits == 0:
            r["examples"] = "no example values, formats or sample calls"
        elif scores["examples"] < 3:
            r["examples"] = "examples are thin or stand in for the explanation"
        else:
            values = _counted(ext.example_hits, "example or literal value", "supports", "support")
            r["examples"] = f"{values} the prose"
        if decided:
            r.update(decided)  # (the three above are in place already; any other the same way)
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
