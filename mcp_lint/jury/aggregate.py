"""Combine several judges' verdicts per tool, and tools' scores per server.

Which judge is quoted: for each component, the reason comes from the judge whose score is closest to the
aggregate, ties going to the lower score (the harsher judge usually names the defect), then to judge
order. The rewrite comes from the judge whose overall mean is closest to the aggregate's overall mean,
with the same tie-breaks, among judges that wrote one. Quoting a judge near the consensus keeps the
explanation consistent with the number the report shows.

Server score: `0.6 * mean + 0.4 * min` over the server's tools, per component and overall (a tool's
overall score is the mean of its aggregate components: the six, or five when parameters does not
apply because the tool takes none). The worst tool weighs in because an agent
that picks one badly described tool fails no matter how good the others are.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_lint.jury.base import JudgeVerdict
from mcp_lint.model import COMPONENTS, Component, ServerScore, ToolScores, fmean

__all__ = ["AGGREGATES", "ServerScore", "ToolScores", "aggregate_verdicts", "check_aggregate", "server_score"]

AGGREGATES = ("median", "mean", "min")
DISAGREEMENT_SPREAD = 2.0
SERVER_MEAN_WEIGHT = 0.6
SERVER_MIN_WEIGHT = 0.4


def _round(value: float) -> float:
    # Rounded so reports and JSON output are stable across platforms' float formatting. A whole
    # float (every score the offline jury gives, and a spread of 0.0) is its own rounding, known
    # without `round`'s decimal conversion (~0.4 us, a dozen per tool); held to `round(value, 3)` by
    # tests/jury/test_aggregate.py.
    if value.__class__ is float and value.is_integer():
        return value
    return round(value, 3)


def median(values: Sequence[float]) -> float:
    """`float(statistics.median(values))` without importing `statistics` (see `mcp_lint.model.fmean`):
    the middle value, or the mean of the two middle values, of the sorted values."""
    ordered = sorted(values)
    if not ordered:
        import statistics

        return float(statistics.median(ordered))  # raises its StatisticsError
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return float((ordered[middle - 1] + ordered[middle]) / 2)


def _combine(values: Sequence[float], how: str) -> float:
    if how == "median":
        return median(values)
    if how == "mean":
        return fmean(values)
    if how == "min":
        return float(min(values))
    raise ValueError(f"unknown aggregate {how!r}; use one of: {', '.join(AGGREGATES)}")


def check_aggregate(how: str) -> str:
    if how not in AGGREGATES:
        raise ValueError(f"unknown aggregate {how!r}; use one of: {', '.join(AGGREGATES)}")
    return how


def aggregate_verdicts(verdicts: Sequence[JudgeVerdict], how: str = "median") -> ToolScores:
    if not verdicts:
        raise ValueError("aggregate_verdicts needs at least one verdict")
    check_aggregate(how)
    if len(verdicts) == 1 and (one := _one_verdict(verdicts[0])) is not None:
        return one
    return _aggregate(verdicts, how)


def _aggregate(verdicts: Sequence[JudgeVerdict], how: str) -> ToolScores:
    """`aggregate_verdicts`, the general path (any number of judges)."""
    order = {v.judge: i for i, v in enumerate(verdicts)}
    aggregate: dict[Component, float] = {}
    spread: dict[Component, float] = {}
    reasons: dict[Component, str] = {}
    for comp in COMPONENTS:
        # A judge leaves out a component that does not apply (parameters of a tool without any);
        # it is aggregated over the judges that scored it, and left out when none did.
        scored = [v for v in verdicts if comp in v.scores]
        if not scored:
            continue
        values = [float(v.scores[comp]) for v in scored]
        agg = _combine(values, how)
        aggregate[comp] = _round(agg)
        spread[comp] = _round(max(values) - min(values))
        quoted = sorted(
            (v for v in scored if v.reasons.get(comp)),
            key=lambda v: (abs(float(v.scores[comp]) - agg), float(v.scores[comp]), order[v.judge]),
        )
        if quoted:
            reasons[comp] = quoted[0].reasons[comp]
    for comp in COMPONENTS:  # why a component is not applicable, when a judge said
        if comp not in aggregate:
            said = [v.reasons[comp] for v in verdicts if v.reasons.get(comp)]
            if said:
                reasons[comp] = said[0]
    overall = fmean(aggregate.values())
    writers = sorted(
        (v for v in verdicts if v.rewrite),
        key=lambda v: (abs(_mean(v) - overall), _mean(v), order[v.judge]),
    )
    return ToolScores(
        aggregate=aggregate,
        judges={v.judge: {c: float(v.scores[c]) for c in COMPONENTS if c in v.scores} for v in verdicts},
        spread=spread,
        disagreements=tuple(c for c in COMPONENTS if spread.get(c, 0.0) >= DISAGREEMENT_SPREAD),
        reasons=reasons,
        rewrite=writers[0].rewrite if writers else None,
    )


def _one_verdict(verdict: JudgeVerdict) -> ToolScores | None:
    """`aggregate_verdicts([verdict], how)` for any `how`, without the sorting and blending: one
    judge (the default, offline run) is its own median, mean and minimum, and the one quoted; None
    when it scored no component (the general path's error). About a tenth of the general path's
    time, once per tool of every run. Held to the general path by tests/jury/test_aggregate.py."""
    scores, given = verdict.scores, verdict.reasons
    aggregate: dict[Component, float] = {}
    spread: dict[Component, float] = {}
    reasons: dict[Component, str] = {}
    for comp in COMPONENTS:
        if comp in scores:
            value = float(scores[comp])
            aggregate[comp] = _round(value)
            spread[comp] = _round(value - value)
            if given.get(comp):
                reasons[comp] = given[comp]
    if not aggregate:
        return None
    for comp in COMPONENTS:  # why a component is not applicable, when the judge said
        if comp not in aggregate and given.get(comp):
            reasons[comp] = given[comp]
    return ToolScores(
        aggregate=aggregate,
        judges={verdict.judge: {c: float(scores[c]) for c in COMPONENTS if c in scores}},
        spread=spread,
        disagreements=(),
        reasons=reasons,
        rewrite=verdict.rewrite or None,
    )


def _mean(verdict: JudgeVerdict) -> float:
    return fmean(float(verdict.scores[c]) for c in COMPONENTS if c in verdict.scores)


def _blend(values: Sequence[float]) -> float:
    return _round(SERVER_MEAN_WEIGHT * fmean(values) + SERVER_MIN_WEIGHT * min(values))


def server_score(tools: Sequence[ToolScores]) -> ServerScore | None:
    """Blend of mean and worst tool; None for a server with no scored tools."""
    if not tools:
        return None
    # Per component over the tools it applies to (parameters: the tools that take some); a
    # component that applies to none of them is left out.
    components = {
        c: _blend(values)
        for c in COMPONENTS
        if (values := [t.aggregate[c] for t in tools if c in t.aggregate])
    }
    overall = _blend([fmean(t.aggregate[c] for c in COMPONENTS if c in t.aggregate) for t in tools])
    return ServerScore(overall=overall, components=components, tools=len(tools))
