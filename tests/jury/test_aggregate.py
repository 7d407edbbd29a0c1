"""Combining judges per tool and tools per server."""

from __future__ import annotations

import pytest

from mcp_lint.jury.aggregate import aggregate_verdicts, server_score
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict


def verdict(judge: str, base: float, rewrite: str | None = None, **overrides: float) -> JudgeVerdict:
    scores = dict.fromkeys(COMPONENTS, base) | overrides
    return JudgeVerdict(
        judge=judge,
        scores=scores,
        reasons={c: f"{judge}:{c}" for c in COMPONENTS},
        rewrite=rewrite if rewrite is not None else f"rewrite by {judge}",
    )


THREE = [verdict("a", 2, purpose=1), verdict("b", 3, purpose=5), verdict("c", 4, purpose=4)]


def test_median_mean_min() -> None:
    assert aggregate_verdicts(THREE, "median").aggregate["purpose"] == 4
    assert aggregate_verdicts(THREE, "mean").aggregate["purpose"] == pytest.approx(10 / 3, abs=1e-3)
    assert aggregate_verdicts(THREE, "min").aggregate["purpose"] == 1
    assert aggregate_verdicts(THREE).aggregate["guidelines"] == 3
    with pytest.raises(ValueError):
        aggregate_verdicts(THREE, "max")
    with pytest.raises(ValueError):
        aggregate_verdicts([])


def test_per_judge_scores_spread_and_disagreements() -> None:
    scores = aggregate_verdicts(THREE)
    assert scores.judges["b"]["purpose"] == 5 and scores.judges["a"]["length"] == 2
    assert scores.spread["purpose"] == 4 and scores.spread["length"] == 2
    assert scores.disagreements == COMPONENTS  # every component spans 2..4 or more
    close = aggregate_verdicts([verdict("a", 3), verdict("b", 4, examples=1)])
    assert close.spread == dict.fromkeys(COMPONENTS, 1.0) | {"examples": 2.0}
    assert close.disagreements == ("examples",)


def test_single_judge_passes_through() -> None:
    only = aggregate_verdicts([verdict("offline", 3, limitations=1)])
    assert only.aggregate == dict.fromkeys(COMPONENTS, 3.0) | {"limitations": 1.0}
    assert only.spread == dict.fromkeys(COMPONENTS, 0.0)
    assert only.disagreements == ()
    assert only.reasons["limitations"] == "offline:limitations"
    assert only.rewrite == "rewrite by offline"
    assert only.overall == pytest.approx((5 * 3 + 1) / 6, abs=1e-3)


def test_quoted_reason_is_closest_to_aggregate_ties_to_lower() -> None:
    scores = aggregate_verdicts(THREE)
    assert scores.reasons["purpose"] == "c:purpose"  # median 4: judge c scored exactly 4
    two = aggregate_verdicts([verdict("hi", 4), verdict("lo", 2)])
    assert two.reasons["purpose"] == "lo:purpose"  # median 3: both 1 away, the harsher is quoted


def test_rewrite_comes_from_the_judge_nearest_the_consensus() -> None:
    scores = aggregate_verdicts([verdict("a", 1), verdict("b", 3), verdict("c", 5)])
    assert scores.rewrite == "rewrite by b"
    no_rewrite = [JudgeVerdict("x", dict.fromkeys(COMPONENTS, 3.0)), verdict("y", 1)]
    assert aggregate_verdicts(no_rewrite).rewrite == "rewrite by y"
    assert aggregate_verdicts([JudgeVerdict("x", dict.fromkeys(COMPONENTS, 3.0))]).rewrite is None


def test_server_score_blends_mean_and_worst_tool() -> None:
    tools = [aggregate_verdicts([verdict("j", s)]) for s in (5, 5, 2)]
    summary = server_score(tools)
    assert summary is not None
    assert summary.tools == 3
    assert summary.overall == pytest.approx(0.6 * 4 + 0.4 * 2)
    assert summary.components["purpose"] == pytest.approx(3.2)
    uneven = server_score(
        [aggregate_verdicts([verdict("j", 4, examples=1)]), aggregate_verdicts([verdict("j", 2)])]
    )
    assert uneven is not None
    assert uneven.components["examples"] == pytest.approx(0.6 * 1.5 + 0.4 * 1)
    assert uneven.overall == pytest.approx(0.6 * ((3.5 + 2) / 2) + 0.4 * 2)
    assert server_score([]) is None
    assert 1 <= summary.overall <= 5


def test_fmean_and_median_are_statistics_bit_for_bit() -> None:
    import random
    import statistics

    from mcp_lint.jury.aggregate import median
    from mcp_lint.model import fmean

    rng = random.Random(20)
    samples = [[rng.choice((1, 2, 3, 4, 5)) for _ in range(rng.randint(1, 9))] for _ in range(200)]
    samples += [[rng.uniform(0, 5) for _ in range(rng.randint(1, 12))] for _ in range(200)]
    samples += [[0.1] * 10, [1e300, 1e300, -1e300], [2.675, 1.005, 3.3333333333333335]]
    for values in samples:
        assert fmean(values).hex() == statistics.fmean(values).hex(), values
        assert fmean(iter(values)).hex() == statistics.fmean(iter(values)).hex(), values
        assert median(values).hex() == float(statistics.median(values)).hex(), values
    with pytest.raises(statistics.StatisticsError):
        fmean([])
    with pytest.raises(statistics.StatisticsError):
        median([])


def test_one_verdict_fast_path_equals_the_general_path() -> None:
    """A single judge (the default offline run) takes `_one_verdict`; it must give exactly what the
    general path gives, for every aggregate: scores left out, reasons missing or empty, for a
    component that does not apply, rewrites empty or absent, fractional and odd scores."""
    import itertools
    import math
    import random

    from mcp_lint.jury.aggregate import _aggregate, _one_verdict

    rng = random.Random(5)
    cases = []
    for _ in range(400):
        scores = {
            c: rng.choice([1, 2, 3.0, 4.5, 5, 2.0004, 3.14159]) for c in COMPONENTS if rng.random() < 0.85
        }
        reasons = {c: rng.choice(["", "why " + c]) for c in COMPONENTS if rng.random() < 0.7}
        cases.append(JudgeVerdict("offline", scores, reasons, rng.choice([None, "", "Better text."])))
    cases.append(JudgeVerdict("x", {"parameters": math.inf}, {"purpose": "p"}))
    cases.append(JudgeVerdict("x", {}, {"purpose": "p"}))  # nothing scored: the general path's error
    for v, how in itertools.product(cases, ("median", "mean", "min")):
        if not any(c in v.scores for c in COMPONENTS):
            assert _one_verdict(v) is None
            with pytest.raises(Exception) as general:
                _aggregate([v], how)
            with pytest.raises(general.type):
                aggregate_verdicts([v], how)
            continue
        fast, slow = aggregate_verdicts([v], how), _aggregate([v], how)
        assert repr(fast) == repr(slow)
        assert list(fast.reasons) == list(slow.reasons)  # the same order too
        assert list(fast.aggregate) == list(slow.aggregate)


def test_round_is_round_to_three_places_bit_for_bit() -> None:
    """`_round` skips `round` for a whole float: the same float, sign of zero included, as
    `round(value, 3)` for whole, fractional, huge, tiny and non-finite values and for ints."""
    import math
    import random
    import struct

    from mcp_lint.jury.aggregate import _round

    rng = random.Random(34)
    values: list[float] = [0.0, -0.0, 1.0, -3.0, 2.5, 4.0005, 1e300, -1e300, 2.0**53, 2.0**53 + 2, 5e-324]
    values += [math.inf, -math.inf, math.nan]
    values += [rng.uniform(-10, 10) for _ in range(2000)]
    values += [float(rng.randint(-(10**6), 10**6)) for _ in range(2000)]
    values += [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(2000)]
    for value in values:
        fast, slow = _round(value), round(value, 3)
        assert type(fast) is type(slow)
        assert struct.pack("<d", fast) == struct.pack("<d", slow) or (math.isnan(fast) and math.isnan(slow))
    for whole in (0, 3, -7, 10**20):
        assert _round(whole) == round(whole, 3) and type(_round(whole)) is int  # type: ignore[arg-type]
