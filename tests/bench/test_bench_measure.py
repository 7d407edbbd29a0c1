"""mcp_lint.bench.measure: ranks with ties, recall@k and the paired bootstrap on cases with known answers."""

from __future__ import annotations

import math

import pytest

from mcp_lint.bench.measure import first_rank, mean, paired_bootstrap, recall_at


def test_first_rank_counts_the_documents_above_the_best_relevant_one() -> None:
    assert first_rank([0.9, 0.5, 0.7, 0.1], {1}) == 3.0
    assert first_rank([0.9, 0.5, 0.7, 0.1], {1, 2}) == 2.0  # the better of the two relevant ones
    assert first_rank([0.2, 0.9], {1}) == 1.0


def test_ties_count_half_so_the_catalogue_order_never_decides() -> None:
    # BM25 scores every document sharing no word with the question 0: the relevant one among four
    # level documents is ranked 2.5, its expected rank under a random order, wherever it stands.
    assert first_rank([0.0, 0.0, 0.0, 0.0], {0}) == 2.5
    assert first_rank([0.0, 0.0, 0.0, 0.0], {3}) == 2.5
    assert first_rank([1.0, 0.0, 0.0], {2}) == 2.5


def test_recall_at_k_is_the_share_of_relevant_documents_ranked_within_k() -> None:
    scores = [0.9, 0.8, 0.7, 0.6, 0.5]
    assert recall_at(scores, {0, 4}, 1) == 0.5
    assert recall_at(scores, {0, 4}, 5) == 1.0
    assert recall_at([0.0, 0.0, 0.0], {1}, 1) == 0.0  # tie-aware rank 2
    assert recall_at([0.0, 0.0, 0.0], {1}, 2) == 1.0


def test_bootstrap_of_a_constant_change_is_that_change() -> None:
    before = [0.1, 0.5, 0.25, 1.0]
    after = [value + 0.125 for value in before]
    interval = paired_bootstrap(before, after, resamples=2_000, seed=3)
    assert interval.low == pytest.approx(0.125)
    assert interval.high == pytest.approx(0.125)


def test_bootstrap_interval_matches_the_normal_approximation() -> None:
    # 100 tasks, half gain 1 and half 0: the mean change is 0.5 with a standard error of 0.05, so the
    # 95% interval is close to 0.5 -+ 1.96 * 0.05.
    before = [0.0] * 100
    after = [1.0, 0.0] * 50
    interval = paired_bootstrap(before, after, resamples=10_000, seed=0)
    half_width = 1.96 * math.sqrt(0.25 / 100)
    assert interval.low == pytest.approx(0.5 - half_width, abs=0.015)
    assert interval.high == pytest.approx(0.5 + half_width, abs=0.015)


def test_bootstrap_pairs_the_tasks() -> None:
    # Each task gains exactly 0.1 however much the tasks differ from each other: paired, the
    # interval has no width; unpaired it would be wide.
    before = [0.0, 1.0, 0.0, 1.0, 0.5]
    after = [0.1, 1.1, 0.1, 1.1, 0.6]
    interval = paired_bootstrap(before, after, resamples=1_000)
    assert interval.high - interval.low == pytest.approx(0.0, abs=1e-12)


def test_bootstrap_is_reproducible_with_its_seed() -> None:
    before, after = [0.1, 0.9, 0.3, 0.2, 0.7], [0.2, 0.4, 0.9, 0.2, 0.8]
    assert paired_bootstrap(before, after, seed=7) == paired_bootstrap(before, after, seed=7)
    assert paired_bootstrap(before, after, seed=7) != paired_bootstrap(before, after, seed=8)


def test_bootstrap_refuses_unpaired_input() -> None:
    with pytest.raises(ValueError, match="equally long"):
        paired_bootstrap([0.1], [0.1, 0.2])


def test_mean() -> None:
    assert mean([1.0, 2.0]) == 1.5
    assert mean([]) == 0.0
